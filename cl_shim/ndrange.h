// The ND-range rules of clEnqueueNDRangeKernel, in one place for direct enqueues, recordings
// (clEnqueueNDRangeKernel on a recordable queue) and replays that change a recorded launch's sizes
// (clEnqueueRecordingQCOM): the checks and error codes of an ND-range, the local size chosen when
// the application gives none (the driver's choice, zeTesseraKernelSuggestGroupSize, which
// zeKernelSuggestGroupSize shares), and how a range becomes a Level Zero launch (group size,
// offset and work dimension set on the ze kernel, global / local groups).
#pragma once

#include <level_zero/ze_api.h>

#include "cl_shim/kernel.h"
#include "tessera/ze_tessera.h"

namespace tessera::cl {

class Device;

// An ND-range: `local` is the size used (given, or chosen when !localGiven). Dimensions from
// workDim on have global and local size 1 and offset 0 once settled.
struct LaunchShape {
  cl_uint workDim = 1;
  size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1}, offset[3] = {0, 0, 0};
  bool localGiven = false;
  // No work-item: a null global size or a dimension of 0 (runs nothing, completes after its waits).
  bool empty = false;

  // clEnqueueNDRangeKernel's arguments (`workDim` between 1 and 3), not yet checked.
  static LaunchShape of(cl_uint workDim, const size_t* globalOffset, const size_t* globalSize,
                        const size_t* localSize);
  // The work-groups of a settled, non-empty range, the partial ones included.
  ze_group_count_t groups() const;
  // Whether every work-group of a settled range has the local size (no remainder).
  bool uniform() const;
};

// Checks `s` as clEnqueueNDRangeKernel does for a launch of `kernel` (its ze kernel `z`) on
// `device`, and settles the local size: the driver's choice when none was given. In order:
// CL_INVALID_GLOBAL_OFFSET, then the local size's CL_INVALID_WORK_GROUP_SIZE /
// CL_INVALID_WORK_ITEM_SIZE, then CL_INVALID_GLOBAL_WORK_SIZE for 2^32 or more groups in a
// dimension. A global size that the local size does not divide gives non-uniform work-groups
// (a partial last group per dimension), unless the kernel needs uniform ones
// (Kernel::uniformGroupsOnly: CL_INVALID_WORK_GROUP_SIZE). Needs no lock: it reads the kernel's
// reflection only.
cl_int settleShape(LaunchShape& s, const Kernel& kernel, const Kernel::PerDevice& z,
                   const Device& device);

// Sets a settled shape's group size, global offset and work dimension on `zk` for the launch
// appended next (Level Zero copies them at append time). Under the kernel's mutex. A uniform shape
// only (a kernel's state has no partial group: mutable launches are recorded uniform).
cl_int applyShape(ze_kernel_handle_t zk, const LaunchShape& s, const Device& device);

// A settled shape as ZE_tessera_launch_shape carries it into one append, the kernel untouched.
ze_tessera_launch_shape_t zeShape(const LaunchShape& s);

}  // namespace tessera::cl
