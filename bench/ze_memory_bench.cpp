// Cost of zeMemAllocDevice + zeMemFree for 64 B, 4 KiB and 1 MiB, through whatever ze* library it
// is linked with. Prints, per size, the median and the spread (10th and 90th percentiles, min, max)
// of the time of one alloc+free pair, measured in batches.
//
// Usage: ze_memory_bench [samples] [pairs-per-sample]   (defaults 201 and 1000)
#include <level_zero/ze_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

#define CHECK_ZE(call)                                                \
  do {                                                                \
    ze_result_t r_ = (call);                                          \
    if (r_ != ZE_RESULT_SUCCESS) {                                    \
      std::fprintf(stderr, "%s failed: 0x%x\n", #call, unsigned(r_)); \
      std::exit(1);                                                   \
    }                                                                 \
  } while (0)

double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(q * (v.size() - 1) + 0.5)];
}

}  // namespace

int main(int argc, char** argv) {
  int samples = argc > 1 ? std::atoi(argv[1]) : 201;
  int pairs = argc > 2 ? std::atoi(argv[2]) : 1000;
  if (samples < 1 || pairs < 1) return 2;
  CHECK_ZE(zeInit(0));
  uint32_t n = 1;
  ze_driver_handle_t driver;
  CHECK_ZE(zeDriverGet(&n, &driver));
  ze_device_handle_t device;
  n = 1;
  CHECK_ZE(zeDeviceGet(driver, &n, &device));
  ze_context_desc_t cdesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_context_handle_t context;
  CHECK_ZE(zeContextCreate(driver, &cdesc, &context));
  ze_device_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};

  std::printf("zeMemAllocDevice + zeMemFree, %d samples of %d pairs (ns per pair)\n", samples,
              pairs);
  std::printf("%-8s %8s %8s %8s %8s %8s\n", "size", "median", "p10", "p90", "min", "max");
  for (size_t size : {size_t{64}, size_t{4096}, size_t{1} << 20}) {
    // Warm-up: the first allocation of a size class creates its arena.
    for (int i = 0; i < 10; ++i) {
      void* p;
      CHECK_ZE(zeMemAllocDevice(context, &desc, size, 0, device, &p));
      CHECK_ZE(zeMemFree(context, p));
    }
    std::vector<double> perPair;
    for (int s = 0; s < samples; ++s) {
      auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < pairs; ++i) {
        void* p;
        CHECK_ZE(zeMemAllocDevice(context, &desc, size, 0, device, &p));
        CHECK_ZE(zeMemFree(context, p));
      }
      auto t1 = std::chrono::steady_clock::now();
      perPair.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / pairs);
    }
    const char* label = size == 64 ? "64 B" : size == 4096 ? "4 KiB" : "1 MiB";
    std::printf("%-8s %8.0f %8.0f %8.0f %8.0f %8.0f\n", label, percentile(perPair, 0.5),
                percentile(perPair, 0.1), percentile(perPair, 0.9), percentile(perPair, 0.0),
                percentile(perPair, 1.0));
  }
  CHECK_ZE(zeContextDestroy(context));
  return 0;
}
