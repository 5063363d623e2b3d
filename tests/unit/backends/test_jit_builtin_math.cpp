// The math builtins against long double references within the ULP bounds of OpenCL C 1.2 section
// 7.4 (Tables 7.1 and 7.2), on float and double, scalar and vector (float16, double3), over edge
// values (zeros, infinities, NaN, denormals, the largest values, integers and halves for the pi
// functions) and a spread of ordinary ones; then the special values section 7.5.1 prescribes, to
// the bit. Kernels: tests/kernels_jit/builtins_math.cl; the function lists below follow its order.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "builtin_reference.h"
#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

using L = long double;
const L kPi = 3.141592653589793238462643383279502884L;

// Exact reductions in long double, then the C function (the arguments are floats or doubles, so
// the reductions below are exact).
L sinpiRef(L x) {
  if (std::isinf(x)) return NAN;
  L a = std::fabs(std::fmod(x, 2.0L));
  L y = a <= 0.5L ? a : a <= 1.5L ? 1 - a : a - 2;
  L v = std::sin(kPi * y);
  return std::signbit(x) ? -v : v;
}
L cospiRef(L x) {
  if (std::isinf(x)) return NAN;
  L a = std::fmod(std::fabs(x), 2.0L);
  if (a > 1) a = 2 - a;
  return a <= 0.25L ? std::cos(kPi * a) : std::sin(kPi * (0.5L - a));
}
L tanpiRef(L x) {
  if (std::isinf(x)) return NAN;
  L r = std::fmod(x, 1.0L);
  if (r > 0.5L) r -= 1;
  if (r < -0.5L) r += 1;
  bool odd = std::fmod(std::fabs(x), 2.0L) >= 1;
  bool negative = std::signbit(x) != odd;
  if (r == 0) return negative ? -0.0L : 0.0L;
  if (std::fabs(r) == 0.5L) return negative ? -INFINITY : INFINITY;
  if (std::fabs(r) <= 0.25L) return std::tan(kPi * r);
  return std::copysign(1 / std::tan(kPi * (0.5L - std::fabs(r))), r);
}
L rootnRef(L x, int n) {
  if (n == 0 || (x < 0 && n % 2 == 0)) return NAN;
  L r = std::pow(std::fabs(x), 1.0L / n);
  return n % 2 != 0 ? std::copysign(r, x) : r;
}
L powrRef(L x, L y) {
  if (x < 0 || std::isnan(x) || std::isnan(y)) return NAN;
  if ((x == 0 && y == 0) || (std::isinf(x) && y == 0) || (x == 1 && std::isinf(y))) return NAN;
  return std::pow(std::fabs(x), y);
}
L magnitudeRef(L x, L y, bool max) {
  if (std::fabs(x) > std::fabs(y)) return max ? x : y;
  if (std::fabs(y) > std::fabs(x)) return max ? y : x;
  return max ? std::fmax(x, y) : std::fmin(x, y);
}

struct Function {
  const char* name;
  double floatUlps, doubleUlps;  // the spec's bounds; 0: correctly rounded
  std::function<L(L, L, L)> ref;
  std::function<bool(L, L, L)> defined = nullptr;  // where the spec defines a result
};

#define F1(expr) [](L x, L, L) -> L { return expr; }
#define F2(expr) [](L x, L y, L) -> L { return expr; }

