// The kernel corpus (tests/kernels/corpus_*.cl and spec_constants.spvasm) through the ze* API,
// each kernel checked against a host reference: the guide's module and kernel sequence, 1D/2D/3D
// ranges with offsets and uneven sizes, local-memory reductions, a tiled matrix multiply, atomics,
// private arrays and structs by value, vector types, math builtins within the OpenCL ULP limits,
// specialization constants, and the corpus again on sub-devices.
#include <level_zero/ze_api.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "aligned_vector.h"
#include "kernel_test_support.h"

using tessera::test::AlignedVector;
using tessera::test::KernelFixture;
using tessera::test::setArg;
using tessera::test::setArgs;
using tessera::test::setGroupSize;
using tessera::test::setLocalArg;
using tessera::test::setOffset;

namespace {

// Distance in units in the last place between two floats of the same sign region.
int64_t ulpDistance(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : INT64_MAX;
  auto ordered = [](float f) {
    int32_t i;
    std::memcpy(&i, &f, sizeof i);
    return i < 0 ? int64_t(INT32_MIN) - i : int64_t(i);
  };
  int64_t d = ordered(a) - ordered(b);
  return d < 0 ? -d : d;
}

}  // namespace

TEST_CASE(
    "Given the guide's module and kernel pseudo-code, when it runs as written, then the "
    "image is scaled and both launches keep their own arguments",
    "[corpus][guide][module][kernel][launch]") {
  KernelFixture fx;
  auto hContext = fx.context;
  auto hDevice = fx.device;
  auto hCommandQueue = fx.queue();
  auto hCommandList = fx.list();
  auto il = tessera::test::readCorpusKernel("corpus_guide");

  // Module: the guide's descriptor, no build flags, no constants, and a build log.
  ze_module_desc_t moduleDesc = {ZE_STRUCTURE_TYPE_MODULE_DESC,
                                 nullptr,
                                 ZE_MODULE_FORMAT_IL_SPIRV,
                                 il.size(),
                                 il.data(),
                                 nullptr,
                                 nullptr};
  ze_module_handle_t hModule = nullptr;
  ze_module_build_log_handle_t buildlog = nullptr;
  ze_result_t result = zeModuleCreate(hContext, hDevice, &moduleDesc, &hModule, &buildlog);
  // Only save build logs for module creation errors.
  if (result != ZE_RESULT_SUCCESS) {
    size_t szLog = 0;
    zeModuleBuildLogGetString(buildlog, &szLog, nullptr);
    std::string strLog(szLog, '\0');
    zeModuleBuildLogGetString(buildlog, &szLog, strLog.data());
    FAIL("build log: " << strLog);
  }
  REQUIRE(zeModuleBuildLogDestroy(buildlog) == ZE_RESULT_SUCCESS);

  // Kernel.
  ze_kernel_desc_t kernelDesc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr,
                                 0,  // flags
                                 "image_scaling"};
  ze_kernel_handle_t hKernel = nullptr;
  result = zeKernelCreate(hModule, &kernelDesc, &hKernel);
  REQUIRE(result != ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED);
  REQUIRE(result != ZE_RESULT_ERROR_INVALID_KERNEL_NAME);
  REQUIRE(result == ZE_RESULT_SUCCESS);

  ze_kernel_properties_t kernelProperties{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
  REQUIRE(zeKernelGetProperties(hKernel, &kernelProperties) == ZE_RESULT_SUCCESS);
  CHECK(kernelProperties.numKernelArgs == 4);

  // Group size: the suggestion for the image (the guide passes nullptr for Z, which the header
  // marks [out] and required: a real pointer here, the null case is in test_kernel_errors).
  const uint32_t imageWidth = 96, imageHeight = 40;
  uint32_t groupSizeX = 0, groupSizeY = 0, groupSizeZ = 0;
  REQUIRE(zeKernelSuggestGroupSize(hKernel, imageWidth, imageHeight, 1, &groupSizeX, &groupSizeY,
                                   &groupSizeZ) == ZE_RESULT_SUCCESS);
  CHECK(groupSizeZ == 1);
  CHECK(imageWidth % groupSizeX == 0);
  CHECK(imageHeight % groupSizeY == 0);
  REQUIRE(zeKernelSetGroupSize(hKernel, groupSizeX, groupSizeY, 1) == ZE_RESULT_SUCCESS);

  // Arguments and two launches, the second on other buffers.
  const size_t n = size_t(imageWidth) * imageHeight;
  AlignedVector<float> src(n), dst(n, -1.0f), src2(n), dst2(n, -1.0f);
  for (size_t i = 0; i < n; ++i) src[i] = float(i), src2[i] = float(3 * i + 1);
  float *pSrc = src.data(), *pDst = dst.data(), *pSrc2 = src2.data(), *pDst2 = dst2.data();
  uint32_t width = imageWidth, height = imageHeight;
  REQUIRE(zeKernelSetArgumentValue(hKernel, 0, sizeof(float*), &pSrc) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(hKernel, 1, sizeof(float*), &pDst) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(hKernel, 2, sizeof(uint32_t), &width) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(hKernel, 3, sizeof(uint32_t), &height) == ZE_RESULT_SUCCESS);
  uint32_t numGroupsX = imageWidth / groupSizeX;
  uint32_t numGroupsY = imageHeight / groupSizeY;
  ze_group_count_t launchArgs = {numGroupsX, numGroupsY, 1};
  REQUIRE(zeCommandListAppendLaunchKernel(hCommandList, hKernel, &launchArgs, nullptr, 0,
                                          nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(hKernel, 0, sizeof(float*), &pSrc2) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(hKernel, 1, sizeof(float*), &pDst2) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendLaunchKernel(hCommandList, hKernel, &launchArgs, nullptr, 0,
                                          nullptr) == ZE_RESULT_SUCCESS);

  // Execute and synchronize.
  REQUIRE(zeCommandListClose(hCommandList) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(hCommandQueue, 1, &hCommandList, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueSynchronize(hCommandQueue, UINT64_MAX) == ZE_RESULT_SUCCESS);
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) bad += dst[i] != 2.0f * src[i] || dst2[i] != 2.0f * src2[i];
  CHECK(bad == 0);
  REQUIRE(zeKernelDestroy(hKernel) == ZE_RESULT_SUCCESS);
  REQUIRE(zeModuleDestroy(hModule) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given 1D, 2D and 3D ranges with global offsets and partial last groups, then exactly "
    "the guarded items are written",
    "[corpus][launch][range]") {
  KernelFixture fx;
  ze_module_handle_t m = fx.module("corpus_ranges");
  uint32_t count = 0;
  REQUIRE(zeModuleGetKernelNames(m, &count, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<const char*> names(count);
  REQUIRE(zeModuleGetKernelNames(m, &count, names.data()) == ZE_RESULT_SUCCESS);
  std::vector<std::string> sorted(names.begin(), names.end());
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == std::vector<std::string>{"add_value", "range1d", "range2d", "range3d",
                                           "range_info", "write_group_count"});

  SECTION("1D") {
    auto k = fx.kernel(m, "range1d");
    const uint32_t n = 1000, offset = 37, groupSize = 64;
    // 15 groups of 64 from 37 cover [37, 997) ; one more group overshoots n and must be guarded.
    for (uint32_t groups : {15u, 16u}) {
      AlignedVector<int> out(n + 64, -7);
      int* p = out.data();
      setArgs(k, p, n);
      setGroupSize(k, groupSize);
      setOffset(k, offset);
      fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {groups, 1, 1}); });
      size_t bad = 0;
      uint32_t end = std::min(n, offset + groups * groupSize);
      for (uint32_t i = 0; i < out.size(); ++i) {
        int expect = i >= offset && i < end ? int(i) * 2 + 1 : -7;
        bad += out[i] != expect;
      }
      INFO("groups " << groups);
      CHECK(bad == 0);
    }
  }
  SECTION("2D") {
    auto k = fx.kernel(m, "range2d");
    const uint32_t w = 50, h = 30, ox = 3, oy = 5;
    AlignedVector<int> out(w * h, -7);
    int* p = out.data();
    setArgs(k, p, w, h);
    setGroupSize(k, 8, 4);
    setOffset(k, ox, oy);
    // ceil((50-3)/8) = 6, ceil((30-5)/4) = 7: both dimensions end in a partial group.
    fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {6, 7, 1}); });
    size_t bad = 0;
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x) {
        bool in = x >= ox && y >= oy;
        bad += out[y * w + x] != (in ? int(y * 1000 + x) : -7);
      }
    CHECK(bad == 0);
  }
  SECTION("3D") {
    auto k = fx.kernel(m, "range3d");
    const uint32_t w = 13, h = 11, d = 9, ox = 1, oy = 2, oz = 3;
    AlignedVector<int> out(w * h * d, -7);
    int* p = out.data();
    setArgs(k, p, w, h, d);
    setGroupSize(k, 4, 3, 2);
    setOffset(k, ox, oy, oz);
    // ceil(12/4) = 3, ceil(9/3) = 3, ceil(6/2) = 3: and one group more in x that is all outside.
    fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {4, 3, 3}); });
    size_t bad = 0;
    for (uint32_t z = 0; z < d; ++z)
      for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
          bool in = x >= ox && y >= oy && z >= oz;
          bad += out[(z * h + y) * w + x] != (in ? int(z * 10000 + y * 100 + x) : -7);
        }
    CHECK(bad == 0);
  }
  SECTION("the work-item functions see the launch's sizes and offsets") {
    auto k = fx.kernel(m, "range_info");
    AlignedVector<uint32_t> info(13, 0xdead);
    uint32_t* p = info.data();
    setArg(k, 0, p);
    setGroupSize(k, 4, 2, 3);
    setOffset(k, 10, 20, 30);
    fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {5, 3, 2}); });
    CHECK(info[0] == 3);
    const uint32_t local[3] = {4, 2, 3}, groups[3] = {5, 3, 2}, offs[3] = {10, 20, 30};
    for (int dim = 0; dim < 3; ++dim) {
      INFO("dimension " << dim);
      CHECK(info[1 + 4 * dim] == local[dim] * groups[dim]);
      CHECK(info[2 + 4 * dim] == local[dim]);
      CHECK(info[3 + 4 * dim] == groups[dim]);
      CHECK(info[4 + 4 * dim] == offs[dim]);
    }
  }
}

