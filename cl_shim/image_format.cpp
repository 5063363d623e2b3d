#include "cl_shim/image_format.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tessera::cl {
namespace {

constexpr auto R = ZE_IMAGE_FORMAT_SWIZZLE_R, G = ZE_IMAGE_FORMAT_SWIZZLE_G,
               B = ZE_IMAGE_FORMAT_SWIZZLE_B, A = ZE_IMAGE_FORMAT_SWIZZLE_A,
               Z = ZE_IMAGE_FORMAT_SWIZZLE_0, O = ZE_IMAGE_FORMAT_SWIZZLE_1;

struct Order {
  cl_channel_order order;
  uint32_t components;  // stored components
  ze_image_format_swizzle_t swizzle[4];
};

constexpr Order kOrders[] = {
    {CL_RGBA, 4, {R, G, B, A}},      {CL_BGRA, 4, {B, G, R, A}}, {CL_ARGB, 4, {G, B, A, R}},
    {CL_ABGR, 4, {A, B, G, R}},      {CL_R, 1, {R, Z, Z, O}},    {CL_A, 1, {Z, Z, Z, R}},
    {CL_INTENSITY, 1, {R, R, R, R}}, {CL_LUMINANCE, 1, {R, R, R, O}},
    {CL_RG, 2, {R, G, Z, O}},        {CL_RA, 2, {R, Z, Z, G}},   {CL_RGB, 3, {B, G, R, O}},
};

struct DataType {
  cl_channel_type type;
  ze_image_format_type_t ze;
  uint32_t bits;  // per component; 0 for the packed types
};

constexpr DataType kTypes[] = {
    {CL_UNORM_INT8, ZE_IMAGE_FORMAT_TYPE_UNORM, 8},    {CL_UNORM_INT16, ZE_IMAGE_FORMAT_TYPE_UNORM, 16},
    {CL_SNORM_INT8, ZE_IMAGE_FORMAT_TYPE_SNORM, 8},    {CL_SNORM_INT16, ZE_IMAGE_FORMAT_TYPE_SNORM, 16},
    {CL_SIGNED_INT8, ZE_IMAGE_FORMAT_TYPE_SINT, 8},    {CL_SIGNED_INT16, ZE_IMAGE_FORMAT_TYPE_SINT, 16},
    {CL_SIGNED_INT32, ZE_IMAGE_FORMAT_TYPE_SINT, 32},  {CL_UNSIGNED_INT8, ZE_IMAGE_FORMAT_TYPE_UINT, 8},
    {CL_UNSIGNED_INT16, ZE_IMAGE_FORMAT_TYPE_UINT, 16}, {CL_UNSIGNED_INT32, ZE_IMAGE_FORMAT_TYPE_UINT, 32},
    {CL_HALF_FLOAT, ZE_IMAGE_FORMAT_TYPE_FLOAT, 16},   {CL_FLOAT, ZE_IMAGE_FORMAT_TYPE_FLOAT, 32},
    {CL_UNORM_SHORT_565, ZE_IMAGE_FORMAT_TYPE_UNORM, 0}, {CL_UNORM_SHORT_555, ZE_IMAGE_FORMAT_TYPE_UNORM, 0},
    {CL_UNORM_INT_101010, ZE_IMAGE_FORMAT_TYPE_UNORM, 0},
};

const Order* findOrder(cl_channel_order o) {
  for (const Order& x : kOrders)
    if (x.order == o) return &x;
  return nullptr;
}

const DataType* findType(cl_channel_type t) {
  for (const DataType& x : kTypes)
    if (x.type == t) return &x;
  return nullptr;
}

bool packed(cl_channel_type t) {
  return t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555 || t == CL_UNORM_INT_101010;
}

// Which formats the table serves: all 12 data types for R, A, RG, RA and RGBA; for INTENSITY and
// LUMINANCE the six the OpenCL 1.2 table allowed ("CL_UNORM_INT8, CL_UNORM_INT16, CL_SNORM_INT8,
// CL_SNORM_INT16, CL_HALF_FLOAT, or CL_FLOAT"), for BGRA/ARGB/ABGR its four 8-bit types, and for
// RGB the three packed types.
bool served(cl_channel_order o, cl_channel_type t) {
  switch (o) {
    case CL_R: case CL_A: case CL_RG: case CL_RA: case CL_RGBA: return !packed(t);
    case CL_INTENSITY:
    case CL_LUMINANCE:
      return t == CL_UNORM_INT8 || t == CL_UNORM_INT16 || t == CL_SNORM_INT8 ||
             t == CL_SNORM_INT16 || t == CL_HALF_FLOAT || t == CL_FLOAT;
    case CL_BGRA: case CL_ARGB: case CL_ABGR:
      return t == CL_UNORM_INT8 || t == CL_SNORM_INT8 || t == CL_SIGNED_INT8 || t == CL_UNSIGNED_INT8;
    case CL_RGB: return packed(t);
    default: return false;
  }
}

// The channels every order of the spec's table has, known or not to the table above.
uint32_t channelCount(cl_channel_order o) {
  switch (o) {
    case CL_R: case CL_A: case CL_INTENSITY: case CL_LUMINANCE: case CL_DEPTH: return 1;
    case CL_RG: case CL_RA: case CL_Rx: case CL_DEPTH_STENCIL: return 2;
    case CL_RGB: case CL_RGx: case CL_sRGB: return 3;
    case CL_RGBA: case CL_BGRA: case CL_ARGB: case CL_ABGR: case CL_RGBx: case CL_sRGBx:
    case CL_sRGBA: case CL_sBGRA: return 4;
    default: return 0;
  }
}

ImageFormat make(const Order& o, const DataType& t) {
  ImageFormat f;
  f.cl = {o.order, t.type};
  f.ze.type = t.ze;
  f.ze.x = o.swizzle[0];
  f.ze.y = o.swizzle[1];
  f.ze.z = o.swizzle[2];
  f.ze.w = o.swizzle[3];
  if (t.bits == 0) {
    f.ze.layout = t.type == CL_UNORM_SHORT_565   ? ZE_IMAGE_FORMAT_LAYOUT_5_6_5
                  : t.type == CL_UNORM_SHORT_555 ? ZE_IMAGE_FORMAT_LAYOUT_5_5_5_1
                                                 : ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2;
    f.pixelBytes = t.type == CL_UNORM_INT_101010 ? 4 : 2;
    return f;
  }
  static constexpr ze_image_format_layout_t layouts[3][3] = {
      {ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_LAYOUT_16, ZE_IMAGE_FORMAT_LAYOUT_32},
      {ZE_IMAGE_FORMAT_LAYOUT_8_8, ZE_IMAGE_FORMAT_LAYOUT_16_16, ZE_IMAGE_FORMAT_LAYOUT_32_32},
      {ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16,
       ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32}};
  int row = o.components == 1 ? 0 : o.components == 2 ? 1 : 2;
  int col = t.bits == 8 ? 0 : t.bits == 16 ? 1 : 2;
  f.ze.layout = layouts[row][col];
  f.pixelBytes = o.components * t.bits / 8;
  return f;
}

// Component widths of the packed layouts, component 0 (lowest bits) first.
void packedWidths(ze_image_format_layout_t l, uint32_t w[4]) {
  const uint32_t w565[4] = {5, 6, 5, 0}, w5551[4] = {5, 5, 5, 1}, w1010102[4] = {10, 10, 10, 2};
  const uint32_t* src = l == ZE_IMAGE_FORMAT_LAYOUT_5_6_5     ? w565
                        : l == ZE_IMAGE_FORMAT_LAYOUT_5_5_5_1 ? w5551
                                                              : w1010102;
  std::copy(src, src + 4, w);
}

// write_imagef's conversions: "convert_uchar_sat_rte(f * 255.0f)", "convert_char_sat_rte(f *
// 127.0f)" and the like (the product saturated: an SNORM value of -2.0f is -128); NaN becomes 0.
uint32_t unorm(float f, uint32_t max) {
  if (!(f > 0.0f)) return 0;
  if (f >= 1.0f) return max;
  return uint32_t(std::nearbyint(f * float(max)));
}

int32_t snorm(float f, int32_t max) {
  if (std::isnan(f)) return 0;
  float v = std::nearbyint(f * float(max));
  return int32_t(std::clamp(v, -float(max) - 1.0f, float(max)));
}

}  // namespace

