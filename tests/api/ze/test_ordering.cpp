// Ordering and dependencies across queues and lists, compared with a sequential reference model:
// random DAGs of copies and fills over three queues (two compute, one copy-only), cross-queue event
// waits, host signals releasing queues, and many host threads sharing queues and events.
#include <level_zero/ze_api.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "ze_exec_support.h"

using tessera::test::ExecFixture;
using tessera::test::kPatienceNs;

namespace {

constexpr size_t kSlot = 256;

struct Op {
  bool fill;
  int src, dst;  // slots; src unused for fills
  uint8_t value;
  int queue;
  std::vector<int> deps;
};

// Runs `ops` in program order on the host: the result any valid execution must reach, since every
// two commands that touch the same slot (and one writes) are ordered by the dependencies.
std::vector<uint8_t> reference(std::vector<uint8_t> mem, const std::vector<Op>& ops) {
  for (const Op& o : ops) {
    if (o.fill)
      std::memset(&mem[o.dst * kSlot], o.value, kSlot);
    else
      std::memcpy(&mem[o.dst * kSlot], &mem[o.src * kSlot], kSlot);
  }
  return mem;
}

}  // namespace

TEST_CASE(
    "Given random DAGs of copies over three queues, when executed twice, then the memory "
    "equals the sequential reference",
    "[ordering][dag]") {
  for (uint32_t seed : {1u, 2u, 3u, 4u, 5u, 6u}) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    constexpr int kSlots = 12, kOps = 80, kQueues = 3;
    std::vector<Op> ops;
    for (int i = 0; i < kOps; ++i) {
      Op o{};
      o.fill = rng() % 5 == 0;
      o.dst = int(rng() % kSlots);
      do o.src = int(rng() % kSlots);
      while (o.src == o.dst);
      o.value = uint8_t(rng());
      o.queue = int(rng() % kQueues);
      for (int j = 0; j < i; ++j) {
        const Op& p = ops[j];
        bool conflict =
            p.dst == o.dst || (!o.fill && p.dst == o.src) || (!p.fill && p.src == o.dst);
        if (conflict || rng() % 25 == 0) o.deps.push_back(j);  // plus a few needless edges
      }
      ops.push_back(o);
    }
    std::vector<uint8_t> mem(kSlots * kSlot);
    for (size_t i = 0; i < mem.size(); ++i) mem[i] = uint8_t(i * 7 + i / kSlot);
    const std::vector<uint8_t> initial = mem, want = reference(mem, ops);

    ExecFixture fx;
    ze_command_queue_handle_t queues[kQueues] = {fx.queue(0, 0), fx.queue(0, 1), fx.queue(1, 0)};
    uint32_t ordinals[kQueues] = {0, 0, 1};
    auto ev = fx.events(kOps);
    auto start = fx.events(1)[0];
    // Each queue's commands, in program order, cut into lists of random length; executing them in
    // that order keeps every wait pointing to a command that can finish first (no deadlock).
    std::vector<std::vector<ze_command_list_handle_t>> lists(kQueues);
    std::vector<ze_command_list_handle_t> open(kQueues, nullptr);
    for (int i = 0; i < kOps; ++i) {
      const Op& o = ops[i];
      auto& l = open[o.queue];
      if (!l) {
        l = fx.list(ordinals[o.queue]);
        lists[o.queue].push_back(l);
        REQUIRE(zeCommandListAppendWaitOnEvents(l, 1, &start) == ZE_RESULT_SUCCESS);
      }
      std::vector<ze_event_handle_t> waits;
      for (int d : o.deps) waits.push_back(ev[d]);
      uint32_t nw = uint32_t(waits.size());
      auto* pw = nw ? waits.data() : nullptr;
      if (o.fill)
        REQUIRE(zeCommandListAppendMemoryFill(l, &mem[o.dst * kSlot], &o.value, 1, kSlot, ev[i], nw,
                                              pw) == ZE_RESULT_SUCCESS);
      else if (rng() % 2)
        REQUIRE(zeCommandListAppendMemoryCopy(l, &mem[o.dst * kSlot], &mem[o.src * kSlot], kSlot,
                                              ev[i], nw, pw) == ZE_RESULT_SUCCESS);
      else {  // the same copy as a one-row region, with the waits on a barrier before it
        REQUIRE(zeCommandListAppendBarrier(l, nullptr, nw, pw) == ZE_RESULT_SUCCESS);
        ze_copy_region_t r{0, 0, 0, uint32_t(kSlot), 1, 1};
        REQUIRE(zeCommandListAppendMemoryCopyRegion(l, &mem[o.dst * kSlot], &r, kSlot, 0,
                                                    &mem[o.src * kSlot], &r, kSlot, 0, ev[i], 0,
                                                    nullptr) == ZE_RESULT_SUCCESS);
      }
      if (rng() % 4 == 0) l = nullptr;  // start a new list
    }
    for (auto& per : lists)
      for (auto l : per) REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
    for (int round = 0; round < 2; ++round) {
      INFO("round " << round);
      mem = initial;
      for (auto e : ev) REQUIRE(zeEventHostReset(e) == ZE_RESULT_SUCCESS);
      REQUIRE(zeEventHostReset(start) == ZE_RESULT_SUCCESS);
      for (int q = 0; q < kQueues; ++q) {
        if (lists[q].empty()) continue;
        if (round == 0) {  // all lists of a queue in one call
          REQUIRE(zeCommandQueueExecuteCommandLists(queues[q], uint32_t(lists[q].size()),
                                                    lists[q].data(), nullptr) == ZE_RESULT_SUCCESS);
        } else {  // one call per list
          for (auto l : lists[q])
            REQUIRE(zeCommandQueueExecuteCommandLists(queues[q], 1, &l, nullptr) ==
                    ZE_RESULT_SUCCESS);
        }
      }
      REQUIRE(zeEventHostSignal(start) == ZE_RESULT_SUCCESS);
      for (auto q : queues) REQUIRE(zeCommandQueueSynchronize(q, kPatienceNs) == ZE_RESULT_SUCCESS);
      CHECK(mem == want);
    }
  }
}

