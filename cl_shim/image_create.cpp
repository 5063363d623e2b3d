// clCreateImage's checks, in the order of the OpenCL 3.0 error list, and the image's storage: a
// Level Zero host allocation, the application's host_ptr (CL_MEM_USE_HOST_PTR, with its pitches)
// or a buffer's memory (image1d_buffer_t, cl_khr_image2d_from_buffer).
#include <algorithm>
#include <cstring>

#include "cl_shim/errors.h"
#include "cl_shim/memory.h"

namespace tessera::cl {
namespace {

bool isImageType(cl_mem_object_type t) {
  return t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
         t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D ||
         t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
}

bool isArray(cl_mem_object_type t) {
  return t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
}

bool hasHeight(cl_mem_object_type t) {
  return t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
}

// The largest limits of the context's devices that support images ("exceed the maximum image
// dimensions ... for all devices in context").
ImageLimits contextLimits(const Context& c) {
  ImageLimits l{};
  for (const Ref<Device>& d : c.devices()) {
    if (!d->imageSupport()) continue;
    ImageLimits x = imageLimits(*d);
    l.width2D = std::max(l.width2D, x.width2D);
    l.height2D = std::max(l.height2D, x.height2D);
    l.width3D = std::max(l.width3D, x.width3D);
    l.height3D = std::max(l.height3D, x.height3D);
    l.depth3D = std::max(l.depth3D, x.depth3D);
    l.arraySize = std::max(l.arraySize, x.arraySize);
    l.bufferPixels = std::max(l.bufferPixels, x.bufferPixels);
    l.pitchAlignment = std::max(l.pitchAlignment, x.pitchAlignment);
    l.baseAlignment = std::max(l.baseAlignment, x.baseAlignment);
  }
  return l;
}

bool withinLimits(const ImageDesc& d, const ImageLimits& l) {
  switch (d.type) {
    case CL_MEM_OBJECT_IMAGE1D_BUFFER: return d.width <= l.bufferPixels;
    case CL_MEM_OBJECT_IMAGE1D: return d.width <= l.width2D;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: return d.width <= l.width2D && d.arraySize <= l.arraySize;
    case CL_MEM_OBJECT_IMAGE2D: return d.width <= l.width2D && d.height <= l.height2D;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      return d.width <= l.width2D && d.height <= l.height2D && d.arraySize <= l.arraySize;
    default: return d.width <= l.width3D && d.height <= l.height3D && d.depth <= l.depth3D;
  }
}

// The layers (or slices) after the first plane: what the slice pitch multiplies.
size_t planes(const ImageDesc& d) {
  return isArray(d.type) ? d.arraySize : d.type == CL_MEM_OBJECT_IMAGE3D ? d.depth : 1;
}

// The image's bytes: "Required host_ptr buffer sizes for images" (row pitch x height for 2D,
// slice pitch x depth or array size for 3D and arrays, the row pitch for 1D).
bool storageBytes(const ImageDesc& d, size_t& bytes) {
  size_t rows = d.type == CL_MEM_OBJECT_IMAGE2D ? d.height : 1;
  size_t unit = (d.type == CL_MEM_OBJECT_IMAGE1D_ARRAY || d.type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                 d.type == CL_MEM_OBJECT_IMAGE3D)
                    ? d.slicePitch
                    : d.rowPitch;
  return !__builtin_mul_overflow(unit, rows * planes(d), &bytes);
}

// Copies the host's pixels (CL_MEM_COPY_HOST_PTR) into the image's tight storage, row by row.
void copyIn(const ImageDesc& host, const Image& image, char* dst, const char* src) {
  const size_t rowBytes = host.width * image.pixelBytes();
  const size_t hostY = host.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? host.slicePitch : host.rowPitch;
  for (size_t z = 0; z < image.extent(2); ++z)
    for (size_t y = 0; y < image.extent(1); ++y)
      std::memcpy(dst + z * image.zPitch() + y * image.yPitch(),
                  src + z * host.slicePitch + y * hostY, rowBytes);
}

}  // namespace

Memory* Memory::createImage(Context& context, cl_mem_flags flags, const cl_image_format* format,
                            const cl_image_desc* desc, void* hostPtr,
                            std::vector<cl_mem_properties> properties, cl_int& err) {
  auto fail = [&](cl_int e) -> Memory* {
    err = e;
    return nullptr;
  };
  // "CL_INVALID_OPERATION if there are no devices in context that support images".
  ImageLimits limits = contextLimits(context);
  if (limits.width2D == 0) return fail(CL_INVALID_OPERATION);
  // The memory object an image is made from: "mem_object may refer to a valid buffer or image".
  Memory* from = desc && desc->mem_object ? Memory::from(desc->mem_object) : nullptr;
  // "For all image types except CL_MEM_OBJECT_IMAGE1D_BUFFER, if the value specified for flags is
  // 0, the default is used which is CL_MEM_READ_WRITE" (one made from a buffer inherits below).
  if (!validMemFlags(flags)) return fail(CL_INVALID_VALUE);
  // "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if values specified in image_format are not valid or if
  // image_format is NULL".
  ImageFormat f;
  if (!format) return fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  FormatClass fc = classifyFormat(*format, &f);
  if (fc == FormatClass::Invalid) return fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);

