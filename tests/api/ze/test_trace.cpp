// Extensions ZE_tessera_trace (tessera/ze_tessera.h): zeTesseraTraceFlush, and
// ZE_tessera_launch_balance: zeTesseraDriverGetLaunchBalance. The structure of a whole
// trace is checked by tests/tools/check_trace.py (trace.* tests); the trace.flush test runs these
// cases with TESSERA_TRACE set.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "kernel_test_support.h"
#include "ze_test_support.h"

using tessera::test::extensionFunction;

TEST_CASE("zeTesseraTraceFlush is listed and checks its driver", "[trace]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  auto flush = extensionFunction<ze_pfnTesseraTraceFlush_t>(driver, "zeTesseraTraceFlush");
  REQUIRE(flush);
  CHECK(flush(nullptr) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(flush(driver) == ZE_RESULT_SUCCESS);
}

TEST_CASE("zeTesseraTraceFlush writes the trace before the process ends", "[trace]") {
  const char* path = std::getenv("TESSERA_TRACE");
  if (!path || std::strstr(path, "%p")) {
    WARN("TESSERA_TRACE unset (or per process): nothing to check");
    return;
  }
  std::remove(path);
  ze_driver_handle_t driver = tessera::test::initDriver();
  auto flush = extensionFunction<ze_pfnTesseraTraceFlush_t>(driver, "zeTesseraTraceFlush");
  REQUIRE(flush);
  REQUIRE(flush(driver) == ZE_RESULT_SUCCESS);
  std::ifstream in(path);
  std::string text{std::istreambuf_iterator<char>(in), {}};
  CHECK(text.rfind("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", 0) == 0);
  CHECK(text.find("\"otherData\"") != std::string::npos);
}

// Extension ZE_tessera_launch_balance: the workers' balance of the process's parallel jobs.
TEST_CASE("zeTesseraDriverGetLaunchBalance counts parallel jobs, resets and checks its arguments",
          "[trace][balance]") {
  tessera::test::KernelFixture fx;
  auto get = extensionFunction<ze_pfnTesseraDriverGetLaunchBalance_t>(
      fx.driver, "zeTesseraDriverGetLaunchBalance");
  REQUIRE(get);
  CHECK(tessera::test::extensionVersion(fx.driver, ZE_TESSERA_LAUNCH_BALANCE_EXT_NAME) ==
        ZE_TESSERA_LAUNCH_BALANCE_EXT_VERSION);
  ze_tessera_launch_balance_t b{};
  CHECK(get(nullptr, false, &b) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(get(fx.driver, false, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  REQUIRE(get(fx.driver, true, &b) == ZE_RESULT_SUCCESS);
  // A launch of many groups on a synchronous immediate list: parallel wherever there are 2 PUs.
  constexpr uint32_t kGroups = 64, kSize = 64;
  std::vector<float> a(kGroups * kSize, 1.0f), c(kGroups * kSize, 0.0f);
  ze_kernel_handle_t k = fx.kernel("vector_add", "vector_add");
  float *pa = a.data(), *pc = c.data();
  REQUIRE(zeKernelSetGroupSize(k, kSize, 1, 1) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(k, 0, sizeof pa, &pa) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(k, 1, sizeof pa, &pa) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(k, 2, sizeof pc, &pc) == ZE_RESULT_SUCCESS);
  auto imm = fx.immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  tessera::test::KernelFixture::launch(imm, k, {kGroups, 1, 1});
  CHECK(c.back() == 2.0f);
  REQUIRE(get(fx.driver, true, &b) == ZE_RESULT_SUCCESS);
  CHECK(b.tailNs <= b.spanNs);
  CHECK(b.maxTailNs <= b.tailNs);
  CHECK(b.lateStartNs <= b.spanNs);
  CHECK(b.workers >= b.jobs);
  if (std::thread::hardware_concurrency() >= 2 && tessera::test::devices(fx.driver).size() == 1)
    CHECK(b.jobs == 1);
  // Read with a reset: nothing since.
  REQUIRE(get(fx.driver, false, &b) == ZE_RESULT_SUCCESS);
  CHECK(b.jobs == 0);
  CHECK(b.workers == 0);
}
