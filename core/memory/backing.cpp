#include "core/memory/backing.h"

#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <mutex>

#include "core/memory/guard.h"
#include "core/topology/topology.h"

namespace tessera::core {
namespace {

// Every allocation holds a memfd for as long as it lives (IPC and export need it), so a program
// with a few thousand large allocations would run into the usual soft limit of 1024 descriptors.
// Raise the soft limit to the hard one once, as runtimes that hold many descriptors do.
void raiseFileLimitOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    rlimit r;
    if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
      r.rlim_cur = r.rlim_max;
      setrlimit(RLIMIT_NOFILE, &r);
    }
  });
}

}  // namespace

void* mapAligned(size_t bytes, size_t alignment, int prot, int flags, int fd, size_t fileOffset) {
  if (alignment <= kPageSize) {
    void* p = mmap(nullptr, bytes, prot, flags, fd, static_cast<off_t>(fileOffset));
    return p == MAP_FAILED ? nullptr : p;
  }
  size_t span = bytes + alignment;
  void* raw = mmap(nullptr, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  uintptr_t aligned = (start + alignment - 1) & ~(uintptr_t(alignment) - 1);
  void* p = mmap(reinterpret_cast<void*>(aligned), bytes, prot, flags | MAP_FIXED, fd,
                 static_cast<off_t>(fileOffset));
  if (p == MAP_FAILED) {
    munmap(raw, span);
    return nullptr;
  }
  if (aligned > start) munmap(raw, aligned - start);
  uintptr_t end = aligned + bytes, rawEnd = start + span;
  if (rawEnd > end) munmap(reinterpret_cast<void*>(end), rawEnd - end);
  return p;
}

std::unique_ptr<Backing> Backing::open(size_t dataBytes) {
  raiseFileLimitOnce();
  std::unique_ptr<Backing> b(new Backing);
  b->dataBytes_ = dataBytes;
  b->tableBytes_ = exportTableBytes(dataBytes);
  b->fd_ = memfd_create("tessera-usm", MFD_CLOEXEC);
  if (b->fd_ < 0) return nullptr;
  if (ftruncate(b->fd_, static_cast<off_t>(dataBytes + b->tableBytes_)) != 0) return nullptr;
  return b;
}

bool Backing::finish(const Placement& placement) {
  void* table = mmap(nullptr, tableBytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_,
                     static_cast<off_t>(dataBytes_));
  if (table == MAP_FAILED) return false;
  table_ = static_cast<ExportEntry*>(table);
  // memfd pages are shmem: the policy set on the mapping becomes the file's shared policy for
  // those pages, so it holds for every process that maps them.
  if (placement.binds()) bound_ = placement.topology->bindArea(data_, dataBytes_, placement.nodes);
  placement_ = placement;
  return true;
}

std::unique_ptr<Backing> Backing::create(size_t dataBytes, size_t alignment,
                                         const Placement& placement, bool hugePages) {
  if (hugePages) alignment = std::max(alignment, kHugePageBytes);
  std::unique_ptr<Backing> b = open(dataBytes);
  if (!b) return nullptr;
  // The data, then a read-only zero page of our own after it. Kernels written for GPUs read a
  // little past their buffers and get away with it there and on PoCL, whose allocations are
  // followed by more heap: OpenCV 4.6 loads 3-byte pixels with vload4 (RGB2HSV, BGR2Lab: one byte
  // past the image) and its 5x5 Gaussian rows with vload8 (two bytes). Here a buffer whose end is
  // a mapping's end (a dedicated allocation of whole pages, the last slot of an arena) lost its
  // context. Reads past the end now see zeros; writes still fault. The page is mapped as part of
  // the data's span (the memfd's next page), then replaced by an anonymous one, so it is always
  // there. TESSERA_GUARD_PAGES=1 (createGuarded) is the mode that finds such reads.
  void* data =
      mapAligned(dataBytes + kPageSize, alignment, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd_, 0);
  if (!data) return nullptr;
  b->data_ = static_cast<uint8_t*>(data);
  b->readableTail_ = true;
  if (mmap(b->data_ + dataBytes, kPageSize, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
           0) == MAP_FAILED)
    return nullptr;
  // Tuning only: refused where the kernel has no transparent huge pages, ignored for shmem unless
  // /sys/kernel/mm/transparent_hugepage/shmem_enabled is "advise" (or "always").
  if (hugePages) madvise(data, dataBytes, MADV_HUGEPAGE);
  if (!b->finish(placement)) return nullptr;
  return b;
}

std::unique_ptr<Backing> Backing::createGuarded(size_t dataBytes, size_t endAlignment,
                                                const Placement& placement) {
  std::unique_ptr<Backing> b = open(dataBytes);
  if (!b) return nullptr;
  GuardedMapping m = mapGuarded(dataBytes, endAlignment, b->fd_, 0);
  if (!m.data) return nullptr;
  b->data_ = m.data;
  b->reservation_ = m.reservation;
  b->reservedBytes_ = m.reservedBytes;
  if (!b->finish(placement)) return nullptr;
  return b;
}

Backing::~Backing() {
  if (reservation_)
    munmap(reservation_, reservedBytes_);
  else if (data_)
    munmap(data_, dataBytes_ + (readableTail_ ? kPageSize : 0));
  if (table_) munmap(table_, tableBytes_);
  if (fd_ >= 0) close(fd_);
}

}  // namespace tessera::core