TEST_CASE(
    "Given a list waiting on an event another queue signals, when it is submitted first, "
    "then it waits for the other queue",
    "[ordering][event]") {
  ExecFixture fx;
  auto qa = fx.queue(0, 0), qb = fx.queue(1, 1);
  auto e = fx.events(1)[0];
  uint64_t x = 0xABCDEF, y = 0, z = 0;
  auto lb = fx.list(1);
  REQUIRE(zeCommandListAppendMemoryCopy(lb, &z, &y, 8, nullptr, 1, &e) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(lb) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(qb, 1, &lb, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandQueueSynchronize(qb, 0) == ZE_RESULT_NOT_READY);
  auto la = fx.list(0);
  REQUIRE(zeCommandListAppendMemoryCopy(la, &y, &x, 8, e, 0, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(la) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(qa, 1, &la, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueSynchronize(qb, kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(z == x);
}

TEST_CASE("Given a queue blocked on one event, then other queues keep running", "[ordering]") {
  ExecFixture fx;
  auto blocked = fx.queue(0, 0), free = fx.queue(0, 1);
  auto gate = fx.events(1)[0];
  uint32_t a = 1, b = 0, c = 2, d = 0;
  auto lb = fx.list(), lf = fx.list();
  REQUIRE(zeCommandListAppendMemoryCopy(lb, &b, &a, 4, nullptr, 1, &gate) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendMemoryCopy(lf, &d, &c, 4, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(lb) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(lf) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(blocked, 1, &lb, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(free, 1, &lf, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueSynchronize(free, kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(d == 2);
  CHECK(b == 0);
  CHECK(zeCommandQueueSynchronize(blocked, 0) == ZE_RESULT_NOT_READY);
  REQUIRE(zeEventHostSignal(gate) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueSynchronize(blocked, kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(b == 1);
}

TEST_CASE(
    "Given many host threads sharing queues and events, then every submission runs exactly "
    "once and nothing deadlocks",
    "[ordering][threads]") {
  ExecFixture fx;
  constexpr int kThreads = 6, kEach = 60;
  ze_command_queue_handle_t queues[] = {fx.queue(0, 0), fx.queue(0, 1), fx.queue(1, 0)};
  auto gate = fx.events(1)[0];
  auto done = fx.events(kThreads);
  auto shared = fx.events(4);
  std::vector<uint32_t> src(kThreads * kEach), dst(kThreads * kEach, 0);
  for (size_t i = 0; i < src.size(); ++i) src[i] = uint32_t(i * 2654435761u + 1);
  // Each thread records its lists (lists are not shared between threads), then submits them to
  // the shared queues while the others do the same; all wait on the gate the main thread opens.
  std::vector<std::vector<ze_command_list_handle_t>> lists(kThreads);
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kEach; ++i) lists[t].push_back(fx.list(i % 3 == 2 ? 1 : 0));
  std::atomic<int> failures{0}, submitted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        auto l = lists[t][i];
        size_t k = size_t(t) * kEach + i;
        bool last = i == kEach - 1;
        ze_event_handle_t waits[] = {gate, shared[i % 4]};
        if (zeCommandListAppendMemoryCopy(l, &dst[k], &src[k], 4, last ? done[t] : nullptr,
                                          i % 5 == 0 ? 2 : 1, waits) != ZE_RESULT_SUCCESS ||
            zeCommandListClose(l) != ZE_RESULT_SUCCESS ||
            zeCommandQueueExecuteCommandLists(queues[i % 3], 1, &l, nullptr) != ZE_RESULT_SUCCESS)
          ++failures;
        // Host threads signal the shared events too (again and again: no effect after the first).
        if (zeEventHostSignal(shared[(t + i) % 4]) != ZE_RESULT_SUCCESS) ++failures;
        ++submitted;
      }
    });
  for (auto& t : threads) t.join();
  CHECK(failures == 0);
  CHECK(submitted == kThreads * kEach);
  REQUIRE(zeEventHostSignal(gate) == ZE_RESULT_SUCCESS);
  // Several threads wait at once on the queues and the events.
  std::vector<std::thread> waiters;
  std::atomic<int> waitFailures{0};
  for (auto q : queues)
    waiters.emplace_back([&, q] {
      if (zeCommandQueueSynchronize(q, kPatienceNs) != ZE_RESULT_SUCCESS) ++waitFailures;
    });
  for (auto e : done)
    waiters.emplace_back([&, e] {
      if (zeEventHostSynchronize(e, kPatienceNs) != ZE_RESULT_SUCCESS) ++waitFailures;
    });
  for (auto& w : waiters) w.join();
  CHECK(waitFailures == 0);
  size_t right = 0;
  for (size_t i = 0; i < src.size(); ++i) right += dst[i] == src[i];
  CHECK(right == src.size());
}
