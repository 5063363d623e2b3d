// The widening's copies from global to global memory in 32-byte pieces after O3
// (backends/cpu/jit/copy_pieces.cpp): every lane's bytes arrive, pieces hold whole lanes, and
// lanes whose size does not divide 32 are left whole.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

// @copy4: out[i] = in[i] of float4 (16-byte lanes); @copy8: of float8 (32-byte lanes, pieces of
// one lane); @copy3: of char3 (3-byte lanes 4 bytes apart: no piece holds whole lanes, left
// whole; the fourth byte of each is not written).
constexpr const char* kCopies = R"(
target triple = "spir64-unknown-unknown"
declare spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32)
declare spir_func i64 @_Z32__spirv_BuiltInLocalInvocationIdi(i32)

define spir_kernel void @copy4(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %i = call spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32 0)
  %p = getelementptr inbounds <4 x float>, ptr addrspace(1) %in, i64 %i
  %v = load <4 x float>, ptr addrspace(1) %p, align 16
  %q = getelementptr inbounds <4 x float>, ptr addrspace(1) %out, i64 %i
  store <4 x float> %v, ptr addrspace(1) %q, align 16
  ret void
}

define spir_kernel void @copy8(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %i = call spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32 0)
  %p = getelementptr inbounds <8 x float>, ptr addrspace(1) %in, i64 %i
  %v = load <8 x float>, ptr addrspace(1) %p, align 32
  %q = getelementptr inbounds <8 x float>, ptr addrspace(1) %out, i64 %i
  store <8 x float> %v, ptr addrspace(1) %q, align 32
  ret void
}

define spir_kernel void @copy3(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %i = call spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32 0)
  %p = getelementptr inbounds <3 x i8>, ptr addrspace(1) %in, i64 %i
  %v = load <3 x i8>, ptr addrspace(1) %p, align 1
  %q = getelementptr inbounds <3 x i8>, ptr addrspace(1) %out, i64 %i
  store <3 x i8> %v, ptr addrspace(1) %q, align 1
  ret void
}
)";

// `v`'s first byte at a 64-byte boundary (the kernels claim their lanes' alignment).
uint8_t* aligned(std::vector<uint8_t>& v) {
  auto at = reinterpret_cast<uintptr_t>(v.data());
  return v.data() + ((64 - at % 64) % 64);
}

}  // namespace

TEST_CASE(
    "Given widened copies between global buffers, when compiled, then 16- and 32-byte lanes "
    "are copied in pieces of whole lanes, 3-byte lanes whole, and every byte arrives",
    "[jit][widen][copy_pieces]") {
  const uint32_t groups = 3, size = 64, n = groups * size;
  for (int width : {8, 16}) {
    INFO("width " << width);
    CompileOptions options = defaultOptions();
    options.widen = width;
    auto compiled = compileIR(kCopies, options);
    REQUIRE(compiled != nullptr);
    struct Case {
      const char* name;
      size_t laneBytes;  // apart
      size_t copied;     // of each lane
      bool split;
    };
    for (Case c :
         {Case{"copy4", 16, 16, true}, Case{"copy8", 32, 32, true}, Case{"copy3", 4, 3, false}}) {
      INFO(c.name);
      const CompiledKernel& k = *compiled->find(c.name);
      CHECK(k.widen.widenedRegions == 1);
      CHECK((k.splitCopies > 0) == c.split);
      // 64 bytes past the lanes' end; every byte distinct from its neighbours.
      const size_t bytes = n * c.laneBytes + 64;
      std::vector<uint8_t> inStore(bytes + 64), outStore(bytes + 64, 0xEE);
      uint8_t* in = aligned(inStore);
      uint8_t* out = aligned(outStore);
      for (size_t i = 0; i < bytes; ++i) in[i] = static_cast<uint8_t>(i * 7 + i / 251);
      ArgBuffer args(k);
      args.set(0, static_cast<void*>(in)).set(1, static_cast<void*>(out));
      launch(k, args.data(), dims1(groups, size), pool());
      for (size_t i = 0; i < n * c.laneBytes; ++i)
        REQUIRE(out[i] == (i % c.laneBytes < c.copied ? in[i] : 0xEE));
      for (size_t i = n * c.laneBytes; i < bytes; ++i) REQUIRE(out[i] == 0xEE);
    }
  }
}

}  // namespace tessera::backends::cpu::test
