#include "core/driver/host_imports.h"

namespace tessera::core {

ze_result_t HostImports::import(void* ptr, size_t size) {
  if (!ptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const auto start = reinterpret_cast<uintptr_t>(ptr);
  if (size == 0 || size > UINTPTR_MAX - start) return ZE_RESULT_ERROR_INVALID_SIZE;
  std::lock_guard lock(mutex_);
  // The first range starting at or after `start` must start at or after the end; the one before
  // it must end at or before `start`.
  auto next = ranges_.lower_bound(start);
  if (next != ranges_.end() && next->first - start < size) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (next != ranges_.begin()) {
    auto prev = std::prev(next);
    if (start - prev->first < prev->second) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  ranges_.emplace(start, size);
  return ZE_RESULT_SUCCESS;
}

ze_result_t HostImports::release(void* ptr) {
  if (!ptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::lock_guard lock(mutex_);
  return ranges_.erase(reinterpret_cast<uintptr_t>(ptr)) ? ZE_RESULT_SUCCESS
                                                         : ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

ze_result_t HostImports::base(void* ptr, void** out) const {
  if (!ptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const auto p = reinterpret_cast<uintptr_t>(ptr);
  std::lock_guard lock(mutex_);
  auto it = ranges_.upper_bound(p);
  if (it == ranges_.begin()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  --it;
  if (p - it->first >= it->second) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (out) *out = reinterpret_cast<void*>(it->first);
  return ZE_RESULT_SUCCESS;
}

}  // namespace tessera::core
