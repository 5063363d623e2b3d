#include "cl_shim/ndrange.h"

#include <algorithm>
#include <limits>

#include "cl_shim/device.h"
#include "cl_shim/errors.h"
#include "cl_shim/platform.h"

namespace tessera::cl {

LaunchShape LaunchShape::of(cl_uint workDim, const size_t* globalOffset, const size_t* globalSize,
                            const size_t* localSize) {
  LaunchShape s;
  s.workDim = workDim;
  s.localGiven = localSize != nullptr;
  // "CL_INVALID_GLOBAL_WORK_SIZE if global_work_size is NULL or if any of the values specified in
  // global_work_size[0], ... global_work_size[work_dim - 1] are 0. Returning this error code under
  // these circumstances is deprecated by version 2.1." This is a 3.0 device: such a launch runs
  // nothing and completes once its wait list has.
  s.empty = globalSize == nullptr;
  for (cl_uint d = 0; d < workDim; ++d) {
    if (globalSize) s.global[d] = globalSize[d];
    if (globalOffset) s.offset[d] = globalOffset[d];
    if (localSize) s.local[d] = localSize[d];
  }
  return s;
}

ze_group_count_t LaunchShape::groups() const {
  // The last, partial group of a non-uniform range counts (get_num_groups()); a dimension of 0
  // work-items (an empty range, recorded as such) has none.
  auto count = [&](int d) { return global[d] ? uint32_t((global[d] - 1) / local[d] + 1) : 0u; };
  return {count(0), count(1), count(2)};
}

bool LaunchShape::uniform() const {
  if (empty) return true;
  for (int d = 0; d < 3; ++d)
    if (global[d] % local[d] != 0) return false;
  return true;
}

namespace {

// The driver's choice for the last NULL local size this thread asked about: launches repeat their
// range, and the choice depends only on the ze kernel and the global size (its barriers and
// required size never change), so the extension call (a handle lookup in the driver, about 40 ns
// of an empty launch's 0.41 us) is made once per kernel and range, not per launch.
struct SuggestionMemo {
  uint64_t serial = 0;  // Kernel::PerDevice::serial; 0: empty
  size_t global[3] = {0, 0, 0};
  uint32_t local[3] = {1, 1, 1};
};
thread_local SuggestionMemo memo;

ze_result_t suggestLocal(const Kernel::PerDevice& z, const Device& device, const size_t* global,
                         uint32_t* local) {
  if (memo.serial == z.serial && std::equal(global, global + 3, memo.global)) {
    std::copy(memo.local, memo.local + 3, local);
    return ZE_RESULT_SUCCESS;
  }
  ze_result_t r = device.platform().ext().suggestGroupSize(z.ze, global[0], global[1], global[2],
                                                          &local[0], &local[1], &local[2]);
  if (r != ZE_RESULT_SUCCESS) return r;
  memo.serial = z.serial;
  std::copy(global, global + 3, memo.global);
  std::copy(local, local + 3, memo.local);
  return ZE_RESULT_SUCCESS;
}

}  // namespace

cl_int settleShape(LaunchShape& s, const Kernel& kernel, const Kernel::PerDevice& z,
                   const Device& device) {
  for (cl_uint d = s.workDim; d < 3; ++d) s.global[d] = 1, s.offset[d] = 0, s.local[d] = 1;
  for (cl_uint d = 0; d < s.workDim; ++d) {
    if (s.global[d] == 0) s.empty = true;
    // "CL_INVALID_GLOBAL_OFFSET if the value specified in global_work_size + the corresponding
    // values in global_work_offset for any dimensions is greater than the maximum value
    // representable by size t on the device": Level Zero's offsets are 32-bit, so this device's
    // global ids end at 2^32 too.
    if (s.offset[d] > std::numeric_limits<uint32_t>::max() ||
        (!s.empty && s.global[d] > std::numeric_limits<size_t>::max() - s.offset[d]))
      return CL_INVALID_GLOBAL_OFFSET;
  }

  const ze_device_compute_properties_t& cp = device.zeCompute();
  const uint32_t maxItems[3] = {cp.maxGroupSizeX, cp.maxGroupSizeY, cp.maxGroupSizeZ};
  const auto& reqd = kernel.reflection().requiredSize;
  // clEnqueueNDRangeKernel: "non-uniform work-groups are enabled only if the program was compiled
  // with the -cl-std=CL2.0 or -cl-std=CL3.0 flags and without the -cl-uniform-work-group-size
  // flag" (Kernel::uniformGroupsOnly).
  const bool uniformOnly = kernel.uniformGroupsOnly();
  if (s.localGiven) {
    size_t total = 1;
    for (cl_uint d = 0; d < s.workDim; ++d) {
      if (s.local[d] == 0) return CL_INVALID_WORK_GROUP_SIZE;
      // "CL_INVALID_WORK_ITEM_SIZE if the number of work-items specified in any of
      // local_work_size[0], ... local_work_size[work_dim - 1] is greater than the corresponding
      // values specified by CL_DEVICE_MAX_WORK_ITEM_SIZES[0], ...".
      if (s.local[d] > maxItems[d]) return CL_INVALID_WORK_ITEM_SIZE;
      total *= s.local[d];
      // "CL_INVALID_WORK_GROUP_SIZE if the work-group size must be uniform and the
      // local_work_size is not NULL, is not equal to the required work-group size specified in
      // the kernel source, or the global_work_size is not evenly divisible by the
      // local_work_size." Otherwise (CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT) the range is
      // uniform groups plus, in each dimension the local size does not divide, a last group of
      // the remainder (zeShape's lastGroupSize).
      if (uniformOnly && !s.empty && s.global[d] % s.local[d] != 0)
        return CL_INVALID_WORK_GROUP_SIZE;
    }
    // "... or if the total number of work-items in the work-group computed as
    // local_work_size[0] * ... local_work_size[work_dim - 1] is greater than the value specified
    // by CL_KERNEL_WORK_GROUP_SIZE in the table of OpenCL Device Queries for
    // clGetKernelWorkGroupInfo."
    if (total > kernel.maxWorkGroupSize(device)) return CL_INVALID_WORK_GROUP_SIZE;
    // "CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and does not match the required
    // work-group size for kernel in the program source."
    if (reqd)
      for (int d = 0; d < 3; ++d)
        if (s.local[d] != reqd->size[d]) return CL_INVALID_WORK_GROUP_SIZE;
  } else if (!s.empty) {
    // "local_work_size can also be a NULL value in which case the OpenCL implementation will
    // determine how to break the global work-items into appropriate work-group instances": the
    // driver's choice, by the rule zeKernelSuggestGroupSize follows
    // (core/command/launch_policy.cpp): a required size, else divisors of the global sizes within
    // the kernel's cap.
    uint32_t local[3] = {1, 1, 1};
    if (ze_result_t r = suggestLocal(z, device, s.global, local); r != ZE_RESULT_SUCCESS)
      return fromZe(r);
    for (int d = 0; d < 3; ++d) s.local[d] = local[d] ? local[d] : 1;
    // The driver's choice divides the range; a required size need not: with non-uniform
    // work-groups the last group is partial, else such a range cannot launch (as a given local
    // size that does not divide it).
    for (int d = 0; d < 3; ++d)
      if (uniformOnly && s.global[d] % s.local[d] != 0) return CL_INVALID_WORK_GROUP_SIZE;
  }

  if (s.empty) return CL_SUCCESS;
  // A launch has at most 2^32 - 1 groups in each dimension (ze_group_count_t).
  for (int d = 0; d < 3; ++d)
    if ((s.global[d] - 1) / s.local[d] + 1 > std::numeric_limits<uint32_t>::max())
      return CL_INVALID_GLOBAL_WORK_SIZE;
  return CL_SUCCESS;
}

ze_tessera_launch_shape_t zeShape(const LaunchShape& s) {
  ze_tessera_launch_shape_t z{};
  for (int d = 0; d < 3; ++d) {
    z.groupSize[d] = uint32_t(s.local[d]);
    z.globalOffset[d] = uint32_t(s.offset[d]);
    // The last group's size where it is partial (ZE_tessera_launch_shape 1.1), else 0: uniform.
    z.lastGroupSize[d] = s.empty ? 0 : uint32_t(s.global[d] % s.local[d]);
  }
  // get_work_dim(): "the number of dimensions in use", the work_dim given here, also when the
  // higher dimensions have size 1 (Level Zero itself would count only those above 1).
  z.workDim = s.workDim;
  return z;
}

cl_int applyShape(ze_kernel_handle_t zk, const LaunchShape& s, const Device& device) {
  if (zeKernelSetGroupSize(zk, uint32_t(s.local[0]), uint32_t(s.local[1]), uint32_t(s.local[2])) !=
      ZE_RESULT_SUCCESS)
    return CL_INVALID_WORK_GROUP_SIZE;
  if (ze_result_t r = zeKernelSetGlobalOffsetExp(zk, uint32_t(s.offset[0]), uint32_t(s.offset[1]),
                                                 uint32_t(s.offset[2]));
      r != ZE_RESULT_SUCCESS)
    return fromZe(r);
  // get_work_dim(): "the number of dimensions in use", the work_dim given here, also when the
  // higher dimensions have size 1 (Level Zero itself would count only those above 1).
  if (auto setWorkDim = device.platform().ext().kernelWorkDim)
    if (ze_result_t r = setWorkDim(zk, s.workDim); r != ZE_RESULT_SUCCESS) return fromZe(r);
  return CL_SUCCESS;
}

}  // namespace tessera::cl
