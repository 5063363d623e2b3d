// What OpenCL leaves undefined gets a value, never a trap (jit/trap_free_arithmetic.cpp): integer
// division and remainder by zero and of the minimum by -1 (x86's div/idiv raise SIGFPE), shift
// counts of the width or more, out-of-range float to integer conversions; and __local data is
// aligned as its type asks (jit/static_locals.cpp, launcher.cpp). The values of undefined lanes
// are not checked; every other lane must be right and the launch must complete.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "../../support/aligned_vector.h"
#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

using tessera::test::AlignedVector;

// The kernels of undefined.cl compiled with the widening as `widen` says (CompileOptions).
const CompiledKernel& undefinedKernel(const std::string& name, int widen) {
  static std::map<int, std::shared_ptr<const CompiledModule>> modules;
  auto& m = modules[widen];
  if (!m) {
    CompileOptions options;
    options.widen = widen;
    m = readAndCompile("undefined", options);
  }
  const CompiledKernel* k = m->find(name);
  REQUIRE(k != nullptr);
  return *k;
}

uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// divrem_<type><n> over 64 work-items: every fifth element divides by 0, every seventh (signed
// types) is the minimum divided by -1; the rest are hashed values.
template <typename T>
void checkDivRem(const std::string& type, int widen) {
  for (unsigned n : {1u, 2u, 3u, 4u, 8u, 16u}) {
    const std::string name = "divrem_" + type + (n > 1 ? std::to_string(n) : "");
    INFO(name << " widen " << widen);
    const CompiledKernel& k = undefinedKernel(name, widen);
    const unsigned stride = n == 3 ? 4 : n;  // sizeof(T3) is four elements
    const size_t items = 64, count = items * stride;
    // Aligned as the kernels' vector types ask (an int16 load may be an aligned AVX-512 move).
    AlignedVector<T> a(count), b(count), q(count, T(7)), r(count, T(7));
    for (size_t e = 0; e < count; ++e) {
      a[e] = static_cast<T>(mix(e));
      b[e] = static_cast<T>(mix(e + 1000) >> (e % 3 == 0 ? 60 : 0));  // some small divisors
      if (e % 5 == 0) b[e] = 0;
      if (std::is_signed_v<T> && e % 7 == 3) a[e] = std::numeric_limits<T>::min(), b[e] = T(-1);
    }
    ArgBuffer args(k);
    args.set(0, a.data()).set(1, b.data()).set(2, q.data()).set(3, r.data());
    launch(k, args.data(), dims1(4, 16), pool());
    for (size_t e = 0; e < count; ++e) {
      if (n == 3 && e % 4 == 3) continue;  // the padding element
      if (b[e] == 0 ||
          (std::is_signed_v<T> && a[e] == std::numeric_limits<T>::min() && b[e] == T(-1)))
        continue;  // undefined: any value
      INFO("element " << e << ": " << int64_t(a[e]) << " / " << int64_t(b[e]));
      REQUIRE(q[e] == static_cast<T>(a[e] / b[e]));
      REQUIRE(r[e] == static_cast<T>(a[e] % b[e]));
    }
  }
}

}  // namespace

TEST_CASE(
    "Given integer division and remainder by zero and of the minimum by -1, when kernels of "
    "every integer type and vector width run, then they complete and the other lanes are right",
    "[jit][undefined]") {
  // -1: as TESSERA_WIDEN says (the default plan); 16 and 4: every region widened.
  for (int widen : {-1, 16, 4}) {
    checkDivRem<int8_t>("char", widen);
    checkDivRem<uint8_t>("uchar", widen);
    checkDivRem<int16_t>("short", widen);
    checkDivRem<uint16_t>("ushort", widen);
    checkDivRem<int32_t>("int", widen);
    checkDivRem<uint32_t>("uint", widen);
    checkDivRem<int64_t>("long", widen);
    checkDivRem<uint64_t>("ulong", widen);
  }
}

TEST_CASE(
    "Given integer divisions by a varying divisor, when widened, then a level takes them only up "
    "to 16 elements per division (x86 divides element by element)",
    "[jit][undefined][widen]") {
  // int2 at 4 work-items: 8 divisions each, widened.
  CHECK(undefinedKernel("divrem_int2", 4).widen.widenedRegions == 1);
  CHECK(undefinedKernel("divrem_int2", 4).widen.refused.empty());
  // char16 at 16 and at 4: 256 and 64 scalar divisions in one block, which the instruction
  // scheduler takes seconds over; refused, the region runs scalar (checkDivRem checks results).
  for (int widen : {16, 4}) {
    const CompiledKernel& k = undefinedKernel("divrem_char16", widen);
    INFO("widen " << widen << ": " << k.widen.refused);
    CHECK(k.widen.widenedRegions == 0);
    CHECK(k.widen.refused.find("one scalar division per element") != std::string::npos);
  }
}

