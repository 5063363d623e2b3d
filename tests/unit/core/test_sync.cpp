// core/sync's waits and the PUs claimed by device work (host/pu_claims.h): a waiter whose
// PU is claimed, or any waiter while floating work (an unpinned device's) runs, sleeps at once
// instead of spinning for its window; without claims it spins. Checked by the waiting thread's
// state (/proc/self/task/<tid>/stat), with a spin window far longer than the test.
#include <catch2/catch.hpp>

#include <sched.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <thread>

#include "host/affinity.h"
#include "host/pu_claims.h"
#include "core/sync/wait.h"
#include "thread_states.h"

namespace tessera::core::sync {
namespace {

using host::PuClaim;

// Sets the spin window for the test's duration.
struct SpinWindow {
  uint64_t old = spinNs();
  explicit SpinWindow(uint64_t ns) { setSpinNs(ns); }
  ~SpinWindow() { setSpinNs(old); }
};

// Waits (bounded, by polling) until thread `tid` is in `state`; the state seen last.
char awaitState(long tid, char state) {
  tessera::test::ThreadState t;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  do {
    std::this_thread::yield();
    if (!tessera::test::readThreadState(tid, t)) return '?';
  } while (t.state != state && std::chrono::steady_clock::now() < deadline);
  return t.state;
}

// A thread (pinned to `cpu` when given) waiting on a flag without a timeout.
struct Waiter {
  std::atomic<uint32_t> word{0};
  std::atomic<long> tid{0};
  bool result = false;
  std::thread thread;
  explicit Waiter(std::optional<uint32_t> cpu) {
    thread = std::thread([this, cpu] {
      if (cpu) host::pinCurrentThread({*cpu});
      tid = tessera::test::currentTid();
      result = flagWait(word, kForever, false);
    });
    while (tid.load() == 0) std::this_thread::yield();
  }
  void finish() {
    flagSet(word, false);
    thread.join();
  }
};

}  // namespace

TEST_CASE("sync: a waiter sleeps at once while floating work runs", "[sync]") {
  SpinWindow window(100'000'000'000ull);
  host::PuClaim floating(host::PuClaim::kFloating);
  Waiter w(std::nullopt);
  CHECK(awaitState(w.tid, 'S') == 'S');
  w.finish();
  CHECK(w.result);
}

TEST_CASE("sync: a waiter on a claimed PU sleeps at once; on a free one it spins", "[sync]") {
  cpu_set_t set;
  REQUIRE(sched_getaffinity(0, sizeof set, &set) == 0);
  int cpu = -1;
  for (int c = 0; c < CPU_SETSIZE && cpu < 0; ++c)
    if (CPU_ISSET(c, &set)) cpu = c;
  REQUIRE(cpu >= 0);
  SpinWindow window(100'000'000'000ull);
  {
    host::PuClaim claim(cpu);
    Waiter w{uint32_t(cpu)};
    CHECK(awaitState(w.tid, 'S') == 'S');
    w.finish();
    CHECK(w.result);
  }
  // No claim: the waiter spins (runnable) until the flag is set.
  Waiter w{uint32_t(cpu)};
  tessera::test::ThreadState t;
  for (int i = 0; i < 50; ++i) {
    REQUIRE(tessera::test::readThreadState(w.tid, t));
    CHECK(t.state == 'R');
  }
  w.finish();
  CHECK(w.result);
}

TEST_CASE("sync: timed waits that time out end no earlier than their deadline, sleeping then "
          "spinning its last stretch, and a signal still ends them",
          "[sync]") {
  SpinWindow window(0);  // no initial spin: sleep, then the final stretch
  for (uint64_t timeout : {50'000ull, 1'000'000ull, 5'000'000ull}) {
    INFO("timeout " << timeout << " ns");
    std::atomic<uint32_t> word{0};
    uint64_t start = nowNs();
    CHECK_FALSE(flagWait(word, timeout, false));
    CHECK(nowNs() - start >= timeout);
    Counter counter;
    start = nowNs();
    CHECK_FALSE(counter.waitAtLeast(1, timeout));
    CHECK(nowNs() - start >= timeout);
    Counter shared(/*shared=*/true);
    start = nowNs();
    CHECK_FALSE(shared.waitAtLeast(1, timeout));
    CHECK(nowNs() - start >= timeout);
  }
  // Signalled from another thread: the wait succeeds whether it was asleep or spinning then.
  std::atomic<uint32_t> word{0};
  Counter counter(/*shared=*/true);
  std::thread signaller([&] {
    flagSet(word, false);
    counter.advanceTo(3);
  });
  CHECK(flagWait(word, 20'000'000'000ull, false));
  CHECK(counter.waitAtLeast(3, 20'000'000'000ull));
  signaller.join();
}

}  // namespace tessera::core::sync
