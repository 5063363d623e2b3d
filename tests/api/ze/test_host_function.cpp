// zeCommandListAppendHostFunction (Level Zero 1.17): the function runs on the host, off the
// appending thread, when the list reaches it: after the commands before it completed, before those
// after it start, after its wait events, and its signal event follows it; on regular lists (each
// execution calls it) and immediate ones, in-order or not; the header's errors. [novalidation]:
// the in-order lists, whose 1.9 flag Debian's validation layer refuses (docs/api-coverage.md).
#include <level_zero/ze_api.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "tessera/ze_tessera.h"
#include "ze_exec_support.h"

using namespace tessera::test;

namespace {

constexpr size_t kBytes = 1 << 20;
constexpr uint8_t kFill = 0x3c, kMark = 0xc3;

// What the host function sees and leaves: the last byte of the fill before it, and a mark in
// `source` that the copy after it carries to its destination.
struct Probe {
  std::vector<uint8_t> filled = std::vector<uint8_t>(kBytes, 0);
  std::vector<uint8_t> source = std::vector<uint8_t>(kBytes, 0);
  std::vector<uint8_t> copied = std::vector<uint8_t>(kBytes, 0);
  std::atomic<int> calls{0};
  uint8_t seenFilled = 0;
  std::thread::id thread;
};

void record(void* data) {
  auto* p = static_cast<Probe*>(data);
  p->seenFilled = p->filled.back();
  p->source.front() = kMark;
  p->source.back() = kMark;
  p->thread = std::this_thread::get_id();
  p->calls.fetch_add(1);
}

ze_pfnCommandListAppendHostFunction_t hostFunction(ze_driver_handle_t d) {
  return requiredFunction<ze_pfnCommandListAppendHostFunction_t>(d,
                                                                 "zeCommandListAppendHostFunction");
}

// fill `filled`; the host function (after `gate` when given, signalling `done`); copy `source`
// to `copied`.
void appendSequence(ze_pfnCommandListAppendHostFunction_t append, ze_command_list_handle_t list,
                    Probe& p, ze_event_handle_t gate, ze_event_handle_t done) {
  REQUIRE(zeCommandListAppendMemoryFill(list, p.filled.data(), &kFill, 1, kBytes, nullptr, 0,
                                        nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(append(list, record, &p, nullptr, done, gate ? 1 : 0, gate ? &gate : nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendMemoryCopy(list, p.copied.data(), p.source.data(), kBytes, nullptr, 0,
                                        nullptr) == ZE_RESULT_SUCCESS);
}

// `offThread`: the list runs its commands on its queue's executor, not on the appending thread
// (a SYNCHRONOUS immediate list runs every command within its append).
void checkRanInOrder(const Probe& p, bool offThread = true) {
  CHECK(p.calls.load() == 1);
  CHECK(p.seenFilled == kFill);      // the fill before it had completed
  CHECK(p.copied.front() == kMark);  // the copy after it started after it
  CHECK(p.copied.back() == kMark);
  CHECK((p.thread != std::this_thread::get_id()) == offThread);
}

}  // namespace

TEST_CASE(
    "Given a regular list with a host function between a fill and a copy, when it is "
    "executed, then the function runs after the fill, before the copy, after its wait "
    "event, and once per execution",
    "[current_api][host_function][novalidation]") {
  ExecFixture fx;
  auto append = hostFunction(fx.driver);
  for (ze_command_list_flags_t flags :
       {ze_command_list_flags_t(0),
        ze_command_list_flags_t(TESSERA_ZE_COMMAND_LIST_FLAG_IN_ORDER)}) {
    INFO("list flags " << flags);
    Probe p;
    auto events = fx.events(2);
    ze_event_handle_t gate = events[0], done = events[1];
    auto queue = fx.queue();
    auto list = fx.list(0, flags);
    appendSequence(append, list, p, gate, done);
    REQUIRE(zeCommandListClose(list) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueExecuteCommandLists(queue, 1, &list, nullptr) == ZE_RESULT_SUCCESS);
    // A right implementation cannot call it before the gate opens, however long this is.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK(p.calls.load() == 0);
    CHECK(zeEventQueryStatus(done) == ZE_RESULT_NOT_READY);
    REQUIRE(zeEventHostSignal(gate) == ZE_RESULT_SUCCESS);
    REQUIRE(zeEventHostSynchronize(done, kPatienceNs) == ZE_RESULT_SUCCESS);
    CHECK(p.calls.load() == 1);  // its signal event follows it
    REQUIRE(zeCommandQueueSynchronize(queue, kPatienceNs) == ZE_RESULT_SUCCESS);
    checkRanInOrder(p);

    // Executed again: called again.
    REQUIRE(zeEventHostReset(done) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueExecuteCommandLists(queue, 1, &list, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueSynchronize(queue, kPatienceNs) == ZE_RESULT_SUCCESS);
    CHECK(p.calls.load() == 2);
    CHECK(zeEventQueryStatus(done) == ZE_RESULT_SUCCESS);
  }
}

TEST_CASE(
    "Given immediate lists, when a host function is appended between a fill and a copy, "
    "then it runs on the list's queue after the fill and before the copy",
    "[current_api][host_function][immediate][novalidation]") {
  ExecFixture fx;
  auto append = hostFunction(fx.driver);
  struct Case {
    ze_command_queue_mode_t mode;
    ze_command_queue_flags_t flags;
  };
  for (Case c : {Case{ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, 0},
                 Case{ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, TESSERA_ZE_COMMAND_QUEUE_FLAG_IN_ORDER},
                 Case{ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, 0}}) {
    INFO("mode " << c.mode << ", flags " << c.flags);
    Probe p;
    auto done = fx.events(1)[0];
    auto d = queueDesc(0, 0, c.mode, c.flags);
    ze_command_list_handle_t list = nullptr;
    REQUIRE(zeCommandListCreateImmediate(fx.context, fx.device, &d, &list) == ZE_RESULT_SUCCESS);
    appendSequence(append, list, p, nullptr, done);
    REQUIRE(zeEventHostSynchronize(done, kPatienceNs) == ZE_RESULT_SUCCESS);
    CHECK(p.calls.load() == 1);
    // The copy after it: done once the list is.
    auto hostSync = requiredFunction<ze_pfnCommandListHostSynchronize_t>(
        fx.driver, "zeCommandListHostSynchronize");
    REQUIRE(hostSync(list, UINT64_MAX) == ZE_RESULT_SUCCESS);
    checkRanInOrder(p, c.mode != ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
    CHECK(zeCommandListDestroy(list) == ZE_RESULT_SUCCESS);
  }
}

TEST_CASE(
    "Given zeCommandListAppendHostFunction, then bad arguments get the header's errors and "
    "append nothing",
    "[current_api][host_function]") {
  ExecFixture fx;
  auto append = hostFunction(fx.driver);
  Probe p;
  auto list = fx.list();
  auto event = fx.events(1)[0];
  CHECK(append(nullptr, record, &p, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(append(list, nullptr, &p, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(append(list, record, &p, nullptr, nullptr, 1, nullptr) == ZE_RESULT_ERROR_INVALID_SIZE);
  // "an extension passed via pNext is not supported"
  ze_base_desc_t ext{ZE_STRUCTURE_TYPE_RELAXED_ALLOCATION_LIMITS_EXP_DESC, nullptr};
  CHECK(append(list, record, &p, &ext, nullptr, 0, nullptr) == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  ze_event_handle_t notEvent = reinterpret_cast<ze_event_handle_t>(list);
  CHECK(append(list, record, &p, nullptr, notEvent, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT);
  CHECK(append(list, record, &p, nullptr, nullptr, 1, &notEvent) ==
        ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT);
  // None of them was recorded: the closed list runs nothing. (An append to a closed list is
  // accepted and not recorded, as every append's: docs/api-coverage.md, "Leniency".)
  REQUIRE(zeCommandListClose(list) == ZE_RESULT_SUCCESS);
  CHECK(append(list, record, &p, nullptr, event, 0, nullptr) == ZE_RESULT_SUCCESS);
  auto queue = fx.queue();
  REQUIRE(zeCommandQueueExecuteCommandLists(queue, 1, &list, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueSynchronize(queue, kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(p.calls.load() == 0);
  CHECK(zeEventQueryStatus(event) == ZE_RESULT_NOT_READY);
}