TEST_CASE(
    "Given local-memory reductions with barriers inside loops and conditionals, then the "
    "group results match the host",
    "[corpus][barrier][local]") {
  KernelFixture fx;
  ze_module_handle_t m = fx.module("corpus_reduce");

  SECTION("guarded sum and max over a partial last group") {
    auto k = fx.kernel(m, "reduce_guarded");
    const uint32_t groupSize = 128, n = 1000, groups = (n + groupSize - 1) / groupSize;
    AlignedVector<int> in(n);
    std::mt19937 rng(5);
    for (auto& v : in) v = int(rng() % 2001) - 1000;
    for (int withMax : {0, 1}) {
      AlignedVector<int> sums(groups, -1), maxes(groups, -12345);
      int *pin = in.data(), *ps = sums.data(), *pm = maxes.data();
      setArgs(k, pin, ps, pm, n, withMax);
      setLocalArg(k, 5, groupSize * sizeof(int));
      setGroupSize(k, groupSize);
      fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {groups, 1, 1}); });
      for (uint32_t g = 0; g < groups; ++g) {
        int sum = 0, mx = INT32_MIN;
        for (uint32_t i = g * groupSize; i < std::min(n, (g + 1) * groupSize); ++i)
          sum += in[i], mx = std::max(mx, in[i]);
        INFO("group " << g << " withMax " << withMax);
        CHECK(sums[g] == sum);
        CHECK(maxes[g] == (withMax ? mx : -12345));
      }
    }
  }
  SECTION("the largest group size, and the device's whole shared local memory") {
    auto k = fx.kernel(m, "reduce_guarded");
    ze_device_compute_properties_t cp{ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
    REQUIRE(zeDeviceGetComputeProperties(fx.device, &cp) == ZE_RESULT_SUCCESS);
    REQUIRE(cp.maxTotalGroupSize >= 1024);
    const uint32_t groupSize = std::min<uint32_t>(cp.maxTotalGroupSize, 4096);
    REQUIRE(cp.maxSharedLocalMemory >= groupSize * sizeof(int));
    const uint32_t n = groupSize * 2 + 17, groups = 3;
    AlignedVector<int> in(n);
    std::mt19937 rng(6);
    for (auto& v : in) v = int(rng() % 201) - 100;
    AlignedVector<int> sums(groups, -1), maxes(groups, -1);
    int *pin = in.data(), *ps = sums.data(), *pm = maxes.data();
    setArgs(k, pin, ps, pm, n, 1);
    // Only the first groupSize ints are used; the rest of the local memory must still be there.
    setLocalArg(k, 5, cp.maxSharedLocalMemory);
    setGroupSize(k, groupSize);
    fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {groups, 1, 1}); });
    for (uint32_t g = 0; g < groups; ++g) {
      int sum = 0, mx = INT32_MIN;
      for (uint32_t i = g * groupSize; i < std::min(n, (g + 1) * groupSize); ++i)
        sum += in[i], mx = std::max(mx, in[i]);
      INFO("group " << g << " of " << groupSize);
      CHECK(sums[g] == sum);
      CHECK(maxes[g] == mx);
    }
  }
  SECTION("inclusive scan in a static __local array") {
    auto k = fx.kernel(m, "scan_local");
    for (uint32_t groupSize : {256u, 64u, 1u}) {
      const uint32_t groups = 6;
      AlignedVector<int> in(groupSize * groups), out(in.size(), 0);
      std::iota(in.begin(), in.end(), -50);
      int *pin = in.data(), *pout = out.data();
      setArgs(k, pin, pout);
      setGroupSize(k, groupSize);
      fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {groups, 1, 1}); });
      size_t bad = 0;
      for (uint32_t g = 0; g < groups; ++g) {
        int acc = 0;
        for (uint32_t i = 0; i < groupSize; ++i) {
          acc += in[g * groupSize + i];
          bad += out[g * groupSize + i] != acc;
        }
      }
      INFO("group size " << groupSize);
      CHECK(bad == 0);
    }
  }
  SECTION("values loops carry across barriers, read after the loops") {
    auto k = fx.kernel(m, "carried_values");
    const uint32_t groupSize = 32, groups = 2;
    for (int n : {0, 1, 4}) {
      AlignedVector<int> out(4 * groupSize * groups, -99);
      int* p = out.data();
      setArgs(k, p, n);
      setGroupSize(k, groupSize);
      fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {groups, 1, 1}); });
      size_t bad = 0;
      for (uint32_t gid = 0; gid < groupSize * groups; ++gid) {
        int lid = int(gid % groupSize), acc = lid, prev = -1, a = lid + 1, b = -2;
        for (int t = 0; t < n; ++t) prev = acc, acc = acc * 3 + t;
        for (int i = 0; i < n + 1; ++i) b = a, a = a * 5 - i;
        const int expect[4] = {acc, prev, a, b};
        for (int j = 0; j < 4; ++j) bad += out[4 * gid + j] != expect[j];
      }
      INFO("n " << n << ", work-item 1: " << out[4] << " " << out[5] << " " << out[6] << " "
                << out[7]);
      CHECK(bad == 0);
    }
  }
  SECTION("barriers in a loop with an argument trip count and a nested loop") {
    auto k = fx.kernel(m, "rounds");
    const uint32_t groupSize = 32, groups = 3, rounds = 4, inner = 3;
    AlignedVector<int> data(groupSize * groups);
    std::iota(data.begin(), data.end(), 1);
    AlignedVector<int> expect = data;
    for (uint32_t g = 0; g < groups; ++g) {
      int* v = expect.data() + g * groupSize;
      for (uint32_t r = 0; r < rounds; ++r) {
        AlignedVector<int> tmp(v, v + groupSize);
        for (uint32_t i = 0; i < groupSize; ++i) v[i] += tmp[(i + 1) % groupSize];
        for (uint32_t i = 0; i < inner; ++i)
          for (uint32_t j = 0; j < groupSize; ++j) v[j] += int(i);
      }
    }
    int* p = data.data();
    setArgs(k, p, rounds, inner);
    setLocalArg(k, 3, groupSize * sizeof(int));
    setGroupSize(k, groupSize);
    fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {groups, 1, 1}); });
    CHECK(data == expect);
  }
}

