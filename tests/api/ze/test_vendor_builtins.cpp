// Intel's LSC builtins (__builtin_IB_lsc_*), which kernels written for Intel's driver declare and
// call by name: Tessera's JIT provides them (backends/cpu/jit/builtin_intel_lsc.cpp), so a module
// calling them is linked at creation and every kernel of it is usable; each computes the plain
// load, store, prefetch, fence or atomic. One it does not provide leaves the module's import for
// zeModuleDynamicLink, as any unresolved function.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "aligned_vector.h"
#include "tessera/ze_tessera.h"
#include "kernel_test_support.h"

using namespace tessera::test;

namespace {

uint32_t moduleFlags(ze_module_handle_t m) {
  ze_module_properties_t p{ZE_STRUCTURE_TYPE_MODULE_PROPERTIES};
  REQUIRE(zeModuleGetProperties(m, &p) == ZE_RESULT_SUCCESS);
  return p.flags;
}

}  // namespace

TEST_CASE("Given compute-benchmarks' ulls kernels, which call an Intel LSC store, then both "
          "kernels of the module are created and write their one",
          "[module][vendor_builtins]") {
  KernelFixture fx;
  ze_module_handle_t m = fx.module("intel_lsc");
  CHECK((moduleFlags(m) & ZE_MODULE_PROPERTY_FLAG_IMPORTS) == 0);
  for (const char* name : {"write_one", "write_one_uncached"}) {
    INFO(name);
    ze_kernel_handle_t k = fx.kernel(m, name);
    AlignedVector<uint32_t> out(2, 7);
    uint32_t* p = out.data();
    setArgs(k, p);
    setGroupSize(k, 1);
    fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {1, 1, 1}); });
    CHECK(out[0] == 1);
    CHECK(out[1] == 7);
  }
}

TEST_CASE("Given Intel LSC loads, stores and a prefetch of several types in global and local "
          "memory, then each reads or writes base[immElemOff] and nothing else",
          "[module][vendor_builtins]") {
  KernelFixture fx;
  ze_kernel_handle_t k = fx.kernel("intel_lsc", "memory_ops");
  constexpr uint32_t kGroup = 8, kItems = 32;
  AlignedVector<uint32_t> out(4 * kItems, 0), in(kItems + 1), vec(4 * kItems);
  AlignedVector<uint8_t> bytes(kItems + 2);
  AlignedVector<uint16_t> half(kItems + 2, 0xAAAA);
  for (uint32_t i = 0; i < kItems + 1; ++i) in[i] = 1000 + i;
  for (uint32_t i = 0; i < kItems + 2; ++i) bytes[i] = uint8_t(200 + i);
  for (uint32_t i = 0; i < 4 * kItems; ++i) vec[i] = i;
  uint32_t *po = out.data(), *pi = in.data(), *pv = vec.data();
  uint8_t* pb = bytes.data();
  uint16_t* ph = half.data();
  setArgs(k, po, pi, pb, pv, ph);
  setLocalArg(k, 5, (kGroup + 1) * 16);
  setGroupSize(k, kGroup);
  fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {kItems / kGroup, 1, 1}); });
  for (uint32_t i = 0; i < kItems; ++i) {
    INFO("work-item " << i);
    CHECK(out[4 * i] == 1001 + i);
    CHECK(out[4 * i + 1] == uint32_t(uint8_t(202 + i)));
    CHECK(out[4 * i + 2] == 4 * i + 3);
    CHECK(out[4 * i + 3] == 2 * i);
    for (uint32_t j = 0; j < 4; ++j) CHECK(vec[4 * i + j] == 2 * (4 * i + j));
    CHECK(half[i + 1] == uint16_t(i));  // the 32-bit value's low half
  }
  CHECK(half[0] == 0xAAAA);
  CHECK(half[kItems + 1] == 0xAAAA);
}

TEST_CASE("Given Intel LSC atomics and a fence from every work-item, then the counters hold the "
          "sums, minimum, maximum and one compare-exchange winner",
          "[module][vendor_builtins]") {
  KernelFixture fx;
  ze_kernel_handle_t k = fx.kernel("intel_lsc", "atomic_ops");
  constexpr uint32_t kGroup = 16, kGroups = 8, kItems = kGroup * kGroups;
  AlignedVector<uint32_t> counters(8, 0);
  counters[2] = 1000;
  AlignedVector<float> fsum(2, 0.0f);
  uint32_t* pc = counters.data();
  float* pf = fsum.data();
  setArgs(k, pc, pf);
  setLocalArg(k, 2, sizeof(uint32_t));
  setGroupSize(k, kGroup);
  fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {kGroups, 1, 1}); });
  uint32_t groupMaxima = 0;
  for (uint32_t g = 0; g < kGroups; ++g) groupMaxima += g * kGroup + kGroup - 1;
  CHECK(counters[0] == kItems * (kItems - 1) / 2);
  CHECK(counters[1] == kItems);
  CHECK(int32_t(counters[2]) == 100 - int32_t(kItems - 1));
  CHECK(counters[3] == groupMaxima);
  CHECK(fsum[0] == 0.5f * kItems);
  CHECK(fsum[1] == 2.5f);
  CHECK(counters[5] != 0);
  CHECK(counters[6] == counters[5]);
}

TEST_CASE("Given a kernel calling an Intel LSC builtin Tessera does not provide, then the module "
          "imports it and its kernels wait for zeModuleDynamicLink",
          "[module][vendor_builtins]") {
  KernelFixture fx;
  ze_module_handle_t m = fx.module("intel_lsc_unprovided");
  CHECK((moduleFlags(m) & ZE_MODULE_PROPERTY_FLAG_IMPORTS) != 0);
  ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "block_load"};
  ze_kernel_handle_t k = nullptr;
  CHECK(zeKernelCreate(m, &kd, &k) == ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED);
  ze_module_build_log_handle_t log = nullptr;
  CHECK(zeModuleDynamicLink(1, &m, &log) == ZE_RESULT_ERROR_MODULE_LINK_FAILURE);
  CHECK(buildLogText(log).find("__builtin_IB_lsc_load_block_global_uint") != std::string::npos);
  zeModuleBuildLogDestroy(log);
}

TEST_CASE("Given Intel LSC builtins declared with other types than Intel's, then each kernel "
          "calling one fails to build with the builtin's name, and nothing crashes",
          "[module][vendor_builtins]") {
  KernelFixture fx;
  auto build = extensionFunction<ze_pfnTesseraModuleBuildKernels_t>(fx.driver,
                                                                    "zeTesseraModuleBuildKernels");
  REQUIRE(build);
  // The module shares no storage, so its kernels compile when created (ZE_tessera_module_kernels).
  ze_module_handle_t m = fx.module("intel_lsc_mismatch");
  for (const char* name : {"too_few", "wrong_value"}) {
    INFO(name);
    ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
    ze_kernel_handle_t k = nullptr;
    CHECK(zeKernelCreate(m, &kd, &k) == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    ze_module_build_log_handle_t log = nullptr;
    CHECK(build(m, 1, &name, &log) == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    std::string text = buildLogText(log);
    zeModuleBuildLogDestroy(log);
    CHECK(text.find("is called with other types than Intel's builtin has") != std::string::npos);
  }
}
