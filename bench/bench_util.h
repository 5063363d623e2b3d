// Small helpers for the Level Zero benchmarks: a setup and iteration counts (timing and medians
// are in bench_stats.h).
#pragma once

#include <level_zero/ze_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <vector>

#include "bench_stats.h"

namespace tessera::bench {

#define BENCH_CHECK(call)                                                          \
  do {                                                                             \
    ze_result_t r_ = (call);                                                       \
    if (r_ != ZE_RESULT_SUCCESS) {                                                 \
      std::fprintf(stderr, "%s:%d: %s failed: 0x%x\n", __FILE__, __LINE__, #call, \
                   unsigned(r_));                                                  \
      std::exit(1);                                                                \
    }                                                                              \
  } while (0)

// The bytes of a file (a SPIR-V module, a native binary); the benchmark ends when it cannot be read.
inline std::vector<uint8_t> readFile(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path);
    std::exit(1);
  }
  return {std::istreambuf_iterator<char>(in), {}};
}

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
