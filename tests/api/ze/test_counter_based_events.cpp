// Counter-based events (Level Zero 1.15 zeEventCounterBasedCreate, and the pools of
// ZE_experimental_event_pool_counter_based): reused over appends without reset, complete when the
// last append that signals them is done, waited for by the host and by other lists at the value of
// the append before the wait; refused on lists that are not in-order, and for host reset and
// signal. Ordering is made deterministic with ordinary events the host signals (gates): no sleeps.
// [novalidation]: the validation layer of Debian's loader refuses the in-order flags (test_in_order).
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <thread>
#include <vector>

#include "tessera/ze_tessera.h"
#include "ze_exec_support.h"

using namespace tessera::test;

namespace {

constexpr ze_command_list_flags_t kListInOrder = TESSERA_ZE_COMMAND_LIST_FLAG_IN_ORDER;
constexpr ze_command_queue_flags_t kQueueInOrder = TESSERA_ZE_COMMAND_QUEUE_FLAG_IN_ORDER;

struct CounterFixture : ExecFixture {
  ze_pfnEventCounterBasedCreate_t create =
      extensionFunction<ze_pfnEventCounterBasedCreate_t>(driver, "zeEventCounterBasedCreate");
  ze_pfnEventGetCounterBasedFlags_t flagsOf =
      extensionFunction<ze_pfnEventGetCounterBasedFlags_t>(driver, "zeEventGetCounterBasedFlags");
  ze_pfnEventCounterBasedGetDeviceAddress_t deviceAddress =
      extensionFunction<ze_pfnEventCounterBasedGetDeviceAddress_t>(
          driver, "zeEventCounterBasedGetDeviceAddress");
  ze_pfnEventGetEventPool_t poolOf =
      extensionFunction<ze_pfnEventGetEventPool_t>(driver, "zeEventGetEventPool");
  std::vector<ze_event_handle_t> counterEvents;

