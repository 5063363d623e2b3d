// Half precision (cl_khr_fp16) in the JIT: arithmetic rounded to half per operation, conversions
// with every rounding mode and saturation, vectors, vector data, builtins, structs, local memory
// and arguments by value. Kernels: tests/kernels_jit/half.cl. References are computed here: a
// half is its bits; roundHalf rounds an exact value (long double holds every operand and every
// 64-bit integer) to half by a mode.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "builtin_reference.h"
#include "image_test_support.h"
#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

using L = long double;
using Half = uint16_t;

const char* const kModes[] = {"rte", "rtz", "rtp", "rtn"};

// The half nearest x by `mode` (0 rte, 1 rtz, 2 rtp, 3 rtn), as bits. x is exact.
Half roundHalf(L x, int mode) {
  if (std::isnan(x)) return 0x7E00;
  bool negative = std::signbit(x);
  Half sign = negative ? 0x8000 : 0;
  L a = std::fabs(x);
  if (std::isinf(a)) return sign | 0x7C00;
  if (a == 0) return sign;
  int e = 0;
  std::frexp(a, &e);                        // a in [2^(e-1), 2^e)
  int quantum = std::max(e - 1, -14) - 10;  // the exponent of a half ulp at a
  L m = std::ldexp(a, -quantum);            // exact
  L whole = std::floor(m);
  L fraction = m - whole;
  uint64_t k = static_cast<uint64_t>(whole);
  bool awayFromZero = false;  // the mode rounds magnitudes up
  switch (mode) {
    case 0:
      awayFromZero = fraction > 0.5L || (fraction == 0.5L && (k & 1) != 0);
      break;
    case 1:
      break;
    case 2:
      awayFromZero = fraction > 0 && !negative;
      break;
    default:
      awayFromZero = fraction > 0 && negative;
      break;
  }
  k += awayFromZero ? 1 : 0;
  // k * 2^quantum: denormals are k itself (quantum -24); normals the biased exponent above the
  // 10 fraction bits, where k = 2048 carries into the next exponent as the encoding does.
  uint64_t bits = quantum == -24 ? k : (uint64_t(quantum + 25) << 10) + (k - 1024);
  if (bits >= 0x7C00) {
    bool toInfinity = mode == 0 || (mode == 2 && !negative) || (mode == 3 && negative);
    bits = toInfinity ? 0x7C00 : 0x7BFF;
  }
  return Half(sign | bits);
}

L halfValue(Half h) {
  int exponent = (h >> 10) & 0x1F;
  L mantissa = h & 0x3FF;
  L v = exponent == 0    ? std::ldexp(mantissa, -24)
        : exponent == 31 ? (mantissa == 0 ? L(INFINITY) : L(NAN))
                         : std::ldexp(1024 + mantissa, exponent - 25);
  return (h & 0x8000) ? -v : v;
}
float floatOf(Half h) {
  return float(halfValue(h));
}
bool isNan(Half h) {
  return (h & 0x7C00) == 0x7C00 && (h & 0x3FF) != 0;
}
bool sameHalf(Half got, Half want) {
  return isNan(want) ? isNan(got) : got == want;
}
// Distance in representable halves (same sign; for tolerances).
int ulps(Half got, Half want) {
  auto ordered = [](Half h) { return (h & 0x8000) ? -int(h & 0x7FFF) : int(h); };
  return std::abs(ordered(got) - ordered(want));
}

// Halves of every kind: zeros, denormals, normals at the ends, 1 and its neighbours, the largest,
// infinities, NaN; then random bit patterns (every exponent, about 1 in 32 NaN or infinite).
std::vector<Half> halves(size_t n, uint64_t seed) {
  std::vector<Half> v = {0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x83FF, 0x0400, 0x8400,
                         0x3C00, 0xBC00, 0x3C01, 0x3BFF, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00,
                         0x7E00, 0x3800, 0x4000, 0x4200, 0x5640, 0x0200, 0x7BFE, 0x1000};
  uint64_t s = seed;
  while (v.size() < n) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    v.push_back(Half(s >> 33));
  }
  v.resize(n);
  return v;
}

void* ptr(const void* p) {
  return const_cast<void*>(p);
}