TEST_CASE(
    "Given a 16x16 tiled matrix multiply with __local tiles, when C = A * B runs on 128x128 "
    "matrices, then C matches the host product",
    "[corpus][barrier][local][matmul]") {
  KernelFixture fx;
  auto k = fx.kernel("corpus_matmul", "matmul_tiled");
  const uint32_t N = 128;
  // Small integers: every product and partial sum is exact in float, whatever the order.
  AlignedVector<float> A(N * N), B(N * N), C(N * N, -1.0f), ref(N * N, 0.0f);
  for (uint32_t i = 0; i < N * N; ++i) A[i] = float(int(i % 7) - 3), B[i] = float(int(i % 5) - 2);
  for (uint32_t r = 0; r < N; ++r)
    for (uint32_t c = 0; c < N; ++c) {
      float acc = 0;
      for (uint32_t i = 0; i < N; ++i) acc += A[r * N + i] * B[i * N + c];
      ref[r * N + c] = acc;
    }
  // Two 16 x 16 float tiles of static __local memory.
  ze_kernel_properties_t props{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
  REQUIRE(zeKernelGetProperties(k, &props) == ZE_RESULT_SUCCESS);
  CHECK(props.numKernelArgs == 4);
  CHECK(props.localMemSize >= 2 * 16 * 16 * sizeof(float));
  float *pa = A.data(), *pb = B.data(), *pc = C.data();
  setArgs(k, pa, pb, pc, N);
  setGroupSize(k, 16, 16);
  fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {N / 16, N / 16, 1}); });
  size_t bad = 0;
  for (uint32_t i = 0; i < N * N; ++i) bad += C[i] != ref[i];
  CHECK(bad == 0);
}

