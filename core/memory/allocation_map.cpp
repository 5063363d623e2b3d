#include "core/memory/allocation_map.h"

#include <mutex>

namespace tessera::core {

ze_memory_type_t toZe(MemoryKind kind) {
  switch (kind) {
    case MemoryKind::Host:
      return ZE_MEMORY_TYPE_HOST;
    case MemoryKind::Device:
      return ZE_MEMORY_TYPE_DEVICE;
    case MemoryKind::Shared:
      return ZE_MEMORY_TYPE_SHARED;
  }
  return ZE_MEMORY_TYPE_UNKNOWN;
}

const Allocation* AllocationMap::findIn(const void* p) const {
  auto key = reinterpret_cast<uintptr_t>(p);
  auto it = byBase_.upper_bound(key);  // first allocation that starts after p
  if (it == byBase_.begin()) return nullptr;
  --it;
  return it->second.contains(p) ? &it->second : nullptr;
}

void AllocationMap::insert(Allocation a) {
  std::unique_lock lock(mutex_);
  auto key = reinterpret_cast<uintptr_t>(a.base);
  byBase_.insert_or_assign(key, std::move(a));
}

std::optional<Allocation> AllocationMap::eraseLocked(const void* base) {
  auto it = byBase_.find(reinterpret_cast<uintptr_t>(base));
  if (it == byBase_.end()) return std::nullopt;
  Allocation a = std::move(it->second);
  byBase_.erase(it);
  return a;
}

std::optional<Allocation> AllocationMap::erase(const void* base) {
  std::unique_lock lock(mutex_);
  return eraseLocked(base);
}

std::optional<Allocation> AllocationMap::find(const void* p) const {
  std::shared_lock lock(mutex_);
  const Allocation* a = findIn(p);
  if (!a) return std::nullopt;
  return *a;
}

bool AllocationMap::containsRange(const void* p, size_t bytes) const {
  std::shared_lock lock(mutex_);
  const Allocation* a = findIn(p);
  if (!a) return false;
  auto* b = static_cast<const uint8_t*>(p);
  return bytes <= static_cast<size_t>(a->base + a->size - b);
}

Allocation* AllocationMap::findLocked(const void* p) {
  return const_cast<Allocation*>(findIn(p));
}

bool AllocationMap::update(const void* p, const std::function<void(Allocation&)>& f) {
  std::unique_lock lock(mutex_);
  Allocation* a = findLocked(p);
  if (!a) return false;
  f(*a);
  return true;
}

std::vector<Allocation> AllocationMap::takeAll() {
  std::unique_lock lock(mutex_);
  std::vector<Allocation> out;
  for (auto& [k, a] : byBase_) out.push_back(std::move(a));
  byBase_.clear();
  return out;
}

size_t AllocationMap::size() const {
  std::shared_lock lock(mutex_);
  return byBase_.size();
}

}  // namespace tessera::core
