// Extension ZE_tessera_trace (tessera/ze_tessera.h): zeTesseraTraceFlush. The structure of a whole
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
