// What reaches a kernel and what it computes where OpenCL C leaves things undefined, through the
// OpenCL API: by-value arguments of every type and vector width (and structs of wide vectors),
// get_work_dim() as clEnqueueNDRangeKernel was given it, integer division by zero that must leave
// the context usable, and __local data aligned as its type asks.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "aligned_vector.h"
#include "byvalue_kernels.h"
#include "cl_program_support.h"

using namespace tessera::cltest;
using tessera::test::AlignedVector;

namespace {

cl_program buildSource(ClFixture& fx, const std::string& source, const char* options = "") {
  const char* text = source.c_str();
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(fx.ctx, 1, &text, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_int r = clBuildProgram(p, 1, &fx.dev, options, nullptr, nullptr);
  INFO("build log: " << buildLog(p, fx.dev));
  REQUIRE(r == CL_SUCCESS);
  return p;
}

}  // namespace

TEST_CASE(
    "Given kernels taking every scalar, vector and struct type by value, then each value arrives "
    "intact",
    "[cl][kernel][byvalue]") {
  ClFixture fx;
  cl_program p = buildSource(fx, tessera::test::byValueSource());
  const size_t items = 4;
  const auto types = tessera::test::byValueTypes();
  for (size_t t = 0; t < types.size(); ++t) {
    const tessera::test::ByValueType& type = types[t];
    INFO("type " << type.name);
    cl_kernel k = makeKernel(p, ("take_" + type.name).c_str());
    std::vector<uint8_t> value = tessera::test::byValueBytes(t, type.size);
    AlignedVector<uint8_t> out(items * type.size, 0);
    std::vector<char> tails(items, 0);
    char pad = 5, tail = 9;
    REQUIRE(clSetKernelArgSVMPointer(k, 0, out.data()) == CL_SUCCESS);
    REQUIRE(clSetKernelArgSVMPointer(k, 1, tails.data()) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, 1, &pad) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 3, type.size, value.data()) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 4, 1, &tail) == CL_SUCCESS);
    runKernel(fx.queue, k, 1, &items);
    for (size_t i = 0; i < items; ++i) {
      INFO("work-item " << i);
      CHECK(tails[i] == 14);
      for (auto [begin, end] : type.defined)
        CHECK(std::memcmp(out.data() + i * type.size + begin, value.data() + begin, end - begin) ==
              0);
    }
    clReleaseKernel(k);
  }
  clReleaseProgram(p);
}

TEST_CASE(
    "Given 2-D and 3-D ranges whose higher dimensions have size 1, then get_work_dim() is the "
    "work_dim given to clEnqueueNDRangeKernel",
    "[cl][kernel][workdim]") {
  ClFixture fx;
  cl_program p = buildSource(fx, R"(
__kernel void work_dim(__global uint* out) {
  size_t i = get_global_id(0) + get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2));
  out[i] = get_work_dim();
})");
  cl_kernel k = makeKernel(p, "work_dim");
  std::vector<cl_uint> out(64);
  REQUIRE(clSetKernelArgSVMPointer(k, 0, out.data()) == CL_SUCCESS);
  struct Launch {
    cl_uint dims;
    size_t global[3];
  };
  for (Launch l :
       {Launch{1, {4, 1, 1}}, Launch{2, {4, 1, 1}}, Launch{3, {4, 1, 1}}, Launch{3, {1, 1, 1}},
        Launch{2, {1, 1, 1}}, Launch{2, {4, 3, 1}}, Launch{3, {2, 1, 3}}, Launch{1, {1, 1, 1}}}) {
    INFO("work_dim " << l.dims << ", global " << l.global[0] << "x" << l.global[1] << "x"
                     << l.global[2]);
    std::fill(out.begin(), out.end(), 99u);
    runKernel(fx.queue, k, l.dims, l.global);
    for (size_t i = 0; i < l.global[0] * l.global[1] * l.global[2]; ++i) CHECK(out[i] == l.dims);
  }
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_CASE(
    "Given integer division by zero and of the minimum by -1, then the kernel completes, the "
    "defined lanes are right and the context runs the next kernel",
    "[cl][kernel][undefined]") {
  ClFixture fx;
  // Quotient and remainder in separate kernels: with both of the same operands in one, clang's
  // optimizer writes the remainder with a freeze, which the SPIR-V translator refuses.
  cl_program p = buildSource(fx, R"(
#define DIV_REM(T)                                                                      \
  __kernel void div_##T(__global T* q, __global const T* a, __global const T* b) {      \
    size_t i = get_global_id(0);                                                         \
    q[i] = a[i] / b[i];                                                                  \
  }                                                                                      \
  __kernel void rem_##T(__global T* r, __global const T* a, __global const T* b) {      \
    size_t i = get_global_id(0);                                                         \
    r[i] = a[i] % b[i];                                                                  \
  }
