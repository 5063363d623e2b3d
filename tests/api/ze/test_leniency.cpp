// The reference driver's leniency where the headers leave room (level_zero/api_support.h,
// isStructType; docs/api-coverage.md, "Leniency"): a descriptor or property structure given as a
// parameter with a stype that names no structure type (0, or an uninitialized structure's bytes) is
// taken as the type the parameter names, as Intel's driver takes it and intel/compute-benchmarks
// and AdaptiveCpp rely on; another structure's stype is still INVALID_ARGUMENT.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <vector>

#include "aligned_vector.h"
#include "kernel_test_support.h"
#include "ze_test_support.h"

using namespace tessera::test;

namespace {
constexpr auto kUnset = ze_structure_type_t(0);
constexpr auto kUninitialized = ze_structure_type_t(0x3f800000);  // seen from AdaptiveCpp
constexpr auto kWrong = ZE_STRUCTURE_TYPE_FENCE_DESC;  // a real type, of another structure
}  // namespace

TEST_CASE("Given descriptors whose stype names no type and property structures of any stype, then "
          "each call takes them as the type it names; a descriptor of another structure's stype is "
          "still refused",
          "[leniency][stype]") {
  KernelFixture fx;
  for (ze_structure_type_t stype : {kUnset, kUninitialized, kWrong}) {
    INFO("stype " << stype);
    const ze_result_t expected =
        stype == kWrong ? ZE_RESULT_ERROR_INVALID_ARGUMENT : ZE_RESULT_SUCCESS;

    ze_driver_properties_t driverProps{stype};
    CHECK(zeDriverGetProperties(fx.driver, &driverProps) == ZE_RESULT_SUCCESS);
    ze_device_properties_t deviceProps{stype};
    CHECK(zeDeviceGetProperties(fx.device, &deviceProps) == ZE_RESULT_SUCCESS);
    CHECK(deviceProps.type == ZE_DEVICE_TYPE_CPU);
    CHECK(deviceProps.stype == ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES);  // written as the type
    ze_device_module_properties_t moduleProps{stype};
    CHECK(zeDeviceGetModuleProperties(fx.device, &moduleProps) == ZE_RESULT_SUCCESS);

    ze_context_desc_t contextDesc{stype};
    ze_context_handle_t context = nullptr;
    CHECK(zeContextCreate(fx.driver, &contextDesc, &context) == expected);
    if (context) zeContextDestroy(context);

    ze_command_list_desc_t listDesc{stype};
    ze_command_list_handle_t list = nullptr;
    CHECK(zeCommandListCreate(fx.context, fx.device, &listDesc, &list) == expected);
    if (list) zeCommandListDestroy(list);
    ze_command_queue_desc_t queueDesc{stype};
    ze_command_queue_handle_t queue = nullptr;
    CHECK(zeCommandQueueCreate(fx.context, fx.device, &queueDesc, &queue) == expected);
    if (queue) zeCommandQueueDestroy(queue);

    ze_event_pool_desc_t poolDesc{stype, nullptr, 0, 1};
    ze_event_pool_handle_t pool = nullptr;
    CHECK(zeEventPoolCreate(fx.context, &poolDesc, 0, nullptr, &pool) == expected);
    if (pool) {
      ze_event_desc_t eventDesc{stype, nullptr, 0};
      ze_event_handle_t event = nullptr;
      CHECK(zeEventCreate(pool, &eventDesc, &event) == expected);
      if (event) zeEventDestroy(event);
      zeEventPoolDestroy(pool);
    }

    ze_host_mem_alloc_desc_t hostDesc{stype};
    void* memory = nullptr;
    CHECK(zeMemAllocHost(fx.context, &hostDesc, 64, 64, &memory) == expected);
    if (memory) {
      ze_memory_allocation_properties_t allocProps{stype};
      CHECK(zeMemGetAllocProperties(fx.context, memory, &allocProps, nullptr) == ZE_RESULT_SUCCESS);
      CHECK(allocProps.type == ZE_MEMORY_TYPE_HOST);
      zeMemFree(fx.context, memory);
    }

    ze_module_handle_t module = fx.module("vector_add");
    ze_kernel_desc_t kernelDesc{stype, nullptr, 0, "vector_add"};
    ze_kernel_handle_t kernel = nullptr;
    CHECK(zeKernelCreate(module, &kernelDesc, &kernel) == expected);
    if (kernel) {
      ze_kernel_properties_t kernelProps{stype};
      CHECK(zeKernelGetProperties(kernel, &kernelProps) == ZE_RESULT_SUCCESS);
      CHECK(kernelProps.numKernelArgs == 3);
      zeKernelDestroy(kernel);
    }
  }
}