  // "CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are not valid or if image_desc
  // is NULL": the type, sizes of at least 1 where the type uses them, no mipmaps or samples, and
  // mem_object a buffer of this context exactly for 1D buffer images and (optionally) 2D images.
  if (!desc || !isImageType(desc->image_type)) return fail(CL_INVALID_IMAGE_DESCRIPTOR);
  const cl_mem_object_type type = desc->image_type;
  ImageDesc d;
  d.type = type;
  d.width = desc->image_width;
  d.height = hasHeight(type) ? desc->image_height : 0;
  d.depth = type == CL_MEM_OBJECT_IMAGE3D ? desc->image_depth : 0;
  d.arraySize = isArray(type) ? desc->image_array_size : 0;
  if (d.width == 0 || (hasHeight(type) && d.height == 0) ||
      (type == CL_MEM_OBJECT_IMAGE3D && d.depth == 0) || (isArray(type) && d.arraySize == 0) ||
      desc->num_mip_levels != 0 || desc->num_samples != 0)
    return fail(CL_INVALID_IMAGE_DESCRIPTOR);
  if (desc->mem_object) {
    bool bufferAllowed = type == CL_MEM_OBJECT_IMAGE1D_BUFFER || type == CL_MEM_OBJECT_IMAGE2D;
    if (!from || from->image() || !bufferAllowed || &from->context() != &context)
      return fail(CL_INVALID_IMAGE_DESCRIPTOR);
  } else if (type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    return fail(CL_INVALID_IMAGE_DESCRIPTOR);
  }
  // A format OpenCL allows that Tessera does not serve (sRGB, depth, CL_Rx, ...): its pixel size is
  // not known here, so it is refused before the pitches are looked at.
  if (fc == FormatClass::Unsupported) return fail(CL_IMAGE_FORMAT_NOT_SUPPORTED);

  // Pitches. "The image_row_pitch must be zero if host_ptr is NULL ... and the image is not a 2D
  // image created from a buffer"; non-zero, it "must be greater than or equal to the image_width
  // times the size of an image element in bytes, and must be a multiple of the size of an image
  // element in bytes". "The image_slice_pitch must be zero if host_ptr is NULL"; otherwise ">= the
  // image row pitch x image_height for a 2D image array or a 3D image, ... >= the image row pitch
  // for a 1D image array, and must be a multiple of the image row pitch".
  const size_t pb = f.pixelBytes;
  const bool fromBuffer2D = from && type == CL_MEM_OBJECT_IMAGE2D;
  size_t tightRow;
  if (__builtin_mul_overflow(d.width, pb, &tightRow)) return fail(CL_INVALID_IMAGE_SIZE);
  const bool pitched = hostPtr || fromBuffer2D;
  d.rowPitch = desc->image_row_pitch;
  if (d.rowPitch && (!pitched || d.rowPitch < tightRow || d.rowPitch % pb))
    return fail(CL_INVALID_IMAGE_DESCRIPTOR);
  if (!d.rowPitch) d.rowPitch = tightRow;
  const bool sliced = isArray(type) || type == CL_MEM_OBJECT_IMAGE3D;
  size_t tightSlice = d.rowPitch;
  if (type != CL_MEM_OBJECT_IMAGE1D_ARRAY &&
      __builtin_mul_overflow(d.rowPitch, d.height, &tightSlice))
    return fail(CL_INVALID_IMAGE_SIZE);
  d.slicePitch = sliced ? desc->image_slice_pitch : 0;
  if (d.slicePitch && (!hostPtr || d.slicePitch < tightSlice || d.slicePitch % d.rowPitch))
    return fail(CL_INVALID_IMAGE_DESCRIPTOR);
  if (sliced && !d.slicePitch) d.slicePitch = tightSlice;

