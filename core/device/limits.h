// The numbers a device reports that are Tessera's choices rather than facts read from hwloc. Kept in
// one place so the features that honour them (queues, kernels, fills) use the same values.
#pragma once

#include <cstdint>

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
// zeCommandListAppendMemoryFill's "pattern_size ... less than or equal to
// ze_command_queue_group_properties_t.maxMemoryFillPatternSize": the copy group's is 128 (OpenCL's
// largest, double16); the compute group's is larger, as the reference driver's compute engine's is
// (level-zero-tests fills with patterns of up to 128 KiB on a compute list); the pattern is copied
// into the command.
constexpr size_t kMaxCopyFillPatternSize = 128;
constexpr size_t kMaxFillPatternSize = size_t{1} << 20;
// The largest pattern a list of queue group `ordinal` takes (Device::queueGroups: 0 compute, 1 copy).
constexpr size_t maxFillPatternSize(uint32_t ordinal) {
  return ordinal == 0 ? kMaxFillPatternSize : kMaxCopyFillPatternSize;
}
constexpr uint32_t kComputeQueues = 8;
constexpr uint32_t kCopyQueues = 2;
// Images (ze_device_image_properties_t, core/image/): at least OpenCL 1.2 FULL_PROFILE's minimums
// (image2d 8192, image3d 2048, arrays 2048 layers, 128 read and 64 write image arguments, 16
// samplers). A buffer image's limit counts pixels, as the reference driver's does (it is OpenCL's
// CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, at least 65536); its width is in pixels too.
constexpr uint32_t kMaxImageDims1D = 16384;
constexpr uint32_t kMaxImageDims2D = 16384;
constexpr uint32_t kMaxImageDims3D = 2048;
constexpr uint32_t kMaxImageArraySlices = 2048;
constexpr uint64_t kMaxImageBufferSize = uint64_t{1} << 27;
constexpr uint32_t kMaxSamplers = 16;
constexpr uint32_t kMaxReadImageArgs = 128;
constexpr uint32_t kMaxWriteImageArgs = 64;

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
