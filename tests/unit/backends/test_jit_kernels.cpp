// The kernel JIT against host references: each kernel of tests/kernels_jit runs through
// KernelJit + launch() on a 2-thread WorkerPool.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "backends/cpu/jit/jit_pipeline.h"
#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

template <typename T>
void* ptr(std::vector<T>& v) {
  return v.data();
}

TEST_CASE("Given vadd, when launched over 4 groups of 64, then c = a + b", "[jit]") {
  const CompiledKernel& k = kernel("basic", "vadd");
  REQUIRE(k.args.size() == 3);
  CHECK(k.args[0].kind == ArgKind::GlobalPointer);
  CHECK(k.barrierCount == 0);
  std::vector<float> a(256), b(256), c(256, -1);
  for (int i = 0; i < 256; ++i) a[i] = i, b[i] = 2 * i + 0.5f;
  ArgBuffer args(k);
  args.set(0, ptr(a)).set(1, ptr(b)).set(2, ptr(c));
  launch(k, args.data(), dims1(4, 64), pool());
  for (int i = 0; i < 256; ++i) REQUIRE(c[i] == a[i] + b[i]);
}

TEST_CASE(
    "Given saxpy, when the range does not divide and has an offset, then only [off, off+n) "
    "changes",
    "[jit]") {
  const CompiledKernel& k = kernel("basic", "saxpy");
  CHECK(k.args[0].kind == ArgKind::ByValue);
  CHECK(k.args[0].size == 4);
  const uint32_t n = 1000;
  std::vector<float> x(1100), y(1100);
  for (uint32_t i = 0; i < 1100; ++i) x[i] = i * 0.25f, y[i] = 1.0f + i;
  std::vector<float> ref = y;
  for (uint32_t i = 3; i < 3 + 994; ++i) ref[i] = 2.5f * x[i] + y[i];
  ArgBuffer args(k);
  args.set(0, 2.5f).set(1, ptr(x)).set(2, ptr(y)).set(3, n);
  launch(k, args.data(), dims1(14, 71, 3), pool());  // 994 work-items from 3, last ones masked
  for (uint32_t i = 0; i < 1100; ++i) REQUIRE(y[i] == ref[i]);
}

TEST_CASE(
    "Given ids3d, when launched on 2D and 3D grids with offsets, then every work-item sees "
    "its ids",
    "[jit]") {
  const CompiledKernel& k = kernel("basic", "ids3d");
  struct Shape {
    uint32_t count[3], size[3];
    uint64_t off[3];
    uint32_t dim;
  };
  for (Shape s :
       {Shape{{3, 5, 1}, {7, 3, 1}, {5, 2, 0}, 2}, Shape{{2, 3, 4}, {5, 3, 2}, {1, 2, 3}, 3},
        Shape{{1, 1, 1}, {1, 1, 1}, {0, 0, 0}, 1}}) {
    uint32_t w = s.count[0] * s.size[0], h = s.count[1] * s.size[1], d = s.count[2] * s.size[2];
    std::vector<uint32_t> out(4 * w * h * d, 0xdeadbeef);
    ArgBuffer args(k);
    args.set(0, ptr(out)).set(1, w).set(2, h).set(3, d);
    LaunchDims dims;
    for (int i = 0; i < 3; ++i) {
      dims.groupCount[i] = s.count[i];
      dims.groupSize[i] = s.size[i];
      dims.globalOffset[i] = s.off[i];
    }
    dims.workDim = s.dim;
    launch(k, args.data(), dims, pool());
    for (uint32_t z = 0; z < d; ++z) {
      for (uint32_t y = 0; y < h; ++y) {
        for (uint32_t x = 0; x < w; ++x) {
          const uint32_t* o = &out[4 * ((z * h + y) * w + x)];
          uint64_t gx = x + s.off[0], gy = y + s.off[1], gz = z + s.off[2];
          REQUIRE(o[0] == gx + 1000 * gy + 1000000 * gz);
          REQUIRE(o[1] == x % s.size[0] + 100 * (y % s.size[1]) + 10000 * (z % s.size[2]));
          REQUIRE(o[2] == x / s.size[0] + 100 * (y / s.size[1]) + 10000 * (z / s.size[2]));
          REQUIRE(o[3] == w * s.count[1] + s.size[2] + s.dim);
        }
      }
    }
  }
}

