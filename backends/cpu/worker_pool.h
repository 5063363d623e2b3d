// The worker threads of one device: one per PU, each pinned to its PU, that run parallel jobs: the
// work-groups of kernel launches (jit/launcher.h) and large copies and fills.
//
// Threading contract: run() may be called from any thread; calls are serialized by the pool (a job
// runs on all workers at once). The calling thread takes part as worker 0, so a pool of N threads
// has N-1 helper threads. Idle helpers spin briefly, then sleep on a futex without a timeout; the
// caller waiting for helpers to finish does the same.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace tessera::backends::cpu {

class WorkerPool {
 public:
  // `cpus`: the PUs to pin to (empty: no pinning); `threads`: how many take part, caller included;
  // `idleSpinNs`: how long an idle helper spins before it sleeps.
  WorkerPool(std::vector<uint32_t> cpus, uint32_t threads, uint64_t idleSpinNs);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  uint32_t size() const { return threads_; }
  // A borrowed callable (the job outlives parallelFor's call): unlike std::function it never
  // allocates, which keeps a launch free of heap work.
  class JobRef {
   public:
    template <typename F>
    JobRef(F& f)  // NOLINT: implicit, so callers pass lambdas
        : object_(const_cast<void*>(static_cast<const void*>(&f))),
          call_([](void* o, uint64_t i) { (*static_cast<F*>(o))(i); }) {}
    void operator()(uint64_t i) const { call_(object_, i); }

   private:
    void* object_;
    void (*call_)(void*, uint64_t);
  };
  // Calls job(i) for i in [0, count) spread over the workers and returns when all are done. When a
  // call throws (on any worker), the items not yet started are skipped and the first exception is
  // thrown here once every worker has left the job.
  void parallelFor(uint64_t count, JobRef job);
  template <typename F>
  void parallelFor(uint64_t count, F&& job) {
    parallelFor(count, JobRef(job));
  }

 private:
  void helperMain(uint32_t index);
  void work();
  void tracedWork();

  std::vector<uint32_t> cpus_;
  uint32_t threads_;
  uint64_t idleSpinNs_;
  std::vector<std::thread> helpers_;
  std::mutex jobMutex_;  // one job at a time
  const JobRef* job_ = nullptr;
  uint64_t count_ = 0;
  std::atomic<uint64_t> next_{0};
  std::atomic<uint32_t> generation_{0};  // futex word: bumped per job
  std::atomic<uint32_t> busy_{0};        // helpers still inside the current job (futex word)
  std::atomic<bool> callerSleeps_{false};  // parallelFor's caller sleeps on busy_
  std::mutex errorMutex_;
  std::exception_ptr error_;  // the job's first exception, thrown by parallelFor
  std::atomic<bool> stop_{false};
  char traceLabel_[84] = "";  // the job's name on the trace (the command the caller runs)
};

}  // namespace tessera::backends::cpu
