// The launch policy, one place for both APIs: the group size the driver chooses when the
// application leaves it to it (zeKernelSuggestGroupSize; zeTesseraKernelSuggestGroupSize, which
// OpenCL's NULL local size goes through), and which launches are small and short enough to run
// inline on the appending thread (command_list.cpp), from what their kernel's launches cost so far.
#pragma once

#include <array>
#include <cstdint>

#include "core/command/launch_dims.h"

namespace tessera::core {

class Kernel;

// The largest work-group the driver chooses, for a kernel without and with barriers, and how far a
// small range's groups shrink so that every PU of the device gets kGroupsPerPu of them (the rule
// and its reasons: launch_policy.cpp).
constexpr uint32_t kPlainGroupCap = 1024;
constexpr uint32_t kBarrierGroupCap = 256;
constexpr uint32_t kGroupsPerPu = 4;
constexpr uint32_t kMinBalancedGroup = 64;

// The group size for a launch of `kernel` over global sizes gx x gy x gz (0 counts as 1): the
// kernel's required size when it has one; otherwise each dimension, x first, the largest divisor
// of its global size that keeps the group within the kernel's cap (kBarrierGroupCap with
// barriers, kPlainGroupCap without, lowered for small ranges as launch_policy.cpp says).
std::array<uint32_t, 3> suggestGroupSize(const Kernel& kernel, uint64_t gx, uint64_t gy,
                                         uint64_t gz);

// Launches up to this many work-items count as small (copies and fills have their own bound in
// command_list.cpp).
constexpr uint64_t kTinyItems = 4096;

// How long a tiny command inline on the submitting thread runs there alone: a launch still
// running after this wakes the device's workers for the rest, and a kernel known to take longer is
// not run inline at all. About what handing a command to a sleeping executor costs.
constexpr uint64_t kInlineBudgetNs = 50'000;
constexpr uint64_t kLongRetryInterval = 64;

// Whether a direct launch of `kernel` shaped `dims` is small (kTinyItems) and, as far as the
// kernel's launches so far tell, short (within kInlineBudgetNs): a kernel whose work-items loop
// long (hashcat's run for milliseconds) goes to the executor, which keeps the append asynchronous.
// A kernel measured as long is still tried inline once every kLongRetryInterval small launches.
bool smallAndShort(const Kernel& kernel, const LaunchDims& dims);

// Records what a work-item of `kernel` cost after a launch shaped `dims` took `ns`, on this thread
// alone or (`parallel`) on up to `workers` threads: exact for a launch that stayed on one thread;
// from a parallel one that ran long enough that waking the workers is not most of what was
// measured; a shorter parallel one only lowers the estimate.
void recordLaunchCost(const Kernel& kernel, const LaunchDims& dims, uint64_t ns, bool parallel,
                      uint32_t workers);

}  // namespace tessera::core