TEST_CASE("Given private_array, when launched, then each work-item has its own array", "[jit]") {
  const CompiledKernel& k = kernel("basic", "private_array");
  std::vector<int> in(64), out(64);
  for (int i = 0; i < 64; ++i) in[i] = (i * 37) % 256;
  ArgBuffer args(k);
  args.set(0, ptr(in)).set(1, ptr(out));
  launch(k, args.data(), dims1(4, 16), pool());
  for (int g = 0; g < 64; ++g) {
    int a[16];
    for (int i = 0; i < 16; ++i) a[i] = in[(g + i) & 63] * i;
    REQUIRE(out[g] == a[in[g] & 15] + a[(in[g] >> 4) & 15]);
  }
}

TEST_CASE("Given struct_by_value, when launched, then the struct's fields arrive", "[jit]") {
  const CompiledKernel& k = kernel("basic", "struct_by_value");
  struct alignas(16) Params {
    float scale;
    int bias;
    float pad[2];
    float weights[4];
    char tag;
  } p{};
  REQUIRE(k.args[0].kind == ArgKind::ByValue);
  REQUIRE(k.args[0].size == sizeof(Params));
  p.scale = 3, p.bias = -2, p.weights[0] = 1, p.weights[1] = 2, p.weights[2] = 3, p.weights[3] = 4;
  p.tag = 5;
  std::vector<float> in(32), out(32);
  std::iota(in.begin(), in.end(), 0.0f);
  ArgBuffer args(k);
  args.set(0, p).set(1, ptr(in)).set(2, ptr(out));
  launch(k, args.data(), dims1(4, 8), pool());
  for (int i = 0; i < 32; ++i) REQUIRE(out[i] == in[i] * 3 - 2 + 1 + 4 + 9 + 16 + 5);
}

TEST_CASE(
    "Given reduce_sum, when launched with several group sizes, then each group's sum is "
    "right (barriers in a loop, __local argument)",
    "[jit][barrier]") {
  const CompiledKernel& k = kernel("local", "reduce_sum");
  CHECK(k.barrierCount == 2);
  CHECK(k.args[2].kind == ArgKind::LocalPointer);
  for (uint32_t size : {1u, 2u, 16u, 64u, 256u}) {
    const uint32_t groups = 9;
    std::vector<float> in(groups * size), out(groups, -1);
    for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 17);
    ArgBuffer args(k);
    args.set(0, ptr(in)).set(1, ptr(out)).local(2, size * sizeof(float));
    launch(k, args.data(), dims1(groups, size), pool());
    for (uint32_t g = 0; g < groups; ++g) {
      float ref = 0;
      for (uint32_t i = 0; i < size; ++i) ref += in[g * size + i];
      REQUIRE(out[g] == ref);
    }
  }
}

TEST_CASE(
    "Given reverse_static, when launched, then static __local is per work-group and values "
    "survive barriers",
    "[jit][barrier]") {
  const CompiledKernel& k = kernel("local", "reverse_static");
  CHECK(k.staticLocalBytes >= 64 * sizeof(int));
  const uint32_t size = 64, groups = 16;
  std::vector<int> in(size * groups), out(size * groups);
  for (size_t i = 0; i < in.size(); ++i) in[i] = int(i * 3 + 1);
  ArgBuffer args(k);
  args.set(0, ptr(in)).set(1, ptr(out));
  launch(k, args.data(), dims1(groups, size), pool());
  for (uint32_t g = 0; g < groups; ++g) {
    for (uint32_t l = 0; l < size; ++l) {
      int mine = in[g * size + l], other = in[g * size + size - 1 - l];
      REQUIRE(out[g * size + l] == (other + mine) * 2 - mine);
    }
  }
}

