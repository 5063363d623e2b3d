// Every format class through read_image{f,i,ui} and write_image{f,i,ui} without a sampler, against
// the test's decoding and encoding (image_test_support.h): OpenCL 1.2's required formats (RGBA of
// UNORM_INT8/16, SIGNED/UNSIGNED_INT8/16/32, HALF_FLOAT, FLOAT, and BGRA UNORM_INT8) and the
// other orders and packed layouts (R, RG, A, INTENSITY, LUMINANCE, ARGB, 565, 555, 101010,
// 4444, 11_11_10, SNORM), decoded inline or by the runtime. Reads bit for bit; writes with
// saturation, rounding to nearest even and NaN.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "image_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

const char* const kSource = R"(
  #define POS int x = get_global_id(0), y = get_global_id(1); size_t at = y * get_global_size(0) + x;
  __kernel void rf(read_only image2d_t i, __global float4* o) { POS o[at] = read_imagef(i, (int2)(x, y)); }
  __kernel void ri(read_only image2d_t i, __global int4* o) { POS o[at] = read_imagei(i, (int2)(x, y)); }
  __kernel void ru(read_only image2d_t i, __global uint4* o) { POS o[at] = read_imageui(i, (int2)(x, y)); }
  __kernel void wf(write_only image2d_t i, __global const float4* v) { POS write_imagef(i, (int2)(x, y), v[at]); }
  __kernel void wi(write_only image2d_t i, __global const int4* v) { POS write_imagei(i, (int2)(x, y), v[at]); }
  __kernel void wu(write_only image2d_t i, __global const uint4* v) { POS write_imageui(i, (int2)(x, y), v[at]); }
)";

constexpr uint32_t kWidth = 21, kHeight = 3;  // 21: a widened chunk of 16, then 8-wide, then scalar

const std::vector<Format>& formats() {
  using namespace ze;
  static const std::vector<Format> f = {
      {kLayout8_8_8_8, kUnorm, {R, G, B, A}, "RGBA UNORM_INT8"},
      {kLayout8_8_8_8, kUnorm, {B, G, R, A}, "BGRA UNORM_INT8"},
      {kLayout8_8_8_8, kUnorm, {G, B, A, R}, "ARGB UNORM_INT8"},
      {kLayout8, kUnorm, {R, Zero, Zero, One}, "R UNORM_INT8"},
      {kLayout8, kUnorm, {Zero, Zero, Zero, R}, "A UNORM_INT8"},
      {kLayout8, kUnorm, {R, R, R, R}, "INTENSITY UNORM_INT8"},
      {kLayout8, kUnorm, {R, R, R, One}, "LUMINANCE UNORM_INT8"},
      {kLayout8_8, kUnorm, {R, G, Zero, One}, "RG UNORM_INT8"},
      {kLayout16, kUnorm, {R, Zero, Zero, One}, "R UNORM_INT16"},
      {kLayout16_16_16_16, kUnorm, {R, G, B, A}, "RGBA UNORM_INT16"},
      {kLayout8_8_8_8, kSnorm, {R, G, B, A}, "RGBA SNORM_INT8"},
      {kLayout16_16_16_16, kSnorm, {R, G, B, A}, "RGBA SNORM_INT16"},
      {kLayout5_6_5, kUnorm, {B, G, R, One}, "RGB UNORM_SHORT_565"},
      {kLayout5_5_5_1, kUnorm, {B, G, R, One}, "RGB UNORM_SHORT_555"},
      {kLayout10_10_10_2, kUnorm, {B, G, R, One}, "RGB UNORM_INT_101010"},
      {kLayout4_4_4_4, kUnorm, {R, G, B, A}, "RGBA 4_4_4_4 UNORM"},
      {kLayout8_8_8_8, kUint, {R, G, B, A}, "RGBA UNSIGNED_INT8"},
      {kLayout16_16_16_16, kUint, {R, G, B, A}, "RGBA UNSIGNED_INT16"},
      {kLayout32_32_32_32, kUint, {R, G, B, A}, "RGBA UNSIGNED_INT32"},
      {kLayout8, kUint, {R, Zero, Zero, One}, "R UNSIGNED_INT8"},
      {kLayout32, kUint, {R, Zero, Zero, One}, "R UNSIGNED_INT32"},
      {kLayout10_10_10_2, kUint, {R, G, B, A}, "RGBA 10_10_10_2 UINT"},
      {kLayout8_8_8_8, kSint, {R, G, B, A}, "RGBA SIGNED_INT8"},
      {kLayout16_16_16_16, kSint, {R, G, B, A}, "RGBA SIGNED_INT16"},
      {kLayout32_32_32_32, kSint, {R, G, B, A}, "RGBA SIGNED_INT32"},
      {kLayout16, kSint, {R, Zero, Zero, One}, "R SIGNED_INT16"},
      {kLayout16_16_16_16, kFloat, {R, G, B, A}, "RGBA HALF_FLOAT"},
      {kLayout32_32_32_32, kFloat, {R, G, B, A}, "RGBA FLOAT"},
      {kLayout32, kFloat, {R, Zero, Zero, One}, "R FLOAT"},
      {kLayout16, kFloat, {R, Zero, Zero, One}, "R HALF_FLOAT"},
      {kLayout32_32, kFloat, {R, G, Zero, One}, "RG FLOAT"},
      {kLayout11_11_10, kFloat, {R, G, B, One}, "RGB 11_11_10 FLOAT"},
  };
  return f;
}

