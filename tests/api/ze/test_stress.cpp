// Stress (docs/reliability.md, "Stress"): many host threads submitting at once to shared queues,
// executing shared closed lists, each with its own fences and an event-ordered chain whose result
// is checked after every round. Bounded in time (TESSERA_STRESS_SECONDS, default 1.5 s).
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "memory_test_support.h"
#include "ze_exec_support.h"

using namespace tessera::test;

namespace {

double stressSeconds() {
  const char* v = std::getenv("TESSERA_STRESS_SECONDS");
  return v ? std::atof(v) : 1.5;
}

// The random command graphs of test_ordering.cpp: copies and fills between slots, each command
// waiting for every earlier one it conflicts with (plus a few needless edges).
struct DagOp {
  bool fill;
  int src, dst;
  uint8_t value;
  int queue;
  std::vector<int> deps;
};

constexpr size_t kDagSlot = 256;

std::vector<DagOp> randomDag(std::mt19937& rng, int slots, int count, int queues) {
  std::vector<DagOp> ops;
  for (int i = 0; i < count; ++i) {
    DagOp o{};
    o.fill = rng() % 5 == 0;
    o.dst = int(rng() % slots);
    do o.src = int(rng() % slots);
    while (o.src == o.dst);
    o.value = uint8_t(rng());
    o.queue = int(rng() % queues);
    for (int j = 0; j < i; ++j) {
      const DagOp& p = ops[j];
      bool conflict = p.dst == o.dst || (!o.fill && p.dst == o.src) || (!p.fill && p.src == o.dst);
      if (conflict || rng() % 25 == 0) o.deps.push_back(j);
    }
    ops.push_back(o);
  }
  return ops;
}

// The reference model: program order on the host.
std::vector<uint8_t> dagReference(std::vector<uint8_t> mem, const std::vector<DagOp>& ops) {
  for (const DagOp& o : ops) {
    if (o.fill)
      std::memset(&mem[o.dst * kDagSlot], o.value, kDagSlot);
    else
      std::memcpy(&mem[o.dst * kDagSlot], &mem[o.src * kDagSlot], kDagSlot);
  }
  return mem;
}

}  // namespace

