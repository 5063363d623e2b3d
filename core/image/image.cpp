#include "core/image/image.h"

#include <sys/mman.h>

#include <atomic>

#include "core/device/device.h"
#include "core/device/limits.h"
#include "support/checked_math.h"

namespace tessera::core {

// The memory of an image and its views: owned (freed with the last of them) or the caller's. Owned
// memory is a mapping of its own, so that a command or kernel still using it after the application
// destroyed the image faults (and is contained, docs/reliability.md) rather than writing into
// memory the process reused.
struct Image::Storage {
  uint8_t* data = nullptr;
  size_t mapped = 0;  // bytes of the owned mapping; 0 for the caller's memory
  uint64_t id = nextId();

  ~Storage() {
    if (mapped) munmap(data, mapped);
  }
  static uint64_t nextId() {
    static std::atomic<uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
  }
};

namespace {

using support::checkedAdd;
using support::checkedMul;

// The largest width (and height, depth) of each image type; arrays' layers are limited apart.
uint64_t maxDimension(ze_image_type_t type) {
  switch (type) {
    case ZE_IMAGE_TYPE_1D:
    case ZE_IMAGE_TYPE_1DARRAY:
      return limits::kMaxImageDims1D;
    case ZE_IMAGE_TYPE_2D:
    case ZE_IMAGE_TYPE_2DARRAY:
      return limits::kMaxImageDims2D;
    case ZE_IMAGE_TYPE_3D:
      return limits::kMaxImageDims3D;
    default:
      return limits::kMaxImageBufferSize;
  }
}

// The bytes from pixel (0, 0, 0) to the end of the last pixel of `extent` with these pitches;
// false when that does not fit in 64 bits.
bool spanOf(const std::array<uint64_t, 3>& extent, uint64_t pixelBytes, uint64_t rowPitch,
            uint64_t slicePitch, uint64_t& span) {
  uint64_t row, rows, slices;
  return checkedMul(extent[0], pixelBytes, row) && checkedMul(extent[1] - 1, rowPitch, rows) &&
         checkedMul(extent[2] - 1, slicePitch, slices) && checkedAdd(row, rows, span) &&
         checkedAdd(span, slices, span);
}

}  // namespace

ze_result_t imageExtent(const ze_image_desc_t& desc, std::array<uint64_t, 3>& extent) {
  const ze_image_type_t t = desc.type;
  extent = {desc.width, 1, 1};
  if (t == ZE_IMAGE_TYPE_2D || t == ZE_IMAGE_TYPE_2DARRAY || t == ZE_IMAGE_TYPE_3D)
    extent[1] = desc.height;
  if (t == ZE_IMAGE_TYPE_3D) extent[2] = desc.depth;
  if (t == ZE_IMAGE_TYPE_1DARRAY) extent[1] = desc.arraylevels;
  if (t == ZE_IMAGE_TYPE_2DARRAY) extent[2] = desc.arraylevels;
  const uint64_t most = maxDimension(t);
  for (int i = 0; i < 3; ++i) {
    bool layers = (t == ZE_IMAGE_TYPE_1DARRAY && i == 1) || (t == ZE_IMAGE_TYPE_2DARRAY && i == 2);
    if (extent[i] == 0 || extent[i] > (layers ? limits::kMaxImageArraySlices : most))
      return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t checkImageDesc(const ze_image_desc_t& desc, ImageFormatInfo& format) {
  if (desc.flags > (ZE_IMAGE_FLAG_KERNEL_WRITE | ZE_IMAGE_FLAG_BIAS_UNCACHED) ||
      desc.type > ZE_IMAGE_TYPE_BUFFER)
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  if (ze_result_t r = describeFormat(desc.format, format); r != ZE_RESULT_SUCCESS) return r;
  // "mipmap levels (must be 0)"; 1 says the same (one level), as programs written for other
  // drivers pass it.
  if (desc.miplevels > 1) return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  return ZE_RESULT_SUCCESS;
}

Image::Image(Context& context, Device& device, std::shared_ptr<Storage> storage)
    : context_(&context), device_(device), storage_(std::move(storage)) {}

Image::~Image() = default;

uint64_t Image::allocationId() const {
  return storage_->id;
}

ze_result_t Image::create(Context& context, Device& device, const ze_image_desc_t& desc,
                          const ImageMemoryDesc* memory, std::unique_ptr<Image>& out) {
  ImageFormatInfo format;
  std::array<uint64_t, 3> extent;
  if (ze_result_t r = checkImageDesc(desc, format); r != ZE_RESULT_SUCCESS) return r;
  if (ze_result_t r = imageExtent(desc, extent); r != ZE_RESULT_SUCCESS) return r;
  if (memory && !memory->memory) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // Within the limits every product below fits in 64 bits (2^14 * 2^14 * 2^11 * 16 bytes).
  const uint64_t pb = format.pixelBytes, tightRow = extent[0] * pb;
  uint64_t rowPitch = memory && memory->rowPitch ? memory->rowPitch : tightRow;
  uint64_t slicePitch = memory && memory->slicePitch ? memory->slicePitch : rowPitch * extent[1];
  if (rowPitch < tightRow || rowPitch % pb != 0 || slicePitch < rowPitch * extent[1] ||
      slicePitch % pb != 0)
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  uint64_t size;
  if (!spanOf(extent, pb, rowPitch, slicePitch, size)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;

  auto storage = std::make_shared<Storage>();
  if (memory) {
    storage->data = static_cast<uint8_t*>(memory->memory);
  } else {
    if (size > limits::maxMemAllocSize(device.resources()))
      return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    storage->data = static_cast<uint8_t*>(p);
    storage->mapped = size;
  }
  out.reset(new Image(context, device, std::move(storage)));
  backends::ImageView& v = out->view_;
  v.data = out->storage_->data;
  for (int i = 0; i < 3; ++i) v.extent[i] = extent[i];
  v.rowPitch = rowPitch;
  v.slicePitch = slicePitch;
  v.pixelBytes = format.pixelBytes;
  v.imageType = desc.type;
  v.layout = desc.format.layout;
  v.type = desc.format.type;
  for (int c = 0; c < 4; ++c) v.swizzle[c] = format.swizzle[c];
  v.channelOrder = format.channelOrder;
  v.channelDataType = format.channelDataType;
  out->size_ = size;
  out->flags_ = desc.flags;
  return ZE_RESULT_SUCCESS;
}

ze_result_t Image::createView(Context& context, Device& device, const ze_image_desc_t& desc,
                              const Image& parent, std::unique_ptr<Image>& out) {
  // The view is described as an image over the parent's memory with the parent's pitches, then
  // must fit in it.
  ImageMemoryDesc over{parent.data(), parent.rowPitch(), parent.slicePitch()};
  ImageFormatInfo format;
  if (ze_result_t r = checkImageDesc(desc, format); r != ZE_RESULT_SUCCESS) return r;
  std::array<uint64_t, 3> extent;
  if (ze_result_t r = imageExtent(desc, extent); r != ZE_RESULT_SUCCESS) return r;
  if (over.rowPitch % format.pixelBytes != 0 || over.slicePitch % format.pixelBytes != 0)
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  uint64_t span;
  bool rowsFit = extent[1] == 1 || extent[0] * format.pixelBytes <= over.rowPitch;
  bool slicesFit = extent[2] == 1 || extent[1] * over.rowPitch <= over.slicePitch;
  if (!rowsFit || !slicesFit ||
      !spanOf(extent, format.pixelBytes, over.rowPitch, over.slicePitch, span) ||
      span > parent.size())
    return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  // A view of one row or slice keeps the parent's pitches, which create() would find too small
  // for nothing: its checks run on the tight pitches instead, and the parent's are set after.
  ImageMemoryDesc tight{over.memory, 0, 0};
  if (ze_result_t r = create(context, device, desc, &tight, out); r != ZE_RESULT_SUCCESS) return r;
  out->storage_ = parent.storage_;
  if (extent[1] > 1) out->view_.rowPitch = over.rowPitch;
  if (extent[2] > 1) out->view_.slicePitch = over.slicePitch;
  out->size_ = span;
  return ZE_RESULT_SUCCESS;
}

}  // namespace tessera::core
