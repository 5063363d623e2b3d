// Sub-groups as Level Zero reports them: the device's sub-group sizes
// (ze_device_compute_properties_t) and each kernel's (zeKernelGetProperties, and the preferred
// group-size multiple of its pNext chain), against the driver's contract
// (backends/cpu/runtime/kernel_abi.h, "Sub-groups"): a kernel runs with one size S, one of the
// offered sizes; a work-group of n work-items has ceil(n / S) sub-groups. The size a kernel runs
// with is read from the API, never assumed.
#include <level_zero/ze_api.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "backends/cpu/runtime/kernel_abi.h"
#include "kernel_test_support.h"
#include "tessera/ze_tessera.h"

using namespace tessera::test;

namespace {

ze_device_compute_properties_t computeProperties(ze_device_handle_t d) {
  ze_device_compute_properties_t c{ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
  REQUIRE(zeDeviceGetComputeProperties(d, &c) == ZE_RESULT_SUCCESS);
  return c;
}

ze_kernel_properties_t kernelProperties(ze_kernel_handle_t k, void* next = nullptr) {
  ze_kernel_properties_t p{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES, next};
  REQUIRE(zeKernelGetProperties(k, &p) == ZE_RESULT_SUCCESS);
  return p;
}

std::vector<uint32_t> offeredSizes(ze_device_handle_t d) {
  ze_device_compute_properties_t c = computeProperties(d);
  return {c.subGroupSizes, c.subGroupSizes + c.numSubGroupSizes};
}

uint32_t ceilDiv(uint64_t a, uint64_t b) {
  return static_cast<uint32_t>((a + b - 1) / b);
}

}  // namespace

TEST_CASE(
    "Given a device, when its compute properties are read, then it offers the JIT's sub-group "
    "sizes in increasing order",
    "[subgroups][device]") {
  ExecFixture fx;
  for (ze_device_handle_t d : devices(fx.driver)) {
    ze_device_compute_properties_t c = computeProperties(d);
    REQUIRE(c.numSubGroupSizes == std::size(tessera::backends::cpu::kSubgroupSizes));
    REQUIRE(c.numSubGroupSizes <= ZE_SUBGROUPSIZE_COUNT);
    for (uint32_t i = 0; i < c.numSubGroupSizes; ++i) {
      CHECK(c.subGroupSizes[i] == tessera::backends::cpu::kSubgroupSizes[i]);
      CHECK((c.subGroupSizes[i] & (c.subGroupSizes[i] - 1)) == 0);  // lanes: a power of two
      if (i > 0) CHECK(c.subGroupSizes[i] > c.subGroupSizes[i - 1]);
      CHECK(c.subGroupSizes[i] <= c.maxTotalGroupSize);
    }
    // The entries past the count are zero, not stale values.
    for (uint32_t i = c.numSubGroupSizes; i < ZE_SUBGROUPSIZE_COUNT; ++i)
      CHECK(c.subGroupSizes[i] == 0);
  }
}

TEST_CASE(
    "Given a kernel without a required sub-group size, when its properties are read, then its "
    "sub-group size is an offered one and the counts follow from it",
    "[subgroups][kernel]") {
  KernelFixture fx;
  ze_kernel_handle_t k = fx.kernel("vector_add", "vector_add");
  ze_kernel_preferred_group_size_properties_t preferred{
      ZE_STRUCTURE_TYPE_KERNEL_PREFERRED_GROUP_SIZE_PROPERTIES};
  ze_kernel_properties_t p = kernelProperties(k, &preferred);
  std::vector<uint32_t> sizes = offeredSizes(fx.device);
  const uint32_t s = p.maxSubgroupSize;
  INFO("sub-group size " << s);
  CHECK(std::find(sizes.begin(), sizes.end(), s) != sizes.end());
  CHECK(p.requiredSubgroupSize == 0);
  CHECK(p.requiredNumSubGroups == 0);
  // A work-group of the device's largest size has ceil(max / S) sub-groups.
  CHECK(p.maxNumSubgroups == ceilDiv(computeProperties(fx.device).maxTotalGroupSize, s));
  // The preferred multiple fills every sub-group.
  CHECK(preferred.preferredMultiple == s);
  // The chain is kept as the caller made it.
  CHECK(p.pNext == &preferred);
  CHECK(preferred.stype == ZE_STRUCTURE_TYPE_KERNEL_PREFERRED_GROUP_SIZE_PROPERTIES);
}

TEST_CASE(
    "Given a kernel with a required work-group size, when its properties are read, then its "
    "most sub-groups are those of that size",
    "[subgroups][kernel]") {
  KernelFixture fx;
  ze_kernel_handle_t k = fx.kernel("reqd_size", "reqd_size");  // reqd_work_group_size(8, 4, 2)
  ze_kernel_properties_t p = kernelProperties(k);
  REQUIRE(p.maxSubgroupSize >= 1);
  CHECK(p.maxNumSubgroups == ceilDiv(8 * 4 * 2, p.maxSubgroupSize));
  CHECK(p.requiredSubgroupSize == 0);
}

TEST_CASE(
    "Given an unknown structure in the kernel properties' chain, when they are read, then it is "
    "left alone and the properties are answered",
    "[subgroups][kernel]") {
  KernelFixture fx;
  ze_kernel_handle_t k = fx.kernel("vector_add", "vector_add");
  ze_base_properties_t unknown{static_cast<ze_structure_type_t>(0x7ffffff0), nullptr};
  ze_kernel_properties_t p = kernelProperties(k, &unknown);
  CHECK(p.maxSubgroupSize >= 1);
  CHECK(unknown.stype == static_cast<ze_structure_type_t>(0x7ffffff0));
  CHECK(unknown.pNext == nullptr);
}

TEST_CASE(
    "Given a kernel requiring sub-group size 8, when its properties are read, then it runs with "
    "8 and says it requires it",
    "[subgroups][kernel]") {
  KernelFixture fx;
  ze_module_handle_t m = fx.module("reqd_subgroup");
  ze_kernel_handle_t k = fx.kernel(m, "reqd_sub8");
  ze_kernel_preferred_group_size_properties_t preferred{
      ZE_STRUCTURE_TYPE_KERNEL_PREFERRED_GROUP_SIZE_PROPERTIES};
  ze_kernel_properties_t p = kernelProperties(k, &preferred);
  CHECK(p.requiredSubgroupSize == 8);
  CHECK(p.maxSubgroupSize == 8);
  CHECK(p.maxNumSubgroups == ceilDiv(computeProperties(fx.device).maxTotalGroupSize, 8));
  CHECK(preferred.preferredMultiple == 8);
  // Its source attributes say so as OpenCL C would.
  uint32_t size = 0;
  char* text = nullptr;
  REQUIRE(zeKernelGetSourceAttributes(k, &size, &text) == ZE_RESULT_SUCCESS);
  REQUIRE(text != nullptr);
  CHECK(std::string(text).find("intel_reqd_sub_group_size(8)") != std::string::npos);
  // The module's other kernel requires nothing.
  ze_kernel_properties_t other = kernelProperties(fx.kernel(m, "any_sub"));
  CHECK(other.requiredSubgroupSize == 0);
  std::vector<uint32_t> sizes = offeredSizes(fx.device);
  CHECK(std::find(sizes.begin(), sizes.end(), other.maxSubgroupSize) != sizes.end());
}

// ZE_extension_kernel_max_group_size_properties (level-zero-tests' zeKernelMaxGroupSize): the
// largest group zeKernelSetGroupSize accepts, the device's for a kernel that requires nothing, the
// required size's product otherwise; the driver reports the extension.
TEST_CASE(
    "Given ze_kernel_max_group_size_properties_ext_t chained to the kernel properties, then it "
    "answers the largest group size the kernel takes",
    "[subgroups][kernel]") {
  KernelFixture fx;
  uint32_t n = 0;
  REQUIRE(zeDriverGetExtensionProperties(fx.driver, &n, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<ze_driver_extension_properties_t> extensions(n);
  REQUIRE(zeDriverGetExtensionProperties(fx.driver, &n, extensions.data()) == ZE_RESULT_SUCCESS);
  bool reported = false;
  for (const auto& e : extensions)
    reported |= std::string(e.name) == ZE_KERNEL_MAX_GROUP_SIZE_PROPERTIES_EXT_NAME;
  CHECK(reported);
  const uint32_t device = computeProperties(fx.device).maxTotalGroupSize;
  ze_kernel_max_group_size_properties_ext_t max{ZE_STRUCTURE_TYPE_KERNEL_MAX_GROUP_SIZE_EXT_PROPERTIES};
  ze_kernel_handle_t any = fx.kernel("vector_add", "vector_add");
  kernelProperties(any, &max);
  CHECK(max.maxGroupSize == device);
  CHECK(zeKernelSetGroupSize(any, max.maxGroupSize, 1, 1) == ZE_RESULT_SUCCESS);
  CHECK(zeKernelSetGroupSize(any, max.maxGroupSize + 1, 1, 1) ==
        ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
  max.maxGroupSize = 0;
  kernelProperties(fx.kernel("reqd_size", "reqd_size"), &max);  // reqd_work_group_size(8, 4, 2)
  CHECK(max.maxGroupSize == 8 * 4 * 2);
}
