// Fences: the guide's sequence, initial state and ZE_FENCE_FLAG_SIGNALED, reuse (signal, reset,
// re-execute), timeouts while the queue is blocked, and that a fence covers earlier submissions.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <vector>

#include "ze_exec_support.h"

using tessera::test::ExecFixture;
using tessera::test::kPatienceNs;

namespace {

ze_command_list_handle_t copyList(ExecFixture& fx, void* dst, const void* src, size_t n,
                                  ze_event_handle_t wait = nullptr) {
  auto l = fx.list();
  REQUIRE(zeCommandListAppendMemoryCopy(l, dst, src, n, nullptr, wait ? 1 : 0,
                                        wait ? &wait : nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  return l;
}

}  // namespace

TEST_CASE("Given the guide's fence sequence, then the fence signals after the list and resets",
          "[fence][guide]") {
  ExecFixture fx;
  ze_command_queue_handle_t hCommandQueue = fx.queue();
  uint64_t src = 99, dst = 0;
  ze_command_list_handle_t hCommandList = copyList(fx, &dst, &src, 8);
  // Create fence
  ze_fence_desc_t fenceDesc = {ZE_STRUCTURE_TYPE_FENCE_DESC, nullptr, 0};
  ze_fence_handle_t hFence = nullptr;
  REQUIRE(zeFenceCreate(hCommandQueue, &fenceDesc, &hFence) == ZE_RESULT_SUCCESS);
  // Execute a command list with a signal of the fence
  REQUIRE(zeCommandQueueExecuteCommandLists(hCommandQueue, 1, &hCommandList, hFence) ==
          ZE_RESULT_SUCCESS);
  // Wait for fence to be signaled
  REQUIRE(zeFenceHostSynchronize(hFence, UINT32_MAX) == ZE_RESULT_SUCCESS);
  CHECK(dst == 99);  // "execution completion and memory coherency ... prior to being signaled"
  CHECK(zeFenceQueryStatus(hFence) == ZE_RESULT_SUCCESS);
  REQUIRE(zeFenceReset(hFence) == ZE_RESULT_SUCCESS);
  CHECK(zeFenceQueryStatus(hFence) == ZE_RESULT_NOT_READY);
  CHECK(zeFenceDestroy(hFence) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given a new fence, then it is unsignalled unless created SIGNALED", "[fence]") {
  ExecFixture fx;
  auto q = fx.queue();
  auto f = fx.fence(q);
  CHECK(zeFenceQueryStatus(f) == ZE_RESULT_NOT_READY);
  CHECK(zeFenceHostSynchronize(f, 0) == ZE_RESULT_NOT_READY);
  auto t0 = std::chrono::steady_clock::now();
  CHECK(zeFenceHostSynchronize(f, 2'000'000) == ZE_RESULT_NOT_READY);
  CHECK(std::chrono::steady_clock::now() - t0 >= std::chrono::milliseconds(2));
  CHECK(zeFenceReset(f) == ZE_RESULT_SUCCESS);  // resetting an unsignalled fence: no effect
  CHECK(zeFenceQueryStatus(f) == ZE_RESULT_NOT_READY);

  auto s = fx.fence(q, ZE_FENCE_FLAG_SIGNALED);
  CHECK(zeFenceQueryStatus(s) == ZE_RESULT_SUCCESS);
  CHECK(zeFenceHostSynchronize(s, 0) == ZE_RESULT_SUCCESS);
  CHECK(zeFenceHostSynchronize(s, UINT64_MAX) == ZE_RESULT_SUCCESS);
  REQUIRE(zeFenceReset(s) == ZE_RESULT_SUCCESS);
  CHECK(zeFenceQueryStatus(s) == ZE_RESULT_NOT_READY);
  // Signalling a signalled fence: still signalled, once.
  uint32_t a = 1, b = 0;
  auto l = copyList(fx, &b, &a, 4);
  REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, s) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, s) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueSynchronize(q, kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(zeFenceQueryStatus(s) == ZE_RESULT_SUCCESS);
  REQUIRE(zeFenceReset(s) == ZE_RESULT_SUCCESS);
  CHECK(zeFenceQueryStatus(s) == ZE_RESULT_NOT_READY);
}

TEST_CASE("Given a fence, when it is reused 100 times, then each execution signals it again",
          "[fence][reexecute]") {
  ExecFixture fx;
  auto q = fx.queue();
  auto f = fx.fence(q);
  uint64_t src = 0, dst = 0;
  auto l = copyList(fx, &dst, &src, 8);
  int wrong = 0;
  for (uint64_t i = 1; i <= 100; ++i) {
    src = i;
    REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, f) == ZE_RESULT_SUCCESS);
    REQUIRE(zeFenceHostSynchronize(f, kPatienceNs) == ZE_RESULT_SUCCESS);
    if (dst != i) ++wrong;
    REQUIRE(zeFenceReset(f) == ZE_RESULT_SUCCESS);
    if (zeFenceQueryStatus(f) != ZE_RESULT_NOT_READY) ++wrong;
  }
  CHECK(wrong == 0);
}