  CounterFixture() {
    REQUIRE(create);
    REQUIRE(flagsOf);
    REQUIRE(deviceAddress);
    REQUIRE(poolOf);
  }
  ~CounterFixture() {
    destroyLists();  // before their events; the base class then destroys the rest
    for (auto e : counterEvents) zeEventDestroy(e);
    for (void* p : buffers) zeMemFree(context, p);
  }
  // Device memory (external aggregate storage "must be device USM memory").
  void* deviceBuffer(size_t bytes) {
    ze_device_mem_alloc_desc_t d{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    void* p = nullptr;
    REQUIRE(zeMemAllocDevice(context, &d, bytes, sizeof(uint64_t), device, &p) == ZE_RESULT_SUCCESS);
    buffers.push_back(p);
    return p;
  }
  std::vector<void*> buffers;
  ze_event_handle_t counterEvent(ze_event_counter_based_flags_t flags =
                                     ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE) {
    ze_event_counter_based_desc_t d{ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC, nullptr, flags,
                                    0, 0};
    ze_event_handle_t e = nullptr;
    REQUIRE(create(context, device, &d, &e) == ZE_RESULT_SUCCESS);
    counterEvents.push_back(e);
    return e;
  }
  ze_command_list_handle_t inOrderImmediate(ze_command_queue_flags_t flags = kQueueInOrder) {
    auto d = queueDesc(0, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, flags);
    ze_command_list_handle_t l = nullptr;
    REQUIRE(zeCommandListCreateImmediate(context, device, &d, &l) == ZE_RESULT_SUCCESS);
    lists.push_back(l);
    return l;
  }
  std::vector<ze_command_list_handle_t> lists;
  void destroyLists() {
    for (auto l : lists) zeCommandListDestroy(l);
    lists.clear();
  }
};

// Appends a fill of `value` into `*dst` after `gate`, signalling `signal`.
void fillAfter(ze_command_list_handle_t l, uint32_t* dst, uint32_t value, ze_event_handle_t gate,
               ze_event_handle_t signal) {
  REQUIRE(zeCommandListAppendMemoryFill(l, dst, &value, sizeof value, sizeof value, signal,
                                        gate ? 1 : 0, gate ? &gate : nullptr) == ZE_RESULT_SUCCESS);
}

}  // namespace

TEST_CASE("Given a counter-based event on an in-order immediate list, when it is signalled by "
          "several appends, then it is pending until the last one is done, without reset",
          "[current_api][counter_based][novalidation]") {
  CounterFixture fx;
  ze_event_handle_t cb = fx.counterEvent();
  ze_event_counter_based_flags_t flags = 0;
  REQUIRE(fx.flagsOf(cb, &flags) == ZE_RESULT_SUCCESS);
  CHECK(flags == ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE);
  ze_event_pool_handle_t pool = reinterpret_cast<ze_event_pool_handle_t>(1);
  REQUIRE(fx.poolOf(cb, &pool) == ZE_RESULT_SUCCESS);
  CHECK(pool == nullptr);  // not made from a pool
  // Never signalled: nothing to wait for.
  CHECK(zeEventQueryStatus(cb) == ZE_RESULT_SUCCESS);

  auto gates = fx.events(3);
  ze_command_list_handle_t l = fx.inOrderImmediate();
  uint32_t x = 0;
  for (uint32_t round = 0; round < 3; ++round) {
    INFO("round " << round);
    fillAfter(l, &x, round + 1, gates[round], cb);
    CHECK(zeEventQueryStatus(cb) == ZE_RESULT_NOT_READY);
    CHECK(zeEventHostSynchronize(cb, 0) == ZE_RESULT_NOT_READY);
    REQUIRE(zeEventHostSignal(gates[round]) == ZE_RESULT_SUCCESS);
    REQUIRE(zeEventHostSynchronize(cb, kPatienceNs) == ZE_RESULT_SUCCESS);
    CHECK(x == round + 1);
    uint64_t value = 0, address = 0;
    REQUIRE(fx.deviceAddress(cb, &value, &address) == ZE_RESULT_SUCCESS);
    CHECK(value == round + 1);
    CHECK(*reinterpret_cast<const uint64_t*>(address) == value);
  }
  fx.destroyLists();
}

TEST_CASE("Given a counter-based event, when another list waits for it and a later append "
          "signals it again, then the wait ends with the earlier signal, not the later one",
          "[current_api][counter_based][novalidation]") {
  CounterFixture fx;
  ze_event_handle_t cb = fx.counterEvent();
  auto ev = fx.events(3);  // gate 1, gate 2, done
  ze_command_list_handle_t a = fx.inOrderImmediate();
  ze_command_list_handle_t b = fx.inOrderImmediate(0);  // waiting is allowed on any list
  uint32_t x = 0, y = 0;
  fillAfter(a, &x, 1, ev[0], cb);
  REQUIRE(zeCommandListAppendMemoryCopy(b, &y, &x, sizeof x, ev[2], 1, &cb) == ZE_RESULT_SUCCESS);
  fillAfter(a, &x, 2, ev[1], cb);  // pending until gate 2, which comes last
  CHECK(zeEventQueryStatus(ev[2]) == ZE_RESULT_NOT_READY);
  REQUIRE(zeEventHostSignal(ev[0]) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventHostSynchronize(ev[2], kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(y == 1);
  CHECK(zeEventQueryStatus(cb) == ZE_RESULT_NOT_READY);  // the second fill waits for gate 2
  REQUIRE(zeEventHostSignal(ev[1]) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventHostSynchronize(cb, kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(x == 2);
  fx.destroyLists();
}

TEST_CASE("Given a counter-based event signalled twice in an in-order regular list, then each "
          "execution makes it pending again until the list's last signal of it is done",
          "[current_api][counter_based][novalidation]") {
  CounterFixture fx;
  ze_event_handle_t cb = fx.counterEvent(ZE_EVENT_COUNTER_BASED_FLAG_NON_IMMEDIATE);
  auto ev = fx.events(3);  // gate 1, middle, gate 2
  ze_command_queue_handle_t q = fx.queue(0, 0, ZE_COMMAND_QUEUE_MODE_DEFAULT, kQueueInOrder);
  ze_command_list_handle_t l = fx.list(0, kListInOrder);
  uint32_t x = 0, y = 0;
  fillAfter(l, &x, 1, ev[0], cb);
  REQUIRE(zeCommandListAppendSignalEvent(l, ev[1]) == ZE_RESULT_SUCCESS);
  fillAfter(l, &y, 2, ev[2], cb);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  for (int run = 0; run < 3; ++run) {
    INFO("execution " << run);
    x = y = 0;
    for (auto e : ev) REQUIRE(zeEventHostReset(e) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
    CHECK(zeEventQueryStatus(cb) == ZE_RESULT_NOT_READY);
    REQUIRE(zeEventHostSignal(ev[0]) == ZE_RESULT_SUCCESS);
    REQUIRE(zeEventHostSynchronize(ev[1], kPatienceNs) == ZE_RESULT_SUCCESS);
    CHECK(x == 1);
    // The first fill signalled it, but the list's last signal of it has not run.
    CHECK(zeEventQueryStatus(cb) == ZE_RESULT_NOT_READY);
    REQUIRE(zeEventHostSignal(ev[2]) == ZE_RESULT_SUCCESS);
    REQUIRE(zeEventHostSynchronize(cb, kPatienceNs) == ZE_RESULT_SUCCESS);
    CHECK(y == 2);
    REQUIRE(zeCommandQueueSynchronize(q, kPatienceNs) == ZE_RESULT_SUCCESS);
  }
  fx.destroyLists();
}

TEST_CASE("Given a counter-based event with external aggregate storage, then every signal adds "
          "its increment there, and the event is complete from the completion value on, "
          "execution after execution",
          "[current_api][counter_based][novalidation]") {
  CounterFixture fx;
  auto* storage = static_cast<uint64_t*>(fx.deviceBuffer(sizeof(uint64_t)));
  *storage = 0;
  uint32_t increment = 0;
  auto incrementOf = requiredFunction<ze_pfnDeviceGetAggregatedCopyOffloadIncrementValue_t>(
      fx.driver, "zeDeviceGetAggregatedCopyOffloadIncrementValue");
  REQUIRE(incrementOf(fx.device, &increment) == ZE_RESULT_SUCCESS);
  ze_event_counter_based_external_aggregate_storage_desc_t aggregate{
      ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_EXTERNAL_AGGREGATE_STORAGE_DESC, nullptr, storage,
      2 * increment, 6 * increment};
  ze_event_counter_based_desc_t d{ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC, &aggregate,
                                  ZE_EVENT_COUNTER_BASED_FLAG_NON_IMMEDIATE, 0, 0};
  ze_event_handle_t cb = nullptr;
  REQUIRE(fx.create(fx.context, fx.device, &d, &cb) == ZE_RESULT_SUCCESS);
  fx.counterEvents.push_back(cb);
  uint64_t value = 0, address = 0;
  REQUIRE(fx.deviceAddress(cb, &value, &address) == ZE_RESULT_SUCCESS);
  CHECK(value == 6 * increment);
  CHECK(address == reinterpret_cast<uintptr_t>(storage));
  CHECK(zeEventQueryStatus(cb) == ZE_RESULT_NOT_READY);

  // The list resets the storage, waits for a gate, signals three times (three increments of two),
  // then a fill waits for the event.
  auto gates = fx.events(1);
  ze_command_queue_handle_t q = fx.queue(0, 0, ZE_COMMAND_QUEUE_MODE_DEFAULT, kQueueInOrder);
  ze_command_list_handle_t l = fx.list(0, kListInOrder);
  const uint64_t zero = 0;
  REQUIRE(zeCommandListAppendMemoryFill(l, storage, &zero, sizeof zero, sizeof zero, nullptr, 0,
                                        nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendBarrier(l, nullptr, 1, &gates[0]) == ZE_RESULT_SUCCESS);
  for (int i = 0; i < 3; ++i)
    REQUIRE(zeCommandListAppendSignalEvent(l, cb) == ZE_RESULT_SUCCESS);
  uint32_t x = 0;
  fillAfter(l, &x, 5, cb, nullptr);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  for (int run = 0; run < 2; ++run) {
    INFO("execution " << run);
    x = 0;
    *storage = 0;
    REQUIRE(zeEventHostReset(gates[0]) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
    // A host wait that sleeps while the list is held at the gate, then wakes on the last signal.
    std::thread opener([&] { zeEventHostSignal(gates[0]); });
    CHECK(zeEventHostSynchronize(cb, kPatienceNs) == ZE_RESULT_SUCCESS);
    opener.join();
    REQUIRE(zeCommandQueueSynchronize(q, kPatienceNs) == ZE_RESULT_SUCCESS);
    CHECK(*storage == 6 * increment);
    CHECK(x == 5);
    CHECK(zeEventQueryStatus(cb) == ZE_RESULT_SUCCESS);
  }
  // The application's own write below the completion value makes it pending again.
  *storage = 4 * increment;
  CHECK(zeEventQueryStatus(cb) == ZE_RESULT_NOT_READY);
  CHECK(zeEventHostSynchronize(cb, 1'000'000) == ZE_RESULT_NOT_READY);
}

TEST_CASE("Given counter-based events, then lists that are not in-order, host reset and signal, "
          "and append reset are refused with INVALID_ARGUMENT",
          "[current_api][counter_based][novalidation]") {
  CounterFixture fx;
  ze_event_handle_t cb = fx.counterEvent();
  uint32_t x = 0, v = 7;
  // "Counter-based events can be used only with in-orders lists".
  ze_command_list_handle_t regular = fx.list();
  CHECK(zeCommandListAppendMemoryFill(regular, &x, &v, 4, 4, cb, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  ze_command_list_handle_t immediate = fx.inOrderImmediate(0);
  CHECK(zeCommandListAppendMemoryFill(immediate, &x, &v, 4, 4, cb, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeCommandListAppendBarrier(immediate, cb, 0, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  // "must not be reset" and "must not be signaled from host".
  CHECK(zeEventHostReset(cb) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeEventHostSignal(cb) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  ze_command_list_handle_t inOrder = fx.inOrderImmediate();
  CHECK(zeCommandListAppendEventReset(inOrder, cb) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(x == 0);

  // Creation: the header's errors, then what a CPU driver does not support.
  ze_event_counter_based_desc_t d{ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC, nullptr, 0, 0, 0};
  ze_event_handle_t e = nullptr;
  CHECK(fx.create(nullptr, fx.device, &d, &e) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(fx.create(fx.context, nullptr, &d, &e) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(fx.create(fx.context, fx.device, nullptr, &e) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(fx.create(fx.context, fx.device, &d, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  d.flags = 0x80;  // past the header's flags
  CHECK(fx.create(fx.context, fx.device, &d, &e) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  d.flags = 0;
  d.signal = 0x8;  // "0x7 < desc->signal"
  CHECK(fx.create(fx.context, fx.device, &d, &e) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  d.signal = 0;
  d.flags = ZE_EVENT_COUNTER_BASED_FLAG_DEVICE_TIMESTAMP | ZE_EVENT_COUNTER_BASED_FLAG_HOST_TIMESTAMP;
  CHECK(fx.create(fx.context, fx.device, &d, &e) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(e == nullptr);
  // The external sync allocation descriptor, first or later in the chain; a structure Tessera
  // does not know is passed over.
  d.flags = 0;
  ze_base_desc_t unknown{static_cast<ze_structure_type_t>(0x7ff00001), nullptr};
  ze_base_desc_t chained{ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_EXTERNAL_SYNC_ALLOCATION_DESC,
                         nullptr};
  d.pNext = &chained;
  CHECK(fx.create(fx.context, fx.device, &d, &e) == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  unknown.pNext = &chained;
  d.pNext = &unknown;
  CHECK(fx.create(fx.context, fx.device, &d, &e) == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  CHECK(e == nullptr);
  // Aggregate storage that is not 8 bytes of an allocation of the context, or with the IPC flag.
  uint64_t onStack = 0;
  ze_event_counter_based_external_aggregate_storage_desc_t aggregate{
      ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_EXTERNAL_AGGREGATE_STORAGE_DESC, nullptr, nullptr, 1, 1};
  d.pNext = &aggregate;
  CHECK(fx.create(fx.context, fx.device, &d, &e) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  aggregate.deviceAddress = &onStack;
  CHECK(fx.create(fx.context, fx.device, &d, &e) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  auto* storage = static_cast<uint8_t*>(fx.deviceBuffer(16));
  aggregate.deviceAddress = reinterpret_cast<uint64_t*>(storage + 4);  // misaligned
  CHECK(fx.create(fx.context, fx.device, &d, &e) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  aggregate.deviceAddress = reinterpret_cast<uint64_t*>(storage + 16);  // past the allocation
  CHECK(fx.create(fx.context, fx.device, &d, &e) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  aggregate.deviceAddress = reinterpret_cast<uint64_t*>(storage + 8);
  d.flags = ZE_EVENT_COUNTER_BASED_FLAG_IPC;
  CHECK(fx.create(fx.context, fx.device, &d, &e) == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  CHECK(e == nullptr);
  d.flags = 0;
  unknown.pNext = nullptr;
  d.pNext = &unknown;
  REQUIRE(fx.create(fx.context, fx.device, &d, &e) == ZE_RESULT_SUCCESS);
  fx.counterEvents.push_back(e);
  d.pNext = nullptr;
  // An ordinary event has no counter.
  auto ordinary = fx.events(1);
  uint64_t value = 0, address = 0;
  CHECK(fx.deviceAddress(ordinary[0], &value, &address) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(fx.deviceAddress(cb, nullptr, &address) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  fx.destroyLists();
}

TEST_CASE("Given a counter-based event with timestamps, then its kernel timestamp is that of the "
          "last append that signalled it",
          "[current_api][counter_based][novalidation]") {
  CounterFixture fx;
  ze_event_handle_t cb = fx.counterEvent(ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE |
                                         ZE_EVENT_COUNTER_BASED_FLAG_DEVICE_TIMESTAMP);
  ze_command_list_handle_t l = fx.inOrderImmediate();
  uint32_t x = 0;
  fillAfter(l, &x, 1, nullptr, cb);
  REQUIRE(zeEventHostSynchronize(cb, kPatienceNs) == ZE_RESULT_SUCCESS);
  ze_kernel_timestamp_result_t first{}, second{};
  REQUIRE(zeEventQueryKernelTimestamp(cb, &first) == ZE_RESULT_SUCCESS);
  fillAfter(l, &x, 2, nullptr, cb);
  REQUIRE(zeEventHostSynchronize(cb, kPatienceNs) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventQueryKernelTimestamp(cb, &second) == ZE_RESULT_SUCCESS);
  CHECK(first.global.kernelEnd >= first.global.kernelStart);
  CHECK(second.global.kernelStart >= first.global.kernelEnd);
  fx.destroyLists();
}

TEST_CASE("Given a pool chaining ze_event_pool_counter_based_exp_desc_t, then its events are "
          "counter-based: reused without reset, refused on lists that are not in-order",
          "[current_api][counter_based][novalidation]") {
  CounterFixture fx;
  ze_event_pool_counter_based_exp_desc_t counterBased{
      ZE_STRUCTURE_TYPE_COUNTER_BASED_EVENT_POOL_EXP_DESC, nullptr, 0};
  ze_event_pool_desc_t d{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, &counterBased,
                         ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 2};
  ze_event_pool_handle_t pool = nullptr;
  REQUIRE(zeEventPoolCreate(fx.context, &d, 0, nullptr, &pool) == ZE_RESULT_SUCCESS);
  ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, 0};
  ze_event_handle_t cb = nullptr;
  REQUIRE(zeEventCreate(pool, &ed, &cb) == ZE_RESULT_SUCCESS);
  ze_event_counter_based_flags_t flags = 0;
  REQUIRE(fx.flagsOf(cb, &flags) == ZE_RESULT_SUCCESS);
  CHECK(flags == ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE);  // the default
  CHECK(zeEventHostReset(cb) == ZE_RESULT_ERROR_INVALID_ARGUMENT);

  auto gates = fx.events(2);
  ze_command_list_handle_t l = fx.inOrderImmediate();
  uint32_t x = 0;
  for (uint32_t round = 0; round < 2; ++round) {
    fillAfter(l, &x, round + 1, gates[round], cb);
    CHECK(zeEventQueryStatus(cb) == ZE_RESULT_NOT_READY);
    REQUIRE(zeEventHostSignal(gates[round]) == ZE_RESULT_SUCCESS);
    REQUIRE(zeEventHostSynchronize(cb, kPatienceNs) == ZE_RESULT_SUCCESS);
    CHECK(x == round + 1);
  }
  uint32_t v = 3;
  CHECK(zeCommandListAppendMemoryFill(fx.inOrderImmediate(0), &x, &v, 4, 4, cb, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  fx.destroyLists();
  CHECK(zeEventDestroy(cb) == ZE_RESULT_SUCCESS);
  CHECK(zeEventPoolDestroy(pool) == ZE_RESULT_SUCCESS);

  counterBased.flags = 0x4;  // "must be 0 (default) or a valid value"
  CHECK(zeEventPoolCreate(fx.context, &d, 0, nullptr, &pool) ==
        ZE_RESULT_ERROR_INVALID_ENUMERATION);
  counterBased.flags = ZE_EVENT_POOL_COUNTER_BASED_EXP_FLAG_NON_IMMEDIATE;
  d.flags |= ZE_EVENT_POOL_FLAG_IPC;
  CHECK(zeEventPoolCreate(fx.context, &d, 0, nullptr, &pool) ==
        ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

// An append on a synchronous list runs on the calling thread; its waits for counter-based events
// are taken at the values issued before it (kept on the stack for up to 16 events, through a
// one-command buffer beyond), its own signal's value after them. `waits` counter-based events, each
// pending behind a gate that another thread opens; the waiting copy must see every fill done.
TEST_CASE("Given a synchronous in-order list, when a command waits for many counter-based events "
          "pending on another list, then it runs after all of them",
          "[current_api][counter_based][novalidation]") {
  for (uint32_t waits : {1u, 3u, 16u, 17u, 24u}) {
    INFO(waits << " counter-based waits");
    CounterFixture fx;
    auto gate = fx.events(1)[0];
    ze_command_list_handle_t async = fx.inOrderImmediate();
    auto d = queueDesc(0, 0, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, kQueueInOrder);
    ze_command_list_handle_t sync = nullptr;
    REQUIRE(zeCommandListCreateImmediate(fx.context, fx.device, &d, &sync) == ZE_RESULT_SUCCESS);
    fx.lists.push_back(sync);
    std::vector<uint32_t> cells(waits, 0);
    std::vector<ze_event_handle_t> cbs;
    for (uint32_t i = 0; i < waits; ++i) {
      cbs.push_back(fx.counterEvent());
      fillAfter(async, &cells[i], i + 1, i == 0 ? gate : nullptr, cbs.back());
    }
    ze_event_handle_t mine = fx.counterEvent();
    uint32_t sum = 0;
    std::thread opener([&] { zeEventHostSignal(gate); });
    // A copy of the last cell, after every fill: in-order, so the last one's completion implies
    // the others'; each wait is checked by its own event below.
    REQUIRE(zeCommandListAppendMemoryCopy(sync, &sum, &cells[waits - 1], sizeof sum, mine, waits,
                                          cbs.data()) == ZE_RESULT_SUCCESS);
    opener.join();
    CHECK(sum == waits);
    for (uint32_t i = 0; i < waits; ++i) CHECK(zeEventQueryStatus(cbs[i]) == ZE_RESULT_SUCCESS);
    CHECK(zeEventQueryStatus(mine) == ZE_RESULT_SUCCESS);
    // The signal's value is issued after the waits' are read: a command that waits for the event
    // it signals waits for the earlier append, not for itself.
    uint32_t again = 0;
    REQUIRE(zeCommandListAppendMemoryCopy(sync, &again, &sum, sizeof again, mine, 1, &mine) ==
            ZE_RESULT_SUCCESS);
    CHECK(again == waits);
    uint64_t value = 0, address = 0;
    REQUIRE(fx.deviceAddress(mine, &value, &address) == ZE_RESULT_SUCCESS);
    CHECK(value == 2);
    CHECK(*reinterpret_cast<const uint64_t*>(address) == 2);
    fx.destroyLists();
  }
}

// A submission's counter values sit inside it for up to four counter-based events and on the heap
// beyond; two lists in one submission each get their own range of values.
TEST_CASE("Given two in-order regular lists using 1 and 5 counter-based events, when they are "
          "executed together repeatedly, then every event completes at each execution's value",
          "[current_api][counter_based][novalidation]") {
  CounterFixture fx;
  ze_command_queue_handle_t q = fx.queue(0, 0, ZE_COMMAND_QUEUE_MODE_DEFAULT, kQueueInOrder);
  ze_command_list_handle_t small = fx.list(0, kListInOrder);
  ze_command_list_handle_t large = fx.list(0, kListInOrder);
  std::vector<ze_event_handle_t> cbs;
  for (int i = 0; i < 6; ++i)
    cbs.push_back(fx.counterEvent(ZE_EVENT_COUNTER_BASED_FLAG_NON_IMMEDIATE));
  uint32_t cells[6] = {};
  fillAfter(small, &cells[0], 1, nullptr, cbs[0]);
  for (int i = 1; i < 6; ++i) {
    // Each fill also waits for the previous event of its list (a counter-based wait).
    ze_event_handle_t before = i > 1 ? cbs[i - 1] : nullptr;
    fillAfter(large, &cells[i], i + 1, before, cbs[i]);
  }
  REQUIRE(zeCommandListClose(small) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(large) == ZE_RESULT_SUCCESS);
  ze_command_list_handle_t both[2] = {small, large};
  for (uint64_t run = 1; run <= 3; ++run) {
    INFO("execution " << run);
    for (auto& c : cells) c = 0;
    REQUIRE(zeCommandQueueExecuteCommandLists(q, 2, both, nullptr) == ZE_RESULT_SUCCESS);
    for (int i = 0; i < 6; ++i) {
      REQUIRE(zeEventHostSynchronize(cbs[i], kPatienceNs) == ZE_RESULT_SUCCESS);
      CHECK(cells[i] == uint32_t(i + 1));
      uint64_t value = 0, address = 0;
      REQUIRE(fx.deviceAddress(cbs[i], &value, &address) == ZE_RESULT_SUCCESS);
      CHECK(value == run);
      CHECK(*reinterpret_cast<const uint64_t*>(address) == run);
    }
    REQUIRE(zeCommandQueueSynchronize(q, kPatienceNs) == ZE_RESULT_SUCCESS);
  }
  fx.destroyLists();
}
