// The worker threads of one device: one per PU, each pinned to its PU, that run parallel jobs: the
// work-groups of kernel launches (runtime/launcher.h) and large copies and fills.
//
// Threading contract: parallelFor() may be called from any thread; calls are serialized by the
// pool (one job at a time). No more threads run a job than there are PUs (pu_claims.h):
//  - a pinned pool (a device of this machine) has a helper pinned to each of its PUs. The calling
//    thread, when it runs on one of them, takes part as that PU's worker and the PU's helper is
//    not woken; a caller elsewhere does not take part and only waits;
//  - an unpinned pool (synthetic or XML topology) has helpers for every slot but the first, which
//    the caller always takes;
//  - a job of `count` items wakes only the helpers it needs (min(count, PUs) workers in all, the
//    caller's PU's neighbours first), with one FUTEX_WAKE_BITSET per 32 helpers, so the wake-up
//    does not grow with the number of PUs; helpers left out stay asleep, or stop spinning.
// Idle helpers spin briefly (not while their PU is claimed by other work), then sleep on a futex
// without a timeout; the caller waiting for helpers to finish does the same.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "backends/device_kind.h"
#include "support/fork_child.h"

namespace tessera::backends::cpu {

// How evenly a parallel job's workers finished (issue 20: the tail must not grow with the worker
// count). Times in nanoseconds of CLOCK_MONOTONIC.
struct JobBalance {
  uint32_t workers = 0;      // threads that took part, the caller included when it did
  uint64_t items = 0;        // the job's count
  uint64_t spanNs = 0;       // from the job's start to its last worker's end
  uint64_t tailNs = 0;       // from the first worker to finish to the last
  uint64_t lateStartNs = 0;  // from the job's start to its last worker's start (wake-up)
  uint64_t minBusyNs = 0;    // the least and most time a worker spent in the job's items
  uint64_t maxBusyNs = 0;
};

// Sums over the parallel jobs of every pool in the process since the last reset.
using backends::BalanceTotals;
BalanceTotals balanceTotals(bool reset);

class WorkerPool {
 public:
  // `cpus`: the PUs to pin to (empty: no pinning); `threads`: how many take part at most, caller
  // included; `idleSpinNs`: how long an idle helper spins before it sleeps.
  WorkerPool(std::vector<uint32_t> cpus, uint32_t threads, uint64_t idleSpinNs);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  uint32_t size() const { return threads_; }
  // A borrowed callable that never allocates (backends/device_kind.h).
  using JobRef = backends::JobRef;
  // Calls job(i) for i in [0, count) spread over the workers and returns when all are done. When a
  // call throws (on any worker), the items not yet started are skipped and the first exception is
  // thrown here once every worker has left the job.
  void parallelFor(uint64_t count, JobRef job);
  template <typename F>
  void parallelFor(uint64_t count, F&& job) {
    parallelFor(count, JobRef(job));
  }
  // The balance of this pool's last parallel job (one that woke at least one helper).
  JobBalance lastBalance() const;

 private:
  struct Slot;
  void helperMain(uint32_t index);
  bool idleSpin(Slot& slot, uint64_t seen);
  void work(Slot& slot, int cpu);
  void runItems(Slot& slot);
  uint32_t selectHelpers(int callerSlot, uint32_t wanted);
  void wakeSelected();
  void waitForHelpers(bool spin);
  void finishBalance(uint64_t startNs, int callerSlot);

  std::vector<uint32_t> cpus_;
  uint32_t threads_;
  uint64_t idleSpinNs_;
  std::unique_ptr<Slot[]> slots_;
  std::vector<int> cpuToSlot_;  // OS CPU number -> slot (-1: not one of the pool's)
  std::vector<std::thread> helpers_;
  std::unique_ptr<std::atomic<uint32_t>[]> wakeWords_;  // futex words, one per 32 slots
  std::mutex jobMutex_;                                 // one job at a time
  const JobRef* job_ = nullptr;
  uint64_t count_ = 0;
  std::atomic<uint64_t> next_{0};
  uint64_t jobNumber_ = 0;                 // the last job's ticket
  std::atomic<uint32_t> jobSeq_{0};        // bumped per job: idle helpers left out stop spinning
  std::vector<uint32_t> selected_;         // the slots of the current job's helpers
  std::atomic<uint32_t> busy_{0};          // helpers still inside the current job (futex word)
  std::atomic<bool> callerSleeps_{false};  // parallelFor's caller sleeps on busy_
  std::mutex errorMutex_;
  std::exception_ptr error_;  // the job's first exception, thrown by parallelFor
  std::atomic<bool> stop_{false};
  support::OwnerProcess owner_;  // a fork child's copy has no helpers (support/fork_child.h)
  mutable std::mutex balanceMutex_;
  JobBalance last_;
  char traceLabel_[84] = "";  // the job's name on the trace (the command the caller runs)
};

}  // namespace tessera::backends::cpu
