// What reaches a kernel through zeKernelSetArgumentValue (by-value arguments of every OpenCL C
// type and vector width, structs of wide vectors), and get_work_dim(): Level Zero's rule (the
// highest dimension with more than one work-item) and ZE_tessera_kernel_work_dim, through which
// the OpenCL layer passes clEnqueueNDRangeKernel's work_dim.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <vector>

#include "aligned_vector.h"
#include "byvalue_kernels.h"
#include "kernel_test_support.h"
#include "spirv/opencl_c.h"
#include "tessera/ze_tessera.h"
#include "ze_test_support.h"

using namespace tessera::test;

namespace {

ze_module_handle_t sourceModule(KernelFixture& fx, const std::string& source,
                                const char* options = "") {
  tessera::spirv::CompileResult compiled = tessera::spirv::compileOpenCLC(source, options);
  INFO(compiled.log);
  REQUIRE(compiled.ok);
  return createSpirvModule(fx.context, fx.device, compiled.spirv.data(), compiled.spirv.size() * sizeof(uint32_t));
}

}  // namespace

TEST_CASE(
    "Given kernels taking every scalar, vector and struct type by value, then each value arrives "
    "intact",
    "[kernel][byvalue]") {
  KernelFixture fx;
  ze_module_handle_t m = sourceModule(fx, byValueSource());
  const uint32_t items = 4;
  const auto types = byValueTypes();
  for (size_t t = 0; t < types.size(); ++t) {
    const ByValueType& type = types[t];
    INFO("type " << type.name);
    ze_kernel_handle_t k = fx.kernel(m, ("take_" + type.name).c_str());
    std::vector<uint8_t> value = byValueBytes(t, type.size);
    AlignedVector<uint8_t> out(items * type.size, 0);
    std::vector<char> tails(items, 0);
    char pad = 5, tail = 9;
    setArgs(k, out.data(), tails.data(), pad);
    REQUIRE(zeKernelSetArgumentValue(k, 3, type.size, value.data()) == ZE_RESULT_SUCCESS);
    setArg(k, 4, tail);
    setGroupSize(k, items);
    fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {1, 1, 1}); });
    for (size_t i = 0; i < items; ++i) {
      INFO("work-item " << i);
      CHECK(tails[i] == 14);
      for (auto [begin, end] : type.defined)
        CHECK(std::memcmp(out.data() + i * type.size + begin, value.data() + begin, end - begin) ==
              0);
    }
    fx.dropKernel(k);
    zeKernelDestroy(k);
  }
  zeModuleDestroy(m);
}

