// Shareable memory: a memfd whose pages hold allocations, mapped into this process. Every USM
// allocation lives in one, so any of them can be handed to another process (IPC) by the memfd, an
// offset and a size.
//
// File layout: [data: dataBytes][export table: one ExportEntry per data page]. The export table is
// how an opener in another process checks that an IPC handle is still live (see ipc.h): the
// exporter writes a random cookie into the entry of the allocation's first page and clears it on
// put or free.
//
// Threading: a Backing is immutable after create() except for its export entries, which the owner
// writes under its own lock; readers in other processes only compare them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace tessera::core {

class Topology;

constexpr size_t kPageSize = 4096;

// Dedicated allocations of at least this size are mapped at a 2 MiB boundary and advised for
// transparent huge pages (MADV_HUGEPAGE: taken where the system's shmem setting allows "advise"),
// which cuts the TLB misses of kernels streaming through large buffers (issue 20).
constexpr size_t kHugePageBytes = size_t{2} << 20;

inline size_t roundUp(size_t v, size_t to) {
  return (v + to - 1) / to * to;
}

// Where pages go: unbound (first touch), or bound to these NUMA nodes of `topology` (which binds
// only when it is this machine's topology).
struct Placement {
  const Topology* topology = nullptr;
  std::vector<uint32_t> nodes;

  bool binds() const { return topology && !nodes.empty(); }
  bool operator<(const Placement& o) const {
    return topology != o.topology ? topology < o.topology : nodes < o.nodes;
  }
};

struct ExportEntry {
  uint64_t cookie;  // 0 when the page starts no exported allocation
  uint64_t size;
  // The exporter's own descriptor of the file for this export (its IPC handle's first bytes), so
  // that a handle rebuilt from that number alone names this allocation (ipc.h,
  // decodeBareDescriptor); -1 when the export has none of its own.
  int32_t fd = -1;
  uint32_t reserved = 0;
  uint64_t reserved2 = 0;
};
static_assert(sizeof(ExportEntry) == 32);

// The export table's size after `dataBytes` (a page multiple) of data: one entry per data page,
// rounded up to whole pages. Memfds of USM allocations (Backing) and of physical memory
// (physical_memory.cpp) are laid out so.
inline size_t exportTableBytes(size_t dataBytes) {
  return roundUp(dataBytes / kPageSize * sizeof(ExportEntry), kPageSize);
}
// The data size of such a file of `fileBytes`; 0 when no data size gives that file size.
inline size_t dataBytesOfFile(size_t fileBytes) {
  if (fileBytes % kPageSize != 0) return 0;
  const size_t pages = fileBytes / kPageSize;
  // data pages + ceil(data pages / entries a page) = pages.
  const size_t perPage = kPageSize / sizeof(ExportEntry);
  const size_t guess = pages * perPage / (perPage + 1);
  for (size_t p = guess > 0 ? guess - 1 : 0; p <= guess + 1; ++p)
    if (p > 0 && p * kPageSize + exportTableBytes(p * kPageSize) == fileBytes) return p * kPageSize;
  return 0;
}

class Backing {
 public:
  // A memfd of `dataBytes` (a page multiple) mapped at an address aligned to `alignment` (a power
  // of two), its pages placed as `placement` says. Null when the system refuses (out of memory,
  // out of address space, out of file descriptors). `hugePages`: mapped at a 2 MiB boundary at
  // least and advised for transparent huge pages (kHugePageBytes).
  static std::unique_ptr<Backing> create(size_t dataBytes, size_t alignment,
                                         const Placement& placement, bool hugePages = false);
  // Guard-page mode (guard.h): the data mapped between two PROT_NONE pages, its end aligned to
  // `endAlignment`. Never huge pages (their 2 MiB alignment would leave slack before the guard).
  static std::unique_ptr<Backing> createGuarded(size_t dataBytes, size_t endAlignment,
                                                const Placement& placement);
  ~Backing();
  Backing(const Backing&) = delete;
  Backing& operator=(const Backing&) = delete;

  int fd() const { return fd_; }
  uint8_t* data() const { return data_; }
  size_t dataBytes() const { return dataBytes_; }
  size_t exportTableOffset() const { return dataBytes_; }
  ExportEntry& exportEntry(size_t dataOffset) { return table_[dataOffset / kPageSize]; }
  bool bound() const { return bound_; }
  const Placement& placement() const { return placement_; }  // as created (compared, not used)
  bool guarded() const { return reservation_ != nullptr; }

 private:
  Backing() = default;
  // The memfd with room for the data and the export table, and the table mapped; null on failure.
  static std::unique_ptr<Backing> open(size_t dataBytes);
  // Maps the table and applies the placement, once data_ is mapped; false on failure.
  bool finish(const Placement& placement);
  int fd_ = -1;
  uint8_t* data_ = nullptr;
  size_t dataBytes_ = 0;
  ExportEntry* table_ = nullptr;
  size_t tableBytes_ = 0;
  bool bound_ = false;
  Placement placement_;
  uint8_t* reservation_ = nullptr;  // guarded: the data and its guard pages, unmapped as one
  bool readableTail_ = false;       // not guarded: a read-only zero page after the data (create)
  size_t reservedBytes_ = 0;
};

// Maps `bytes` at an address aligned to `alignment`: reserves enough address space, then places
// the mapping of fd (at fileOffset) or anonymous memory (fd < 0) at the aligned spot. Null on
// failure, with nothing left mapped.
void* mapAligned(size_t bytes, size_t alignment, int prot, int flags, int fd, size_t fileOffset);

}  // namespace tessera::core
