// Immediate command lists: the guide's sequence, SYNCHRONOUS appends that return after completion,
// DEFAULT and ASYNCHRONOUS appends that return before, close and reset, and the copy engine.
#include <level_zero/ze_api.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <thread>
#include <vector>

#include "ze_exec_support.h"

using tessera::test::ExecFixture;
using tessera::test::kPatienceNs;
using tessera::test::patternBytes;

TEST_CASE(
    "Given the guide's sequence, when an immediate list is created and a command appended, "
    "then it runs",
    "[immediate][guide]") {
  ExecFixture fx;
  ze_context_handle_t hContext = fx.context;
  ze_device_handle_t hDevice = fx.device;
  uint32_t computeQueueGroupOrdinal = 0;
  // Create an immediate command list
  ze_command_queue_desc_t commandQueueDesc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                              nullptr,
                                              computeQueueGroupOrdinal,
                                              0,  // index
                                              0,  // flags
                                              ZE_COMMAND_QUEUE_MODE_DEFAULT,
                                              ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
  ze_command_list_handle_t hCommandList = nullptr;
  REQUIRE(zeCommandListCreateImmediate(hContext, hDevice, &commandQueueDesc, &hCommandList) ==
          ZE_RESULT_SUCCESS);
  // Immediately submit a copy (the guide's kernel) to the device
  auto src = patternBytes(4096, 4);
  std::vector<uint8_t> dst(4096, 0);
  auto done = fx.events(1)[0];
  REQUIRE(zeCommandListAppendMemoryCopy(hCommandList, dst.data(), src.data(), 4096, done, 0,
                                        nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventHostSynchronize(done, kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(dst == src);
  CHECK(zeCommandListDestroy(hCommandList) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given a SYNCHRONOUS immediate list, when commands are appended, then each has completed "
    "when the append returns",
    "[immediate][sync]") {
  ExecFixture fx;
  for (uint32_t ordinal : {0u, 1u}) {
    INFO("ordinal " << ordinal);
    auto l = fx.immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, ordinal);
    auto ev = fx.events(2);
    constexpr size_t n = 3u << 20;
    auto src = patternBytes(n, 12);
    std::vector<uint8_t> dst(n, 0);
    REQUIRE(zeCommandListAppendMemoryCopy(l, dst.data(), src.data(), n, ev[0], 0, nullptr) ==
            ZE_RESULT_SUCCESS);
    CHECK(zeEventQueryStatus(ev[0]) == ZE_RESULT_SUCCESS);
    CHECK(dst == src);
    uint16_t pattern = 0xBEEF;
    std::vector<uint16_t> buf(999, 0);
    REQUIRE(zeCommandListAppendMemoryFill(l, buf.data(), &pattern, 2, buf.size() * 2, nullptr, 1,
                                          &ev[0]) == ZE_RESULT_SUCCESS);
    CHECK(std::count(buf.begin(), buf.end(), pattern) == 999);
    REQUIRE(zeCommandListAppendSignalEvent(l, ev[1]) == ZE_RESULT_SUCCESS);
    CHECK(zeEventQueryStatus(ev[1]) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListAppendEventReset(l, ev[1]) == ZE_RESULT_SUCCESS);
    CHECK(zeEventQueryStatus(ev[1]) == ZE_RESULT_NOT_READY);
    uint64_t stamp = 0;
    REQUIRE(zeCommandListAppendWriteGlobalTimestamp(l, &stamp, nullptr, 0, nullptr) ==
            ZE_RESULT_SUCCESS);
    CHECK(stamp != 0);
  }
}

TEST_CASE(
    "Given a SYNCHRONOUS immediate list, when appends come from a thread outside the device, "
    "then they still complete before returning",
    "[immediate][sync]") {
  // Whatever thread appends (on the device's PUs or not), the contract is the same.
  ExecFixture fx;
  auto l = fx.immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  int wrong = 0;
  std::thread t([&] {
    for (uint32_t i = 1; i <= 200; ++i) {
      uint32_t src = i, dst = 0;
      if (zeCommandListAppendMemoryCopy(l, &dst, &src, 4, nullptr, 0, nullptr) !=
              ZE_RESULT_SUCCESS ||
          dst != i)
        ++wrong;
    }
  });
  t.join();
  CHECK(wrong == 0);
}

TEST_CASE(
    "Given an ASYNCHRONOUS or DEFAULT immediate list, when a command waits on the host, then "
    "the append returns before it completes and it completes after the signal",
    "[immediate][async]") {
  ExecFixture fx;
  for (auto mode : {ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, ZE_COMMAND_QUEUE_MODE_DEFAULT})
    for (uint32_t ordinal : {0u, 1u}) {
      INFO("mode " << mode << " ordinal " << ordinal);
      auto l = fx.immediate(mode, ordinal);
      auto ev = fx.events(2);
      ze_event_handle_t gate = ev[0], done = ev[1];
      uint64_t src = 0x1234567890ull, dst = 0;
      // Would block forever if the append ran on the calling thread.
      REQUIRE(zeCommandListAppendMemoryCopy(l, &dst, &src, 8, done, 1, &gate) == ZE_RESULT_SUCCESS);
      CHECK(zeEventQueryStatus(done) == ZE_RESULT_NOT_READY);
      // Appends queue up behind it, in order.
      uint64_t dst2 = 0;
      REQUIRE(zeCommandListAppendMemoryCopy(l, &dst2, &dst, 8, nullptr, 1, &done) ==
              ZE_RESULT_SUCCESS);
      CHECK(dst == 0);
      REQUIRE(zeEventHostSignal(gate) == ZE_RESULT_SUCCESS);
      REQUIRE(zeEventHostSynchronize(done, kPatienceNs) == ZE_RESULT_SUCCESS);
      CHECK(dst == src);
      // zeCommandListReset on an immediate list waits for what was appended.
      REQUIRE(zeCommandListReset(l) == ZE_RESULT_SUCCESS);
      CHECK(dst2 == src);
    }
}

TEST_CASE("Given an immediate list, then close and reset are accepted and executing it is refused",
          "[immediate][errors]") {
  ExecFixture fx;
  auto l = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  CHECK(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandListReset(l) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  auto q = fx.queue();
  CHECK(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  // Still usable after close ("usage will be honored").
  uint32_t a = 8, b = 0;
  auto done = fx.events(1)[0];
  REQUIRE(zeCommandListAppendMemoryCopy(l, &b, &a, 4, done, 0, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventHostSynchronize(done, kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(b == 8);
}

TEST_CASE(
    "Given an immediate list with a chain of 500 dependent appends, then the last sees the "
    "first",
    "[immediate][ordering]") {
  ExecFixture fx;
  auto l = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  constexpr int kN = 500;
  std::vector<uint32_t> slots(kN + 1, 0);
  slots[0] = 31337;
  auto ev = fx.events(kN);
  for (int i = 0; i < kN; ++i)
    REQUIRE(zeCommandListAppendMemoryCopy(l, &slots[i + 1], &slots[i], 4, ev[i], i ? 1 : 0,
                                          i ? &ev[i - 1] : nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventHostSynchronize(ev[kN - 1], kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(slots[kN] == 31337);
}

TEST_CASE(
    "Given a destroyed immediate list with a command blocked on an event, then destruction "
    "returns",
    "[immediate][timeout]") {
  ExecFixture fx;
  auto never = fx.events(1)[0];
  auto d = tessera::test::queueDesc();
  ze_command_list_handle_t l = nullptr;
  REQUIRE(zeCommandListCreateImmediate(fx.context, fx.device, &d, &l) == ZE_RESULT_SUCCESS);
  uint32_t a = 1, b = 0;
  REQUIRE(zeCommandListAppendMemoryCopy(l, &b, &a, 4, nullptr, 1, &never) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandListDestroy(l) == ZE_RESULT_SUCCESS);
  CHECK(b == 0);
}