bool isInteger(const Format& f) {
  return f.type == ze::kUint || f.type == ze::kSint;
}

// `check(format, image)` for every format, on a fresh 2D image of it.
template <typename Check>
void forEachFormat(Check check) {
  for (const Format& f : formats()) {
    TestImage img(ze::k2D, f, {kWidth, kHeight, 1});
    check(f, img);
  }
}

// Runs the kSource kernel that reads ('r') or writes ('w') images of img's format over every
// pixel, `values` its second argument.
void runOverImage(char op, TestImage& img, void* values) {
  static const std::shared_ptr<const CompiledModule> m = buildOpenCL(kSource);
  const uint32_t type = img.format().type;
  char kind = type == ze::kSint ? 'i' : type == ze::kUint ? 'u' : 'f';
  const CompiledKernel& k = kernelOf(m, std::string{op, kind});
  ArgBuffer args(k);
  args.set(0, img.view()).set(1, values);
  LaunchDims d;
  d.groupSize[0] = kWidth;
  d.groupCount[1] = kHeight;
  d.workDim = 2;
  launch(k, args.data(), d, pool());
}

// The component a written channel lands in, as image_abi.h says: component k takes the first
// channel whose swizzle names it (none: 0).
int channelOf(const Format& f, int component) {
  for (int ch = 0; ch < 4; ++ch)
    if (f.swizzle[ch] == component) return ch;
  return -1;
}

// The nearest value of an unsigned float with 5 exponent bits and `m` mantissa bits (ties to the
// even code; past the largest finite value, infinity, which sits where 2^16 would be).
uint64_t nearestSmallFloat(double v, uint32_t m) {
  if (std::isnan(v)) return ~uint64_t{0};
  if (v == INFINITY) return uint64_t{31} << m;
  uint64_t best = 0;
  double bestDistance = INFINITY;
  for (uint64_t code = 0; code <= (uint64_t{31} << m); ++code) {
    uint64_t e = code >> m, frac = code & ((uint64_t{1} << m) - 1);
    double value = e == 31  ? 65536.0
                   : e == 0 ? std::ldexp(double(frac), -14 - int(m))
                            : std::ldexp(1.0 + std::ldexp(double(frac), -int(m)), int(e) - 15);
    double d = std::fabs(value - v);
    if (d < bestDistance || (d == bestDistance && (code & 1) == 0)) best = code, bestDistance = d;
  }
  return best;
}

// write_imagef's stored bits of `v` in a FLOAT component of `bits` bits (NaN: ~0, any NaN).
uint64_t encodeFloat(float v, uint32_t bits) {
  if (bits == 32) return toBits(v);
  if (std::isnan(v)) return ~uint64_t{0};
  if (bits == 16)
    return (std::signbit(v) ? 0x8000u : 0u) | nearestSmallFloat(std::fabs(double(v)), 10);
  return v > 0 ? nearestSmallFloat(double(v), bits - 5) : 0;
}

// Component k's bits of pixel p.
uint64_t storedComponent(const uint8_t* p, const LayoutBits& l, size_t k) {
  uint32_t at = 0;
  for (size_t i = 0; i < k; ++i) at += l.bits[i];
  uint64_t v = 0;
  for (uint32_t bit = 0; bit < l.bits[k]; ++bit, ++at)
    v |= uint64_t((p[at / 8] >> (at % 8)) & 1) << bit;
  return v;
}

