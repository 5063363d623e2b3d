// SPIR-V 1.4's pointer comparisons (OpPtrEqual, OpPtrNotEqual, OpPtrDiff) through zeModuleCreate:
// the installed translator reads none of them, spirv/pointer_compare.cpp writes them as address
// arithmetic (issue 30 item 4: oneAPI's and compute-benchmarks' modules use them).
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <vector>

#include "kernel_test_support.h"

using namespace tessera::test;

TEST_CASE(
    "Given a SPIR-V 1.4 kernel comparing and subtracting pointers, when it runs, then each "
    "result is the C one",
    "[kernel][spirv14]") {
  KernelFixture fx;
  ze_kernel_handle_t k = fx.kernel("pointer_compare", "pointer_compare");
  std::vector<uint32_t> out(7, 0xdeadbeef);
  std::vector<uint32_t> in(64, 0);
  setArgs(k, out.data(), in.data());
  setGroupSize(k, 1);
  fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {1, 1, 1}); });
  CHECK(out[0] == 1);             // in == in
  CHECK(out[1] == 1);             // in != in + 5
  CHECK(out[2] == 0);             // in + 5 != in + 5
  CHECK(out[3] == 5);             // (in + 5) - in, in uints
  CHECK(out[4] == uint32_t(-5));  // in - (in + 5)
  CHECK(out[5] == 3);             // in float4s
  CHECK(out[6] == 2);             // in structs { uint; float4; } of 32 bytes
}