TEST_CASE("Given integer atomics from many work-groups, then the counts are exact",
          "[corpus][atomics]") {
  KernelFixture fx;
  ze_module_handle_t m = fx.module("corpus_atomics");

  SECTION("atomic_add into one counter") {
    auto k = fx.kernel(m, "atomic_count");
    int counter = 0;
    int* p = &counter;
    setArg(k, 0, p);
    setGroupSize(k, 64);
    fx.runOnce([&](auto l) {
      KernelFixture::launch(l, k, {1000, 1, 1});
      KernelFixture::launch(l, k, {3, 1, 1});  // another launch adds on top
    });
    CHECK(counter == 1003 * 64);
  }
  SECTION("the other OpenCL 1.x atomics") {
    auto k = fx.kernel(m, "atomic_mix");
    const uint32_t items = 32 * 50;
    int c[8] = {0, -1, INT32_MAX, 0, 0, 0, 0, -1};
    int* p = c;
    setArg(k, 0, p);
    setGroupSize(k, 32);
    fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {items / 32, 1, 1}); });
    int x = 0;
    for (uint32_t i = 0; i < items; ++i) x ^= int(i);
    CHECK(c[0] == int(items));
    CHECK(c[1] == int(items) - 1);
    CHECK(c[2] == 0);
    CHECK(c[3] == -2 * int(items));
    CHECK(uint32_t(c[4]) == 0x7fffffffu);
    CHECK(c[5] == x);
    CHECK(c[6] == int(items));
    CHECK(uint32_t(c[7]) == 0x80000000u);
  }
  SECTION("C11-style atomics of OpenCL 2.0") {
    auto k = fx.kernel(m, "atomic_c11");
    int counter = 5;
    uint32_t maxId = 0;
    int* pc = &counter;
    uint32_t* pm = &maxId;
    setArgs(k, pc, pm);
    setGroupSize(k, 16);
    fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {77, 1, 1}); });
    CHECK(counter == 5 + 3 * 77 * 16);
    CHECK(maxId == 77 * 16 - 1);
  }
  SECTION("float add through compare-and-swap") {
    // Native float atomics are an extension (ze_float_atomic_ext_properties_t); whatever the device
    // reports, the compare-and-swap form must be exact on values whose sums are exact.
    ze_float_atomic_ext_properties_t fp{ZE_STRUCTURE_TYPE_FLOAT_ATOMIC_EXT_PROPERTIES};
    ze_device_module_properties_t mp{ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES, &fp};
    REQUIRE(zeDeviceGetModuleProperties(fx.device, &mp) == ZE_RESULT_SUCCESS);
    UNSCOPED_INFO("fp32 atomic flags " << fp.fp32Flags);
    auto k = fx.kernel(m, "atomic_float_cas");
    const uint32_t items = 4096;
    AlignedVector<float> x(items);
    for (uint32_t i = 0; i < items; ++i) x[i] = float(i % 8) * 0.25f;
    float sum = 1.0f;
    float* ps = &sum;
    float* px = x.data();
    setArgs(k, ps, px);
    setGroupSize(k, 64);
    fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {items / 64, 1, 1}); });
    float expect = 1.0f;
    for (float v : x) expect += v;
    CHECK(sum == expect);
  }
}

TEST_CASE(
    "Given a native float atomic add (OpAtomicFAddEXT), when many groups add into one "
    "float, then the sum is exact",
    "[corpus][atomics][float]") {
  KernelFixture fx;
  ze_float_atomic_ext_properties_t fp{ZE_STRUCTURE_TYPE_FLOAT_ATOMIC_EXT_PROPERTIES};
  ze_device_module_properties_t mp{ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES, &fp};
  REQUIRE(zeDeviceGetModuleProperties(fx.device, &mp) == ZE_RESULT_SUCCESS);
  // The module is built whatever the device advertises: the JIT's builtin library implements
  // __spirv_AtomicFAddEXT (backends/cpu/jit/builtin_library.cpp).
  UNSCOPED_INFO("fp32 atomic flags " << fp.fp32Flags);
  auto spv = tessera::test::readCorpusKernel("atomic_float_add");
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC,
                        nullptr,
                        ZE_MODULE_FORMAT_IL_SPIRV,
                        spv.size(),
                        spv.data(),
                        "",
                        nullptr};
  ze_module_handle_t m = nullptr;
  ze_module_build_log_handle_t log = nullptr;
  ze_result_t r = zeModuleCreate(fx.context, fx.device, &desc, &m, &log);
  std::string text = tessera::test::buildLogText(log);
  zeModuleBuildLogDestroy(log);
  if (r != ZE_RESULT_SUCCESS) {
    INFO("build log: " << text);
    // Only acceptable when the device does not claim global float add.
    CHECK((fp.fp32Flags & ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_ADD) == 0);
    WARN("native float atomic add not supported: " << text);
    return;
  }
  ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "atomic_float_native"};
  ze_kernel_handle_t k = nullptr;
  REQUIRE(zeKernelCreate(m, &kd, &k) == ZE_RESULT_SUCCESS);
  const uint32_t items = 8192;
  AlignedVector<float> x(items);
  for (uint32_t i = 0; i < items; ++i) x[i] = float(i % 4) * 0.5f;
  float sum = -3.0f;
  float* ps = &sum;
  float* px = x.data();
  setArgs(k, ps, px);
  setGroupSize(k, 32);
  fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {items / 32, 1, 1}); });
  float expect = -3.0f;
  for (float v : x) expect += v;
  CHECK(sum == expect);
  zeKernelDestroy(k);
  zeModuleDestroy(m);
}

namespace {
struct Mix {
  int32_t bias;
  float scale;
  int32_t weights[3];
  int16_t pad;
  int8_t tag;
};
static_assert(sizeof(Mix) == 24);
struct Pair {
  float x, y;
};
struct Nested {
  Pair p;
  uint32_t count;
  int64_t big;
};
static_assert(sizeof(Nested) == 24);
}  // namespace

TEST_CASE("Given private arrays and structs passed by value, then the results match the host",
          "[corpus][private][struct]") {
  KernelFixture fx;
  ze_module_handle_t m = fx.module("corpus_private");

  SECTION("a private int array indexed by the data") {
    auto k = fx.kernel(m, "private_array");
    ze_kernel_properties_t props{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    REQUIRE(zeKernelGetProperties(k, &props) == ZE_RESULT_SUCCESS);
    CHECK(props.numKernelArgs == 3);
    const uint32_t items = 96;
    AlignedVector<int> in(items * 8), out(items, 0);
    std::iota(in.begin(), in.end(), -100);
    Mix mix{7, 3.75f, {2, -1, 5}, 300, -4};
    int *pin = in.data(), *pout = out.data();
    setArgs(k, pin, pout, mix);
    setGroupSize(k, 32);
    fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {items / 32, 1, 1}); });
    for (uint32_t i = 0; i < items; ++i) {
      int tmp[8], acc = 0;
      for (int j = 0; j < 8; ++j) tmp[j] = in[i * 8 + j] * mix.weights[j % 3];
      for (int j = 0; j < 8; ++j) acc += tmp[(j * 3 + int(i)) % 8] * (j + 1);
      INFO("item " << i);
      CHECK(out[i] == acc + mix.bias + 3 + mix.pad + mix.tag);
    }
  }
  SECTION("a private array of structs and a nested struct by value") {
    auto k = fx.kernel(m, "private_structs");
    const uint32_t items = 40;
    AlignedVector<int> order(items);
    for (uint32_t i = 0; i < items; ++i) order[i] = int(i * 7 + 1);
    AlignedVector<float> out(items, -1.0f);
    Nested nested{{1.5f, -2.0f}, 10, int64_t(3) << 32};
    int* po = order.data();
    float* pout = out.data();
    setArgs(k, po, pout, nested);
    setGroupSize(k, 8);
    fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {items / 8, 1, 1}); });
    for (uint32_t i = 0; i < items; ++i) {
      int j = order[i] & 3;
      float expect = 1.5f * float(j + 1) + (-2.0f + float(j)) + 10.0f + 3.0f;
      INFO("item " << i);
      CHECK(out[i] == expect);
    }
  }
}

