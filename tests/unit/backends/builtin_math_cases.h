// The math builtins' test cases, shared by test_jit_builtin_math.cpp and
// test_jit_builtin_math_special.cpp: long double references, the function tables in the order of
// tests/kernels_jit/builtins_math.cl with the ULP bounds of OpenCL C 1.2 section 7.4 (Tables 7.1
// and 7.2), and running and checking a kernel of that file.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "builtin_reference.h"
#include "jit_test_support.h"

namespace tessera::backends::cpu::test::math_cases {

using L = long double;
const L kPi = 3.141592653589793238462643383279502884L;

// Exact reductions in long double, then the C function (the arguments are floats or doubles, so
// the reductions below are exact).
inline L sinpiRef(L x) {
  if (std::isinf(x)) return NAN;
  L a = std::fabs(std::fmod(x, 2.0L));
  L y = a <= 0.5L ? a : a <= 1.5L ? 1 - a : a - 2;
  L v = std::sin(kPi * y);
  return std::signbit(x) ? -v : v;
}
inline L cospiRef(L x) {
  if (std::isinf(x)) return NAN;
  L a = std::fmod(std::fabs(x), 2.0L);
  if (a > 1) a = 2 - a;
  return a <= 0.25L ? std::cos(kPi * a) : std::sin(kPi * (0.5L - a));
}
inline L tanpiRef(L x) {
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
inline L rootnRef(L x, int n) {
  if (n == 0 || (x < 0 && n % 2 == 0)) return NAN;
  L r = std::pow(std::fabs(x), 1.0L / n);
  return n % 2 != 0 ? std::copysign(r, x) : r;
}
inline L powrRef(L x, L y) {
  if (x < 0 || std::isnan(x) || std::isnan(y)) return NAN;
  if ((x == 0 && y == 0) || (std::isinf(x) && y == 0) || (x == 1 && std::isinf(y))) return NAN;
  return std::pow(std::fabs(x), y);
}
inline L magnitudeRef(L x, L y, bool max) {
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

inline const std::vector<Function>& unaryFunctions() {
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

inline const std::vector<Function>& binaryFunctions() {
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

inline const std::vector<Function>& intFunctions() {
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

// Inputs padded to a multiple of 384 elements: whole float16 / double3 vectors, groups of 8 (16
// widened).
template <typename T>
std::vector<T> padded(std::vector<T> v) {
  while (v.size() % 384 != 0) v.push_back(T(1.25));
  return v;
}

// The module the kernels come from: builtins_math as the JIT compiles it by default, or widened.
inline const CompiledModule* widened = nullptr;

// Runs `kernel` over `elements` elements, `lanes` per work-item (8 work-items per group).
inline void run(const std::string& kernel, const std::vector<void*>& pointers, size_t elements,
                unsigned lanes) {
  const CompiledKernel* found = widened ? widened->find(kernel) : nullptr;
  REQUIRE((widened == nullptr || found != nullptr));
  const CompiledKernel& k = found ? *found : test::kernel("builtins_math", kernel);
  ArgBuffer args(k);
  for (size_t i = 0; i < pointers.size(); ++i) args.set(i, pointers[i]);
  uint32_t items = uint32_t(elements / lanes);
  uint32_t group = widened ? 16 : 8;  // the widened loop needs 16 work-items in x
  launch(k, args.data(), dims1(items / group, group), pool());
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

}  // namespace tessera::backends::cpu::test::math_cases
