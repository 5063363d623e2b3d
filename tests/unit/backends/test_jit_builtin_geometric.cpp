// Geometric functions (OpenCL C 1.2, 6.12.5) on 1 to 4 lanes of float and double against long
// double (and, for cross of doubles, __float128) references: length, distance and normalize
// without overflow or underflow where the result is representable (length of (0x1p64f, 0x1p64f)
// is finite, normalize of tiny vectors is not 0/0), the spec's rules for normalize of zero,
// infinite and NaN vectors, dot, cross, and the fast_ forms. Kernels:
// tests/kernels_jit/builtins_geometric.cl.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "builtin_reference.h"
#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

using L = long double;

// Vectors of 4 lanes (the first n are used): scale edges, zeros, infinities, NaN, mixed
// magnitudes, ordinary values.
template <typename T>
std::vector<std::vector<T>> vectors() {
  using Lim = std::numeric_limits<T>;
  const T big = sizeof(T) == 4 ? T(0x1p64) : T(0x1p600), huge = Lim::max();
  const T tiny = sizeof(T) == 4 ? T(1e-30) : T(1e-300), denorm = Lim::denorm_min();
  const T inf = Lim::infinity(), nan = Lim::quiet_NaN();
  std::vector<std::vector<T>> v = {{big, big, big, big},
                                   {big, -big, T(1), T(0)},
                                   {huge, huge, huge, huge},
                                   {-huge, T(1), huge, T(3)},
                                   {tiny, tiny, tiny, tiny},
                                   {denorm, denorm, denorm, denorm},
                                   {denorm, T(0), T(-0.0), T(0)},
                                   {T(0), T(0), T(0), T(0)},
                                   {T(-0.0), T(0), T(-0.0), T(0)},
                                   {inf, T(1), T(2), T(3)},
                                   {T(1), -inf, inf, T(0)},
                                   {nan, T(1), T(2), T(3)},
                                   {T(3), T(4), T(12), T(84)},
                                   {huge, tiny, denorm, T(1)},
                                   {T(1e10), T(-1e-10), T(5), T(7)},
                                   {T(0.1), T(0.2), T(0.3), T(0.4)},
                                   {T(-1.5), T(2.25), T(-3.125), T(1e3)}};
  if (sizeof(T) == 8) {
    // normalize: lanes far below the largest keep their own precision (OpenCL-CTS geometrics
    // found these: scaled by a fixed 2^-600 they went denormal or to zero).
    v.push_back(
        {T(0x1.8bcb4bd1a6a11p-418), T(-0x1.0579101a4015ap+561), T(-0x1.e1009095357bbp-436), T(0)});
    v.push_back({T(0x1.0cbf17ae01644p-130), T(-0x1.b2781eaa2dc0ep-483), T(-0x1.b9160704547aap+560),
                 T(0x1.de4333249dc38p+299)});
    v.push_back({T(-0x1.b2781eaa2dc0ep-483), T(-0x1.b9160704547aap+560), T(0x1.0cbf17ae01644p-130),
                 T(0x1.de4333249dc38p+299)});
  }
  uint64_t s = 77;
  for (int i = 0; i < 40; ++i) {
    std::vector<T> r;
    for (int l = 0; l < 4; ++l) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      double m = double(s >> 11) / double(uint64_t{1} << 53) - 0.5;
      r.push_back(T(std::ldexp(m, int((s >> 3) % 40) - 20 + (i % 5 == 0 ? 90 : 0))));
    }
    v.push_back(r);
  }
  return v;
}

L sumOfSquares(const std::vector<L>& v) {
  L s = 0;
  for (L x : v) s += x * x;
  return s;
}

// normalize's reference: the spec's replacement of infinite vectors, then p / |p|; p itself when
// every element is zero.
std::vector<L> normalizeRef(std::vector<L> v) {
  bool anyInf = false;
  for (L x : v) anyInf = anyInf || std::isinf(x);
  if (anyInf)
    for (L& x : v) x = std::isinf(x) ? std::copysign(1.0L, x) : 0.0L * x;
  L len = std::sqrt(sumOfSquares(v));
  if (len == 0) return v;
  for (L& x : v) x /= len;
  return v;
}

