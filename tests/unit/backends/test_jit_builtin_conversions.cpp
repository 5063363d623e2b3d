// Conversions to floating point with an explicit rounding mode (OpenCL C 1.2, 6.2.3:
// convert_float_rtz, _rtp, _rtn, _rte) from int, uint, long, ulong and double, and to double from
// long and ulong, scalar and vector; and vstore_half_r from double, rounded once. The references
// take the exact source value in long double (which holds every 64-bit integer and every double)
// and pick the neighbour the mode asks for. Kernels: tests/kernels_jit/builtins_conversions.cl.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "builtin_reference.h"
#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

using L = long double;

const char* const kModes[] = {"rte", "rtz", "rtp", "rtn"};

// The T nearest `x` by `mode` (0 rte, 1 rtz, 2 rtp, 3 rtn); x exact.
template <typename T>
T rounded(L x, int mode) {
  T r = static_cast<T>(x);  // to nearest even
  if (static_cast<L>(r) == x || std::isnan(x) || mode == 0) return r;
  T up = static_cast<L>(r) > x ? r : std::nextafter(r, std::numeric_limits<T>::infinity());
  T down = static_cast<L>(r) < x ? r : std::nextafter(r, -std::numeric_limits<T>::infinity());
  if (mode == 2) return up;
  if (mode == 3) return down;
  return x > 0 ? down : up;
}

template <typename T>
std::vector<T> integers() {
  using Lim = std::numeric_limits<T>;
  std::vector<T> v = {T(0),
                      T(1),
                      T(-1),
                      Lim::min(),
                      Lim::max(),
                      T(Lim::max() - 1),
                      T(Lim::min() + 1),
                      T(16777217),
                      T(16777219),
                      T(-16777217),
                      T(33554435),
                      T(0x7FFFFFBF),
                      T(0x7FFFFFC0),
                      T(0x7FFFFFC1),
                      T(0xFFFFFF7F),
                      T(0xFFFFFF80),
                      T(0xFFFFFF81)};
  if (sizeof(T) == 8) {
    for (uint64_t u :
         {0x20000000000001ull, 0x20000000000003ull, 0x7FFFFFFFFFFFFDFFull, 0x7FFFFFFFFFFFFE00ull,
          0x7FFFFFFFFFFFFE01ull, 0xFFFFFFFFFFFFFBFFull, 0xFFFFFFFFFFFFFC00ull,
          0xFFFFFFFFFFFFFC01ull, 0x8000000000000401ull, 0x4000008000000001ull}) {
      v.push_back(T(u));
    }
  }
  uint64_t s = 99;
  while (v.size() % 64 != 0) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    v.push_back(T(s >> (s % 48)));
  }
  return v;
}

std::vector<double> doubles() {
  std::vector<double> v = {0.0,
                           -0.0,
                           1.0,
                           -1.0,
                           0.1,
                           -0.1,
                           1.0 / 3,
                           -2.0 / 3,
                           double(FLT_MAX),
                           -double(FLT_MAX),
                           std::nextafter(double(FLT_MAX), 1e300),
                           std::nextafter(double(FLT_MAX), 0.0),
                           1e39,
                           -1e39,
                           1e300,
                           -1e300,
                           double(FLT_MIN),
                           std::nextafter(double(FLT_MIN), 0.0),
                           1e-40,
                           -1e-40,
                           1e-46,
                           -1e-46,
                           1e-300,
                           -1e-300,
                           4.9e-324,
                           INFINITY,
                           -INFINITY,
                           NAN,
                           1 + 0x1p-24,
                           1 + 0x1p-24 + 0x1p-52,
                           1 - 0x1p-25,
                           16777217.0};
  uint64_t s = 5;
  while (v.size() % 64 != 0) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    double m;
    std::memcpy(&m, &s, 8);
    v.push_back(std::isnan(m) ? 1.5 : m);
  }
  return v;
}