TEST_CASE(
    "Given halves of every kind, when the kernel adds, subtracts, multiplies, divides, takes fma, "
    "sqrt and negation, then each result is the exact value rounded to half to nearest even",
    "[jit][half]") {
  for (const char* name : {"arith", "arith8"}) {
    INFO(name);
    const CompiledKernel& k = kernel("half", name);
    const size_t n = 4096;
    std::vector<Half> va = halves(n, 1), vb = halves(n, 2), vc = halves(n, 3);
    // Products near ties: a*b + c whose float rounding lands on a half tie (builtin_half.cpp).
    // 2^-11 (1 + 2^-10) * (1 - 2^-10) + (1 + 2^-10) = 1 + 2^-10 + 2^-11 - 2^-31: just below the
    // tie between 0x3C01 and 0x3C02, on it once rounded to float.
    va[100] = 0x1001, vb[100] = 0x3BFE, vc[100] = 0x3C01;
    va[101] = 0x3BFE, vb[101] = 0x9001, vc[101] = 0xBC01;  // the same negated
    AlignedVector<Half> a(va.begin(), va.end()), b(vb.begin(), vb.end()), c(vc.begin(), vc.end());
    AlignedVector<Half> out(8 * n);
    ArgBuffer args(k);
    args.set(0, ptr(a.data())).set(1, ptr(b.data())).set(2, ptr(c.data())).set(3, ptr(out.data()));
    unsigned lanes = std::string(name) == "arith8" ? 8 : 1;
    launch(k, args.data(), dims1(uint32_t(n / lanes / 16), 16), pool());
    size_t failures = 0;
    for (size_t i = 0; i < n && failures < 20; ++i) {
      L x = halfValue(a[i]), y = halfValue(b[i]), z = halfValue(c[i]);
      // Each exact in long double except the quotient and the root, whose float results are
      // correctly rounded to half by one more rounding (24 >= 2 * 11 + 2).
      Half want[8] = {roundHalf(x + y, 0),
                      roundHalf(x - y, 0),
                      roundHalf(x * y, 0),
                      roundHalf(L(float(x) / float(y)), 0),
                      roundHalf(std::fma(x, y, z), 0),
                      roundHalf(L(std::sqrt(float(x))), 0),
                      Half(a[i] ^ 0x8000),
                      roundHalf(std::fma(x, y, z), 0)};
      const char* ops[8] = {"+", "-", "*", "/", "fma", "sqrt", "neg", "(half)double"};
      for (int op = 0; op < 8; ++op) {
        Half got = out[op * n + i];
        if (sameHalf(got, want[op])) continue;
        ++failures;
        FAIL_CHECK(ops[op] << " of 0x" << std::hex << a[i] << ", 0x" << b[i] << ", 0x" << c[i]
                           << ": got 0x" << got << ", want 0x" << want[op]);
      }
    }
    CHECK(failures == 0);
  }
}

// Exact values of integer sources (as long double) for the conversion kernels.
template <typename T>
std::vector<T> integerSources(size_t n, uint64_t seed) {
  using Lim = std::numeric_limits<T>;
  std::vector<T> v = {T(0), T(1), T(-1), Lim::min(), Lim::max(), T(Lim::max() - 1)};
  for (int64_t x : {2047,  2049,  2051,   4097,   4098,   4099,  65504, 65519, 65520, 65535, 65536,
                    70000, -2049, -65519, -65520, -70000, 12345, -777,  100,   127,   -128,  255}) {
    v.push_back(T(x));
  }
  uint64_t s = seed;
  while (v.size() < n) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    v.push_back(T(s >> (s % 61)));
  }
  v.resize(n);
  return v;
}

std::vector<double> doubleSources(size_t n) {
  std::vector<double> v = {0.0,         -0.0,
                           1.0,         -1.0,
                           65504.0,     65519.99,
                           65520.0,     -65520.0,
                           65536.0,     1e10,
                           -1e10,       INFINITY,
                           -INFINITY,   NAN,
                           0x1p-24,     0x1p-25,
                           0x1.8p-25,   0x1p-26,
                           -0x1p-25,    0x1.0000000001p-25,
                           0x1p-14,     0x1.ffcp-15,
                           1 + 0x1p-11, 1 + 0x1p-11 + 0x1p-40,
                           1 - 0x1p-12, 1 + 3 * 0x1p-11,
                           2049.0,      2051.0,
                           0x1.0028p0,  1e-40,
                           -1e-300,     0.1,
                           -0.1,        1.0 / 3};
  uint64_t s = 17;
  while (v.size() < n) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    // Doubles whose exponent lies around half's range: sign, exponent -30..20, random bits.
    int exponent = int(s % 51) - 30;
    double m = 1 + double(s >> 12) * 0x1p-52;
    v.push_back(std::ldexp((s & 1) ? -m : m, exponent));
  }
  v.resize(n);
  return v;
}

