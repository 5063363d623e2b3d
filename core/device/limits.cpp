#include "core/device/limits.h"

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

}  // namespace tessera::core::limits
