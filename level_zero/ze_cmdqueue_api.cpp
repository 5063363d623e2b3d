// The command queue entry points.
#include <vector>

#include "core/cmdlist/command_list.h"
#include "core/context/context.h"
#include "core/queue/command_queue.h"
#include "core/command/command_trace.h"
#include "level_zero/api_support.h"

using namespace tessera::core;
using tessera::ze::guarded;

namespace tessera::ze {

// What zeCommandQueueCreate and zeCommandListCreateImmediate check of a queue descriptor.
ze_result_t checkQueueDesc(const ze_command_queue_desc_t& desc) {
  if (!tessera::ze::isStructType(desc.stype, ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // "0x7 < desc->flags" (Level Zero 1.9 and later: EXPLICIT_ONLY, IN_ORDER, COPY_OFFLOAD_HINT). A
  // queue runs its commands one after the other whatever the flags (docs/architecture.md, "Command
  // queues"), which is what IN_ORDER asks; the copy-offload hint is "only a hint" and has nothing to
  // offload to on a CPU device.
  if (desc.flags > 0x7 ||
      desc.mode > ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS ||
      desc.priority > ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH)
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  return ZE_RESULT_SUCCESS;
}

}  // namespace tessera::ze

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandQueueCreate(ze_context_handle_t hContext,
                                                         ze_device_handle_t hDevice,
                                                         const ze_command_queue_desc_t* desc,
                                                         ze_command_queue_handle_t* phCommandQueue) {
  Context* context = Context::fromHandle(hContext);
  Device* device = Device::fromHandle(hDevice);
  if (!context || !device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !phCommandQueue) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ze_result_t r = tessera::ze::checkQueueDesc(*desc); r != ZE_RESULT_SUCCESS) return r;
  return guarded([&] {
    std::unique_ptr<CommandQueue> queue;
    ze_result_t r = CommandQueue::create(*context, *device, *desc,
                                         CommandQueue::ExecutorStart::kNow, queue);
    if (r == ZE_RESULT_SUCCESS) *phCommandQueue = queue.release()->toHandle();
    return r;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandQueueDestroy(ze_command_queue_handle_t hCommandQueue) {
  CommandQueue* queue = CommandQueue::fromHandle(hCommandQueue);
  if (!queue) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete queue;
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandQueueExecuteCommandLists(
    ze_command_queue_handle_t hCommandQueue, uint32_t numCommandLists,
    ze_command_list_handle_t* phCommandLists, ze_fence_handle_t hFence) {
  CommandQueue* queue = CommandQueue::fromHandle(hCommandQueue);
  if (!queue) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!phCommandLists) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (numCommandLists == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  Fence* fence = hFence ? Fence::fromHandle(hFence) : nullptr;
  if (hFence && !fence) return ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT;
  return guarded([&] {
    std::vector<CommandList*> lists(numCommandLists);
    for (uint32_t i = 0; i < numCommandLists; ++i)
      if (!(lists[i] = CommandList::fromHandle(phCommandLists[i])))
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (queue->context().lost()) return ZE_RESULT_ERROR_DEVICE_LOST;
    return executeCommandLists(*queue, lists, fence);
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandQueueSynchronize(ze_command_queue_handle_t hCommandQueue,
                                                              uint64_t timeout) {
  CommandQueue* queue = CommandQueue::fromHandle(hCommandQueue);
  if (!queue) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (queue->context().lost()) return ZE_RESULT_ERROR_DEVICE_LOST;
  const bool ready = tracedHostWait("zeCommandQueueSynchronize", nullptr,
                                    [&] { return queue->synchronize(timeout); });
  if (!ready) return ZE_RESULT_NOT_READY;
  return queue->context().status();
}
