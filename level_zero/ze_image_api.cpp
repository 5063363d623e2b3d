// The image entry points (zeImage*, image residency, ZE_experimental_image_memory_properties,
// ZE_experimental_image_view, ZE_extension_image_query_alloc_properties, ZE_tessera_image_memory).
// Each checks handles, pointers and structure types, reads the descriptor chain, then calls core
// (core/image/image.h).
#include <memory>

#include "core/context/context.h"
#include "core/image/image.h"
#include "level_zero/api_support.h"
#include "tessera/ze_tessera.h"

using tessera::core::Context;
using tessera::core::Device;
using tessera::core::Image;
using tessera::core::ImageMemoryDesc;
using namespace tessera::ze;

namespace {

// The structures Tessera knows in an image descriptor's chain: its own memory descriptor (into
// `memory`, `hasMemory` set). External memory is refused (zeDeviceGetExternalMemoryProperties
// reports no image import or export types), planar views (media formats) and sRGB too; other
// structures are skipped, as for any driver without their extension.
ze_result_t readImageChain(const void* pNext, ImageMemoryDesc& memory, bool& hasMemory) {
  hasMemory = false;
  if (chainHasCycle(pNext)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  for (auto* h = static_cast<const ze_base_desc_t*>(pNext); h;
       h = static_cast<const ze_base_desc_t*>(h->pNext)) {
    switch (static_cast<uint32_t>(h->stype)) {
      case ZE_STRUCTURE_TYPE_TESSERA_IMAGE_MEMORY_DESC: {
        auto* d = reinterpret_cast<const ze_tessera_image_memory_desc_t*>(h);
        memory = {d->pMemory, d->rowPitch, d->slicePitch};
        hasMemory = true;
        break;
      }
      case ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_DESC:
      case ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD:
      case ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_WIN32:
        return ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
      case ZE_STRUCTURE_TYPE_IMAGE_VIEW_PLANAR_EXP_DESC:
        return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
      case ZE_STRUCTURE_TYPE_SRGB_EXT_DESC:
        if (reinterpret_cast<const ze_srgb_ext_desc_t*>(h)->sRGB)
          return ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT;
        break;
      default:
        break;
    }
  }
  return ZE_RESULT_SUCCESS;
}

// The context and one of its devices (INVALID_NULL_HANDLE otherwise, as for memory).
ze_result_t contextAndDevice(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                             Context*& context, Device*& device) {
  context = Context::fromHandle(hContext);
  device = Device::fromHandle(hDevice);
  return context && device && context->hasDevice(device) ? ZE_RESULT_SUCCESS
                                                         : ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
}

// zeContextMakeImageResident and zeContextEvictImage: images are host memory, always resident for
// a device that takes page faults (ZE_DEVICE_PROPERTY_FLAG_ONDEMANDPAGING); nothing to do.
ze_result_t imageResidency(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                           ze_image_handle_t hImage) {
  Context* context;
  Device* device;
  if (ze_result_t r = contextAndDevice(hContext, hDevice, context, device); r != ZE_RESULT_SUCCESS)
    return r;
  return Image::fromHandle(hImage) ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
}

}  // namespace

ZE_APIEXPORT ze_result_t ZE_APICALL zeImageGetProperties(ze_device_handle_t hDevice,
                                                         const ze_image_desc_t* desc,
                                                         ze_image_properties_t* pImageProperties) {
  if (!Device::fromHandle(hDevice)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !pImageProperties) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(desc->stype, ZE_STRUCTURE_TYPE_IMAGE_DESC))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  tessera::ze::adoptOutputStruct(*pImageProperties, ZE_STRUCTURE_TYPE_IMAGE_PROPERTIES);
  tessera::core::ImageFormatInfo format;
  if (ze_result_t r = tessera::core::checkImageDesc(*desc, format); r != ZE_RESULT_SUCCESS)
    return r;
  pImageProperties->samplerFilterFlags =
      ZE_IMAGE_SAMPLER_FILTER_FLAG_POINT |
      (tessera::core::filtersLinearly(desc->format) ? ZE_IMAGE_SAMPLER_FILTER_FLAG_LINEAR : 0);
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeImageCreate(ze_context_handle_t hContext,
                                                  ze_device_handle_t hDevice,
                                                  const ze_image_desc_t* desc,
                                                  ze_image_handle_t* phImage) {
  Context* context;
  Device* device;
  if (ze_result_t r = contextAndDevice(hContext, hDevice, context, device); r != ZE_RESULT_SUCCESS)
    return r;
  if (!desc || !phImage) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(desc->stype, ZE_STRUCTURE_TYPE_IMAGE_DESC))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  ImageMemoryDesc memory;
  bool hasMemory;
  if (ze_result_t r = readImageChain(desc->pNext, memory, hasMemory); r != ZE_RESULT_SUCCESS)
    return r;
  return guarded([&] {
    std::unique_ptr<Image> image;
    ze_result_t r = Image::create(*context, *device, *desc, hasMemory ? &memory : nullptr, image);
    if (r == ZE_RESULT_SUCCESS) *phImage = image.release()->toHandle();
    return r;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeImageDestroy(ze_image_handle_t hImage) {
  Image* image = Image::fromHandle(hImage);
  if (!image) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete image;
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeImageViewCreateExp(ze_context_handle_t hContext,
                                                         ze_device_handle_t hDevice,
                                                         const ze_image_desc_t* desc,
                                                         ze_image_handle_t hImage,
                                                         ze_image_handle_t* phImageView) {
  Context* context;
  Device* device;
  if (ze_result_t r = contextAndDevice(hContext, hDevice, context, device); r != ZE_RESULT_SUCCESS)
    return r;
  Image* parent = Image::fromHandle(hImage);
  if (!parent) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !phImageView) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(desc->stype, ZE_STRUCTURE_TYPE_IMAGE_DESC))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  ImageMemoryDesc ignored;  // a view's memory is its image's
  bool hasMemory;
  if (ze_result_t r = readImageChain(desc->pNext, ignored, hasMemory); r != ZE_RESULT_SUCCESS)
    return r;
  return guarded([&] {
    std::unique_ptr<Image> view;
    ze_result_t r = Image::createView(*context, *device, *desc, *parent, view);
    if (r == ZE_RESULT_SUCCESS) *phImageView = view.release()->toHandle();
    return r;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeImageGetMemoryPropertiesExp(
    ze_image_handle_t hImage, ze_image_memory_properties_exp_t* pMemoryProperties) {
  Image* image = Image::fromHandle(hImage);
  if (!image) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pMemoryProperties) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  tessera::ze::adoptOutputStruct(*pMemoryProperties, ZE_STRUCTURE_TYPE_IMAGE_MEMORY_EXP_PROPERTIES);
  pMemoryProperties->size = image->size();
  pMemoryProperties->rowPitch = image->rowPitch();
  pMemoryProperties->slicePitch = image->slicePitch();
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeImageGetAllocPropertiesExt(ze_context_handle_t hContext, ze_image_handle_t hImage,
                             ze_image_allocation_ext_properties_t* pImageAllocProperties) {
  if (!Context::fromHandle(hContext)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Image* image = Image::fromHandle(hImage);
  if (!image) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pImageAllocProperties) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  tessera::ze::adoptOutputStruct(*pImageAllocProperties,
                                ZE_STRUCTURE_TYPE_IMAGE_ALLOCATION_EXT_PROPERTIES);
  pImageAllocProperties->id = image->allocationId();
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeContextMakeImageResident(ze_context_handle_t hContext,
                                                               ze_device_handle_t hDevice,
                                                               ze_image_handle_t hImage) {
  return imageResidency(hContext, hDevice, hImage);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeContextEvictImage(ze_context_handle_t hContext,
                                                        ze_device_handle_t hDevice,
                                                        ze_image_handle_t hImage) {
  return imageResidency(hContext, hDevice, hImage);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraImageGetMemory(ze_image_handle_t hImage,
                                                            void** ppMemory, size_t* pRowPitch,
                                                            size_t* pSlicePitch) {
  Image* image = Image::fromHandle(hImage);
  if (!image) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ppMemory) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *ppMemory = image->data();
  if (pRowPitch) *pRowPitch = image->rowPitch();
  if (pSlicePitch) *pSlicePitch = image->slicePitch();
  return ZE_RESULT_SUCCESS;
}
