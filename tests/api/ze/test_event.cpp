// Events and pools: the guide's event and kernel-timestamp sequences (a copy in place of the
// kernel), host signal, reset and timeouts, index rules, pool destruction, and timestamps that are
// monotonic and inside the command's span, the same through every query.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "ze_exec_support.h"

using tessera::test::ExecFixture;
using tessera::test::kPatienceNs;
using tessera::test::patternBytes;

namespace {
uint64_t deviceNow(ze_device_handle_t d) {
  uint64_t host = 0, dev = 0;
  REQUIRE(zeDeviceGetGlobalTimestamps(d, &host, &dev) == ZE_RESULT_SUCCESS);
  return dev;
}
}  // namespace

TEST_CASE("Given the guide's event sequence, then the event signals after the copy",
          "[event][guide]") {
  ExecFixture fx;
  auto hCommandQueue = fx.queue();
  auto hCommandList = fx.list();
  // Create event pool
  ze_event_pool_desc_t eventPoolDesc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                                        ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
  ze_event_pool_handle_t hEventPool = nullptr;
  REQUIRE(zeEventPoolCreate(fx.context, &eventPoolDesc, 0, nullptr, &hEventPool) ==
          ZE_RESULT_SUCCESS);
  ze_event_desc_t eventDesc = {ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0,
                               ZE_EVENT_SCOPE_FLAG_HOST};
  ze_event_handle_t hEvent = nullptr;
  REQUIRE(zeEventCreate(hEventPool, &eventDesc, &hEvent) == ZE_RESULT_SUCCESS);
  auto src = patternBytes(2048, 3);
  std::vector<uint8_t> dst(2048, 0);
  // Append a signal of an event into the command list after the copy executes
  REQUIRE(zeCommandListAppendMemoryCopy(hCommandList, dst.data(), src.data(), 2048, hEvent, 0,
                                        nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(hCommandList) == ZE_RESULT_SUCCESS);
  // Execute the command list with the signal
  REQUIRE(zeCommandQueueExecuteCommandLists(hCommandQueue, 1, &hCommandList, nullptr) ==
          ZE_RESULT_SUCCESS);
  // Wait on event to complete (timeout 0 only looks, so it may not be ready yet)
  ze_result_t r = zeEventHostSynchronize(hEvent, 0);
  CHECK((r == ZE_RESULT_SUCCESS || r == ZE_RESULT_NOT_READY));
  REQUIRE(zeEventHostSynchronize(hEvent, UINT64_MAX) == ZE_RESULT_SUCCESS);
  CHECK(dst == src);
  REQUIRE(zeCommandQueueSynchronize(hCommandQueue, kPatienceNs) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListDestroy(hCommandList) == ZE_RESULT_SUCCESS);
  fx.forget(hCommandList);
  CHECK(zeEventDestroy(hEvent) == ZE_RESULT_SUCCESS);
  CHECK(zeEventPoolDestroy(hEventPool) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given the guide's kernel timestamp sequence with a copy, then the times are consistent",
          "[event][guide][timestamp]") {
  ExecFixture fx;
  auto device_properties = tessera::test::properties(fx.device);
  auto hCommandQueue = fx.queue();
  auto hCommandList = fx.list();
  auto hEvent = fx.events(1)[0];
  // Get timestamp frequency
  const double NS_IN_SEC = 1e9;
  const double timestampFreq = NS_IN_SEC / device_properties.timerResolution;
  REQUIRE(device_properties.kernelTimestampValidBits >= 32);
  REQUIRE(device_properties.kernelTimestampValidBits <= 64);
  const uint64_t timestampMaxValue = device_properties.kernelTimestampValidBits == 64
                                         ? UINT64_MAX
                                         : ~(~0ull << device_properties.kernelTimestampValidBits);
  // Create event pool
  ze_event_pool_desc_t tsEventPoolDesc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                                          ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP, 1};
  ze_event_pool_handle_t hTSEventPool = nullptr;
  REQUIRE(zeEventPoolCreate(fx.context, &tsEventPoolDesc, 0, nullptr, &hTSEventPool) ==
          ZE_RESULT_SUCCESS);
  ze_event_desc_t tsEventDesc = {ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, 0};
  ze_event_handle_t hTSEvent = nullptr;
  REQUIRE(zeEventCreate(hTSEventPool, &tsEventDesc, &hTSEvent) == ZE_RESULT_SUCCESS);
  // allocate memory for results (host memory: the device takes shared system allocations)
  ze_kernel_timestamp_result_t* tsResult = new ze_kernel_timestamp_result_t{};
  constexpr size_t n = 2u << 20;
  auto src = patternBytes(n, 1);
  std::vector<uint8_t> dst(n, 0);
  uint64_t before = deviceNow(fx.device);
  // Append a signal of a timestamp event into the command list after the copy executes
  REQUIRE(zeCommandListAppendMemoryCopy(hCommandList, dst.data(), src.data(), n, hTSEvent, 0,
                                        nullptr) == ZE_RESULT_SUCCESS);
  // Append a query of a timestamp event into the command list
  REQUIRE(zeCommandListAppendQueryKernelTimestamps(hCommandList, 1, &hTSEvent, tsResult, nullptr,
                                                   hEvent, 1, &hTSEvent) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(hCommandList) == ZE_RESULT_SUCCESS);
  // Execute the command list with the signal
  REQUIRE(zeCommandQueueExecuteCommandLists(hCommandQueue, 1, &hCommandList, nullptr) ==
          ZE_RESULT_SUCCESS);
  // Wait on event to complete
  REQUIRE(zeEventHostSynchronize(hEvent, UINT64_MAX) == ZE_RESULT_SUCCESS);
  uint64_t after = deviceNow(fx.device);
  // Calculation execution time(s)
  double globalTimeInNs =
      (tsResult->global.kernelEnd >= tsResult->global.kernelStart)
          ? (tsResult->global.kernelEnd - tsResult->global.kernelStart) * timestampFreq
          : ((timestampMaxValue - tsResult->global.kernelStart) + tsResult->global.kernelEnd + 1) *
                timestampFreq;
  double contextTimeInNs =
      (tsResult->context.kernelEnd >= tsResult->context.kernelStart)
          ? (tsResult->context.kernelEnd - tsResult->context.kernelStart) * timestampFreq
          : ((timestampMaxValue - tsResult->context.kernelStart) + tsResult->context.kernelEnd +
             1) *
                timestampFreq;
  CHECK(dst == src);
  CHECK(globalTimeInNs > 0);
  CHECK(contextTimeInNs > 0);
  CHECK(globalTimeInNs <= double(after - before) * timestampFreq);
  CHECK(tsResult->global.kernelStart >= before);
  CHECK(tsResult->global.kernelEnd <= after);
  delete tsResult;
  REQUIRE(zeCommandListDestroy(hCommandList) == ZE_RESULT_SUCCESS);
  fx.forget(hCommandList);
  CHECK(zeEventDestroy(hTSEvent) == ZE_RESULT_SUCCESS);
  CHECK(zeEventPoolDestroy(hTSEventPool) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given kernel-timestamp events of copies, then every query agrees and spans nest",
          "[event][timestamp]") {
  ExecFixture fx;
  auto q = fx.queue();
  constexpr int kN = 4;
  auto ts = fx.events(kN, ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP | ZE_EVENT_POOL_FLAG_HOST_VISIBLE);
  auto unsignalled = fx.events(1, ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP)[0];
  ze_kernel_timestamp_result_t untouched;
  std::memset(&untouched, 0x5A, sizeof untouched);
  auto copy = untouched;
  CHECK(zeEventQueryKernelTimestamp(unsignalled, &copy) == ZE_RESULT_NOT_READY);
  CHECK(std::memcmp(&copy, &untouched, sizeof copy) == 0);  // "unmodified if not signaled"

  constexpr size_t n = 1u << 20;
  auto src = patternBytes(n, 2);
  std::vector<std::vector<uint8_t>> dst(kN, std::vector<uint8_t>(n));
  std::vector<ze_kernel_timestamp_result_t> packed(kN);
  std::vector<uint8_t> spread(kN * 100, 0);
  std::vector<size_t> offsets;
  for (int i = 0; i < kN; ++i) offsets.push_back(size_t(kN - 1 - i) * 100 + 4);
  uint64_t stamps[kN + 1] = {};
  auto l = fx.list();
  for (int i = 0; i < kN; ++i) {
    REQUIRE(zeCommandListAppendWriteGlobalTimestamp(l, &stamps[i], nullptr, 0, nullptr) ==
            ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListAppendMemoryCopy(l, dst[i].data(), src.data(), n, ts[i], 0, nullptr) ==
            ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListAppendBarrier(l, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  }
  REQUIRE(zeCommandListAppendWriteGlobalTimestamp(l, &stamps[kN], nullptr, kN, ts.data()) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendQueryKernelTimestamps(l, kN, ts.data(), packed.data(), nullptr,
                                                   nullptr, kN, ts.data()) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendQueryKernelTimestamps(l, kN, ts.data(), spread.data(), offsets.data(),
                                                   nullptr, kN, ts.data()) == ZE_RESULT_SUCCESS);
  uint64_t before = deviceNow(fx.device);
  fx.run(q, l);
  uint64_t after = deviceNow(fx.device);
  auto queryExp = &zeEventQueryTimestampsExp;
  for (int i = 0; i < kN; ++i) {
    INFO("copy " << i);
    ze_kernel_timestamp_result_t host{};
    REQUIRE(zeEventQueryKernelTimestamp(ts[i], &host) == ZE_RESULT_SUCCESS);
    CHECK(host.global.kernelStart <= host.global.kernelEnd);
    CHECK(host.context.kernelStart <= host.context.kernelEnd);
    CHECK(host.global.kernelStart >= stamps[i]);  // global timestamps bracket the copy
    CHECK(host.global.kernelEnd <= stamps[i + 1]);
    CHECK(stamps[i] >= before);
    CHECK(stamps[i] <= stamps[i + 1]);
    CHECK(std::memcmp(&packed[i], &host, sizeof host) == 0);
    CHECK(std::memcmp(spread.data() + offsets[i], &host, sizeof host) == 0);
    uint32_t count = 0;
    REQUIRE(queryExp(ts[i], fx.device, &count, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(count >= 1);
    std::vector<ze_kernel_timestamp_result_t> exp(count);
    REQUIRE(queryExp(ts[i], fx.device, &count, exp.data()) == ZE_RESULT_SUCCESS);
    CHECK(exp[0].global.kernelStart == host.global.kernelStart);
    CHECK(exp[0].global.kernelEnd == host.global.kernelEnd);
  }
  CHECK(stamps[kN] <= after);
}

TEST_CASE("Given an event, then host signal, reset and query follow the two-state rules",
          "[event]") {
  ExecFixture fx;
  auto e = fx.events(1)[0];
  CHECK(zeEventQueryStatus(e) == ZE_RESULT_NOT_READY);
  CHECK(zeEventHostReset(e) == ZE_RESULT_SUCCESS);  // resetting an unsignalled event: no effect
  CHECK(zeEventQueryStatus(e) == ZE_RESULT_NOT_READY);
  CHECK(zeEventHostSignal(e) == ZE_RESULT_SUCCESS);
  CHECK(zeEventHostSignal(e) == ZE_RESULT_SUCCESS);  // signalling a signalled one: no effect
  CHECK(zeEventQueryStatus(e) == ZE_RESULT_SUCCESS);
  CHECK(zeEventHostSynchronize(e, 0) == ZE_RESULT_SUCCESS);
  CHECK(zeEventHostReset(e) == ZE_RESULT_SUCCESS);
  CHECK(zeEventQueryStatus(e) == ZE_RESULT_NOT_READY);
}

TEST_CASE(
    "Given an unsignalled event, when waited on with timeouts, then NOT_READY until signalled",
    "[event][timeout]") {
  ExecFixture fx;
  auto e = fx.events(1)[0];
  CHECK(zeEventHostSynchronize(e, 0) == ZE_RESULT_NOT_READY);
  auto t0 = std::chrono::steady_clock::now();
  CHECK(zeEventHostSynchronize(e, 3'000'000) == ZE_RESULT_NOT_READY);
  CHECK(std::chrono::steady_clock::now() - t0 >= std::chrono::milliseconds(3));
  // A waiter forever is released by a signal from another thread.
  ze_result_t waited = ZE_RESULT_ERROR_UNKNOWN;
  std::thread waiter([&] { waited = zeEventHostSynchronize(e, UINT64_MAX); });
  CHECK(zeEventHostSignal(e) == ZE_RESULT_SUCCESS);
  waiter.join();
  CHECK(waited == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given a pool, then event indices are bounded and events on one index are aliases",
          "[event]") {
  ExecFixture fx;
  auto p = fx.pool(2);
  ze_event_desc_t d{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 2, 0, 0};
  ze_event_handle_t e = nullptr;
  CHECK(zeEventCreate(p, &d, &e) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(e == nullptr);
  d.index = 1;
  ze_event_handle_t first = nullptr, second = nullptr, other = nullptr;
  REQUIRE(zeEventCreate(p, &d, &first) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventHostSignal(first) == ZE_RESULT_SUCCESS);
  // "The application must ensure the location in the pool is not being used by another event"
  // (zeEventCreate) is asked of the application; as in Intel's driver, a second event on the
  // index is another view of the same slot, and its creation resets that slot.
  REQUIRE(zeEventCreate(p, &d, &second) == ZE_RESULT_SUCCESS);
  CHECK(second != first);
  CHECK(zeEventQueryStatus(first) == ZE_RESULT_NOT_READY);
  d.index = 0;
  REQUIRE(zeEventCreate(p, &d, &other) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventHostSignal(second) == ZE_RESULT_SUCCESS);
  CHECK(zeEventQueryStatus(first) == ZE_RESULT_SUCCESS);
  CHECK(zeEventQueryStatus(other) == ZE_RESULT_NOT_READY);
  REQUIRE(zeEventHostReset(first) == ZE_RESULT_SUCCESS);
  CHECK(zeEventQueryStatus(second) == ZE_RESULT_NOT_READY);
  // A command signalling one alias completes a wait on the other; destroying one leaves the
  // other working.
  ze_command_list_handle_t list = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  REQUIRE(zeCommandListAppendSignalEvent(list, first) == ZE_RESULT_SUCCESS);
  CHECK(zeEventHostSynchronize(second, UINT64_MAX) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventDestroy(first) == ZE_RESULT_SUCCESS);
  CHECK(zeEventQueryStatus(second) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventDestroy(second) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventDestroy(other) == ZE_RESULT_SUCCESS);
  CHECK(zeEventPoolDestroy(p) == ZE_RESULT_SUCCESS);
  fx.forget(p);
}

// intel/compute-benchmarks' WaitOnEventCold: a pool of n events, every one created at index 0 and
// signalled from the host, then a regular list waiting on each in turn.
TEST_CASE("Given every event of a pool created at index 0 and signalled, then a list waiting on "
          "each of them completes",
          "[event]") {
  ExecFixture fx;
  constexpr uint32_t kCount = 100;
  ze_event_pool_handle_t p = fx.pool(kCount);
  std::vector<ze_event_handle_t> events(kCount);
  ze_event_desc_t d{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, ZE_EVENT_SCOPE_FLAG_HOST,
                    ZE_EVENT_SCOPE_FLAG_DEVICE};
  for (auto& e : events) {
    REQUIRE(zeEventCreate(p, &d, &e) == ZE_RESULT_SUCCESS);
    REQUIRE(zeEventHostSignal(e) == ZE_RESULT_SUCCESS);
  }
  ze_command_queue_handle_t queue = fx.queue();
  ze_command_list_handle_t list = fx.list();
  for (auto& e : events) REQUIRE(zeCommandListAppendWaitOnEvents(list, 1, &e) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(list) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(queue, 1, &list, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandQueueSynchronize(queue, UINT64_MAX) == ZE_RESULT_SUCCESS);
  for (auto e : events) REQUIRE(zeEventDestroy(e) == ZE_RESULT_SUCCESS);
}

// One-event pools keep their slot inside the pool object; larger ones on the heap. Indices at the
// ends of the pool and around multiples of 64 each have a slot of their own.
TEST_CASE("Given pools of 1, 64 and 130 events, then every index signals on its own", "[event]") {
  ExecFixture fx;
  for (uint32_t count : {1u, 64u, 130u}) {
    ze_event_pool_handle_t p = fx.pool(count);
    std::vector<uint32_t> indices;
    for (uint32_t i : {0u, 1u, 63u, 64u, 65u, 127u, 128u, 129u})
      if (i < count) indices.push_back(i);
    std::vector<ze_event_handle_t> events;
    for (uint32_t i : indices) {
      ze_event_desc_t d{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, i, 0, 0};
      ze_event_handle_t e = nullptr;
      REQUIRE(zeEventCreate(p, &d, &e) == ZE_RESULT_SUCCESS);
      events.push_back(e);
    }
    ze_event_desc_t past{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, count, 0, 0};
    ze_event_handle_t e = nullptr;
    CHECK(zeEventCreate(p, &past, &e) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
    // Each slot is its own: signalling one leaves the others unsignalled.
    REQUIRE(zeEventHostSignal(events.back()) == ZE_RESULT_SUCCESS);
    for (size_t k = 0; k + 1 < events.size(); ++k)
      CHECK(zeEventQueryStatus(events[k]) == ZE_RESULT_NOT_READY);
    CHECK(zeEventQueryStatus(events.back()) == ZE_RESULT_SUCCESS);
    // A destroyed event's index is used again, starting unsignalled.
    REQUIRE(zeEventDestroy(events.back()) == ZE_RESULT_SUCCESS);
    ze_event_desc_t d{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, indices.back(), 0, 0};
    REQUIRE(zeEventCreate(p, &d, &events.back()) == ZE_RESULT_SUCCESS);
    CHECK(zeEventQueryStatus(events.back()) == ZE_RESULT_NOT_READY);
    for (auto ev : events) REQUIRE(zeEventDestroy(ev) == ZE_RESULT_SUCCESS);
  }
}

TEST_CASE("Given a pool naming devices, then its events work on their queues", "[event]") {
  ExecFixture fx;
  ze_event_pool_desc_t d{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                         ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
  ze_event_pool_handle_t p = nullptr;
  REQUIRE(zeEventPoolCreate(fx.context, &d, 1, &fx.device, &p) == ZE_RESULT_SUCCESS);
  ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, 0};
  ze_event_handle_t e = nullptr;
  REQUIRE(zeEventCreate(p, &ed, &e) == ZE_RESULT_SUCCESS);
  auto l = fx.list();
  REQUIRE(zeCommandListAppendSignalEvent(l, e) == ZE_RESULT_SUCCESS);
  fx.run(fx.queue(), l);
  CHECK(zeEventQueryStatus(e) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListDestroy(l) == ZE_RESULT_SUCCESS);
  fx.forget(l);
  CHECK(zeEventDestroy(e) == ZE_RESULT_SUCCESS);
  CHECK(zeEventPoolDestroy(p) == ZE_RESULT_SUCCESS);
}

// The pool's index is free once the event's handle is destroyed, even while an idle list still
// names the event (commands hold the event object, not its index).
TEST_CASE(
    "Given a destroyed event still named by an idle list, then its pool can be destroyed and "
    "its index reused",
    "[event]") {
  ExecFixture fx;
  auto p = fx.pool(1);
  ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, 0};
  ze_event_handle_t e = nullptr;
  REQUIRE(zeEventCreate(p, &ed, &e) == ZE_RESULT_SUCCESS);
  auto l = fx.list();
  REQUIRE(zeCommandListAppendSignalEvent(l, e) == ZE_RESULT_SUCCESS);
  fx.run(fx.queue(), l);
  REQUIRE(zeEventDestroy(e) == ZE_RESULT_SUCCESS);
  ze_event_handle_t again = nullptr;
  CHECK(zeEventCreate(p, &ed, &again) == ZE_RESULT_SUCCESS);
  if (again) CHECK(zeEventDestroy(again) == ZE_RESULT_SUCCESS);
  CHECK(zeEventPoolDestroy(p) == ZE_RESULT_SUCCESS);
  fx.forget(p);
}
