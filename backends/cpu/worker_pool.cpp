#include "backends/cpu/worker_pool.h"

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <pthread.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

#include "host/affinity.h"
#include "host/pu_claims.h"
#include "trace/trace.h"

namespace tessera::backends::cpu {
namespace {

// Sleeps while `word` holds `expected`, without a timeout: every change of the words the pool
// sleeps on is followed by a wake-up, so an idle pool makes no system calls. `bits`: the sleeper's
// bit for FUTEX_WAKE_BITSET (a wake names exactly the helpers it wants).
void futexWait(std::atomic<uint32_t>& word, uint32_t expected,
               uint32_t bits = FUTEX_BITSET_MATCH_ANY) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAIT_BITSET_PRIVATE, expected,
          nullptr, nullptr, bits);
}

void futexWake(std::atomic<uint32_t>& word, int count, uint32_t bits = FUTEX_BITSET_MATCH_ANY) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAKE_BITSET_PRIVATE, count, nullptr,
          nullptr, bits);
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

std::mutex gTotalsMutex;
BalanceTotals gTotals;

}  // namespace

// One per worker slot, on a cache line of its own: the caller writes a helper's ticket, the helper
// spins on it; the worker writes its times, the caller reads them once the job is over.
struct alignas(64) WorkerPool::Slot {
  std::atomic<uint64_t> ticket{0};    // the job (sequence number) this slot's helper is to run
  std::atomic<uint32_t> sleeping{0};  // its helper sleeps, or is about to, on its wake word
  int cpu = host::PuClaim::kFloating;       // the PU it is pinned to
  uint64_t startNs = 0, endNs = 0, items = 0;  // of the job being run
};

BalanceTotals balanceTotals(bool reset) {
  std::lock_guard lock(gTotalsMutex);
  BalanceTotals t = gTotals;
  if (reset) gTotals = {};
  return t;
}

WorkerPool::WorkerPool(std::vector<uint32_t> cpus, uint32_t threads, uint64_t idleSpinNs)
    : cpus_(std::move(cpus)), threads_(threads ? threads : 1), idleSpinNs_(idleSpinNs) {
  slots_ = std::make_unique<Slot[]>(threads_);
  wakeWords_ = std::make_unique<std::atomic<uint32_t>[]>((threads_ + 31) / 32);
  for (uint32_t i = 0; i < (threads_ + 31) / 32; ++i) wakeWords_[i].store(0);
  if (!cpus_.empty()) {
    cpuToSlot_.assign(*std::max_element(cpus_.begin(), cpus_.end()) + 1, -1);
    for (uint32_t i = 0; i < threads_; ++i) {
      uint32_t cpu = cpus_[i % cpus_.size()];
      slots_[i].cpu = int(cpu);
      if (cpuToSlot_[cpu] < 0) cpuToSlot_[cpu] = int(i);
    }
  }
  // A pinned pool has a helper on every PU (the caller stands in for the one of its own PU); an
  // unpinned one none for slot 0, which its caller always takes.
  // (A pool of one runs every job on its caller.)
  for (uint32_t i = cpus_.empty() ? 1 : 0; threads_ > 1 && i < threads_; ++i)
    helpers_.emplace_back([this, i] { helperMain(i); });
}

WorkerPool::~WorkerPool() {
  if (owner_.isForkCopy()) {
    // The parent's pool in a fork child: its helpers do not exist here.
    for (auto& t : helpers_) support::abandonThread(t);
    return;
  }
  stop_ = true;
  for (uint32_t g = 0; g < (threads_ + 31) / 32; ++g) {
    wakeWords_[g].fetch_add(1);
    futexWake(wakeWords_[g], INT_MAX);
  }
  for (auto& t : helpers_) t.join();
}

JobBalance WorkerPool::lastBalance() const {
  std::lock_guard lock(balanceMutex_);
  return last_;
}

// The job's items, taken one at a time from the shared counter, as the slot's worker.
void WorkerPool::runItems(Slot& slot) {
  // An exception from the job (std::bad_alloc of a worker's local memory) must not end a helper
  // thread, which would end the process: the first one is kept, the items not yet taken are
  // skipped, and parallelFor throws it on the calling thread once every worker has left the job.
  uint64_t items = 0;
  try {
    for (uint64_t i = next_.fetch_add(1); i < count_; i = next_.fetch_add(1), ++items) (*job_)(i);
  } catch (...) {
    {
      std::lock_guard lock(errorMutex_);
      if (!error_) error_ = std::current_exception();
    }
    next_.store(count_);
  }
  slot.items = items;
}