void checkToHalf(const char* name, unsigned lanes) {
  INFO(name);
  const CompiledKernel& k = kernel("half", name);
  const size_t n = 512;
  std::vector<double> ds = doubleSources(n);
  AlignedVector<float> f;
  AlignedVector<double> d;
  for (double x : ds) d.push_back(x);
  // Floats: the doubles rounded to float (exact sources in their own type).
  for (double x : ds) f.push_back(float(x));
  auto c = integerSources<int8_t>(n, 1);
  auto uc = integerSources<uint8_t>(n, 2);
  auto h = integerSources<int16_t>(n, 3);
  auto uh = integerSources<uint16_t>(n, 4);
  auto ni = integerSources<int32_t>(n, 5);
  auto un = integerSources<uint32_t>(n, 6);
  auto l = integerSources<int64_t>(n, 7);
  auto ul = integerSources<uint64_t>(n, 8);
  AlignedVector<int8_t> ac(c.begin(), c.end());
  AlignedVector<uint8_t> auc(uc.begin(), uc.end());
  AlignedVector<int16_t> ah(h.begin(), h.end());
  AlignedVector<uint16_t> auh(uh.begin(), uh.end());
  AlignedVector<int32_t> an(ni.begin(), ni.end());
  AlignedVector<uint32_t> aun(un.begin(), un.end());
  AlignedVector<int64_t> al(l.begin(), l.end());
  AlignedVector<uint64_t> aul(ul.begin(), ul.end());
  AlignedVector<Half> out(50 * n);
  ArgBuffer args(k);
  args.set(0, ptr(f.data())).set(1, ptr(d.data())).set(2, ptr(ac.data())).set(3, ptr(auc.data()));
  args.set(4, ptr(ah.data())).set(5, ptr(auh.data())).set(6, ptr(an.data()));
  args.set(7, ptr(aun.data())).set(8, ptr(al.data())).set(9, ptr(aul.data()));
  args.set(10, ptr(out.data()));
  launch(k, args.data(), dims1(uint32_t(n / lanes / 8), 8), pool());
  const char* from[10] = {"float",  "double", "char", "uchar", "short",
                          "ushort", "int",    "uint", "long",  "ulong"};
  size_t failures = 0;
  for (size_t i = 0; i < n && failures < 20; ++i) {
    L source[10] = {L(f[i]),   L(d[i]),  L(ac[i]),  L(auc[i]), L(ah[i]),
                    L(auh[i]), L(an[i]), L(aun[i]), L(al[i]),  L(aul[i])};
    for (int s = 0; s < 10; ++s) {
      for (int mode = 0; mode < 5; ++mode) {
        Half got = out[(5 * s + mode) * n + i];
        Half want = roundHalf(source[s], mode == 4 ? 0 : mode);  // the default is _rte
        if (sameHalf(got, want)) continue;
        ++failures;
        FAIL_CHECK("convert_half" << (mode == 4 ? "" : std::string("_") + kModes[mode]) << "(("
                                  << from[s] << ")" << double(source[s]) << "): got 0x" << std::hex
                                  << got << ", want 0x" << want);
      }
    }
  }
  CHECK(failures == 0);
}

TEST_CASE(
    "Given convert_half with each rounding mode, when converting float, double and every integer "
    "type, then ties, overflow to infinity or the largest half, denormals and NaN round as "
    "IEEE-754 directs",
    "[jit][half][conversions]") {
  checkToHalf("to_half", 1);
  checkToHalf("to_half4", 4);
}

// The integer T a half converts to with saturation and `mode`.
template <typename T>
int64_t saturated(L x, int mode) {
  if (std::isnan(x)) return 0;
  L r = mode == 0   ? std::nearbyint(x)
        : mode == 1 ? std::trunc(x)
        : mode == 2 ? std::ceil(x)
                    : std::floor(x);
  if (r < L(std::numeric_limits<T>::min())) return int64_t(std::numeric_limits<T>::min());
  if (r > L(std::numeric_limits<T>::max())) return int64_t(std::numeric_limits<T>::max());
  return int64_t(T(r));
}

