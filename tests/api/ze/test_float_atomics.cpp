// ZE_extension_float_atomics: what ze_float_atomic_ext_properties_t reports (chained to
// zeDeviceGetModuleProperties) is what the JIT runs. Each reported flag is exercised by
// tests/kernels/float_atomics_ext.spvasm on half, float and double, in global and local memory:
// add (float, double), min and max (all three), atomic load and store (all three). Half add is not
// reported: Debian's SPIRV-LLVM-Translator 15 has no half OpAtomicFAddEXT.
#include <level_zero/ze_api.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "aligned_vector.h"
#include "kernel_test_support.h"

using namespace tessera::test;

namespace {

constexpr ze_device_fp_atomic_ext_flags_t kLoadStore =
    ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_LOAD_STORE | ZE_DEVICE_FP_ATOMIC_EXT_FLAG_LOCAL_LOAD_STORE;
constexpr ze_device_fp_atomic_ext_flags_t kAdd =
    ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_ADD | ZE_DEVICE_FP_ATOMIC_EXT_FLAG_LOCAL_ADD;
constexpr ze_device_fp_atomic_ext_flags_t kMinMax =
    ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_MIN_MAX | ZE_DEVICE_FP_ATOMIC_EXT_FLAG_LOCAL_MIN_MAX;

// IEEE half bits of a float that half represents exactly (normal numbers and zero).
uint16_t halfBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  uint16_t sign = uint16_t((b >> 16) & 0x8000);
  if ((b & 0x7fffffff) == 0) return sign;
  int exp = int((b >> 23) & 0xff) - 127 + 15;
  return uint16_t(sign | (exp << 10) | ((b >> 13) & 0x3ff));
}

float halfValue(uint16_t h) {
  if ((h & 0x7fff) == 0) return (h & 0x8000) ? -0.0f : 0.0f;
  uint32_t b = (uint32_t(h & 0x8000) << 16) | (uint32_t(((h >> 10) & 0x1f) - 15 + 127) << 23) |
               (uint32_t(h & 0x3ff) << 13);
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

struct Half {
  uint16_t bits;
};

template <typename T>
T make(float f) {
  if constexpr (std::is_same_v<T, Half>)
    return Half{halfBits(f)};
  else
    return T(f);
}

template <typename T>
double value(T x) {
  if constexpr (std::is_same_v<T, Half>)
    return halfValue(x.bits);
  else
    return double(x);
}

// Runs fatomics_<name> over 64 groups of 16 and checks what each reported operation computed.
template <typename T>
void runFloatAtomics(KernelFixture& fx, ze_module_handle_t m, const char* kernel, bool add) {
  INFO("kernel " << kernel);
  ze_kernel_handle_t k = fx.kernel(m, kernel);
  constexpr uint32_t kGroup = 16, kGroups = 64, kItems = kGroup * kGroups;
  AlignedVector<T> v(kItems);
  double sum = 0, lo = 1e9, hi = -1e9;
  for (uint32_t i = 0; i < kItems; ++i) {
    float x = float(int(i * 7 % 23) - 11) * 0.5f;  // -5.5 .. 5.5, exact in every type
    v[i] = make<T>(x);
    sum += x, lo = std::min<double>(lo, x), hi = std::max<double>(hi, x);
  }
  AlignedVector<T> out(9);
  out[0] = make<T>(1.0f), out[3] = make<T>(2.0f);
  out[1] = out[4] = make<T>(100.0f);
  out[2] = out[5] = make<T>(-100.0f);
  out[6] = out[8] = make<T>(0.0f), out[7] = make<T>(3.25f);
  T* po = out.data();
  T* pv = v.data();
  setArgs(k, po, pv);
  setGroupSize(k, kGroup);
  fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {kGroups, 1, 1}); });
  if (add) {
    CHECK(value(out[0]) == 1.0 + sum);
    CHECK(value(out[3]) == 2.0 + sum);
  }
  CHECK(value(out[1]) == lo);
  CHECK(value(out[2]) == hi);
  CHECK(value(out[4]) == lo);
  CHECK(value(out[5]) == hi);
  CHECK(value(out[6]) == 3.25);
  CHECK(value(out[8]) == 3.25);
}

}  // namespace

TEST_CASE(
    "Given the float atomic flags the device reports, then kernels using each of them on half, "
    "float and double in global and local memory compute the right values",
    "[atomics][float]") {
  KernelFixture fx;
  uint32_t n = 0;
  REQUIRE(zeDriverGetExtensionProperties(fx.driver, &n, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<ze_driver_extension_properties_t> extensions(n);
  REQUIRE(zeDriverGetExtensionProperties(fx.driver, &n, extensions.data()) == ZE_RESULT_SUCCESS);
  bool reported = false;
  for (const auto& e : extensions) reported |= std::string(e.name) == ZE_FLOAT_ATOMICS_EXT_NAME;
  CHECK(reported);

  ze_float_atomic_ext_properties_t fp{ZE_STRUCTURE_TYPE_FLOAT_ATOMIC_EXT_PROPERTIES};
  ze_device_module_properties_t mp{ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES, &fp};
  REQUIRE(zeDeviceGetModuleProperties(fx.device, &mp) == ZE_RESULT_SUCCESS);
  CHECK(fp.fp16Flags == (kLoadStore | kMinMax));
  CHECK(fp.fp32Flags == (kLoadStore | kAdd | kMinMax));
  CHECK(fp.fp64Flags == (kLoadStore | kAdd | kMinMax));
  CHECK(mp.pNext == &fp);

  ze_module_handle_t m = fx.module("float_atomics_ext");
  runFloatAtomics<Half>(fx, m, "fatomics_half", false);
  runFloatAtomics<float>(fx, m, "fatomics_float", true);
  runFloatAtomics<double>(fx, m, "fatomics_double", true);
}