TEST_CASE(
    "Given a module of several kernels, then each kernel's static __local layout holds only the "
    "variables it reaches",
    "[jit][local]") {
  // local.cl: reverse_static has int buf[64], matmul_tiled two float tiles, reduce_sum none.
  CHECK(kernel("local", "reduce_sum").staticLocalBytes == 0);
  CHECK(kernel("local", "uniform_branch").staticLocalBytes == 0);
  CHECK(kernel("local", "reverse_static").staticLocalBytes == 64 * sizeof(int));
  const CompiledKernel& mm = kernel("local", "matmul_tiled");
  CHECK(mm.staticLocalBytes >= 2 * 16 * 16 * sizeof(float));
  CHECK(mm.staticLocalBytes < 2 * 16 * 16 * sizeof(float) + 64 * sizeof(int));
}

TEST_CASE(
    "Given client sizes whose sums or products wrap 64 bits, when launched, then launch() throws "
    "and runs nothing",
    "[jit][local]") {
  const CompiledKernel& k = kernel("local", "reduce_sum");
  std::vector<float> in(64, 1.0f), out(4, -1.0f);
  // A __local size whose 128-byte rounding wraps to 0 would have given the work-group a 64-byte
  // buffer to write 2^64 - 8 bytes into.
  ArgBuffer args(k);
  args.set(0, ptr(in)).set(1, ptr(out)).local(2, UINT64_MAX - 7);
  CHECK_THROWS_AS(launch(k, args.data(), dims1(4, 16), pool()), std::invalid_argument);
  // 2^22 * 2^21 * 2^21 groups is 2^64, which wrapped to no group at all.
  ArgBuffer ok(k);
  ok.set(0, ptr(in)).set(1, ptr(out)).local(2, 16 * sizeof(float));
  LaunchDims d;
  d.groupCount[0] = 1u << 22, d.groupCount[1] = 1u << 21, d.groupCount[2] = 1u << 21;
  CHECK_THROWS_AS(launch(k, ok.data(), d, pool()), std::invalid_argument);
  for (float v : out) CHECK(v == -1.0f);
}

TEST_CASE("Given matmul_tiled, when multiplying 64x64 matrices in 16x16 tiles, then C = A * B",
          "[jit][barrier]") {
  const CompiledKernel& k = kernel("local", "matmul_tiled");
  const int n = 64;
  std::vector<float> a(n * n), b(n * n), c(n * n);
  for (int i = 0; i < n * n; ++i) a[i] = float(i % 7) - 3, b[i] = float(i % 5) * 0.5f;
  ArgBuffer args(k);
  args.set(0, ptr(a)).set(1, ptr(b)).set(2, ptr(c)).set(3, n);
  LaunchDims dims;
  dims.groupCount[0] = dims.groupCount[1] = n / 16;
  dims.groupSize[0] = dims.groupSize[1] = 16;
  dims.workDim = 2;
  launch(k, args.data(), dims, pool());
  for (int r = 0; r < n; ++r) {
    for (int col = 0; col < n; ++col) {
      float ref = 0;
      for (int t = 0; t < n; ++t) ref += a[r * n + t] * b[t * n + col];
      REQUIRE(c[r * n + col] == Approx(ref).epsilon(1e-5));
    }
  }
}

