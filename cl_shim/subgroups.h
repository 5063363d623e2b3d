// Sub-groups in the OpenCL layer: the device queries (CL_DEVICE_MAX_NUM_SUB_GROUPS,
// CL_DEVICE_SUB_GROUP_SIZES_INTEL) and clGetKernelSubGroupInfo(KHR) (kernel_subgroups.cpp), all
// answered from Level Zero: ze_device_compute_properties_t::subGroupSizes and
// zeKernelGetProperties' maxSubgroupSize, requiredSubgroupSize and maxNumSubgroups. A kernel runs
// with one sub-group size S (the driver's contract, backends/cpu/runtime/kernel_abi.h: sub-group k of
// a work-group of n work-items holds local linear ids [k * S, min((k + 1) * S, n)), so a
// work-group has ceil(n / S) of them and the last may be partial).
#pragma once

#include <cstddef>
#include <vector>

namespace tessera::cl {

class Device;

// Whether the device reports sub-groups. "CL_DEVICE_MAX_NUM_SUB_GROUPS ... must be 0 for devices
// that do not support sub-groups", and then clGetKernelSubGroupInfo returns CL_INVALID_OPERATION
// and no sub-group extension or __opencl_c_subgroups is reported.
inline constexpr bool kSubgroupsEnabled = true;

// The sizes a kernel may run with on `d` (CL_DEVICE_SUB_GROUP_SIZES_INTEL); empty when the device
// reports no sub-groups.
std::vector<size_t> subGroupSizes(const Device& d);
// CL_DEVICE_MAX_NUM_SUB_GROUPS: the most sub-groups a work-group can have, its largest size over
// the smallest sub-group size; 0 without sub-groups.
unsigned maxNumSubGroups(const Device& d);

}  // namespace tessera::cl
