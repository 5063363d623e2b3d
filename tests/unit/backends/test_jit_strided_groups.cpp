// The widening's strided loads after O3 (backends/cpu/jit/strided_groups.cpp): lanes that read
// consecutive elements of their own rows across a block's loads become one vector load per lane
// and a transpose, the others one scalar load per lane. The kernels carry the attribute that
// makes strided loads (widener.h, kStridedLoadsAttr), so the pass runs whatever the host's
// gathers; the results must be the host's.
#include <catch2/catch.hpp>

#include <vector>

#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

// @rows: work-item g sums k * in[g * 17 + k] over k < 16 (lanes 68 bytes apart, each reading 16
// consecutive floats once O3 unrolls the loop), plus in[g * 17 + 40] alone. @rows_written: the
// same loop storing each partial sum, so no two of its loads share a stretch without a store.
constexpr const char* kRows = R"(
target triple = "spir64-unknown-unknown"
declare spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32)

define spir_kernel void @rows(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 {
entry:
  %gid = call spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32 0)
  %row = mul i64 %gid, 17
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s1, %loop ]
  %ix = add i64 %row, %k
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %ix
  %v = load float, ptr addrspace(1) %p, align 4
  %kf = uitofp i64 %k to float
  %t = fmul float %v, %kf
  %s1 = fadd float %s, %t
  %k1 = add i64 %k, 1
  %more = icmp ult i64 %k1, 16
  br i1 %more, label %loop, label %done
done:
  %far = add i64 %row, 40
  %q = getelementptr inbounds float, ptr addrspace(1) %in, i64 %far
  %w = load float, ptr addrspace(1) %q, align 4
  %r = fadd float %s1, %w
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gid
  store float %r, ptr addrspace(1) %o, align 4
  ret void
}

define spir_kernel void @rows_written(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 {
entry:
  %gid = call spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32 0)
  %row = mul i64 %gid, 17
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gid
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s1, %loop ]
  %ix = add i64 %row, %k
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %ix
  %v = load float, ptr addrspace(1) %p, align 4
  %kf = uitofp i64 %k to float
  %t = fmul float %v, %kf
  %s1 = fadd float %s, %t
  store volatile float %s1, ptr addrspace(1) %o, align 4
  %k1 = add i64 %k, 1
  %more = icmp ult i64 %k1, 16
  br i1 %more, label %loop, label %done
done:
  ret void
}

attributes #0 = { "tessera-strided-loads" }
)";

float rowSum(const std::vector<float>& in, size_t g, bool far) {
  float s = 0;
  for (size_t k = 0; k < 16; ++k) s += in[g * 17 + k] * float(k);
  return far ? s + in[g * 17 + 40] : s;
}

}  // namespace

TEST_CASE(
    "Given lanes that each read 16 consecutive floats of their own row, when widened with "
    "strided loads, then the unrolled loads are read as vector loads per lane and transposed, "
    "and the sums are the host's",
    "[jit][widen][strided]") {
  const size_t groups = 3, size = 16, n = groups * size;
  std::vector<float> in(n * 17 + 40);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 13) - 6.0f;
  for (int width : {8, 16}) {
    INFO("width " << width);
    CompileOptions options = defaultOptions();
    options.widen = width;
    auto compiled = compileIR(kRows, options);
    REQUIRE(compiled != nullptr);
    const CompiledKernel& rows = *compiled->find("rows");
    CHECK(rows.widen.stridedLoads >= 2);
    // In every widened copy of the region, the loop's 16 loads in groups of up to a lane count;
    // the load after the loop stays alone.
    CHECK(rows.transposedLoads > 0);
    CHECK(rows.transposedLoads % 16 == 0);
    std::vector<float> out(n, -1.0f);
    ArgBuffer args(rows);
    args.set(0, in.data()).set(1, out.data());
    launch(rows, args.data(), dims1(groups, size), pool());
    for (size_t g = 0; g < n; ++g) REQUIRE(out[g] == rowSum(in, g, true));

    // A store between every two loads: nothing is grouped across it, each load is one per lane.
    const CompiledKernel& written = *compiled->find("rows_written");
    CHECK(written.widen.stridedLoads >= 1);
    CHECK(written.transposedLoads == 0);
    std::vector<float> partial(n, -1.0f);
    ArgBuffer args2(written);
    args2.set(0, in.data()).set(1, partial.data());
    launch(written, args2.data(), dims1(groups, size), pool());
    for (size_t g = 0; g < n; ++g) REQUIRE(partial[g] == rowSum(in, g, false));
  }
}

}  // namespace tessera::backends::cpu::test