TEST_CASE("Given a divisor argument of 0, when the kernel divides by it, then it completes",
          "[jit][undefined]") {
  const CompiledKernel& k = undefinedKernel("divide_by", -1);
  std::vector<int> a(64, 5), q(64), r(64);
  a[0] = std::numeric_limits<int>::min();
  for (int d : {0, -1, 3}) {
    ArgBuffer args(k);
    args.set(0, a.data()).set(1, d).set(2, q.data()).set(3, r.data());
    launch(k, args.data(), dims1(4, 16), pool());
    if (d == 3) {
      CHECK(q[1] == 1);
      CHECK(r[1] == 2);
    }
    if (d == -1) CHECK(q[1] == -5);
  }
}

TEST_CASE(
    "Given a division in a varying branch, when widened, then the block is predicated and lanes "
    "that skip it do not trap",
    "[jit][undefined][widen]") {
  for (int widen : {16, 4}) {
    INFO("widen " << widen);
    const CompiledKernel& k = undefinedKernel("divide_where", widen);
    // Before trap_free_arithmetic.cpp the widening refused a block with an integer division.
    CHECK(k.widen.refused.empty());
    CHECK(k.widen.widenedRegions == 1);
    CHECK(k.widen.predicatedBranches == 1);
    std::vector<int> a(256), b(256), q(256, -7);
    for (int i = 0; i < 256; ++i) a[i] = 1000 + i, b[i] = i % 3 == 0 ? 0 : i % 11 + 1;
    ArgBuffer args(k);
    args.set(0, a.data()).set(1, b.data()).set(2, q.data());
    launch(k, args.data(), dims1(4, 64), pool());
    for (int i = 0; i < 256; ++i) REQUIRE(q[i] == (b[i] ? a[i] / b[i] : -7));
  }
}

TEST_CASE(
    "Given float to integer conversions out of range, when converted, then the kernel completes "
    "and the values in range are right",
    "[jit][undefined]") {
  const CompiledKernel& k = undefinedKernel("float_to_int", -1);
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> f = {3.75f, -2.5f, 1e10f, -1e10f, inf, -inf, NAN, 4.5e9f};
  f.resize(64, 1.0f);
  // 1.8e19: in ulong's range, above long's (the unsigned conversion's upper half).
  std::vector<double> d = {3.75, -2.5, 1e30, -1e30, INFINITY, -INFINITY, NAN, 1.8e19};
  d.resize(64, 1.0);
  std::vector<int32_t> i(64), v(64 * 4);
  std::vector<uint32_t> u(64);
  std::vector<int64_t> l(64);
  std::vector<uint64_t> ul(64);
  ArgBuffer args(k);
  args.set(0, f.data()).set(1, d.data()).set(2, i.data()).set(3, u.data()).set(4, l.data());
  args.set(5, ul.data()).set(6, v.data());
  launch(k, args.data(), dims1(1, 16), pool());
  CHECK(i[0] == 3);
  CHECK(i[1] == -2);
  CHECK(u[0] == 3);
  CHECK(l[0] == 3);
  CHECK(l[1] == -2);
  CHECK(ul[0] == 3);
  CHECK(ul[7] == uint64_t(1.8e19));
  CHECK(v[0] == 3);
  CHECK(v[1] == -2);
}

TEST_CASE(
    "Given __local data holding a long16, then it is aligned to 128 bytes: static structs, "
    "static vectors and __local arguments",
    "[jit][undefined][local]") {
  const CompiledKernel& k = undefinedKernel("local_alignment", -1);
  std::vector<uint64_t> out(4 * 4, 99);
  ArgBuffer args(k);
  args.set(0, out.data()).local(1, 1).local(2, 128);
  launch(k, args.data(), dims1(4, 8), pool());
  for (int g = 0; g < 4; ++g) {
    INFO("group " << g);
    CHECK(out[g * 4 + 0] == 0);
    CHECK(out[g * 4 + 1] == 0);
    CHECK(out[g * 4 + 2] == 0);
    CHECK(out[g * 4 + 3] == 1 + 2 + 3 + 4 + 5 + 6);
  }
}