TEST_CASE(
    "Given halves of every kind, when converting them to each integer type with _sat and each "
    "rounding mode, and to float and double, then the results are exact",
    "[jit][half][conversions]") {
  const CompiledKernel& k = kernel("half", "from_half");
  const size_t n = 2048;
  std::vector<Half> v = halves(n, 9);
  v[30] = 0x3C00 | 0x200;  // 1.5: a tie
  v[31] = 0x4100;          // 2.5
  v[32] = 0xC100;          // -2.5
  v[33] = 0x3800;          // 0.5
  AlignedVector<Half> a(v.begin(), v.end());
  AlignedVector<int64_t> out(43 * n);
  ArgBuffer args(k);
  args.set(0, ptr(a.data())).set(1, ptr(out.data()));
  launch(k, args.data(), dims1(uint32_t(n / 16), 16), pool());
  using Fn = int64_t (*)(L, int);
  const Fn fns[8] = {saturated<int8_t>,   saturated<uint8_t>, saturated<int16_t>,
                     saturated<uint16_t>, saturated<int32_t>, saturated<uint32_t>,
                     saturated<int64_t>,  saturated<uint64_t>};
  const char* types[8] = {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong"};
  size_t failures = 0;
  for (size_t i = 0; i < n && failures < 20; ++i) {
    L x = halfValue(a[i]);
    for (int t = 0; t < 8; ++t) {
      for (int mode = 0; mode < 5; ++mode) {
        int64_t got = out[(5 * t + mode) * n + i];
        int64_t want = fns[t](x, mode == 4 ? 1 : mode);  // the default for integers is _rtz
        if (got == want) continue;
        ++failures;
        FAIL_CHECK("convert_" << types[t] << "_sat_" << (mode == 4 ? "" : kModes[mode]) << "("
                              << double(x) << "): got " << got << ", want " << want);
      }
    }
    float fx = floatOf(a[i]);
    double dx = double(x);
    int32_t fbits;
    int64_t dbits;
    std::memcpy(&fbits, &fx, 4);
    std::memcpy(&dbits, &dx, 8);
    if (isNan(a[i])) {
      CHECK((out[40 * n + i] & 0x7F800000) == 0x7F800000);
      CHECK(((out[41 * n + i] >> 52) & 0x7FF) == 0x7FF);
    } else {
      CHECK(out[40 * n + i] == fbits);
      CHECK(out[41 * n + i] == dbits);
      if (std::fabs(x) < 2e9L) CHECK(out[42 * n + i] == int64_t(std::trunc(x)));
    }
  }
  CHECK(failures == 0);
}

TEST_CASE(
    "Given vstore_half with each mode from float and double, vload_half and as_half, then the "
    "halves are rounded once as the mode directs and read back exactly",
    "[jit][half][vector-data]") {
  const CompiledKernel& k = kernel("half", "vector_data");
  const size_t n = 512;
  std::vector<double> ds = doubleSources(n);
  AlignedVector<float> f;
  AlignedVector<double> d(ds.begin(), ds.end());
  for (double x : ds) f.push_back(float(x));
  std::vector<Half> hv = halves(n, 11);
  AlignedVector<Half> h(hv.begin(), hv.end());
  AlignedVector<Half> out(10 * n);
  AlignedVector<float> back(n);
  ArgBuffer args(k);
  args.set(0, ptr(f.data())).set(1, ptr(d.data())).set(2, ptr(h.data()));
  args.set(3, ptr(out.data())).set(4, ptr(back.data()));
  launch(k, args.data(), dims1(uint32_t(n / 8), 8), pool());
  for (size_t i = 0; i < n; ++i) {
    INFO("float " << f[i] << ", double " << d[i]);
    CHECK(sameHalf(out[i], roundHalf(f[i], 0)));
    for (int mode = 0; mode < 4; ++mode) {
      INFO(kModes[mode]);
      CHECK(sameHalf(out[(1 + mode) * n + i], roundHalf(f[i], mode)));
    }
    for (int mode = 1; mode < 4; ++mode) {
      INFO("double " << kModes[mode]);
      CHECK(sameHalf(out[(4 + mode) * n + i], roundHalf(d[i], mode)));
    }
    CHECK(sameHalf(out[8 * n + i], roundHalf(d[i], 0)));
    float want = floatOf(h[i]);
    if (isNan(h[i])) {
      CHECK(std::isnan(back[i]));
    } else {
      CHECK(std::memcmp(&back[i], &want, 4) == 0);
    }
    CHECK(out[9 * n + i] == h[i]);
  }
}

TEST_CASE(
    "Given vstore_half3 of double3 with each mode, when widened, then every half is rounded once "
    "as the mode directs",
    "[jit][half][vector-data]") {
  const CompiledKernel& k = kernel("half", "store_half3");
  const size_t items = 128, n = 3 * items;
  std::vector<double> ds = doubleSources(n);
  AlignedVector<double> d(ds.begin(), ds.end());
  AlignedVector<Half> out(4 * n);
  ArgBuffer args(k);
  args.set(0, ptr(d.data())).set(1, ptr(out.data()));
  launch(k, args.data(), dims1(uint32_t(items / 32), 32), pool());
  const int modes[4] = {1, 2, 3, 0};
  for (size_t i = 0; i < n; ++i) {
    INFO("double " << d[i]);
    for (int m = 0; m < 4; ++m) {
      INFO(kModes[modes[m]]);
      CHECK(sameHalf(out[m * n + i], roundHalf(d[i], modes[m])));
    }
  }
}

TEST_CASE(
    "Given half2, half3, half4, half8 and half16, when loaded, swizzled and stored, then "
    "every lane lands where it should",
    "[jit][half][vectors]") {
  const CompiledKernel& k = kernel("half", "widths");
  const size_t groups = 32;
  std::vector<Half> v = halves(16 * groups, 5);
  for (Half& x : v) x &= 0xBBFF;  // finite, below 1 in magnitude: doubling is exact
  AlignedVector<Half> a(v.begin(), v.end());
  AlignedVector<Half> out(32 * groups);
  ArgBuffer args(k);
  args.set(0, ptr(a.data())).set(1, ptr(out.data()));
  launch(k, args.data(), dims1(uint32_t(groups / 4), 4), pool());
  // half4's last lane (q[8]) is overwritten by half8's first.
  const int order[16] = {1, 0, 4, 3, 2, 8, 7, 6, 15, 14, 13, 12, 11, 10, 9, 8};
  for (size_t g = 0; g < groups; ++g) {
    for (int j = 0; j < 16; ++j) {
      INFO("group " << g << " lane " << j);
      CHECK(out[16 * g + j] == a[16 * g + order[j]]);
      CHECK(out[16 * groups + 16 * g + j] == roundHalf(2 * halfValue(a[16 * g + j]), 0));
    }
  }
}

TEST_CASE(
    "Given half math builtins, when evaluated on halves of every kind, then each is the float "
    "function's result rounded to half (within one half ulp where float itself is not exact)",
    "[jit][half][math]") {
  const CompiledKernel& k = kernel("half", "math");
  const size_t n = 1024;
  std::vector<Half> va = halves(n, 21), vb = halves(n, 22);
  AlignedVector<Half> a(va.begin(), va.end()), b(vb.begin(), vb.end());
  const int results = 43;
  AlignedVector<Half> out(results * n);
  AlignedVector<int32_t> iout(8 * n);
  ArgBuffer args(k);
  args.set(0, ptr(a.data())).set(1, ptr(b.data())).set(2, ptr(out.data()));
  args.set(3, ptr(iout.data()));
  launch(k, args.data(), dims1(uint32_t(n / 16), 16), pool());
  size_t failures = 0;
  for (size_t i = 0; i < n && failures < 20; ++i) {
    float x = floatOf(a[i]), y = floatOf(b[i]);
    float cosine = 0, whole = 0, floored = 0;
    int e = 0;
    float sx = std::sin(x);
    cosine = std::cos(x);
    float mf = std::modf(x, &whole);
    float fr = std::isinf(x) ? std::copysign(0.0f, x)
                             : std::fmin(x - std::floor(x), 0x1.ffcp-1f);  // below 1 in half
    floored = std::floor(x);
    if (std::isnan(x)) fr = x;
    float fx = std::frexp(x, &e);
    float sign = std::isnan(x) ? 0.0f : x > 0 ? 1.0f : x < 0 ? -1.0f : x;
    struct Want {
      const char* name;
      float value;
      bool exact;  // a correctly rounded or exact float function
    } want[results] = {{"sin", sx, false},
                       {"cos", std::cos(x), false},
                       {"tan", std::tan(x), false},
                       {"exp", std::exp(x), false},
                       {"exp2", std::exp2(x), false},
                       {"exp10", float(std::pow(10.0, double(x))), false},
                       {"log", std::log(x), false},
                       {"log2", std::log2(x), false},
                       {"log10", std::log10(x), false},
                       {"pow", std::pow(x, y), false},
                       {"atan2", std::atan2(x, y), false},
                       {"hypot", std::hypot(x, y), false},
                       {"fmod", std::fmod(x, y), true},
                       {"floor", std::floor(x), true},
                       {"ceil", std::ceil(x), true},
                       {"rint", std::rint(x), true},
                       {"round", std::round(x), true},
                       {"trunc", std::trunc(x), true},
                       {"fabs", std::fabs(x), true},
                       {"fmin", std::fmin(x, y), true},
                       {"fmax", std::fmax(x, y), true},
                       {"copysign", std::copysign(x, y), true},
                       {"rsqrt", float(1 / std::sqrt(double(x))), false},
                       {"cbrt", std::cbrt(x), false},
                       {"tanh", std::tanh(x), false},
                       {"asin", std::asin(x), false},
                       {"atan", std::atan(x), false},
                       {"ldexp", std::ldexp(x, 3), true},
                       {"mad", x * y + x, false},
                       {"clamp", std::fmin(std::fmax(x, -1.0f), 1.0f), true},
                       {"max", std::fmax(x, y), true},
                       {"min", std::fmin(x, y), true},
                       {"sign", sign, true},
                       {"step", x < y ? 0.0f : 1.0f, true},
                       {"degrees", float(x * (180 / 3.14159265358979323846)), false},
                       {"sincos", sx, false},
                       {"sincos cos", cosine, false},
                       {"modf", mf, true},
                       {"modf whole", whole, true},
                       {"fract", fr, true},
                       {"fract floor", floored, true},
                       {"frexp", fx, true},
                       {"", 0, true}};
    for (int r = 0; r < results - 1; ++r) {
      Half got = out[r * n + i];
      Half w = roundHalf(L(want[r].value), 0);
      if (std::string(want[r].name) == "step" && std::isnan(x + y)) continue;  // unspecified
      if (std::string(want[r].name) == "mad") continue;                        // any precision
      bool ok =
          sameHalf(got, w) || (!want[r].exact && !isNan(w) && !isNan(got) && ulps(got, w) <= 1);
      if (ok) continue;
      ++failures;
      FAIL_CHECK(want[r].name << "(" << x << ", " << y << "): got 0x" << std::hex << got << " ("
                              << floatOf(got) << "), want 0x" << w << " (" << floatOf(w) << ")");
    }
    if (!std::isnan(x) && !std::isinf(x)) CHECK(iout[i] == e);
    if (x != 0 && !std::isnan(x) && !std::isinf(x)) CHECK(iout[n + i] == std::ilogb(x));
    CHECK(iout[2 * n + i] == (std::isnan(x) ? 1 : 0));
    CHECK(iout[3 * n + i] == (std::isinf(x) ? 1 : 0));
    CHECK(iout[4 * n + i] == (x == y ? 1 : 0));
    CHECK(iout[5 * n + i] == (x < y ? 1 : 0));
    CHECK(iout[6 * n + i] == (std::signbit(x) ? 1 : 0));
    CHECK(iout[7 * n + i] == (x < y ? 1 : 0));
  }
  CHECK(failures == 0);
}

TEST_CASE(
    "Given half4 vectors, when dot, length, distance, normalize, cross, isnan, < and select are "
    "evaluated, then results match the float computation rounded to half",
    "[jit][half][geometric]") {
  const CompiledKernel& k = kernel("half", "geometric");
  const size_t vectors = 256, n = 4 * vectors;
  std::vector<Half> va = halves(n, 31), vb = halves(n, 32);
  for (size_t i = 0; i < n; ++i) {  // finite, magnitudes below 16: no overflow in dot or length
    if ((va[i] & 0x7C00) >= 0x4C00) va[i] &= 0xC7FF;
    if ((vb[i] & 0x7C00) >= 0x4C00) vb[i] &= 0xC7FF;
  }
  va[8] = 0x7E00;  // a NaN lane
  AlignedVector<Half> a(va.begin(), va.end()), b(vb.begin(), vb.end());
  AlignedVector<Half> out(3 * n);
  AlignedVector<int16_t> sout(3 * n);
  ArgBuffer args(k);
  args.set(0, ptr(a.data())).set(1, ptr(b.data())).set(2, ptr(out.data()));
  args.set(3, ptr(sout.data()));
  launch(k, args.data(), dims1(uint32_t(vectors / 4), 4), pool());
  for (size_t v = 0; v < vectors; ++v) {
    double x[4], y[4], dot = 0, len = 0, dist = 0;
    bool nan = false;
    for (int j = 0; j < 4; ++j) {
      x[j] = floatOf(a[4 * v + j]), y[j] = floatOf(b[4 * v + j]);
      nan = nan || std::isnan(x[j]);
      dot += x[j] * y[j], len += x[j] * x[j], dist += (x[j] - y[j]) * (x[j] - y[j]);
    }
    INFO("vector " << v);
    for (int j = 0; j < 4; ++j) {
      CHECK(sout[4 * v + j] == (std::isnan(x[j]) ? -1 : 0));
      CHECK(sout[n + 4 * v + j] == (x[j] < y[j] ? -1 : 0));
      Half chosen = x[j] < y[j] ? b[4 * v + j] : a[4 * v + j];
      CHECK(Half(sout[2 * n + 4 * v + j]) == chosen);
    }
    if (nan) continue;
    CHECK(ulps(out[v], roundHalf(dot, 0)) <= 1);
    CHECK(ulps(out[vectors + v], roundHalf(std::sqrt(len), 0)) <= 1);
    CHECK(ulps(out[2 * vectors + v], roundHalf(std::sqrt(dist), 0)) <= 1);
    if (len > 0) {
      for (int j = 0; j < 4; ++j)
        CHECK(ulps(out[n + 4 * v + j], roundHalf(x[j] / std::sqrt(len), 0)) <= 1);
    }
    double cross[4] = {x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2],
                       x[0] * y[1] - x[1] * y[0], 0};
    for (int j = 0; j < 3; ++j) CHECK(ulps(out[2 * n + 4 * v + j], roundHalf(cross[j], 0)) <= 1);
  }
}

