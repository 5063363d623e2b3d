#include "core/sync/wait.h"

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <climits>

#include "host/pu_claims.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TESSERA_PAUSE() _mm_pause()
#else
#define TESSERA_PAUSE() ((void)0)
#endif

namespace tessera::core::sync {
namespace {

// Sleeps while `word` holds `expected`, at most `ns` (kForever: without a timeout), or until woken.
void futexWait(std::atomic<uint32_t>& word, uint32_t expected, uint64_t ns, bool shared) {
  timespec ts{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
  int op = shared ? FUTEX_WAIT : FUTEX_WAIT_PRIVATE;
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), op, expected,
          ns == kForever ? nullptr : &ts, nullptr, 0);
}

void futexWakeAll(std::atomic<uint32_t>& word, bool shared) {
  int op = shared ? FUTEX_WAKE : FUTEX_WAKE_PRIVATE;
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), op, INT_MAX, nullptr, nullptr, 0);
}

uint64_t deadlineOf(uint64_t start, uint64_t timeoutNs) {
  return timeoutNs == kForever || start + timeoutNs < start ? kForever : start + timeoutNs;
}

bool cancelled(const Cancel* cancel) {
  return cancel && cancel->requested();
}

// The last stretch before a timed wait's deadline is spun, not slept: a futex sleep ends after its
// deadline by the timer slack (50 us) and the wake-up's latency (110 to 250 us measured on a
// loaded 2-vCPU VM, where level-zero-tests allows 2% of a 5 ms timeout), a spin within a
// microsecond of it. So a timed sleep ends this long before the deadline and the rest is spun;
// only a wait that times out pays it (a signal wakes the sleeper as before).
constexpr uint64_t kFinalSpinNs = 200'000;

// How long to sleep from `now` on for a wait ending at `deadline` (kForever: no timeout); 0 in
// the final stretch, which spinFinalStretch runs instead.
uint64_t sleepFor(uint64_t now, uint64_t deadline) {
  if (deadline == kForever) return kForever;
  return deadline - now > kFinalSpinNs ? deadline - now - kFinalSpinNs : 0;
}

// One step of the final stretch's spin: a pause, never a yield (a yield to another runnable
// thread gives it a whole time slice, which ends the wait milliseconds late: level-zero-tests saw
// 1.2x of 5 ms with one). At most kFinalSpinNs of it per timed wait that times out.
void spinFinalStretch() { TESSERA_PAUSE(); }

// A sleeping wait's registration with its Cancel (none without one).
class Registration {
 public:
  Registration(const Cancel* cancel, std::atomic<uint32_t>& word, bool shared)
      : cancel_(cancel), sleeper_{&word, shared, nullptr} {
    entered_ = cancel_ && cancel_->enter(sleeper_);
  }
  ~Registration() {
    if (entered_) cancel_->leave(sleeper_);
  }
  Registration(const Registration&) = delete;
  Registration& operator=(const Registration&) = delete;

 private:
  const Cancel* cancel_;
  Cancel::Sleeper sleeper_;
  bool entered_ = false;
};

// Spins until `done()` or the spin budget or deadline runs out; true when done. Every few
// microseconds it yields the CPU: when a device's PU is shared (a host thread waiting on the very
// PU whose executor must run the work), the spinner would otherwise hold the PU for its whole
// budget and the work would wait for a scheduler tick (isolation figures of 200 us instead of 5).
// And it stops as soon as its PU is claimed by device work (host/pu_claims.h): while a
// launch runs, a waiter on one of its PUs sleeps instead of competing with that PU's worker (on 16
// PUs, a worker sharing its PU with a spinner finished its part a time slice late).
template <typename Done>
bool spinUntil(Done&& done, uint64_t start, uint64_t deadline) {
  uint64_t spinEnd = start + spinNs();
  if (spinEnd == start) return done();
  for (uint32_t i = 0;; ++i) {
    if (done()) return true;
    if ((i & 63) == 63) {
      uint64_t now = nowNs();
      if (now >= spinEnd || now >= deadline || host::spinWouldCompete()) return false;
      sched_yield();
    }
    TESSERA_PAUSE();
  }
}

}  // namespace

uint64_t nowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(ts.tv_nsec);
}