TEST_CASE(
    "Given a queue blocked on an event, then fences of it and of later submissions wait for "
    "the event",
    "[fence][timeout]") {
  ExecFixture fx;
  auto q = fx.queue();
  auto gate = fx.events(1)[0];
  uint64_t src = 5, mid = 0, dst = 0;
  auto first = copyList(fx, &mid, &src, 8, gate);
  auto second = copyList(fx, &dst, &mid, 8);
  auto f1 = fx.fence(q), f2 = fx.fence(q);
  REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &first, f1) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &second, f2) == ZE_RESULT_SUCCESS);
  CHECK(zeFenceHostSynchronize(f1, 0) == ZE_RESULT_NOT_READY);
  CHECK(zeFenceHostSynchronize(f2, 1'000'000) == ZE_RESULT_NOT_READY);
  CHECK(zeFenceQueryStatus(f2) == ZE_RESULT_NOT_READY);
  REQUIRE(zeEventHostSignal(gate) == ZE_RESULT_SUCCESS);
  REQUIRE(zeFenceHostSynchronize(f2, UINT64_MAX) == ZE_RESULT_SUCCESS);
  CHECK(zeFenceQueryStatus(f1) == ZE_RESULT_SUCCESS);
  CHECK(dst == 5);
}

TEST_CASE("Given a fence of another queue, when used in an execution, then it is refused",
          "[fence][errors]") {
  ExecFixture fx;
  auto q1 = fx.queue(0, 0), q2 = fx.queue(0, 1);
  auto f = fx.fence(q1);
  auto l = fx.list();
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandQueueExecuteCommandLists(q2, 1, &l, f) ==
        ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT);
  CHECK(zeCommandQueueExecuteCommandLists(q1, 1, &l, f) == ZE_RESULT_SUCCESS);
  CHECK(zeFenceHostSynchronize(f, kPatienceNs) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given bad arguments, then the fence functions refuse them with the spec's codes",
          "[fence][errors]") {
  ExecFixture fx;
  auto q = fx.queue();
  ze_fence_desc_t d{ZE_STRUCTURE_TYPE_FENCE_DESC, nullptr, 0};
  ze_fence_handle_t f = nullptr;
  CHECK(zeFenceCreate(nullptr, &d, &f) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeFenceCreate(q, nullptr, &f) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeFenceCreate(q, &d, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  d.flags = 0x2;
  CHECK(zeFenceCreate(q, &d, &f) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  CHECK(zeFenceDestroy(nullptr) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeFenceHostSynchronize(nullptr, 0) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeFenceQueryStatus(nullptr) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeFenceReset(nullptr) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  // A destroyed fence and a handle of another type are not fences.
  auto gone = fx.fence(q);
  REQUIRE(zeFenceDestroy(gone) == ZE_RESULT_SUCCESS);
  fx.forget(gone);
  CHECK(zeFenceQueryStatus(gone) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  auto l = fx.list();
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandQueueExecuteCommandLists(q, 1, &l, gone) ==
        ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT);
  CHECK(zeFenceQueryStatus(reinterpret_cast<ze_fence_handle_t>(q)) ==
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
}

TEST_CASE("Given a fence with the wrong stype, then creation is refused", "[fence][errors]") {
  ExecFixture fx;
  ze_fence_desc_t d{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0};
  ze_fence_handle_t f = nullptr;
  CHECK(zeFenceCreate(fx.queue(), &d, &f) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
}