const std::vector<Function>& unaryFunctions() {
  static const std::vector<Function> f = {
      {"acos", 4, 4, F1(std::acos(x))},
      {"acosh", 4, 4, F1(std::acosh(x))},
      {"acospi", 5, 5, F1(std::acos(x) / kPi)},
      {"asin", 4, 4, F1(std::asin(x))},
      {"asinh", 4, 4, F1(std::asinh(x))},
      {"asinpi", 5, 5, F1(std::asin(x) / kPi)},
      {"atan", 5, 5, F1(std::atan(x))},
      {"atanh", 5, 5, F1(std::atanh(x))},
      {"atanpi", 5, 5, F1(std::atan(x) / kPi)},
      {"cbrt", 2, 2, F1(std::cbrt(x))},
      {"ceil", 0, 0, F1(std::ceil(x))},
      {"cos", 4, 4, F1(std::cos(x))},
      {"cosh", 4, 4, F1(std::cosh(x))},
      {"cospi", 4, 4, F1(cospiRef(x))},
      {"erfc", 16, 16, F1(std::erfc(x))},
      {"erf", 16, 16, F1(std::erf(x))},
      {"exp", 3, 3, F1(std::exp(x))},
      {"exp2", 3, 3, F1(std::exp2(x))},
      {"exp10", 3, 3, F1(std::pow(10.0L, x))},
      {"expm1", 3, 3, F1(std::expm1(x))},
      {"fabs", 0, 0, F1(std::fabs(x))},
      {"floor", 0, 0, F1(std::floor(x))},
      // The spec gives lgamma no bound; checked where it is well conditioned (x >= 3).
      {"lgamma", 16, 16, F1(std::lgamma(x)), [](L x, L, L) { return !(x < 3); }},
      {"log", 3, 3, F1(std::log(x))},
      {"log2", 3, 3, F1(std::log2(x))},
      {"log10", 3, 3, F1(std::log10(x))},
      {"log1p", 2, 2, F1(std::log1p(x))},
      {"logb", 0, 0, F1(std::logb(x))},
      {"rint", 0, 0, F1(std::rint(x))},
      {"round", 0, 0, F1(std::round(x))},
      {"rsqrt", 2, 2, F1(1 / std::sqrt(x))},
      {"sin", 4, 4, F1(std::sin(x))},
      {"sinh", 4, 4, F1(std::sinh(x))},
      {"sinpi", 4, 4, F1(sinpiRef(x))},
      {"sqrt", 3, 0, F1(std::sqrt(x))},
      {"tan", 5, 5, F1(std::tan(x))},
      {"tanh", 5, 5, F1(std::tanh(x))},
      {"tanpi", 6, 6, F1(tanpiRef(x))},
      {"tgamma", 16, 16, F1(std::tgamma(x))},
      {"trunc", 0, 0, F1(std::trunc(x))},
      {"degrees", 2, 2, F1(x * 180 / kPi)},
      {"radians", 2, 2, F1(x * kPi / 180)},
      {"sign", 0, 0,
       F1(std::isnan(x) ? 0
          : x > 0       ? 1
          : x < 0       ? -1
                        : x)},
  };
  return f;
}

const std::vector<Function>& binaryFunctions() {
  static const std::vector<Function> f = {
      {"atan2", 6, 6, F2(std::atan2(x, y))},
      {"atan2pi", 6, 6, F2(std::atan2(x, y) / kPi)},
      {"copysign", 0, 0, F2(std::copysign(x, y))},
      {"fdim", 0, 0, F2(std::fdim(x, y))},
      {"fmax", 0, 0, F2(std::fmax(x, y))},
      {"fmin", 0, 0, F2(std::fmin(x, y))},
      {"fmod", 0, 0, F2(std::fmod(x, y))},
      {"hypot", 4, 4, F2(std::hypot(x, y))},
      {"maxmag", 0, 0, F2(magnitudeRef(x, y, true))},
      {"minmag", 0, 0, F2(magnitudeRef(x, y, false))},
      {"nextafter", 0, 0, nullptr},  // in T, below
      {"pow", 16, 16, F2(std::pow(x, y))},
      {"powr", 16, 16, F2(powrRef(x, y))},
      {"remainder", 0, 0, F2(std::remainder(x, y))},
      {"step", 0, 0, F2(y < x ? 0 : 1)},
  };
  return f;
}

const std::vector<Function>& intFunctions() {
  static const std::vector<Function> f = {
      {"ldexp", 0, 0, F2(std::ldexp(x, int(y)))},
      {"pown", 16, 16, F2(std::pow(x, y))},
      {"rootn", 16, 16, F2(rootnRef(x, int(y)))},
  };
  return f;
}

// clamp, mix and smoothstep are defined for ordered bounds and weights in [0, 1] only.
template <typename T>
const std::vector<Function>& ternaryFunctions() {
  static const std::vector<Function> f = {
      {"fma", 0, 0, [](L x, L y, L z) -> L { return std::fma(T(x), T(y), T(z)); }},
      {"mad", INFINITY, INFINITY, nullptr},  // "any value allowed"
      {"clamp", 0, 0, [](L x, L y, L z) -> L { return std::fmin(std::fmax(x, y), z); },
       [](L, L y, L z) { return y <= z; }},
      {"mix", 0, 0, [](L x, L y, L a) -> L { return T(T(x) + T(T(T(y) - T(x)) * T(a))); },
       [](L, L, L a) { return a >= 0 && a <= 1; }},
      {"smoothstep", 4, 4,
       [](L e0, L e1, L x) -> L {
         T t = std::fmin(std::fmax(T(T(T(x) - T(e0)) / T(T(e1) - T(e0))), T(0)), T(1));
         return T(T(t * t) * T(T(3) - T(T(2) * t)));
       },
       [](L e0, L e1, L) { return e0 < e1 && std::isfinite(e1 - e0); }},
  };
  return f;
}