uint16_t floatToHalf(float v) {
  uint32_t x;
  std::memcpy(&x, &v, 4);
  const uint16_t sign = uint16_t((x >> 16) & 0x8000);
  const uint32_t exp = (x >> 23) & 0xff, man = x & 0x7fffff;
  if (exp == 0xff) return uint16_t(sign | 0x7c00 | (man ? 0x200 | (man >> 13) : 0));
  int e = int(exp) - 127 + 15;
  if (e >= 31) return uint16_t(sign | 0x7c00);  // overflow: infinity
  if (e <= 0) {
    // Subnormal half (or zero): shift the full significand, rounding to nearest even.
    if (e < -10) return sign;
    uint32_t m = man | 0x800000;
    uint32_t shift = uint32_t(14 - e);
    uint32_t half = m >> shift, rest = m & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1))) ++half;
    return uint16_t(sign | half);
  }
  uint32_t half = (uint32_t(e) << 10) | (man >> 13), rest = man & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) ++half;  // may carry into the exponent
  return uint16_t(sign | half);
}

FormatClass classifyFormat(const cl_image_format& f, ImageFormat* out) {
  const cl_channel_order o = f.image_channel_order;
  const cl_channel_type t = f.image_channel_data_type;
  uint32_t channels = channelCount(o);
  bool knownType = findType(t) || t == CL_UNORM_INT24 || t == CL_UNORM_INT_101010_2;
  if (channels == 0 || !knownType) return FormatClass::Invalid;
  // "CL_UNORM_SHORT_565 ... The channel order must be CL_RGB or CL_RGBx" (also 555, 101010);
  // "CL_UNORM_INT_101010_2 ... The channel order must be CL_RGBA".
  if (packed(t)) {
    if (o != CL_RGB && o != CL_RGBx) return FormatClass::Invalid;
  } else if (t == CL_UNORM_INT_101010_2) {
    if (o != CL_RGBA) return FormatClass::Invalid;
  } else if (o == CL_DEPTH_STENCIL || t == CL_UNORM_INT24) {
    // cl_khr_gl_depth_images: "This format can only be used if the image channel data type is
    // CL_UNORM_INT24 or CL_FLOAT" (and UNORM_INT24 exists only for it and CL_DEPTH).
    bool ok = (o == CL_DEPTH_STENCIL && (t == CL_UNORM_INT24 || t == CL_FLOAT)) ||
              (o == CL_DEPTH && t == CL_UNORM_INT24);
    if (!ok) return FormatClass::Invalid;
  } else {
    // "The number of bits per element determined by the image_channel_data_type and
    // image_channel_order must be a power of two."
    uint32_t bits = channels * findType(t)->bits;
    if (bits & (bits - 1)) return FormatClass::Invalid;
  }
  const Order* order = findOrder(o);
  if (!order || !findType(t) || !served(o, t)) return FormatClass::Unsupported;
  if (out) *out = make(*order, *findType(t));
  return FormatClass::Supported;
}

