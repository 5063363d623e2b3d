// Event pool IPC: the guide's two-process example. The parent creates an IPC pool and hands its
// handle to a child (a copy of this test binary running one hidden test case, the handle in an
// environment variable); one process signals event 5 and the other waits for it on the host.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "ze_test_support.h"

namespace {

constexpr const char* kHandleVar = "TESSERA_TEST_EVENT_IPC_HANDLE";

std::string toHex(const ze_ipc_event_pool_handle_t& h) {
  std::string s;
  char b[3];
  for (unsigned char c : h.data) {
    std::snprintf(b, sizeof b, "%02x", c);
    s += b;
  }
  return s;
}

ze_ipc_event_pool_handle_t fromHex(const char* s) {
  ze_ipc_event_pool_handle_t h{};
  for (size_t i = 0; i < sizeof h.data && s[2 * i] && s[2 * i + 1]; ++i) {
    char b[3] = {s[2 * i], s[2 * i + 1], 0};
    h.data[i] = static_cast<char>(std::strtoul(b, nullptr, 16));
  }
  return h;
}

struct Fixture {
  ze_driver_handle_t driver = tessera::test::initDriver();
  ze_device_handle_t device = tessera::test::devices(driver).at(0);
  ze_context_handle_t context = nullptr;
  Fixture() {
    ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    REQUIRE(zeContextCreate(driver, &desc, &context) == ZE_RESULT_SUCCESS);
  }
  ~Fixture() { zeContextDestroy(context); }
};

ze_event_handle_t eventAt(ze_event_pool_handle_t pool, uint32_t index) {
  ze_event_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, index, 0, ZE_EVENT_SCOPE_FLAG_HOST};
  ze_event_handle_t e = nullptr;
  REQUIRE(zeEventCreate(pool, &desc, &e) == ZE_RESULT_SUCCESS);
  return e;
}

// The child's side: open the pool, create event 5 and either signal it from a command list or wait
// for the parent to signal it.
void childSide(bool signal) {
  const char* hex = std::getenv(kHandleVar);
  if (!hex) return;  // only in the child
  Fixture fx;
  ze_event_pool_handle_t pool = nullptr;
  REQUIRE(zeEventPoolOpenIpcHandle(fx.context, fromHex(hex), &pool) == ZE_RESULT_SUCCESS);
  ze_event_handle_t event = eventAt(pool, 5);
  if (signal) {
    ze_command_queue_desc_t qd{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    qd.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
    ze_command_list_handle_t list = nullptr;
    REQUIRE(zeCommandListCreateImmediate(fx.context, fx.device, &qd, &list) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListAppendSignalEvent(list, event) == ZE_RESULT_SUCCESS);
    zeCommandListDestroy(list);
  } else {
    CHECK(zeEventHostSynchronize(event, 30'000'000'000ull) == ZE_RESULT_SUCCESS);
  }
  CHECK(zeEventDestroy(event) == ZE_RESULT_SUCCESS);
  CHECK(zeEventPoolCloseIpcHandle(pool) == ZE_RESULT_SUCCESS);
}

tessera::test::ProcessResult runChild(const char* testName, const ze_ipc_event_pool_handle_t& h) {
  return tessera::test::runProgram({"/proc/self/exe", testName}, {{kHandleVar, toHex(h)}});
}

ze_event_pool_handle_t ipcPool(Fixture& fx) {
  ze_event_pool_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                            ZE_EVENT_POOL_FLAG_IPC | ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 10};
  ze_event_pool_handle_t pool = nullptr;
  REQUIRE(zeEventPoolCreate(fx.context, &desc, 1, &fx.device, &pool) == ZE_RESULT_SUCCESS);
  return pool;
}

}  // namespace

TEST_CASE("event ipc child: signal", "[.event_ipc_child]") { childSide(true); }
TEST_CASE("event ipc child: wait", "[.event_ipc_child]") { childSide(false); }

TEST_CASE("Given an IPC event pool, when another process signals event 5 from a command list, "
          "then this process's event 5 completes on the host",
          "[event][ipc]") {
  Fixture fx;
  ze_event_pool_handle_t pool = ipcPool(fx);
  ze_ipc_event_pool_handle_t handle;
  REQUIRE(zeEventPoolGetIpcHandle(pool, &handle) == ZE_RESULT_SUCCESS);
  ze_event_handle_t event = eventAt(pool, 5);
  CHECK(zeEventQueryStatus(event) == ZE_RESULT_NOT_READY);
  auto child = runChild("event ipc child: signal", handle);
  INFO(child.out << child.err);
  REQUIRE(child.exitCode == 0);
  CHECK(zeEventHostSynchronize(event, 10'000'000'000ull) == ZE_RESULT_SUCCESS);
  auto put = tessera::test::extensionFunction<ze_pfnEventPoolPutIpcHandle_t>(
      fx.driver, "zeEventPoolPutIpcHandle");
  REQUIRE(put != nullptr);
  CHECK(put(fx.context, handle) == ZE_RESULT_SUCCESS);
  CHECK(zeEventDestroy(event) == ZE_RESULT_SUCCESS);
  CHECK(zeEventPoolDestroy(pool) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given an IPC event pool, when this process signals event 5, then another process "
          "waiting on it on the host wakes",
          "[event][ipc]") {
  Fixture fx;
  ze_event_pool_handle_t pool = ipcPool(fx);
  ze_ipc_event_pool_handle_t handle;
  REQUIRE(zeEventPoolGetIpcHandle(pool, &handle) == ZE_RESULT_SUCCESS);
  ze_event_handle_t event = eventAt(pool, 5);
  // The child waits up to 30 s; signal before it starts, so the test never depends on timing.
  REQUIRE(zeEventHostSignal(event) == ZE_RESULT_SUCCESS);
  auto child = runChild("event ipc child: wait", handle);
  INFO(child.out << child.err);
  CHECK(child.exitCode == 0);
  CHECK(child.out.find("All tests passed") != std::string::npos);
  CHECK(zeEventDestroy(event) == ZE_RESULT_SUCCESS);
  CHECK(zeEventPoolDestroy(pool) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given event pools, when IPC handles are asked for or opened wrongly, then the calls "
          "fail cleanly",
          "[event][ipc]") {
  Fixture fx;
  ze_event_pool_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, 0, 4};
  ze_event_pool_handle_t local = nullptr;
  REQUIRE(zeEventPoolCreate(fx.context, &desc, 0, nullptr, &local) == ZE_RESULT_SUCCESS);
  ze_ipc_event_pool_handle_t handle{};
  // A pool created without ZE_EVENT_POOL_FLAG_IPC has no IPC handle.
  CHECK(zeEventPoolGetIpcHandle(local, &handle) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeEventPoolGetIpcHandle(local, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeEventPoolCloseIpcHandle(local) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  // Bytes that are not a handle, and a handle whose pool was destroyed, open nothing.
  ze_ipc_event_pool_handle_t garbage{};
  std::memset(garbage.data, 0x5a, sizeof garbage.data);
  ze_event_pool_handle_t opened = nullptr;
  CHECK(zeEventPoolOpenIpcHandle(fx.context, garbage, &opened) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  ze_event_pool_handle_t ipc = ipcPool(fx);
  REQUIRE(zeEventPoolGetIpcHandle(ipc, &handle) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventPoolDestroy(ipc) == ZE_RESULT_SUCCESS);
  CHECK(zeEventPoolOpenIpcHandle(fx.context, handle, &opened) != ZE_RESULT_SUCCESS);
  CHECK(opened == nullptr);
  CHECK(zeEventPoolDestroy(local) == ZE_RESULT_SUCCESS);
}