TEST_CASE("Given uniform_branch, when the barrier is inside a uniform if, then both branches work",
          "[jit][barrier]") {
  const CompiledKernel& k = kernel("local", "uniform_branch");
  const uint32_t size = 8, groups = 3;
  for (int mode : {1, 0}) {
    std::vector<int> in(size * groups), out(size * groups);
    for (size_t i = 0; i < in.size(); ++i) in[i] = int(i * i);
    ArgBuffer args(k);
    args.set(0, ptr(in)).set(1, ptr(out)).set(2, mode).local(3, size * sizeof(int));
    launch(k, args.data(), dims1(groups, size), pool());
    for (uint32_t g = 0; g < groups; ++g) {
      for (uint32_t l = 0; l < size; ++l) {
        auto tmp = [&](uint32_t j) { return in[g * size + j] + int(j % 4); };
        int self = in[g * size + l];
        int ref = mode > 0 ? tmp((l + 1) % size) + self + 3 : tmp((l + size - 1) % size) - self;
        REQUIRE(out[g * size + l] == ref);
      }
    }
  }
}

TEST_CASE("Given count, when 1000 work-items update counters atomically, then none is lost",
          "[jit][atomics]") {
  const CompiledKernel& k = kernel("atomics", "count");
  std::vector<int> counters(9, 0), values(1000);
  counters[3] = INT32_MIN;
  counters[4] = INT32_MAX;
  long sum = 0;
  int orBits = 0;
  for (int i = 0; i < 1000; ++i) {
    values[i] = (i * 7919) % 1013 - 500;
    sum += values[i];
    orBits |= 1 << (values[i] & 15);
  }
  ArgBuffer args(k);
  args.set(0, ptr(counters)).set(1, ptr(values));
  launch(k, args.data(), dims1(125, 8), pool());
  CHECK(counters[0] == 1000);
  CHECK(counters[1] == 1000);
  CHECK(counters[2] == sum);
  CHECK(counters[3] == *std::max_element(values.begin(), values.end()));
  CHECK(counters[4] == *std::min_element(values.begin(), values.end()));
  CHECK(counters[5] == 7);
  CHECK(counters[6] == 1);
  CHECK(counters[7] == 2000);
  CHECK(counters[8] == orBits);
}

TEST_CASE(
    "Given histogram, when local atomics and barriers build per-group bins, then the global "
    "histogram is exact",
    "[jit][atomics][barrier]") {
  const CompiledKernel& k = kernel("atomics", "histogram");
  const uint32_t size = 32, groups = 40;
  std::vector<uint32_t> in(size * groups);
  std::vector<int> bins(16, 0), ref(16, 0);
  for (size_t i = 0; i < in.size(); ++i) in[i] = uint32_t(i * 2654435761u >> 7), ref[in[i] % 16]++;
  ArgBuffer args(k);
  args.set(0, ptr(in)).set(1, ptr(bins)).local(2, 16 * sizeof(int));
  launch(k, args.data(), dims1(groups, size), pool());
  CHECK(bins == ref);
}

TEST_CASE(
    "Given math_float, when evaluated on a range of inputs, then results match the host "
    "within a few ulp",
    "[jit][math]") {
  const CompiledKernel& k = kernel("math", "math_float");
  std::vector<float> x = {-3.75f, -1.0f,    -0.0f,     0.0f,  0.3f,  1.0f,  2.5f, 7.0f,
                          NAN,    INFINITY, -INFINITY, 1e-3f, 12.0f, -0.5f, 0.5f, 3.14159f};
  std::vector<float> out(16 * x.size());
  ArgBuffer args(k);
  args.set(0, ptr(x)).set(1, ptr(out));
  launch(k, args.data(), dims1(2, 8), pool());
  for (size_t i = 0; i < x.size(); ++i) {
    float v = x[i];
    float ref[16] = {std::sqrt(std::fabs(v)),
                     std::sin(v),
                     std::cos(v),
                     std::exp(v * 0.1f),
                     std::log(std::fabs(v) + 1.0f),
                     std::pow(std::fabs(v), 1.5f),
                     std::tan(v * 0.1f),
                     std::atan2(v, 2.0f),
                     std::floor(v) + std::ceil(v * 0.5f),
                     std::fma(v, 2.0f, 1.0f),
                     std::fmin(v, 1.0f) + std::fmax(v, -1.0f),
                     std::fmin(std::fmax(v, -0.5f), 0.5f),
                     std::tanh(v),
                     float(std::isnan(v)) + float(std::isinf(v)) * 2 + float(std::signbit(v)) * 4,
                     v + (2 * v - v) * 0.25f + (v < 0.0f ? 0.0f : 1.0f),
                     1.0f / std::sqrt(std::fabs(v) + 1.0f)};
    for (int j = 0; j < 16; ++j) {
      INFO("input " << v << " builtin #" << j);
      float got = out[16 * i + j];
      if (std::isnan(ref[j])) {
        REQUIRE(std::isnan(got));
      } else if (std::isinf(ref[j])) {
        REQUIRE(got == ref[j]);
      } else {
        REQUIRE(got == Approx(ref[j]).epsilon(4e-7 * 4).margin(1e-6));
      }
    }
  }
}