// corpus_scalars' scalar_args(char a, long b, short c, float d, uchar e, ulong f, int2 g, ushort i,
// int4 j, __global long* out) with every argument set: a = -5, b = -1, c = -1234, d = 2.75,
// e = 250, f = ~0, g = (-7, 8), i = 65000, j = (1, 2, 3, 4); `out` starts at 0x5a5a.
struct ScalarArgs {
  ze_kernel_handle_t kernel;
  AlignedVector<int64_t> out = AlignedVector<int64_t>(10, 0x5a5a);
  explicit ScalarArgs(KernelFixture& fx) : kernel(fx.kernel("corpus_scalars", "scalar_args")) {
    struct alignas(8) Int2 {
      int32_t v[2];
    };
    struct alignas(16) Int4 {
      int32_t v[4];
    };
    int64_t* po = out.data();
    setArgs(kernel, int8_t(-5), int64_t(-1), int16_t(-1234), 2.75f, uint8_t(250), ~uint64_t(0),
            Int2{{-7, 8}}, uint16_t(65000), Int4{{1, 2, 3, 4}}, po);
  }
};

// level-zero-tests passes sizeof(uint32_t) for a size_t argument (module_add_constant_3); Intel's
// driver copies the bytes given into a zeroed argument area. The long argument is first set to a
// value with high bits, so a set that kept the old upper bytes would show them.
TEST_CASE("Given a by-value argument set with fewer bytes than its size, then the kernel sees the "
          "value zero-extended; more bytes are taken only when those past its size are zero; "
          "none are refused",
          "[leniency][args]") {
  KernelFixture fx;
  ScalarArgs sa(fx);
  auto k = sa.kernel;
  auto& out = sa.out;
  // b (long) and f (ulong) again, from 32-bit values: the upper four bytes become zero.
  uint32_t narrow = 0x89abcdefu;
  CHECK(zeKernelSetArgumentValue(k, 1, sizeof narrow, &narrow) == ZE_RESULT_SUCCESS);
  CHECK(zeKernelSetArgumentValue(k, 5, sizeof narrow, &narrow) == ZE_RESULT_SUCCESS);
  uint8_t byte = 0x7f;  // and the short from one byte
  CHECK(zeKernelSetArgumentValue(k, 2, sizeof byte, &byte) == ZE_RESULT_SUCCESS);
  // intel/compute-benchmarks' atomic_benchmark gives 8 bytes for a 4-byte int: the float d
  // from an 8-byte buffer whose upper half is zero.
  uint8_t eight[8] = {};
  const float e = -1.5f;
  std::memcpy(eight, &e, sizeof e);
  CHECK(zeKernelSetArgumentValue(k, 3, sizeof eight, eight) == ZE_RESULT_SUCCESS);
  // Refused where a byte past the argument is not zero (it would be dropped), and the values set
  // before stay.
  uint64_t wide[2] = {1, 2};
  CHECK(zeKernelSetArgumentValue(k, 2, sizeof wide, wide) ==
        ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
  const uint64_t high = 0x10000;  // a short given a value it cannot hold
  CHECK(zeKernelSetArgumentValue(k, 2, sizeof high, &high) ==
        ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
  CHECK(zeKernelSetArgumentValue(k, 1, 0, wide) == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
  CHECK(zeKernelSetArgumentValue(k, 1, 16, nullptr) == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
  setGroupSize(k, 1);
  fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {1, 1, 1}); });
  CHECK(out[1] == int64_t(0x89abcdef));
  CHECK(out[2] == 0x7f);
  CHECK(out[5] == int64_t(0x89abcdef));
  CHECK(out[3] == -6);  // d * 4
  CHECK(out[0] == -5);
  CHECK(out[9] == 10);
}

TEST_CASE("Given a by-value argument set with a null pArgValue, then the kernel sees zero (\"If "
          "null then argument value is considered null\")",
          "[args]") {
  KernelFixture fx;
  ScalarArgs sa(fx);
  auto k = sa.kernel;
  auto& out = sa.out;
  // b (long) and a (char): null values, after values were set.
  CHECK(zeKernelSetArgumentValue(k, 1, sizeof(int64_t), nullptr) == ZE_RESULT_SUCCESS);
  CHECK(zeKernelSetArgumentValue(k, 0, sizeof(int8_t), nullptr) == ZE_RESULT_SUCCESS);
  // The size rules stay.
  CHECK(zeKernelSetArgumentValue(k, 1, 0, nullptr) == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
  setGroupSize(k, 1);
  fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {1, 1, 1}); });
  CHECK(out[0] == 0);
  CHECK(out[1] == 0);
  CHECK(out[5] == -1);
}

