// Regular command lists: the guide's creation, submission and recycling sequence, the barrier
// examples, re-execution and reset, and the memory commands (copy, fill, copy region, copy from
// another context, prefetch, advice).
#include <level_zero/ze_api.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "ze_exec_support.h"

using tessera::test::ExecFixture;
using tessera::test::kPatienceNs;
using tessera::test::patternBytes;

TEST_CASE(
    "Given the guide's sequence, when a list is created, closed, executed, synchronized and "
    "reset, then its commands ran and it can be recorded again",
    "[cmdlist][guide]") {
  ExecFixture fx;
  ze_context_handle_t hContext = fx.context;
  ze_device_handle_t hDevice = fx.device;
  uint32_t computeQueueGroupOrdinal = 0;
  ze_command_queue_handle_t hCommandQueue = fx.queue(computeQueueGroupOrdinal);
  // Create a command list
  ze_command_list_desc_t commandListDesc = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr,
                                            computeQueueGroupOrdinal, 0};
  ze_command_list_handle_t hCommandList = nullptr;
  REQUIRE(zeCommandListCreate(hContext, hDevice, &commandListDesc, &hCommandList) ==
          ZE_RESULT_SUCCESS);
  auto src = patternBytes(1000, 1);
  std::vector<uint8_t> dst(1000, 0);
  REQUIRE(zeCommandListAppendMemoryCopy(hCommandList, dst.data(), src.data(), 1000, nullptr, 0,
                                        nullptr) == ZE_RESULT_SUCCESS);
  // finished appending commands (typically done on another thread)
  REQUIRE(zeCommandListClose(hCommandList) == ZE_RESULT_SUCCESS);
  // Execute command list in command queue
  REQUIRE(zeCommandQueueExecuteCommandLists(hCommandQueue, 1, &hCommandList, nullptr) ==
          ZE_RESULT_SUCCESS);
  // synchronize host and device
  REQUIRE(zeCommandQueueSynchronize(hCommandQueue, UINT32_MAX) == ZE_RESULT_SUCCESS);
  CHECK(dst == src);
  // Reset (recycle) command list for new commands
  REQUIRE(zeCommandListReset(hCommandList) == ZE_RESULT_SUCCESS);
  auto src2 = patternBytes(1000, 2);
  std::vector<uint8_t> dst2(1000, 0);
  std::fill(dst.begin(), dst.end(), 0);
  REQUIRE(zeCommandListAppendMemoryCopy(hCommandList, dst2.data(), src2.data(), 1000, nullptr, 0,
                                        nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(hCommandList) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(hCommandQueue, 1, &hCommandList, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueSynchronize(hCommandQueue, UINT32_MAX) == ZE_RESULT_SUCCESS);
  CHECK(dst2 == src2);
  CHECK(std::count(dst.begin(), dst.end(), 0) == 1000);  // the first recording is gone
  CHECK(zeCommandListDestroy(hCommandList) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given the guide's barrier examples with copies, then the second copy sees the first",
          "[cmdlist][guide][barrier]") {
  ExecFixture fx;
  auto q = fx.queue();
  constexpr size_t n = 3u << 20;  // the parallel path has its own tests in test_parallel_copy.cpp
  auto a = patternBytes(n, 5);
  std::vector<uint8_t> b(n, 0), c(n, 0), d(n, 0), e(n, 0);
  auto hCommandList = fx.list(0, ZE_COMMAND_LIST_FLAG_RELAXED_ORDERING);
  // A brute-force execution and global memory barrier.
  REQUIRE(zeCommandListAppendMemoryCopy(hCommandList, b.data(), a.data(), n, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendBarrier(hCommandList, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendMemoryCopy(hCommandList, c.data(), b.data(), n, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  // A fine-grain execution-only dependency, then a memory dependency (ZE_EVENT_SCOPE_FLAG_DEVICE).
  auto hEventPool = fx.pool(2);
  ze_event_desc_t event1Desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, 0};
  ze_event_handle_t hEvent1 = nullptr;
  REQUIRE(zeEventCreate(hEventPool, &event1Desc, &hEvent1) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendMemoryCopy(hCommandList, d.data(), c.data(), n, hEvent1, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  ze_event_desc_t event2Desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 1,
                                ZE_EVENT_SCOPE_FLAG_DEVICE, 0};
  ze_event_handle_t hEvent2 = nullptr;
  REQUIRE(zeEventCreate(hEventPool, &event2Desc, &hEvent2) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendMemoryCopy(hCommandList, e.data(), d.data(), n, hEvent2, 1,
                                        &hEvent1) == ZE_RESULT_SUCCESS);
  // A range-based memory barrier.
  const void* ptr = e.data();
  size_t size = n;
  REQUIRE(zeCommandListAppendMemoryRangesBarrier(hCommandList, 1, &size, &ptr, nullptr, 1,
                                                 &hEvent2) == ZE_RESULT_SUCCESS);
  std::vector<uint8_t> f(n, 0);
  REQUIRE(zeCommandListAppendMemoryCopy(hCommandList, f.data(), e.data(), n, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  fx.run(q, hCommandList);
  CHECK(std::memcmp(f.data(), a.data(), n) == 0);
  CHECK(zeContextSystemBarrier(fx.context, fx.device) == ZE_RESULT_SUCCESS);
  CHECK(zeEventDestroy(hEvent1) == ZE_RESULT_SUCCESS);
  CHECK(zeEventDestroy(hEvent2) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given a closed list, when it is executed 200 times, then every execution runs it",
          "[cmdlist][reexecute]") {
  ExecFixture fx;
  auto q = fx.queue();
  uint64_t src = 0, dst = 0, stamp = 0, lastStamp = 0;
  auto l = fx.list();
  REQUIRE(zeCommandListAppendMemoryCopy(l, &dst, &src, 8, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendBarrier(l, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendWriteGlobalTimestamp(l, &stamp, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  int wrong = 0;
  for (uint64_t i = 1; i <= 200; ++i) {
    src = i * 1000 + 7;
    REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueSynchronize(q, kPatienceNs) == ZE_RESULT_SUCCESS);
    if (dst != src || stamp <= lastStamp) ++wrong;
    lastStamp = stamp;
  }
  CHECK(wrong == 0);
}

TEST_CASE(
    "Given a closed list, when it is executed many times without waiting in between, then each "
    "execution happens",
    "[cmdlist][reexecute]") {
  ExecFixture fx;
  auto q = fx.queue();
  constexpr int kTimes = 100;
  // A chain of lists, list i copying slot i to slot i+1 once list i-1 signalled.
  std::vector<uint32_t> slots(kTimes + 1, 0);
  slots[0] = 77;
  auto ev = fx.events(kTimes);
  std::vector<ze_command_list_handle_t> lists;
  for (int i = 0; i < kTimes; ++i) {
    auto l = fx.list();
    REQUIRE(zeCommandListAppendMemoryCopy(l, &slots[i + 1], &slots[i], 4, ev[i], i ? 1 : 0,
                                          i ? &ev[i - 1] : nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
    lists.push_back(l);
  }
  // The same list object executed repeatedly in a row, interleaved with the chain.
  uint32_t a = 3, b = 0;
  auto same = fx.list();
  REQUIRE(zeCommandListAppendMemoryCopy(same, &b, &a, 4, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(same) == ZE_RESULT_SUCCESS);
  for (int i = 0; i < kTimes; ++i) {
    REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &lists[i], nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &same, nullptr) == ZE_RESULT_SUCCESS);
  }
  REQUIRE(zeCommandQueueSynchronize(q, kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(slots[kTimes] == 77);
  CHECK(b == 3);
}

TEST_CASE(
    "Given a list that waits on, signals and resets events, when it is re-executed with events "
    "reset in between, then each execution waits again",
    "[cmdlist][reexecute][event]") {
  ExecFixture fx;
  auto q = fx.queue();
  auto ev = fx.events(3);
  ze_event_handle_t go = ev[0], done = ev[1], inner = ev[2];
  uint64_t src = 0, mid = 0, dst = 0;
  auto l = fx.list();
  REQUIRE(zeCommandListAppendMemoryCopy(l, &mid, &src, 8, inner, 1, &go) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendMemoryCopy(l, &dst, &mid, 8, nullptr, 1, &inner) == ZE_RESULT_SUCCESS);
  // The list resets its own events for the next execution, then signals the host.
  REQUIRE(zeCommandListAppendEventReset(l, go) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendEventReset(l, inner) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendSignalEvent(l, done) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  for (uint64_t i = 1; i <= 50; ++i) {
    INFO("execution " << i);
    src = i;
    REQUIRE(zeEventHostReset(done) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
    if (i % 10 == 0) {
      // Proves the wait is real: nothing moves until the host signals (bounded, short look).
      CHECK(zeEventHostSynchronize(done, 1'000'000) == ZE_RESULT_NOT_READY);
      CHECK(dst == i - 1);
    }
    REQUIRE(zeEventHostSignal(go) == ZE_RESULT_SUCCESS);
    REQUIRE(zeEventHostSynchronize(done, kPatienceNs) == ZE_RESULT_SUCCESS);
    CHECK(dst == i);
    CHECK(zeEventQueryStatus(go) == ZE_RESULT_NOT_READY);
    CHECK(zeEventQueryStatus(inner) == ZE_RESULT_NOT_READY);
  }
  REQUIRE(zeCommandQueueSynchronize(q, kPatienceNs) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given a reset list, when it is executed before being closed again, then it is refused",
          "[cmdlist][errors]") {
  ExecFixture fx;
  auto q = fx.queue();
  auto l = fx.list();
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListReset(l) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  uint8_t a = 1, b = 0;
  REQUIRE(zeCommandListAppendMemoryCopy(l, &b, &a, 1, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  fx.run(q, l);
  CHECK(b == 1);
}

TEST_CASE("Given copies of many sizes, when run on a compute and a copy queue, then bytes match",
          "[cmdlist][memory]") {
  ExecFixture fx;
  for (uint32_t ordinal : {0u, 1u}) {
    auto q = fx.queue(ordinal);
    // Sizes of 4 MiB and more on compute queues are in test_parallel_copy.cpp.
    for (size_t n : {size_t(0), size_t(1), size_t(3), size_t(4096), size_t(4u << 20) - 1,
                     size_t(ordinal ? 64u << 20 : 0) + 13}) {
      INFO("ordinal " << ordinal << " size " << n);
      auto src = patternBytes(n + 2, static_cast<uint32_t>(n));
      std::vector<uint8_t> dst(n + 2, 0xEE);
      auto l = fx.list(ordinal);
      REQUIRE(zeCommandListAppendMemoryCopy(l, dst.data() + 1, src.data() + 1, n, nullptr, 0,
                                            nullptr) == ZE_RESULT_SUCCESS);
      fx.run(q, l);
      CHECK(dst[0] == 0xEE);
      CHECK(dst[n + 1] == 0xEE);  // nothing written past the end
      CHECK(std::memcmp(dst.data() + 1, src.data() + 1, n) == 0);
    }
  }
}

TEST_CASE(
    "Given every pattern size, when fills of sizes that are not multiples of it run, then the "
    "pattern repeats and stops at the size",
    "[cmdlist][memory][fill]") {
  ExecFixture fx;
  auto q = fx.queue();
  auto pattern = patternBytes(128, 11);
  for (size_t ps = 1; ps <= 128; ps *= 2)
    for (size_t n : {ps, ps * 3 + ps / 2 + 1, size_t(1000), size_t(3u << 20) + 7}) {
      INFO("pattern " << ps << " size " << n);
      std::vector<uint8_t> buf(n + 1, 0xEE);
      auto l = fx.list();
      REQUIRE(zeCommandListAppendMemoryFill(l, buf.data(), pattern.data(), ps, n, nullptr, 0,
                                            nullptr) == ZE_RESULT_SUCCESS);
      fx.run(q, l);
      size_t bad = 0;
      for (size_t i = 0; i < n; ++i)
        if (buf[i] != pattern[i % ps]) ++bad;
      CHECK(bad == 0);
      CHECK(buf[n] == 0xEE);
    }
}

// The compute group's maxMemoryFillPatternSize is 1 MiB (level-zero-tests fills with up to 128 KiB
// on a compute list), the copy group's 128 bytes. A fill large enough to be split over the workers
// has pieces that start inside a copy of a pattern longer than a piece.
TEST_CASE(
    "Given patterns longer than 128 bytes, then a compute list fills with them up to its "
    "maxMemoryFillPatternSize and a copy list refuses them",
    "[cmdlist][memory][fill]") {
  ExecFixture fx;
  auto q = fx.queue();
  constexpr size_t kMax = size_t{1} << 20;
  auto pattern = patternBytes(2 * kMax, 17);
  for (size_t ps : {size_t(256), size_t(128) << 10, kMax})
    for (size_t n : {ps / 2 + 3, ps * 3 + 5, size_t(3u << 20) + 7}) {
      INFO("pattern " << ps << " size " << n);
      std::vector<uint8_t> buf(n + 1, 0xEE);
      auto l = fx.list();
      REQUIRE(zeCommandListAppendMemoryFill(l, buf.data(), pattern.data(), ps, n, nullptr, 0,
                                            nullptr) == ZE_RESULT_SUCCESS);
      fx.run(q, l);
      size_t bad = 0;
      for (size_t i = 0; i < n; ++i)
        if (buf[i] != pattern[i % ps]) ++bad;
      CHECK(bad == 0);
      CHECK(buf[n] == 0xEE);
    }
  std::vector<uint8_t> buf(4 * kMax);
  auto compute = fx.list();
  CHECK(zeCommandListAppendMemoryFill(compute, buf.data(), pattern.data(), 2 * kMax, buf.size(),
                                      nullptr, 0, nullptr) == ZE_RESULT_ERROR_INVALID_SIZE);
  auto copy = fx.list(1);
  CHECK(zeCommandListAppendMemoryFill(copy, buf.data(), pattern.data(), 256, buf.size(), nullptr,
                                      0, nullptr) == ZE_RESULT_ERROR_INVALID_SIZE);
  CHECK(zeCommandListAppendMemoryFill(copy, buf.data(), pattern.data(), 128, buf.size(), nullptr,
                                      0, nullptr) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given 2D and 3D regions with pitches, when copied, then exactly the box is copied",
          "[cmdlist][memory][region]") {
  ExecFixture fx;
  auto q = fx.queue();
  // Source: 64-byte rows, 20 rows a slice, 6 slices. Destination: 50-byte rows, 16 rows, 5 slices.
  constexpr uint32_t sPitch = 64, sSlice = 64 * 20, dPitch = 50, dSlice = 50 * 16;
  auto src = patternBytes(sSlice * 6, 21);
  // Depth 0 is the header's "Set this to 0 for 2D copy": one slice, like depth 1.
  for (uint32_t depth : {0u, 1u, 4u}) {
    INFO("depth " << depth);
    uint32_t slices = std::max(depth, 1u);
    std::vector<uint8_t> dst(dSlice * 5, 0);
    ze_copy_region_t sr{3, 2, depth <= 1 ? 0u : 1u, 40, 12, depth};
    ze_copy_region_t dr{7, 1, 0, 40, 12, depth};
    auto l = fx.list();
    REQUIRE(zeCommandListAppendMemoryCopyRegion(l, dst.data(), &dr, dPitch, dSlice, src.data(), &sr,
                                                sPitch, sSlice, nullptr, 0,
                                                nullptr) == ZE_RESULT_SUCCESS);
    fx.run(q, l);
    size_t bad = 0;
    for (uint32_t z = 0; z < 5; ++z)
      for (uint32_t y = 0; y < 16; ++y)
        for (uint32_t x = 0; x < dPitch; ++x) {
          bool inside = z < slices && y >= 1 && y < 13 && x >= 7 && x < 47;
          uint8_t want =
              inside ? src[(z + sr.originZ) * sSlice + (y - 1 + 2) * sPitch + (x - 7 + 3)] : 0;
          if (dst[z * dSlice + y * dPitch + x] != want) ++bad;
        }
    CHECK(bad == 0);
  }
  // A 2D copy (depth 0) onto itself overlaps.
  std::vector<uint8_t> buf(dSlice, 0);
  ze_copy_region_t a{0, 0, 0, 40, 4, 0}, b{8, 1, 0, 40, 4, 0};
  auto l = fx.list();
  CHECK(zeCommandListAppendMemoryCopyRegion(l, buf.data(), &a, dPitch, 0, buf.data(), &b, dPitch, 0,
                                            nullptr, 0,
                                            nullptr) == ZE_RESULT_ERROR_OVERLAPPING_REGIONS);
}

TEST_CASE("Given memory of another context, when copied from it, then the bytes arrive",
          "[cmdlist][memory]") {
  ExecFixture fx;
  ze_context_desc_t d{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_context_handle_t other = nullptr;
  REQUIRE(zeContextCreate(fx.driver, &d, &other) == ZE_RESULT_SUCCESS);
  auto src = patternBytes(5000, 8);
  std::vector<uint8_t> dst(5000, 0);
  auto l = fx.list();
  REQUIRE(zeCommandListAppendMemoryCopyFromContext(l, dst.data(), other, src.data(), 5000, nullptr,
                                                   0, nullptr) == ZE_RESULT_SUCCESS);
  fx.run(fx.queue(), l);
  CHECK(dst == src);
  CHECK(zeContextDestroy(other) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given prefetch and every advice, when appended and run, then they are accepted",
          "[cmdlist][memory]") {
  ExecFixture fx;
  std::vector<uint8_t> buf(1 << 16, 1);
  for (uint32_t ordinal : {0u, 1u}) {
    auto l = fx.list(ordinal);
    CHECK(zeCommandListAppendMemoryPrefetch(l, buf.data(), buf.size()) == ZE_RESULT_SUCCESS);
    for (int a = ZE_MEMORY_ADVICE_SET_READ_MOSTLY; a <= ZE_MEMORY_ADVICE_BIAS_UNCACHED; ++a)
      CHECK(zeCommandListAppendMemAdvise(l, fx.device, buf.data(), buf.size(),
                                         static_cast<ze_memory_advice_t>(a)) == ZE_RESULT_SUCCESS);
    uint8_t v = 9;
    REQUIRE(zeCommandListAppendMemoryFill(l, buf.data(), &v, 1, 10, nullptr, 0, nullptr) ==
            ZE_RESULT_SUCCESS);
    fx.run(fx.queue(ordinal), l);
    CHECK(buf[9] == 9);
    CHECK(buf[10] == 1);
  }
}

// [novalidation]: the validation layer of Debian's loader (1.8 headers) refuses advice past
// BIAS_UNCACHED.
TEST_CASE("Given the advice of later headers (system memory as the preferred location), then it "
          "is accepted, and a value past them is not an advice",
          "[cmdlist][memory][novalidation]") {
  ExecFixture fx;
  std::vector<uint8_t> buf(4096, 1);
  auto l = fx.list();
  for (ze_memory_advice_t a : {TESSERA_ZE_MEMORY_ADVICE_SET_SYSTEM_MEMORY_PREFERRED_LOCATION,
                               TESSERA_ZE_MEMORY_ADVICE_CLEAR_SYSTEM_MEMORY_PREFERRED_LOCATION})
    CHECK(zeCommandListAppendMemAdvise(l, fx.device, buf.data(), buf.size(), a) ==
          ZE_RESULT_SUCCESS);
  CHECK(zeCommandListAppendMemAdvise(
            l, fx.device, buf.data(), buf.size(),
            ze_memory_advice_t(TESSERA_ZE_MEMORY_ADVICE_CLEAR_SYSTEM_MEMORY_PREFERRED_LOCATION + 1)) ==
        ZE_RESULT_ERROR_INVALID_ENUMERATION);
  fx.run(fx.queue(), l);
}
