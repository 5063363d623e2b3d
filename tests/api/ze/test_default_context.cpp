// zeDriverGetDefaultContext (Level Zero 1.14): the driver's own context of every device, the same
// handle on every call (also from several threads at once), usable for memory, lists and events;
// zeContextDestroy refuses it (HANDLE_OBJECT_IN_USE), so it stays usable; a bad driver handle gives
// null and a last error description. Both test builds reach it by name through
// zeDriverGetExtensionFunctionAddress (docs/api-coverage.md, "Level Zero after 1.4").
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "tessera/ze_tessera.h"
#include "ze_exec_support.h"

using namespace tessera::test;

namespace {

ze_pfnDriverGetDefaultContext_t defaultContextFn(ze_driver_handle_t d) {
  return requiredFunction<ze_pfnDriverGetDefaultContext_t>(d, "zeDriverGetDefaultContext");
}

std::string lastError(ze_driver_handle_t d) {
  auto f =
      requiredFunction<ze_pfnDriverGetLastErrorDescription_t>(d, "zeDriverGetLastErrorDescription");
  const char* s = nullptr;
  REQUIRE(f(d, &s) == ZE_RESULT_SUCCESS);
  REQUIRE(s != nullptr);
  return s;
}

}  // namespace

TEST_CASE(
    "Given zeDriverGetDefaultContext, then every call, from any thread, returns the same "
    "live context, and memory, lists and events made in it work on every device",
    "[current_api][default_context]") {
  ze_driver_handle_t driver = initDriver();
  auto getDefault = defaultContextFn(driver);

  // Several threads at once, the first calls of the process among them maybe: one context.
  std::vector<ze_context_handle_t> seen(4, nullptr);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < seen.size(); ++i)
    threads.emplace_back([&, i] { seen[i] = getDefault(driver); });
  for (auto& t : threads) t.join();
  ze_context_handle_t context = getDefault(driver);
  REQUIRE(context != nullptr);
  for (ze_context_handle_t c : seen) CHECK(c == context);
  CHECK(zeContextGetStatus(context) == ZE_RESULT_SUCCESS);
  // Not one of the contexts zeContextCreate makes.
  ze_context_handle_t created = nullptr;
  ze_context_desc_t cd{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  REQUIRE(zeContextCreate(driver, &cd, &created) == ZE_RESULT_SUCCESS);
  CHECK(created != context);
  CHECK(zeContextDestroy(created) == ZE_RESULT_SUCCESS);

  // "contains all the devices available in the driver": a list and memory on each one, and on
  // each of their sub-devices.
  std::vector<ze_device_handle_t> all = devices(driver);
  for (size_t i = 0, n = all.size(); i < n; ++i) {
    uint32_t subs = 0;
    REQUIRE(zeDeviceGetSubDevices(all[i], &subs, nullptr) == ZE_RESULT_SUCCESS);
    std::vector<ze_device_handle_t> sub(subs);
    if (subs) REQUIRE(zeDeviceGetSubDevices(all[i], &subs, sub.data()) == ZE_RESULT_SUCCESS);
    all.insert(all.end(), sub.begin(), sub.end());
  }
  ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                          ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
  ze_event_pool_handle_t pool = nullptr;
  REQUIRE(zeEventPoolCreate(context, &pd, 0, nullptr, &pool) == ZE_RESULT_SUCCESS);
  ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, ZE_EVENT_SCOPE_FLAG_HOST};
  ze_event_handle_t done = nullptr;
  REQUIRE(zeEventCreate(pool, &ed, &done) == ZE_RESULT_SUCCESS);
  for (ze_device_handle_t device : all) {
    constexpr size_t kBytes = 4096;
    ze_device_mem_alloc_desc_t dd{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
    ze_host_mem_alloc_desc_t hd{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
    void* shared = nullptr;
    REQUIRE(zeMemAllocShared(context, &dd, &hd, kBytes, 0, device, &shared) == ZE_RESULT_SUCCESS);
    auto q = queueDesc(0, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
    ze_command_list_handle_t list = nullptr;
    REQUIRE(zeCommandListCreateImmediate(context, device, &q, &list) == ZE_RESULT_SUCCESS);
    const uint8_t value = 0x5a;
    REQUIRE(zeEventHostReset(done) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListAppendMemoryFill(list, shared, &value, 1, kBytes, done, 0, nullptr) ==
            ZE_RESULT_SUCCESS);
    REQUIRE(zeEventHostSynchronize(done, kPatienceNs) == ZE_RESULT_SUCCESS);
    CHECK(static_cast<uint8_t*>(shared)[0] == value);
    CHECK(static_cast<uint8_t*>(shared)[kBytes - 1] == value);
    CHECK(zeCommandListDestroy(list) == ZE_RESULT_SUCCESS);
    CHECK(zeMemFree(context, shared) == ZE_RESULT_SUCCESS);
  }
  CHECK(zeEventDestroy(done) == ZE_RESULT_SUCCESS);
  CHECK(zeEventPoolDestroy(pool) == ZE_RESULT_SUCCESS);
  CHECK(getDefault(driver) == context);
}

TEST_CASE(
    "Given the default context, when the application destroys it, then it is refused with "
    "HANDLE_OBJECT_IN_USE and stays usable; a bad driver handle gives null",
    "[current_api][default_context]") {
  ze_driver_handle_t driver = initDriver();
  auto getDefault = defaultContextFn(driver);
  ze_context_handle_t context = getDefault(driver);
  REQUIRE(context != nullptr);

  CHECK(zeContextDestroy(context) == ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
  CHECK(lastError(driver).find("default context") != std::string::npos);
  CHECK(zeContextGetStatus(context) == ZE_RESULT_SUCCESS);
  CHECK(getDefault(driver) == context);
  ze_host_mem_alloc_desc_t hd{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
  void* p = nullptr;
  REQUIRE(zeMemAllocHost(context, &hd, 64, 0, &p) == ZE_RESULT_SUCCESS);
  CHECK(zeMemFree(context, p) == ZE_RESULT_SUCCESS);

  // "In case of failure, this function returns null", with the cause in the last error.
  CHECK(getDefault(nullptr) == nullptr);
  CHECK(lastError(driver).find("driver") != std::string::npos);
  CHECK(getDefault(reinterpret_cast<ze_driver_handle_t>(context)) == nullptr);
}
