// OpenCL image formats over Level Zero's: the one table from (channel order, channel data type) to
// a ze layout, type and swizzle (backends/cpu/runtime/image_abi.h: result channel c is component
// swizzle[c], component 0 in memory first or, for packed layouts, in the lowest bits). Core derives
// get_image_channel_order / _data_type back from layout, type and swizzle (ImageView), so each
// supported OpenCL format has a ze format of its own:
//
//   CL_R          n      {R, 0, 0, 1}     CL_RG    n_n      {R, G, 0, 1}
//   CL_A          n      {0, 0, 0, R}     CL_RA    n_n      {R, 0, 0, G}
//   CL_INTENSITY  n      {R, R, R, R}     CL_RGBA  n_n_n_n  {R, G, B, A}
//   CL_LUMINANCE  n      {R, R, R, 1}     CL_BGRA  8_8_8_8  {B, G, R, A}
//   CL_RGB        5_6_5, 5_5_5_1, 10_10_10_2  {B, G, R, 1}   CL_ARGB  8_8_8_8  {G, B, A, R}
//                                                              CL_ABGR  8_8_8_8  {A, B, G, R}
//
// (n: 8, 16 or 32 bits by the data type; CL_RGB's packed types hold R in the highest bits, "R is in
// bits 15:11, G is in bits 10:5 and B is in bits 4:0", so R is component 2.)
#pragma once

#include <level_zero/ze_api.h>

#include <cstdint>
#include <vector>

#include "cl_shim/cl_headers.h"

namespace tessera::cl {

// The one switch of OpenCL images (issue 18): CL_DEVICE_IMAGE_SUPPORT and everything that follows
// from it (formats, image and sampler objects, the extensions and OpenCL C features) are on only
// when this is true and Level Zero reports images for the device (Device::imageSupport).
inline constexpr bool kImagesEnabled = true;
// read_write image arguments (CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, __opencl_c_read_write_images,
// the CL_MEM_KERNEL_READ_AND_WRITE formats).
inline constexpr bool kReadWriteImages = true;

struct ImageFormat {
  cl_image_format cl{};
  ze_image_format_t ze{};
  uint32_t pixelBytes = 0;
};

// What a cl_image_format is: not one the spec allows (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR), one it
// allows that Tessera does not serve (CL_IMAGE_FORMAT_NOT_SUPPORTED), or one of the table's.
enum class FormatClass { Invalid, Unsupported, Supported };
FormatClass classifyFormat(const cl_image_format& f, ImageFormat* out = nullptr);

// Every format of the table, in a stable order (clGetSupportedImageFormats' candidates).
const std::vector<ImageFormat>& imageFormats();

// The fill colour of clEnqueueFillImage as one pixel of `f`: `color` is float[4] for normalized,
// half and float data types, int[4] for signed and uint[4] for unsigned integer types, converted by
// the rules of write_imagef / write_imagei / write_imageui (round to nearest even, saturating).
// Writes f.pixelBytes bytes to `pixel`.
void encodePixel(const ImageFormat& f, const void* color, uint8_t* pixel);

// float -> half, round to nearest even (IEEE 754 binary16; infinities and NaN kept).
uint16_t floatToHalf(float v);

}  // namespace tessera::cl
