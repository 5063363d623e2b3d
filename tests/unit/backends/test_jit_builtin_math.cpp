// The math builtins against long double references within the ULP bounds of OpenCL C 1.2 section
// 7.4 (Tables 7.1 and 7.2), on float and double, scalar and vector (float16, double3), over edge
// values (zeros, infinities, NaN, denormals, the largest values, integers and halves for the pi
// functions) and a spread of ordinary ones, also widened across work-items; half_ and native_
// functions; scalar operands of vector builtins and nan(code). Cases: builtin_math_cases.h; the
// special values are in test_jit_builtin_math_special.cpp.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "builtin_math_cases.h"

namespace tessera::backends::cpu::test {
namespace {

using namespace math_cases;

template <typename T>
void checkUnary(unsigned lanes) {
  std::string kernel = std::string("unary_") + typeName<T>() + std::to_string(lanes);
  std::vector<T> x = edgeValues<T>();
  for (T v : {T(0.125), T(0.375), T(0.625), T(1.25), T(-3.5), T(4.5), T(5.75), T(1e6) + T(0.5),
              T(1e7) + T(1), T(-1e7) - T(1), T(0x1p30), T(0.49999997), T(0.50000006), T(1.0000001),
              T(-0.99999994), T(0.999999), T(-0.9999),
              // glibc's cbrt is 2.8 ulp off here (the spec allows 2)
              T(0x1.84d598f0ba5d6p-25), T(-0x1.98712a6839b9ap-2)}) {
    x.push_back(v);
  }
  x = padded(x);
  std::vector<T> out(unaryFunctions().size() * x.size());
  run(kernel, {x.data(), out.data()}, x.size(), lanes);
  check<T>(kernel, unaryFunctions(), out, x, {}, {});
}

// Pairs of a subset of the edge values.
template <typename T>
void pairs(std::vector<T>* x, std::vector<T>* y) {
  std::vector<T> v = edgeValues<T>();
  v.resize(60);
  for (T a : v)
    for (T b : v) x->push_back(a), y->push_back(b);
  *x = padded(*x);
  *y = padded(*y);
}

template <typename T>
void checkBinary(unsigned lanes) {
  std::string kernel = std::string("binary_") + typeName<T>() + std::to_string(lanes);
  std::vector<T> x, y;
  pairs(&x, &y);
  std::vector<T> out(binaryFunctions().size() * x.size());
  run(kernel, {x.data(), y.data(), out.data()}, x.size(), lanes);
  check<T>(kernel, binaryFunctions(), out, x, y, {});
}

template <typename T>
void checkTernary(unsigned lanes) {
  std::string kernel = std::string("ternary_") + typeName<T>() + std::to_string(lanes);
  std::vector<T> v = edgeValues<T>();
  std::vector<T> x, y, z;
  for (size_t e = 0; e < 2000; ++e) {
    x.push_back(v[e % v.size()]);
    y.push_back(v[(e * 7 + 3) % v.size()]);
    z.push_back(e % 5 == 0 ? T(e % 11) / 10 : v[(e * 13 + 5) % v.size()]);
  }
  x = padded(x), y = padded(y), z = padded(z);
  std::vector<T> out(ternaryFunctions<T>().size() * x.size());
  run(kernel, {x.data(), y.data(), z.data(), out.data()}, x.size(), lanes);
  check<T>(kernel, ternaryFunctions<T>(), out, x, y, z);
}

template <typename T>
void checkWithInt(unsigned lanes) {
  std::string kernel = std::string("with_int_") + typeName<T>() + std::to_string(lanes);
  std::vector<T> v = edgeValues<T>();
  std::vector<int> exponents = {0,
                                1,
                                -1,
                                2,
                                -2,
                                3,
                                -3,
                                5,
                                7,
                                64,
                                -64,
                                127,
                                128,
                                -149,
                                -1074,
                                1023,
                                1024,
                                2147483647,
                                -2147483647 - 1,
                                1000000,
                                -1000000,
                                12,
                                -12,
                                4};
  std::vector<T> x;
  std::vector<int> n;
  for (T a : v)
    for (int e : exponents) x.push_back(a), n.push_back(e);
  x = padded(x);
  while (n.size() < x.size()) n.push_back(3);
  std::vector<T> out(intFunctions().size() * x.size());
  std::vector<int> logb(x.size());
  run(kernel, {x.data(), n.data(), out.data(), logb.data()}, x.size(), lanes);
  check<T>(kernel, intFunctions(), out, x, {}, {}, &n);
  for (size_t e = 0; e < x.size(); ++e) {
    int ref = x[e] == 0                              ? INT_MIN
              : std::isnan(x[e]) || std::isinf(x[e]) ? INT_MAX
                                                     : std::ilogb(x[e]);
    INFO(kernel << ": ilogb(" << x[e] << ")");
    REQUIRE(logb[e] == ref);
  }
}

TEST_CASE(
    "Given the unary math builtins, when run on float, float16, double and double3, then "
    "every result is within the spec's ulp bound",
    "[jit][builtins][math]") {
  checkUnary<float>(1);
  checkUnary<float>(16);
  checkUnary<double>(1);
  checkUnary<double>(3);
}

TEST_CASE(
    "Given the binary math builtins, when run on pairs of edge values, then every result "
    "is within the spec's ulp bound",
    "[jit][builtins][math]") {
  checkBinary<float>(1);
  checkBinary<float>(16);
  checkBinary<double>(1);
  checkBinary<double>(3);
}

TEST_CASE("Given fma, clamp, mix and smoothstep, when run, then results match the host",
          "[jit][builtins][math]") {
  checkTernary<float>(1);
  checkTernary<float>(16);
  checkTernary<double>(1);
  checkTernary<double>(3);
}

TEST_CASE(
    "Given ldexp, pown, rootn and ilogb, when run with integer arguments from 0 to INT_MIN, "
    "then results are within the spec's bound",
    "[jit][builtins][math]") {
  checkWithInt<float>(1);
  checkWithInt<float>(16);
  checkWithInt<double>(1);
  checkWithInt<double>(3);
}

TEST_CASE(
    "Given the math builtins widened across 16 work-items, when run, then results are "
    "the same as unwidened",
    "[jit][builtins][math][widen]") {
  CompileOptions options;
  options.widen = 16;  // every region the widening accepts, 16 work-items per iteration
  std::shared_ptr<const CompiledModule> module = readAndCompile("builtins_math", options);
  widened = module.get();
  for (const char* k : {"unary_float1", "unary_double1", "with_int_float1", "binary_double1"}) {
    INFO(k);
    REQUIRE(module->find(k)->widen.widenedRegions > 0);
  }
  checkUnary<float>(1);
  checkUnary<double>(1);
  checkWithInt<float>(1);
  checkBinary<double>(1);
  widened = nullptr;
}

TEST_CASE("Given the half_ and native_ functions, when run, then they are within 8192 ulp",
          "[jit][builtins][math]") {
  std::vector<float> x;
  for (float v : edgeValues<float>())
    if (std::isfinite(v) && std::fabs(v) < 0x1p16f && v != 0) x.push_back(v);
  while (x.size() % 8 != 0) x.push_back(1.5f);
#define G1(expr) [](L x) -> L { return expr; }
  std::vector<std::pair<const char*, std::function<L(L)>>> f = {
      {"cos", G1(std::cos(x))},        {"exp", G1(std::exp(x))},
      {"exp2", G1(std::exp2(x))},      {"exp10", G1(std::pow(10.0L, x))},
      {"log", G1(std::log(x))},        {"log2", G1(std::log2(x))},
      {"log10", G1(std::log10(x))},    {"recip", G1(1 / x)},
      {"rsqrt", G1(1 / std::sqrt(x))}, {"sin", G1(std::sin(x))},
      {"sqrt", G1(std::sqrt(x))},      {"tan", G1(std::tan(x))}};
#undef G1
  std::vector<float> out((2 * f.size() + 4) * x.size());
  run("half_native_float", {x.data(), out.data()}, x.size(), 1);
  size_t n = x.size();
  for (size_t e = 0; e < n; ++e) {
    for (size_t k = 0; k < 2 * f.size(); ++k) {
      L ref = f[k % f.size()].second(x[e]);
      INFO((k < f.size() ? "half_" : "native_") << f[k % f.size()].first << "(" << x[e] << ")");
      CHECK(ulpError<float>(out[k * n + e], ref) <= 8192);
    }
    L y = x[n - 1 - e];
    size_t k = 2 * f.size();
    CHECK(ulpError<float>(out[k * n + e], L(x[e]) / y) <= 8192);
    CHECK(ulpError<float>(out[(k + 1) * n + e], L(x[e]) / y) <= 8192);
    CHECK(ulpError<float>(out[(k + 2) * n + e], powrRef(std::fabs(L(x[e])), y)) <= 8192);
    CHECK(ulpError<float>(out[(k + 3) * n + e], powrRef(std::fabs(L(x[e])), y)) <= 8192);
  }
}

TEST_CASE(
    "Given scalar operands with vector builtins and nan(code), when run, then scalars "
    "apply to every lane and nan carries the code",
    "[jit][builtins][math]") {
  const CompiledKernel& k = kernel("builtins_math", "mixed_scalars");
  const size_t n = 8;
  AlignedVector<float> x(4 * n), out(24 * n);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(int(i) - 13) * 0.375f;
  std::vector<uint32_t> nans(n);
  std::vector<uint64_t> dnans(n);
  ArgBuffer args(k);
  args.set(0, x.data()).set(1, out.data()).set(2, nans.data()).set(3, dnans.data());
  launch(k, args.data(), dims1(1, n), pool());
  for (size_t i = 0; i < n; ++i) {
    for (size_t c = 0; c < 4; ++c) {
      float v = x[4 * i + c];
      const float* o = &out[24 * i + c];
      INFO("x = " << v);
      CHECK(o[0] == std::ldexp(v, 3));
      CHECK(o[4] == std::fmax(v, 0.5f));
      CHECK(o[8] == std::fmin(std::fmax(v, -1.0f), 1.0f));
      CHECK(o[12] == v + (2.0f - v) * 0.25f);
      CHECK(o[16] == (v < 0.5f ? 0.0f : 1.0f));
      float t = std::fmin(std::fmax((v + 1.0f) / 3.0f, 0.0f), 1.0f);
      CHECK(o[20] == t * t * (3.0f - 2.0f * t));
    }
    CHECK(nans[i] == (0x7FC00000u | uint32_t(i + 1)));
    CHECK(dnans[i] == (0x7FF8000000000000ull | uint64_t(i + 1)));
  }
}

}  // namespace
}  // namespace tessera::backends::cpu::test
