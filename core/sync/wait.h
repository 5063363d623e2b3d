// Waiting without burning a core and waking within microseconds: spin briefly, then sleep on a
// futex. A "flag" is a 32-bit word: bit 0 set means signalled, bit 1 means a thread may be asleep
// on it, so set() only makes a system call when somebody sleeps. `shared` flags live in memory
// mapped by several processes (IPC event pools) and use the non-private futex.
//
// Threading: every function may be called from any thread at any time.
#pragma once

#include <atomic>
#include <cstdint>

namespace tessera::core::sync {

constexpr uint64_t kForever = UINT64_MAX;

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
// `cancel` became true. kForever waits without limit.
bool flagWait(std::atomic<uint32_t>& word, uint64_t timeoutNs, bool shared,
              const std::atomic<bool>* cancel = nullptr);

// A counter that threads wait on until it reaches a value (queue completion, submissions).
class Counter {
 public:
  uint64_t load() const { return value_.load(std::memory_order_acquire); }
  // Adds one and wakes waiters.
  void increment();
  // Wakes the waiters without changing the value, so they look at their cancel flag.
  void wakeAll();
  // Waits until load() >= target; false on timeout or cancel.
  bool waitAtLeast(uint64_t target, uint64_t timeoutNs,
                   const std::atomic<bool>* cancel = nullptr) const;

 private:
  std::atomic<uint64_t> value_{0};
  mutable std::atomic<uint32_t> seq_{0};       // futex word: low bits of the value's changes
  mutable std::atomic<uint32_t> sleepers_{0};
};

// How long a waiter spins before it sleeps. Spinning is what makes wake-ups take microseconds on
// machines where waking a sleeping CPU takes tens of them; TESSERA_SPIN_US overrides it (0: never).
uint64_t spinNs();

// CLOCK_MONOTONIC in nanoseconds.
uint64_t nowNs();

}  // namespace tessera::core::sync