const std::vector<ImageFormat>& imageFormats() {
  static const std::vector<ImageFormat> list = [] {
    std::vector<ImageFormat> v;
    for (const Order& o : kOrders)
      for (const DataType& t : kTypes)
        if (served(o.order, t.type)) v.push_back(make(o, t));
    return v;
  }();
  return list;
}

void encodePixel(const ImageFormat& f, const void* color, uint8_t* pixel) {
  const ze_image_format_swizzle_t sw[4] = {f.ze.x, f.ze.y, f.ze.z, f.ze.w};
  // The channel stored in component k: the first c with swizzle[c] == k; -1 when none is.
  auto channelOf = [&](uint32_t k) {
    for (int c = 0; c < 4; ++c)
      if (uint32_t(sw[c]) == k) return c;
    return -1;
  };
  const auto* fl = static_cast<const float*>(color);
  const auto* in = static_cast<const int32_t*>(color);
  const auto* un = static_cast<const uint32_t*>(color);
  std::memset(pixel, 0, f.pixelBytes);
  const cl_channel_type t = f.cl.image_channel_data_type;
  if (packed(t)) {
    uint32_t widths[4];
    packedWidths(f.ze.layout, widths);
    uint32_t word = 0, shift = 0;
    for (uint32_t k = 0; k < 4 && widths[k]; shift += widths[k], ++k) {
      int c = channelOf(k);
      if (c >= 0) word |= unorm(fl[c], (1u << widths[k]) - 1) << shift;
    }
    std::memcpy(pixel, &word, f.pixelBytes);
    return;
  }
  const uint32_t bytes = findType(t)->bits / 8;
  const uint32_t components = f.pixelBytes / bytes;
  for (uint32_t k = 0; k < components; ++k) {
    int c = channelOf(k);
    if (c < 0) continue;
    uint8_t* dst = pixel + k * bytes;
    auto put = [&](auto v) { std::memcpy(dst, &v, sizeof v); };
    switch (t) {
      case CL_UNORM_INT8: put(uint8_t(unorm(fl[c], 255))); break;
      case CL_UNORM_INT16: put(uint16_t(unorm(fl[c], 65535))); break;
      case CL_SNORM_INT8: put(int8_t(snorm(fl[c], 127))); break;
      case CL_SNORM_INT16: put(int16_t(snorm(fl[c], 32767))); break;
      case CL_SIGNED_INT8: put(int8_t(std::clamp<int32_t>(in[c], INT8_MIN, INT8_MAX))); break;
      case CL_SIGNED_INT16: put(int16_t(std::clamp<int32_t>(in[c], INT16_MIN, INT16_MAX))); break;
      case CL_SIGNED_INT32: put(in[c]); break;
      case CL_UNSIGNED_INT8: put(uint8_t(std::min<uint32_t>(un[c], UINT8_MAX))); break;
      case CL_UNSIGNED_INT16: put(uint16_t(std::min<uint32_t>(un[c], UINT16_MAX))); break;
      case CL_UNSIGNED_INT32: put(un[c]); break;
      case CL_HALF_FLOAT: put(floatToHalf(fl[c])); break;
      case CL_FLOAT: put(fl[c]); break;
      default: break;
    }
  }
}

}  // namespace tessera::cl