TEST_CASE(
    "Given float4 and int4 kernels, then vector arithmetic, swizzles and comparisons match "
    "the host",
    "[corpus][vector]") {
  KernelFixture fx;
  ze_module_handle_t m = fx.module("corpus_vectors");
  const uint32_t items = 64;

  SECTION("float4") {
    auto k = fx.kernel(m, "vec_float4");
    // Small integers and powers of two: every result is exact.
    AlignedVector<float> a(items * 4), b(items * 4), out(items * 4, 0.0f);
    for (uint32_t i = 0; i < items * 4; ++i) a[i] = float(int(i % 9) - 4), b[i] = float(i % 6);
    float k4[4] = {2.0f, -1.0f, 0.5f, 3.0f};
    struct alignas(16) F4 {
      float v[4];
    } kv{{k4[0], k4[1], k4[2], k4[3]}};
    float *pa = a.data(), *pb = b.data(), *po = out.data();
    setArgs(k, pa, pb, kv, po);
    setGroupSize(k, 16);
    fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {items / 16, 1, 1}); });
    size_t bad = 0;
    for (uint32_t i = 0; i < items; ++i) {
      const float* x = &a[i * 4];
      const float* y = &b[i * 4];
      float t[4], r[4];
      for (int c = 0; c < 4; ++c) t[c] = x[c] * k4[c] + y[c];
      const float lit[4] = {1, 2, 3, 4};
      for (int c = 0; c < 4; ++c) r[c] = t[3 - c] - lit[c];
      r[0] += x[0] * y[0] + x[1] * y[1] + x[2] * y[2] + x[3] * y[3];
      float r1 = r[2] * 2.0f, r2 = r[1] * 2.0f;
      r[1] = r1, r[2] = r2;
      const float div[4] = {1, 2, 4, 8};
      for (int c = 0; c < 4; ++c) bad += out[i * 4 + c] != r[c] / div[c];
    }
    CHECK(bad == 0);
  }
  SECTION("int4") {
    auto k = fx.kernel(m, "vec_int4");
    AlignedVector<int> a(items * 4), b(items * 4), out(items * 4, 0), cmp(items * 4, 5);
    std::mt19937 rng(9);
    for (auto& v : a) v = int(rng() % 2001) - 1000;
    for (auto& v : b) v = int(rng() % 2001) - 1000;
    int *pa = a.data(), *pb = b.data(), *po = out.data(), *pc = cmp.data();
    setArgs(k, pa, pb, po, pc);
    setGroupSize(k, 16);
    fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {items / 16, 1, 1}); });
    size_t bad = 0;
    for (uint32_t i = 0; i < items; ++i) {
      int r[4];
      for (int c = 0; c < 4; ++c) {
        int x = a[i * 4 + c], y = b[i * 4 + c];
        r[c] = x * y - (x >> 1) + ((y & 7) ^ (c + 1));
        bad += cmp[i * 4 + c] != (x > y ? -1 : 0);
      }
      std::swap(r[0], r[1]);
      for (int c = 0; c < 4; ++c) bad += out[i * 4 + c] != r[c];
    }
    CHECK(bad == 0);
  }
}

TEST_CASE(
    "Given a sample of math builtins, then the results are within the OpenCL ULP limits of "
    "the host's",
    "[corpus][math]") {
  KernelFixture fx;
  auto k = fx.kernel("corpus_math", "math_sample");
  const uint32_t n = 1000;
  AlignedVector<float> as(n), bs(n), out(n * 9, 0.0f);
  std::mt19937 rng(20261122);
  std::uniform_real_distribution<float> da(1e-3f, 100.0f), db(-10.0f, 10.0f);
  for (uint32_t i = 0; i < n; ++i) as[i] = da(rng), bs[i] = db(rng);
  as[0] = 1.0f, bs[0] = 0.0f, as[1] = 4.0f, bs[1] = -2.5f;  // a few exact cases
  float *pa = as.data(), *pb = bs.data(), *po = out.data();
  setArgs(k, pa, pb, po, n);
  setGroupSize(k, 64);
  fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {(n + 63) / 64, 1, 1}); });

  struct Builtin {
    const char* name;
    int64_t ulps;
  };
  const Builtin builtins[9] = {{"sqrt", 3}, {"exp", 3}, {"log", 3},  {"sin", 4},  {"cos", 4},
                               {"pow", 16}, {"fma", 0}, {"fabs", 0}, {"floor", 0}};
  int64_t worst[9] = {};
  size_t failures[9] = {};
  for (uint32_t i = 0; i < n; ++i) {
    double a = as[i], b = bs[i];
    // References in double, rounded once: within half an ulp of the exact result.
    const float ref[9] = {float(std::sqrt(a)),
                          float(std::exp(b)),
                          float(std::log(a)),
                          float(std::sin(b)),
                          float(std::cos(b)),
                          float(std::pow(a, b)),
                          std::fma(as[i], bs[i], as[i]),
                          std::fabs(bs[i]),
                          std::floor(bs[i])};
    for (int f = 0; f < 9; ++f) {
      int64_t d = ulpDistance(out[i * 9 + f], ref[f]);
      worst[f] = std::max(worst[f], d);
      if (d > builtins[f].ulps) {
        if (failures[f] < 3)
          UNSCOPED_INFO(builtins[f].name << "(" << as[i] << ", " << bs[i]
                                         << ") = " << out[i * 9 + f] << ", host " << ref[f] << ": "
                                         << d << " ulp");
        ++failures[f];
      }
    }
  }
  for (int f = 0; f < 9; ++f) {
    INFO(builtins[f].name << ": worst " << worst[f] << " ulp, limit " << builtins[f].ulps);
    CHECK(failures[f] == 0);
  }
}

