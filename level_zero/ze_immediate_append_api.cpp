// ZE_experimental_immediate_command_list_append (Level Zero 1.9): closed regular command lists run
// in order on an immediate list (core/cmdlist/command_list_append_lists.cpp). Semantics where the
// specification is silent: tessera/ze_tessera.h.
#include "core/cmdlist/command_list.h"
#include "level_zero/api_support.h"
#include "tessera/ze_tessera.h"

using namespace tessera::core;
using tessera::ze::guarded;

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListImmediateAppendCommandListsExp(
    ze_command_list_handle_t hCommandListImmediate, uint32_t numCommandLists,
    ze_command_list_handle_t* phCommandLists, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  CommandList* target = CommandList::fromHandle(hCommandListImmediate);
  if (!target) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!phCommandLists) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return guarded([&] {
    return target->appendLists(numCommandLists, phCommandLists,
                               {hSignalEvent, numWaitEvents, phWaitEvents});
  });
}

// Level Zero 1.16: the same "with additional parameters". No structure is defined for its pNext:
// any is ZE_RESULT_ERROR_UNSUPPORTED_FEATURE ("an extension passed via pNext is not supported"),
// checked after the list's handle and before anything is appended.
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListImmediateAppendCommandListsWithParameters(
    ze_command_list_handle_t hCommandListImmediate, uint32_t numCommandLists,
    ze_command_list_handle_t* phCommandLists, const void* pNext, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  if (!CommandList::fromHandle(hCommandListImmediate)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (pNext) return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  return zeCommandListImmediateAppendCommandListsExp(hCommandListImmediate, numCommandLists,
                                                     phCommandLists, hSignalEvent, numWaitEvents,
                                                     phWaitEvents);
}
