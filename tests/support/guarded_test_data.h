// The storage of the tests' own kernel data (the aligned vectors: tests/support/aligned_vector.h,
// tests/unit/backends/builtin_reference.h). Normally 128-byte-aligned heap memory. When the process
// runs in the driver's guard-page mode (TESSERA_GUARD_PAGES set and not 0; docs/reliability.md,
// "Guard pages"), each buffer gets pages of its own between two PROT_NONE pages, its end flush
// with the upper one and its start therefore aligned as the driver's rule has it (the largest power
// of two dividing its size, up to a page: the natural alignment of every element type it holds), so a
// kernel that reads or writes past test data faults as it would past a USM allocation. That covers
// kernels the JIT tests run on host memory, which the driver never allocates.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

namespace tessera::test {

inline bool guardPagesOn() {
  static const bool on = [] {
    const char* v = std::getenv("TESSERA_GUARD_PAGES");  // the driver's switch (config/settings.def)
    return v && *v && std::strcmp(v, "0") != 0;
  }();
  return on;
}

namespace guarded_detail {
constexpr size_t kPage = 4096;
inline size_t pagesFor(size_t bytes) { return (bytes + kPage - 1) / kPage * kPage; }
}  // namespace guarded_detail

inline void* allocateTestData(size_t bytes) {
  using namespace guarded_detail;
  if (!guardPagesOn() || bytes == 0)
    return ::operator new (bytes ? bytes : 1, std::align_val_t{128});
  size_t data = pagesFor(bytes);
  void* r = mmap(nullptr, data + 2 * kPage, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (r == MAP_FAILED) throw std::bad_alloc();
  auto* first = static_cast<uint8_t*>(r) + kPage;
  if (mprotect(first, data, PROT_READ | PROT_WRITE) != 0) {
    munmap(r, data + 2 * kPage);
    throw std::bad_alloc();
  }
  return first + data - bytes;
}

inline void freeTestData(void* p, size_t bytes) {
  using namespace guarded_detail;
  if (!guardPagesOn() || bytes == 0) {
    ::operator delete (p, std::align_val_t{128});
    return;
  }
  size_t data = pagesFor(bytes);
  auto* first = static_cast<uint8_t*>(p) + bytes - data;
  munmap(first - kPage, data + 2 * kPage);
}

}  // namespace tessera::test