template <typename T>
void checkGeometric(unsigned n) {
  bool isFloat = sizeof(T) == 4;
  std::string name = std::string("geometric_") + (isFloat ? "float" : "double") + std::to_string(n);
  INFO(name);
  const CompiledKernel& k = kernel("builtins_geometric", name);
  std::vector<std::vector<T>> v = vectors<T>();
  size_t count = v.size() * v.size() / 4;  // pairs (a, b), a quarter of them
  AlignedVector<T> x, y;
  for (size_t i = 0; i < count; ++i) {
    const std::vector<T>& a = v[i % v.size()];
    const std::vector<T>& b = v[(i * 7 / 3) % v.size()];
    for (unsigned l = 0; l < n; ++l) x.push_back(a[l]), y.push_back(b[l]);
  }
  AlignedVector<T> scalars(5 * count), results(2 * n * count);
  ArgBuffer args(k);
  args.set(0, static_cast<void*>(x.data())).set(1, static_cast<void*>(y.data()));
  args.set(2, static_cast<void*>(scalars.data())).set(3, static_cast<void*>(results.data()));
  launch(k, args.data(), dims1(uint32_t(count), 1), pool());
  for (size_t i = 0; i < count; ++i) {
    std::vector<L> a, b, d;
    L dotRef = 0, dotMagnitude = 0;
    for (unsigned l = 0; l < n; ++l) {
      a.push_back(x[i * n + l]);
      b.push_back(y[i * n + l]);
      d.push_back(a.back() - b.back());
      dotRef += a.back() * b.back();
      dotMagnitude += std::fabs(a.back() * b.back());
    }
    std::string what = "a = (" + std::to_string(double(a[0])) + ", ...)";
    if (n > 1) what += " a[1] = " + std::to_string(double(a[1]));
    INFO(what << ", b[0] = " << double(b[0]));
    // 3 ulp for length and distance, 8192 for the fast_ forms.
    CHECK(ulpError<T>(scalars[5 * i], std::sqrt(sumOfSquares(a))) <= 3);
    CHECK(ulpError<T>(scalars[5 * i + 1], std::sqrt(sumOfSquares(d))) <= 3);
    // dot: "absolute error tolerance of max * max * (2n - 1) * FLT_EPSILON" (OpenCL C 2.0, 7.4),
    // the sum of the products' magnitudes here, plus a denormal per product (underflow).
    T dot = scalars[5 * i + 2];
    L eps = std::numeric_limits<T>::epsilon();
    L tolerance = dotMagnitude * (2 * n - 1) * eps + n * L(std::numeric_limits<T>::denorm_min());
    L largest = 0;
    for (unsigned l = 0; l < n; ++l)
      largest = std::fmax(largest, std::fmax(std::fabs(a[l]), std::fabs(b[l])));
    if (std::isnan(dotRef)) {
      CHECK(std::isnan(dot));
    } else if (std::isinf(dotRef)) {
      CHECK(dot == dotRef);
    } else if (std::isfinite(static_cast<T>(largest * largest))) {  // else the bound is infinite
      CHECK(std::fabs(dot - dotRef) <= tolerance);
    }
    std::vector<L> norm = normalizeRef(a);
    for (unsigned l = 0; l < n; ++l) {
      INFO("normalize lane " << l);
      CHECK(ulpError<T>(results[2 * n * i + l], norm[l]) <= 3);
    }
    if (isFloat) {
      CHECK(ulpError<T>(scalars[5 * i + 3], std::sqrt(sumOfSquares(a))) <= 8192);
      CHECK(ulpError<T>(scalars[5 * i + 4], std::sqrt(sumOfSquares(d))) <= 8192);
      for (unsigned l = 0; l < n; ++l) {
        INFO("fast_normalize lane " << l);
        bool anyNan = false;
        for (L e : a) anyNan = anyNan || std::isnan(e);
        // "If the sum of squares is greater than FLT_MAX then the value of the floating-point
        // values in the result vector are undefined."
        if (!anyNan && sumOfSquares(a) <= FLT_MAX)
          CHECK(ulpError<T>(results[2 * n * i + n + l], norm[l]) <= 8192);
      }
    }
  }
}

