// What every append entry point ends with: the list's lookup (after the entry point's own checks)
// and the one core call, CommandList::append, which checks the events and records (or, on an
// immediate list, runs) the command.
#pragma once

#include <utility>

#include "core/cmdlist/command_list.h"
#include "level_zero/api_support.h"

namespace tessera::ze {

// The checks of appendOp that come before an entry point's own checks of what it copies: a live
// list (INVALID_NULL_HANDLE) and a wait count with a list (INVALID_SIZE, "(nullptr ==
// phWaitEvents) && (0 < numWaitEvents)").
inline ze_result_t checkListAndWaits(ze_command_list_handle_t hCommandList, uint32_t numWaitEvents,
                                     const ze_event_handle_t* phWaitEvents) {
  if (!core::CommandList::fromHandle(hCommandList)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return numWaitEvents > 0 && !phWaitEvents ? ZE_RESULT_ERROR_INVALID_SIZE : ZE_RESULT_SUCCESS;
}

inline ze_result_t appendOp(ze_command_list_handle_t hCommandList, core::Op op,
                            ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                            const ze_event_handle_t* phWaitEvents) {
  core::CommandList* list = core::CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return guarded([&] {
    return list->append(std::move(op), {hSignalEvent, numWaitEvents, phWaitEvents});
  });
}

}  // namespace tessera::ze
