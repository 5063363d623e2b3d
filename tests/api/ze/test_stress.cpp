// Stress (docs/reliability.md, "Stress"): many host threads submitting at once to shared queues,
// executing shared closed lists, each with its own fences and an event-ordered chain whose result
// is checked after every round. Bounded in time (TESSERA_STRESS_SECONDS, default 1.5 s).
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "memory_test_support.h"
#include "ze_exec_support.h"

using namespace tessera::test;

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