TEST_CASE(
    "Given the specialization-constant module, when it is built with and without "
    "ze_module_constants_t, then the kernel sees the defaults or the given values",
    "[corpus][module][spec]") {
  KernelFixture fx;
  auto runWith = [&](const ze_module_constants_t* constants) {
    auto m = fx.module("spec_constants", constants);
    auto k = fx.kernel(m, "spec_constants");
    AlignedVector<int64_t> out(4, -1);
    int64_t* p = out.data();
    setArg(k, 0, p);
    setGroupSize(k, 1);
    fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {1, 1, 1}); });
    return out;
  };
  SECTION("defaults") {
    auto out = runWith(nullptr);
    CHECK(out[0] == 7 + 9 + 100);
    CHECK(out[1] == 1);
    CHECK(out[2] == int64_t(1) << 32);
    CHECK(out[3] == 14);
  }
  SECTION("every constant set") {
    uint32_t c1 = 11;
    float c2 = 42.75f;
    uint32_t c3 = 0;  // false (the value's first byte is the bool)
    uint64_t c4 = 0x123456789ull;
    uint8_t c5 = 200;
    uint32_t ids[5] = {1, 2, 3, 4, 5};
    const void* values[5] = {&c1, &c2, &c3, &c4, &c5};
    ze_module_constants_t constants{5, ids, values};
    auto out = runWith(&constants);
    CHECK(out[0] == 11 + 200);
    CHECK(out[1] == 42);
    CHECK(out[2] == int64_t(0x123456789));
    CHECK(out[3] == 22);
  }
  SECTION("some constants set, in another order") {
    uint32_t c1 = 1000;
    uint64_t c4 = 5;
    uint32_t ids[2] = {4, 1};
    const void* values[2] = {&c4, &c1};
    ze_module_constants_t constants{2, ids, values};
    auto out = runWith(&constants);
    CHECK(out[0] == 1000 + 9 + 100);
    CHECK(out[1] == 1);
    CHECK(out[2] == 5);
    CHECK(out[3] == 2000);
  }
}

TEST_CASE(
    "Given a module built for the root device, when corpus kernels run on each sub-device, "
    "then the results are those of the root device",
    "[corpus][subdevice]") {
  KernelFixture fx;
  auto subs = tessera::test::subDevices(fx.device);
  if (subs.empty()) {
    WARN("device 0 has no sub-devices");
    return;
  }
  ze_module_handle_t reduce = fx.module("corpus_reduce");
  ze_module_handle_t matmul = fx.module("corpus_matmul");
  for (size_t s = 0; s < subs.size(); ++s) {
    INFO("sub-device " << s);
    ze_command_queue_desc_t qd = tessera::test::queueDesc();
    ze_command_queue_handle_t q = nullptr;
    REQUIRE(zeCommandQueueCreate(fx.context, subs[s], &qd, &q) == ZE_RESULT_SUCCESS);
    ze_command_list_desc_t ld{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
    ze_command_list_handle_t l = nullptr;
    REQUIRE(zeCommandListCreate(fx.context, subs[s], &ld, &l) == ZE_RESULT_SUCCESS);

    auto scan = fx.kernel(reduce, "scan_local");
    AlignedVector<int> in(64 * 4), out(in.size(), 0);
    std::iota(in.begin(), in.end(), int(s));
    int *pin = in.data(), *pout = out.data();
    setArgs(scan, pin, pout);
    setGroupSize(scan, 64);
    KernelFixture::launch(l, scan, {4, 1, 1});

    auto mm = fx.kernel(matmul, "matmul_tiled");
    const uint32_t N = 32;
    AlignedVector<float> A(N * N), B(N * N), C(N * N, -1.0f);
    for (uint32_t i = 0; i < N * N; ++i) A[i] = float(i % 3), B[i] = float(int(i % 4) - 1);
    float *pa = A.data(), *pb = B.data(), *pc = C.data();
    setArgs(mm, pa, pb, pc, N);
    setGroupSize(mm, 16, 16);
    KernelFixture::launch(l, mm, {N / 16, N / 16, 1});
    fx.run(q, l);

    size_t bad = 0;
    for (uint32_t g = 0; g < 4; ++g) {
      int acc = 0;
      for (uint32_t i = 0; i < 64; ++i) bad += out[g * 64 + i] != (acc += in[g * 64 + i]);
    }
    for (uint32_t r = 0; r < N; ++r)
      for (uint32_t c = 0; c < N; ++c) {
        float acc = 0;
        for (uint32_t i = 0; i < N; ++i) acc += A[r * N + i] * B[i * N + c];
        bad += C[r * N + c] != acc;
      }
    CHECK(bad == 0);
    CHECK(zeCommandListDestroy(l) == ZE_RESULT_SUCCESS);
    CHECK(zeCommandQueueDestroy(q) == ZE_RESULT_SUCCESS);
  }
}

TEST_CASE(
    "Given scalar and small-vector arguments of every size, then each reaches the kernel "
    "at its own alignment",
    "[corpus][args]") {
  KernelFixture fx;
  auto k = fx.kernel("corpus_scalars", "scalar_args");
  ze_kernel_properties_t props{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
  REQUIRE(zeKernelGetProperties(k, &props) == ZE_RESULT_SUCCESS);
  REQUIRE(props.numKernelArgs == 10);
  int8_t a = -5;
  int64_t b = -(int64_t(1) << 40) - 3;
  int16_t c = -1234;
  float d = 2.75f;
  uint8_t e = 250;
  uint64_t f = (uint64_t(1) << 50) + 7;
  struct alignas(8) Int2 {
    int32_t v[2];
  } g{{-7, 8}};
  uint16_t i = 65000;
  struct alignas(16) Int4 {
    int32_t v[4];
  } j{{1, 2, 3, 4}};
  AlignedVector<int64_t> out(10, 0x5a5a);
  int64_t* po = out.data();
  setArgs(k, a, b, c, d, e, f, g, i, j, po);
  setGroupSize(k, 1);
  fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {1, 1, 1}); });
  const int64_t expect[10] = {-5, b, -1234, 11, 250, int64_t(f), -7, 8, 65000, 10};
  for (int n = 0; n < 10; ++n) {
    INFO("out[" << n << "]");
    CHECK(out[n] == expect[n]);
  }
}

