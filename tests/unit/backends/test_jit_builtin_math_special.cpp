// The math builtins' special values (OpenCL C 1.2, 7.5.1) to the bit: zeros with their signs,
// infinities, NaN, for the pi functions, atan2pi, powr, pown, rootn, ldexp, maxmag and minmag; and
// a longer sweep run by hand. Kernels: tests/kernels_jit/builtins_math.cl.
#include <catch2/catch.hpp>

#include <climits>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "builtin_math_cases.h"

namespace tessera::backends::cpu::test {
namespace {

using namespace math_cases;

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

// The quotient's 7 low bits remquo must store, computed in long double: |x| mod 128|y| (exact) has
// the quotient of x / y modulo 128.
template <typename T>
int quotientBits(T x, T y) {
  L reduced = std::fmod(std::fabs(L(x)), 128 * std::fabs(L(y)));
  L k = std::rint((reduced - std::remainder(reduced, std::fabs(L(y)))) / std::fabs(L(y)));
  int bits = int(k) & 127;
  return std::signbit(x) != std::signbit(y) ? -bits : bits;
}

template <typename T>
void checkRemquo(const char* kernel, unsigned lanes) {
  INFO(kernel);
  const CompiledKernel& k = test::kernel("builtins_math", kernel);
  std::vector<T> v = edgeValues<T>();
  v.resize(50);
  std::vector<T> x, y;
  for (T a : v)
    for (T b : v) x.push_back(a), y.push_back(b);
  // OpenCL-CTS math_brute_force: glibc's remquo gives 5 and 6 here (3 bits), 125 and 46 are right.
  x.push_back(T(-0x1.c192a8p+85)), y.push_back(T(-0x1.a46de6p+26));
  x.push_back(T(0x1.08000000005ffp+967)), y.push_back(T(0x1.9effffffffee7p+816));
  // x - remainder(x, y) overflows: -2 and 3.
  x.push_back(T(-0x1.bef9b6p+127)), y.push_back(T(0x1.1c12b6p+127));
  if (sizeof(T) == 8)
    x.push_back(T(0x1.bc00000000743p+1023)), y.push_back(T(0x1.59ffffffff894p+1022));
  while (x.size() % 4 != 0) x.push_back(T(7)), y.push_back(T(2));
  std::vector<T> r(x.size());
  std::vector<int> q(x.size());
  ArgBuffer args(k);
  args.set(0, static_cast<void*>(x.data())).set(1, static_cast<void*>(y.data()));
  args.set(2, static_cast<void*>(r.data())).set(3, static_cast<void*>(q.data()));
  launch(k, args.data(), dims1(uint32_t(x.size() / lanes), 1), pool());
  for (size_t i = 0; i < x.size(); ++i) {
    INFO("remquo(" << x[i] << ", " << y[i] << ") = " << r[i] << ", " << q[i]);
    T want = std::remainder(x[i], y[i]);
    CHECK(same(r[i], want));
    if (std::isfinite(x[i]) && std::isfinite(y[i]) && y[i] != 0 && !std::isnan(want)) {
      CHECK(q[i] == quotientBits(x[i], y[i]));
    }
  }
}

TEST_CASE(
    "Given remquo, when quotients exceed 7 bits, then quo holds their 7 low bits with the "
    "sign of x / y",
    "[jit][builtins][math]") {
  checkRemquo<float>("remquo_float", 1);
  checkRemquo<float>("remquo_float4", 4);
  checkRemquo<double>("remquo_double", 1);
}

// A longer sweep, run by hand ([.sweep] is hidden): 2^18 inputs per type spread over the exponent
// range (and 2^16 in [-4, 4]), every unary function, the largest error of each printed.
template <typename T>
void sweepUnary() {
  std::vector<T> x;
  uint64_t s = 2024;
  for (size_t i = 0; i < (size_t{1} << 18); ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    double m = 1.0 + double(s >> 12) / double(uint64_t{1} << 52);
    int range = i % 4 == 0 ? 2 * std::numeric_limits<T>::max_exponent : 60;
    int e = int((s >> 5) % uint64_t(range)) - range / 2;
    if (i % 4 == 1) m = double(int64_t(s >> 40) - (int64_t{1} << 23)) / double(1 << 21), e = 0;
    x.push_back(T(std::ldexp(m, e) * ((s & 1) ? -1 : 1)));
  }
  x = padded(x);
  std::vector<T> out(unaryFunctions().size() * x.size());
  run(std::string("unary_") + typeName<T>() + "1", {x.data(), out.data()}, x.size(), 1);
  for (size_t k = 0; k < unaryFunctions().size(); ++k) {
    const Function& f = unaryFunctions()[k];
    double worst = 0;
    T at = 0;
    for (size_t e = 0; e < x.size(); ++e) {
      if (f.defined && !f.defined(x[e], 0, 0)) continue;
      double error = ulpError<T>(out[k * x.size() + e], f.ref(x[e], 0, 0));
      if (error > worst) worst = error, at = x[e];
    }
    WARN(typeName<T>() << " " << f.name << ": max " << worst << " ulp at " << double(at));
    CHECK(worst <= allowed(sizeof(T) == 4 ? f.floatUlps : f.doubleUlps) + 1e-3);
  }
}

// The same for the binary functions and those with an int (n in [-40, 40]).
template <typename T>
void sweepBinary() {
  std::vector<T> x, y;
  std::vector<int> n;
  uint64_t s = 4048;
  auto next = [&](int range) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    double m = 1.0 + double(s >> 12) / double(uint64_t{1} << 52);
    int e = int((s >> 5) % uint64_t(range)) - range / 2;
    return T(std::ldexp(m, e) * ((s & 1) ? -1 : 1));
  };
  for (size_t i = 0; i < (size_t{1} << 17); ++i) {
    x.push_back(next(i % 3 == 0 ? 2 * std::numeric_limits<T>::max_exponent : 20));
    y.push_back(i % 2 ? next(12) : T(std::trunc(next(14))));
    n.push_back(int((s >> 20) % 81) - 40);
  }
  x = padded(x), y = padded(y);
  n.resize(x.size(), 3);
  std::vector<T> out(binaryFunctions().size() * x.size()), outInt(intFunctions().size() * x.size());
  std::vector<int> logb(x.size());
  run(std::string("binary_") + typeName<T>() + "1", {x.data(), y.data(), out.data()}, x.size(), 1);
  run(std::string("with_int_") + typeName<T>() + "1",
      {x.data(), n.data(), outInt.data(), logb.data()}, x.size(), 1);
  auto report = [&](const std::vector<Function>& functions, const std::vector<T>& results,
                    bool withInt) {
    for (size_t k = 0; k < functions.size(); ++k) {
      const Function& f = functions[k];
      if (!f.ref) continue;
      double worst = 0;
      size_t at = 0;
      for (size_t e = 0; e < x.size(); ++e) {
        L second = withInt ? L(n[e]) : L(y[e]);
        double error = ulpError<T>(results[k * x.size() + e], f.ref(x[e], second, 0));
        if (error > worst) worst = error, at = e;
      }
      WARN(typeName<T>() << " " << f.name << ": max " << worst << " ulp at (" << double(x[at])
                         << ", " << (withInt ? double(n[at]) : double(y[at])) << ")");
      CHECK(worst <= allowed(sizeof(T) == 4 ? f.floatUlps : f.doubleUlps) + 1e-3);
    }
  };
  report(binaryFunctions(), out, false);
  report(intFunctions(), outInt, true);
}

TEST_CASE(
    "Given many random inputs, when every unary math builtin runs, then the largest error "
    "is within the spec's bound",
    "[.sweep]") {
  sweepUnary<float>();
  sweepUnary<double>();
  sweepBinary<float>();
  sweepBinary<double>();
}

}  // namespace
}  // namespace tessera::backends::cpu::test
