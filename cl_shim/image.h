// The image part of a cl_mem image (Memory::image()): its format, type and sizes, where its pixels
// are, and its Level Zero images. The pixels are host memory cl_shim owns (a Level Zero host
// allocation), the application's (CL_MEM_USE_HOST_PTR) or a buffer's (image1d_buffer_t and 2D
// images from buffers); a ze image over them is made for each root device of the context with
// ZE_tessera_image_memory, so copies, kernels and maps all see the same pixels, and a map is the
// memory itself.
//
// Pixel (x, y, z) in ze's coordinates (x, layer) for a 1D array, (x, y, layer) for a 2D array, as
// OpenCL's origins and regions also give them, starts at data + x * pixelBytes + y * yPitch +
// z * zPitch.
#pragma once

#include <level_zero/ze_api.h>

#include <utility>
#include <vector>

#include "cl_shim/cl_headers.h"
#include "cl_shim/image_format.h"
#include "cl_shim/object.h"

namespace tessera::cl {

class Context;
class Device;
class Memory;

// Level Zero objects made once per root device of a context (an image or sampler is made "for the
// device, or its sub-devices"): the handle for a device is its root's.
template <typename H>
class PerRoot {
 public:
  void add(const Device* root, H h) { items_.emplace_back(root, h); }
  H forDevice(const Device& d) const;
  const std::vector<std::pair<const Device*, H>>& items() const { return items_; }

 private:
  std::vector<std::pair<const Device*, H>> items_;
};

// A device's image limits in OpenCL's terms (0 without images), from zeDeviceGetImageProperties.
struct ImageLimits {
  size_t width2D = 0, height2D = 0;  // also the 1D and 1D array width
  size_t width3D = 0, height3D = 0, depth3D = 0;
  size_t arraySize = 0;
  size_t bufferPixels = 0;  // CL_DEVICE_IMAGE_MAX_BUFFER_SIZE
  cl_uint pitchAlignment = 0, baseAlignment = 0;  // pixels, 2D images from buffers
  cl_uint readArgs = 0, writeArgs = 0, readWriteArgs = 0, samplers = 0;
};
ImageLimits imageLimits(const Device& d);

// The distinct root devices of a context's devices.
std::vector<const Device*> contextRoots(const Context& context);

struct ImageDesc {
  cl_mem_object_type type = 0;
  size_t width = 0, height = 0, depth = 0, arraySize = 0;  // as clGetImageInfo reports them
  size_t rowPitch = 0, slicePitch = 0;                      // likewise
};

class Image {
 public:
  Image(const ImageFormat& format, const ImageDesc& desc, size_t yPitch, size_t zPitch);
  ~Image();
  Image(const Image&) = delete;
  Image& operator=(const Image&) = delete;

  const ImageFormat& format() const { return format_; }
  const ImageDesc& desc() const { return desc_; }
  cl_mem_object_type type() const { return desc_.type; }
  uint32_t pixelBytes() const { return format_.pixelBytes; }
  size_t yPitch() const { return yPitch_; }
  size_t zPitch() const { return zPitch_; }
  // Valid values of x, y and z as origins and regions name them (1 for what the type lacks).
  size_t extent(int axis) const;
  // Byte offset of pixel `origin` from pixel (0, 0, 0).
  size_t offsetOf(const size_t* origin) const {
    return origin[0] * format_.pixelBytes + origin[1] * yPitch_ + origin[2] * zPitch_;
  }

  // The buffer the image was made from (CL_IMAGE_BUFFER, CL_MEM_ASSOCIATED_MEMOBJECT), or null.
  Memory* buffer() const { return buffer_.get(); }
  ze_image_handle_t zeFor(const Device& d) const { return ze_.forDevice(d); }

  // Makes the ze images over `data` for each root device of `context`; a ze error otherwise.
  ze_result_t makeZeImages(const Context& context, cl_mem_flags flags, void* data);
  void setBuffer(Memory* m);

  cl_int info(cl_image_info param, size_t size, void* value, size_t* sizeRet) const;

 private:
  ImageFormat format_;
  ImageDesc desc_;
  size_t yPitch_ = 0, zPitch_ = 0;
  Ref<Memory> buffer_;
  PerRoot<ze_image_handle_t> ze_;
};

// clGetSupportedImageFormats: the formats of the table Level Zero takes for `type` on some device
// of the context with images (a union), for what `flags` ask of kernels.
std::vector<cl_image_format> supportedFormats(const Context& context, cl_mem_flags flags,
                                              cl_mem_object_type type);

// Checks `origin` and `region` against an image: both non-null, "the values in region cannot be
// 0", what the type lacks is origin 0 and region 1, and the box lies inside the image. False:
// CL_INVALID_VALUE.
bool imageRegionOk(const Image& image, const size_t* origin, const size_t* region);

}  // namespace tessera::cl