template <typename T>
bool same(T got, T want) {
  if (std::isnan(want)) return std::isnan(got);
  return std::memcmp(&got, &want, sizeof(T)) == 0;
}

void checkToFloat(const char* name, unsigned lanes) {
  INFO(name);
  const CompiledKernel& k = kernel("builtins_conversions", name);
  AlignedVector<int32_t> a;
  AlignedVector<uint32_t> b;
  AlignedVector<int64_t> c;
  AlignedVector<uint64_t> d;
  AlignedVector<double> e;
  std::vector<int32_t> ia = integers<int32_t>();
  std::vector<uint32_t> ib = integers<uint32_t>();
  std::vector<int64_t> ic = integers<int64_t>();
  std::vector<uint64_t> id = integers<uint64_t>();
  std::vector<double> ie = doubles();
  size_t n = 64;
  for (size_t i = 0; i < n; ++i) {
    a.push_back(ia[i % ia.size()]), b.push_back(ib[i % ib.size()]);
    c.push_back(ic[i % ic.size()]), d.push_back(id[i % id.size()]);
    e.push_back(ie[i % ie.size()]);
  }
  AlignedVector<float> out(20 * n);
  ArgBuffer args(k);
  args.set(0, static_cast<void*>(a.data())).set(1, static_cast<void*>(b.data()));
  args.set(2, static_cast<void*>(c.data())).set(3, static_cast<void*>(d.data()));
  args.set(4, static_cast<void*>(e.data())).set(5, static_cast<void*>(out.data()));
  launch(k, args.data(), dims1(uint32_t(n / lanes / 4), 4), pool());
  for (size_t i = 0; i < n; ++i) {
    L source[5] = {L(a[i]), L(b[i]), L(c[i]), L(d[i]), L(e[i])};
    const char* from[5] = {"int", "uint", "long", "ulong", "double"};
    for (int s = 0; s < 5; ++s) {
      for (int mode = 0; mode < 4; ++mode) {
        float got = out[(4 * s + mode) * n + i];
        float want = rounded<float>(source[s], mode);
        INFO("convert_float_" << kModes[mode] << "((" << from[s] << ")" << double(source[s])
                              << ") = " << got << ", want " << want);
        CHECK(same(got, want));
      }
    }
  }
}

TEST_CASE(
    "Given convert_float_rte/rtz/rtp/rtn, when converting int, uint, long, ulong and "
    "double, then each mode rounds as IEEE-754 directs",
    "[jit][builtins][conversions]") {
  checkToFloat("to_float", 1);
  checkToFloat("to_float4", 4);
}

void checkToDouble(const char* name, unsigned lanes) {
  INFO(name);
  const CompiledKernel& k = kernel("builtins_conversions", name);
  AlignedVector<int64_t> c;
  AlignedVector<uint64_t> d;
  for (int64_t v : integers<int64_t>()) c.push_back(v);
  for (uint64_t v : integers<uint64_t>()) d.push_back(v);
  size_t n = std::min(c.size(), d.size());
  c.resize(n), d.resize(n);
  AlignedVector<double> out(8 * n);
  ArgBuffer args(k);
  args.set(0, static_cast<void*>(c.data())).set(1, static_cast<void*>(d.data()));
  args.set(2, static_cast<void*>(out.data()));
  launch(k, args.data(), dims1(uint32_t(n / lanes), 1), pool());
  for (size_t i = 0; i < n; ++i) {
    for (int mode = 0; mode < 4; ++mode) {
      double gotSigned = out[mode * n + i], gotUnsigned = out[(4 + mode) * n + i];
      INFO("convert_double_" << kModes[mode] << " of " << c[i] << " and " << d[i]);
      CHECK(same(gotSigned, rounded<double>(L(c[i]), mode)));
      CHECK(same(gotUnsigned, rounded<double>(L(d[i]), mode)));
    }
  }
}