// A worker's part of the job, with its PU claimed (pu_claims.h) and its times kept for the
// balance; on the trace, a span per worker and job (the items it took: work-groups or chunks).
void WorkerPool::work(Slot& slot, int cpu) {
  host::PuClaim claim(cpu);
  slot.startNs = nowNs();
  runItems(slot);
  slot.endNs = nowNs();
  if (trace::enabled()) {
    char args[64];
    std::snprintf(args, sizeof args, "\"items\":%llu,\"of\":%llu",
                  static_cast<unsigned long long>(slot.items),
                  static_cast<unsigned long long>(count_));
    trace::complete("worker", traceLabel_, slot.startNs, slot.endNs, args);
  }
}

// Spins for the next ticket while that is cheap and harmless: not past the spin window, not while
// the PU is claimed by other work, not once a job has started without this helper. True when the
// ticket changed (or the pool stops).
bool WorkerPool::idleSpin(Slot& slot, uint64_t seen) {
  if (idleSpinNs_ == 0) return false;
  const uint64_t end = nowNs() + idleSpinNs_;
  const uint32_t seenJob = jobSeq_.load(std::memory_order_acquire);
  for (uint32_t i = 0;; ++i) {
    if (slot.ticket.load(std::memory_order_acquire) != seen ||
        stop_.load(std::memory_order_relaxed))
      return true;
    // (Yielding now and then, like core/sync's spins: a PU may be shared with the thread that has
    // work for it.)
    if ((i & 63) == 63) {
      if (nowNs() >= end || host::spinWouldCompete()) return false;
      if (jobSeq_.load(std::memory_order_acquire) != seenJob)
        return slot.ticket.load(std::memory_order_acquire) != seen;
      sched_yield();
    }
    pause();
  }
}

void WorkerPool::helperMain(uint32_t index) {
  Slot& slot = slots_[index];
  // Tuning only: a failure (no memory for the names) leaves the thread as it is.
  try {
    pthread_setname_np(pthread_self(), "tessera-worker");
    if (!cpus_.empty()) host::pinCurrentThread({uint32_t(slot.cpu)});
    if (trace::enabled())
      trace::nameThread(
          "worker " + std::to_string(index) +
              (cpus_.empty() ? std::string() : " (PU " + std::to_string(slot.cpu) + ")"),
          1000 + static_cast<int>(index));
  } catch (...) {
  }
  std::atomic<uint32_t>& word = wakeWords_[index / 32];
  const uint32_t bit = 1u << (index % 32);
  // Ticket 0 is "no job yet": a job posted before this thread got here still counts on it.
  uint64_t seen = 0;
  while (true) {
    if (!idleSpin(slot, seen)) {
      // Asleep until the ticket changes. The announcement pairs with the caller's ticket store
      // (both sequentially consistent): either the caller sees `sleeping` and wakes this bit after
      // changing the word, or this thread sees the new ticket and does not sleep.
      while (slot.ticket.load() == seen && !stop_.load()) {
        slot.sleeping.store(1);
        uint32_t v = word.load();
        if (slot.ticket.load() == seen && !stop_.load()) futexWait(word, v, bit);
        slot.sleeping.store(0, std::memory_order_relaxed);
      }
    }
    if (stop_) return;
    seen = slot.ticket.load(std::memory_order_acquire);
    work(slot, slot.cpu);
    // The last helper to leave wakes the caller if it went to sleep (seq_cst pairs with the
    // caller's announcement: either it sees busy_ at 0 or this sees it asleep).
    if (busy_.fetch_sub(1) == 1 && callerSleeps_.load()) futexWake(busy_, 1);
  }
}

// The helpers of a job of `wanted` helpers: the slots after the caller's, in order (the PUs next
// to it first), the caller's own and slots without a helper left out.
uint32_t WorkerPool::selectHelpers(int callerSlot, uint32_t wanted) {
  selected_.clear();
  const uint32_t first = callerSlot < 0 ? 0 : uint32_t(callerSlot) + 1;
  for (uint32_t k = 0; k < threads_ && selected_.size() < wanted; ++k) {
    uint32_t s = (first + k) % threads_;
    if (int(s) == callerSlot || (cpus_.empty() && s == 0)) continue;
    selected_.push_back(s);
  }
  return uint32_t(selected_.size());
}

// Hands the job to the selected helpers: their tickets, then one FUTEX_WAKE_BITSET per group of 32
// slots for those that sleep (a spinning helper sees its ticket without a system call).
void WorkerPool::wakeSelected() {
  const uint64_t ticket = ++jobNumber_;
  for (uint32_t s : selected_) slots_[s].ticket.store(ticket);
  // After the tickets: an idle helper that sees the job start without its ticket stops spinning.
  jobSeq_.fetch_add(1, std::memory_order_release);
  uint32_t mask = 0, group = 0;
  auto flush = [&] {
    if (!mask) return;
    wakeWords_[group].fetch_add(1);
    futexWake(wakeWords_[group], INT_MAX, mask);
    mask = 0;
  };
  for (uint32_t s : selected_) {  // ascending within each wrap-around run
    if (s / 32 != group) flush(), group = s / 32;
    if (slots_[s].sleeping.load()) mask |= 1u << (s % 32);
  }
  flush();
}

