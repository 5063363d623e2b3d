// No oversubscription by construction (issue 20, item 1): while a launch runs on a device of N PUs,
// at most N of Tessera's threads are runnable (state R in /proc/self/task/<tid>/stat): the launch's
// workers, the submitting thread (a queue's executor, or the application's thread of a synchronous
// immediate list) among them; host threads waiting for the launch (queue, fence and event
// synchronization) sleep even when their spin window is longer than the launch. Checked by state,
// not by time: each case runs in a child process with TESSERA_SPIN_US at 100 s (the driver reads it
// once), so a waiter that spins while the device is busy is still runnable when sampled. The kernel
// spins until the test sets a flag, with at least one work-group per PU, and counts the work-groups
// that started: the samples begin once every worker is in the kernel. A first launch, which ends
// at once, runs before on the same queue or list: a first launch compiles the kernel on the
// submitting thread, and threads that are starting (workers, a new queue's executor) may spin
// until they see the launch; neither is what the test checks.
#include <level_zero/ze_api.h>
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "kernel_test_support.h"
#include "thread_states.h"

using namespace tessera::test;

namespace {

constexpr const char* kChildVar = "TESSERA_TEST_RUNNABLE_CHILD";

bool isTessera(const std::string& name) {
  return name.rfind("tessera-", 0) == 0 || name == "test-submitter";
}

// What a sample saw: runnable threads of Tessera (the submitter counted as one) and waiters.
struct Sample {
  int tesseraRunnable = 0, waitersRunnable = 0, waitersAsleep = 0;
  std::string runnable;  // the runnable threads: name (tid, last CPU)
};

Sample sample() {
  Sample s;
  for (const ThreadState& t : threadStates()) {
    bool runnable = t.state == 'R';
    if (isTessera(t.name)) s.tesseraRunnable += runnable;
    if (t.name == "test-waiter") (runnable ? s.waitersRunnable : s.waitersAsleep) += 1;
    if (runnable)
      s.runnable += t.name + " (" + std::to_string(t.tid) + ", CPU " + std::to_string(t.cpu) + ") ";
  }
  return s;
}

uint32_t devicePus(ze_driver_handle_t driver, ze_device_handle_t device) {
  auto get = extensionFunction<ze_pfnTesseraDeviceGetPus_t>(driver, "zeTesseraDeviceGetPus");
  REQUIRE(get != nullptr);
  uint32_t n = 0;
  REQUIRE(get(device, &n, nullptr) == ZE_RESULT_SUCCESS);
  return n;
}

// Waits (bounded, by polling) until `workers` work-groups started (*started) and the launch runs on
// `workers` runnable Tessera threads and all `waiters` sleep; then checks that no later sample shows more than `workers` runnable Tessera
// threads or a runnable waiter. The flag is set on every way out, so the launch ends.
void checkWhileRunning(volatile int* flag, const volatile int* started, int workers, int waiters) {
  struct Release {
    volatile int* flag;
    ~Release() { *flag = 1; }
  } release{flag};
  Sample s;
  bool settled = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!settled && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
    s = sample();
    settled = *started >= workers && s.tesseraRunnable == workers && s.waitersAsleep == waiters;
  }
  INFO("work-groups started " << *started << ", runnable Tessera threads " << s.tesseraRunnable
                              << " (launch workers " << workers << "), waiters runnable "
                              << s.waitersRunnable << ", asleep " << s.waitersAsleep << " of "
                              << waiters);
  REQUIRE(settled);
  for (int i = 0; i < 200; ++i) {
    s = sample();
    INFO("sample " << i << ", runnable: " << s.runnable);
    REQUIRE(s.tesseraRunnable <= workers);
    REQUIRE(s.waitersRunnable == 0);
  }
}

// The spinning launch: spin_until_started in work-groups of one work-item, four per worker, each running
// until `flag` is set; `workers` is how many threads the device's launches run on.
struct SpinningLaunch {
  KernelFixture fx;
  const uint32_t workers =
      std::min(devicePus(fx.driver, fx.device), std::max(1u, std::thread::hardware_concurrency()));
  const ze_group_count_t groups{4 * workers, 1, 1};
  std::vector<int> out = std::vector<int>(4 * workers, 0);
  alignas(64) volatile int flag = 1;  // set for the first launch (rearm)
  alignas(64) volatile int started = 0;
  ze_kernel_handle_t kernel = fx.kernel("faults", "spin_until_started");

  SpinningLaunch() {
    void* f = const_cast<int*>(&flag);
    int* o = out.data();
    void* st = const_cast<int*>(&started);
    REQUIRE(zeKernelSetGroupSize(kernel, 1, 1, 1) == ZE_RESULT_SUCCESS);
    REQUIRE(zeKernelSetArgumentValue(kernel, 0, sizeof f, &f) == ZE_RESULT_SUCCESS);
    REQUIRE(zeKernelSetArgumentValue(kernel, 1, sizeof o, &o) == ZE_RESULT_SUCCESS);
    REQUIRE(zeKernelSetArgumentValue(kernel, 2, sizeof st, &st) == ZE_RESULT_SUCCESS);
  }
  // After a first launch that ended at once (the flag set) on the list or queue the checked launch
  // will use: the kernel's code, the device's workers and the queue's executor exist and their
  // start-up is over, so the samples see the steady state, not threads starting.
  void rearm() {
    REQUIRE(allRan());
    flag = 0;
    started = 0;
    std::fill(out.begin(), out.end(), 0);
  }
  void check(int waiters) { checkWhileRunning(&flag, &started, int(workers), waiters); }
  bool allRan() const { return std::count(out.begin(), out.end(), 7) == int(out.size()); }
};

