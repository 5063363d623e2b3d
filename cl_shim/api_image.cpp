// Image object entry points: creation (3.0, 1.2 and the 1.1 2D/3D creators), the supported
// formats and clGetImageInfo. The checks are in image_create.cpp, the objects in image.h; image
// commands are in api_enqueue_image.cpp.
#include <algorithm>

#include "cl_shim/api.h"
#include "cl_shim/api_support.h"
#include "cl_shim/memory.h"

namespace tessera::cl::api {
namespace {

cl_mem createImage(cl_context context, const cl_mem_properties* properties, cl_mem_flags flags,
                   const cl_image_format* format, const cl_image_desc* desc, void* host_ptr,
                   cl_int& err) {
  Context* c = Context::from(context);
  if (!c) { err = CL_INVALID_CONTEXT; return nullptr; }
  std::vector<cl_mem_properties> props;
  if (properties) {
    // "OpenCL does not define any optional properties for images": "CL_INVALID_PROPERTY if a
    // property name in properties is not a supported property name".
    if (properties[0] != 0) { err = CL_INVALID_PROPERTY; return nullptr; }
    props.push_back(0);  // CL_MEM_PROPERTIES: "the values specified in the properties argument"
  }
  Memory* m = Memory::createImage(*c, flags, format, desc, host_ptr, std::move(props), err);
  return m ? m->handle() : nullptr;
}

// The 1.1 creators name every bad size or pitch CL_INVALID_IMAGE_SIZE: "if image_width or
// image_height are 0 or if they exceed the maximum values ... or if values specified by
// image_row_pitch do not follow rules described in the argument description above".
cl_mem createLegacy(cl_context context, cl_mem_flags flags, const cl_image_format* format,
                    const cl_image_desc& desc, void* host_ptr, cl_int& err) {
  cl_mem m = createImage(context, nullptr, flags, format, &desc, host_ptr, err);
  if (err == CL_INVALID_IMAGE_DESCRIPTOR) err = CL_INVALID_IMAGE_SIZE;
  return m;
}

bool validImageType(cl_mem_object_type t) {
  switch (t) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    case CL_MEM_OBJECT_IMAGE3D:
      return true;
    default:
      return false;
  }
}

}  // namespace

cl_mem clCreateImage(cl_context context, cl_mem_flags flags, const cl_image_format* image_format,
                     const cl_image_desc* image_desc, void* host_ptr, cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) {
    return createImage(context, nullptr, flags, image_format, image_desc, host_ptr, err);
  });
}

cl_mem clCreateImageWithProperties(cl_context context, const cl_mem_properties* properties,
                                   cl_mem_flags flags, const cl_image_format* image_format,
                                   const cl_image_desc* image_desc, void* host_ptr,
                                   cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) {
    return createImage(context, properties, flags, image_format, image_desc, host_ptr, err);
  });
}

cl_mem clCreateImage2D(cl_context context, cl_mem_flags flags, const cl_image_format* image_format,
                       size_t image_width, size_t image_height, size_t image_row_pitch,
                       void* host_ptr, cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) {
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = image_width;
    desc.image_height = image_height;
    desc.image_row_pitch = image_row_pitch;
    return createLegacy(context, flags, image_format, desc, host_ptr, err);
  });
}

cl_mem clCreateImage3D(cl_context context, cl_mem_flags flags, const cl_image_format* image_format,
                       size_t image_width, size_t image_height, size_t image_depth,
                       size_t image_row_pitch, size_t image_slice_pitch, void* host_ptr,
                       cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) {
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE3D;
    desc.image_width = image_width;
    desc.image_height = image_height;
    // "CL_INVALID_IMAGE_SIZE if ... image_depth <= 1" (clCreateImage3D: "this must be a value >
    // 1"): a depth of 0 is refused as any other size is.
    desc.image_depth = image_depth > 1 ? image_depth : 0;
    desc.image_row_pitch = image_row_pitch;
    desc.image_slice_pitch = image_slice_pitch;
    return createLegacy(context, flags, image_format, desc, host_ptr, err);
  });
}

cl_int clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                  cl_mem_object_type image_type, cl_uint num_entries,
                                  cl_image_format* image_formats, cl_uint* num_image_formats) {
  return guarded([&] {
    Context* c = Context::from(context);
    if (!c) return CL_INVALID_CONTEXT;
    // "CL_INVALID_VALUE if flags or image_type are not valid, or if num_entries is 0 and
    // image_formats is not NULL."
    if (!validMemFlags(flags & ~cl_mem_flags(CL_MEM_KERNEL_READ_AND_WRITE)) ||
        !validImageType(image_type) || (num_entries == 0 && image_formats))
      return CL_INVALID_VALUE;
    // A union over the context's devices with images; empty when none has them.
    std::vector<cl_image_format> list = supportedFormats(*c, flags, image_type);
    if (image_formats)
      std::copy_n(list.begin(), std::min<size_t>(num_entries, list.size()), image_formats);
    if (num_image_formats) *num_image_formats = cl_uint(list.size());
    return CL_SUCCESS;
  });
}

cl_int clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size,
                      void* param_value, size_t* param_value_size_ret) {
  return guarded([&] {
    // "CL_INVALID_MEM_OBJECT if image is a not a valid image object."
    Memory* m = Memory::image(image);
    if (!m) return CL_INVALID_MEM_OBJECT;
    return m->image()->info(param_name, param_value_size, param_value, param_value_size_ret);
  });
}

}  // namespace tessera::cl::api
