// IPC counter-based events (Level Zero 1.15 zeEventCounterBased{Get,Open,Close}IpcHandle): an
// event created with ZE_EVENT_COUNTER_BASED_FLAG_IPC is waited for by another process at the value
// its last signalling append had when the handle was made; a signal appended in the importing
// process moves the opened event to a counter of its own ("overwrites the previous tracking
// point") and never touches the exporter's. The child is this binary running a hidden case, the
// handle in an environment variable; ordering comes from a gate event the parent signals, and the
// child says on its stdout when it is about to wait: no sleeps.
// [novalidation]: the validation layer of Debian's loader refuses the in-order flags (test_in_order).
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "memory_test_support.h"
#include "tessera/ze_tessera.h"
#include "ze_exec_support.h"

using namespace tessera::test;

namespace {

constexpr const char* kHandleVar = "TESSERA_TEST_COUNTER_IPC_HANDLE";
constexpr ze_command_queue_flags_t kQueueInOrder = TESSERA_ZE_COMMAND_QUEUE_FLAG_IN_ORDER;

struct IpcFixture : ExecFixture {
  ze_pfnEventCounterBasedCreate_t create =
      requiredFunction<ze_pfnEventCounterBasedCreate_t>(driver, "zeEventCounterBasedCreate");
  ze_pfnEventCounterBasedGetIpcHandle_t getIpc =
      requiredFunction<ze_pfnEventCounterBasedGetIpcHandle_t>(driver,
                                                             "zeEventCounterBasedGetIpcHandle");
  ze_pfnEventCounterBasedOpenIpcHandle_t openIpc =
      requiredFunction<ze_pfnEventCounterBasedOpenIpcHandle_t>(
          driver, "zeEventCounterBasedOpenIpcHandle");
  ze_pfnEventCounterBasedCloseIpcHandle_t closeIpc =
      requiredFunction<ze_pfnEventCounterBasedCloseIpcHandle_t>(
          driver, "zeEventCounterBasedCloseIpcHandle");
  ze_pfnEventCounterBasedGetDeviceAddress_t deviceAddress =
      requiredFunction<ze_pfnEventCounterBasedGetDeviceAddress_t>(
          driver, "zeEventCounterBasedGetDeviceAddress");
  ze_command_list_handle_t list = nullptr;

