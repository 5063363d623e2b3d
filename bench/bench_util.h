// Small helpers for the benchmarks: timing, medians with spread, a Level Zero setup.
#pragma once

#include <level_zero/ze_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace tessera::bench {

inline double nowUs() {
  using namespace std::chrono;
  return duration<double, std::micro>(steady_clock::now().time_since_epoch()).count();
}

struct Stats {
  double median, p10, p90, min;
};

inline Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  auto at = [&](double q) { return v[static_cast<size_t>(q * double(v.size() - 1))]; };
  return {at(0.5), at(0.1), at(0.9), v.front()};
}

inline void report(const char* what, const Stats& s, const char* unit) {
  std::printf("%-58s median %10.3f %s  [p10 %.3f, p90 %.3f, min %.3f]\n", what, s.median, unit,
              s.p10, s.p90, s.min);
}

#define BENCH_CHECK(call)                                                          \
  do {                                                                             \
    ze_result_t r_ = (call);                                                       \
    if (r_ != ZE_RESULT_SUCCESS) {                                                 \
      std::fprintf(stderr, "%s:%d: %s failed: 0x%x\n", __FILE__, __LINE__, #call, \
                   unsigned(r_));                                                  \
      std::exit(1);                                                                \
    }                                                                              \
  } while (0)

struct Setup {
  ze_driver_handle_t driver = nullptr;
  ze_device_handle_t device = nullptr;
  ze_context_handle_t context = nullptr;

  Setup() {
    BENCH_CHECK(zeInit(0));
    uint32_t n = 1;
    BENCH_CHECK(zeDriverGet(&n, &driver));
    n = 1;
    BENCH_CHECK(zeDeviceGet(driver, &n, &device));
    ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    BENCH_CHECK(zeContextCreate(driver, &desc, &context));
  }
  ~Setup() { zeContextDestroy(context); }
};

// Iteration counts scale with BENCH_SCALE (default 1; the smoke test in ctest uses a small one).
inline double scale() {
  const char* v = std::getenv("BENCH_SCALE");
  return v ? std::max(0.001, std::atof(v)) : 1.0;
}
inline int iterations(int base) { return std::max(3, static_cast<int>(base * scale())); }

}  // namespace tessera::bench
