// Waiting without burning a core and waking within microseconds: spin briefly, then sleep on a
// futex, without a timeout unless the caller gave one (an idle queue costs no CPU). A "flag" is a
// 32-bit word: bit 0 set means signalled, bit 1 means a thread may be asleep on it, so set() only
// makes a system call when somebody sleeps; bit 2 is toggled by Cancel::request() to wake sleepers
// (it means nothing else). `shared` flags live in memory mapped by several processes (IPC event
// pools) and use the non-private futex.
//
// Threading: every function may be called from any thread at any time.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

namespace tessera::core::sync {

constexpr uint64_t kForever = UINT64_MAX;

// A request to stop waiting (a queue being destroyed) that wakes the waits it stops, so that no
// sleeper needs a timeout to notice it: a wait given a Cancel registers the word it sleeps on, and
// request() changes that word (bit 2 of a flag is toggled; a counter's sequence word likewise) and
// wakes it. A waiter that checked the request just before it came sees the word changed and does
// not go to sleep. Several threads may wait under one Cancel.
class Cancel {
 public:
  bool requested() const { return requested_.load(std::memory_order_acquire); }
  // Sets the request and wakes every wait under way that was given this Cancel.
  void request();

  // A registration of a sleeping wait (internal to wait.cpp; on the waiter's stack).
  struct Sleeper {
    std::atomic<uint32_t>* word;
    bool shared;
    Sleeper* next;
  };
  // Registers `s`; false (nothing registered) when the request was already made.
  bool enter(Sleeper& s) const;
  void leave(Sleeper& s) const;

 private:
  std::atomic<bool> requested_{false};
  mutable std::mutex mutex_;
  mutable Sleeper* sleepers_ = nullptr;
};

inline bool flagIsSet(const std::atomic<uint32_t>& word) {
  return word.load(std::memory_order_acquire) & 1u;
}
// Sets the flag (release) and wakes its sleepers.
void flagSet(std::atomic<uint32_t>& word, bool shared);
// Clears the flag; sleepers stay asleep until the next set.
inline void flagClear(std::atomic<uint32_t>& word) {
  word.fetch_and(~1u, std::memory_order_acq_rel);
}
// Waits until the flag is set: true if it is, false when timeoutNs passed first (0 only looks) or
// `cancel` was requested. kForever waits without limit. After a short spin (spinNs()) the waiter
// sleeps on a futex until the flag is set, the deadline passes or the cancel is requested: an idle
// waiter makes no system calls.
bool flagWait(std::atomic<uint32_t>& word, uint64_t timeoutNs, bool shared,
              const Cancel* cancel = nullptr);

// A counter that threads wait on until it reaches a value (queue completion, submissions). A
// `shared` counter lives in memory mapped by several processes (an IPC counter-based event's) and
// uses the process-shared futex; it is made in place there (placement new) by the process that
// creates the memory, and the others use it as found.
class Counter {
 public:
  Counter() = default;
  explicit Counter(bool shared) : shared_(shared) {}
  uint64_t load() const { return value_.load(std::memory_order_acquire); }
  // Adds one and wakes waiters.
  void increment();
  // Raises the value to `v` (no change when it is already at least `v`) and wakes waiters.
  void advanceTo(uint64_t v);
  // The value's address: a counter-based event's "device address" (zeEventCounterBasedGetDeviceAddress).
  const uint64_t* address() const { return reinterpret_cast<const uint64_t*>(&value_); }
  // Wakes the waiters without changing the value, so they look at their cancel flag.
  void wakeAll();
  // Waits until load() >= target; false on timeout or cancel.
  bool waitAtLeast(uint64_t target, uint64_t timeoutNs, const Cancel* cancel = nullptr) const;

 private:
  std::atomic<uint64_t> value_{0};
  mutable std::atomic<uint32_t> seq_{0};       // futex word: low bits of the value's changes
  mutable std::atomic<uint32_t> sleepers_{0};
  bool shared_ = false;
};

// How long a waiter spins before it sleeps (100 us unless set). Spinning is what makes wake-ups
// take microseconds on machines where waking a sleeping CPU takes tens of them. The driver sets it
// when it is created, from TESSERA_SPIN_US (0: never spin).
uint64_t spinNs();
void setSpinNs(uint64_t ns);

// CLOCK_MONOTONIC in nanoseconds.
uint64_t nowNs();

}  // namespace tessera::core::sync