TEST_CASE(
    "Given a row and column divided out of the global id before a barrier, then the guarded "
    "divisions are recomputed after it, not kept in scratch slots",
    "[jit][undefined][barrier]") {
  const CompiledKernel& k = undefinedKernel("rows_across_barrier", -1);
  CHECK(k.barrierCount == 1);
  CHECK(k.scratchBytesPerWorkItem == 0);
  const int n = 24, groups = 6, size = 16;
  std::vector<float> a(groups * size), ref(groups * size);
  for (int i = 0; i < groups * size; ++i) a[i] = float(i) * 0.5f;
  for (int g = 0; g < groups; ++g)
    for (int l = 0; l < size; ++l) {
      int i = g * size + l;
      ref[i] = a[g * size + size - 1 - l] + float((i / n) * 1000 + i % n);
    }
  ArgBuffer args(k);
  args.set(0, a.data()).set(1, n).local(2, size * sizeof(float));
  launch(k, args.data(), dims1(groups, size), pool());
  for (int i = 0; i < groups * size; ++i) REQUIRE(a[i] == ref[i]);
}

// SPIR-V from producers other than clang's OpenCL C front end may shift by the width or more
// (SPIR-V: "the result is undefined if Shift is greater than or equal to the bit width"): the count
// is taken modulo the width, as OpenCL C defines its shifts. Written as the translator's IR.
TEST_CASE("Given shifts by the width or more in IR, then the count is taken modulo the width",
          "[jit][undefined][shift]") {
  const char* ir = R"(
target triple = "spir64-unknown-unknown"
declare spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32)
define spir_kernel void @shifts(ptr addrspace(1) %o32, ptr addrspace(1) %o64, ptr addrspace(1) %o8,
                                ptr addrspace(1) %ov, i32 %a, i64 %w, i8 %c, <4 x i32> %v, i32 %n) {
entry:
  %gid = call spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32 0)
  %g = trunc i64 %gid to i32
  %n32 = add i32 %n, %g
  %s0 = shl i32 %a, %n32
  %s1 = lshr i32 %a, %n32
  %s2 = ashr i32 %a, %n32
  %i3 = mul i64 %gid, 3
  %p0 = getelementptr inbounds i32, ptr addrspace(1) %o32, i64 %i3
  store i32 %s0, ptr addrspace(1) %p0
  %i31 = add i64 %i3, 1
  %p1 = getelementptr inbounds i32, ptr addrspace(1) %o32, i64 %i31
  store i32 %s1, ptr addrspace(1) %p1
  %i32 = add i64 %i3, 2
  %p2 = getelementptr inbounds i32, ptr addrspace(1) %o32, i64 %i32
  store i32 %s2, ptr addrspace(1) %p2
  %n64 = add i64 %gid, 60
  %t0 = shl i64 %w, %n64
  %q0 = getelementptr inbounds i64, ptr addrspace(1) %o64, i64 %gid
  store i64 %t0, ptr addrspace(1) %q0
  %g8 = trunc i64 %gid to i8
  %n8 = add i8 %g8, 6
  %u0 = lshr i8 %c, %n8
  %r0 = getelementptr inbounds i8, ptr addrspace(1) %o8, i64 %gid
  store i8 %u0, ptr addrspace(1) %r0
  %vn0 = insertelement <4 x i32> undef, i32 %n32, i32 0
  %vn = shufflevector <4 x i32> %vn0, <4 x i32> undef, <4 x i32> zeroinitializer
  %vs = shl <4 x i32> %v, %vn
  %r1 = getelementptr inbounds <4 x i32>, ptr addrspace(1) %ov, i64 %gid
  store <4 x i32> %vs, ptr addrspace(1) %r1, align 16
  ret void
}
)";
  auto compiled = compileIR(ir);
  const CompiledKernel& k = *compiled->find("shifts");
  const uint32_t items = 16;
  std::vector<uint32_t> o32(3 * items);
  std::vector<uint64_t> o64(items);
  std::vector<uint8_t> o8(items);
  std::vector<uint32_t> ov(4 * items);
  const uint32_t a = 0x80001234u;
  const uint64_t w = 0x8000000000000003ull;
  const uint8_t c = 0xF0;
  struct alignas(16) V {
    uint32_t e[4];
  } v{{1, 2, 0x40000000u, 0xFFFFFFFFu}};
  ArgBuffer args(k);
  args.set(0, o32.data()).set(1, o64.data()).set(2, o8.data()).set(3, ov.data());
  args.set(4, a).set(5, w).set(6, c).set(7, v).set(8, uint32_t(28));
  launch(k, args.data(), dims1(2, 8), pool());
  for (uint32_t g = 0; g < items; ++g) {
    INFO("work-item " << g);
    uint32_t n = (28 + g) & 31;
    CHECK(o32[3 * g] == a << n);
    CHECK(o32[3 * g + 1] == a >> n);
    CHECK(o32[3 * g + 2] == uint32_t(int32_t(a) >> n));
    CHECK(o64[g] == w << ((60 + g) & 63));
    CHECK(o8[g] == uint8_t(c >> ((6 + g) & 7)));
    for (int e = 0; e < 4; ++e) CHECK(ov[4 * g + e] == v.e[e] << n);
  }
}

}  // namespace tessera::backends::cpu::test
