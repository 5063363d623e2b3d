// The API call log (TESSERA_API_LOG=1; support/api_log.h, level_zero/api_log.h): a copy of this
// binary makes a few calls, one of them answered NOT_READY and one through an extension
// function's address. Through the loader its stderr has a line per call with the arguments, the
// result by name and a duration; linked directly, only the extension function's (the exported
// symbols are not wrapped); without the setting, none.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <map>
#include <string>

#include "ze_test_support.h"

using namespace tessera::test;

TEST_CASE("ze api log child: a few calls", "[.ze_api_log_child]") {
  ze_driver_handle_t driver = initDriver();
  ze_context_desc_t cd{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_context_handle_t context = nullptr;
  REQUIRE(zeContextCreate(driver, &cd, &context) == ZE_RESULT_SUCCESS);
  ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                          ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
  ze_event_pool_handle_t pool = nullptr;
  REQUIRE(zeEventPoolCreate(context, &pd, 0, nullptr, &pool) == ZE_RESULT_SUCCESS);
  ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, ZE_EVENT_SCOPE_FLAG_HOST};
  ze_event_handle_t event = nullptr;
  REQUIRE(zeEventCreate(pool, &ed, &event) == ZE_RESULT_SUCCESS);
  CHECK(zeEventHostSynchronize(event, 0) == ZE_RESULT_NOT_READY);
  auto getPus =
      extensionFunction<decltype(&zeTesseraDeviceGetPus)>(driver, "zeTesseraDeviceGetPus");
  REQUIRE(getPus != nullptr);
  CHECK(getPus(nullptr, nullptr, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  zeEventDestroy(event);
  zeEventPoolDestroy(pool);
  zeContextDestroy(context);
}

namespace {

ProcessResult runChild(bool log) {
  std::map<std::string, std::string> env{{"TESSERA_API_LOG", log ? "1" : "0"}};
  return runProgram({"/proc/self/exe", "ze api log child: a few calls"}, env);
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("Given TESSERA_API_LOG=1, then every Level Zero call through the loader is a line with "
          "its arguments, its result by name and its duration, and without it there is none",
          "[api_log]") {
  ProcessResult logged = runChild(true);
  INFO(logged.out << logged.err);
  REQUIRE(logged.exitCode == 0);
  // Through the extension function's address, linked either way.
  CHECK(has(logged.err, "zeTesseraDeviceGetPus(NULL, NULL, NULL) -> "
                        "ZE_RESULT_ERROR_INVALID_NULL_HANDLE ("));
#ifdef TESSERA_LINKED_DIRECTLY
  CHECK_FALSE(has(logged.err, "zeContextCreate("));
#else
  CHECK(has(logged.err, "tessera api: ["));
  CHECK(has(logged.err, "zeContextCreate(0x"));
  // The timeout 0 in the arguments, the NOT_READY by name.
  CHECK(has(logged.err, "zeEventHostSynchronize(0x"));
  CHECK(has(logged.err, ", 0) -> ZE_RESULT_NOT_READY ("));
  CHECK(has(logged.err, " us)\n"));
#endif
  ProcessResult quiet = runChild(false);
  INFO(quiet.err);
  REQUIRE(quiet.exitCode == 0);
  CHECK_FALSE(has(quiet.err, "tessera api:"));
}
