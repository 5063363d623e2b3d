// The contract between JIT-compiled kernels and the images and samplers they are given (issue 18).
// No LLVM here. core (which makes images and samplers) fills the interface's ImageView and
// sampler bits (backends/device_kind.h); the JIT's image builtins read them as this file says.
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

#include "backends/device_kind.h"

namespace tessera::backends::cpu {

// What an image argument's 8-byte slot points to (ImageView) and a sampler argument's value
// (sampler_bits) are plain data of the interface (backends/device_kind.h), which core fills; this
// file says how this kind's kernels read them.
using backends::ImageView;
namespace sampler_bits = backends::sampler_bits;

// Level Zero's sampler modes in these bits: ZE_SAMPLER_ADDRESS_MODE_NONE -> None, REPEAT -> Repeat,
// CLAMP -> ClampToEdge ("clamped to edge"), CLAMP_TO_BORDER -> Clamp, MIRROR -> MirroredRepeat.

}  // namespace tessera::backends::cpu