// OpenCL C gives 3-component vectors the size and alignment of 4 (sizeof(float3) == 16, as
// clSetKernelArg with cl_float3 passes). (This test found the slot sized as LLVM's store size, 12.)
TEST_CASE(
    "Given float3 and int3 arguments passed with sizeof(float3) == 16, then the kernel sees "
    "their components",
    "[corpus][args][vec3]") {
  KernelFixture fx;
  auto k = fx.kernel("corpus_scalars", "vec3_args");
  struct alignas(16) Float3 {
    float v[4];
  } h{{1.0f, -2.0f, 3.0f, 0.0f}};
  struct alignas(16) Int3 {
    int32_t v[4];
  } k3{{-40, 50, -60, 0}};
  int8_t c = 9;
  AlignedVector<int64_t> out(7, 0x5a5a);
  int64_t* po = out.data();
  CHECK(zeKernelSetArgumentValue(k, 0, sizeof h, &h) == ZE_RESULT_SUCCESS);
  CHECK(zeKernelSetArgumentValue(k, 2, sizeof k3, &k3) == ZE_RESULT_SUCCESS);
  setArg(k, 1, c);
  setArg(k, 3, po);
  setGroupSize(k, 1);
  ze_group_count_t one{1, 1, 1};
  fx.runOnce([&](auto l) {
    CHECK(zeCommandListAppendLaunchKernel(l, k, &one, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  });
  const int64_t expect[7] = {1, -2, 3, 9, -40, 50, -60};
  for (int n = 0; n < 7; ++n) {
    INFO("out[" << n << "]");
    CHECK(out[n] == expect[n]);
  }
}

TEST_CASE(
    "Given vector conversions and integer builtins, then truncation, int to float and "
    "selection match the host",
    "[corpus][vector][convert]") {
  KernelFixture fx;
  auto k = fx.kernel("corpus_convert", "convert_vectors");
  const uint32_t items = 16;
  AlignedVector<float> fv(items * 4);
  AlignedVector<int> nv(items * 4);
  const float specials[8] = {2.5f, -2.5f, 3.5f, 0.5f, -0.5f, 3.7f, -3.7f, 1e9f};
  std::mt19937 rng(77);
  for (uint32_t x = 0; x < items * 4; ++x) {
    fv[x] = x < 8 ? specials[x] : float(int(rng() % 20001) - 10000) / 8.0f;
    nv[x] = x == 0 ? 16777217 : int(rng() % 2001) - 1000;
  }
  AlignedVector<int> toInt(items * 4), misc(items * 4);
  AlignedVector<float> toFloat(items * 4);
  float* pf = fv.data();
  int *pn = nv.data(), *p1 = toInt.data(), *p3 = misc.data();
  float* p2 = toFloat.data();
  setArgs(k, pf, pn, p1, p2, p3);
  setGroupSize(k, 4);
  fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {items / 4, 1, 1}); });
  size_t bad = 0;
  for (uint32_t x = 0; x < items * 4; ++x) {
    int32_t bits;
    std::memcpy(&bits, &fv[x], 4);
    int n = nv[x];
    int expectMisc = (n < 0 ? -n : std::clamp(n, -100, 100)) + (bits & 1);
    bool ok = toInt[x] == int(fv[x]) && toFloat[x] == float(n) && misc[x] == expectMisc;
    if (!ok && bad < 5)
      UNSCOPED_INFO("element " << x << ": f " << fv[x] << " n " << n << " -> " << toInt[x] << ", "
                               << toFloat[x] << ", " << misc[x]);
    bad += !ok;
  }
  CHECK(bad == 0);
}

// Conversions with a rounding mode or saturation arrive as calls (__spirv_ConvertFToS_Rint4_rte,
// __spirv_SatConvertSToU_Ruchar4), lowered by backends/cpu/jit/builtin_conversions.cpp.
TEST_CASE("Given convert_int4_rte, then values round to nearest even",
          "[corpus][vector][convert]") {
  KernelFixture fx;
  auto k = fx.kernel("corpus_convert_rte", "convert_rte");
  const float in[8] = {2.5f, -2.5f, 3.5f, 0.5f, -0.5f, 3.7f, -3.7f, 1e9f};
  int out[8] = {};
  const float* pin = in;
  int* pout = out;
  setArgs(k, pin, pout);
  setGroupSize(k, 1);
  fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {2, 1, 1}); });
  const int expect[8] = {2, -2, 4, 0, 0, 4, -4, 1000000000};
  for (int x = 0; x < 8; ++x) {
    INFO("convert_int_rte(" << in[x] << ")");
    CHECK(out[x] == expect[x]);
  }
}

TEST_CASE("Given convert_uchar4_sat, then values clamp to [0, 255]",
          "[corpus][vector][convert]") {
  KernelFixture fx;
  auto k = fx.kernel("corpus_convert_sat", "convert_sat");
  const int in[8] = {-1000, -1, 0, 1, 254, 255, 256, 1 << 30};
  uint8_t out[8] = {};
  const int* pin = in;
  uint8_t* pout = out;
  setArgs(k, pin, pout);
  setGroupSize(k, 1);
  fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {2, 1, 1}); });
  const uint8_t expect[8] = {0, 0, 0, 1, 254, 255, 255, 255};
  for (int x = 0; x < 8; ++x) {
    INFO("convert_uchar_sat(" << in[x] << ")");
    CHECK(out[x] == expect[x]);
  }
}

TEST_CASE("Given a device that reports fp64, then double arithmetic matches the host",
          "[corpus][fp64]") {
  KernelFixture fx;
  ze_device_module_properties_t mp{ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES};
  REQUIRE(zeDeviceGetModuleProperties(fx.device, &mp) == ZE_RESULT_SUCCESS);
  if (!(mp.flags & ZE_DEVICE_MODULE_FLAG_FP64)) {
    WARN("the device reports no fp64");
    return;
  }
  auto k = fx.kernel("corpus_fp64", "fp64_ops");
  const uint32_t items = 64;
  AlignedVector<double> a(items), b(items), out(items * 3, 0.0);
  for (uint32_t i = 0; i < items; ++i) a[i] = 1.0 + i * 0.375, b[i] = (i % 5) - 2.5;
  double *pa = a.data(), *pb = b.data(), *po = out.data();
  setArgs(k, pa, pb, po);
  setGroupSize(k, 16);
  fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {items / 16, 1, 1}); });
  for (uint32_t i = 0; i < items; ++i) {
    INFO("item " << i);
    CHECK(out[3 * i] == a[i] * b[i] + 0.5);    // exact: few significant bits
    CHECK(out[3 * i + 1] == std::sqrt(a[i]));  // correctly rounded in OpenCL
    CHECK(out[3 * i + 2] == double(int64_t(a[i] / b[i])));
  }
}

