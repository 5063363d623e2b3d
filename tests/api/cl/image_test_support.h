// What the OpenCL image tests share: the image types and formats they cover, images made from a
// description, pixel sizes computed from the format tables of the spec (not from Tessera's), and a
// byte pattern that tells every pixel of every layer apart.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cl_test_support.h"

namespace tessera::cltest {

inline const std::vector<cl_mem_object_type>& imageTypes() {
  static const std::vector<cl_mem_object_type> t = {
      CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY,
      CL_MEM_OBJECT_IMAGE2D,       CL_MEM_OBJECT_IMAGE2D_ARRAY,  CL_MEM_OBJECT_IMAGE3D};
  return t;
}

inline const char* imageTypeName(cl_mem_object_type t) {
  switch (t) {
    case CL_MEM_OBJECT_IMAGE1D: return "1D";
    case CL_MEM_OBJECT_IMAGE1D_BUFFER: return "1D buffer";
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: return "1D array";
    case CL_MEM_OBJECT_IMAGE2D: return "2D";
    case CL_MEM_OBJECT_IMAGE2D_ARRAY: return "2D array";
    case CL_MEM_OBJECT_IMAGE3D: return "3D";
    default: return "?";
  }
}

// The OpenCL 1.2 / 3.0 FULL_PROFILE minimum list "for reading or writing" and "for reading and
// writing" (the spec's two tables).
inline std::vector<cl_image_format> requiredFormats(bool readAndWrite) {
  std::vector<cl_image_format> v;
  const cl_channel_type rgba[] = {CL_UNORM_INT8,    CL_UNORM_INT16,    CL_SIGNED_INT8,
                                  CL_SIGNED_INT16,  CL_SIGNED_INT32,   CL_UNSIGNED_INT8,
                                  CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT, CL_FLOAT};
  for (cl_channel_type t : rgba) {
    if (readAndWrite && t == CL_UNORM_INT16) continue;
    v.push_back({CL_RGBA, t});
    if (readAndWrite) v.push_back({CL_R, t});
  }
  if (!readAndWrite) v.push_back({CL_BGRA, CL_UNORM_INT8});
  return v;
}

// Every format Tessera serves (the first are the required ones): orders and their data types.
inline std::vector<cl_image_format> allFormats() {
  const cl_channel_type all[] = {CL_UNORM_INT8,     CL_UNORM_INT16,   CL_SNORM_INT8,
                                 CL_SNORM_INT16,    CL_SIGNED_INT8,   CL_SIGNED_INT16,
                                 CL_SIGNED_INT32,   CL_UNSIGNED_INT8, CL_UNSIGNED_INT16,
                                 CL_UNSIGNED_INT32, CL_HALF_FLOAT,    CL_FLOAT};
  const cl_channel_type normFloat[] = {CL_UNORM_INT8, CL_UNORM_INT16, CL_SNORM_INT8,
                                       CL_SNORM_INT16, CL_HALF_FLOAT,  CL_FLOAT};
  const cl_channel_type bytes[] = {CL_UNORM_INT8, CL_SNORM_INT8, CL_SIGNED_INT8, CL_UNSIGNED_INT8};
  std::vector<cl_image_format> v;
  for (cl_channel_order o : {CL_RGBA, CL_R, CL_A, CL_RG, CL_RA})
    for (cl_channel_type t : all) v.push_back({o, t});
  for (cl_channel_order o : {CL_INTENSITY, CL_LUMINANCE})
    for (cl_channel_type t : normFloat) v.push_back({o, t});
  for (cl_channel_order o : {CL_BGRA, CL_ARGB, CL_ABGR})
    for (cl_channel_type t : bytes) v.push_back({o, t});
  for (cl_channel_type t : {CL_UNORM_SHORT_565, CL_UNORM_SHORT_555, CL_UNORM_INT_101010})
    v.push_back({CL_RGB, t});
  return v;
}

inline std::string formatName(const cl_image_format& f) {
  char s[48];
  std::snprintf(s, sizeof s, "order 0x%x type 0x%x", f.image_channel_order,
                f.image_channel_data_type);
  return s;
}

// Bytes of a pixel, from the spec's tables: channels x bytes per channel, or the packed sizes.
inline size_t pixelSize(const cl_image_format& f) {
  switch (f.image_channel_data_type) {
    case CL_UNORM_SHORT_565:
    case CL_UNORM_SHORT_555: return 2;
    case CL_UNORM_INT_101010: return 4;
    default: break;
  }
  size_t channels = 4;
  switch (f.image_channel_order) {
    case CL_R: case CL_A: case CL_INTENSITY: case CL_LUMINANCE: channels = 1; break;
    case CL_RG: case CL_RA: channels = 2; break;
    default: break;
  }
  switch (f.image_channel_data_type) {
    case CL_UNORM_INT8: case CL_SNORM_INT8: case CL_SIGNED_INT8: case CL_UNSIGNED_INT8:
      return channels;
    case CL_SIGNED_INT32: case CL_UNSIGNED_INT32: case CL_FLOAT: return channels * 4;
    default: return channels * 2;
  }
}

// A small image of each type: width, height, depth and layers (0 where the type has none).
struct Shape {
  cl_mem_object_type type;
  size_t width, height, depth, layers;
  // Pixels along x, y, z as origins and regions name them.
  size_t extent(int axis) const {
    if (axis == 0) return width;
    if (axis == 1)
      return type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? layers : height ? height : 1;
    if (type == CL_MEM_OBJECT_IMAGE2D_ARRAY) return layers;
    return depth ? depth : 1;
  }
  size_t pixels() const { return extent(0) * extent(1) * extent(2); }
};

// A box inside `s`: x from x0 with `xRest` pixels left after it; y from 1 to the end and z from 1
// with `zRest` slices left, where the type has those coordinates (else origin 0 and region 1).
inline void innerBox(const Shape& s, size_t x0, size_t xRest, size_t zRest, size_t* origin,
                     size_t* region) {
  origin[0] = x0;
  region[0] = s.extent(0) - x0 - xRest;
  origin[1] = s.extent(1) > 1 ? 1 : 0;
  region[1] = s.extent(1) > 1 ? s.extent(1) - 1 : 1;
  origin[2] = s.extent(2) > 1 ? 1 : 0;
  region[2] = s.extent(2) > 1 ? s.extent(2) - 1 - zRest : 1;
}

inline Shape smallShape(cl_mem_object_type t) {
  switch (t) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: return {t, 13, 0, 0, 3};
    case CL_MEM_OBJECT_IMAGE2D: return {t, 11, 7, 0, 0};
    case CL_MEM_OBJECT_IMAGE2D_ARRAY: return {t, 9, 5, 0, 3};
    case CL_MEM_OBJECT_IMAGE3D: return {t, 7, 5, 4, 0};
    default: return {t, 37, 0, 0, 0};  // 1D, 1D buffer
  }
}