DIV_REM(int)
DIV_REM(long)
DIV_REM(char16)
__kernel void div_scalar(__global uint4* q, __global const uint4* a, uint d) {
  size_t i = get_global_id(0);
  q[i] = a[i] / d;
})");
  // Runs div_<type> into q and rem_<type> into r over n work-items.
  auto divRem = [&](const std::string& type, size_t n, void* a, void* b, void* q, void* r) {
    for (const char* op : {"div_", "rem_"}) {
      cl_kernel k = makeKernel(p, (op + type).c_str());
      REQUIRE(clSetKernelArgSVMPointer(k, 0, *op == 'd' ? q : r) == CL_SUCCESS);
      REQUIRE(clSetKernelArgSVMPointer(k, 1, a) == CL_SUCCESS);
      REQUIRE(clSetKernelArgSVMPointer(k, 2, b) == CL_SUCCESS);
      runKernel(fx.queue, k, 1, &n);
      clReleaseKernel(k);
    }
  };
  SECTION("int and long: every fourth divisor 0, every fifth the minimum by -1") {
    auto run = [&](auto zero, const char* name) {
      using T = decltype(zero);
      const size_t n = 256;
      std::vector<T> q(n), r(n), a(n), b(n);
      for (size_t i = 0; i < n; ++i) {
        a[i] = T(i * 1000003) - T(7000), b[i] = i % 4 == 0 ? 0 : T(i % 13) - 6;
        if (b[i] == 0) b[i] = i % 4 == 0 ? 0 : 3;
        if (i % 5 == 1) a[i] = std::numeric_limits<T>::min(), b[i] = -1;
      }
      divRem(name, n, a.data(), b.data(), q.data(), r.data());
      for (size_t i = 0; i < n; ++i)
        if (b[i] != 0 && !(b[i] == -1 && a[i] == std::numeric_limits<T>::min())) {
          REQUIRE(q[i] == T(a[i] / b[i]));
          REQUIRE(r[i] == T(a[i] % b[i]));
        }
    };
    run(cl_int(0), "int");
    run(cl_long(0), "long");
  }
  SECTION("char16 with zero and -1 lanes") {
    const size_t n = 32;
    AlignedVector<cl_char> q(16 * n), r(16 * n), a(16 * n), b(16 * n);
    for (size_t e = 0; e < 16 * n; ++e) {
      a[e] = cl_char(e * 37), b[e] = cl_char(e % 6 == 0 ? 0 : e % 9 == 0 ? -1 : e % 5 + 1);
      if (e % 9 == 0) a[e] = -128;
    }
    divRem("char16", n, a.data(), b.data(), q.data(), r.data());
    for (size_t e = 0; e < 16 * n; ++e)
      if (b[e] > 0) {
        REQUIRE(q[e] == cl_char(a[e] / b[e]));
        REQUIRE(r[e] == cl_char(a[e] % b[e]));
      }
  }
  SECTION("a uint4 divided by a zero argument") {
    const size_t n = 16;
    std::vector<cl_uint> q(4 * n), a(4 * n, 10);
    cl_kernel k = makeKernel(p, "div_scalar");
    cl_uint d = 0;
    REQUIRE(clSetKernelArgSVMPointer(k, 0, q.data()) == CL_SUCCESS);
    REQUIRE(clSetKernelArgSVMPointer(k, 1, a.data()) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, sizeof d, &d) == CL_SUCCESS);
    runKernel(fx.queue, k, 1, &n);
    d = 3;
    REQUIRE(clSetKernelArg(k, 2, sizeof d, &d) == CL_SUCCESS);
    runKernel(fx.queue, k, 1, &n);  // the context still runs kernels
    for (cl_uint v : q) REQUIRE(v == 10 / 3);
    clReleaseKernel(k);
  }
  clReleaseProgram(p);
}

