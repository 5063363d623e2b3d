#include "cl_shim/image.h"

#include <algorithm>

#include "cl_shim/api_support.h"
#include "cl_shim/context.h"
#include "cl_shim/device.h"
#include "cl_shim/memory.h"
#include "tessera/ze_tessera.h"

namespace tessera::cl {
namespace {

ze_image_type_t zeType(cl_mem_object_type t) {
  switch (t) {
    case CL_MEM_OBJECT_IMAGE1D: return ZE_IMAGE_TYPE_1D;
    case CL_MEM_OBJECT_IMAGE1D_BUFFER: return ZE_IMAGE_TYPE_BUFFER;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: return ZE_IMAGE_TYPE_1DARRAY;
    case CL_MEM_OBJECT_IMAGE2D: return ZE_IMAGE_TYPE_2D;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY: return ZE_IMAGE_TYPE_2DARRAY;
    default: return ZE_IMAGE_TYPE_3D;
  }
}

}  // namespace

template <typename H>
H PerRoot<H>::forDevice(const Device& d) const {
  const Device* root = &d;
  while (root->parent()) root = root->parent();
  for (const auto& [r, h] : items_)
    if (r == root) return h;
  return items_.empty() ? H{} : items_.front().second;
}
template class PerRoot<ze_image_handle_t>;
template class PerRoot<ze_sampler_handle_t>;

ImageLimits imageLimits(const Device& d) {
  ImageLimits l;
  if (!d.imageSupport()) return l;
  const ze_device_image_properties_t& p = d.zeImage();
  // CL_DEVICE_IMAGE2D_MAX_WIDTH is also the 1D width: "Max width of 2D image or 1D image not
  // created from a buffer object".
  l.width2D = std::min(p.maxImageDims1D, p.maxImageDims2D);
  l.height2D = p.maxImageDims2D;
  l.width3D = l.height3D = l.depth3D = p.maxImageDims3D;
  l.arraySize = p.maxImageArraySlices;
  // "Max number of pixels for a 1D image created from a buffer object": Tessera's
  // maxImageBufferSize counts pixels too (ze_tessera.h).
  l.bufferPixels = size_t(p.maxImageBufferSize);
  // Any pixel-aligned pitch and address will do: images are plain host memory.
  l.pitchAlignment = l.baseAlignment = 1;
  l.readArgs = p.maxReadImageArgs;
  l.writeArgs = p.maxWriteImageArgs;
  l.readWriteArgs = kReadWriteImages ? p.maxWriteImageArgs : 0;
  l.samplers = p.maxSamplers;
  return l;
}

std::vector<const Device*> contextRoots(const Context& context) {
  std::vector<const Device*> roots;
  for (const Ref<Device>& d : context.devices()) {
    const Device* root = d.get();
    while (root->parent()) root = root->parent();
    bool seen = false;
    for (const Device* r : roots) seen |= r == root;
    if (!seen) roots.push_back(root);
  }
  return roots;
}

Image::Image(const ImageFormat& format, const ImageDesc& desc, size_t yPitch, size_t zPitch)
    : format_(format), desc_(desc), yPitch_(yPitch), zPitch_(zPitch) {}

Image::~Image() {
  for (const auto& [root, h] : ze_.items()) zeImageDestroy(h);
}

size_t Image::extent(int axis) const {
  const ImageDesc& d = desc_;
  switch (d.type) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: return axis == 0 ? d.width : axis == 1 ? d.arraySize : 1;
    case CL_MEM_OBJECT_IMAGE2D: return axis == 0 ? d.width : axis == 1 ? d.height : 1;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY: return axis == 0 ? d.width : axis == 1 ? d.height : d.arraySize;
    case CL_MEM_OBJECT_IMAGE3D: return axis == 0 ? d.width : axis == 1 ? d.height : d.depth;
    default: return axis == 0 ? d.width : 1;  // 1D, 1D buffer
  }
}