TEST_CASE(
    "Given convert_double_rte/rtz/rtp/rtn, when converting long and ulong, then each mode "
    "rounds as IEEE-754 directs",
    "[jit][builtins][conversions]") {
  checkToDouble("to_double", 1);
  checkToDouble("to_double2", 2);
}

// The half a mode picks for an exact value: binary search over the ordered positive halves.
L halfValue(uint16_t h) {
  int exponent = (h >> 10) & 0x1F;
  L mantissa = h & 0x3FF;
  L v = exponent == 0    ? std::ldexp(mantissa, -24)
        : exponent == 31 ? (mantissa == 0 ? L(INFINITY) : L(NAN))
                         : std::ldexp(1024 + mantissa, exponent - 25);
  return (h & 0x8000) ? -v : v;
}

uint16_t toHalf(L x, int mode) {
  if (std::isnan(x)) return 0x7E00;
  uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  L a = std::fabs(x);
  uint16_t lo = 0, hi = 0x7C00;  // largest half <= a, by bits
  while (lo < hi) {
    uint16_t mid = uint16_t((lo + hi + 1) / 2);
    if (halfValue(mid) <= a)
      lo = mid;
    else
      hi = uint16_t(mid - 1);
  }
  uint16_t down = lo, up = halfValue(lo) == a ? lo : uint16_t(lo + 1);
  // Magnitudes: toward zero is `down`, away is `up`.
  bool negative = sign != 0;
  uint16_t magnitude = down;
  if (mode == 0 && up == 0x7C00 && down != up) {
    magnitude = a >= 65520 ? up : down;  // 65520: halfway to the next power of two, 65536
  } else if (mode == 0) {
    L dd = a - halfValue(down), du = halfValue(up) - a;
    magnitude = dd < du ? down : dd > du ? up : (down & 1) ? up : down;
  } else if (mode == 2) {
    magnitude = negative ? down : up;
  } else if (mode == 3) {
    magnitude = negative ? up : down;
  }
  return uint16_t(sign | magnitude);
}

TEST_CASE(
    "Given vstore_half_r from double, when a value lies just past a half's midpoint, then "
    "it is rounded once (not through float)",
    "[jit][builtins][conversions]") {
  const CompiledKernel& k = kernel("builtins_conversions", "double_to_half");
  // 1 + 2^-11 + 2^-40: through float it becomes the midpoint 1 + 2^-11 and rounds to even (1.0);
  // correctly it rounds up.
  std::vector<double> x = {1 + 0x1p-11 + 0x1p-40,
                           -(1 + 0x1p-11 + 0x1p-40),
                           1 + 0x1p-11,
                           1 + 0x1p-11 - 0x1p-40,
                           65504.0,
                           65519.99999999,
                           65520.0,
                           70000.0,
                           -70000.0,
                           0x1p-24 + 0x1p-60,
                           0x1p-25,
                           0x1p-25 + 0x1p-70,
                           1e-300,
                           -1e-300,
                           0.0,
                           -0.0,
                           0.1,
                           -0.1,
                           1.0 / 3,
                           INFINITY,
                           -INFINITY,
                           2049.0,
                           2051.0,
                           1e300};
  std::vector<uint16_t> out(4 * x.size());
  ArgBuffer args(k);
  args.set(0, static_cast<void*>(x.data())).set(1, static_cast<void*>(out.data()));
  launch(k, args.data(), dims1(1, uint32_t(x.size())), pool());
  for (size_t i = 0; i < x.size(); ++i) {
    for (int mode = 0; mode < 4; ++mode) {
      INFO("vstore_half_" << kModes[mode] << "(" << x[i] << ") = 0x" << std::hex
                          << out[4 * i + mode] << ", want 0x" << toHalf(x[i], mode));
      CHECK(out[4 * i + mode] == toHalf(x[i], mode));
    }
  }
}

}  // namespace
}  // namespace tessera::backends::cpu::test