TEST_CASE("Stress: host threads x submissions over shared queues, lists, events and fences",
          "[stress]") {
  ExecFixture x;
  constexpr int kThreads = 6;
  constexpr int kQueues = 2;
  constexpr size_t kSlot = 4096;
  double seconds = std::getenv("TESSERA_STRESS_SECONDS")
                       ? std::atof(std::getenv("TESSERA_STRESS_SECONDS"))
                       : 1.5;
  std::vector<ze_command_queue_handle_t> queues;
  for (int i = 0; i < kQueues; ++i) queues.push_back(x.queue());
  ze_host_mem_alloc_desc_t hd{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
  void* mem = nullptr;
  REQUIRE(zeMemAllocHost(x.context, &hd, kSlot * (2 * kThreads + 1), 64, &mem) ==
          ZE_RESULT_SUCCESS);
  auto* bytes = static_cast<uint8_t*>(mem);
  // The shared list: an idempotent fill of the common slot, executed by every thread.
  ze_command_list_handle_t shared = x.list();
  uint8_t common = 0x5a;
  REQUIRE(zeCommandListAppendMemoryFill(shared, bytes, &common, 1, kSlot, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(shared) == ZE_RESULT_SUCCESS);

  // Per thread: a list fill(a, round) -> event -> copy(a -> b) waiting for it -> event, rebuilt
  // every round; fences, one per queue.
  struct PerThread {
    ze_command_list_handle_t list;
    std::vector<ze_fence_handle_t> fences;
    ze_event_pool_handle_t pool;
    ze_event_handle_t filled, copied;
  };
  std::vector<PerThread> per(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    per[t].list = x.list();
    for (auto q : queues) {
      ze_fence_desc_t fd{ZE_STRUCTURE_TYPE_FENCE_DESC, nullptr, 0};
      ze_fence_handle_t f = nullptr;
      REQUIRE(zeFenceCreate(q, &fd, &f) == ZE_RESULT_SUCCESS);
      per[t].fences.push_back(f);
    }
    ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                            ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 2};
    REQUIRE(zeEventPoolCreate(x.context, &pd, 0, nullptr, &per[t].pool) == ZE_RESULT_SUCCESS);
    ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, ZE_EVENT_SCOPE_FLAG_HOST};
    REQUIRE(zeEventCreate(per[t].pool, &ed, &per[t].filled) == ZE_RESULT_SUCCESS);
    ed.index = 1;
    REQUIRE(zeEventCreate(per[t].pool, &ed, &per[t].copied) == ZE_RESULT_SUCCESS);
  }

  std::atomic<uint64_t> rounds{0}, failures{0};
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      PerThread& p = per[t];
      uint8_t* a = bytes + kSlot * (1 + 2 * t);
      uint8_t* b = a + kSlot;
      for (uint32_t round = 1; std::chrono::steady_clock::now() < deadline; ++round) {
        uint8_t v = static_cast<uint8_t>(round * 31 + t);
        int qi = int((round + t) % kQueues);
        ze_command_queue_handle_t q = queues[qi];
        ze_fence_handle_t fence = p.fences[qi];
        bool ok = zeCommandListReset(p.list) == ZE_RESULT_SUCCESS &&
                  zeEventHostReset(p.filled) == ZE_RESULT_SUCCESS &&
                  zeEventHostReset(p.copied) == ZE_RESULT_SUCCESS &&
                  zeFenceReset(fence) == ZE_RESULT_SUCCESS &&
                  zeCommandListAppendMemoryFill(p.list, a, &v, 1, kSlot, p.filled, 0, nullptr) ==
                      ZE_RESULT_SUCCESS &&
                  zeCommandListAppendMemoryCopy(p.list, b, a, kSlot, p.copied, 1, &p.filled) ==
                      ZE_RESULT_SUCCESS &&
                  zeCommandListClose(p.list) == ZE_RESULT_SUCCESS;
        ze_command_list_handle_t lists[2] = {shared, p.list};
        ok = ok && zeCommandQueueExecuteCommandLists(q, 2, lists, fence) == ZE_RESULT_SUCCESS;
        // Alternate the three ways to wait.
        switch (round % 3) {
          case 0: ok = ok && zeFenceHostSynchronize(fence, UINT64_MAX) == ZE_RESULT_SUCCESS; break;
          case 1: ok = ok && zeEventHostSynchronize(p.copied, UINT64_MAX) == ZE_RESULT_SUCCESS;
                  ok = ok && zeFenceHostSynchronize(fence, UINT64_MAX) == ZE_RESULT_SUCCESS; break;
          default: ok = ok && zeCommandQueueSynchronize(q, UINT64_MAX) == ZE_RESULT_SUCCESS;
        }
        ok = ok && b[0] == v && b[kSlot - 1] == v && bytes[kSlot / 2] == common;
        if (!ok) failures.fetch_add(1);
        rounds.fetch_add(1);
      }
    });
  }
  for (auto& th : threads) th.join();
  INFO("rounds: " << rounds.load());
  CHECK(failures.load() == 0);
  CHECK(rounds.load() >= kThreads);
  for (auto& p : per) {
    zeEventDestroy(p.filled);
    zeEventDestroy(p.copied);
    zeEventPoolDestroy(p.pool);
    for (auto f : p.fences) zeFenceDestroy(f);
  }
  zeMemFree(x.context, mem);
}

