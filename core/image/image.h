// An image: linear host memory of a format (core/image/format.h) and a shape, described to kernels
// by the ImageView it holds (backends/device_kind.h; the CPU kind's image_abi.h: pixel (x, y, z)
// at data + x * pixel bytes + y * rowPitch + z * slicePitch, a 1D array's layer being y and a 2D
// array's z).
//
// The memory is the image's own (tight pitches: rowPitch = width * pixel bytes, slicePitch =
// rowPitch * rows) or the caller's (ZE_tessera_image_memory: any pitches at least the tight ones,
// in multiples of the pixel size). Views (zeImageViewCreateExp) read the same memory with another
// format or shape and share it: the memory lives as long as the image or any of its views.
//
// Threading: made and destroyed by the application's threads ("must not call this function from
// simultaneous threads with the same image handle"); everything else only reads.
#pragma once

#include <level_zero/ze_api.h>

#include <array>
#include <cstdint>
#include <memory>

#include "backends/device_kind.h"
#include "core/common/object.h"
#include "core/image/format.h"

namespace tessera::core {

class Context;
class Device;

// ZE_tessera_image_memory's descriptor as the entry point read it: the image's pixel (0, 0, 0) and
// its pitches (0: tight).
struct ImageMemoryDesc {
  void* memory = nullptr;
  uint64_t rowPitch = 0;
  uint64_t slicePitch = 0;
};

// The number of valid values of x, y and z of an image of `desc` (1 for a coordinate its type does
// not have; a 1D array's layers are y, a 2D array's z), checked against the device's limits
// (core/device/limits.h): UNSUPPORTED_SIZE for 0 or more than the limit. Fields the type does not
// use are ignored ("other: ignored").
ze_result_t imageExtent(const ze_image_desc_t& desc, std::array<uint64_t, 3>& extent);

// The checks zeImageCreate and zeImageGetProperties share, in order: INVALID_ENUMERATION for
// flags past 0x3 or a type past BUFFER, then the format's (describeFormat), then
// UNSUPPORTED_FEATURE for mipmaps (miplevels other than 0 or 1). The stype is the caller's.
ze_result_t checkImageDesc(const ze_image_desc_t& desc, ImageFormatInfo& format);

class Image : public Object<_ze_image_handle_t, 0x74657373496d6731ull /* "tessImg1" */> {
 public:
  // zeImageCreate: checkImageDesc, imageExtent, then for the caller's memory INVALID_NULL_POINTER
  // (no memory) and INVALID_ARGUMENT (a pitch below the tight one or not a multiple of the pixel
  // size); for its own memory OUT_OF_DEVICE_MEMORY when it exceeds the device's maxMemAllocSize or
  // cannot be had.
  static ze_result_t create(Context& context, Device& device, const ze_image_desc_t& desc,
                            const ImageMemoryDesc* memory, std::unique_ptr<Image>& out);
  // zeImageViewCreateExp: `desc` over `parent`'s memory with its pitches. As create(), then
  // INVALID_ARGUMENT when the pitches are not multiples of the view's pixel size, UNSUPPORTED_SIZE
  // when the view reaches past the parent's memory.
  static ze_result_t createView(Context& context, Device& device, const ze_image_desc_t& desc,
                                const Image& parent, std::unique_ptr<Image>& out);
  static Image* fromHandle(ze_image_handle_t h) { return Object::fromHandle<Image>(h); }
  ~Image();

  // What an image argument's slot points to (ArgKind::Image). Stable while the image lives.
  const backends::ImageView& view() const { return view_; }
  Context* context() const { return context_; }  // compared, never followed
  Device& device() const { return device_; }
  ze_image_type_t type() const { return static_cast<ze_image_type_t>(view_.imageType); }
  uint32_t pixelBytes() const { return view_.pixelBytes; }
  uint8_t* data() const { return view_.data; }
  uint64_t rowPitch() const { return view_.rowPitch; }
  uint64_t slicePitch() const { return view_.slicePitch; }
  // Bytes from pixel (0, 0, 0) to the end of the last pixel.
  uint64_t size() const { return size_; }
  // ZE_IMAGE_FLAG_KERNEL_WRITE: "kernels will write contents". Without it, an argument the kernel
  // writes refuses the image (Kernel::encodeArgument).
  bool kernelWrites() const { return (flags_ & ZE_IMAGE_FLAG_KERNEL_WRITE) != 0; }
  // zeImageGetAllocPropertiesExt's id: one per memory, the same for an image and its views.
  uint64_t allocationId() const;

 private:
  struct Storage;
  Image(Context& context, Device& device, std::shared_ptr<Storage> storage);

  Context* context_;
  Device& device_;
  std::shared_ptr<Storage> storage_;
  backends::ImageView view_;
  uint64_t size_ = 0;
  ze_image_flags_t flags_ = 0;
};

}  // namespace tessera::core
