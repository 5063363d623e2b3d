// The command list and command queue functions of Level Zero 1.6, 1.9 and 1.17
// (tessera/ze_tessera.h declares them): zeCommandListHostSynchronize and the queries of what a list
// or queue was created with. The queries read what creation fixed ("should be lock-free").
#include "core/cmdlist/command_list.h"
#include "core/cmdlist/graph.h"
#include "core/context/context.h"
#include "core/queue/command_queue.h"
#include "core/command/command_trace.h"
#include "level_zero/api_support.h"
#include "tessera/ze_tessera.h"

using namespace tessera::core;
using tessera::ze::valueQuery;

namespace {

// The immediate list queries (zeCommandListImmediateGetIndex of 1.9, GetFlags, GetMode and
// GetPriority of 1.17): "The application must call this function only with command lists created
// with zeCommandListCreateImmediate"; each header lists "handle does not correspond to an
// immediate command list" under ZE_RESULT_ERROR_INVALID_NULL_POINTER, and so does Tessera.
// *out = get(the list's queue).
template <typename T, typename Get>
ze_result_t immediateQuery(ze_command_list_handle_t h, T* out, Get&& get) {
  CommandList* list = CommandList::fromHandle(h);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!out || !list->immediateQueue()) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *out = get(*list->immediateQueue());
  return ZE_RESULT_SUCCESS;
}

}  // namespace

// "Synchronizes an immediate command list by waiting on the host for the completion of all
// commands previously submitted to it." An immediate list's commands run on its own queue (or, when
// small and ready, on the appending thread before the append returns), so this is that queue's
// synchronize: commands of other immediate lists, which have queues of their own, go on running
// ("shall not block the concurrent execution of commands appended to other immediate command
// lists"). timeout as zeCommandQueueSynchronize's: 0 polls, UINT64_MAX waits for completion or a
// lost device. The header's results: ZE_RESULT_NOT_READY for "timeout expired" and for "handle does
// not correspond to an immediate command list"; ZE_RESULT_ERROR_DEVICE_LOST after a contained
// fault (docs/reliability.md), as the other host waits.
ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListHostSynchronize(ze_command_list_handle_t hCommandList, uint64_t timeout) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  CommandQueue* queue = list->immediateQueue();
  if (!queue) return ZE_RESULT_NOT_READY;
  // "While capture is active, host-side synchronization operations on recorded work, such as
  // zeCommandListHostSynchronize or zeEventHostSynchronize, return
  // ZE_RESULT_ERROR_GRAPH_CAPTURE_UNSUPPORTED" (core/cmdlist/graph.h).
  if (list->capture()) return kResultGraphCaptureUnsupported;
  if (list->context().lost()) return ZE_RESULT_ERROR_DEVICE_LOST;
  const bool ready = tracedHostWait("zeCommandListHostSynchronize", nullptr,
                                    [&] { return queue->synchronize(timeout); });
  if (!ready) return ZE_RESULT_NOT_READY;
  return list->context().status();
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListGetDeviceHandle(ze_command_list_handle_t hCommandList, ze_device_handle_t* phDevice) {
  return valueQuery<CommandList>(hCommandList, phDevice,
                                 [](CommandList& list) { return list.device().toHandle(); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListGetContextHandle(
    ze_command_list_handle_t hCommandList, ze_context_handle_t* phContext) {
  return valueQuery<CommandList>(hCommandList, phContext,
                                 [](CommandList& list) { return list.context().toHandle(); });
}

// "the command queue group ordinal to which command list is submitted": the descriptor's ordinal
// (a regular list's, or an immediate list's queue descriptor's).
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListGetOrdinal(ze_command_list_handle_t hCommandList,
                                                            uint32_t* pOrdinal) {
  return valueQuery<CommandList>(hCommandList, pOrdinal,
                                 [](CommandList& list) { return list.ordinal(); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListImmediateGetIndex(ze_command_list_handle_t hCommandListImmediate, uint32_t* pIndex) {
  return immediateQuery(hCommandListImmediate, pIndex, [](CommandQueue& q) { return q.index(); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListIsImmediate(ze_command_list_handle_t hCommandList,
                                                             ze_bool_t* pIsImmediate) {
  return valueQuery<CommandList>(hCommandList, pIsImmediate,
                                 [](CommandList& list) { return list.isImmediate() ? 1 : 0; });
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandQueueGetOrdinal(ze_command_queue_handle_t hCommandQueue, uint32_t* pOrdinal) {
  return valueQuery<CommandQueue>(hCommandQueue, pOrdinal,
                                  [](CommandQueue& queue) { return queue.ordinal(); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandQueueGetIndex(ze_command_queue_handle_t hCommandQueue,
                                                           uint32_t* pIndex) {
  return valueQuery<CommandQueue>(hCommandQueue, pIndex,
                                  [](CommandQueue& queue) { return queue.index(); });
}

// Level Zero 1.17. "Gets command list creation flags": a regular list's descriptor flags; an
// immediate list was given queue flags, and answers the list flags they stand for
// (EXPLICIT_ONLY, IN_ORDER, COPY_OFFLOAD_HINT; zeCommandListImmediateGetFlags gives the queue's).
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListGetFlags(ze_command_list_handle_t hCommandList,
                                                          ze_command_list_flags_t* pFlags) {
  return valueQuery<CommandList>(hCommandList, pFlags,
                                 [](CommandList& list) { return list.flags(); });
}

// "Query whether a command list was created with the mutable command list extension."
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListIsMutableExp(ze_command_list_handle_t hCommandList,
                                                              ze_bool_t* pIsMutable) {
  return valueQuery<CommandList>(hCommandList, pIsMutable,
                                 [](CommandList& list) { return list.isMutable() ? 1 : 0; });
}


ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListImmediateGetFlags(
    ze_command_list_handle_t hCommandList, ze_command_queue_flags_t* pFlags) {
  return immediateQuery(hCommandList, pFlags, [](CommandQueue& q) { return q.flags(); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListImmediateGetMode(
    ze_command_list_handle_t hCommandList, ze_command_queue_mode_t* pMode) {
  return immediateQuery(hCommandList, pMode, [](CommandQueue& q) { return q.mode(); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListImmediateGetPriority(
    ze_command_list_handle_t hCommandList, ze_command_queue_priority_t* pPriority) {
  return immediateQuery(hCommandList, pPriority, [](CommandQueue& q) { return q.priority(); });
}

// "Gets command queue creation flags", "operation mode", "priority": the descriptor's, as given.
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandQueueGetFlags(ze_command_queue_handle_t hCmdQueue,
                                                           ze_command_queue_flags_t* pFlags) {
  return valueQuery<CommandQueue>(hCmdQueue, pFlags, [](CommandQueue& q) { return q.flags(); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandQueueGetMode(ze_command_queue_handle_t hCmdQueue,
                                                          ze_command_queue_mode_t* pMode) {
  return valueQuery<CommandQueue>(hCmdQueue, pMode, [](CommandQueue& q) { return q.mode(); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandQueueGetPriority(
    ze_command_queue_handle_t hCmdQueue, ze_command_queue_priority_t* pPriority) {
  return valueQuery<CommandQueue>(hCmdQueue, pPriority,
                                  [](CommandQueue& q) { return q.priority(); });
}
