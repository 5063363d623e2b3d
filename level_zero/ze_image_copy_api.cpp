// The image copy appends: the list and wait list checked, the images looked up, the copy made a
// RegionCopyOp by core (core/command/image_copy.h: regions, pitches and their errors), then
// appended like any copy.
#include "core/command/image_copy.h"
#include "core/image/image.h"
#include "level_zero/append_support.h"

using tessera::core::Image;
using tessera::core::RegionCopyOp;
using tessera::ze::appendOp;
using tessera::ze::checkListAndWaits;

namespace {

// Image to image: both images must be live (INVALID_NULL_HANDLE).
ze_result_t appendImageCopy(ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage,
                            ze_image_handle_t hSrcImage, const ze_image_region_t* pDstRegion,
                            const ze_image_region_t* pSrcRegion, ze_event_handle_t hSignalEvent,
                            uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  if (ze_result_t r = checkListAndWaits(hCommandList, numWaitEvents, phWaitEvents);
      r != ZE_RESULT_SUCCESS)
    return r;
  Image* dst = Image::fromHandle(hDstImage);
  Image* src = Image::fromHandle(hSrcImage);
  if (!dst || !src) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  RegionCopyOp op;
  if (ze_result_t r = imageCopyOp(*dst, pDstRegion, *src, pSrcRegion, op); r != ZE_RESULT_SUCCESS)
    return r;
  return appendOp(hCommandList, op, hSignalEvent, numWaitEvents, phWaitEvents);
}

// Image <-> memory: the image must be live (INVALID_NULL_HANDLE), the memory given
// (INVALID_NULL_POINTER); `makeOp(image, op)` is core's check and copy.
template <typename MakeOp>
ze_result_t appendMemoryCopy(ze_command_list_handle_t hCommandList, ze_image_handle_t hImage,
                             const void* ptr, ze_event_handle_t hSignalEvent,
                             uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents,
                             MakeOp&& makeOp) {
  if (ze_result_t r = checkListAndWaits(hCommandList, numWaitEvents, phWaitEvents);
      r != ZE_RESULT_SUCCESS)
    return r;
  Image* image = Image::fromHandle(hImage);
  if (!image) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  RegionCopyOp op;
  if (ze_result_t r = makeOp(*image, op); r != ZE_RESULT_SUCCESS) return r;
  return appendOp(hCommandList, op, hSignalEvent, numWaitEvents, phWaitEvents);
}

ze_result_t appendToMemory(ze_command_list_handle_t hCommandList, void* dstptr,
                           ze_image_handle_t hSrcImage, const ze_image_region_t* pSrcRegion,
                           uint32_t rowPitch, uint32_t slicePitch, ze_event_handle_t hSignalEvent,
                           uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  return appendMemoryCopy(hCommandList, hSrcImage, dstptr, hSignalEvent, numWaitEvents,
                          phWaitEvents, [&](const Image& src, RegionCopyOp& op) {
                            return imageToMemoryOp(dstptr, rowPitch, slicePitch, src, pSrcRegion,
                                                   op);
                          });
}

ze_result_t appendFromMemory(ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage,
                             const void* srcptr, const ze_image_region_t* pDstRegion,
                             uint32_t rowPitch, uint32_t slicePitch, ze_event_handle_t hSignalEvent,
                             uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  return appendMemoryCopy(hCommandList, hDstImage, srcptr, hSignalEvent, numWaitEvents,
                          phWaitEvents, [&](const Image& dst, RegionCopyOp& op) {
                            return memoryToImageOp(dst, pDstRegion, srcptr, rowPitch, slicePitch,
                                                   op);
                          });
}

}  // namespace

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendImageCopy(
    ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage, ze_image_handle_t hSrcImage,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  return appendImageCopy(hCommandList, hDstImage, hSrcImage, nullptr, nullptr, hSignalEvent,
                         numWaitEvents, phWaitEvents);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendImageCopyRegion(
    ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage, ze_image_handle_t hSrcImage,
    const ze_image_region_t* pDstRegion, const ze_image_region_t* pSrcRegion,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  return appendImageCopy(hCommandList, hDstImage, hSrcImage, pDstRegion, pSrcRegion, hSignalEvent,
                         numWaitEvents, phWaitEvents);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendImageCopyToMemory(
    ze_command_list_handle_t hCommandList, void* dstptr, ze_image_handle_t hSrcImage,
    const ze_image_region_t* pSrcRegion, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents) {
  return appendToMemory(hCommandList, dstptr, hSrcImage, pSrcRegion, 0, 0, hSignalEvent,
                        numWaitEvents, phWaitEvents);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendImageCopyFromMemory(
    ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage, const void* srcptr,
    const ze_image_region_t* pDstRegion, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents) {
  return appendFromMemory(hCommandList, hDstImage, srcptr, pDstRegion, 0, 0, hSignalEvent,
                          numWaitEvents, phWaitEvents);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendImageCopyToMemoryExt(
    ze_command_list_handle_t hCommandList, void* dstptr, ze_image_handle_t hSrcImage,
    const ze_image_region_t* pSrcRegion, uint32_t destRowPitch, uint32_t destSlicePitch,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  return appendToMemory(hCommandList, dstptr, hSrcImage, pSrcRegion, destRowPitch, destSlicePitch,
                        hSignalEvent, numWaitEvents, phWaitEvents);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendImageCopyFromMemoryExt(
    ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage, const void* srcptr,
    const ze_image_region_t* pDstRegion, uint32_t srcRowPitch, uint32_t srcSlicePitch,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  return appendFromMemory(hCommandList, hDstImage, srcptr, pDstRegion, srcRowPitch, srcSlicePitch,
                          hSignalEvent, numWaitEvents, phWaitEvents);
}
