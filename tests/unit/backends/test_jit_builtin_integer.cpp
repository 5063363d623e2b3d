// The integer builtins (OpenCL C 1.2, 6.12.3) on every integer type, scalar and 3- and 16-lane
// vectors, against exact host references computed in 128 bits, over the types' edge values (0,
// ±1, MIN, MAX, bit patterns) and their pairs and triples; upsample, mul24/mad24 and shuffle /
// shuffle2. Kernels: tests/kernels_jit/builtins_integer.cl.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "builtin_reference.h"
#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

using I128 = __int128;

template <typename T>
constexpr const char* typeName() {
  if (std::is_same_v<T, int8_t>) return "char";
  if (std::is_same_v<T, uint8_t>) return "uchar";
  if (std::is_same_v<T, int16_t>) return "short";
  if (std::is_same_v<T, uint16_t>) return "ushort";
  if (std::is_same_v<T, int32_t>) return "int";
  if (std::is_same_v<T, uint32_t>) return "uint";
  if (std::is_same_v<T, int64_t>) return "long";
  return "ulong";
}

template <typename T>
T saturate(I128 v) {
  I128 lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  return T(v < lo ? lo : v > hi ? hi : v);
}

// Exact value of a*b+c for every type (a signed or unsigned 128-bit product of 64-bit values).
template <typename T>
I128 product(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    return I128(a) * I128(b);
  } else {
    return I128(static_cast<unsigned __int128>(a) * static_cast<unsigned __int128>(b));
  }
}

template <typename T>
T mulHi(T a, T b) {
  constexpr int bits = 8 * sizeof(T);
  if constexpr (std::is_signed_v<T>) {
    return T(product(a, b) >> bits);
  } else {
    return T((static_cast<unsigned __int128>(a) * static_cast<unsigned __int128>(b)) >> bits);
  }
}

template <typename T>
T madSat(T a, T b, T c) {
  constexpr int bits = 8 * sizeof(T);
  if constexpr (std::is_signed_v<T> || bits < 64) {
    return saturate<T>(product(a, b) + I128(c));
  } else {  // ulong: the product alone may exceed the signed 128-bit range
    unsigned __int128 p = static_cast<unsigned __int128>(a) * b + c;
    return p > std::numeric_limits<T>::max() ? std::numeric_limits<T>::max() : T(p);
  }
}

template <typename T>
std::vector<T> reference(T x, T y, T z) {
  using U = std::make_unsigned_t<T>;
  constexpr int bits = 8 * sizeof(T);
  U ux = U(x), uy = U(y);
  int clz = 0, ctz = 0, pop = 0;
  while (clz < bits && !((ux >> (bits - 1 - clz)) & 1)) ++clz;
  while (ctz < bits && !((ux >> ctz) & 1)) ++ctz;
  for (int i = 0; i < bits; ++i) pop += (ux >> i) & 1;
  int r = int(uy % bits);
  U rotated = r == 0 ? ux : U(U(ux << r) | U(ux >> (bits - r)));
  I128 sx = x, sy = y;
  I128 d = sx > sy ? sx - sy : sy - sx;
  T lo = std::min(y, z), hi = std::max(y, z);
  return {
      T(U(sx < 0 ? -sx : sx)),        // abs
      T(U(d)),                        // abs_diff
      saturate<T>(sx + sy),           // add_sat
      T((sx + sy) >> 1),              // hadd
      T((sx + sy + 1) >> 1),          // rhadd
      std::min(std::max(x, lo), hi),  // clamp
      T(clz),                         // clz
      T(ctz),                         // ctz
      T(U(U(mulHi(x, y)) + U(z))),    // mad_hi
      madSat(x, y, z),                // mad_sat
      std::max(x, y),                 // max
      std::min(x, y),                 // min
      mulHi(x, y),                    // mul_hi
      T(rotated),                     // rotate
      saturate<T>(sx - sy),           // sub_sat
      T(pop),                         // popcount
  };
}

const char* const kNames[] = {"abs",    "abs_diff", "add_sat", "hadd",    "rhadd", "clamp",
                              "clz",    "ctz",      "mad_hi",  "mad_sat", "max",   "min",
                              "mul_hi", "rotate",   "sub_sat", "popcount"};

