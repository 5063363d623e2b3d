// The numbers a device reports that are Tessera's choices rather than facts read from hwloc. Kept in
// one place so the features that honour them (queues, kernels, fills) use the same values.
#pragma once

#include <cstdint>

#include "backends/cpu/kernel_stack.h"
#include "core/topology/topology.h"

namespace tessera::core {

// How the PUs are described in ze_device_properties_t: slices * subslices * EUs * threads == PUs.
struct ThreadShape {
  uint32_t slices = 1, subslicesPerSlice = 1, eusPerSubslice = 1, threadsPerEu = 1;
};

namespace limits {

constexpr uint32_t kMaxHardwareContexts = 1024;  // contexts are software objects
constexpr uint32_t kMaxGroupSize = 4096;
constexpr uint32_t kMaxArgumentsSize = 4096;
constexpr uint32_t kPrintfBufferSize = 1024 * 1024;
constexpr size_t kMaxFillPatternSize = 128;
constexpr uint32_t kComputeQueues = 8;
constexpr uint32_t kCopyQueues = 2;
// Private memory of one work-item (its share of the kernel stack a thread runs it on, plus scratch
// across barriers): a kernel needing more is refused at launch (Kernel::checkPrivateMemory). What
// the kernel stacks are sized for, backends/cpu/kernel_stack.h.
constexpr uint64_t kMaxPrivateMemSize = backends::cpu::kMaxKernelStackNeed;

// A slice is a package, an EU a core, a thread a PU; when the PUs do not divide evenly (hybrid
// CPUs, trimmed devices) the description falls back to what does.
ThreadShape threadShape(const Resources& r);
// The device's memory: its NUMA nodes' memory.
uint64_t maxMemAllocSize(const Resources& r);
// Local (shared) memory per work-group: one L2 cache of the device, between 64 KiB (OpenCL's
// minimum for a full-profile device is 32 KiB) and 4 MiB.
uint32_t maxSharedLocalMemory(const Resources& r);

}  // namespace limits
}  // namespace tessera::core