TEST_CASE("Given math_int, when evaluated, then integer builtins match the host", "[jit][math]") {
  const CompiledKernel& k = kernel("math", "math_int");
  std::vector<int> x = {0, 1, -1, 5, -7, 1000, INT32_MAX, INT32_MIN + 1, 0x55555555, 12345};
  std::vector<int> out(8 * x.size());
  ArgBuffer args(k);
  args.set(0, ptr(x)).set(1, ptr(out));
  launch(k, args.data(), dims1(1, uint32_t(x.size())), pool());
  for (size_t i = 0; i < x.size(); ++i) {
    int v = x[i];
    uint32_t u = uint32_t(v);
    int64_t sat = int64_t(v) + 0x7ffffff0;
    int ref[8] = {std::abs(v),
                  std::max(v, 3) + std::min(v, -3),
                  v == 0 ? 32 : __builtin_clz(u),
                  __builtin_popcount(u),
                  std::clamp(v, -100, 100),
                  int((int64_t(v) * 0x12345678) >> 32),
                  int((u << 5) | (u >> 27)),
                  int(std::min<int64_t>(sat, INT32_MAX))};
    for (int j = 0; j < 8; ++j) {
      INFO("input " << v << " builtin #" << j);
      REQUIRE(out[8 * i + j] == ref[j]);
    }
  }
}

TEST_CASE("Given vector_math, when evaluated on float4, then lanes and geometric builtins match",
          "[jit][math]") {
  const CompiledKernel& k = kernel("math", "vector_math");
  std::vector<float> x(4 * 8), out(4 * 8), lens(8);
  for (int i = 0; i < 32; ++i) x[i] = float(i) * 0.37f - 5.0f;
  ArgBuffer args(k);
  args.set(0, ptr(x)).set(1, ptr(out)).set(2, ptr(lens));
  launch(k, args.data(), dims1(2, 4), pool());
  for (int i = 0; i < 8; ++i) {
    float l2 = 0, d = 0;
    for (int j = 0; j < 4; ++j) {
      float v = x[4 * i + j];
      REQUIRE(out[4 * i + j] == Approx(std::sqrt(std::fabs(v)) + std::sin(v)).epsilon(1e-6));
      l2 += v * v;
      d += v * float(j + 1);
    }
    REQUIRE(lens[i] == Approx(std::sqrt(l2) + d).epsilon(1e-5));
  }
}

// The JIT keeps no cache of its own: the compiler facade's one cache (compiler/code_cache.h,
// tests/unit/compiler) decides when code is reused.
TEST_CASE("Given a module compiled twice, then the JIT compiles it twice, each copy complete",
          "[jit]") {
  auto first = compileKernelFile("basic");
  uint64_t before = jit().compileCount();
  auto again = readAndCompile("basic");
  CHECK(jit().compileCount() == before + 1);
  CHECK(again != first);
  CHECK(first->find("vadd") != nullptr);
  CHECK(again->find("vadd") != nullptr);
  CHECK(first->find("no_such_kernel") == nullptr);
  CHECK(first->compileMs > 0);
}