template <typename T>
std::vector<T> edgeValues() {
  using Lim = std::numeric_limits<T>;
  std::vector<T> v = {T(0),
                      T(1),
                      T(-1),
                      Lim::min(),
                      Lim::max(),
                      T(Lim::min() + 1),
                      T(Lim::max() - 1),
                      T(2),
                      T(-2),
                      T(3),
                      T(7),
                      T(100),
                      T(-100),
                      T(0x5555555555555555ull),
                      T(0xAAAAAAAAAAAAAAAAull),
                      T(Lim::max() / 2),
                      T(Lim::max() / 2 + 1),
                      T(0x1234567890ABCDEFull),
                      T(0xFEDCBA0987654321ull),
                      T(8 * sizeof(T)),
                      T(8 * sizeof(T) + 3)};
  return v;
}

template <typename T>
void checkIntegers(unsigned lanes) {
  std::string name = std::string("int_") + typeName<T>() + std::to_string(lanes);
  INFO(name);
  const CompiledKernel& k = kernel("builtins_integer", name);
  std::vector<T> v = edgeValues<T>();
  std::vector<T> x, y, z;
  for (size_t i = 0; i < v.size(); ++i)
    for (size_t j = 0; j < v.size(); ++j) {
      x.push_back(v[i]);
      y.push_back(v[j]);
      z.push_back(v[(i * 3 + j * 5 + 1) % v.size()]);
    }
  while (x.size() % (16 * 3 * 4) != 0) x.push_back(T(5)), y.push_back(T(9)), z.push_back(T(-3));
  size_t n = x.size();
  std::vector<T> out(16 * n);
  ArgBuffer args(k);
  args.set(0, static_cast<void*>(x.data())).set(1, static_cast<void*>(y.data()));
  args.set(2, static_cast<void*>(z.data())).set(3, static_cast<void*>(out.data()));
  uint32_t items = uint32_t(n / lanes);
  launch(k, args.data(), dims1(items / 4, 4), pool());
  for (size_t e = 0; e < n; ++e) {
    std::vector<T> want = reference(x[e], y[e], z[e]);
    for (size_t f = 0; f < want.size(); ++f) {
      if (out[f * n + e] != want[f]) {
        FAIL_CHECK(name << ": " << kNames[f] << "(" << int64_t(x[e]) << ", " << int64_t(y[e])
                        << ", " << int64_t(z[e]) << ") = " << int64_t(out[f * n + e]) << ", want "
                        << int64_t(want[f]));
      }
    }
  }
}

template <typename T>
void checkAllWidths() {
  checkIntegers<T>(1);
  checkIntegers<T>(3);
  checkIntegers<T>(16);
}

TEST_CASE(
    "Given the integer builtins, when run on every integer type and width, then results "
    "are exact",
    "[jit][builtins][integer]") {
  checkAllWidths<int8_t>();
  checkAllWidths<uint8_t>();
  checkAllWidths<int16_t>();
  checkAllWidths<uint16_t>();
  checkAllWidths<int32_t>();
  checkAllWidths<uint32_t>();
  checkAllWidths<int64_t>();
  checkAllWidths<uint64_t>();
}

template <typename T, typename W>
void checkUpsample(unsigned lanes) {
  using U = std::make_unsigned_t<T>;
  std::string name = std::string("upsample_") + typeName<T>() + std::to_string(lanes);
  INFO(name);
  const CompiledKernel& k = kernel("builtins_integer", name);
  std::vector<T> v = edgeValues<T>();
  std::vector<T> hi;
  std::vector<U> lo;
  for (T a : v)
    for (T b : v) hi.push_back(a), lo.push_back(U(b));
  while (hi.size() % 4 != 0) hi.push_back(T(1)), lo.push_back(U(2));
  std::vector<W> out(hi.size());
  ArgBuffer args(k);
  args.set(0, static_cast<void*>(hi.data())).set(1, static_cast<void*>(lo.data()));
  args.set(2, static_cast<void*>(out.data()));
  launch(k, args.data(), dims1(uint32_t(hi.size() / lanes), 1), pool());
  for (size_t e = 0; e < hi.size(); ++e) {
    // "result[i] = ((gentype)hi[i] << 8|16|32) | lo[i]"
    W want = W((std::make_unsigned_t<W>(U(hi[e])) << (8 * sizeof(T))) | lo[e]);
    INFO("upsample(" << int64_t(hi[e]) << ", " << uint64_t(lo[e]) << ")");
    REQUIRE(out[e] == want);
  }
}

