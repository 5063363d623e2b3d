// fork() after initialization (issue 28; docs/reliability.md, "fork()"): the child has none of
// Tessera's threads (the queues' executors, the device's worker threads), so a launch of more than
// one work-group there waited forever for workers that do not exist. Tessera refuses instead: in
// such a child every command and wait returns ZE_RESULT_ERROR_DEVICE_LOST at once, and destroying
// the parent's objects does not wait for their threads. The child runs under an alarm
// (runForkedChild), so without the refusal it ends by SIGALRM and the test fails rather than hangs.
#include <algorithm>
#include <vector>

#include "../../support/watched_child.h"
#include "kernel_test_support.h"

using namespace tessera::test;

namespace {

constexpr unsigned kChildSeconds = 60;
constexpr uint32_t kGroups = 64, kGroupSize = 64, kItems = kGroups * kGroupSize;

// Exit codes of the child: which step did not give what was expected.
enum ChildExit : int {
  kOk = 0,
  kRecordFailed = 10,
  kExecuteNotLost,
  kSynchronizeNotLost,
  kEventSyncNotLost,
  kImmediateCreateFailed,
  kImmediateNotLost,
  kStatusNotLost,
  kAppendListsNotLost,
  kResetNotLost,
  kDestroyFailed,
};

}  // namespace

TEST_CASE("Given a child forked after the driver ran multi-group launches, when the child launches "
          "more than one work-group, then every launch and wait returns DEVICE_LOST, never hangs",
          "[fork]") {
  KernelFixture fx;
  ze_kernel_handle_t k = fx.kernel("vector_add", "vector_add");
  std::vector<float> a(kItems, 1.0f), b(kItems, 2.0f), c(kItems, 0.0f);
  setArgs(k, a.data(), b.data(), c.data());
  setGroupSize(k, kGroupSize);
  ze_command_queue_handle_t queue = fx.queue();
  ze_command_list_handle_t list = fx.list();
  ze_event_handle_t event = fx.events(1).at(0);
  // A synchronous immediate list of the parent's, for the child to replay a regular list on.
  ze_command_list_handle_t parentImmediate = fx.immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  auto appendLists = extensionFunction<ze_pfnCommandListImmediateAppendCommandListsExp_t>(
      fx.driver, "zeCommandListImmediateAppendCommandListsExp");
  REQUIRE(appendLists);
  // The parent's worker threads and queue executor exist and have run a multi-group launch.
  fx.runOnce([&](ze_command_list_handle_t l) { fx.launch(l, k, {kGroups, 1, 1}); });
  REQUIRE(size_t(std::count(c.begin(), c.end(), 3.0f)) == kItems);

  int code = runForkedChild(kChildSeconds, [&]() -> int {
    // A synchronous immediate list made in the child runs on the calling thread: its launch of
    // more than one group needs the device's workers (the hang of issue 28).
    ze_group_count_t groups{kGroups, 1, 1};
    ze_command_queue_desc_t qd = queueDesc(0, 0, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
    ze_command_list_handle_t imm = nullptr;
    if (zeCommandListCreateImmediate(fx.context, fx.device, &qd, &imm) != ZE_RESULT_SUCCESS)
      return kImmediateCreateFailed;
    if (zeCommandListAppendLaunchKernel(imm, k, &groups, nullptr, 0, nullptr) !=
        ZE_RESULT_ERROR_DEVICE_LOST)
      return kImmediateNotLost;
    // The parent's queue: the launch records, the execution and every wait are refused.
    if (zeCommandListAppendLaunchKernel(list, k, &groups, event, 0, nullptr) != ZE_RESULT_SUCCESS)
      return kRecordFailed;
    zeCommandListClose(list);
    if (zeCommandQueueExecuteCommandLists(queue, 1, &list, nullptr) != ZE_RESULT_ERROR_DEVICE_LOST)
      return kExecuteNotLost;
    if (zeCommandQueueSynchronize(queue, UINT64_MAX) != ZE_RESULT_ERROR_DEVICE_LOST)
      return kSynchronizeNotLost;
    if (zeEventHostSynchronize(event, UINT64_MAX) != ZE_RESULT_ERROR_DEVICE_LOST)
      return kEventSyncNotLost;
    if (zeContextGetStatus(fx.context) != ZE_RESULT_ERROR_DEVICE_LOST) return kStatusNotLost;
    // The parent's immediate list: replaying the closed list on it, and resetting it (which waits
    // for its queue), are refused too.
    if (appendLists(parentImmediate, 1, &list, nullptr, 0, nullptr) != ZE_RESULT_ERROR_DEVICE_LOST)
      return kAppendListsNotLost;
    if (zeCommandListReset(parentImmediate) != ZE_RESULT_ERROR_DEVICE_LOST) return kResetNotLost;
    // Destroying what the parent made does not wait for its threads.
    if (zeCommandListDestroy(imm) != ZE_RESULT_SUCCESS ||
        zeCommandQueueDestroy(queue) != ZE_RESULT_SUCCESS)
      return kDestroyFailed;
    return kOk;
  });
  INFO("child exit " << code << " (128 + 14: SIGALRM, it hung)");
  CHECK(code == kOk);

  // The parent is untouched: its queue still runs launches.
  std::fill(c.begin(), c.end(), 0.0f);
  fx.runOnce([&](ze_command_list_handle_t l) { fx.launch(l, k, {kGroups, 1, 1}); });
  REQUIRE(size_t(std::count(c.begin(), c.end(), 3.0f)) == kItems);
}