struct Mixed {
  int8_t tag;
  Half h;
  float f;
  Half v[2];
  alignas(8) Half w[4];  // half3: the size and alignment of half4
};
static_assert(sizeof(Mixed) == 24, "OpenCL C's layout of the kernel's struct");

TEST_CASE(
    "Given a struct with halves in global memory and by value, a half argument by value and half "
    "arrays in local and private memory, then every half is read and written where it should be",
    "[jit][half][memory]") {
  const CompiledKernel& k = kernel("half", "memory");
  const uint32_t groupSize = 16, groups = 4, n = groupSize * groups;
  AlignedVector<Mixed> m(n);
  for (uint32_t i = 0; i < n; ++i) {
    m[i].tag = int8_t(i);
    m[i].h = roundHalf(i * 0.25L, 0);
    m[i].f = float(i) / 3;
    m[i].v[0] = roundHalf(i, 0), m[i].v[1] = roundHalf(0.5L, 0);
    m[i].w[0] = m[i].w[1] = 0x3C00, m[i].w[2] = roundHalf(-L(i), 0), m[i].w[3] = 0;
  }
  Mixed byValue{};
  byValue.h = 0x4000;     // 2
  byValue.v[1] = 0x4200;  // 3
  byValue.w[2] = 0x4400;  // 4
  Half scale = 0x3E00;    // 1.5
  AlignedVector<Half> out(4 * n);
  ArgBuffer args(k);
  args.set(0, ptr(m.data())).set(1, byValue).set(2, scale).set(3, ptr(out.data()));
  args.local(4, groupSize * sizeof(Half));
  launch(k, args.data(), dims1(groups, groupSize), pool());
  for (uint32_t i = 0; i < n; ++i) {
    INFO("work-item " << i);
    uint32_t mirror = (i / groupSize) * groupSize + (groupSize - 1 - i % groupSize);
    CHECK(out[4 * i] == roundHalf(mirror * 0.25L * 1.5L, 0));
    CHECK(out[4 * i + 1] == roundHalf(L(mirror) + 0.5L - L(mirror), 0));
    const Half privates[4] = {scale, byValue.h, byValue.v[1], byValue.w[2]};
    CHECK(out[4 * i + 2] == privates[i % 4]);
    CHECK(out[4 * i + 3] == roundHalf(L(float(i) / 3), 0));
    CHECK(m[i].h == roundHalf(i * 0.25L + 1, 0));
    CHECK(m[i].w[0] == 0x4000);
    CHECK(m[i].w[2] == roundHalf(-2 * L(i), 0));
  }
}