TEST_CASE(
    "Given upsample, when run on char, short and int (signed and not), then the halves "
    "join",
    "[jit][builtins][integer]") {
  for (unsigned lanes : {1u, 4u}) {
    checkUpsample<int8_t, int16_t>(lanes);
    checkUpsample<uint8_t, uint16_t>(lanes);
    checkUpsample<int16_t, int32_t>(lanes);
    checkUpsample<uint16_t, uint32_t>(lanes);
    checkUpsample<int32_t, int64_t>(lanes);
    checkUpsample<uint32_t, uint64_t>(lanes);
  }
}

TEST_CASE("Given mul24 and mad24, when the arguments fit 24 bits, then results are the products",
          "[jit][builtins][integer]") {
  const CompiledKernel& k = kernel("builtins_integer", "int24");
  std::vector<int32_t> a = {0, 1, -1, 8388607, -8388608, 1234, -4321, 65536};
  std::vector<int32_t> b = {5, -8388608, 8388607, 3, 2, -1234, 77, 100};
  std::vector<int32_t> c = {1, 2, 3, -4, 5, 6, 2147483647, -7};
  std::vector<int32_t> out(4 * a.size());
  ArgBuffer args(k);
  args.set(0, static_cast<void*>(a.data())).set(1, static_cast<void*>(b.data()));
  args.set(2, static_cast<void*>(c.data())).set(3, static_cast<void*>(out.data()));
  size_t n = a.size();
  launch(k, args.data(), dims1(1, uint32_t(n)), pool());
  for (size_t i = 0; i < n; ++i) {
    INFO("a = " << a[i] << ", b = " << b[i] << ", c = " << c[i]);
    uint32_t ua = uint32_t(a[i]) & 0xFFFFFF, ub = uint32_t(b[i]) & 0xFFFFFF;
    CHECK(out[i] == int32_t(uint32_t(a[i]) * uint32_t(b[i])));
    CHECK(out[n + i] == int32_t(uint32_t(a[i]) * uint32_t(b[i]) + uint32_t(c[i])));
    CHECK(out[2 * n + i] == int32_t(ua * ub));
    CHECK(out[3 * n + i] == int32_t(ua * ub + uint32_t(c[i])));
  }
}

TEST_CASE(
    "Given shuffle and shuffle2, when masks come at run time or as constants, then lanes "
    "move as the masks' low bits say",
    "[jit][builtins][integer]") {
  const CompiledKernel& k = kernel("builtins_integer", "shuffles");
  const size_t n = 8;
  AlignedVector<int32_t> x(8 * n), y(8 * n), out(32 * n);
  AlignedVector<uint32_t> m(8 * n);
  AlignedVector<float> f(4 * n);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = int32_t(100 + i);
    y[i] = int32_t(-100 - int(i));
    m[i] = uint32_t(i * 2654435761u);  // high bits set: only the low bits may count
  }
  ArgBuffer args(k);
  args.set(0, static_cast<void*>(x.data())).set(1, static_cast<void*>(y.data()));
  args.set(2, static_cast<void*>(m.data())).set(3, static_cast<void*>(out.data()));
  args.set(4, static_cast<void*>(f.data()));
  launch(k, args.data(), dims1(2, n / 2), pool());
  const uint32_t constant[8] = {15, 0, 14, 1, 13, 2, 8, 7};
  for (size_t i = 0; i < n; ++i) {
    const int32_t* xs = &x[8 * i];
    const int32_t* ys = &y[8 * i];
    const uint32_t* ms = &m[8 * i];
    auto both = [&](uint32_t j) { return j < 8 ? xs[j] : ys[j - 8]; };
    for (size_t l = 0; l < 8; ++l) {
      INFO("work-item " << i << ", lane " << l << ", mask " << ms[l]);
      CHECK(out[32 * i + l] == xs[ms[l] & 7]);
      CHECK(out[32 * i + 8 + l] == both(ms[l] & 15));
      CHECK(out[32 * i + 16 + l] == both(constant[l]));
      int32_t want = l < 4 || (ms[l] & 3) < 2 ? xs[ms[l] & 3] : ys[(ms[l] & 3) - 2];
      CHECK(out[32 * i + 24 + l] == want);
    }
    CHECK(f[4 * i] == 2.0f);
    CHECK(f[4 * i + 1] == 1.0f);
    CHECK(f[4 * i + 2] == 2.0f);
    CHECK(f[4 * i + 3] == 2.0f);  // 3 & 1
  }
}

}  // namespace
}  // namespace tessera::backends::cpu::test