inline cl_image_desc describe(const Shape& s, size_t rowPitch = 0, size_t slicePitch = 0,
                              cl_mem buffer = nullptr) {
  cl_image_desc d{};
  d.image_type = s.type;
  d.image_width = s.width;
  d.image_height = s.height;
  d.image_depth = s.depth;
  d.image_array_size = s.layers;
  d.image_row_pitch = rowPitch;
  d.image_slice_pitch = slicePitch;
  d.mem_object = buffer;
  return d;
}

// An image of `shape` (a 1D buffer image over a buffer of its own, released with the image).
inline cl_mem makeImage(cl_context ctx, cl_mem_flags flags, const cl_image_format& f,
                        const Shape& s, void* host = nullptr, size_t rowPitch = 0,
                        size_t slicePitch = 0) {
  cl_int err = CL_SUCCESS;
  cl_mem buffer = nullptr;
  if (s.type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    buffer = clCreateBuffer(ctx, flags & ~cl_mem_flags(CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR),
                            s.width * pixelSize(f), nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    flags &= ~cl_mem_flags(CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR);
    host = nullptr;
  }
  cl_image_desc d = describe(s, rowPitch, slicePitch, buffer);
  cl_mem m = clCreateImage(ctx, flags, &f, &d, host, &err);
  INFO(imageTypeName(s.type) << " " << formatName(f) << " error " << err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(m != nullptr);
  if (buffer) clReleaseMemObject(buffer);  // the image holds it
  return m;
}

// Bytes that differ from pixel to pixel, layer to layer and call to call (seed).
inline std::vector<unsigned char> pattern(size_t n, unsigned seed = 1) {
  std::vector<unsigned char> v(n);
  uint32_t x = 2463534242u ^ seed;
  for (size_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    v[i] = static_cast<unsigned char>(x);
  }
  return v;
}

// Packed pixels whose undefined bits (CL_UNORM_SHORT_555's bit 15, CL_UNORM_INT_101010's 31:30)
// are cleared: what an image holds of them is not defined.
inline void clearUndefinedBits(const cl_image_format& f, std::vector<unsigned char>& bytes) {
  if (f.image_channel_data_type == CL_UNORM_SHORT_555)
    for (size_t i = 1; i < bytes.size(); i += 2) bytes[i] &= 0x7f;
  if (f.image_channel_data_type == CL_UNORM_INT_101010)
    for (size_t i = 3; i < bytes.size(); i += 4) bytes[i] &= 0x3f;
}

// --- Conversions of colours to pixels, written here from the spec's rules ----------------------

inline uint16_t halfOf(float f) {
  _Float16 h = static_cast<_Float16>(f);  // round to nearest even
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}

// One channel value in the data type's bytes, little-endian.
inline void putChannel(cl_channel_type t, const void* color, int c, std::vector<unsigned char>& out) {
  const float f = static_cast<const float*>(color)[c];
  const int32_t i = static_cast<const int32_t*>(color)[c];
  const uint32_t u = static_cast<const uint32_t*>(color)[c];
  auto bytes = [&](uint64_t v, int n) {
    for (int k = 0; k < n; ++k) out.push_back(static_cast<unsigned char>(v >> (8 * k)));
  };
  // "convert_uchar_sat_rte(f * 255.0f)" and the like: the product in float, then rounded.
  auto clampf = [](float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; };
  auto clampi = [](int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : v > hi ? hi : v; };
  switch (t) {
    case CL_UNORM_INT8: bytes(uint64_t(std::nearbyint(clampf(f, 0, 1) * 255.0f)), 1); break;
    case CL_UNORM_INT16: bytes(uint64_t(std::nearbyint(clampf(f, 0, 1) * 65535.0f)), 2); break;
    case CL_SNORM_INT8:  // "convert_char_sat_rte(f * 127.0f)": -2.0f is -128
      bytes(uint64_t(int64_t(clampf(std::nearbyint(f * 127.0f), -128, 127))), 1);
      break;
    case CL_SNORM_INT16:
      bytes(uint64_t(int64_t(clampf(std::nearbyint(f * 32767.0f), -32768, 32767))), 2);
      break;
    case CL_SIGNED_INT8: bytes(uint64_t(int64_t(clampi(i, -128, 127))), 1); break;
    case CL_SIGNED_INT16: bytes(uint64_t(int64_t(clampi(i, -32768, 32767))), 2); break;
    case CL_SIGNED_INT32: bytes(uint32_t(i), 4); break;
    case CL_UNSIGNED_INT8: bytes(u > 255 ? 255 : u, 1); break;
    case CL_UNSIGNED_INT16: bytes(u > 65535 ? 65535 : u, 2); break;
    case CL_UNSIGNED_INT32: bytes(u, 4); break;
    case CL_HALF_FLOAT: bytes(halfOf(f), 2); break;
    case CL_FLOAT: {
      uint32_t b;
      std::memcpy(&b, &f, 4);
      bytes(b, 4);
      break;
    }
    default: break;
  }
}

// The pixel clEnqueueFillImage or write_image{f,i,ui} leaves of `color` (float[4], int[4] or
// uint[4] by the data type): the channels in the order the channel order stores them.
inline std::vector<unsigned char> convertedPixel(const cl_image_format& fmt, const void* color) {
  std::vector<unsigned char> out;
  const float* f = static_cast<const float*>(color);
  auto unorm = [&](int c, int bits) {
    float v = f[c] < 0 ? 0.0f : f[c] > 1 ? 1.0f : f[c];
    return uint32_t(std::nearbyint(v * float((1 << bits) - 1)));
  };
  switch (fmt.image_channel_data_type) {
    case CL_UNORM_SHORT_565: {  // "R is in bits 15:11, G is in bits 10:5 and B is in bits 4:0"
      uint32_t v = unorm(0, 5) << 11 | unorm(1, 6) << 5 | unorm(2, 5);
      return {static_cast<unsigned char>(v), static_cast<unsigned char>(v >> 8)};
    }
    case CL_UNORM_SHORT_555: {  // "R is in bits 14:10, G in bits 9:5 and B in bits 4:0"
      uint32_t v = unorm(0, 5) << 10 | unorm(1, 5) << 5 | unorm(2, 5);
      return {static_cast<unsigned char>(v), static_cast<unsigned char>(v >> 8)};
    }
    case CL_UNORM_INT_101010: {  // "R is in bits 29:20, G in bits 19:10 and B in bits 9:0"
      uint32_t v = unorm(0, 10) << 20 | unorm(1, 10) << 10 | unorm(2, 10);
      return {static_cast<unsigned char>(v), static_cast<unsigned char>(v >> 8),
              static_cast<unsigned char>(v >> 16), static_cast<unsigned char>(v >> 24)};
    }
    default: break;
  }
  std::vector<int> channels;  // r 0, g 1, b 2, a 3, in memory order
  switch (fmt.image_channel_order) {
    case CL_R: case CL_INTENSITY: case CL_LUMINANCE: channels = {0}; break;
    case CL_A: channels = {3}; break;
    case CL_RG: channels = {0, 1}; break;
    case CL_RA: channels = {0, 3}; break;
    case CL_BGRA: channels = {2, 1, 0, 3}; break;
    case CL_ARGB: channels = {3, 0, 1, 2}; break;
    case CL_ABGR: channels = {3, 2, 1, 0}; break;
    default: channels = {0, 1, 2, 3}; break;
  }
  for (int c : channels) putChannel(fmt.image_channel_data_type, color, c, out);
  return out;
}

inline bool isSigned(cl_channel_type t) {
  return t == CL_SIGNED_INT8 || t == CL_SIGNED_INT16 || t == CL_SIGNED_INT32;
}
inline bool isUnsigned(cl_channel_type t) {
  return t == CL_UNSIGNED_INT8 || t == CL_UNSIGNED_INT16 || t == CL_UNSIGNED_INT32;
}

// The whole image read back tightly packed.
inline std::vector<unsigned char> readWholeImage(cl_command_queue q, cl_mem m, const Shape& s,
                                                 size_t pixelBytes) {
  std::vector<unsigned char> out(s.pixels() * pixelBytes, 0xee);
  size_t origin[3] = {0, 0, 0}, region[3] = {s.extent(0), s.extent(1), s.extent(2)};
  REQUIRE(clEnqueueReadImage(q, m, CL_TRUE, origin, region, 0, 0, out.data(), 0, nullptr,
                             nullptr) == CL_SUCCESS);
  return out;
}

// clCreateImage's error code (the image, if one is made, released).
inline cl_int imageCreateError(cl_context ctx, cl_mem_flags flags, const cl_image_format* f,
                               const cl_image_desc* d, void* host = nullptr) {
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateImage(ctx, flags, f, d, host, &err);
  CHECK((err == CL_SUCCESS) == (m != nullptr));
  if (m) clReleaseMemObject(m);
  return err;
}

template <typename T>
T eventValue(cl_event e, cl_event_info what) {
  T v{};
  REQUIRE(clGetEventInfo(e, what, sizeof v, &v, nullptr) == CL_SUCCESS);
  return v;
}

template <typename T>
T imageInfo(cl_mem m, cl_image_info what) {
  T v{};
  REQUIRE(clGetImageInfo(m, what, sizeof v, &v, nullptr) == CL_SUCCESS);
  return v;
}

template <typename T>
T memObjectInfo(cl_mem m, cl_mem_info what) {
  T v{};
  REQUIRE(clGetMemObjectInfo(m, what, sizeof v, &v, nullptr) == CL_SUCCESS);
  return v;
}

inline bool deviceHasImages(cl_device_id d) {
  cl_bool b = CL_FALSE;
  clGetDeviceInfo(d, CL_DEVICE_IMAGE_SUPPORT, sizeof b, &b, nullptr);
  return b == CL_TRUE;
}

// The image tests: the device must have images (cl_shim/image_format.h, kImagesEnabled).
#define TESSERA_REQUIRE_IMAGES(dev) REQUIRE(::tessera::cltest::deviceHasImages(dev))

}  // namespace tessera::cltest