TEST_CASE(
    "Given zeTesseraKernelSetWorkDim, then get_work_dim() is the dimension set, and Level Zero's "
    "rule without it",
    "[kernel][workdim]") {
  KernelFixture fx;
  CHECK(tessera::test::extensionVersion(fx.driver, ZE_TESSERA_KERNEL_WORK_DIM_EXT_NAME) ==
        ZE_TESSERA_KERNEL_WORK_DIM_EXT_VERSION);
  auto setWorkDim =
      extensionFunction<ze_pfnTesseraKernelSetWorkDim_t>(fx.driver, "zeTesseraKernelSetWorkDim");
  REQUIRE(setWorkDim);

  ze_module_handle_t m = sourceModule(fx, R"(
__kernel void work_dim(__global uint* out) {
  size_t i = get_global_id(0) + get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2));
  out[i] = get_work_dim();
})");
  ze_kernel_handle_t k = fx.kernel(m, "work_dim");
  std::vector<uint32_t> out(64);
  setArgs(k, out.data());
  auto run = [&](ze_group_count_t groups, uint32_t sx, uint32_t sy, uint32_t sz) {
    std::fill(out.begin(), out.end(), 99u);
    setGroupSize(k, sx, sy, sz);
    fx.runOnce([&](auto l) { KernelFixture::launch(l, k, groups); });
    return out[0];
  };
  // Level Zero's rule: the highest dimension whose global size is more than 1.
  CHECK(run({4, 1, 1}, 1, 1, 1) == 1);
  CHECK(run({2, 3, 1}, 2, 1, 1) == 2);
  CHECK(run({1, 1, 2}, 1, 1, 1) == 3);
  CHECK(run({1, 1, 1}, 1, 1, 1) == 1);
  // Set: that dimension, whatever the sizes; a launch keeps what was set when it was appended.
  REQUIRE(setWorkDim(k, 3) == ZE_RESULT_SUCCESS);
  CHECK(run({4, 1, 1}, 1, 1, 1) == 3);
  CHECK(out[3] == 3);
  REQUIRE(setWorkDim(k, 2) == ZE_RESULT_SUCCESS);
  CHECK(run({1, 1, 1}, 1, 1, 1) == 2);
  {
    std::fill(out.begin(), out.end(), 99u);
    REQUIRE(setWorkDim(k, 3) == ZE_RESULT_SUCCESS);
    fx.runOnce([&](auto l) {
      KernelFixture::launch(l, k, {1, 1, 1});
      REQUIRE(setWorkDim(k, 1) == ZE_RESULT_SUCCESS);  // after the append: not this launch's
    });
    CHECK(out[0] == 3);
  }
  // 0: the rule again.
  REQUIRE(setWorkDim(k, 0) == ZE_RESULT_SUCCESS);
  CHECK(run({1, 2, 1}, 1, 1, 1) == 2);
  CHECK(setWorkDim(k, 4) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(setWorkDim(nullptr, 1) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  fx.dropKernel(k);
  zeKernelDestroy(k);
  zeModuleDestroy(m);
}

TEST_CASE(
    "Given zeTesseraCommandListAppendLaunchKernelShaped, then the launch runs with the shape given "
    "and the kernel's own group size, offset and work dimension are neither used nor changed",
    "[kernel][launch_shape]") {
  KernelFixture fx;
  CHECK(tessera::test::extensionVersion(fx.driver, ZE_TESSERA_LAUNCH_SHAPE_EXT_NAME) ==
        ZE_TESSERA_LAUNCH_SHAPE_EXT_VERSION);
  auto shaped = extensionFunction<ze_pfnTesseraCommandListAppendLaunchKernelShaped_t>(
      fx.driver, "zeTesseraCommandListAppendLaunchKernelShaped");
  REQUIRE(shaped);
  ze_module_handle_t m = sourceModule(fx, R"(
__kernel void shape(__global uint* out) {
  size_t i = (get_global_id(0) - get_global_offset(0)) + get_global_size(0) * (get_global_id(1) - get_global_offset(1));
  out[4 * i] = get_work_dim();
  out[4 * i + 1] = get_local_size(0) * 100 + get_local_size(1);
  out[4 * i + 2] = get_global_offset(0) * 100 + get_global_offset(1);
  out[4 * i + 3] = get_group_id(0) * 100 + get_group_id(1);
})");
  ze_kernel_handle_t k = fx.kernel(m, "shape");
  std::vector<uint32_t> out(4 * 64, 99u);
  setArgs(k, out.data());
  setGroupSize(k, 1, 1, 1);  // the kernel's own: not the shaped launch's
  // 4 x 2 work-items in groups of 2 x 2, offset (5, 7), work dimension 3.
  const ze_tessera_launch_shape_t shape{{2, 2, 1}, {5, 7, 0}, 3};
  const ze_group_count_t groups{2, 1, 1};
  fx.runOnce([&](auto l) {
    REQUIRE(shaped(l, k, &groups, &shape, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  });
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      INFO("work-item " << x << ", " << y);
      const uint32_t* item = &out[4 * (x + 4 * y)];
      CHECK(item[0] == 3);
      CHECK(item[1] == 202);
      CHECK(item[2] == 507);
      CHECK(item[3] == (x / 2) * 100);
    }
  // The kernel's state is as it was: a plain launch uses its group size of 1 and no offset.
  std::fill(out.begin(), out.end(), 99u);
  fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {2, 1, 1}); });
  CHECK(out[1] == 101);
  CHECK(out[2] == 0);
  CHECK(out[0] == 1);
  // Errors as the setters give them.
  fx.runOnce([&](auto l) {
    const ze_tessera_launch_shape_t zero{{0, 1, 1}, {0, 0, 0}, 1};
    CHECK(shaped(l, k, &groups, &zero, nullptr, 0, nullptr) ==
          ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
    const ze_tessera_launch_shape_t huge{{1u << 20, 1u << 20, 1}, {0, 0, 0}, 1};
    CHECK(shaped(l, k, &groups, &huge, nullptr, 0, nullptr) ==
          ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
    const ze_tessera_launch_shape_t dim4{{1, 1, 1}, {0, 0, 0}, 4};
    CHECK(shaped(l, k, &groups, &dim4, nullptr, 0, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
    CHECK(shaped(l, k, &groups, nullptr, nullptr, 0, nullptr) ==
          ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    CHECK(shaped(l, k, nullptr, &shape, nullptr, 0, nullptr) ==
          ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    CHECK(shaped(l, nullptr, &groups, &shape, nullptr, 0, nullptr) ==
          ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  });
  fx.dropKernel(k);
  zeKernelDestroy(k);
  zeModuleDestroy(m);
}

TEST_CASE(
    "Given a shaped launch with lastGroupSize (ZE_tessera_launch_shape 1.1), then the last groups "
    "are partial: WorkgroupSize is theirs, EnqueuedWorkgroupSize the group size, and a plain "
    "launch stays uniform",
    "[kernel][launch_shape][non_uniform]") {
  KernelFixture fx;
  auto shaped = extensionFunction<ze_pfnTesseraCommandListAppendLaunchKernelShaped_t>(
      fx.driver, "zeTesseraCommandListAppendLaunchKernelShaped");
  REQUIRE(shaped);
  ze_module_handle_t m = sourceModule(fx, R"(
__kernel void partial(__global uint* out) {
  size_t i = get_global_linear_id();
  out[4 * i] = get_global_id(0) * 100 + get_global_id(1);
  out[4 * i + 1] = get_local_size(0) * 100 + get_local_size(1);
  out[4 * i + 2] = get_enqueued_local_size(0) * 100 + get_enqueued_local_size(1);
  out[4 * i + 3] = get_global_size(0) * 100 + get_global_size(1);
})", "-cl-std=CL2.0");
  ze_kernel_handle_t k = fx.kernel(m, "partial");
  std::vector<uint32_t> out(4 * 64, 99u);
  setArgs(k, out.data());
  // 11 x 5 work-items in groups of 4 x 2: 3 x 3 groups, the last ones 3 and 1 wide.
  ze_tessera_launch_shape_t shape{{4, 2, 1}, {0, 0, 0}, 2, {3, 1, 0}};
  const ze_group_count_t groups{3, 3, 1};
  fx.runOnce([&](auto l) {
    REQUIRE(shaped(l, k, &groups, &shape, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  });
  for (uint32_t y = 0; y < 5; ++y)
    for (uint32_t x = 0; x < 11; ++x) {
      INFO("work-item " << x << ", " << y);
      const uint32_t* item = &out[4 * (x + 11 * y)];
      CHECK(item[0] == x * 100 + y);
      CHECK(item[1] == (x < 8 ? 4 : 3) * 100 + (y < 4 ? 2 : 1));
      CHECK(item[2] == 402);
      CHECK(item[3] == 1105);
    }
  // Level Zero's own launch of the kernel is uniform: the enqueued size is the group size.
  std::fill(out.begin(), out.end(), 99u);
  setGroupSize(k, 2, 1, 1);
  fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {3, 1, 1}); });
  CHECK(out[1] == 201);
  CHECK(out[2] == 201);
  CHECK(out[4 * 5 + 3] == 601);
  fx.runOnce([&](auto l) {
    shape.lastGroupSize[0] = 5;  // above the group size of 4
    CHECK(shaped(l, k, &groups, &shape, nullptr, 0, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  });
  fx.dropKernel(k);
  zeKernelDestroy(k);
  zeModuleDestroy(m);
}
