// The allocations of one context, by base address. Finding the allocation that holds a pointer
// (an interior pointer too) is one std::map::upper_bound: logarithmic.
//
// Threading: every method may be called from any thread; lookups share a lock, changes take it
// alone. Lookups return copies, so nothing refers into the map once its lock is released.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <shared_mutex>
#include <vector>

#include "core/memory/allocation.h"

namespace tessera::core {

class AllocationMap {
 public:
  void insert(Allocation a);
  // Removes and returns the allocation whose base is exactly `base`.
  std::optional<Allocation> erase(const void* base);
  // The allocation that holds `p`.
  std::optional<Allocation> find(const void* p) const;
  // Whether [p, p+bytes) lies inside one allocation.
  bool containsRange(const void* p, size_t bytes) const;
  // Runs `f` on the allocation holding `p` under the exclusive lock; false when none holds it.
  bool update(const void* p, const std::function<void(Allocation&)>& f);
  // Removes every allocation (context destruction).
  std::vector<Allocation> takeAll();
  size_t size() const;

  // The lock, for callers that wait on a condition tied to the allocations (zeMemFreeExt).
  std::shared_mutex& mutex() const { return mutex_; }
  // The same as update/erase, for callers that hold mutex() exclusively.
  Allocation* findLocked(const void* p);
  std::optional<Allocation> eraseLocked(const void* base);

 private:
  const Allocation* findIn(const void* p) const;

  mutable std::shared_mutex mutex_;
  std::map<uintptr_t, Allocation> byBase_;
};

}  // namespace tessera::core
