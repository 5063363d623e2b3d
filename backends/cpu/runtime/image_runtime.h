// The image functions JIT-compiled kernels call for texels of any format (image_abi.h's layouts and
// types): the generic side of the image builtins. The kernel's own code (builtin_image.cpp) does
// the addressing, filtering and swizzle, and decodes the common formats inline; a texel of any
// other format goes through these, one texel per call. Called by name (kImageLoadSymbol,
// kImageStoreSymbol), bound in every JITDylib like builtin_runtime.h's functions. No LLVM here.
//
// Components are exchanged as 32-bit values before the swizzle (component 0 first, as the layout
// names them; components the layout does not have are 0): float bits for UNORM, SNORM and FLOAT
// formats, 32-bit integers for UINT (zero-extended) and SINT (sign-extended) ones.
#pragma once

#include <cstdint>

#include "backends/cpu/runtime/image_abi.h"

namespace tessera::backends::cpu::jit {

// The numbers of ze_image_format_layout_t, ze_image_format_type_t and ze_image_format_swizzle_t
// that ImageView holds (ze_api.h is not included below core).
namespace image_format {
inline constexpr uint32_t kLayout8 = 0, kLayout16 = 1, kLayout32 = 2, kLayout8_8 = 3,
                          kLayout8_8_8_8 = 4, kLayout16_16 = 5, kLayout16_16_16_16 = 6,
                          kLayout32_32 = 7, kLayout32_32_32_32 = 8, kLayout10_10_10_2 = 9,
                          kLayout11_11_10 = 10, kLayout5_6_5 = 11, kLayout5_5_5_1 = 12,
                          kLayout4_4_4_4 = 13;
inline constexpr uint32_t kUint = 0, kSint = 1, kUnorm = 2, kSnorm = 3, kFloat = 4;
inline constexpr uint32_t kSwizzleZero = 4, kSwizzleOne = 5;  // 0..3 name components; 6 (X): 0
}  // namespace image_format

inline constexpr const char* kImageLoadSymbol = "__tessera_rt_image_load";
inline constexpr const char* kImageStoreSymbol = "__tessera_rt_image_store";

// Four 32-bit lanes, returned in one vector register (the IR declares <4 x i32>).
using TexelBits = uint32_t __attribute__((vector_size(16)));

// The components of pixel (x, y, z) (coordinates as ImageView::extent counts them); all 0 when a
// coordinate is out of range or the layout is not one a kernel can read.
TexelBits imageLoadRuntime(const ImageView* view, int32_t x, int32_t y, int32_t z);
// Writes components c0..c3 into pixel (x, y, z), converted by the format's rules (OpenCL C,
// "Conversion Rules": round to nearest even and saturate for normalized types, saturate integers);
// nothing when a coordinate is out of range.
void imageStoreRuntime(const ImageView* view, int32_t x, int32_t y, int32_t z, uint32_t c0,
                       uint32_t c1, uint32_t c2, uint32_t c3);

// The conversions of half and the unsigned 11- and 10-bit floats of layout 11_11_10 (5 exponent
// bits, `mantissaBits` bits of mantissa, no sign), round to nearest even.
float halfToFloat(uint16_t h);
uint16_t floatToHalf(float f);
float smallFloatToFloat(uint32_t bits, uint32_t mantissaBits);
uint32_t floatToSmallFloat(float f, uint32_t mantissaBits);

}  // namespace tessera::backends::cpu::jit
