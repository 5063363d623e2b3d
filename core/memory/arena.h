// The sub-allocator behind every USM allocation. Small allocations take a slot of a size class
// (4 KiB to 256 KiB, powers of two) from large memfd-backed arenas; larger ones get a Backing of
// their own. Either way an allocation is (backing, offset, size), which is all IPC needs, and an
// allocation costs no system call once its arena exists.
//
// Slots are whole pages: the guide asks that "drivers will assign unique physical pages for each
// device and shared memory allocation", and an IPC opener maps whole pages. A 64-byte allocation
// therefore takes 4 KiB. Freed slots go back to their class's free list and are reused (their pages
// stay committed); arenas live as long as the process. Dedicated backings are unmapped on free.
//
// Threading: every method may be called from any thread; each (placement, class) pool has its own
// lock.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "core/memory/backing.h"

namespace tessera::core {

struct Slot {
  uint8_t* ptr = nullptr;
  Backing* backing = nullptr;      // the arena's, or the dedicated one (then `owned` holds it)
  size_t offset = 0;               // of ptr in the backing's data
  size_t bytes = 0;                // pages given to the allocation
  // ptr - (backing->data() + offset): where the allocation starts in its first page; non-zero only
  // for a guarded slot.
  size_t lead() const { return backing ? size_t(ptr - backing->data()) - offset : 0; }
  std::shared_ptr<Backing> owned;  // set for a dedicated backing
  void* pool = nullptr;            // the arena pool the slot returns to; null when dedicated
};

class ArenaAllocator {
 public:
  static constexpr size_t kMinClass = kPageSize;
  static constexpr size_t kMaxClass = 256 * 1024;
  static constexpr size_t kArenaBytes = 8 * 1024 * 1024;

  // The process's allocator.
  static ArenaAllocator& global();

  // Pages for `size` bytes aligned to `alignment` (a power of two, 0 for none); an empty Slot
  // (ptr null) when memory or address space runs out. `dedicated` asks for a backing of its own
  // (exportable allocations: the exported fd must hold exactly the allocation).
  Slot allocate(size_t size, size_t alignment, const Placement& placement, bool dedicated);
  // Guard-page mode (guard.h): a backing of its own between two PROT_NONE pages, the slot's ptr
  // the highest multiple of guardAlignment(size, alignment) whose `size` bytes end at or below the
  // upper guard page (exactly at it when that alignment divides the size). Then ptr may be inside
  // the backing's first page (offset stays 0: the page the allocation starts in; lead() is where).
  // Released like a dedicated slot.
  Slot allocateGuarded(size_t size, size_t alignment, const Placement& placement);
  void release(Slot& slot);

 private:
  struct Pool {
    std::mutex mutex;
    std::vector<std::unique_ptr<Backing>> arenas;
    std::vector<Slot> free;
  };
  Pool& pool(const Placement& placement, int sizeClass);

  std::mutex poolsMutex_;
  std::map<std::pair<Placement, int>, std::unique_ptr<Pool>> pools_;
};

}  // namespace tessera::core
