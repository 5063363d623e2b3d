// clGetKernelSubGroupInfo and clGetKernelSubGroupInfoKHR, and the device's sub-group sizes, from
// Level Zero's answers (subgroups.h): a kernel's sub-group size S is zeKernelGetProperties'
// maxSubgroupSize, and a work-group of n work-items has ceil(n / S) sub-groups, all of S
// work-items but the last.
#include <algorithm>

#include "cl_shim/api_support.h"
#include "cl_shim/device.h"
#include "cl_shim/errors.h"
#include "cl_shim/kernel.h"
#include "cl_shim/subgroups.h"
#include "support/checked_math.h"

namespace tessera::cl {

std::vector<size_t> subGroupSizes(const Device& d) {
  std::vector<size_t> sizes;
  if (!d.subgroupSupport()) return sizes;
  const ze_device_compute_properties_t& c = d.zeCompute();
  for (uint32_t i = 0; i < c.numSubGroupSizes && i < ZE_SUBGROUPSIZE_COUNT; ++i)
    sizes.push_back(c.subGroupSizes[i]);
  return sizes;
}

unsigned maxNumSubGroups(const Device& d) {
  std::vector<size_t> sizes = subGroupSizes(d);
  if (sizes.empty()) return 0;
  const size_t smallest = std::max<size_t>(*std::min_element(sizes.begin(), sizes.end()), 1);
  const size_t most = (d.zeCompute().maxTotalGroupSize + smallest - 1) / smallest;
  return static_cast<unsigned>(std::max<size_t>(most, 1));
}

namespace {

// The work-items of the local size an NDRANGE query's input describes: "The input_value must be
// an array of size_t values corresponding to the local work size parameter of the intended
// dispatch. The number of dimensions in the ND-range will be inferred from the value specified
// for input_value_size." False for "the size in bytes specified by input_value_size is not valid
// or if input_value is NULL" (one to three dimensions), and for sizes whose product does not fit.
bool localItems(size_t inputSize, const void* input, uint64_t& items) {
  if (!input || inputSize == 0 || inputSize % sizeof(size_t) != 0 || inputSize / sizeof(size_t) > 3)
    return false;
  const auto* sizes = static_cast<const size_t*>(input);
  uint64_t n = 1;
  for (size_t i = 0; i < inputSize / sizeof(size_t); ++i)
    if (!support::checkedMul(n, uint64_t{sizes[i]}, n)) return false;
  items = n;
  return true;
}

}  // namespace

cl_int Kernel::subGroupInfo(Device* device, cl_kernel_sub_group_info param, size_t inputSize,
                            const void* input, size_t size, void* value, size_t* sizeRet,
                            bool khr) {
  PerDevice* z = nullptr;
  if (cl_int err = queriedDevice(device, z); err != CL_SUCCESS) return err;
  // "CL_INVALID_OPERATION if device does not support sub-groups."
  if (!device->subgroupSupport()) return CL_INVALID_OPERATION;
  if (cl_int err = readyForQuery(*z); err != CL_SUCCESS) return err;
  // cl_khr_subgroups (and cl_intel_subgroups, which copies it) names two queries for
  // clGetKernelSubGroupInfoKHR, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR and
  // CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR; cl_intel_required_subgroup_size adds
  // CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, "Accepted as the param_name parameter of
  // clGetKernelSubGroupInfo and/or clGetKernelSubGroupInfoKHR". The others are OpenCL 2.1's.
  if (khr && param != CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR &&
      param != CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR &&
      param != CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL)
    return CL_INVALID_VALUE;
  ze_kernel_properties_t props{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
  if (ze_result_t r = zeKernelGetProperties(z->ze, &props); r != ZE_RESULT_SUCCESS)
    return fromZe(r);
  const uint64_t s = std::max(props.maxSubgroupSize, 1u);
  InfoWriter out(size, value, sizeRet);
  uint64_t items = 0;
  switch (param) {
    // "Returns the maximum sub-group size for this kernel. All sub-groups must be the same size,
    // while the last sub-group in any work-group (i.e. the sub-group with the maximum index)
    // could be the same or smaller size." The kernel's one size, whatever the local size (as
    // get_max_sub_group_size() returns it in the kernel).
    case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
      if (!localItems(inputSize, input, items)) return CL_INVALID_VALUE;
      return out.scalar<size_t>(s);
    // "Returns the number of sub-groups that will be present in each work-group for a given
    // local work size."
    case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE:
      if (!localItems(inputSize, input, items)) return CL_INVALID_VALUE;
      return out.scalar<size_t>(items / s + (items % s != 0));
    // "Returns the local size that will generate the requested number of sub-groups for the
    // kernel. The output array must be an array of size_t values corresponding to the local size
    // parameter. Any returned work-group will have one dimension. Other dimensions inferred from
    // the value specified for param_value_size will be filled with the value 1. The returned
    // value will produce an exact number of sub-groups and result in no partial groups ... If no
    // work-group size can accommodate the requested number of sub-groups, 0 will be returned in
    // each element of the return array."
    case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
      if (!input || inputSize != sizeof(size_t)) return CL_INVALID_VALUE;
      size_t dims = 3;  // the device's CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS
      if (value) {
        if (size == 0 || size % sizeof(size_t) != 0 || size / sizeof(size_t) > 3)
          return CL_INVALID_VALUE;
        dims = size / sizeof(size_t);
      }
      const uint64_t count = *static_cast<const size_t*>(input);
      // The largest work-group of this kernel: its required size (then the only one it runs
      // with), else the device's.
      uint64_t local = 0;
      bool fits = count > 0 && support::checkedMul(count, s, local) &&
                  local <= maxWorkGroupSize(*device) &&
                  local <= z->device->zeCompute().maxGroupSizeX;
      if (fits && info_.requiredSize) {
        const auto& r = info_.requiredSize->size;
        fits = r[0] == local && r[1] == 1 && r[2] == 1;
      }
      std::vector<size_t> result(dims, fits ? 1 : 0);
      result[0] = fits ? static_cast<size_t>(local) : 0;
      return out.array(result);
    }
    // "This provides a mechanism for the application to query the maximum number of sub-groups
    // that may make up each work-group to execute a kernel on a specific device": the sub-groups
    // of the kernel's largest work-group.
    case CL_KERNEL_MAX_NUM_SUB_GROUPS:
      return out.scalar<size_t>(props.maxNumSubgroups);
    // "Returns the number of sub-groups per work-group specified in the kernel source or IL. If
    // the sub-group count is not specified then 0 is returned."
    case CL_KERNEL_COMPILE_NUM_SUB_GROUPS:
      return out.scalar<size_t>(props.requiredNumSubGroups);
    // cl_intel_required_subgroup_size: "Returns the sub-group size specified by the
    // __attribute__((intel_reqd_sub_group_size(<int>))) qualifier ... If the sub-group size is not
    // specified using the above attribute qualifier then 0 is returned."
    case CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL:
      return out.scalar<size_t>(props.requiredSubgroupSize);
    // "CL_INVALID_VALUE if param_name is not one of the supported values".
    default:
      return CL_INVALID_VALUE;
  }
}

}  // namespace tessera::cl
