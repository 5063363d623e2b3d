#include "core/memory/arena.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <bit>

#include "core/memory/guard.h"

namespace tessera::core {
namespace {

// A process under RLIMIT_AS needs what it frees back at once (its next mapping, or the JIT's, may
// need that address space): nothing is kept for reuse then.
bool addressSpaceLimited() {
  rlimit r{};
  return getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur != RLIM_INFINITY;
}

}  // namespace

size_t ArenaAllocator::cacheBudget() {
  static const size_t budget = [] {
    const long pages = sysconf(_SC_PHYS_PAGES), pageBytes = sysconf(_SC_PAGESIZE);
    const size_t physical =
        pages > 0 && pageBytes > 0 ? size_t(pages) * size_t(pageBytes) : size_t{0};
    // Whole megabytes, so that half of it is whole pages too.
    return std::clamp(physical / 64, size_t{64} << 20, size_t{1} << 30) & ~((size_t{1} << 20) - 1);
  }();
  return budget;
}

ArenaAllocator& ArenaAllocator::global() {
  // Never destroyed: allocations may be freed by static destructors at exit.
  static ArenaAllocator* a = new ArenaAllocator;
  return *a;
}

ArenaAllocator::Pool& ArenaAllocator::pool(const Placement& placement, int sizeClass) {
  std::lock_guard lock(poolsMutex_);
  auto& p = pools_[{placement, sizeClass}];
  if (!p) p = std::make_unique<Pool>();
  return *p;
}

Slot ArenaAllocator::allocate(size_t size, size_t alignment, const Placement& placement,
                              bool dedicated) {
  size_t bytes = roundUp(size, kPageSize);
  // A slot of class C sits at a multiple of C from an arena base aligned to kMaxClass, so it is
  // aligned to C: the class must cover both the size and the alignment.
  size_t need = std::max<size_t>({bytes, alignment, kMinClass});
  if (!dedicated && need <= kMaxClass && bytes >= size) {
    size_t classBytes = std::bit_ceil(need);
    Pool& p = pool(placement, std::countr_zero(classBytes));
    std::lock_guard lock(p.mutex);
    if (p.free.empty()) {
      auto arena = Backing::create(kArenaBytes, kMaxClass, placement);
      if (!arena) return {};
      for (size_t off = kArenaBytes; off >= classBytes; off -= classBytes)
        p.free.push_back(Slot{arena->data() + off - classBytes, arena.get(), off - classBytes,
                              classBytes, nullptr, &p});
      p.arenas.push_back(std::move(arena));
    }
    Slot s = p.free.back();
    p.free.pop_back();
    return s;
  }
  if (bytes < size) return {};  // size so large that rounding overflowed
  // A dedicated backing is the allocation's alone, so huge pages do not mix allocations ("unique
  // physical pages for each device and shared memory allocation").
  std::shared_ptr<Backing> b = takeCached(bytes, alignment, placement);
  for (int attempt = 0; !b && attempt < 2; ++attempt) {
    if (attempt == 1) dropCached();  // out of memory or address space: give back what is kept
    b = Backing::create(bytes, std::max(alignment, kPageSize), placement, bytes >= kHugePageBytes);
  }
  if (!b) return {};
  Slot s{b->data(), b.get(), 0, bytes, std::move(b), nullptr};
  return s;
}

Slot ArenaAllocator::allocateGuarded(size_t size, size_t alignment, const Placement& placement) {
  size_t align = guardAlignment(size, alignment);
  // The allocation and the slack the alignment needs before the guard page (none when it divides
  // the size); its start end - span is aligned because the end is aligned to align or a page.
  size_t span = roundUp(size, align);
  size_t bytes = roundUp(span, kPageSize);
  if (size == 0 || span < size || bytes < span) return {};
  std::shared_ptr<Backing> b = Backing::createGuarded(bytes, align, placement);
  if (!b) return {};
  Slot s{b->data() + bytes - span, b.get(), 0, bytes, std::move(b), nullptr};
  return s;
}

void ArenaAllocator::release(Slot& slot, bool reusable) {
  if (!slot.ptr) return;
  if (Pool* p = static_cast<Pool*>(slot.pool)) {
    std::lock_guard lock(p->mutex);
    p->free.push_back(slot);
  } else if (reusable && slot.owned && !slot.owned->guarded() && slot.owned.use_count() == 1 &&
             slot.bytes <= cacheBudget() / 2 && !addressSpaceLimited()) {
    std::vector<std::shared_ptr<Backing>> dropped;  // unmapped outside the lock
    std::lock_guard lock(cacheMutex_);
    cached_.push_front(std::move(slot.owned));
    cachedBytes_ += slot.bytes;
    while (cachedBytes_ > cacheBudget()) {
      cachedBytes_ -= cached_.back()->dataBytes();
      dropped.push_back(std::move(cached_.back()));
      cached_.pop_back();
    }
  }
  slot = Slot{};  // a dedicated backing goes with its last holder (an export may still hold it)
}

std::shared_ptr<Backing> ArenaAllocator::takeCached(size_t bytes, size_t alignment,
                                                    const Placement& placement) {
  std::lock_guard lock(cacheMutex_);
  for (auto it = cached_.begin(); it != cached_.end(); ++it) {
    const Placement& p = (*it)->placement();
    if ((*it)->dataBytes() != bytes || p < placement || placement < p ||
        reinterpret_cast<uintptr_t>((*it)->data()) % std::max<size_t>(alignment, 1) != 0)
      continue;
    std::shared_ptr<Backing> b = std::move(*it);
    cachedBytes_ -= bytes;
    cached_.erase(it);
    return b;
  }
  return nullptr;
}

void ArenaAllocator::dropCached() {
  std::list<std::shared_ptr<Backing>> dropped;
  std::lock_guard lock(cacheMutex_);
  dropped.swap(cached_);
  cachedBytes_ = 0;
}

}  // namespace tessera::core