TEST_CASE(
    "Given barriers inside a static helper function called from a loop, and a kernel calling "
    "another kernel, then the results match the host",
    "[corpus][barrier][calls]") {
  KernelFixture fx;
  ze_module_handle_t m = fx.module("corpus_calls");

  SECTION("barriers in a static function called from a loop") {
    auto k = fx.kernel(m, "sums_by_round");
    const uint32_t groupSize = 64, groups = 5, rounds = 3;
    AlignedVector<int> in(groupSize * groups), out(groups * rounds, -1);
    std::iota(in.begin(), in.end(), -70);
    int *pin = in.data(), *pout = out.data();
    setArgs(k, pin, pout, rounds);
    setLocalArg(k, 3, groupSize * sizeof(int));
    setGroupSize(k, groupSize);
    fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {groups, 1, 1}); });
    for (uint32_t g = 0; g < groups; ++g)
      for (uint32_t r = 0; r < rounds; ++r) {
        int sum = 0;
        for (uint32_t i = 0; i < groupSize; ++i) sum += in[g * groupSize + i] + int(r);
        INFO("group " << g << " round " << r);
        CHECK(out[g * rounds + r] == sum);
      }
  }
  SECTION("a kernel called as a function") {
    auto k = fx.kernel(m, "square_then_add");
    AlignedVector<int> data(32);
    std::iota(data.begin(), data.end(), -16);
    AlignedVector<int> expect = data;
    for (int& v : expect) v = v * v + 5;
    int* p = data.data();
    setArgs(k, p, 5);
    setGroupSize(k, 8);
    fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {4, 1, 1}); });
    CHECK(data == expect);
  }
}

// A helper with a barrier stays defined in the module (any non-static OpenCL C function: clang
// inlines it but keeps its definition; or one marked noinline). Once inlined into the kernels, its
// own definition cannot be compiled and is dropped. (This test found such modules refused.)
TEST_CASE(
    "Given barriers inside non-static and noinline helper functions, then the module builds "
    "and the group sums are right",
    "[corpus][barrier][calls]") {
  KernelFixture fx;
  auto k = fx.kernel("corpus_barrier_helpers", "sums_helpers");
  const uint32_t groupSize = 32, groups = 3, rounds = 2;
  AlignedVector<int> in(groupSize * groups);
  std::iota(in.begin(), in.end(), 1);
  for (int noinline : {0, 1}) {
    AlignedVector<int> out(groups * rounds, -1);
    int *pin = in.data(), *pout = out.data();
    setArgs(k, pin, pout, rounds, noinline);
    setLocalArg(k, 4, groupSize * sizeof(int));
    setGroupSize(k, groupSize);
    fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {groups, 1, 1}); });
    for (uint32_t g = 0; g < groups; ++g)
      for (uint32_t r = 0; r < rounds; ++r) {
        int sum = 0;
        for (uint32_t i = 0; i < groupSize; ++i) sum += in[g * groupSize + i] + int(r);
        INFO("noinline " << noinline << " group " << g << " round " << r);
        CHECK(out[g * rounds + r] == sum);
      }
  }
}

TEST_CASE("Given a static __local array and two __local arguments, then each has its own memory",
          "[corpus][local]") {
  KernelFixture fx;
  auto k = fx.kernel("corpus_locals", "three_locals");
  for (uint32_t groupSize : {16u, 100u, 512u}) {
    const uint32_t groups = 4;
    AlignedVector<int> out(groupSize * groups, -1);
    int* p = out.data();
    setArg(k, 0, p);
    setLocalArg(k, 1, groupSize * sizeof(int));
    setLocalArg(k, 2, groupSize * sizeof(int16_t));
    setGroupSize(k, groupSize);
    fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {groups, 1, 1}); });
    size_t bad = 0;
    for (uint32_t i = 0; i < out.size(); ++i) {
      uint32_t lid = i % groupSize, other = groupSize - 1 - lid;
      bad += out[i] != int(other) + int(2 * other) + 1000 + int(lid % 16);
    }
    INFO("group size " << groupSize);
    CHECK(bad == 0);
  }
}

TEST_CASE(
    "Given a 3D launch with offsets, then get_global_linear_id and get_local_linear_id "
    "count from the offset, x fastest",
    "[corpus][range]") {
  KernelFixture fx;
  auto k = fx.kernel("corpus_locals", "linear_ids");
  const uint32_t lx = 4, ly = 3, lz = 2, gx = 3, gy = 2, gz = 2;
  const uint32_t total = lx * ly * lz * gx * gy * gz;
  AlignedVector<uint32_t> out(3 * total, 0xffffffff);
  uint32_t* p = out.data();
  setArg(k, 0, p);
  setGroupSize(k, lx, ly, lz);
  setOffset(k, 7, 5, 3);
  fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {gx, gy, gz}); });
  size_t bad = 0;
  const uint32_t sx = lx * gx, sy = ly * gy;
  for (uint32_t z = 0; z < lz * gz; ++z)
    for (uint32_t y = 0; y < sy; ++y)
      for (uint32_t x = 0; x < sx; ++x) {
        uint32_t g = (z * sy + y) * sx + x;
        uint32_t local = ((z % lz) * ly + (y % ly)) * lx + (x % lx);
        uint32_t group = (x / lx) + gx * ((y / ly) + gy * (z / lz));
        bool ok = out[3 * g] == g && out[3 * g + 1] == local && out[3 * g + 2] == group;
        if (!ok && bad < 3)
          UNSCOPED_INFO("(" << x << ", " << y << ", " << z << "): " << out[3 * g] << " "
                            << out[3 * g + 1] << " " << out[3 * g + 2] << ", expected " << g << " "
                            << local << " " << group);
        bad += !ok;
      }
  CHECK(bad == 0);
}
