// How evenly Tessera's workers finished a benchmark's launches (issue 20): per timed launch, the
// launch's tail (from the first worker to finish to the last) and the spread of the workers' busy
// times, read from the extension ZE_tessera_launch_balance (tessera/ze_tessera.h) around each
// launch. Level Zero benchmarks reach it through the driver they use; OpenCL ones through the
// libze_tessera.so.1 that Tessera's ICD has loaded (none when the platform is not Tessera).
#pragma once

#include <dlfcn.h>
#include <level_zero/ze_api.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "tessera/ze_tessera.h"

namespace tessera::bench {

class LaunchBalance {
 public:
  LaunchBalance() = default;
  // Through `driver`'s zeDriverGetExtensionFunctionAddress.
  explicit LaunchBalance(ze_driver_handle_t driver) : driver_(driver) {
    void* f = nullptr;
    if (zeDriverGetExtensionFunctionAddress(driver, "zeTesseraDriverGetLaunchBalance", &f) ==
        ZE_RESULT_SUCCESS)
      get_ = reinterpret_cast<ze_pfnTesseraDriverGetLaunchBalance_t>(f);
  }
  // Through the Tessera driver library already in the process (loaded by Tessera's OpenCL ICD).
  static LaunchBalance fromLoadedDriver() {
    LaunchBalance b;
    void* lib = dlopen("libze_tessera.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!lib) return b;
    auto driverGet = reinterpret_cast<decltype(&zeDriverGet)>(dlsym(lib, "zeDriverGet"));
    b.get_ = reinterpret_cast<ze_pfnTesseraDriverGetLaunchBalance_t>(
        dlsym(lib, "zeTesseraDriverGetLaunchBalance"));
    uint32_t n = 1;
    if (!driverGet || driverGet(&n, &b.driver_) != ZE_RESULT_SUCCESS || n == 0) b.get_ = nullptr;
    return b;
  }
  bool available() const { return get_ != nullptr; }

  // Call before a timed launch.
  void start() {
    ze_tessera_launch_balance_t b;
    if (get_) get_(driver_, true, &b);
  }
  // Call after it: records the jobs since start() (none when the launch ran on one thread).
  void stop() {
    ze_tessera_launch_balance_t b{};
    if (!get_ || get_(driver_, true, &b) != ZE_RESULT_SUCCESS || b.jobs == 0) return;
    tailUs_.push_back(double(b.tailNs) / double(b.jobs) / 1e3);
    spreadUs_.push_back(double(b.busySpreadNs) / double(b.jobs) / 1e3);
    lateUs_.push_back(double(b.lateStartNs) / double(b.jobs) / 1e3);
    tailShare_.push_back(b.spanNs ? 100.0 * double(b.tailNs) / double(b.spanNs) : 0);
    workers_ = std::max(workers_, uint32_t(b.workers / b.jobs));
  }
  // One line: medians over the recorded launches.
  std::string summary() const {
    if (tailUs_.empty()) return available() ? "no parallel job" : "n/a";
    char s[200];
    std::snprintf(s, sizeof s,
                  "tail %.1f us (%.1f%% of the launch), busy spread %.1f us, last start %.1f us, "
                  "%u workers",
                  median(tailUs_), median(tailShare_), median(spreadUs_), median(lateUs_),
                  workers_);
    return s;
  }
  double medianTailUs() const { return tailUs_.empty() ? -1 : median(tailUs_); }
  double medianTailShare() const { return tailShare_.empty() ? -1 : median(tailShare_); }
  void clear() { tailUs_.clear(), spreadUs_.clear(), lateUs_.clear(), tailShare_.clear(); }

 private:
  static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  }
  ze_driver_handle_t driver_ = nullptr;
  ze_pfnTesseraDriverGetLaunchBalance_t get_ = nullptr;
  std::vector<double> tailUs_, spreadUs_, lateUs_, tailShare_;
  uint32_t workers_ = 0;
};

}  // namespace tessera::bench