TEST_CASE(
    "Given halves in __constant and __global variables at program scope, then kernels read and "
    "update them",
    "[jit][half][memory]") {
  const CompiledKernel& k = kernel("half", "program_scope");
  AlignedVector<Half> out(9, 0);
  ArgBuffer args(k);
  args.set(0, ptr(out.data()));
  launch(k, args.data(), dims1(1, 8), pool());
  const L table[4] = {1.5L, -2.0L, 0.25L, 65504.0L};
  for (int i = 0; i < 8; ++i) {
    INFO("work-item " << i);
    CHECK(out[i] == roundHalf(table[i % 4] * (i % 4 + 1), 0));  // 65504 * 4: infinity
  }
  CHECK(out[8] == roundHalf(1.5L, 0));
}

TEST_CASE(
    "Given a half vector add, when compiled, then the work-items are widened into vector lanes as "
    "the float one's are (F16C converts whole vectors) and every sum is rounded to half",
    "[jit][half][widen]") {
  const CompiledKernel& k = kernel("half", "add");
  const CompiledKernel& f = kernel("half", "add_float");
  INFO("half: width " << k.widen.width << ", refused: " << k.widen.refused);
  // (A run with the widening off, TESSERA_WIDEN=0, widens neither: the rest still compares them.)
  if (f.widen.width != 0) CHECK(k.widen.width > 1);
  CHECK(k.widen.width == f.widen.width);
  CHECK(k.widen.widenedRegions == f.widen.widenedRegions);
  CHECK(k.widen.contiguous == f.widen.contiguous);
  CHECK(k.widen.perLane == 0);
  const size_t n = 4096;
  std::vector<Half> va = halves(n, 41), vb = halves(n, 42);
  AlignedVector<Half> a(va.begin(), va.end()), b(vb.begin(), vb.end()), out(n);
  ArgBuffer args(k);
  args.set(0, ptr(a.data())).set(1, ptr(b.data())).set(2, ptr(out.data()));
  launch(k, args.data(), dims1(uint32_t(n / 64), 64), pool());
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i)
    wrong += sameHalf(out[i], roundHalf(halfValue(a[i]) + halfValue(b[i]), 0)) ? 0 : 1;
  CHECK(wrong == 0);
}