TEST_CASE("Given the JIT pipeline, then it is one ordered list naming every pass, prefetch and "
          "widening included",
          "[jit][pipeline]") {
  std::vector<std::string> names;
  for (const jit::JitPass& p : jit::pipeline()) {
    names.push_back(p.name);
    CHECK(p.run != nullptr);
    CHECK(std::string(p.why).size() > 10);
  }
  auto at = [&](const std::string& name) {
    auto it = std::find(names.begin(), names.end(), name);
    REQUIRE(it != names.end());
    return it - names.begin();
  };
  CHECK(at("host-target") == 0);
  CHECK(at("inline-into-kernels") < at("byval-copies"));
  CHECK(at("workgroup-collectives") < at("builtins"));
  CHECK(at("builtins") < at("simplify-kernels"));
  CHECK(at("plan-widening") < at("static-locals"));
  CHECK(at("static-locals") < at("prefetch"));
  CHECK(at("prefetch") < at("regions"));
  CHECK(at("regions") < at("work-group-function"));
  CHECK(at("work-group-function") < at("verify"));
  CHECK(at("verify") < at("optimize"));
  CHECK(at("optimize") < at("plan-stacks"));
  CHECK(at("emit") == static_cast<long>(names.size()) - 1);
  // What TESSERA_JIT_DUMP=passes prints: one numbered line per pass, in this order.
  std::string text = KernelJit::describePipeline();
  CHECK(text.find("1. host-target: ") == 0);
  CHECK(text.find("prefetch (per kernel): ") < text.find("regions (per kernel): "));
  CHECK(std::count(text.begin(), text.end(), '\n') == static_cast<long>(names.size()));
}


// A loop whose source asks for unrolling (`#pragma unroll`, llvm.loop.unroll.enable) with a trip
// count only known at run time and a second exit: LLVM cannot unroll it and reports a warning, which used to
// reach the application's stderr from the JIT's context (OpenCV's matchTemplate printed 196). The
// compile says nothing there and the kernel runs.
TEST_CASE("Given a loop whose unrolling hint cannot be honoured, when compiled, then nothing is "
          "printed on stderr and the kernel runs",
          "[jit][diagnostics]") {
  const char* ir = R"(
target triple = "spir64-unknown-unknown"
declare spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32)
define spir_kernel void @unroll_hint(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) {
entry:
  %gid = call spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32 0)
  %has = icmp sgt i32 %n, 0
  br i1 %has, label %loop, label %done
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %next ]
  %s = phi float [ 0.0, %entry ], [ %s1, %next ]
  %ix = zext i32 %i to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %ix
  %v = load float, ptr addrspace(1) %p
  %neg = fcmp olt float %v, 0.0
  br i1 %neg, label %done, label %next
next:
  %s1 = fadd float %s, %v
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %done, !llvm.loop !0
done:
  %r = phi float [ 0.0, %entry ], [ %s, %loop ], [ %s1, %next ]
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gid
  store float %r, ptr addrspace(1) %q
  ret void
}
!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.unroll.enable"}
)";
  CompileOptions options = defaultOptions();
  options.widen = 0;  // the loop as written, without widened copies
  std::shared_ptr<const CompiledModule> compiled;
  std::string text = captureFd(2, [&] { compiled = compileIR(ir, options); });
  CHECK(text.empty());
  REQUIRE(compiled != nullptr);
  const CompiledKernel& k = *compiled->find("unroll_hint");
  std::vector<float> in(37), out(16, -1.0f);
  std::iota(in.begin(), in.end(), 1.0f);
  ArgBuffer args(k);
  args.set(0, ptr(in)).set(1, ptr(out)).set(2, int(in.size()));
  launch(k, args.data(), dims1(2, 8), pool());
  for (float v : out) CHECK(v == 37.0f * 38.0f / 2.0f);
}

}  // namespace
}  // namespace tessera::backends::cpu::test