TEST_CASE(
    "Given length, distance, dot and normalize, when run on 1 to 4 lanes of float and "
    "double including huge, tiny and special vectors, then results are within 3 ulp",
    "[jit][builtins][geometric]") {
  for (unsigned n = 1; n <= 4; ++n) {
    checkGeometric<float>(n);
    checkGeometric<double>(n);
  }
}

TEST_CASE("Given length and normalize near 0x1p64f, when run, then nothing overflows",
          "[jit][builtins][geometric]") {
  const CompiledKernel& k = kernel("builtins_geometric", "geometric_float2");
  AlignedVector<float> x = {0x1p64f, 0x1p64f, 1e-30f, -1e-30f};
  AlignedVector<float> y = {-0x1p64f, -0x1p64f, 0, 0};
  AlignedVector<float> scalars(10), vectors(8);
  ArgBuffer args(k);
  args.set(0, static_cast<void*>(x.data())).set(1, static_cast<void*>(y.data()));
  args.set(2, static_cast<void*>(scalars.data())).set(3, static_cast<void*>(vectors.data()));
  launch(k, args.data(), dims1(2, 1), pool());
  CHECK(scalars[0] == 0x1.6a09e6p64f);  // sqrt(2) * 2^64
  CHECK(scalars[1] == 0x1.6a09e6p65f);
  CHECK(ulpError<float>(scalars[5], std::sqrt(2 * L(x[2]) * L(x[2]))) <= 1);  // no underflow
  CHECK(vectors[0] == 0x1.6a09e6p-1f);
  CHECK(vectors[1] == 0x1.6a09e6p-1f);
  CHECK(vectors[4] == 0x1.6a09e6p-1f);
  CHECK(vectors[5] == -0x1.6a09e6p-1f);
}

template <typename T>
void checkCross() {
  bool isFloat = sizeof(T) == 4;
  const CompiledKernel& k = kernel("builtins_geometric", isFloat ? "cross_float" : "cross_double");
  std::vector<std::vector<T>> v = vectors<T>();
  size_t count = v.size();
  AlignedVector<T> x, y;
  for (size_t i = 0; i < count; ++i) {
    for (int l = 0; l < 4; ++l) x.push_back(v[i][l]), y.push_back(v[(i * 5 + 3) % count][l]);
  }
  AlignedVector<T> out3(3 * count), out4(4 * count);
  ArgBuffer args(k);
  args.set(0, static_cast<void*>(x.data())).set(1, static_cast<void*>(y.data()));
  args.set(2, static_cast<void*>(out3.data())).set(3, static_cast<void*>(out4.data()));
  launch(k, args.data(), dims1(uint32_t(count / 4), 1), pool());  // vload3/vload4 overlap
  for (size_t i = 0; i < count / 4; ++i) {
    for (int width : {3, 4}) {
      const T* a = &x[width * i];
      const T* b = &y[width * i];
      auto product = [](T p, T q) { return static_cast<__float128>(p) * q; };
      const int first[3][2] = {{1, 2}, {2, 0}, {0, 1}};
      for (int l = 0; l < 3; ++l) {
        int p = first[l][0], q = first[l][1];
        __float128 left = product(a[p], b[q]), right = product(a[q], b[p]);
        T got = width == 3 ? out3[3 * i + l] : out4[4 * i + l];
        INFO("cross" << width << " of vector " << i << ", lane " << l << ": " << got);
        // Where a product is infinite or NaN in T (or an input is), the lane may be too.
        __float128 limit = std::numeric_limits<T>::max();
        bool finite = std::isfinite(a[p] + a[q] + b[p] + b[q]) && left <= limit && left >= -limit &&
                      right <= limit && right >= -limit;
        if (finite) CHECK(ulpError<T>(got, static_cast<L>(left - right)) <= 3);
      }
      if (width == 4) CHECK(out4[4 * i + 3] == 0);
    }
  }
}

TEST_CASE(
    "Given cross of 3- and 4-lane vectors, when run on float and double, then lanes are "
    "within 3 ulp and w is 0",
    "[jit][builtins][geometric]") {
  checkCross<float>();
  checkCross<double>();
}

}  // namespace
}  // namespace tessera::backends::cpu::test