TEST_CASE("Given printf with a half and half vectors (%v2hf), then the values are printed",
          "[jit][half][printf]") {
  const CompiledKernel& k = kernel("half", "print_half");
  AlignedVector<Half> a = {0x3E00, 0xC500, 0x0001, 0x7BFF, 0x3555, 0x4248, 0, 0};  // 1.5, -5, ...
  ArgBuffer args(k);
  args.set(0, ptr(a.data()));
  std::string text = captureFd(1, [&] { launch(k, args.data(), dims1(1, 2), pool()); });
  std::vector<std::string> lines;
  for (int i = 0; i < 2; ++i) {
    char line[256];
    float x = floatOf(a[i]);
    std::snprintf(line, sizeof line, "%d: %.4f %f,%f %.3f,%.3f,%.3f,%.3f\n", i, x, x, -x,
                  floatOf(a[4 * i]), floatOf(a[4 * i + 1]), floatOf(a[4 * i + 2]),
                  floatOf(a[4 * i + 3]));
    lines.push_back(line);
  }
  INFO(text);
  CHECK((text == lines[0] + lines[1] || text == lines[1] + lines[0]));
}

TEST_CASE(
    "Given half and UNORM images, when read with read_imageh (with and without a LINEAR sampler) "
    "and written with write_imageh, then reads are read_imagef's results rounded to half and "
    "writes store what write_imagef stores",
    "[jit][half][image]") {
  auto m = buildOpenCL(R"(
    #pragma OPENCL EXTENSION cl_khr_fp16 : enable
    __kernel void rw(read_only image2d_t src, write_only image2d_t dst, write_only image2d_t dstf,
                     __global half* out, __global float* outf) {
      int x = get_global_id(0), y = get_global_id(1), w = get_image_width(src);
      int i = y * w + x, n = w * get_image_height(src);
      const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                          CLK_FILTER_LINEAR;
      float2 c = (float2)(x + 0.3f, y + 0.7f);
      half4 v = read_imageh(src, (int2)(x, y));
      vstore4(v, i, out);
      vstore4(read_imagef(src, (int2)(x, y)), i, outf);
      vstore4(read_imageh(src, s, c), n + i, out);
      vstore4(read_imagef(src, s, c), n + i, outf);
      write_imageh(dst, (int2)(x, y), v * (half)2);
      write_imagef(dstf, (int2)(x, y), convert_float4(v * (half)2));
    })");
  const CompiledKernel& k = kernelOf(m, "rw");
  const Format formats[] = {
      {ze::kLayout16_16_16_16, ze::kFloat, {ze::R, ze::G, ze::B, ze::A}, "RGBA16F"},
      {ze::kLayout8_8_8_8, ze::kUnorm, {ze::R, ze::G, ze::B, ze::A}, "RGBA8"}};
  for (const Format& f : formats) {
    INFO(f.name);
    const uint64_t w = 8, h = 4, n = w * h;
    TestImage src(ze::k2D, f, {w, h, 1}), dst(ze::k2D, f, {w, h, 1}), dstf(ze::k2D, f, {w, h, 1});
    src.fillRandom(7);
    AlignedVector<Half> out(8 * n);
    AlignedVector<float> outf(8 * n);
    ArgBuffer args(k);
    args.set(0, src.view()).set(1, dst.view()).set(2, dstf.view());
    args.set(3, ptr(out.data())).set(4, ptr(outf.data()));
    LaunchDims d;
    d.groupSize[0] = uint32_t(w);
    d.groupCount[1] = uint32_t(h);
    d.workDim = 2;
    launch(k, args.data(), d, pool());
    for (uint64_t i = 0; i < 8 * n; ++i) {
      INFO("component " << i << ": read_imagef " << outf[i]);
      CHECK(sameHalf(out[i], roundHalf(outf[i], 0)));
    }
    CHECK(dst.bytes() == dstf.bytes());
  }
}

}  // namespace
}  // namespace tessera::backends::cpu::test
