// Host references for the builtin tests: the error of a float or double result in ulps against a
// long double reference, as OpenCL C 1.2 section 7.4 measures it, and the edge values the tests
// feed every function.
#pragma once

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include "guarded_test_data.h"

namespace tessera::backends::cpu::test {

// Buffers a kernel reads as vectors (int8, double16: up to 128 bytes): aligned to 128 bytes, or
// in the guard-page mode flush with an inaccessible page (tests/support/guarded_test_data.h).
template <typename T>
struct VectorAligned {
  using value_type = T;
  VectorAligned() = default;
  template <typename U>
  VectorAligned(const VectorAligned<U>&) {}
  T* allocate(size_t n) {
    return static_cast<T*>(tessera::test::allocateTestData(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) { tessera::test::freeTestData(p, n * sizeof(T)); }
  template <typename U>
  bool operator==(const VectorAligned<U>&) const {
    return true;
  }
  template <typename U>
  bool operator!=(const VectorAligned<U>&) const {
    return false;
  }
};
template <typename T>
using AlignedVector = std::vector<T, VectorAligned<T>>;

// |got - ref| in units of the last place of `ref` in T (the smallest denormal below T's normal
// range). NaN must answer NaN; an infinite result is exact only where the reference rounds to it.
template <typename T>
double ulpError(T got, long double ref) {
  if (std::isnan(ref)) return std::isnan(got) ? 0 : INFINITY;
  if (std::isnan(got)) return INFINITY;
  if (std::isinf(got)) return static_cast<T>(ref) == got ? 0 : INFINITY;
  if (std::isinf(ref)) return INFINITY;
  int e = ref == 0 ? INT_MIN : std::ilogb(ref);
  int minExponent = std::numeric_limits<T>::min_exponent - 1;
  int digits = std::numeric_limits<T>::digits - 1;
  long double ulp = std::ldexp(1.0L, std::max(e, minExponent) - digits);
  return static_cast<double>(std::fabs(static_cast<long double>(got) - ref) / ulp);
}

// The spec's bound for a function (ulps; 0 means correctly rounded) as the largest error allowed.
inline double allowed(double specUlps) {
  return specUlps == 0 ? 0.5 : specUlps;
}

// Edge values and a spread of ordinary ones, for float or double.
template <typename T>
std::vector<T> edgeValues() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {T(0),
                      T(-0.0),
                      L::infinity(),
                      -L::infinity(),
                      L::quiet_NaN(),
                      L::min(),
                      -L::min(),
                      L::denorm_min(),
                      -L::denorm_min(),
                      L::min() - L::denorm_min(),
                      L::max(),
                      -L::max(),
                      T(1),
                      T(-1),
                      T(0.5),
                      T(-0.5),
                      T(0.25),
                      T(0.75),
                      T(1.5),
                      T(-1.5),
                      T(2),
                      T(2.5),
                      T(-2.5),
                      T(3),
                      T(-3),
                      T(4),
                      T(0.1),
                      T(-0.1),
                      T(1e-3),
                      T(-7.25),
                      T(10),
                      T(-10),
                      T(100.5),
                      T(88.5),
                      T(-87.5),
                      T(700),
                      T(-745),
                      T(3.14159265),
                      T(1e10),
                      T(-1e10),
                      T(1e30),
                      T(0x1p23) + 1,
                      T(0x1p24),
                      T(0x1p52),
                      T(0x1p60) + T(0x1p40),
                      T(1e-20)};
  v.push_back(std::nextafter(T(1), T(2)));
  v.push_back(std::nextafter(T(1), T(0)));
  v.push_back(std::nextafter(T(-1), T(0)));
  // Pseudo-random magnitudes over the exponent range, both signs.
  uint64_t s = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 80; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    double mantissa = 1.0 + double(s >> 12) / double(uint64_t{1} << 52);
    int exponent = int((s >> 3) % 80) - 40;
    if (i % 4 == 0) exponent = int((s >> 5) % (2 * L::max_exponent)) - L::max_exponent;
    v.push_back(T(std::ldexp(mantissa, exponent) * ((s & 1) ? -1 : 1)));
  }
  return v;
}

}  // namespace tessera::backends::cpu::test