TEST_CASE(
    "Given __local structs and arrays holding long16, then their addresses are 128-byte aligned",
    "[cl][kernel][local]") {
  ClFixture fx;
  cl_program p = buildSource(fx, R"(
typedef struct { char c; long16 v; } S;
__kernel void aligned(__global ulong* out, __local char* pad, __local long16* arg) {
  __local char c;
  __local S s[2];
  __local long16 v;
  if (get_local_id(0) == 0) {
    c = 1; s[1].c = 2; v = (long16)(3); pad[0] = 4; arg[0] = (long16)(5);
    size_t g = get_group_id(0) * 4;
    out[g] = (ulong)&s[0] % 128 + (ulong)&s[1].v % 128;
    out[g + 1] = (ulong)&v % 128;
    out[g + 2] = (ulong)arg % 128;
    out[g + 3] = c + s[1].c + v.s5 + pad[0] + arg[0].sa;
  }
})");
  cl_kernel k = makeKernel(p, "aligned");
  std::vector<cl_ulong> out(8, 99);
  REQUIRE(clSetKernelArgSVMPointer(k, 0, out.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, 3, nullptr) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 2, 2 * 128, nullptr) == CL_SUCCESS);
  size_t global = 8, local = 4;
  runKernel(fx.queue, k, 1, &global, &local);
  for (int g = 0; g < 2; ++g) {
    INFO("group " << g);
    CHECK(out[g * 4] == 0);
    CHECK(out[g * 4 + 1] == 0);
    CHECK(out[g * 4 + 2] == 0);
    CHECK(out[g * 4 + 3] == 15);
  }
  clReleaseKernel(k);
  clReleaseProgram(p);
}

// any() and all() on every signed integer vector: "Returns 1 if the most significant bit of any
// (all) component of x is set; otherwise returns 0." The translator passes the bool vector as
// <n x i8>; builtin_relational.cpp compares it with zero before reducing.
TEST_CASE(
    "Given any() and all() on char..long vectors of every width, then they test the sign bits",
    "[cl][kernel][relational]") {
  ClFixture fx;
  std::string source;
  for (const char* t : {"char", "short", "int", "long"})
    for (const char* n : {"", "2", "3", "4", "8", "16"})
      source += std::string("__kernel void anyall_") + t + n + "(__global const " + t + n +
                "* v, __global int* out) {\n  size_t i = get_global_id(0);\n"
                "  out[2 * i] = any(v[i]);\n  out[2 * i + 1] = all(v[i]);\n}\n";
  cl_program p = buildSource(fx, source);
  auto check = [&](auto zero, const char* type) {
    using T = decltype(zero);
    for (unsigned n : {1u, 2u, 3u, 4u, 8u, 16u}) {
      const std::string name = std::string("anyall_") + type + (n > 1 ? std::to_string(n) : "");
      INFO(name);
      const unsigned stride = n == 3 ? 4 : n;
      const size_t items = 64;
      AlignedVector<T> v(items * stride);
      // Item i: element e negative when bit e of a pattern of i is set (item 0 none, the last
      // item all, the rest a mix); positive values vary.
      for (size_t i = 0; i < items; ++i) {
        uint32_t bits = i == 0 ? 0u : i == items - 1 ? ~0u : uint32_t(i * 2654435761u);
        for (unsigned e = 0; e < stride; ++e)
          v[i * stride + e] = (bits >> e) & 1 ? T(-1 - T(e)) : T(e + i % 3);
      }
      std::vector<cl_int> out(2 * items, 7);
      cl_kernel k = makeKernel(p, name.c_str());
      REQUIRE(clSetKernelArgSVMPointer(k, 0, v.data()) == CL_SUCCESS);
      REQUIRE(clSetKernelArgSVMPointer(k, 1, out.data()) == CL_SUCCESS);
      runKernel(fx.queue, k, 1, &items);
      for (size_t i = 0; i < items; ++i) {
        bool any = false, all = true;
        for (unsigned e = 0; e < n; ++e) {
          any |= v[i * stride + e] < 0;
          all &= v[i * stride + e] < 0;
        }
        INFO("item " << i);
        CHECK(out[2 * i] == int(any));
        CHECK(out[2 * i + 1] == int(all));
      }
      clReleaseKernel(k);
    }
  };
  check(cl_char(0), "char");
  check(cl_short(0), "short");
  check(cl_int(0), "int");
  check(cl_long(0), "long");
  clReleaseProgram(p);
}