namespace {
std::atomic<uint64_t> gSpinNs{100'000};
}  // namespace

uint64_t spinNs() { return gSpinNs.load(std::memory_order_relaxed); }
void setSpinNs(uint64_t ns) { gSpinNs.store(ns, std::memory_order_relaxed); }

bool Cancel::enter(Sleeper& s) const {
  std::lock_guard lock(mutex_);
  if (requested()) return false;
  s.next = sleepers_;
  sleepers_ = &s;
  return true;
}

void Cancel::leave(Sleeper& s) const {
  std::lock_guard lock(mutex_);
  for (Sleeper** p = &sleepers_; *p; p = &(*p)->next)
    if (*p == &s) {
      *p = s.next;
      return;
    }
}

void Cancel::request() {
  std::lock_guard lock(mutex_);
  requested_.store(true, std::memory_order_release);
  // Under the mutex a registered sleeper is still inside its wait, so its word is alive. The
  // change makes a waiter that is about to sleep on the old value return from the futex at once.
  for (Sleeper* s = sleepers_; s; s = s->next) {
    s->word->fetch_xor(4u, std::memory_order_acq_rel);
    futexWakeAll(*s->word, s->shared);
  }
}

void flagSet(std::atomic<uint32_t>& word, bool shared) {
  uint32_t old = word.exchange(1u, std::memory_order_acq_rel);
  if (old & 2u) futexWakeAll(word, shared);
}

bool flagWait(std::atomic<uint32_t>& word, uint64_t timeoutNs, bool shared, const Cancel* cancel) {
  if (flagIsSet(word)) return true;
  if (timeoutNs == 0) return false;
  uint64_t start = nowNs();
  uint64_t deadline = deadlineOf(start, timeoutNs);
  if (spinUntil([&] { return flagIsSet(word) || cancelled(cancel); }, start, deadline))
    return flagIsSet(word);
  Registration registration(cancel, word, shared);
  while (true) {
    // The cancel first: a destroyed event's waiter must not report the signal of the next event
    // of its slot.
    if (cancelled(cancel)) return false;
    uint32_t v = word.load(std::memory_order_acquire);
    if (v & 1u) return true;
    uint64_t now = nowNs();
    if (now >= deadline) return false;
    uint64_t sleep = sleepFor(now, deadline);
    if (sleep == 0) {
      spinFinalStretch();
      continue;
    }
    // Announce a sleeper, then sleep while the word still says "not set, sleepers".
    if (!(v & 2u) && !word.compare_exchange_weak(v, v | 2u, std::memory_order_acq_rel)) continue;
    futexWait(word, v | 2u, sleep, shared);
  }
}

void Counter::increment() {
  // Sequentially consistent, so a waiter that announced itself after the check below is sure to
  // see the new value before it sleeps.
  value_.fetch_add(1);
  seq_.fetch_add(1);
  if (sleepers_.load()) futexWakeAll(seq_, shared_);
}

void Counter::advanceTo(uint64_t v) {
  uint64_t cur = value_.load();
  while (cur < v && !value_.compare_exchange_weak(cur, v)) {
  }
  if (cur >= v) return;
  seq_.fetch_add(1);
  if (sleepers_.load()) futexWakeAll(seq_, shared_);
}

void Counter::wakeAll() {
  seq_.fetch_add(1);
  futexWakeAll(seq_, shared_);
}

bool Counter::waitAtLeast(uint64_t target, uint64_t timeoutNs, const Cancel* cancel) const {
  if (load() >= target) return true;
  if (timeoutNs == 0) return false;
  uint64_t start = nowNs();
  uint64_t deadline = deadlineOf(start, timeoutNs);
  if (spinUntil([&] { return load() >= target || cancelled(cancel); }, start, deadline))
    return load() >= target;
  sleepers_.fetch_add(1);
  bool reached = false;
  Registration registration(cancel, seq_, shared_);
  while (true) {
    uint32_t seq = seq_.load();
    if (value_.load() >= target) {
      reached = true;
      break;
    }
    if (cancelled(cancel)) break;
    uint64_t now = nowNs();
    if (now >= deadline) break;
    if (uint64_t sleep = sleepFor(now, deadline); sleep != 0)
      futexWait(seq_, seq, sleep, shared_);
    else
      spinFinalStretch();
  }
  sleepers_.fetch_sub(1);
  return reached;
}

}  // namespace tessera::core::sync
