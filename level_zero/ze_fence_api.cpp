// The fence entry points.
#include "core/context/context.h"
#include "core/fence/fence.h"
#include "core/queue/command_queue.h"
#include "core/command/command_trace.h"
#include "level_zero/api_support.h"

using namespace tessera::core;

ZE_APIEXPORT ze_result_t ZE_APICALL zeFenceCreate(ze_command_queue_handle_t hCommandQueue,
                                                  const ze_fence_desc_t* desc,
                                                  ze_fence_handle_t* phFence) {
  CommandQueue* queue = CommandQueue::fromHandle(hCommandQueue);
  if (!queue) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !phFence) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(desc->stype, ZE_STRUCTURE_TYPE_FENCE_DESC))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (desc->flags > ZE_FENCE_FLAG_SIGNALED) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  return tessera::ze::guarded([&] {
    *phFence = Fence::create(*queue, queue->context(), desc->flags & ZE_FENCE_FLAG_SIGNALED)->toHandle();
    return ZE_RESULT_SUCCESS;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeFenceDestroy(ze_fence_handle_t hFence) {
  Fence* fence = Fence::fromHandle(hFence);
  if (!fence) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  fence->destroy();
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeFenceHostSynchronize(ze_fence_handle_t hFence,
                                                           uint64_t timeout) {
  Fence* fence = Fence::fromHandle(hFence);
  if (!fence) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (fence->context().lost()) return ZE_RESULT_ERROR_DEVICE_LOST;
  const bool ready =
      tracedHostWait("zeFenceHostSynchronize", nullptr, [&] { return fence->wait(timeout); });
  if (!ready) return ZE_RESULT_NOT_READY;
  return fence->context().status();
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeFenceQueryStatus(ze_fence_handle_t hFence) {
  Fence* fence = Fence::fromHandle(hFence);
  if (!fence) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (fence->context().lost()) return ZE_RESULT_ERROR_DEVICE_LOST;
  return fence->isSignaled() ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeFenceReset(ze_fence_handle_t hFence) {
  Fence* fence = Fence::fromHandle(hFence);
  if (!fence) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  fence->reset();
  return ZE_RESULT_SUCCESS;
}