ze_result_t Image::makeZeImages(const Context& context, cl_mem_flags flags, void* data) {
  ze_tessera_image_memory_desc_t memory{ZE_STRUCTURE_TYPE_TESSERA_IMAGE_MEMORY_DESC, nullptr, data,
                                        0, 0};
  ze_image_desc_t d{ZE_STRUCTURE_TYPE_IMAGE_DESC, &memory};
  // Kernels may write every image but a CL_MEM_READ_ONLY one.
  d.flags = (flags & CL_MEM_READ_ONLY) ? 0 : ZE_IMAGE_FLAG_KERNEL_WRITE;
  d.type = zeType(desc_.type);
  d.format = format_.ze;
  // In pixels, also for ZE_IMAGE_TYPE_BUFFER (Tessera takes it so, as the reference driver does:
  // ze_tessera.h, "ZE_tessera_image_memory").
  d.width = desc_.width;
  d.height = uint32_t(desc_.height ? desc_.height : 1);
  d.depth = uint32_t(desc_.depth ? desc_.depth : 1);
  d.arraylevels = uint32_t(desc_.arraySize);
  // The pitches of the extension: rows (a 1D array's layers), then slices (a 2D array's layers).
  if (d.type == ZE_IMAGE_TYPE_1DARRAY || d.type == ZE_IMAGE_TYPE_2D) memory.rowPitch = yPitch_;
  if (d.type == ZE_IMAGE_TYPE_2DARRAY || d.type == ZE_IMAGE_TYPE_3D) {
    memory.rowPitch = yPitch_;
    memory.slicePitch = zPitch_;
  }
  for (const Device* root : contextRoots(context)) {
    ze_image_handle_t h = nullptr;
    if (ze_result_t r = zeImageCreate(context.ze(), root->ze(), &d, &h); r != ZE_RESULT_SUCCESS)
      return r;
    ze_.add(root, h);
  }
  return ZE_RESULT_SUCCESS;
}

void Image::setBuffer(Memory* m) { buffer_ = Ref<Memory>(m); }

cl_int Image::info(cl_image_info param, size_t size, void* value, size_t* sizeRet) const {
  InfoWriter out(size, value, sizeRet);
  switch (param) {
    case CL_IMAGE_FORMAT: return out.scalar(format_.cl);
    case CL_IMAGE_ELEMENT_SIZE: return out.scalar<size_t>(format_.pixelBytes);
    case CL_IMAGE_ROW_PITCH: return out.scalar(desc_.rowPitch);
    case CL_IMAGE_SLICE_PITCH: return out.scalar(desc_.slicePitch);
    case CL_IMAGE_WIDTH: return out.scalar(desc_.width);
    case CL_IMAGE_HEIGHT: return out.scalar(desc_.height);
    case CL_IMAGE_DEPTH: return out.scalar(desc_.depth);
    case CL_IMAGE_ARRAY_SIZE: return out.scalar(desc_.arraySize);
    case CL_IMAGE_BUFFER: return out.scalar<cl_mem>(buffer_ ? buffer_->handle() : nullptr);
    case CL_IMAGE_NUM_MIP_LEVELS: return out.scalar<cl_uint>(0);
    case CL_IMAGE_NUM_SAMPLES: return out.scalar<cl_uint>(0);
    default: return CL_INVALID_VALUE;
  }
}

std::vector<cl_image_format> supportedFormats(const Context& context, cl_mem_flags flags,
                                              cl_mem_object_type type) {
  std::vector<cl_image_format> out;
  // CL_MEM_KERNEL_READ_AND_WRITE asks for formats "that may be both read from and written to by
  // the same kernel instance": none without read_write images.
  if ((flags & CL_MEM_KERNEL_READ_AND_WRITE) && !kReadWriteImages) return out;
  std::vector<const Device*> roots;
  for (const Ref<Device>& d : context.devices()) {
    if (!d->imageSupport()) continue;
    const Device* root = d.get();
    while (root->parent()) root = root->parent();
    if (std::find(roots.begin(), roots.end(), root) == roots.end()) roots.push_back(root);
  }
  for (const ImageFormat& f : imageFormats()) {
    ze_image_desc_t d{ZE_STRUCTURE_TYPE_IMAGE_DESC};
    d.flags = (flags & CL_MEM_READ_ONLY) ? 0 : ZE_IMAGE_FLAG_KERNEL_WRITE;
    d.type = zeType(type);
    d.format = f.ze;
    d.width = 1;
    d.height = d.depth = d.arraylevels = 1;
    for (const Device* root : roots) {
      ze_image_properties_t props{ZE_STRUCTURE_TYPE_IMAGE_PROPERTIES};
      if (zeImageGetProperties(root->ze(), &d, &props) == ZE_RESULT_SUCCESS) {
        out.push_back(f.cl);
        break;
      }
    }
  }
  return out;
}

bool imageRegionOk(const Image& image, const size_t* origin, const size_t* region) {
  if (!origin || !region) return false;
  for (int i = 0; i < 3; ++i) {
    // "The values in region cannot be 0"; "If image is a 2D image object, origin[2] must be 0 ...
    // region[2] must be 1" and the like: a coordinate the type lacks has extent 1.
    size_t extent = image.extent(i);
    if (region[i] == 0 || origin[i] >= extent || region[i] > extent - origin[i]) return false;
  }
  return true;
}

}  // namespace tessera::cl