TEST_CASE("Stress: host threads run random command graphs on shared queues, each checked against "
          "the sequential reference",
          "[stress][dag]") {
  ExecFixture x;
  constexpr int kThreads = 4, kQueues = 3, kSlots = 10, kOps = 48;
  ze_command_queue_handle_t queues[kQueues] = {x.queue(0, 0), x.queue(0, 1), x.queue(1, 0)};
  const uint32_t ordinals[kQueues] = {0, 0, 1};
  // One thread submits a whole graph at a time: every queue then holds each thread's lists in one
  // run, in the same thread order on every queue, so a wait never points behind a list that waits
  // for it (without this, two threads' graphs could deadlock each other across two queues).
  std::mutex submitting;
  std::atomic<uint64_t> graphs{0}, mismatches{0}, errors{0};
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(stressSeconds());
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                              ZE_EVENT_POOL_FLAG_HOST_VISIBLE, kOps + 1};
      ze_event_pool_handle_t pool = nullptr;
      if (zeEventPoolCreate(x.context, &pd, 0, nullptr, &pool) != ZE_RESULT_SUCCESS) {
        errors.fetch_add(1);
        return;
      }
      std::vector<ze_event_handle_t> ev(kOps + 1);
      for (uint32_t i = 0; i <= kOps; ++i) {
        ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, i, 0, ZE_EVENT_SCOPE_FLAG_HOST};
        zeEventCreate(pool, &ed, &ev[i]);
      }
      ze_event_handle_t start = ev[kOps];
      std::vector<uint8_t> mem(kSlots * kDagSlot);
      for (uint32_t round = 0; std::chrono::steady_clock::now() < deadline; ++round) {
        std::mt19937 rng(1000u * uint32_t(t) + round);
        auto ops = randomDag(rng, kSlots, kOps, kQueues);
        for (size_t i = 0; i < mem.size(); ++i) mem[i] = uint8_t(i * 7 + round);
        auto want = dagReference(mem, ops);
        for (auto e : ev) zeEventHostReset(e);
        // Lists per queue in program order, cut at random.
        std::vector<std::vector<ze_command_list_handle_t>> lists(kQueues);
        std::vector<ze_command_list_handle_t> open(kQueues, nullptr);
        bool ok = true;
        for (int i = 0; i < kOps && ok; ++i) {
          const DagOp& o = ops[i];
          auto& l = open[o.queue];
          if (!l) {
            ze_command_list_desc_t ld{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr,
                                      ordinals[o.queue], 0};
            ok = zeCommandListCreate(x.context, x.device, &ld, &l) == ZE_RESULT_SUCCESS;
            if (!ok) break;
            lists[o.queue].push_back(l);
            ok = zeCommandListAppendWaitOnEvents(l, 1, &start) == ZE_RESULT_SUCCESS;
          }
          std::vector<ze_event_handle_t> waits;
          for (int d : o.deps) waits.push_back(ev[d]);
          auto* pw = waits.empty() ? nullptr : waits.data();
          ok = ok && (o.fill ? zeCommandListAppendMemoryFill(l, &mem[o.dst * kDagSlot], &o.value, 1,
                                                             kDagSlot, ev[i],
                                                             uint32_t(waits.size()), pw)
                             : zeCommandListAppendMemoryCopy(l, &mem[o.dst * kDagSlot],
                                                             &mem[o.src * kDagSlot], kDagSlot,
                                                             ev[i], uint32_t(waits.size()), pw)) ==
                          ZE_RESULT_SUCCESS;
          if (rng() % 4 == 0) l = nullptr;
        }
        for (auto& per : lists)
          for (auto l : per) ok = ok && zeCommandListClose(l) == ZE_RESULT_SUCCESS;
        {
          std::lock_guard lock(submitting);
          for (int q = 0; q < kQueues && ok; ++q)
            for (auto l : lists[q])
              ok = ok && zeCommandQueueExecuteCommandLists(queues[q], 1, &l, nullptr) ==
                             ZE_RESULT_SUCCESS;
        }
        ok = ok && zeEventHostSignal(start) == ZE_RESULT_SUCCESS;
        for (int i = 0; i < kOps && ok; ++i)
          ok = zeEventHostSynchronize(ev[i], kPatienceNs) == ZE_RESULT_SUCCESS;
        if (!ok) {
          errors.fetch_add(1);
          // Leave the lists alone: something may still run them.
          break;
        }
        if (mem != want) mismatches.fetch_add(1);
        graphs.fetch_add(1);
        // Every command signalled, but a list's last reference to the memory goes only when its
        // queue has moved past it: destroy after the lists are done (no list is executing now).
        for (auto& per : lists)
          for (auto l : per) zeCommandListDestroy(l);
      }
      for (auto e : ev) zeEventDestroy(e);
      zeEventPoolDestroy(pool);
    });
  }
  for (auto& th : threads) th.join();
  INFO("graphs: " << graphs.load());
  CHECK(errors.load() == 0);
  CHECK(mismatches.load() == 0);
  CHECK(graphs.load() >= kThreads);
  for (auto q : queues) CHECK(zeCommandQueueSynchronize(q, kPatienceNs) == ZE_RESULT_SUCCESS);
}
