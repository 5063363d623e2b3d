// The generic texel codec (image_runtime.h): every layout and type of image_abi.h, one pixel at a
// time. Conversions follow OpenCL C 1.2, 8.3 "Conversion Rules" (the same text is in 3.0's
// "Conversion rules for normalized integer channel data types" and the following sections).
#include "backends/cpu/runtime/image_runtime.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>

namespace tessera::backends::cpu::jit {
namespace {

namespace fmt = image_format;

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

float floatOf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

uint64_t maxOf(uint32_t bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

// "CL_UNORM_INT8: normalized float value = (float)c / 255.0f" (and 16 bits: / 65535.0f; the packed
// 5-, 6- and 10-bit channels likewise by 2^n - 1). "CL_SNORM_INT8: max(-1.0f, (float)c / 127.0f)".
float unormToFloat(uint64_t c, uint32_t bits) {
  if (bits > 24)
    return static_cast<float>(static_cast<double>(c) / static_cast<double>(maxOf(bits)));
  return static_cast<float>(c) / static_cast<float>(maxOf(bits));
}

float snormToFloat(int64_t c, uint32_t bits) {
  double max = static_cast<double>(maxOf(bits - 1));
  float f = bits > 24 ? static_cast<float>(static_cast<double>(c) / max)
                      : static_cast<float>(c) / static_cast<float>(max);
  return std::max(-1.0f, f);
}

// "CL_UNORM_INT8: c = convert_uchar_sat_rte(f * 255.0f)": the product in float, rounded to nearest
// even, saturated; NaN gives 0 (the _sat conversions' rule).
uint64_t floatToUnorm(float f, uint32_t bits) {
  float max = static_cast<float>(maxOf(bits));
  float scaled = f * max;
  if (!(scaled > 0.0f)) return 0;
  if (scaled >= max) return maxOf(bits);
  return static_cast<uint64_t>(std::nearbyint(scaled));
}

// "CL_SNORM_INT8: c = convert_char_sat_rte(f * 127.0f)": saturated to [-128, 127].
int64_t floatToSnorm(float f, uint32_t bits) {
  float max = static_cast<float>(maxOf(bits - 1));
  float scaled = f * max;
  if (std::isnan(scaled)) return 0;
  if (scaled >= max) return static_cast<int64_t>(maxOf(bits - 1));
  if (scaled <= -max - 1.0f) return -static_cast<int64_t>(maxOf(bits - 1)) - 1;
  return static_cast<int64_t>(std::nearbyint(scaled));
}

int64_t signExtend(uint64_t v, uint32_t bits) {
  if (bits >= 64) return static_cast<int64_t>(v);
  uint64_t sign = uint64_t{1} << (bits - 1);
  return static_cast<int64_t>((v ^ sign) - sign);
}

uint32_t decodeComponent(uint64_t v, uint32_t bits, uint32_t type) {
  switch (type) {
    case fmt::kUint:
      return static_cast<uint32_t>(v);
    case fmt::kSint:
      return static_cast<uint32_t>(signExtend(v, bits));
    case fmt::kUnorm:
      return bitsOf(unormToFloat(v, bits));
    case fmt::kSnorm:
      return bitsOf(snormToFloat(signExtend(v, bits), bits));
    case fmt::kFloat:
      if (bits == 32) return static_cast<uint32_t>(v);
      if (bits == 16) return bitsOf(halfToFloat(static_cast<uint16_t>(v)));
      if (bits == 11 || bits == 10)
        return bitsOf(smallFloatToFloat(static_cast<uint32_t>(v), bits - 5));
      return 0;
    default:
      return 0;
  }
}

// write_imagei: "convert_char_sat(i)" and the like; write_imageui: "convert_uchar_sat(u)" (the
// value as unsigned).
uint64_t encodeComponent(uint32_t c, uint32_t bits, uint32_t type) {
  switch (type) {
    case fmt::kUint:
      return std::min<uint64_t>(c, maxOf(bits));
    case fmt::kSint: {
      int64_t max = static_cast<int64_t>(maxOf(bits - 1));
      return static_cast<uint64_t>(std::clamp<int64_t>(static_cast<int32_t>(c), -max - 1, max)) &
             maxOf(bits);
    }
    case fmt::kUnorm:
      return floatToUnorm(floatOf(c), bits);
    case fmt::kSnorm:
      return static_cast<uint64_t>(floatToSnorm(floatOf(c), bits)) & maxOf(bits);
    case fmt::kFloat:
      if (bits == 32) return c;
      if (bits == 16) return floatToHalf(floatOf(c));
      if (bits == 11 || bits == 10) return floatToSmallFloat(floatOf(c), bits - 5);
      return 0;
    default:
      return 0;
  }
}

// The pixel of (x, y, z), or null when a coordinate is out of range.
uint8_t* pixelAt(const ImageView* v, int32_t x, int32_t y, int32_t z) {
  if (v == nullptr || v->data == nullptr || x < 0 || y < 0 || z < 0) return nullptr;
  if (static_cast<uint64_t>(x) >= v->extent[0] || static_cast<uint64_t>(y) >= v->extent[1] ||
      static_cast<uint64_t>(z) >= v->extent[2])
    return nullptr;
  return v->data + static_cast<uint64_t>(x) * v->pixelBytes +
         static_cast<uint64_t>(y) * v->rowPitch + static_cast<uint64_t>(z) * v->slicePitch;
}

// A pixel's bytes as a little-endian 128-bit integer: component k's bits lie in one of the two
// words (no layout has a component across bit 64).
struct PixelBits {
  uint64_t word[2] = {0, 0};
  uint64_t get(uint32_t offset, uint32_t bits) const {
    return (word[offset / 64] >> (offset % 64)) & maxOf(bits);
  }
  void set(uint32_t offset, uint32_t bits, uint64_t v) {
    uint64_t mask = maxOf(bits) << (offset % 64);
    word[offset / 64] = (word[offset / 64] & ~mask) | ((v << (offset % 64)) & mask);
  }
};

// What the runtime knows of a layout: its components, their widths in bits from the lowest bits
// of the pixel up, and the pixel's bytes. `count` 0: not a layout kernels can access (media).
struct ImageLayoutInfo {
  uint32_t count = 0;
  uint32_t bits[4] = {0, 0, 0, 0};
  uint32_t bytes = 0;
};

// By ze_image_format_layout_t, from 8 (0) to 4_4_4_4 (13).
constexpr ImageLayoutInfo kLayouts[] = {
    {1, {8, 0, 0, 0}, 1},     {1, {16, 0, 0, 0}, 2},   {1, {32, 0, 0, 0}, 4},
    {2, {8, 8, 0, 0}, 2},     {4, {8, 8, 8, 8}, 4},    {2, {16, 16, 0, 0}, 4},
    {4, {16, 16, 16, 16}, 8}, {2, {32, 32, 0, 0}, 8},  {4, {32, 32, 32, 32}, 16},
    {4, {10, 10, 10, 2}, 4},  {3, {11, 11, 10, 0}, 4}, {3, {5, 6, 5, 0}, 2},
    {4, {5, 5, 5, 1}, 2},     {4, {4, 4, 4, 4}, 2}};
static_assert(std::size(kLayouts) == fmt::kLayout4_4_4_4 + 1);

ImageLayoutInfo layoutOf(uint32_t layout) {
  return layout < std::size(kLayouts) ? kLayouts[layout] : ImageLayoutInfo{};
}

uint32_t accessBytes(const ImageView& v, const ImageLayoutInfo& l) {
  return std::min<uint32_t>(std::min<uint32_t>(l.bytes, v.pixelBytes), 16);
}

// Loads and stores of whole words (a copy of a variable size through memory cost a failed store
// forwarding on every texel: a third of the runtime's time).
template <typename Word>
uint64_t loadWord(const uint8_t* p) {
  Word w;
  std::memcpy(&w, p, sizeof w);
  return w;
}

PixelBits loadPixel(const uint8_t* p, uint32_t bytes) {
  PixelBits px;
  switch (bytes) {
    case 1:
      px.word[0] = p[0];
      break;
    case 2:
      px.word[0] = loadWord<uint16_t>(p);
      break;
    case 4:
      px.word[0] = loadWord<uint32_t>(p);
      break;
    case 8:
      px.word[0] = loadWord<uint64_t>(p);
      break;
    case 16:
      px.word[0] = loadWord<uint64_t>(p);
      px.word[1] = loadWord<uint64_t>(p + 8);
      break;
    default:
      std::memcpy(px.word, p, bytes);
      break;
  }
  return px;
}

}  // namespace

float smallFloatToFloat(uint32_t bits, uint32_t mantissaBits) {
  uint32_t exponent = (bits >> mantissaBits) & 0x1f;
  uint32_t mantissa = bits & static_cast<uint32_t>(maxOf(mantissaBits));
  // A NaN keeps its payload, made quiet (as LLVM's fpext of a half, the inline decoding's).
  if (exponent == 0x1f)
    return floatOf(0x7f800000u | (mantissa ? 0x400000u : 0) | (mantissa << (23 - mantissaBits)));
  if (exponent == 0)  // subnormal: mantissa * 2^(-14 - mantissaBits), exact in float
    return std::ldexp(static_cast<float>(mantissa), -14 - static_cast<int>(mantissaBits));
  return floatOf(((exponent + 112) << 23) | (mantissa << (23 - mantissaBits)));
}

// f with 5 exponent bits (bias 15) and `mantissaBits` bits, rounded to nearest even; too large
// rounds to infinity, negative numbers give 0 (the format has no sign), NaN stays NaN.
uint32_t floatToSmallFloat(float f, uint32_t mantissaBits) {
  const uint32_t inf = 0x1fu << mantissaBits;
  if (std::isnan(f))  // quiet, with the payload's high bits (as x86's conversion to half)
    return inf | (1u << (mantissaBits - 1)) | ((bitsOf(f) & 0x7fffff) >> (23 - mantissaBits));
  if (!(f > 0.0f)) return 0;
  uint32_t abs = bitsOf(f);
  int exponent = static_cast<int>(abs >> 23) - 112;
  if (exponent >= 31) return inf;
  if (exponent <= 0)  // below the smallest normal: a multiple of 2^(-14 - mantissaBits)
    return static_cast<uint32_t>(
        std::nearbyint(std::ldexp(f, 14 + static_cast<int>(mantissaBits))));
  uint32_t shift = 23 - mantissaBits;
  uint32_t mantissa = abs & 0x7fffff;
  uint32_t r = (static_cast<uint32_t>(exponent) << mantissaBits) | (mantissa >> shift);
  uint32_t rest = mantissa & ((1u << shift) - 1);
  uint32_t half = 1u << (shift - 1);
  if (rest > half || (rest == half && (r & 1))) ++r;  // a carry moves into the exponent
  return std::min(r, inf);
}

float halfToFloat(uint16_t h) {
  return floatOf(bitsOf(smallFloatToFloat(h & 0x7fffu, 10)) | (uint32_t{h & 0x8000u} << 16));
}

uint16_t floatToHalf(float f) {
  uint16_t sign = (bitsOf(f) >> 16) & 0x8000u;
  return static_cast<uint16_t>(sign | floatToSmallFloat(std::fabs(f), 10));
}

TexelBits imageLoadRuntime(const ImageView* view, int32_t x, int32_t y, int32_t z) {
  TexelBits out = {0, 0, 0, 0};
  const uint8_t* p = pixelAt(view, x, y, z);
  ImageLayoutInfo l = layoutOf(view == nullptr ? ~0u : view->layout);
  if (p == nullptr || l.count == 0) return out;
  PixelBits pixel = loadPixel(p, accessBytes(*view, l));
  uint32_t offset = 0;
  for (uint32_t k = 0; k < l.count; ++k) {
    out[k] = decodeComponent(pixel.get(offset, l.bits[k]), l.bits[k], view->type);
    offset += l.bits[k];
  }
  return out;
}

void imageStoreRuntime(const ImageView* view, int32_t x, int32_t y, int32_t z, uint32_t c0,
                       uint32_t c1, uint32_t c2, uint32_t c3) {
  uint8_t* p = pixelAt(view, x, y, z);
  ImageLayoutInfo l = layoutOf(view == nullptr ? ~0u : view->layout);
  if (p == nullptr || l.count == 0) return;
  const uint32_t c[4] = {c0, c1, c2, c3};
  PixelBits pixel;
  uint32_t offset = 0;
  for (uint32_t k = 0; k < l.count; ++k) {
    pixel.set(offset, l.bits[k], encodeComponent(c[k], l.bits[k], view->type));
    offset += l.bits[k];
  }
  std::memcpy(p, pixel.word, accessBytes(*view, l));
}

}  // namespace tessera::backends::cpu::jit
