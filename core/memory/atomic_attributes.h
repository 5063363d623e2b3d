// The atomic access attributes of memory ranges (zeMemSetAtomicAccessAttributeExp /
// zeMemGetAtomicAccessAttributeExp, Level Zero 1.7). On a CPU device every kind of memory takes
// host, device and concurrent atomics (Device::memoryAccessProperties reports ATOMIC and
// CONCURRENT_ATOMIC everywhere), so an attribute changes nothing about how memory is accessed: it
// is kept so that the get answers what was set ("When calling this function multiple times with
// different flags, only the attributes from last call are honored").
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

namespace tessera::core {

class AtomicAttributes {
 public:
  // Records `attr` for [p, p + bytes); ranges it overlaps are cut back to what it does not cover.
  void set(const void* p, size_t bytes, uint32_t attr);
  // What the last set covering `p` recorded; 0 ("0 (default)") where none did.
  uint32_t get(const void* p) const;
  // Forgets what was set inside [p, p + bytes) (zeMemFree of an allocation).
  void erase(const void* p, size_t bytes);

 private:
  struct Range {
    uintptr_t end;
    uint32_t attr;
  };
  void cut(uintptr_t begin, uintptr_t end);  // under mutex_
  mutable std::mutex mutex_;
  std::map<uintptr_t, Range> ranges_;  // by start; the ranges do not overlap
};

}  // namespace tessera::core
