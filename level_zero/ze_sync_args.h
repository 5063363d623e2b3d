// The signal event and wait list that most appends take, checked and turned into a Command.
#pragma once

#include <level_zero/ze_api.h>

#include "core/cmdlist/command.h"
#include "core/cmdlist/command_list.h"
#include "level_zero/api_support.h"

namespace tessera::ze {

// INVALID_SIZE for a count without a list ("(nullptr == phWaitEvents) && (0 < numWaitEvents)"),
// INVALID_SYNCHRONIZATION_OBJECT for an event handle that is not a live event.
inline ze_result_t addSyncArgs(core::Command& c, ze_event_handle_t hSignalEvent,
                               uint32_t numWaitEvents, const ze_event_handle_t* phWaitEvents) {
  if (numWaitEvents > 0 && !phWaitEvents) return ZE_RESULT_ERROR_INVALID_SIZE;
  if (hSignalEvent) {
    core::Event* e = core::Event::fromHandle(hSignalEvent);
    if (!e) return ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT;
    c.signal = core::Ref<core::Event>(e);
  }
  c.waits.reserve(numWaitEvents);
  for (uint32_t i = 0; i < numWaitEvents; ++i) {
    core::Event* e = core::Event::fromHandle(phWaitEvents[i]);
    if (!e) return ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT;
    c.waits.emplace_back(e);
  }
  return ZE_RESULT_SUCCESS;
}

// Checks the list and the events, then appends `op` with them.
inline ze_result_t appendOp(ze_command_list_handle_t hCommandList, core::Op op,
                            ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                            const ze_event_handle_t* phWaitEvents) {
  core::CommandList* list = core::CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return guarded([&] {
    core::Command c{std::move(op), {}, {}};
    if (ze_result_t r = addSyncArgs(c, hSignalEvent, numWaitEvents, phWaitEvents);
        r != ZE_RESULT_SUCCESS)
      return r;
    return list->append(std::move(c));
  });
}

}  // namespace tessera::ze