bool isNanBits(uint64_t v, uint32_t bits) {
  if (bits == 32) return std::isnan(toFloat(uint32_t(v)));
  uint32_t m = bits == 16 ? 10 : bits - 5;
  return ((v >> m) & 31) == 31 && (v & ((uint64_t{1} << m) - 1)) != 0;
}

// Values that test rounding ties, saturation, signs, NaN and infinities.
const float kFloatValues[] = {
    -INFINITY, -1e30f, -1.5f,         -1.0f,         -0.5f,         -0.0f,    0.0f,
    1e-8f,     0.3f,   0.5f / 255.0f, 1.5f / 255.0f, 2.5f / 255.0f, 0.5f,     0.999f,
    1.0f,      1.7f,   65504.0f,      70000.0f,      1e30f,         INFINITY, NAN};
const int64_t kIntValues[] = {INT32_MIN, -32769, -32768, -129,  -128,  -1,    0,     1,        127,
                              128,       255,    256,    32767, 32768, 65535, 65536, INT32_MAX};

}  // namespace

TEST_CASE(
    "Given every format, when each pixel is read without a sampler, then the values are the "
    "format's decoded components, swizzled",
    "[jit][image][formats]") {
  forEachFormat([](const Format& f, TestImage& img) {
    img.fillRandom(3);
    std::vector<std::array<uint32_t, 4>> out(kWidth * kHeight);
    runOverImage('r', img, out.data());
    for (uint32_t y = 0; y < kHeight; ++y)
      for (uint32_t x = 0; x < kWidth; ++x) {
        std::array<double, 4> ref = applySwizzle(f, referenceComponents(img, x, y, 0));
        for (int c = 0; c < 4; ++c) {
          uint32_t got = out[y * kWidth + x][c];
          INFO(f.name << " pixel (" << x << ", " << y << ") channel " << c << ": got 0x" << std::hex
                      << got << std::dec << ", expected " << ref[c]);
          if (f.type == ze::kSint)
            REQUIRE(int32_t(got) == int64_t(ref[c]));
          else if (f.type == ze::kUint)
            REQUIRE(got == uint64_t(ref[c]));
          else if (std::isnan(ref[c]))
            REQUIRE(std::isnan(toFloat(got)));
          else
            REQUIRE(toFloat(got) == float(ref[c]));
        }
      }
  });
}

TEST_CASE(
    "Given every format, when values are written without a sampler, then each component "
    "holds the format's conversion of its channel",
    "[jit][image][formats]") {
  forEachFormat([](const Format& f, TestImage& img) {
    LayoutBits l = layoutBits(f.layout);
    std::vector<std::array<uint32_t, 4>> in(kWidth * kHeight);
    for (size_t i = 0; i < in.size(); ++i)
      for (size_t c = 0; c < 4; ++c) {
        size_t pick = i * 4 + c * 7;
        in[i][c] = isInteger(f) ? uint32_t(kIntValues[pick % std::size(kIntValues)])
                                : toBits(kFloatValues[pick % std::size(kFloatValues)]);
      }
    runOverImage('w', img, in.data());
    for (uint32_t y = 0; y < kHeight; ++y)
      for (uint32_t x = 0; x < kWidth; ++x)
        for (size_t comp = 0; comp < l.bits.size(); ++comp) {
          int ch = channelOf(f, int(comp));
          uint32_t value = ch < 0 ? 0 : in[y * kWidth + x][ch];
          uint32_t bits = l.bits[comp];
          uint64_t expected;
          if (f.type == ze::kFloat)
            expected = encodeFloat(toFloat(value), bits);
          else if (f.type == ze::kUint)
            expected = referenceEncode(double(value), bits, f.type);
          else if (f.type == ze::kSint)
            expected = referenceEncode(double(int32_t(value)), bits, f.type);
          else
            expected = referenceEncode(double(toFloat(value)), bits, f.type);
          uint64_t got = storedComponent(img.pixel(x, y), l, comp);
          INFO(f.name << " pixel (" << x << ", " << y << ") component " << comp << " from 0x"
                      << std::hex << value << ": got 0x" << got << ", expected 0x" << expected);
          if (expected == ~uint64_t{0})
            REQUIRE(isNanBits(got, bits));
          else
            REQUIRE(got == expected);
        }
  });
}

}  // namespace tessera::backends::cpu::test
