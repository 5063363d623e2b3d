// Image formats: which ze_image_format_t Tessera's images take, how many bytes a pixel has, and
// what OpenCL's channel order and data type queries answer for them (backends/cpu/runtime/image_abi.h
// says how a kernel decodes a pixel; this file decides which pixels exist).
//
// Supported layout x type (everything else is ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT, the media
// layouts Y8 ... BRGP included):
//   8, 8_8, 8_8_8_8                 UINT, SINT, UNORM, SNORM
//   16, 16_16, 16_16_16_16          UINT, SINT, UNORM, SNORM, FLOAT (half)
//   32, 32_32, 32_32_32_32          UINT, SINT, FLOAT
//   5_6_5, 5_5_5_1, 10_10_10_2      UNORM (OpenCL's packed CL_UNORM_SHORT_565 / _555 / _INT_101010)
//
// Swizzles are normalized when an image is made (ImageView::swizzle holds only 0..5): a swizzle
// naming a component the layout does not have reads as 0 in x, y, z and 1 in w (as a GPU reads an
// R8 texture as (r, 0, 0, 1): programs commonly give {R, G, B, A} with any layout), and so does
// ZE_IMAGE_FORMAT_SWIZZLE_X ("don't care").
//
// OpenCL's image formats in these terms (the mapping the OpenCL layer uses; with image_abi.h's rule
// that component 0 is stored first, or in the lowest bits of a packed layout, each comes out as the
// OpenCL specification lays it out in memory):
// Data types: CL_UNORM_INT8 / CL_SNORM_INT8 / CL_UNSIGNED_INT8 / CL_SIGNED_INT8 -> the order's
// 8-bit layout with UNORM / SNORM / UINT / SINT; the *_INT16 ones and CL_HALF_FLOAT (FLOAT) -> its
// 16-bit layout; CL_UNSIGNED_INT32 / CL_SIGNED_INT32 / CL_FLOAT -> its 32-bit layout. Orders:
//   order          layout (components)   swizzle x, y, z, w
//   CL_R           8 / 16 / 32           R, 0, 0, 1
//   CL_A           8 / 16 / 32           0, 0, 0, R
//   CL_INTENSITY   8 / 16 / 32           R, R, R, R
//   CL_LUMINANCE   8 / 16 / 32           R, R, R, 1
//   CL_RG          8_8 / 16_16 / 32_32   R, G, 0, 1
//   CL_RA          8_8 / 16_16 / 32_32   R, 0, 0, G     (memory: r, a)
//   CL_RGBA        8_8_8_8 / ...         R, G, B, A
//   CL_BGRA        8_8_8_8 / ...         B, G, R, A     (memory: b, g, r, a)
//   CL_ARGB        8_8_8_8 / ...         G, B, A, R     (memory: a, r, g, b)
//   CL_ABGR        8_8_8_8 / ...         A, B, G, R     (memory: a, b, g, r)
//   CL_RGB + CL_UNORM_SHORT_565   5_6_5 UNORM        B, G, R, 1  (b in bits 4:0, r in 15:11)
//   CL_RGB + CL_UNORM_SHORT_555   5_5_5_1 UNORM      B, G, R, 1  (b in 4:0, r in 14:10, 15 free)
//   CL_RGB + CL_UNORM_INT_101010  10_10_10_2 UNORM   B, G, R, 1  (b in 9:0, r in 29:20, 31:30 free)
// CL_Rx, CL_RGx, CL_RGBx, CL_DEPTH and the sRGB orders have no mapping (not supported).
#pragma once

#include <level_zero/ze_api.h>

#include <array>
#include <cstdint>

namespace tessera::core {

struct ImageFormatInfo {
  uint32_t components = 0;  // components the layout stores (3 for 5_6_5)
  uint32_t pixelBytes = 0;
  std::array<uint8_t, 4> swizzle{};  // normalized: ze_image_format_swizzle_t R..A, 0 or 1
  uint32_t channelOrder = 0;         // SPIR-V ImageChannelOrder (CL_R.. minus 0x10B0)
  uint32_t channelDataType = 0;      // SPIR-V ImageChannelDataType (CL_SNORM_INT8.. minus 0x10D0)
};

// Checks `f` and describes it. INVALID_ENUMERATION for a layout, type or swizzle past the last the
// 1.4 headers define; UNSUPPORTED_IMAGE_FORMAT for a defined combination Tessera does not serve.
ze_result_t describeFormat(const ze_image_format_t& f, ImageFormatInfo& out);

// Whether kernels may filter the format linearly: its values are normalized or floating point
// (OpenCL: read_imagei / read_imageui take only CLK_FILTER_NEAREST samplers).
bool filtersLinearly(const ze_image_format_t& f);

}  // namespace tessera::core