// On a queue's executor: three host threads wait for it (queue, fence, event).
void executorLaunch() {
  SpinningLaunch s;
  auto q = s.fx.queue();
  auto l = s.fx.list();
  auto e = s.fx.events(1).at(0);
  auto f = s.fx.fence(q);
  auto first = s.fx.list();
  KernelFixture::launch(first, s.kernel, s.groups);
  REQUIRE(zeCommandListClose(first) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &first, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueSynchronize(q, UINT64_MAX) == ZE_RESULT_SUCCESS);
  s.rearm();
  KernelFixture::launch(l, s.kernel, s.groups, e);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, f) == ZE_RESULT_SUCCESS);
  std::vector<ze_result_t> results(3, ZE_RESULT_ERROR_UNKNOWN);
  std::vector<std::thread> waiters;
  for (int i = 0; i < 3; ++i)
    waiters.emplace_back([&, i] {
      pthread_setname_np(pthread_self(), "test-waiter");
      results[i] = i == 0   ? zeCommandQueueSynchronize(q, UINT64_MAX)
                   : i == 1 ? zeFenceHostSynchronize(f, UINT64_MAX)
                            : zeEventHostSynchronize(e, UINT64_MAX);
    });
  s.check(3);
  for (auto& t : waiters) t.join();
  for (ze_result_t r : results) CHECK(r == ZE_RESULT_SUCCESS);
  CHECK(s.allRan());
}

// Inline on the application's thread (a synchronous immediate list): that thread is one of the
// workers; a host thread waits on the launch's event.
void inlineLaunch() {
  SpinningLaunch s;
  auto imm = s.fx.immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  auto e = s.fx.events(1).at(0);
  REQUIRE(zeCommandListAppendLaunchKernel(imm, s.kernel, &s.groups, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  s.rearm();
  ze_result_t launched = ZE_RESULT_ERROR_UNKNOWN, waited = ZE_RESULT_ERROR_UNKNOWN;
  std::thread submitter([&] {
    pthread_setname_np(pthread_self(), "test-submitter");
    launched = zeCommandListAppendLaunchKernel(imm, s.kernel, &s.groups, e, 0, nullptr);
  });
  std::thread waiter([&] {
    pthread_setname_np(pthread_self(), "test-waiter");
    waited = zeEventHostSynchronize(e, UINT64_MAX);
  });
  s.check(1);
  submitter.join();
  waiter.join();
  // Everything ran inline: the list's queue never started an executor that could spin or wake
  // beside the launches (it starts with a first submission).
  for (const ThreadState& t : threadStates()) CHECK(t.name != "tessera-queue");
  CHECK(launched == ZE_RESULT_SUCCESS);
  CHECK(waited == ZE_RESULT_SUCCESS);
  CHECK(s.allRan());
}

void runChild(const std::string& name, const std::map<std::string, std::string>& extra) {
  std::map<std::string, std::string> env = extra;
  env[kChildVar] = "1";
  env["TESSERA_SPIN_US"] = "100000000";
  auto r = runProgram({"/proc/self/exe", name}, env);
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.exitCode == 0);
  CHECK(r.out.find("All tests passed") != std::string::npos);
}

bool inChild() {
  return std::getenv(kChildVar) != nullptr;
}

}  // namespace

TEST_CASE("runnable child: a launch on the executor", "[.runnable_child]") {
  if (inChild()) executorLaunch();
}

TEST_CASE("runnable child: a launch inline on the application's thread", "[.runnable_child]") {
  if (inChild()) inlineLaunch();
}

TEST_CASE(
    "Runnable threads: a launch keeps at most one runnable Tessera thread per PU and its "
    "waiters asleep",
    "[runnable]") {
  SECTION("on the machine's root device, from a queue's executor") {
    runChild("runnable child: a launch on the executor", {});
  }
  SECTION("on the machine's root device, inline on the application's thread") {
    runChild("runnable child: a launch inline on the application's thread", {});
  }
  // A device of fewer PUs than the machine: its work is not pinned (the PUs are not this
  // machine's), and a waiter on the machine's other CPU must not spin beside it.
  SECTION("on a synthetic device of one PU, from a queue's executor") {
    runChild("runnable child: a launch on the executor",
             {{"TESSERA_TOPOLOGY", "pack:1 core:1 pu:1"}});
  }
  SECTION("on a synthetic device of one PU, inline on the application's thread") {
    runChild("runnable child: a launch inline on the application's thread",
             {{"TESSERA_TOPOLOGY", "pack:1 core:1 pu:1"}});
  }
}
