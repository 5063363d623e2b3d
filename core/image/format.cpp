#include "core/image/format.h"

namespace tessera::core {
namespace {

// SPIR-V's ImageChannelOrder and ImageChannelDataType values (the OpenCL CL_* values minus 0x10B0
// and 0x10D0) that Tessera's formats take.
enum Order : uint32_t {
  kOrderR = 0,
  kOrderA = 1,
  kOrderRG = 2,
  kOrderRA = 3,
  kOrderRGB = 4,
  kOrderRGBA = 5,
  kOrderBGRA = 6,
  kOrderARGB = 7,
  kOrderIntensity = 8,
  kOrderLuminance = 9,
  kOrderABGR = 19,
};
enum DataType : uint32_t {
  kSnormInt8 = 0,
  kSnormInt16 = 1,
  kUnormInt8 = 2,
  kUnormInt16 = 3,
  kUnormShort565 = 4,
  kUnormShort555 = 5,
  kUnormInt101010 = 6,
  kSignedInt8 = 7,
  kSignedInt16 = 8,
  kSignedInt32 = 9,
  kUnsignedInt8 = 10,
  kUnsignedInt16 = 11,
  kUnsignedInt32 = 12,
  kHalfFloat = 13,
  kFloat = 14,
};

constexpr uint32_t bit(ze_image_format_type_t t) {
  return 1u << t;
}
constexpr uint32_t kIntegers = bit(ZE_IMAGE_FORMAT_TYPE_UINT) | bit(ZE_IMAGE_FORMAT_TYPE_SINT);
constexpr uint32_t kNormalized = bit(ZE_IMAGE_FORMAT_TYPE_UNORM) | bit(ZE_IMAGE_FORMAT_TYPE_SNORM);
constexpr uint32_t kFloat16 = bit(ZE_IMAGE_FORMAT_TYPE_FLOAT);

struct LayoutInfo {
  uint32_t components;
  uint32_t pixelBytes;
  uint32_t componentBits;  // 0 for the packed layouts
  uint32_t types;          // supported ze_image_format_type_t, as bits
};

// Indexed by ze_image_format_layout_t up to 4_4_4_4; types 0 means not supported.
constexpr LayoutInfo kLayouts[] = {
    {1, 1, 8, kIntegers | kNormalized},              // 8
    {1, 2, 16, kIntegers | kNormalized | kFloat16},  // 16
    {1, 4, 32, kIntegers | kFloat16},                // 32
    {2, 2, 8, kIntegers | kNormalized},              // 8_8
    {4, 4, 8, kIntegers | kNormalized},              // 8_8_8_8
    {2, 4, 16, kIntegers | kNormalized | kFloat16},  // 16_16
    {4, 8, 16, kIntegers | kNormalized | kFloat16},  // 16_16_16_16
    {2, 8, 32, kIntegers | kFloat16},                // 32_32
    {4, 16, 32, kIntegers | kFloat16},               // 32_32_32_32
    {4, 4, 0, bit(ZE_IMAGE_FORMAT_TYPE_UNORM)},      // 10_10_10_2
    {3, 4, 0, 0},                                    // 11_11_10
    {3, 2, 0, bit(ZE_IMAGE_FORMAT_TYPE_UNORM)},      // 5_6_5
    {4, 2, 0, bit(ZE_IMAGE_FORMAT_TYPE_UNORM)},      // 5_5_5_1
    {4, 2, 0, 0},                                    // 4_4_4_4
};

uint32_t dataType(ze_image_format_layout_t layout, ze_image_format_type_t type, uint32_t bits) {
  switch (layout) {
    case ZE_IMAGE_FORMAT_LAYOUT_5_6_5:
      return kUnormShort565;
    case ZE_IMAGE_FORMAT_LAYOUT_5_5_5_1:
      return kUnormShort555;
    case ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2:
      return kUnormInt101010;
    default:
      break;
  }
  switch (type) {
    case ZE_IMAGE_FORMAT_TYPE_UINT:
      return bits == 8 ? kUnsignedInt8 : bits == 16 ? kUnsignedInt16 : kUnsignedInt32;
    case ZE_IMAGE_FORMAT_TYPE_SINT:
      return bits == 8 ? kSignedInt8 : bits == 16 ? kSignedInt16 : kSignedInt32;
    case ZE_IMAGE_FORMAT_TYPE_UNORM:
      return bits == 8 ? kUnormInt8 : kUnormInt16;
    case ZE_IMAGE_FORMAT_TYPE_SNORM:
      return bits == 8 ? kSnormInt8 : kSnormInt16;
    default:
      return bits == 16 ? kHalfFloat : kFloat;
  }
}

// The channel order the normalized swizzle `s` describes: the OpenCL orders of format.h's table by
// their swizzles; any other swizzle by which channels it fills.
uint32_t channelOrder(const std::array<uint8_t, 4>& s) {
  auto named = [&](int c) { return s[c] <= ZE_IMAGE_FORMAT_SWIZZLE_A; };
  if (named(0) && s[1] == s[0] && s[2] == s[0]) {
    if (s[3] == s[0]) return kOrderIntensity;
    if (s[3] == ZE_IMAGE_FORMAT_SWIZZLE_1) return kOrderLuminance;
  }
  const uint32_t mask = named(0) | named(1) << 1 | named(2) << 2 | named(3) << 3;
  switch (mask) {
    case 0x1:
      return kOrderR;
    case 0x8:
      return kOrderA;
    case 0x3:
      return kOrderRG;
    case 0x9:
      return kOrderRA;
    case 0x7:
      return kOrderRGB;
    default:
      break;
  }
  const std::array<uint8_t, 4> bgra{2, 1, 0, 3}, argb{1, 2, 3, 0}, abgr{3, 2, 1, 0};
  if (s == bgra) return kOrderBGRA;
  if (s == argb) return kOrderARGB;
  if (s == abgr) return kOrderABGR;
  return kOrderRGBA;
}

}  // namespace

ze_result_t describeFormat(const ze_image_format_t& f, ImageFormatInfo& out) {
  if (f.layout > ZE_IMAGE_FORMAT_LAYOUT_BRGP || f.type > ZE_IMAGE_FORMAT_TYPE_FLOAT)
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  const ze_image_format_swizzle_t swizzles[4] = {f.x, f.y, f.z, f.w};
  for (ze_image_format_swizzle_t s : swizzles)
    if (s > ZE_IMAGE_FORMAT_SWIZZLE_X) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  // "Media Format: ... Format type and swizzle is ignored for this": none is supported.
  if (f.layout > ZE_IMAGE_FORMAT_LAYOUT_4_4_4_4) return ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT;
  const LayoutInfo& l = kLayouts[f.layout];
  if (!(l.types & bit(f.type))) return ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT;
  ImageFormatInfo info;
  info.components = l.components;
  info.pixelBytes = l.pixelBytes;
  for (int c = 0; c < 4; ++c) {
    ze_image_format_swizzle_t s = swizzles[c];
    bool missing = s == ZE_IMAGE_FORMAT_SWIZZLE_X ||
                   (s <= ZE_IMAGE_FORMAT_SWIZZLE_A && uint32_t(s) >= l.components);
    if (missing) s = c == 3 ? ZE_IMAGE_FORMAT_SWIZZLE_1 : ZE_IMAGE_FORMAT_SWIZZLE_0;
    info.swizzle[c] = static_cast<uint8_t>(s);
  }
  info.channelOrder = channelOrder(info.swizzle);
  info.channelDataType = dataType(f.layout, f.type, l.componentBits);
  out = info;
  return ZE_RESULT_SUCCESS;
}

bool filtersLinearly(const ze_image_format_t& f) {
  return f.type != ZE_IMAGE_FORMAT_TYPE_UINT && f.type != ZE_IMAGE_FORMAT_TYPE_SINT;
}

}  // namespace tessera::core
