#include "core/memory/virtual_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "core/common/remote_fd.h"
#include "core/topology/topology.h"

namespace tessera::core {
namespace {

int protection(ze_memory_access_attribute_t a) {
  switch (a) {
    case ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE:
      return PROT_READ | PROT_WRITE;
    case ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY:
      return PROT_READ;
    default:
      return PROT_NONE;
  }
}

bool pageAligned(uintptr_t v) {
  return v % kPageSize == 0;
}

// Turns [a, b) back into reserved address space: no pages, no access, nothing committed.
bool reserveOver(uintptr_t a, uintptr_t b) {
  void* p = mmap(reinterpret_cast<void*>(a), b - a, PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
  return p != MAP_FAILED;
}

ze_result_t outOfMemory() {
  return errno == ENOMEM ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY : ZE_RESULT_ERROR_UNKNOWN;
}

}  // namespace

VirtualMemory::~VirtualMemory() {
  for (auto& [start, r] : reservations_) {
    dropSegments(r, start, r.end);
    munmap(reinterpret_cast<void*>(start), r.end - start);
  }
}

VirtualMemory::Reservation* VirtualMemory::holding(uintptr_t a, uintptr_t b) {
  auto it = reservations_.upper_bound(a);
  if (it == reservations_.begin()) return nullptr;
  --it;
  return (a >= it->first && b <= it->second.end && a < b) ? &it->second : nullptr;
}

const VirtualMemory::Reservation* VirtualMemory::holding(uintptr_t a, uintptr_t b) const {
  return const_cast<VirtualMemory*>(this)->holding(a, b);
}

void VirtualMemory::endExport(Segment& s) {
  if (s.exportCookie == 0) return;
  s.physical->exportEntry(s.offset) = ExportEntry{0, 0};
  s.exportCookie = 0;
}

ze_result_t VirtualMemory::exportIpc(const void* p, IpcHandleData& d) {
  auto a = reinterpret_cast<uintptr_t>(p);
  std::lock_guard lock(mutex_);
  Reservation* r = holding(a, a + 1);
  if (!r) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  auto it = r->segments.upper_bound(a);
  if (it == r->segments.begin()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  --it;
  Segment& s = it->second;
  if (a >= s.end) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  const size_t size = s.end - it->first;
  if (s.exportCookie == 0) {
    s.exportCookie = randomCookie();
    s.physical->exportEntry(s.offset) = ExportEntry{s.exportCookie, size};
  }
  d.pid = getpid();
  d.fd = s.physical->fd();
  d.dataOffset = s.offset;
  d.size = size;
  d.tableOffset = s.physical->exportTableOffset();
  d.cookie = s.exportCookie;
  d.kind = ZE_MEMORY_TYPE_DEVICE;  // what zeVirtualMemMap gives: device memory of the object
  return ZE_RESULT_SUCCESS;
}

bool VirtualMemory::putIpc(uint64_t cookie) {
  std::lock_guard lock(mutex_);
  for (auto& [start, r] : reservations_)
    for (auto& [at, s] : r.segments)
      if (s.exportCookie == cookie) {
        endExport(s);
        return true;
      }
  return false;
}

void VirtualMemory::split(Reservation& r, uintptr_t at) {
  auto it = r.segments.upper_bound(at);
  if (it == r.segments.begin()) return;
  --it;
  Segment& s = it->second;
  if (at <= it->first || at >= s.end) return;
  endExport(s);  // the exported range is no longer one mapping
  Segment tail = s;
  tail.offset += at - it->first;
  s.end = at;
  r.segments.emplace(at, tail);
  tail.physical->mappings.fetch_add(1);  // one mapping became two
}

bool VirtualMemory::covered(const Reservation& r, uintptr_t a, uintptr_t b) {
  uintptr_t next = a;
  auto it = r.segments.upper_bound(a);
  if (it != r.segments.begin()) --it;
  for (; it != r.segments.end() && it->first < b; ++it) {
    if (it->second.end <= next) continue;
    if (it->first > next) return false;
    next = it->second.end;
  }
  return next >= b;
}

void VirtualMemory::dropSegments(Reservation& r, uintptr_t a, uintptr_t b) {
  split(r, a);
  split(r, b);
  for (auto it = r.segments.lower_bound(a); it != r.segments.end() && it->first < b;) {
    endExport(it->second);
    it->second.physical->mappings.fetch_sub(1);
    it = r.segments.erase(it);
  }
}

void VirtualMemory::setRuns(Reservation& r, uintptr_t a, uintptr_t b,
                            ze_memory_access_attribute_t access) {
  // Cut the runs at a and b, then replace those between by one.
  for (uintptr_t at : {a, b}) {
    auto it = r.access.upper_bound(at);
    if (it == r.access.begin()) continue;
    --it;
    if (at > it->first && at < it->second.end) {
      r.access.emplace(at, AccessRun{it->second.end, it->second.access});
      it->second.end = at;
    }
  }
  r.access.erase(r.access.lower_bound(a), r.access.lower_bound(b));
  r.access.emplace(a, AccessRun{b, access});
}

ze_result_t VirtualMemory::reserve(const void* hint, size_t size, void** out) {
  if (size == 0 || !pageAligned(size)) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  std::lock_guard lock(mutex_);
  constexpr int kFlags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
  void* p = MAP_FAILED;
  // "if the implementation is not able to reserve the new allocation at the requested starting
  // address then it will find a new suitable range with a different starting address."
  if (hint && pageAligned(reinterpret_cast<uintptr_t>(hint)))
    p = mmap(const_cast<void*>(hint), size, PROT_NONE, kFlags | MAP_FIXED_NOREPLACE, -1, 0);
  if (p == MAP_FAILED) p = mmap(nullptr, size, PROT_NONE, kFlags, -1, 0);
  if (p == MAP_FAILED) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  auto start = reinterpret_cast<uintptr_t>(p);
  Reservation& r = reservations_[start] = Reservation{start + size, {}, {}};
  r.access.emplace(start, AccessRun{start + size, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE});
  *out = p;
  return ZE_RESULT_SUCCESS;
}

ze_result_t VirtualMemory::free(const void* ptr, size_t size) {
  auto a = reinterpret_cast<uintptr_t>(ptr);
  if (size == 0) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;  // the header's documented case first
  if (!pageAligned(a)) return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
  if (!pageAligned(size)) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  std::lock_guard lock(mutex_);
  auto it = reservations_.find(a);
  if (it == reservations_.end() || it->second.end != a + size)
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  dropSegments(it->second, a, a + size);
  munmap(const_cast<void*>(ptr), size);
  reservations_.erase(it);
  return ZE_RESULT_SUCCESS;
}

ze_result_t VirtualMemory::map(const void* ptr, size_t size, PhysicalMemory& physical,
                               size_t offset, ze_memory_access_attribute_t access) {
  auto a = reinterpret_cast<uintptr_t>(ptr);
  if (size == 0) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;  // the header's documented case first
  if (!pageAligned(a) || !pageAligned(offset)) return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
  if (!pageAligned(size)) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  if (offset > physical.size() || size > physical.size() - offset)
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  std::lock_guard lock(mutex_);
  Reservation* r = holding(a, a + size);
  if (!r) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // Mapping over a mapped page would silently drop the old mapping: ask for zeVirtualMemUnmap.
  auto it = r->segments.lower_bound(a);
  if (it != r->segments.end() && it->first < a + size) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (it != r->segments.begin() && std::prev(it)->second.end > a)
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  void* p = mmap(const_cast<void*>(ptr), size, protection(access), MAP_SHARED | MAP_FIXED,
                 physical.fd(), static_cast<off_t>(offset));
  if (p == MAP_FAILED) {
    ze_result_t res = outOfMemory();
    reserveOver(a, a + size);
    return res;
  }
  if (physical.placement().binds())
    physical.placement().topology->bindArea(p, size, physical.placement().nodes);
  r->segments.emplace(a, Segment{a + size, &physical, offset});
  setRuns(*r, a, a + size, access);
  physical.mappings.fetch_add(1);
  return ZE_RESULT_SUCCESS;
}

ze_result_t VirtualMemory::unmap(const void* ptr, size_t size) {
  auto a = reinterpret_cast<uintptr_t>(ptr);
  if (size == 0) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;  // the header's documented case first
  if (!pageAligned(a)) return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
  if (!pageAligned(size)) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  std::lock_guard lock(mutex_);
  Reservation* r = holding(a, a + size);
  if (!r) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (!reserveOver(a, a + size)) return outOfMemory();
  dropSegments(*r, a, a + size);
  setRuns(*r, a, a + size, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE);
  return ZE_RESULT_SUCCESS;
}

ze_result_t VirtualMemory::setAccess(const void* ptr, size_t size,
                                     ze_memory_access_attribute_t access) {
  auto a = reinterpret_cast<uintptr_t>(ptr);
  if (size == 0) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;  // the header's documented case first
  if (!pageAligned(a)) return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
  if (!pageAligned(size)) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  std::lock_guard lock(mutex_);
  Reservation* r = holding(a, a + size);
  if (!r) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // Only mapped pages change protection: an unmapped page given access would expose the anonymous
  // placeholder, so it stays PROT_NONE and only its attribute is kept.
  uintptr_t b = a + size;
  auto it = r->segments.upper_bound(a);
  if (it != r->segments.begin() && std::prev(it)->second.end > a) --it;
  for (; it != r->segments.end() && it->first < b; ++it) {
    uintptr_t from = std::max(a, it->first), to = std::min(b, it->second.end);
    if (from < to && mprotect(reinterpret_cast<void*>(from), to - from, protection(access)) != 0)
      return outOfMemory();
  }
  setRuns(*r, a, b, access);
  return ZE_RESULT_SUCCESS;
}

ze_result_t VirtualMemory::getAccess(const void* ptr, size_t size,
                                     ze_memory_access_attribute_t* access, size_t* runBytes) {
  auto a = reinterpret_cast<uintptr_t>(ptr);
  if (size == 0) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;  // the header's documented case first
  if (!pageAligned(a)) return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
  if (!pageAligned(size)) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  std::lock_guard lock(mutex_);
  const Reservation* r = holding(a, a + size);
  if (!r) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // The run holding a, then the following runs while the attribute stays the same.
  auto it = std::prev(r->access.upper_bound(a));
  ze_memory_access_attribute_t first = it->second.access;
  uintptr_t end = a + size, pos = a;
  for (; it != r->access.end() && it->first < end && it->second.access == first; ++it)
    pos = it->second.end;
  *access = first;
  *runBytes = std::min(pos, end) - a;
  return ZE_RESULT_SUCCESS;
}

bool VirtualMemory::isMapped(const void* p, size_t bytes) const {
  auto a = reinterpret_cast<uintptr_t>(p);
  std::lock_guard lock(mutex_);
  const Reservation* r = holding(a, a + bytes);
  return r && covered(*r, a, a + bytes);
}

}  // namespace tessera::core
