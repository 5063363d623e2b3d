#include "backends/cpu/worker_pool.h"

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <pthread.h>

#include <climits>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

#include "backends/cpu/affinity.h"
#include "trace/trace.h"

namespace tessera::backends::cpu {
namespace {

// Sleeps while `word` holds `expected`, without a timeout: every change of the words the pool
// sleeps on is followed by a wake-up, so an idle pool makes no system calls.
void futexWait(std::atomic<uint32_t>& word, uint32_t expected) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAIT_PRIVATE, expected, nullptr,
          nullptr, 0);
}

void futexWake(std::atomic<uint32_t>& word, int count) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAKE_PRIVATE, count, nullptr,
          nullptr, 0);
}

void futexWakeAll(std::atomic<uint32_t>& word) {
  futexWake(word, INT_MAX);
}

inline void pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

uint64_t nowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1'000'000'000ull + uint64_t(ts.tv_nsec);
}

}  // namespace

WorkerPool::WorkerPool(std::vector<uint32_t> cpus, uint32_t threads, uint64_t idleSpinNs)
    : cpus_(std::move(cpus)), threads_(threads ? threads : 1), idleSpinNs_(idleSpinNs) {
  for (uint32_t i = 1; i < threads_; ++i) helpers_.emplace_back([this, i] { helperMain(i); });
}

WorkerPool::~WorkerPool() {
  stop_ = true;
  generation_.fetch_add(1);
  futexWakeAll(generation_);
  for (auto& t : helpers_) t.join();
}

void WorkerPool::work() {
  // An exception from the job (std::bad_alloc of a worker's local memory) must not end a helper
  // thread, which would end the process: the first one is kept, the items not yet taken are
  // skipped, and parallelFor throws it on the calling thread once every worker has left the job.
  try {
    if (trace::enabled()) return tracedWork();
    for (uint64_t i = next_.fetch_add(1); i < count_; i = next_.fetch_add(1)) (*job_)(i);
  } catch (...) {
    {
      std::lock_guard lock(errorMutex_);
      if (!error_) error_ = std::current_exception();
    }
    next_.store(count_);
  }
}

// work() with a span per worker and job on the trace (the items it took: work-groups or chunks).
void WorkerPool::tracedWork() {
  uint64_t start = trace::nowNs(), items = 0;
  for (uint64_t i = next_.fetch_add(1); i < count_; i = next_.fetch_add(1), ++items) (*job_)(i);
  char args[64];
  std::snprintf(args, sizeof args, "\"items\":%llu,\"of\":%llu",
                static_cast<unsigned long long>(items), static_cast<unsigned long long>(count_));
  trace::complete("worker", traceLabel_, start, trace::nowNs(), args);
}

void WorkerPool::helperMain(uint32_t index) {
  // Tuning only: a failure (no memory for the names) leaves the thread as it is.
  try {
    pthread_setname_np(pthread_self(), "tessera-worker");
    if (!cpus_.empty()) pinCurrentThread({cpus_[index % cpus_.size()]});
    if (trace::enabled())
      trace::nameThread(
          "worker " + std::to_string(index) +
              (cpus_.empty() ? std::string()
                             : " (PU " + std::to_string(cpus_[index % cpus_.size()]) + ")"),
          1000 + static_cast<int>(index));
  } catch (...) {
  }
  // Generation 0 is "no job yet": a job posted before this thread got here still counts on it.
  uint32_t seen = 0;
  while (true) {
    // Spin briefly for the next job, then sleep until the generation changes.
    uint64_t spinEnd = nowNs() + idleSpinNs_;
    uint32_t g;
    // (Yielding now and then, like core/sync's spins: a PU may be shared with the thread that
    // has work for it.)
    for (uint32_t i = 0; (g = generation_.load(std::memory_order_acquire)) == seen; ++i) {
      if ((i & 63) == 63) {
        if (nowNs() >= spinEnd) break;
        sched_yield();
      }
      pause();
    }
    while ((g = generation_.load(std::memory_order_acquire)) == seen) futexWait(generation_, seen);
    seen = g;
    if (stop_) return;
    work();
    // The last helper to leave wakes the caller if it went to sleep (seq_cst pairs with the
    // caller's announcement: either it sees busy_ at 0 or this sees it asleep).
    if (busy_.fetch_sub(1) == 1 && callerSleeps_.load()) futexWake(busy_, 1);
  }
}

void WorkerPool::parallelFor(uint64_t count, JobRef job) {
  if (count == 0) return;
  if (threads_ == 1 || count == 1) {
    for (uint64_t i = 0; i < count; ++i) job(i);
    return;
  }
  std::lock_guard lock(jobMutex_);
  job_ = &job;
  count_ = count;
  if (trace::enabled()) std::snprintf(traceLabel_, sizeof traceLabel_, "%s", trace::currentLabel());
  next_.store(0);
  busy_.store(threads_ - 1);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  futexWakeAll(generation_);
  work();
  // Helpers that find no item left leave at once; wait for those still running one: spin for the
  // pool's spin window (TESSERA_SPIN_US), pausing and now and then yielding the PU (a helper may
  // share it), then sleep until the last helper wakes us.
  uint64_t spinEnd = nowNs() + idleSpinNs_;
  for (uint32_t i = 0; busy_.load(std::memory_order_acquire) != 0; ++i) {
    if ((i & 63) == 63) {
      if (nowNs() >= spinEnd) break;
      sched_yield();
    }
    pause();
  }
  if (busy_.load() != 0) {
    callerSleeps_.store(true);
    for (uint32_t b; (b = busy_.load()) != 0;) futexWait(busy_, b);
    callerSleeps_.store(false);
  }
  job_ = nullptr;
  if (error_) {
    std::exception_ptr e = std::exchange(error_, nullptr);
    std::rethrow_exception(e);
  }
}

}  // namespace tessera::backends::cpu
