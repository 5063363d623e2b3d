// The sub-allocator behind every USM allocation. Small allocations take a slot of a size class
// (4 KiB to 256 KiB, powers of two) from large memfd-backed arenas; larger ones get a Backing of
// their own. Either way an allocation is (backing, offset, size), which is all IPC needs, and an
// allocation costs no system call once its arena exists.
//
// Slots are whole pages: the guide asks that "drivers will assign unique physical pages for each
// device and shared memory allocation", and an IPC opener maps whole pages. A 64-byte allocation
// therefore takes 4 KiB. Freed slots go back to their class's free list and are reused (their pages
// stay committed); arenas live as long as the process. A freed dedicated backing is kept for the
// next dedicated allocation of its size and placement, up to cacheBudget() bytes of them (least
// recently freed first out), each at most half of it: libraries that allocate their temporaries on
// every call (CLBlast's GEMM, 8 MiB of them at n = 1024, one of 32 MiB at n = 2048) then find them
// with their pages present rather than taking a page fault per 4 KiB each time (on a VM, 8,192
// faults took 45 ms of CLBlast's 245 ms call at n = 2048 while the budget was a fixed 64 MiB with
// 16 MiB at most a backing). The budget follows the machine: a sixty-fourth of its memory, within
// [64 MiB, 1 GiB] (384 MiB on 24 GiB). Their contents are what the last allocation left (USM and
// OpenCL buffers promise none); pages another process may have mapped (exported, IPC) are never
// kept. Kept ones stay mapped read-write, as malloc's freed blocks do: a use after free reaches
// them unnoticed (TESSERA_GUARD_PAGES=1, whose guarded backings are never kept, makes it fault).
// Making them inaccessible while kept cost more than the page faults it saved on a VM that shadows
// page tables: every page refaulted, invisibly to the guest, after each mprotect (CLBlast's 4 MiB
// transpose into a kept buffer 6.5-7.3 ms with, 1.0-1.1 without; docs/performance.md, session 35).
// Under RLIMIT_AS nothing is kept; an allocation that finds no memory drops what is.
//
// Threading: every method may be called from any thread; each (placement, class) pool has its own
// lock.
#pragma once

#include <cstddef>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "core/memory/backing.h"

namespace tessera::core {

struct Slot {
  uint8_t* ptr = nullptr;
  Backing* backing = nullptr;  // the arena's, or the dedicated one (then `owned` holds it)
  size_t offset = 0;           // of ptr in the backing's data
  size_t bytes = 0;            // pages given to the allocation
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
  // Gives the slot's pages back. A dedicated backing may be kept for a later allocation when
  // `reusable` (no other process can have mapped it); otherwise it goes with its last holder.
  void release(Slot& slot, bool reusable = false);
  // Unmaps the kept backings (a dedicated allocation that found no memory does, then retries).
  void dropCached();

  // The bytes of kept backings at most: a sixty-fourth of physical memory within [64 MiB, 1 GiB].
  static size_t cacheBudget();

 private:
  struct Pool {
    std::mutex mutex;
    std::vector<std::unique_ptr<Backing>> arenas;
    std::vector<Slot> free;
  };
  Pool& pool(const Placement& placement, int sizeClass);

  std::mutex poolsMutex_;
  std::map<std::pair<Placement, int>, std::unique_ptr<Pool>> pools_;

  // A kept backing of `bytes` placed as `placement` whose data is aligned to `alignment`, or null.
  std::shared_ptr<Backing> takeCached(size_t bytes, size_t alignment, const Placement& placement);
  std::mutex cacheMutex_;
  std::list<std::shared_ptr<Backing>> cached_;  // most recently freed first
  size_t cachedBytes_ = 0;
};

}  // namespace tessera::core