  ~IpcFixture() {
    if (list) zeCommandListDestroy(list);
  }
  ze_event_handle_t counterEvent(ze_event_counter_based_flags_t flags) {
    ze_event_counter_based_desc_t d{ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC, nullptr, flags,
                                    0, 0};
    ze_event_handle_t e = nullptr;
    REQUIRE(create(context, device, &d, &e) == ZE_RESULT_SUCCESS);
    return e;
  }
  ze_command_list_handle_t inOrderList() {
    if (!list) {
      auto d = queueDesc(0, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, kQueueInOrder);
      REQUIRE(zeCommandListCreateImmediate(context, device, &d, &list) == ZE_RESULT_SUCCESS);
    }
    return list;
  }
  uint64_t completionValue(ze_event_handle_t e) {
    uint64_t value = 0, address = 0;
    REQUIRE(deviceAddress(e, &value, &address) == ZE_RESULT_SUCCESS);
    return value;
  }
};

constexpr ze_event_counter_based_flags_t kIpcFlags = ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE |
                                                     ZE_EVENT_COUNTER_BASED_FLAG_HOST_VISIBLE |
                                                     ZE_EVENT_COUNTER_BASED_FLAG_IPC;

// The child's side. "pending": the opened event is not complete; a signal appended here completes
// it without touching the exporter's counter. "wait": says "waiting" and waits for it on the host.
void childSide(const std::string& role) {
  const char* hex = std::getenv(kHandleVar);
  if (!hex) return;  // only in the child
  IpcFixture fx;
  ze_event_handle_t opened = nullptr;
  REQUIRE(fx.openIpc(fx.context, fromHex<ze_ipc_event_counter_based_handle_t>(hex), &opened) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(opened != nullptr);
  if (role == "pending") {
    CHECK(zeEventQueryStatus(opened) == ZE_RESULT_NOT_READY);
    CHECK(zeEventHostSynchronize(opened, 0) == ZE_RESULT_NOT_READY);
    uint32_t x = 0, value = 7;
    REQUIRE(zeCommandListAppendMemoryFill(fx.inOrderList(), &x, &value, sizeof value, sizeof value,
                                          opened, 0, nullptr) == ZE_RESULT_SUCCESS);
    CHECK(zeEventHostSynchronize(opened, kPatienceNs) == ZE_RESULT_SUCCESS);
    CHECK(x == 7);
  } else {
    std::cout << "waiting" << std::endl;
    CHECK(zeEventHostSynchronize(opened, kPatienceNs) == ZE_RESULT_SUCCESS);
  }
  CHECK(zeEventQueryStatus(opened) == ZE_RESULT_SUCCESS);
  // Only opened events are closed; this one is, and its handle ends.
  CHECK(fx.closeIpc(opened) == ZE_RESULT_SUCCESS);
  CHECK(zeEventQueryStatus(opened) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
}

std::map<std::string, std::string> childEnv(const ze_ipc_event_counter_based_handle_t& h) {
  return {{kHandleVar, toHex(h)}};
}

}  // namespace

TEST_CASE("counter ipc child: pending", "[.counter_ipc_child]") { childSide("pending"); }
TEST_CASE("counter ipc child: wait", "[.counter_ipc_child]") { childSide("wait"); }

TEST_CASE("Given an IPC counter-based event pending behind a gate, when another process opens "
          "its handle, then it is pending there, its signals there leave this process's counter "
          "alone, and it completes there when this process's append is done",
          "[current_api][counter_based][ipc][novalidation]") {
  IpcFixture fx;
  ze_event_handle_t cb = fx.counterEvent(kIpcFlags);
  auto gates = fx.events(1);
  uint32_t x = 0, value = 1;
  REQUIRE(zeCommandListAppendMemoryFill(fx.inOrderList(), &x, &value, sizeof value, sizeof value,
                                        cb, 1, &gates[0]) == ZE_RESULT_SUCCESS);
  ze_ipc_event_counter_based_handle_t handle{};
  REQUIRE(fx.getIpc(cb, &handle) == ZE_RESULT_SUCCESS);

  auto pending = runProgram({"/proc/self/exe", "counter ipc child: pending"}, childEnv(handle));
  INFO(pending.out << pending.err);
  CHECK(pending.exitCode == 0);
  CHECK(pending.out.find("All tests passed") != std::string::npos);
  // The child's own signal did not reach this process's counter.
  CHECK(zeEventQueryStatus(cb) == ZE_RESULT_NOT_READY);
  CHECK(fx.completionValue(cb) == 1);

  // The child waits (up to kPatienceNs) and says so first; the gate opens once it has said it.
  Child waiter =
      startProgram({"/proc/self/exe", "counter ipc child: wait"}, childEnv(handle));
  std::string line, rest;
  while (!(line = waiter.readLine()).empty() && line != "waiting") rest += line + "\n";
  REQUIRE(zeEventHostSignal(gates[0]) == ZE_RESULT_SUCCESS);
  CHECK(line == "waiting");
  while (!(line = waiter.readLine()).empty()) rest += line + "\n";
  INFO(rest);
  CHECK(rest.find("All tests passed") != std::string::npos);
  CHECK(waiter.wait() == 0);
  CHECK(zeEventHostSynchronize(cb, kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(x == 1);
  CHECK(zeEventDestroy(cb) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given counter-based events, when IPC handles are asked for, opened or closed wrongly, "
          "then the calls fail with the spec's errors",
          "[current_api][counter_based][ipc][novalidation]") {
  IpcFixture fx;
  ze_ipc_event_counter_based_handle_t handle{};
  // No IPC flag, or an ordinary event: no handle.
  ze_event_handle_t local = fx.counterEvent(ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE);
  CHECK(fx.getIpc(local, &handle) == ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT);
  auto plain = fx.events(1);
  CHECK(fx.getIpc(plain[0], &handle) == ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT);
  CHECK(fx.getIpc(nullptr, &handle) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  ze_event_handle_t ipc = fx.counterEvent(kIpcFlags);
  CHECK(fx.getIpc(ipc, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  // Only opened events are closed.
  CHECK(fx.closeIpc(ipc) == ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT);
  CHECK(fx.closeIpc(nullptr) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);

  // Never signalled: the handle's value is 0, so the opened event is complete. Opening it in the
  // exporting process works too (the same page, mapped again).
  REQUIRE(fx.getIpc(ipc, &handle) == ZE_RESULT_SUCCESS);
  ze_event_handle_t opened = nullptr;
  REQUIRE(fx.openIpc(fx.context, handle, &opened) == ZE_RESULT_SUCCESS);
  CHECK(zeEventQueryStatus(opened) == ZE_RESULT_SUCCESS);
  CHECK(fx.getIpc(opened, &handle) == ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT);
  CHECK(fx.closeIpc(opened) == ZE_RESULT_SUCCESS);
  CHECK(fx.openIpc(nullptr, handle, &opened) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(fx.openIpc(fx.context, handle, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);

  // Bytes that are no handle, an event pool's handle, and the handle of a destroyed event open
  // nothing.
  ze_ipc_event_counter_based_handle_t garbage{};
  std::memset(garbage.data, 0x5a, sizeof garbage.data);
  opened = nullptr;
  CHECK(fx.openIpc(fx.context, garbage, &opened) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                          ZE_EVENT_POOL_FLAG_IPC | ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
  ze_event_pool_handle_t pool = nullptr;
  REQUIRE(zeEventPoolCreate(fx.context, &pd, 1, &fx.device, &pool) == ZE_RESULT_SUCCESS);
  ze_ipc_event_pool_handle_t poolHandle{};
  REQUIRE(zeEventPoolGetIpcHandle(pool, &poolHandle) == ZE_RESULT_SUCCESS);
  ze_ipc_event_counter_based_handle_t fromPool{};
  std::memcpy(fromPool.data, poolHandle.data, sizeof fromPool.data);
  CHECK(fx.openIpc(fx.context, fromPool, &opened) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeEventPoolDestroy(pool) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventDestroy(ipc) == ZE_RESULT_SUCCESS);
  CHECK(fx.openIpc(fx.context, handle, &opened) != ZE_RESULT_SUCCESS);
  CHECK(opened == nullptr);
  CHECK(zeEventDestroy(local) == ZE_RESULT_SUCCESS);
}
