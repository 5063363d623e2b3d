// Core functions of Level Zero 1.6 to 1.17 (tessera/ze_tessera.h; docs/api-coverage.md, "Level Zero
// after 1.4"): zeInitDrivers, zeDriverGetLastErrorDescription, zeCommandListHostSynchronize, the
// list, queue, event and pool queries, and zeEventCounterBasedCreate's argument checks
// (test_counter_based_events.cpp tests what the events do). Debian's loader has no
// table slot for them, so both test builds reach them through zeDriverGetExtensionFunctionAddress;
// the direct build also checks the DDI slots a current loader would read.
#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/ze_tessera.h"
#include "ze_exec_support.h"

using namespace tessera::test;

#ifdef TESSERA_LINKED_DIRECTLY
// level_zero/ze_ddi_tables_current.cpp: the getter of a table Debian's headers do not declare.
extern "C" ze_result_t ZE_APICALL zeGetCommandListExpProcAddrTable(ze_api_version_t, void*);
#endif

namespace {

// Every function of the file, by name through the driver.
struct Current {
  explicit Current(ze_driver_handle_t d)
      : initDrivers(extensionFunction<ze_pfnInitDrivers_t>(d, "zeInitDrivers")),
        lastError(extensionFunction<ze_pfnDriverGetLastErrorDescription_t>(
            d, "zeDriverGetLastErrorDescription")),
        hostSync(extensionFunction<ze_pfnCommandListHostSynchronize_t>(
            d, "zeCommandListHostSynchronize")),
        listDevice(extensionFunction<ze_pfnCommandListGetDeviceHandle_t>(
            d, "zeCommandListGetDeviceHandle")),
        listContext(extensionFunction<ze_pfnCommandListGetContextHandle_t>(
            d, "zeCommandListGetContextHandle")),
        listOrdinal(extensionFunction<ze_pfnCommandListGetOrdinal_t>(d, "zeCommandListGetOrdinal")),
        listIndex(extensionFunction<ze_pfnCommandListImmediateGetIndex_t>(
            d, "zeCommandListImmediateGetIndex")),
        isImmediate(
            extensionFunction<ze_pfnCommandListIsImmediate_t>(d, "zeCommandListIsImmediate")),
        queueOrdinal(
            extensionFunction<ze_pfnCommandQueueGetOrdinal_t>(d, "zeCommandQueueGetOrdinal")),
        queueIndex(extensionFunction<ze_pfnCommandQueueGetIndex_t>(d, "zeCommandQueueGetIndex")),
        eventPool(extensionFunction<ze_pfnEventGetEventPool_t>(d, "zeEventGetEventPool")),
        signalScope(extensionFunction<ze_pfnEventGetSignalScope_t>(d, "zeEventGetSignalScope")),
        waitScope(extensionFunction<ze_pfnEventGetWaitScope_t>(d, "zeEventGetWaitScope")),
        poolContext(extensionFunction<ze_pfnEventPoolGetContextHandle_t>(
            d, "zeEventPoolGetContextHandle")),
        poolFlags(extensionFunction<ze_pfnEventPoolGetFlags_t>(d, "zeEventPoolGetFlags")),
        counterBasedCreate(extensionFunction<ze_pfnEventCounterBasedCreate_t>(
            d, "zeEventCounterBasedCreate")),
        counterBasedFlags(extensionFunction<ze_pfnEventGetCounterBasedFlags_t>(
            d, "zeEventGetCounterBasedFlags")) {
    REQUIRE(initDrivers);
    REQUIRE(lastError);
    REQUIRE(hostSync);
    REQUIRE(listDevice);
    REQUIRE(listContext);
    REQUIRE(listOrdinal);
    REQUIRE(listIndex);
    REQUIRE(isImmediate);
    REQUIRE(queueOrdinal);
    REQUIRE(queueIndex);
    REQUIRE(eventPool);
    REQUIRE(signalScope);
    REQUIRE(waitScope);
    REQUIRE(poolContext);
    REQUIRE(poolFlags);
    REQUIRE(counterBasedCreate);
    REQUIRE(counterBasedFlags);
  }
  ze_pfnInitDrivers_t initDrivers;
  ze_pfnDriverGetLastErrorDescription_t lastError;
  ze_pfnCommandListHostSynchronize_t hostSync;
  ze_pfnCommandListGetDeviceHandle_t listDevice;
  ze_pfnCommandListGetContextHandle_t listContext;
  ze_pfnCommandListGetOrdinal_t listOrdinal;
  ze_pfnCommandListImmediateGetIndex_t listIndex;
  ze_pfnCommandListIsImmediate_t isImmediate;
  ze_pfnCommandQueueGetOrdinal_t queueOrdinal;
  ze_pfnCommandQueueGetIndex_t queueIndex;
  ze_pfnEventGetEventPool_t eventPool;
  ze_pfnEventGetSignalScope_t signalScope;
  ze_pfnEventGetWaitScope_t waitScope;
  ze_pfnEventPoolGetContextHandle_t poolContext;
  ze_pfnEventPoolGetFlags_t poolFlags;
  ze_pfnEventCounterBasedCreate_t counterBasedCreate;
  ze_pfnEventGetCounterBasedFlags_t counterBasedFlags;
};

const auto kNullHandle = ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
const auto kNullPointer = ZE_RESULT_ERROR_INVALID_NULL_POINTER;

// The last queue group of the device and its last queue, so that ordinal and index are not
// both 0 where the device has more than one of either.
void lastQueue(ze_device_handle_t device, uint32_t& ordinal, uint32_t& index) {
  uint32_t n = 0;
  REQUIRE(zeDeviceGetCommandQueueGroupProperties(device, &n, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<ze_command_queue_group_properties_t> groups(
      n, {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES});
  REQUIRE(zeDeviceGetCommandQueueGroupProperties(device, &n, groups.data()) == ZE_RESULT_SUCCESS);
  REQUIRE(n > 0);
  ordinal = n - 1;
  index = groups[ordinal].numQueues - 1;
}

}  // namespace

TEST_CASE("Given zeInitDrivers, then UINT32_MAX returns Tessera's driver, the GPU and NPU types "
          "return none (a CPU device is neither), and bad descriptors get the header's errors",
          "[current_api][init]") {
  ze_driver_handle_t driver = initDriver();
  Current api(driver);
  ze_init_driver_type_desc_t desc{ZE_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC, nullptr, UINT32_MAX};
  uint32_t n = 0;
  REQUIRE(api.initDrivers(&n, nullptr, &desc) == ZE_RESULT_SUCCESS);
  CHECK(n == 1);
  n = 4;  // more than there are: set to the number available
  ze_driver_handle_t got[4] = {};
  REQUIRE(api.initDrivers(&n, got, &desc) == ZE_RESULT_SUCCESS);
  CHECK(n == 1);
  CHECK(got[0] != nullptr);
#ifdef TESSERA_LINKED_DIRECTLY
  CHECK(got[0] == driver);  // the loader may hand out its own handle for the same driver
#endif
  desc.stype = ze_structure_type_t(0);  // unset: taken as the parameter's type (leniency)
  n = 0;
  CHECK(api.initDrivers(&n, nullptr, &desc) == ZE_RESULT_SUCCESS);
  CHECK(n == 1);

  for (ze_init_driver_type_flags_t flags :
       {ze_init_driver_type_flags_t(ZE_INIT_DRIVER_TYPE_FLAG_GPU),
        ze_init_driver_type_flags_t(ZE_INIT_DRIVER_TYPE_FLAG_NPU),
        ze_init_driver_type_flags_t(ZE_INIT_DRIVER_TYPE_FLAG_GPU | ZE_INIT_DRIVER_TYPE_FLAG_NPU)}) {
    INFO("flags " << flags);
    ze_init_driver_type_desc_t typed{ZE_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC, nullptr, flags};
    n = 5;
    got[0] = nullptr;
    CHECK(api.initDrivers(&n, got, &typed) == ZE_RESULT_ERROR_UNINITIALIZED);
    CHECK(n == 0);
    CHECK(got[0] == nullptr);
    const char* why = nullptr;
    REQUIRE(api.lastError(driver, &why) == ZE_RESULT_SUCCESS);
    REQUIRE(why != nullptr);
    CHECK(std::string(why).find("CPU") != std::string::npos);
  }
  // The driver initialized before is still there.
  n = 0;
  CHECK(zeDriverGet(&n, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(n == 1);

  ze_init_driver_type_desc_t bad{ZE_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC, nullptr, 0};
  CHECK(api.initDrivers(&n, nullptr, &bad) == ZE_RESULT_ERROR_INVALID_ENUMERATION);  // 0x0
  bad.flags = 0x4;
  CHECK(api.initDrivers(&n, nullptr, &bad) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  bad.flags = UINT32_MAX;
  bad.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC;
  CHECK(api.initDrivers(&n, nullptr, &bad) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(api.initDrivers(nullptr, nullptr, &desc) == kNullPointer);
  CHECK(api.initDrivers(&n, nullptr, nullptr) == kNullPointer);

  const char* s = nullptr;
  CHECK(api.lastError(nullptr, &s) == kNullHandle);
  CHECK(api.lastError(driver, nullptr) == kNullPointer);
}

TEST_CASE("Given immediate lists, when zeCommandListHostSynchronize waits, then it returns once "
          "the list's commands completed, NOT_READY before, and does not wait for other lists",
          "[current_api][immediate]") {
  ExecFixture fx;
  Current api(fx.driver);
  auto blocked = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  auto other = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  auto gate = fx.events(1)[0];
  std::vector<uint8_t> a(1 << 20, 0), b(1 << 20, 0);
  const uint8_t seven = 7, nine = 9;
  // The fill waits for the gate, which only the host signals.
  REQUIRE(zeCommandListAppendMemoryFill(blocked, a.data(), &seven, 1, a.size(), nullptr, 1,
                                        &gate) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendMemoryFill(other, b.data(), &nine, 1, b.size(), nullptr, 0,
                                        nullptr) == ZE_RESULT_SUCCESS);
  CHECK(api.hostSync(blocked, 0) == ZE_RESULT_NOT_READY);
  CHECK(api.hostSync(blocked, 1'000'000) == ZE_RESULT_NOT_READY);  // 1 ms: the gate is shut
  // The other list's queue runs regardless.
  REQUIRE(api.hostSync(other, kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(b.front() == 9);
  CHECK(b.back() == 9);
  CHECK(a.back() == 0);
  REQUIRE(zeEventHostSignal(gate) == ZE_RESULT_SUCCESS);
  REQUIRE(api.hostSync(blocked, UINT64_MAX) == ZE_RESULT_SUCCESS);
  CHECK(a.front() == 7);
  CHECK(a.back() == 7);
  CHECK(api.hostSync(blocked, 0) == ZE_RESULT_SUCCESS);  // nothing left

  // A synchronous immediate list has finished each command when its append returns.
  auto sync = fx.immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  CHECK(api.hostSync(sync, 0) == ZE_RESULT_SUCCESS);

  // "handle does not correspond to an immediate command list": NOT_READY, as the header says.
  CHECK(api.hostSync(fx.list(), UINT64_MAX) == ZE_RESULT_NOT_READY);
  CHECK(api.hostSync(nullptr, 0) == kNullHandle);
}

TEST_CASE("Given lists and queues, then the 1.9 queries return what they were created with, and "
          "null handles, null pointers and a regular list's index get the header's errors",
          "[current_api][cmdlist][queue]") {
  ExecFixture fx;
  Current api(fx.driver);
  uint32_t ordinal = 0, index = 0;
  lastQueue(fx.device, ordinal, index);
  auto queue = fx.queue(ordinal, index);
  auto regular = fx.list(ordinal);
  auto d = queueDesc(ordinal, index, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  ze_command_list_handle_t immediate = nullptr;
  REQUIRE(zeCommandListCreateImmediate(fx.context, fx.device, &d, &immediate) ==
          ZE_RESULT_SUCCESS);
  INFO("ordinal " << ordinal << ", index " << index);

  uint32_t got = 99;
  REQUIRE(api.queueOrdinal(queue, &got) == ZE_RESULT_SUCCESS);
  CHECK(got == ordinal);
  got = 99;
  REQUIRE(api.queueIndex(queue, &got) == ZE_RESULT_SUCCESS);
  CHECK(got == index);

  for (auto list : {regular, immediate}) {
    const bool isImm = list == immediate;
    INFO((isImm ? "immediate" : "regular"));
    ze_device_handle_t dev = nullptr;
    REQUIRE(api.listDevice(list, &dev) == ZE_RESULT_SUCCESS);
    CHECK(dev == fx.device);
    ze_context_handle_t ctx = nullptr;
    REQUIRE(api.listContext(list, &ctx) == ZE_RESULT_SUCCESS);
    CHECK(ctx == fx.context);
    got = 99;
    REQUIRE(api.listOrdinal(list, &got) == ZE_RESULT_SUCCESS);
    CHECK(got == ordinal);
    ze_bool_t imm = 2;
    REQUIRE(api.isImmediate(list, &imm) == ZE_RESULT_SUCCESS);
    CHECK(imm == (isImm ? 1 : 0));
  }
  got = 99;
  REQUIRE(api.listIndex(immediate, &got) == ZE_RESULT_SUCCESS);
  CHECK(got == index);
  // The header lists "handle does not correspond to an immediate command list" under
  // INVALID_NULL_POINTER.
  CHECK(api.listIndex(regular, &got) == kNullPointer);

  CHECK(api.queueOrdinal(nullptr, &got) == kNullHandle);
  CHECK(api.queueOrdinal(queue, nullptr) == kNullPointer);
  CHECK(api.queueIndex(nullptr, &got) == kNullHandle);
  CHECK(api.queueIndex(queue, nullptr) == kNullPointer);
  CHECK(api.listDevice(nullptr, nullptr) == kNullHandle);
  CHECK(api.listDevice(regular, nullptr) == kNullPointer);
  CHECK(api.listContext(nullptr, nullptr) == kNullHandle);
  CHECK(api.listContext(regular, nullptr) == kNullPointer);
  CHECK(api.listOrdinal(nullptr, &got) == kNullHandle);
  CHECK(api.listOrdinal(regular, nullptr) == kNullPointer);
  CHECK(api.listIndex(nullptr, &got) == kNullHandle);
  CHECK(api.listIndex(immediate, nullptr) == kNullPointer);
  CHECK(api.isImmediate(nullptr, nullptr) == kNullHandle);
  CHECK(api.isImmediate(regular, nullptr) == kNullPointer);
  // A handle of another kind is not a list.
  CHECK(api.isImmediate(reinterpret_cast<ze_command_list_handle_t>(queue), nullptr) ==
        kNullHandle);
  CHECK(zeCommandListDestroy(immediate) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given events and pools, then the 1.9 queries return their pool, scopes, context and "
          "flags; zeEventCounterBasedCreate checks its arguments",
          "[current_api][event]") {
  ExecFixture fx;
  Current api(fx.driver);
  const ze_event_pool_flags_t flags =
      ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP;
  auto pool = fx.pool(2, flags);
  ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 1, ZE_EVENT_SCOPE_FLAG_SUBDEVICE,
                     ZE_EVENT_SCOPE_FLAG_HOST | ZE_EVENT_SCOPE_FLAG_DEVICE};
  ze_event_handle_t event = nullptr;
  REQUIRE(zeEventCreate(pool, &ed, &event) == ZE_RESULT_SUCCESS);

  ze_event_pool_handle_t p = nullptr;
  REQUIRE(api.eventPool(event, &p) == ZE_RESULT_SUCCESS);
  CHECK(p == pool);
  ze_event_scope_flags_t scope = 99;
  REQUIRE(api.signalScope(event, &scope) == ZE_RESULT_SUCCESS);
  CHECK(scope == ZE_EVENT_SCOPE_FLAG_SUBDEVICE);
  REQUIRE(api.waitScope(event, &scope) == ZE_RESULT_SUCCESS);
  CHECK(scope == (ZE_EVENT_SCOPE_FLAG_HOST | ZE_EVENT_SCOPE_FLAG_DEVICE));
  ze_context_handle_t ctx = nullptr;
  REQUIRE(api.poolContext(pool, &ctx) == ZE_RESULT_SUCCESS);
  CHECK(ctx == fx.context);
  ze_event_pool_flags_t got = 0;
  REQUIRE(api.poolFlags(pool, &got) == ZE_RESULT_SUCCESS);
  CHECK(got == flags);
  ze_event_counter_based_flags_t cb = 99;
  REQUIRE(api.counterBasedFlags(event, &cb) == ZE_RESULT_SUCCESS);
  CHECK(cb == 0);  // "Returns 0 for regular events created with zeEventCreate"

  CHECK(api.eventPool(nullptr, &p) == kNullHandle);
  CHECK(api.eventPool(event, nullptr) == kNullPointer);
  CHECK(api.signalScope(nullptr, &scope) == kNullHandle);
  CHECK(api.signalScope(event, nullptr) == kNullPointer);
  CHECK(api.waitScope(nullptr, &scope) == kNullHandle);
  CHECK(api.waitScope(event, nullptr) == kNullPointer);
  CHECK(api.poolContext(nullptr, &ctx) == kNullHandle);
  CHECK(api.poolContext(pool, nullptr) == kNullPointer);
  CHECK(api.poolFlags(nullptr, &got) == kNullHandle);
  CHECK(api.poolFlags(pool, nullptr) == kNullPointer);
  CHECK(api.counterBasedFlags(nullptr, &cb) == kNullHandle);
  CHECK(api.counterBasedFlags(event, nullptr) == kNullPointer);
  CHECK(zeEventDestroy(event) == ZE_RESULT_SUCCESS);

  // zeEventCounterBasedCreate: the arguments are checked.
  ze_event_counter_based_desc_t cd{ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC, nullptr,
                                   ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE, 0, 0};
  ze_event_handle_t ce = nullptr;
  REQUIRE(api.counterBasedCreate(fx.context, fx.device, &cd, &ce) == ZE_RESULT_SUCCESS);
  REQUIRE(api.counterBasedFlags(ce, &cb) == ZE_RESULT_SUCCESS);
  CHECK(cb == ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE);
  CHECK(zeEventDestroy(ce) == ZE_RESULT_SUCCESS);
  ce = nullptr;
  CHECK(api.counterBasedCreate(nullptr, fx.device, &cd, &ce) == kNullHandle);
  CHECK(api.counterBasedCreate(fx.context, nullptr, &cd, &ce) == kNullHandle);
  CHECK(api.counterBasedCreate(fx.context, fx.device, nullptr, &ce) == kNullPointer);
  CHECK(api.counterBasedCreate(fx.context, fx.device, &cd, nullptr) == kNullPointer);
  cd.flags = 0x80;  // "0x7f < desc->flags"
  CHECK(api.counterBasedCreate(fx.context, fx.device, &cd, &ce) ==
        ZE_RESULT_ERROR_INVALID_ENUMERATION);
  cd.flags = 0;
  cd.wait = 0x8;  // "0x7 < desc->wait"
  CHECK(api.counterBasedCreate(fx.context, fx.device, &cd, &ce) ==
        ZE_RESULT_ERROR_INVALID_ENUMERATION);
}

#ifdef TESSERA_LINKED_DIRECTLY
// What a current loader reads: the slots after the 1.4 tables, filled only for a version that has
// them, never past the end of the table a 1.4 loader (Debian's) passes.
TEST_CASE("Given the DDI table getters, then a version that has the new slots gets Tessera's "
          "functions in them, and version 1.4 leaves everything past the 1.4 table untouched",
          "[current_api][ddi]") {
  initDriver();
  constexpr size_t kBase = sizeof(ze_command_list_dditable_t) / sizeof(void*);
  constexpr uint8_t kSentinel = 0xa5;
  auto table = [&](ze_api_version_t v) {
    std::vector<void*> t(kBase + 32);
    std::memset(t.data(), kSentinel, t.size() * sizeof(void*));
    REQUIRE(zeGetCommandListProcAddrTable(v, reinterpret_cast<ze_command_list_dditable_t*>(
                                                 t.data())) == ZE_RESULT_SUCCESS);
    return t;
  };
  void* sentinel = nullptr;
  std::memset(&sentinel, kSentinel, sizeof sentinel);
  auto v14 = table(ZE_API_VERSION_1_4);
  for (size_t i = kBase; i < v14.size(); ++i) CHECK(v14[i] == sentinel);
  auto v16 = table(ze_api_version_t(ZE_MAKE_VERSION(1, 6)));
  CHECK(v16[kBase] == reinterpret_cast<void*>(&zeCommandListHostSynchronize));
  CHECK(v16[kBase + 1] == sentinel);  // 1.9's slots
  auto v19 = table(ze_api_version_t(ZE_MAKE_VERSION(1, 9)));
  CHECK(v19[kBase + 0] == reinterpret_cast<void*>(&zeCommandListHostSynchronize));
  CHECK(v19[kBase + 1] == reinterpret_cast<void*>(&zeCommandListGetDeviceHandle));
  CHECK(v19[kBase + 2] == reinterpret_cast<void*>(&zeCommandListGetContextHandle));
  CHECK(v19[kBase + 3] == reinterpret_cast<void*>(&zeCommandListGetOrdinal));
  CHECK(v19[kBase + 4] == reinterpret_cast<void*>(&zeCommandListImmediateGetIndex));
  CHECK(v19[kBase + 5] == reinterpret_cast<void*>(&zeCommandListIsImmediate));
  CHECK(v19[kBase + 6] == sentinel);  // not Tessera's: left as the loader set it
  auto v114 = table(ze_api_version_t(ZE_MAKE_VERSION(1, 14)));
  CHECK(v114[kBase + 5] == reinterpret_cast<void*>(&zeCommandListIsImmediate));
  for (size_t i = 6; i < 8; ++i) CHECK(v114[kBase + i] == sentinel);  // 1.12: not Tessera's
  CHECK(v114[kBase + 8] == reinterpret_cast<void*>(&zeCommandListAppendLaunchKernelWithParameters));
  CHECK(v114[kBase + 9] ==
        reinterpret_cast<void*>(&zeCommandListAppendLaunchKernelWithArguments));
  CHECK(v114[kBase + 10] == sentinel);
  CHECK(v19[kBase + 9] == sentinel);  // 1.9 does not have it

  std::vector<void*> global(sizeof(ze_global_dditable_t) / sizeof(void*) + 4);
  std::memset(global.data(), kSentinel, global.size() * sizeof(void*));
  auto* g = reinterpret_cast<ze_global_dditable_t*>(global.data());
  REQUIRE(zeGetGlobalProcAddrTable(ZE_API_VERSION_1_4, g) == ZE_RESULT_SUCCESS);
  CHECK(global[sizeof(ze_global_dditable_t) / sizeof(void*)] == sentinel);
  REQUIRE(zeGetGlobalProcAddrTable(ze_api_version_t(ZE_MAKE_VERSION(1, 10)), g) ==
          ZE_RESULT_SUCCESS);
  CHECK(global[sizeof(ze_global_dditable_t) / sizeof(void*)] ==
        reinterpret_cast<void*>(&zeInitDrivers));

  std::vector<void*> events(sizeof(ze_event_dditable_t) / sizeof(void*) + 12);
  std::memset(events.data(), kSentinel, events.size() * sizeof(void*));
  REQUIRE(zeGetEventProcAddrTable(ze_api_version_t(ZE_MAKE_VERSION(1, 17)),
                                  reinterpret_cast<ze_event_dditable_t*>(events.data())) ==
          ZE_RESULT_SUCCESS);
  const size_t e = sizeof(ze_event_dditable_t) / sizeof(void*);
  CHECK(events[e] == reinterpret_cast<void*>(&zeEventQueryKernelTimestampsExt));
  CHECK(events[e + 1] == reinterpret_cast<void*>(&zeEventGetEventPool));
  CHECK(events[e + 3] == reinterpret_cast<void*>(&zeEventGetWaitScope));
  CHECK(events[e + 4] == reinterpret_cast<void*>(&zeEventCounterBasedCreate));
  CHECK(events[e + 5] == reinterpret_cast<void*>(&zeEventCounterBasedGetIpcHandle));
  CHECK(events[e + 6] == reinterpret_cast<void*>(&zeEventCounterBasedOpenIpcHandle));
  CHECK(events[e + 7] == reinterpret_cast<void*>(&zeEventCounterBasedCloseIpcHandle));
  CHECK(events[e + 8] == reinterpret_cast<void*>(&zeEventCounterBasedGetDeviceAddress));
  CHECK(events[e + 9] == reinterpret_cast<void*>(&zeEventGetCounterBasedFlags));
  CHECK(events[e + 10] == sentinel);

  std::vector<void*> device(sizeof(ze_device_dditable_t) / sizeof(void*) + 2);
  std::memset(device.data(), kSentinel, device.size() * sizeof(void*));
  REQUIRE(zeGetDeviceProcAddrTable(ze_api_version_t(ZE_MAKE_VERSION(1, 7)),
                                   reinterpret_cast<ze_device_dditable_t*>(device.data())) ==
          ZE_RESULT_SUCCESS);
  CHECK(device[sizeof(ze_device_dditable_t) / sizeof(void*)] ==
        reinterpret_cast<void*>(&zeDeviceGetRootDevice));
  CHECK(device.back() == sentinel);

  // The experimental command list table, which only a current loader asks for.
  std::vector<void*> exp(8);
  std::memset(exp.data(), kSentinel, exp.size() * sizeof(void*));
  REQUIRE(zeGetCommandListExpProcAddrTable(ZE_API_VERSION_1_4, exp.data()) == ZE_RESULT_SUCCESS);
  for (void* slot : exp) CHECK(slot == sentinel);
  REQUIRE(zeGetCommandListExpProcAddrTable(ze_api_version_t(ZE_MAKE_VERSION(1, 9)), exp.data()) ==
          ZE_RESULT_SUCCESS);
  CHECK(exp[0] == sentinel);  // zeCommandListCreateCloneExp: not Tessera's
  CHECK(exp[1] == reinterpret_cast<void*>(&zeCommandListImmediateAppendCommandListsExp));
  CHECK(exp[2] == reinterpret_cast<void*>(&zeCommandListGetNextCommandIdExp));
  CHECK(exp[5] == reinterpret_cast<void*>(&zeCommandListUpdateMutableCommandWaitEventsExp));
  CHECK(exp[6] == sentinel);
}

// The slots of 1.14 to 1.17 (tessera/ze_tessera_current.h): each filled from its version on, the
// slots between them that are not Tessera's left as the loader set them.
TEST_CASE("Given the DDI table getters, then the 1.14 to 1.17 slots hold Tessera's functions from "
          "their version on, and the slots before them that Tessera has no function for stay unset",
          "[current_api][ddi]") {
  initDriver();
  constexpr uint8_t kSentinel = 0xa5;
  void* sentinel = nullptr;
  std::memset(&sentinel, kSentinel, sizeof sentinel);
  // The slots after the 1.4 table `Table` that `getter` writes for minor version `minor`.
  auto tail = [&](auto getter, auto* tableType, uint32_t minor) {
    using Table = std::remove_pointer_t<decltype(tableType)>;
    std::vector<void*> t(sizeof(Table) / sizeof(void*) + 40);
    std::memset(t.data(), kSentinel, t.size() * sizeof(void*));
    REQUIRE(getter(ze_api_version_t(ZE_MAKE_VERSION(1, minor)),
                   reinterpret_cast<Table*>(t.data())) == ZE_RESULT_SUCCESS);
    return std::vector<void*>(t.begin() + sizeof(Table) / sizeof(void*), t.end());
  };
  auto fn = [](auto f) { return reinterpret_cast<void*>(f); };

  // Driver: GetLastErrorDescription (1.6), RTASFormatCompatibilityCheckExt (1.13),
  // GetDefaultContext (1.14).
  auto drv13 = tail(zeGetDriverProcAddrTable, (ze_driver_dditable_t*)nullptr, 13);
  CHECK(drv13[2] == sentinel);
  auto drv14 = tail(zeGetDriverProcAddrTable, (ze_driver_dditable_t*)nullptr, 14);
  CHECK(drv14[0] == fn(&zeDriverGetLastErrorDescription));
  CHECK(drv14[1] == sentinel);
  CHECK(drv14[2] == fn(&zeDriverGetDefaultContext));
  CHECK(drv14[3] == sentinel);

  // Device: GetRootDevice (1.7), two not Tessera's (1.12), GetVectorWidthPropertiesExt (1.13),
  // Synchronize (1.14), GetAggregatedCopyOffloadIncrementValue (1.15), the three runtime
  // requirement functions (1.16), GetCounterBasedEventMaxValue (1.17).
  auto dev12 = tail(zeGetDeviceProcAddrTable, (ze_device_dditable_t*)nullptr, 12);
  CHECK(dev12[3] == sentinel);
  auto dev14 = tail(zeGetDeviceProcAddrTable, (ze_device_dditable_t*)nullptr, 14);
  for (size_t i = 1; i < 3; ++i) CHECK(dev14[i] == sentinel);
  CHECK(dev14[3] == fn(&zeDeviceGetVectorWidthPropertiesExt));
  CHECK(dev14[4] == fn(&zeDeviceSynchronize));
  CHECK(dev14[5] == sentinel);  // 1.15's
  CHECK(dev14[9] == sentinel);
  auto dev17 = tail(zeGetDeviceProcAddrTable, (ze_device_dditable_t*)nullptr, 17);
  CHECK(dev17[4] == fn(&zeDeviceSynchronize));
  CHECK(dev17[5] == fn(&zeDeviceGetAggregatedCopyOffloadIncrementValue));
  CHECK(dev17[6] == fn(&zeDeviceGetRuntimeRequirements));
  CHECK(dev17[7] == fn(&zeDeviceGetRuntimeRequirementsKey));
  CHECK(dev17[8] == fn(&zeDeviceValidateRuntimeRequirements));
  auto dev15 = tail(zeGetDeviceProcAddrTable, (ze_device_dditable_t*)nullptr, 15);
  CHECK(dev15[5] == fn(&zeDeviceGetAggregatedCopyOffloadIncrementValue));
  CHECK(dev15[6] == sentinel);  // 1.16's
  CHECK(dev17[9] == fn(&zeDeviceGetCounterBasedEventMaxValue));
  CHECK(dev17[10] == sentinel);

  // Command queue: GetOrdinal, GetIndex (1.9), GetFlags, GetMode, GetPriority (1.17).
  auto q16 = tail(zeGetCommandQueueProcAddrTable, (ze_command_queue_dditable_t*)nullptr, 16);
  CHECK(q16[2] == sentinel);
  auto q17 = tail(zeGetCommandQueueProcAddrTable, (ze_command_queue_dditable_t*)nullptr, 17);
  CHECK(q17[2] == fn(&zeCommandQueueGetFlags));
  CHECK(q17[3] == fn(&zeCommandQueueGetMode));
  CHECK(q17[4] == fn(&zeCommandQueueGetPriority));
  CHECK(q17[5] == sentinel);

  // Command list: ... AppendLaunchKernelWithParameters, ...WithArguments (1.14, slots 8 and 9),
  // the three 1.16 appends with parameters, then GetFlags and the three immediate queries (1.17),
  // six graph functions not Tessera's and AppendHostFunction (1.17).
  auto l16 = tail(zeGetCommandListProcAddrTable, (ze_command_list_dditable_t*)nullptr, 16);
  CHECK(l16[8] == fn(&zeCommandListAppendLaunchKernelWithParameters));
  CHECK(l16[10] == fn(&zeCommandListAppendMemoryCopyWithParameters));
  CHECK(l16[11] == fn(&zeCommandListAppendMemoryFillWithParameters));
  CHECK(l16[12] == fn(&zeCommandListImmediateAppendCommandListsWithParameters));
  CHECK(l16[13] == sentinel);
  auto l15 = tail(zeGetCommandListProcAddrTable, (ze_command_list_dditable_t*)nullptr, 15);
  CHECK(l15[8] == fn(&zeCommandListAppendLaunchKernelWithParameters));
  CHECK(l15[10] == sentinel);  // 1.16's
  auto l17 = tail(zeGetCommandListProcAddrTable, (ze_command_list_dditable_t*)nullptr, 17);
  CHECK(l17[9] == fn(&zeCommandListAppendLaunchKernelWithArguments));
  CHECK(l17[13] == fn(&zeCommandListGetFlags));
  CHECK(l17[14] == fn(&zeCommandListImmediateGetFlags));
  CHECK(l17[15] == fn(&zeCommandListImmediateGetMode));
  CHECK(l17[16] == fn(&zeCommandListImmediateGetPriority));
  for (size_t i = 17; i < 23; ++i) CHECK(l17[i] == sentinel);  // the graph functions
  CHECK(l17[23] == fn(&zeCommandListAppendHostFunction));
  CHECK(l17[24] == sentinel);

  // Physical memory: GetProperties (1.15).
  auto pm14 = tail(zeGetPhysicalMemProcAddrTable, (ze_physical_mem_dditable_t*)nullptr, 14);
  CHECK(pm14[0] == sentinel);
  auto pm15 = tail(zeGetPhysicalMemProcAddrTable, (ze_physical_mem_dditable_t*)nullptr, 15);
  CHECK(pm15[0] == fn(&zePhysicalMemGetProperties));
  CHECK(pm15[1] == sentinel);

  // The experimental command list table: the kernel mutation (1.10), IsMutableExp (1.17).
  for (uint32_t minor : {9u, 16u, 17u}) {
    std::vector<void*> exp(12);
    std::memset(exp.data(), kSentinel, exp.size() * sizeof(void*));
    REQUIRE(zeGetCommandListExpProcAddrTable(ze_api_version_t(ZE_MAKE_VERSION(1, minor)),
                                             exp.data()) == ZE_RESULT_SUCCESS);
    CHECK(exp[6] == (minor >= 10 ? fn(&zeCommandListGetNextCommandIdWithKernelsExp) : sentinel));
    CHECK(exp[7] == (minor >= 10 ? fn(&zeCommandListUpdateMutableCommandKernelsExp) : sentinel));
    CHECK(exp[8] == (minor >= 17 ? fn(&zeCommandListIsMutableExp) : sentinel));
    CHECK(exp[9] == sentinel);
  }
}
#endif