// Waits until every selected helper has left the job: spinning while the caller took part (its PU
// is its own: the PU's helper is not in the job), then, or at once for a caller that did not,
// asleep until the last helper wakes it.
void WorkerPool::waitForHelpers(bool spin) {
  if (spin) {
    const uint64_t spinEnd = nowNs() + idleSpinNs_;
    for (uint32_t i = 0; busy_.load(std::memory_order_acquire) != 0; ++i) {
      if ((i & 63) == 63) {
        if (nowNs() >= spinEnd) break;
        sched_yield();
      }
      pause();
    }
  }
  if (busy_.load() != 0) {
    callerSleeps_.store(true);
    for (uint32_t b; (b = busy_.load()) != 0;) futexWait(busy_, b);
    callerSleeps_.store(false);
  }
}

// The job's balance from its workers' times: kept as the pool's last, added to the process's
// totals and, when tracing, recorded on the caller's track.
void WorkerPool::finishBalance(uint64_t startNs, int callerSlot) {
  JobBalance b;
  b.items = count_;
  uint64_t firstEnd = UINT64_MAX, lastEnd = 0, lastStart = startNs;
  b.minBusyNs = UINT64_MAX;
  auto add = [&](const Slot& s) {
    ++b.workers;
    firstEnd = std::min(firstEnd, s.endNs);
    lastEnd = std::max(lastEnd, s.endNs);
    lastStart = std::max(lastStart, s.startNs);
    uint64_t busy = s.endNs - s.startNs;
    b.minBusyNs = std::min(b.minBusyNs, busy);
    b.maxBusyNs = std::max(b.maxBusyNs, busy);
  };
  if (callerSlot >= 0) add(slots_[callerSlot]);
  for (uint32_t s : selected_) add(slots_[s]);
  b.spanNs = lastEnd - startNs;
  b.tailNs = lastEnd - firstEnd;
  b.lateStartNs = lastStart - startNs;
  {
    std::lock_guard lock(balanceMutex_);
    last_ = b;
  }
  {
    std::lock_guard lock(gTotalsMutex);
    ++gTotals.jobs;
    gTotals.workers += b.workers;
    gTotals.spanNs += b.spanNs;
    gTotals.tailNs += b.tailNs;
    gTotals.maxTailNs = std::max(gTotals.maxTailNs, b.tailNs);
    gTotals.lateStartNs += b.lateStartNs;
    gTotals.busySpreadNs += b.maxBusyNs - b.minBusyNs;
  }
  if (trace::enabled()) {
    char args[160];
    std::snprintf(args, sizeof args,
                  "\"workers\":%u,\"tail_ns\":%llu,\"late_start_ns\":%llu,\"busy_min_ns\":%llu,"
                  "\"busy_max_ns\":%llu",
                  b.workers, static_cast<unsigned long long>(b.tailNs),
                  static_cast<unsigned long long>(b.lateStartNs),
                  static_cast<unsigned long long>(b.minBusyNs),
                  static_cast<unsigned long long>(b.maxBusyNs));
    trace::complete("balance", traceLabel_, startNs, lastEnd, args);
  }
}

void WorkerPool::parallelFor(uint64_t count, JobRef job) {
  if (count == 0) return;
  if (threads_ == 1 || count == 1) {
    for (uint64_t i = 0; i < count; ++i) job(i);
    return;
  }
  std::lock_guard lock(jobMutex_);
  // The caller's slot: the one of the PU it runs on (a pinned pool), slot 0 (unpinned), or none.
  const int cpu = host::currentCpu();
  int callerSlot = 0;
  if (!cpus_.empty())
    callerSlot = cpu >= 0 && size_t(cpu) < cpuToSlot_.size() ? cpuToSlot_[size_t(cpu)] : -1;
  const uint32_t workers = uint32_t(std::min<uint64_t>(count, threads_));
  job_ = &job;
  count_ = count;
  if (trace::enabled()) std::snprintf(traceLabel_, sizeof traceLabel_, "%s", trace::currentLabel());
  next_.store(0);
  busy_.store(selectHelpers(callerSlot, callerSlot >= 0 ? workers - 1 : workers));
  const uint64_t start = nowNs();
  wakeSelected();
  if (callerSlot >= 0) work(slots_[callerSlot], cpus_.empty() ? host::PuClaim::kFloating : cpu);
  waitForHelpers(callerSlot >= 0);
  finishBalance(start, callerSlot);
  job_ = nullptr;
  if (error_) {
    std::exception_ptr e = std::exchange(error_, nullptr);
    std::rethrow_exception(e);
  }
}

}  // namespace tessera::backends::cpu
