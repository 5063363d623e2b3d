// The contract between JIT-compiled kernels and the images and samplers they are given (issue 18).
// No LLVM here: core (which makes images and samplers) and the JIT's image builtins include this
// file and nothing else of each other.
//
// Images are plain host memory, linear: pixel (x, y, z) of an image starts at
//
//     data + x * pixelBytes + y * rowPitch + z * slicePitch
//
// with the coordinates as the kernel gives them: for a 1D array (x, layer), so the layer pitch is
// rowPitch; for a 2D array (x, y, layer), the layer pitch is slicePitch. extent[] is the number of
// valid values of each coordinate (1 for a coordinate the type does not have): a 1D array of 8
// layers of width 64 has extent {64, 8, 1}. A buffer image (ZE_IMAGE_TYPE_BUFFER, OpenCL's
// image1d_buffer_t) is a 1D image whose data is the buffer's memory.
//
// A pixel's channels are stored in memory in the order its layout names them (component 0 first; a
// packed layout such as 5_6_5 or 10_10_10_2 as one little-endian integer whose lowest bits are
// component 0... the last component in the highest bits). Reading a pixel decodes the components
// by `type` (UINT, SINT: integers; UNORM, SNORM: [0, 1] / [-1, 1]; FLOAT: float, or half for 16-bit
// layouts), then applies the swizzle: result channel c (x, y, z, w = r, g, b, a) is
//     swizzle[c] in 0..3 (ZE_IMAGE_FORMAT_SWIZZLE_R..A): component swizzle[c]
//     ZE_IMAGE_FORMAT_SWIZZLE_0: 0;   ZE_IMAGE_FORMAT_SWIZZLE_1: 1 (1.0f or integer 1)
// Writing stores each result channel c whose swizzle[c] names a component into that component
// (OpenCL: CL_BGRA is layout 8_8_8_8 with swizzle {B, G, R, A}: r is stored in component 2).
// Components no channel names are written as 0.
//
// What core makes images of (core/image/format.h), so all a kernel meets: layouts 8, 8_8, 8_8_8_8
// (UINT, SINT, UNORM, SNORM), 16, 16_16, 16_16_16_16 (those and FLOAT = half), 32, 32_32,
// 32_32_32_32 (UINT, SINT, FLOAT), and the packed 5_6_5, 5_5_5_1, 10_10_10_2 (UNORM only). The
// swizzle arrives normalized: only 0..5 (R, G, B, A, 0, 1), never X, and never a component the
// layout lacks (those read as 0, in w as 1).
#pragma once

#include <cstdint>

namespace tessera::backends::cpu {

// What an image argument's 8-byte slot points to. Owned by the image object (core), alive while
// the image is; a kernel only reads it.
struct ImageView {
  uint8_t* data = nullptr;        // pixel (0, 0, 0)
  uint64_t extent[3] = {1, 1, 1};  // valid values of x, y, z as the kernel indexes (see above)
  uint64_t rowPitch = 0;           // bytes between y and y + 1
  uint64_t slicePitch = 0;         // bytes between z and z + 1
  uint32_t pixelBytes = 0;         // bytes of one pixel
  uint32_t imageType = 0;          // ze_image_type_t
  uint32_t layout = 0;             // ze_image_format_layout_t (no media layouts)
  uint32_t type = 0;               // ze_image_format_type_t
  uint8_t swizzle[4] = {0, 1, 2, 3};  // ze_image_format_swizzle_t of x, y, z, w
  // What get_image_channel_order / get_image_channel_data_type return, in SPIR-V's numbering
  // (ImageChannelOrder, ImageChannelDataType: the OpenCL value minus 0x10B0 / 0x10D0), as the
  // SPIR-V instructions OpImageQueryOrder / OpImageQueryFormat answer. Core derives them from
  // layout, type and swizzle.
  uint32_t channelOrder = 0;
  uint32_t channelDataType = 0;
  uint32_t mipLevels = 1;  // always 1: no mipmaps
  uint32_t reserved = 0;
};

// A sampler argument's 8-byte slot holds its sampler value (not a pointer): the bits OpenCL C's
// sampler_t literals use (CLK_* constants, also what OpConstantSampler and the translator's
// __translate_sampler_initializer carry), so argument samplers and inline samplers are one thing.
namespace sampler_bits {
inline constexpr uint32_t kNormalizedCoords = 0x1;  // CLK_NORMALIZED_COORDS_TRUE
inline constexpr uint32_t kAddressMask = 0xE;
inline constexpr uint32_t kAddressNone = 0x0;           // CLK_ADDRESS_NONE
inline constexpr uint32_t kAddressClampToEdge = 0x2;    // CLK_ADDRESS_CLAMP_TO_EDGE
inline constexpr uint32_t kAddressClamp = 0x4;          // CLK_ADDRESS_CLAMP (to the border colour)
inline constexpr uint32_t kAddressRepeat = 0x6;         // CLK_ADDRESS_REPEAT
inline constexpr uint32_t kAddressMirroredRepeat = 0x8; // CLK_ADDRESS_MIRRORED_REPEAT
inline constexpr uint32_t kFilterMask = 0x30;
inline constexpr uint32_t kFilterNearest = 0x10;        // CLK_FILTER_NEAREST
inline constexpr uint32_t kFilterLinear = 0x20;         // CLK_FILTER_LINEAR
}  // namespace sampler_bits

// Level Zero's sampler modes in these bits: ZE_SAMPLER_ADDRESS_MODE_NONE -> None, REPEAT -> Repeat,
// CLAMP -> ClampToEdge ("clamped to edge"), CLAMP_TO_BORDER -> Clamp, MIRROR -> MirroredRepeat.

}  // namespace tessera::backends::cpu