template <typename T>
const char* typeName() {
  return sizeof(T) == 4 ? "float" : "double";
}

// Inputs padded to a multiple of 384 elements: whole float16 / double3 vectors, groups of 8.
template <typename T>
std::vector<T> padded(std::vector<T> v) {
  while (v.size() % 384 != 0) v.push_back(T(1.25));
  return v;
}

// Runs `kernel` over `elements` elements, `lanes` per work-item (8 work-items per group).
void run(const std::string& kernel, const std::vector<void*>& pointers, size_t elements,
         unsigned lanes) {
  const CompiledKernel& k = test::kernel("builtins_math", kernel);
  ArgBuffer args(k);
  for (size_t i = 0; i < pointers.size(); ++i) args.set(i, pointers[i]);
  uint32_t items = uint32_t(elements / lanes);
  launch(k, args.data(), dims1(items / 8, 8), pool());
}

// Checks out[k * n + e] against functions[k] on (x[e], y[e], z[e]); reports the first failures of
// each function.
template <typename T>
void check(const std::string& kernel, const std::vector<Function>& functions,
           const std::vector<T>& out, const std::vector<T>& x, const std::vector<T>& y,
           const std::vector<T>& z, const std::vector<int>* ints = nullptr) {
  size_t n = x.size();
  for (size_t k = 0; k < functions.size(); ++k) {
    const Function& f = functions[k];
    double bound = allowed(sizeof(T) == 4 ? f.floatUlps : f.doubleUlps) + 1e-3;
    int failures = 0;
    for (size_t e = 0; e < n && failures < 3; ++e) {
      L a = x[e], b = ints ? L((*ints)[e]) : y.empty() ? 0 : L(y[e]), c = z.empty() ? 0 : z[e];
      if (f.defined && !f.defined(a, b, c)) continue;
      T got = out[k * n + e];
      L ref = 0;
      if (std::string(f.name) == "nextafter") {
        ref = std::nextafter(T(a), T(b));
      } else if (!f.ref) {
        continue;
      } else {
        ref = f.ref(a, b, c);
      }
      double error = ulpError<T>(got, ref);
      if (error > bound) {
        ++failures;
        FAIL_CHECK(kernel << ": " << f.name << "(" << double(a) << ", " << double(b) << ", "
                          << double(c) << ") = " << double(got) << ", reference " << double(ref)
                          << ": " << error << " ulp (bound " << bound << ")");
      }
    }
  }
}

