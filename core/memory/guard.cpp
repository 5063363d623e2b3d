#include "core/memory/guard.h"

#include <sys/mman.h>

#include <algorithm>
#include <bit>

#include "core/memory/backing.h"

namespace tessera::core {

size_t guardAlignment(size_t size, size_t alignment) {
  if (alignment) return alignment;
  size_t natural = size ? size & -size : kPageSize;  // the largest power of two dividing size
  return std::min(kPageSize, natural);
}

GuardedMapping mapGuarded(size_t bytes, size_t endAlignment, int fd, size_t fileOffset) {
  endAlignment = std::max(endAlignment, kPageSize);
  // Address space for the two guards and the data, with room to move the end to its alignment.
  size_t span = bytes + 2 * kPageSize + endAlignment;
  if (span < bytes) return {};
  void* raw = mmap(nullptr, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) return {};
  uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  uintptr_t end = (start + kPageSize + bytes + endAlignment - 1) & ~(uintptr_t(endAlignment) - 1);
  uintptr_t data = end - bytes;
  void* p = mmap(reinterpret_cast<void*>(data), bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                 fd, static_cast<off_t>(fileOffset));
  if (p == MAP_FAILED) {
    munmap(raw, span);
    return {};
  }
  // Keep [data - page, end + page): the data and a PROT_NONE page of the reservation on each side.
  uintptr_t keepStart = data - kPageSize, keepEnd = end + kPageSize, rawEnd = start + span;
  if (keepStart > start) munmap(raw, keepStart - start);
  if (rawEnd > keepEnd) munmap(reinterpret_cast<void*>(keepEnd), rawEnd - keepEnd);
  return {reinterpret_cast<uint8_t*>(data), reinterpret_cast<uint8_t*>(keepStart),
          keepEnd - keepStart};
}

}  // namespace tessera::core