  // "CL_INVALID_IMAGE_SIZE if image dimensions specified in image_desc exceed the maximum image
  // dimensions described in the Device Queries table for all devices in context."
  if (!withinLimits(d, limits)) return fail(CL_INVALID_IMAGE_SIZE);
  size_t bytes = 0;
  if (!storageBytes(d, bytes)) return fail(CL_INVALID_IMAGE_SIZE);
  if (from) {
    // "For a 1D image buffer created from a buffer object, the image_width x size of element in
    // bytes must be <= size of the buffer object"; "For a 2D image created from a buffer object,
    // the image_row_pitch x image_height must be <= size of the buffer object".
    if (bytes > from->size()) return fail(CL_INVALID_IMAGE_SIZE);
    // cl_khr_image2d_from_buffer: the row pitch "must be a multiple of the maximum of the
    // CL_DEVICE_IMAGE_PITCH_ALIGNMENT value", the buffer's memory aligned to
    // CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT pixels; CL_INVALID_IMAGE_FORMAT_DESCRIPTOR otherwise.
    if (fromBuffer2D && (d.rowPitch % (limits.pitchAlignment * pb) ||
                         uintptr_t(from->address()) % (limits.baseAlignment * pb)))
      return fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  }

  // "CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR are
  // set in flags or if host_ptr is not NULL but CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are
  // not set in flags."
  bool wantsHostPtr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (wantsHostPtr != (hostPtr != nullptr)) return fail(CL_INVALID_HOST_PTR);
  if (from) {
    // "CL_INVALID_VALUE if an image is being created from another memory object (buffer or image)"
    // and the access flags contradict the object's, or "flags specifies CL_MEM_USE_HOST_PTR or
    // CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR"; unspecified flags are inherited.
    const cl_mem_flags p = from->flags();
    if ((flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)) ||
        ((p & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
        ((p & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
        ((p & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
        ((p & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
        ((p & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
      return fail(CL_INVALID_VALUE);
    const cl_mem_flags access = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
    const cl_mem_flags host = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
    if (!(flags & access)) flags |= p & access;
    if (!(flags & host)) flags |= p & host;
    flags |= p & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  } else if (!(flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY))) {
    flags |= CL_MEM_READ_WRITE;
  }

  uint64_t maxAlloc = 0;
  for (auto& dev : context.devices()) maxAlloc = std::max(maxAlloc, dev->zeProperties().maxMemAllocSize);
  if (bytes > maxAlloc) return fail(CL_MEM_OBJECT_ALLOCATION_FAILURE);

  // The storage: pitches of the application's memory for CL_MEM_USE_HOST_PTR and buffers, tight
  // for memory of cl_shim's own.
  ImageDesc stored = d;
  if (!(flags & CL_MEM_USE_HOST_PTR) && !from) {
    stored.rowPitch = tightRow;
    stored.slicePitch = !sliced ? 0 : type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? tightRow : tightRow * d.height;
    storageBytes(stored, bytes);
  }
  const size_t yPitch = type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? stored.slicePitch : stored.rowPitch;
  const size_t zPitch = type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE3D
                            ? stored.slicePitch
                            : 0;

  auto* m = new Memory;
  m->context_ = Ref<Context>(&context);
  m->flags_ = flags;
  m->size_ = bytes;
  m->properties_ = std::move(properties);
  // clGetImageInfo reports the pitches given: "If image was created with a non-zero value for
  // image_row_pitch, then the value provided ... is returned, otherwise ... CL_IMAGE_WIDTH x
  // CL_IMAGE_ELEMENT_SIZE" (also for CL_MEM_COPY_HOST_PTR, whose storage is tight).
  m->image_ = std::make_unique<Image>(f, d, yPitch, zPitch);
  if (from) {
    m->address_ = from->address();
    m->image_->setBuffer(from);
  } else if (flags & CL_MEM_USE_HOST_PTR) {
    m->hostPtr_ = hostPtr;
    m->address_ = static_cast<char*>(hostPtr);
  } else {
    if (cl_int e = m->allocateStorage(bytes); e != CL_SUCCESS) {
      m->releaseApi();
      return fail(e);
    }
    if (flags & CL_MEM_COPY_HOST_PTR) copyIn(d, *m->image_, m->address_, static_cast<char*>(hostPtr));
  }
  if (ze_result_t r = m->image_->makeZeImages(context, flags, m->address_); r != ZE_RESULT_SUCCESS) {
    m->releaseApi();
    return fail(r == ZE_RESULT_ERROR_UNSUPPORTED_SIZE ? CL_INVALID_IMAGE_SIZE : fromZe(r));
  }
  err = CL_SUCCESS;
  return m;
}

}  // namespace tessera::cl
