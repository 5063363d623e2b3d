// A std::vector whose storage is aligned to 128 bytes, the largest alignment of an OpenCL C type
// (long16, double16). Kernels may load a `__global int16*` with aligned vector moves, which fault
// on host memory that malloc aligned to 16 only: test data that a kernel reads or writes as wide
// vectors lives in one of these. In the guard-page mode the storage ends flush with an inaccessible
// page instead (guarded_test_data.h).
#pragma once

#include <cstddef>
#include <new>
#include <vector>

#include "guarded_test_data.h"

namespace tessera::test {

template <typename T>
struct Aligned128Allocator {
  using value_type = T;
  Aligned128Allocator() = default;
  template <typename U>
  Aligned128Allocator(const Aligned128Allocator<U>&) {}
  T* allocate(size_t n) {
    return static_cast<T*>(allocateTestData(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) { freeTestData(p, n * sizeof(T)); }
  template <typename U>
  bool operator==(const Aligned128Allocator<U>&) const {
    return true;
  }
  template <typename U>
  bool operator!=(const Aligned128Allocator<U>&) const {
    return false;
  }
};

template <typename T>
using AlignedVector = std::vector<T, Aligned128Allocator<T>>;

}  // namespace tessera::test
