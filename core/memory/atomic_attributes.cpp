#include "core/memory/atomic_attributes.h"

namespace tessera::core {

void AtomicAttributes::cut(uintptr_t begin, uintptr_t end) {
  auto it = ranges_.lower_bound(begin);
  if (it != ranges_.begin()) {
    auto prev = std::prev(it);
    if (prev->second.end > begin) {  // starts before, reaches into [begin, end)
      Range tail = prev->second;
      prev->second.end = begin;
      if (tail.end > end) ranges_[end] = tail;
    }
  }
  while (it != ranges_.end() && it->first < end) {
    Range r = it->second;
    it = ranges_.erase(it);
    if (r.end > end) {
      ranges_[end] = r;
      break;
    }
  }
}

void AtomicAttributes::set(const void* p, size_t bytes, uint32_t attr) {
  uintptr_t begin = reinterpret_cast<uintptr_t>(p);
  uintptr_t end = bytes > UINTPTR_MAX - begin ? UINTPTR_MAX : begin + bytes;
  if (end == begin) end = begin + 1;  // a size of 0 still names the byte at p
  std::lock_guard<std::mutex> lock(mutex_);
  cut(begin, end);
  ranges_[begin] = Range{end, attr};
}

uint32_t AtomicAttributes::get(const void* p) const {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = ranges_.upper_bound(a);
  if (it == ranges_.begin()) return 0;
  --it;
  return a < it->second.end ? it->second.attr : 0;
}

void AtomicAttributes::erase(const void* p, size_t bytes) {
  uintptr_t begin = reinterpret_cast<uintptr_t>(p);
  uintptr_t end = bytes > UINTPTR_MAX - begin ? UINTPTR_MAX : begin + bytes;
  std::lock_guard<std::mutex> lock(mutex_);
  cut(begin, end);
}

}  // namespace tessera::core
