// What counter-based events (Level Zero 1.15) cost in the two paths that carry their values
// (issue 30): an append on a synchronous in-order immediate list that waits for one counter-based
// event and signals another (it runs on the calling thread), and an execution of an in-order
// regular list that signals and waits for counter-based events (its values are issued per
// submission). Medians with p10/p90; docs/performance.md has the figures.
#include <level_zero/ze_api.h>

#include <cstdio>
#include <vector>

#include "bench_util.h"
#include "tessera/ze_tessera.h"

using namespace tessera::bench;

namespace {

template <typename Step>
void timeSteps(const char* what, int n, Step&& step) {
  std::vector<double> us;
  for (int i = 0; i < n; ++i) {
    double t0 = nowUs();
    step();
    us.push_back(nowUs() - t0);
  }
  report(what, stats(us), "us");
}

}  // namespace

int main() {
  Setup s;
  const int n = iterations(2000);
  ze_pfnEventCounterBasedCreate_t create = nullptr;
  BENCH_CHECK(zeDriverGetExtensionFunctionAddress(s.driver, "zeEventCounterBasedCreate",
                                                  reinterpret_cast<void**>(&create)));
  auto counterEvent = [&](ze_event_counter_based_flags_t flags) {
    ze_event_counter_based_desc_t d{ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC, nullptr, flags, 0,
                                    0};
    ze_event_handle_t e = nullptr;
    BENCH_CHECK(create(s.context, s.device, &d, &e));
    return e;
  };
  uint32_t x = 0, value = 7;

  // Immediate: every append waits for the previous append's event and signals the other.
  ze_command_queue_desc_t qd{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0,
                             TESSERA_ZE_COMMAND_QUEUE_FLAG_IN_ORDER,
                             ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
  ze_command_list_handle_t imm = nullptr;
  BENCH_CHECK(zeCommandListCreateImmediate(s.context, s.device, &qd, &imm));
  ze_event_handle_t e[2] = {counterEvent(ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE),
                            counterEvent(ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE)};
  int turn = 0;
  timeSteps("fill on a sync in-order immediate list, waiting for a counter-based event", n, [&] {
    BENCH_CHECK(zeCommandListAppendMemoryFill(imm, &x, &value, 4, 4, e[turn], 1, &e[1 - turn]));
    turn = 1 - turn;
  });
  timeSteps("fill on a sync in-order immediate list, signalling a counter-based event", n, [&] {
    BENCH_CHECK(zeCommandListAppendMemoryFill(imm, &x, &value, 4, 4, e[0], 0, nullptr));
  });

  // Regular: two fills, the second waiting for the first's counter-based event.
  ze_command_queue_desc_t rq{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0,
                             TESSERA_ZE_COMMAND_QUEUE_FLAG_IN_ORDER,
                             ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
  ze_command_queue_handle_t q = nullptr;
  BENCH_CHECK(zeCommandQueueCreate(s.context, s.device, &rq, &q));
  ze_command_list_desc_t ld{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, 0,
                            TESSERA_ZE_COMMAND_LIST_FLAG_IN_ORDER};
  ze_command_list_handle_t l = nullptr;
  BENCH_CHECK(zeCommandListCreate(s.context, s.device, &ld, &l));
  ze_event_handle_t r[2] = {counterEvent(ZE_EVENT_COUNTER_BASED_FLAG_NON_IMMEDIATE),
                            counterEvent(ZE_EVENT_COUNTER_BASED_FLAG_NON_IMMEDIATE)};
  BENCH_CHECK(zeCommandListAppendMemoryFill(l, &x, &value, 4, 4, r[0], 0, nullptr));
  BENCH_CHECK(zeCommandListAppendMemoryFill(l, &x, &value, 4, 4, r[1], 1, &r[0]));
  BENCH_CHECK(zeCommandListClose(l));
  timeSteps("execute + synchronize an in-order list of 2 counter-based events", n, [&] {
    BENCH_CHECK(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr));
    BENCH_CHECK(zeCommandQueueSynchronize(q, UINT64_MAX));
  });

  BENCH_CHECK(zeCommandListDestroy(l));
  BENCH_CHECK(zeCommandQueueDestroy(q));
  BENCH_CHECK(zeCommandListDestroy(imm));
  for (auto ev : {e[0], e[1], r[0], r[1]}) BENCH_CHECK(zeEventDestroy(ev));
  return 0;
}