template <typename T>
void checkUnary(unsigned lanes) {
  std::string kernel = std::string("unary_") + typeName<T>() + std::to_string(lanes);
  std::vector<T> x = edgeValues<T>();
  for (T v : {T(0.125), T(0.375), T(0.625), T(1.25), T(-3.5), T(4.5), T(5.75), T(1e6) + T(0.5),
              T(1e7) + T(1), T(-1e7) - T(1), T(0x1p30), T(0.49999997), T(0.50000006), T(1.0000001),
              T(-0.99999994), T(0.999999), T(-0.9999)}) {
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

template <typename T>
std::vector<T> unaryOf(const std::string& function, std::vector<T> x) {
  size_t k = 0;
  while (unaryFunctions()[k].name != function) ++k;
  size_t count = x.size();
  x = padded(x);
  std::vector<T> out(unaryFunctions().size() * x.size());
  run(std::string("unary_") + typeName<T>() + "1", {x.data(), out.data()}, x.size(), 1);
  return std::vector<T>(out.begin() + long(k * x.size()), out.begin() + long(k * x.size() + count));
}

// Same value and, for zeros, the same sign; NaN for NaN.
template <typename T>
bool same(T got, T want) {
  if (std::isnan(want)) return std::isnan(got);
  return got == want && std::signbit(got) == std::signbit(want);
}

template <typename T>
void checkPiSpecialValues() {
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  auto expect = [](const char* f, const std::vector<std::pair<T, T>>& cases) {
    std::vector<T> x;
    for (auto& c : cases) x.push_back(c.first);
    std::vector<T> got = unaryOf<T>(f, x);
    for (size_t i = 0; i < cases.size(); ++i) {
      INFO(typeName<T>() << " " << f << "(" << cases[i].first << ") = " << got[i] << ", want "
                         << cases[i].second);
      CHECK(same(got[i], cases[i].second));
    }
  };
  // OpenCL C 1.2, 7.5.1.
  expect("sinpi", {{T(0), T(0)},
                   {T(-0.0), T(-0.0)},
                   {T(1), T(0)},
                   {T(-1), T(-0.0)},
                   {T(2), T(0)},
                   {T(-7), T(-0.0)},
                   {T(1e30), T(0)},
                   {T(-1e30), T(-0.0)},
                   {T(0.5), T(1)},
                   {T(-0.5), T(-1)},
                   {T(1.5), T(-1)},
                   {inf, nan},
                   {-inf, nan},
                   {nan, nan}});
  expect("cospi", {{T(0), T(1)},
                   {T(-0.0), T(1)},
                   {T(0.5), T(0)},
                   {T(-0.5), T(0)},
                   {T(1.5), T(0)},
                   {T(-2.5), T(0)},
                   {T(1), T(-1)},
                   {T(-3), T(-1)},
                   {T(1e30), T(1)},
                   {inf, nan},
                   {nan, nan}});
  expect("tanpi", {{T(0), T(0)},
                   {T(-0.0), T(-0.0)},
                   {T(1), T(-0.0)},
                   {T(-1), T(0)},
                   {T(2), T(0)},
                   {T(-2), T(-0.0)},
                   {T(0.5), inf},
                   {T(1.5), -inf},
                   {T(-0.5), -inf},
                   {T(-1.5), inf},
                   {T(2.5), inf},
                   {inf, nan}});
  expect("asinpi",
         {{T(0), T(0)}, {T(-0.0), T(-0.0)}, {T(1), T(0.5)}, {T(-1), T(-0.5)}, {T(2), nan}});
  expect("acospi", {{T(1), T(0)}, {T(-1), T(1)}, {T(0), T(0.5)}, {T(1.5), nan}});
  expect("atanpi", {{T(0), T(0)},
                    {T(-0.0), T(-0.0)},
                    {inf, T(0.5)},
                    {-inf, T(-0.5)},
                    {T(1), T(0.25)},
                    {T(-1), T(-0.25)}});
}

TEST_CASE(
    "Given sinpi, cospi, tanpi, asinpi, acospi and atanpi, when given the spec's special "
    "values, then results are exact with the spec's signs",
    "[jit][builtins][math]") {
  checkPiSpecialValues<float>();
  checkPiSpecialValues<double>();
}

template <typename T>
void checkBinarySpecialValues() {
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  struct Case {
    const char* f;
    T x, y, want;
  };
  std::vector<Case> cases = {
      {"atan2pi", T(0), T(-0.0), T(1)}, {"atan2pi", T(-0.0), T(-0.0), T(-1)},
      {"atan2pi", T(0), T(0), T(0)},    {"atan2pi", T(-0.0), T(0), T(-0.0)},
      {"atan2pi", T(0), T(-2), T(1)},   {"atan2pi", T(-0.0), T(-2), T(-1)},
      {"atan2pi", T(2), T(-inf), T(1)}, {"atan2pi", T(-2), T(-inf), T(-1)},
      {"atan2pi", inf, inf, T(0.25)},   {"atan2pi", -inf, inf, T(-0.25)},
      {"atan2pi", inf, -inf, T(0.75)},  {"atan2pi", -inf, -inf, T(-0.75)},
      {"atan2pi", inf, T(3), T(0.5)},   {"atan2pi", T(1), T(1), T(0.25)},
      {"powr", T(-1), T(2), nan},       {"powr", T(0), T(0), nan},
      {"powr", T(-0.0), T(0), nan},     {"powr", inf, T(0), nan},
      {"powr", inf, T(-0.0), nan},      {"powr", T(1), inf, nan},
      {"powr", T(1), -inf, nan},        {"powr", T(1), nan, nan},
      {"powr", nan, T(0), nan},         {"powr", T(0), T(-1), inf},
      {"powr", T(-0.0), T(-3), inf},    {"powr", T(-0.0), -inf, inf},
      {"powr", T(-0.0), T(3), T(0)},    {"powr", T(2), T(0), T(1)},
      {"powr", T(1), T(7), T(1)},       {"powr", T(4), T(0.5), T(2)},
      {"maxmag", T(-3), T(2), T(-3)},   {"maxmag", T(-2), T(2), T(2)},
      {"maxmag", nan, T(2), T(2)},      {"minmag", T(-3), T(2), T(2)},
      {"minmag", T(-2), T(2), T(-2)},   {"minmag", T(2), nan, T(2)},
  };
  std::vector<T> x, y;
  for (const Case& c : cases) x.push_back(c.x), y.push_back(c.y);
  size_t count = x.size();
  x = padded(x), y = padded(y);
  std::vector<T> out(binaryFunctions().size() * x.size());
  run(std::string("binary_") + typeName<T>() + "1", {x.data(), y.data(), out.data()}, x.size(), 1);
  for (size_t i = 0; i < count; ++i) {
    size_t k = 0;
    while (binaryFunctions()[k].name != std::string(cases[i].f)) ++k;
    T got = out[k * x.size() + i];
    INFO(typeName<T>() << " " << cases[i].f << "(" << cases[i].x << ", " << cases[i].y
                       << ") = " << got << ", want " << cases[i].want);
    CHECK(same(got, cases[i].want));
  }
}

TEST_CASE(
    "Given atan2pi, powr, maxmag and minmag, when given the spec's special values, then "
    "results are exact",
    "[jit][builtins][math]") {
  checkBinarySpecialValues<float>();
  checkBinarySpecialValues<double>();
}

template <typename T>
void checkIntSpecialValues() {
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  struct Case {
    const char* f;
    T x;
    int n;
    T want;
  };
  std::vector<Case> cases = {
      // "pown(x, 0) is 1 for any x, even zero, NaN or infinity"; the sign of an odd exponent.
      {"pown", T(-1), 2147483647, T(-1)},
      {"pown", T(-1), -2147483647 - 1, T(1)},
      {"pown", T(-1), 2147483646, T(1)},
      {"pown", nan, 0, T(1)},
      {"pown", T(-0.0), -3, -inf},
      {"pown", T(0), -2, inf},
      {"pown", T(-0.0), 3, T(-0.0)},
      {"pown", T(-2), 3, T(-8)},
      {"rootn", T(-0.0), -3, -inf},
      {"rootn", T(0), -3, inf},
      {"rootn", T(-0.0), -2, inf},
      {"rootn", T(-0.0), 2, T(0)},
      {"rootn", T(-0.0), 3, T(-0.0)},
      {"rootn", T(-8), 2, nan},
      {"rootn", T(8), 0, nan},
      {"rootn", T(-8), 3, T(-2)},
      {"rootn", T(16), 4, T(2)},
      {"rootn", inf, 3, inf},
      {"rootn", -inf, 3, -inf},
      {"rootn", inf, -3, T(0)},
      {"ldexp", std::numeric_limits<T>::denorm_min(), 1, 2 * std::numeric_limits<T>::denorm_min()},
      {"ldexp", T(1), -2147483647 - 1, T(0)},
      {"ldexp", T(1), 2147483647, inf},
  };
  std::vector<T> x;
  std::vector<int> n;
  for (const Case& c : cases) x.push_back(c.x), n.push_back(c.n);
  size_t count = x.size();
  x = padded(x);
  n.resize(x.size(), 1);
  std::vector<T> out(intFunctions().size() * x.size());
  std::vector<int> logb(x.size());
  run(std::string("with_int_") + typeName<T>() + "1", {x.data(), n.data(), out.data(), logb.data()},
      x.size(), 1);
  for (size_t i = 0; i < count; ++i) {
    size_t k = 0;
    while (intFunctions()[k].name != std::string(cases[i].f)) ++k;
    T got = out[k * x.size() + i];
    INFO(typeName<T>() << " " << cases[i].f << "(" << cases[i].x << ", " << cases[i].n
                       << ") = " << got << ", want " << cases[i].want);
    CHECK(same(got, cases[i].want));
  }
}

TEST_CASE(
    "Given pown, rootn and ldexp, when given the spec's special values, then results are "
    "exact (pown(-1, 2147483647) is -1)",
    "[jit][builtins][math]") {
  checkIntSpecialValues<float>();
  checkIntSpecialValues<double>();
}

}  // namespace
}  // namespace tessera::backends::cpu::test
