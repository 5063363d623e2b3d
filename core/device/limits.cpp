#include "core/device/limits.h"

#include <algorithm>

namespace tessera::core::limits {

ThreadShape threadShape(const Resources& r) {
  ThreadShape s;
  uint32_t pus = r.pus ? r.pus : 1;
  uint32_t cores = (r.cores && pus % r.cores == 0) ? r.cores : pus;
  s.threadsPerEu = pus / cores;
  s.slices = (r.packages && cores % r.packages == 0) ? r.packages : 1;
  s.eusPerSubslice = cores / s.slices;
  return s;
}

uint64_t maxMemAllocSize(const Resources& r) {
  uint64_t total = 0;
  for (const NumaNodeInfo& n : r.numaNodes) total += n.bytes;
  return total;
}

// A work-group's local memory is a buffer of the worker thread that runs it, so it lives in the
// cache of that worker's core: tiles sized by the reported value stay in L2 (tiled BLAS kernels
// such as CLBlast's size their tiles from it, and its double-precision batched GEMM needs more
// than 64 KiB). Memory is taken only as a launch needs it.
uint32_t maxSharedLocalMemory(const Resources& r) {
  constexpr uint64_t kMin = 64 * 1024, kMax = 4 * 1024 * 1024;
  uint64_t l2 = 0;
  for (const CacheLevelInfo& c : r.caches)
    if (c.level == 2 && c.bytesPerCache > 0) l2 = l2 == 0 ? c.bytesPerCache : std::min(l2, c.bytesPerCache);
  return static_cast<uint32_t>(std::clamp(l2, kMin, kMax));
}

}  // namespace tessera::core::limits