// -cl-fast-relaxed-math lets x / y become x * (1/y); the 3.0 API spec's relaxed-math table still
// bounds it: "x / y: <= 2.5 ulp" (for y and x / y in the normal range). A reciprocal estimate
// refined once left 3 ulp (OpenCL-CTS math_brute_force, divide fp32 rlx).
TEST_CASE("Given -cl-fast-relaxed-math, then float division stays within 2.5 ulp",
          "[cl][kernel][relaxed]") {
  ClFixture fx;
  cl_program p = buildSource(fx, R"(
__kernel void divide(__global const float* x, __global const float* y, __global float* out) {
  size_t i = get_global_id(0);
  out[i] = x[i] / y[i];
})",
                             "-cl-fast-relaxed-math");
  cl_kernel k = makeKernel(p, "divide");
  // A prime count: whatever the group size, some work-items run outside full vectors (where the
  // estimate was scalar rcpss); the CTS's case is at both ends.
  const size_t n = 4093;
  std::vector<float> x(n), y(n), out(n);
  uint32_t seed = 12345;
  auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
  for (size_t i = 0; i < n; ++i) {
    // Significands across [1, 2), exponents within +-40: quotients far from overflow and denormals.
    x[i] = std::ldexp(1.0f + float(next() >> 9) * 0x1p-23f, int(next() % 81) - 40);
    y[i] = std::ldexp(1.0f + float(next() >> 9) * 0x1p-23f, int(next() % 81) - 40);
  }
  for (size_t i : {size_t(0), n - 1}) x[i] = -0x1.09ce42p-38f, y[i] = -0x1.0b2ffap-44f;
  REQUIRE(clSetKernelArgSVMPointer(k, 0, x.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(k, 1, y.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(k, 2, out.data()) == CL_SUCCESS);
  runKernel(fx.queue, k, 1, &n);
  for (size_t i = 0; i < n; ++i) {
    double exact = double(x[i]) / double(y[i]);
    double ulp = std::ldexp(1.0, std::ilogb(exact) - 23);
    INFO("x " << x[i] << " y " << y[i] << " got " << out[i] << " exact " << exact);
    REQUIRE(std::fabs(double(out[i]) - exact) <= 2.5 * ulp);
  }
  // And 48 work-items of the CTS's case alone (a group of 48 on 2 PUs, which went wrong in every
  // work-item).
  const size_t m = 48;
  std::fill_n(x.begin(), m, -0x1.09ce42p-38f);
  std::fill_n(y.begin(), m, -0x1.0b2ffap-44f);
  runKernel(fx.queue, k, 1, &m);
  for (size_t i = 0; i < m; ++i) {
    INFO("work-item " << i << " got " << out[i]);
    REQUIRE(std::fabs(double(out[i]) - double(x[i]) / double(y[i])) <= 2.5 * 0x1p-18);
  }
  clReleaseKernel(k);
  clReleaseProgram(p);
}