// level-zero-tests' zeCommandListCloseThenAppendTests: appends after close (and after reset and
// close) succeed and are not run; the list runs what it held when it was closed.
TEST_CASE("Given a closed list, when commands are appended to it, then they are accepted and not "
          "run; the list runs what it held when closed",
          "[leniency][cmdlist]") {
  ExecFixture fx;
  auto q = fx.queue();
  auto l = fx.list();
  uint8_t buffer[16] = {};
  const uint8_t first = 1, late = 2, afterReset = 3;
  REQUIRE(zeCommandListAppendMemoryFill(l, buffer, &first, 1, sizeof buffer, nullptr, 0,
                                        nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandListAppendMemoryFill(l, buffer, &late, 1, sizeof buffer, nullptr, 0, nullptr) ==
        ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueSynchronize(q, UINT64_MAX) == ZE_RESULT_SUCCESS);
  for (uint8_t v : buffer) CHECK(v == first);

  std::memset(buffer, 0, sizeof buffer);
  REQUIRE(zeCommandListReset(l) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandListAppendMemoryFill(l, buffer, &afterReset, 1, sizeof buffer, nullptr, 0,
                                      nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueSynchronize(q, UINT64_MAX) == ZE_RESULT_SUCCESS);
  for (uint8_t v : buffer) CHECK(v == 0);
}

// intel/compute-benchmarks' KernelSwitchPriority appends eat_time before it sets the kernel's one
// int argument; Intel's driver launches from its zeroed argument area. Unset by-value and pointer
// arguments launch as zeros (a null pointer); an unset __local size, image or sampler is still
// INVALID_ARGUMENT, as zero is no value for them (core/module/kernel.cpp, argumentsLaunchable).
TEST_CASE("Given by-value and pointer arguments never set, then the launch is appended and runs "
          "with them zero; an unset __local argument, image or sampler is still refused",
          "[leniency][args]") {
  KernelFixture fx;
  ze_group_count_t one{1, 1, 1};
  SECTION("by-value arguments never set are zero") {
    auto k = fx.kernel("corpus_scalars", "scalar_args");
    AlignedVector<int64_t> out(10, 0x5a5a);
    int64_t* po = out.data();
    // Only the output pointer (argument 9) and `b` (argument 1) are set.
    REQUIRE(zeKernelSetArgumentValue(k, 9, sizeof po, &po) == ZE_RESULT_SUCCESS);
    int64_t b = -3;
    REQUIRE(zeKernelSetArgumentValue(k, 1, sizeof b, &b) == ZE_RESULT_SUCCESS);
    setGroupSize(k, 1);
    fx.runOnce([&](auto l) {
      REQUIRE(zeCommandListAppendLaunchKernel(l, k, &one, nullptr, 0, nullptr) ==
              ZE_RESULT_SUCCESS);
    });
    CHECK(out[1] == -3);
    for (int i : {0, 2, 3, 4, 5, 6, 7, 8, 9}) {
      INFO("out[" << i << "]");
      CHECK(out[i] == 0);
    }
  }
  SECTION("a pointer never set is appended (as null; the list is not run)") {
    auto k = fx.kernel("corpus_scalars", "scalar_args");
    setGroupSize(k, 1);
    auto l = fx.list();
    CHECK(zeCommandListAppendLaunchKernel(l, k, &one, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  }
  SECTION("a __local argument never set is refused until it is") {
    // three_locals(__global int* out, __local int* a, __local short* b)
    auto k = fx.kernel("corpus_locals", "three_locals");
    std::vector<int> out(64, -1);
    int* p = out.data();
    REQUIRE(zeKernelSetArgumentValue(k, 0, sizeof p, &p) == ZE_RESULT_SUCCESS);
    REQUIRE(zeKernelSetArgumentValue(k, 1, 16 * sizeof(int), nullptr) == ZE_RESULT_SUCCESS);
    setGroupSize(k, 16);
    auto l = fx.list();
    CHECK(zeCommandListAppendLaunchKernel(l, k, &one, nullptr, 0, nullptr) ==
          ZE_RESULT_ERROR_INVALID_ARGUMENT);
    REQUIRE(zeKernelSetArgumentValue(k, 2, 16 * sizeof(short), nullptr) == ZE_RESULT_SUCCESS);
    CHECK(zeCommandListAppendLaunchKernel(l, k, &one, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  }
  SECTION("an image or sampler never set is refused") {
    // image_args(__read_only image2d_t src, sampler_t s, __write_only image2d_t dst, __global int*)
    auto k = fx.kernel("image_args", "image_args");
    ze_image_handle_t none = nullptr;
    if (zeKernelSetArgumentValue(k, 0, sizeof none, &none) == ZE_RESULT_SUCCESS) {
      WARN("image parameters are not of kind Image in this build: skipped");
      return;
    }
    setGroupSize(k, 1);
    auto l = fx.list();
    CHECK(zeCommandListAppendLaunchKernel(l, k, &one, nullptr, 0, nullptr) ==
          ZE_RESULT_ERROR_INVALID_ARGUMENT);
  }
}
