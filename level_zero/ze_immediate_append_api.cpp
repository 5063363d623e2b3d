// ZE_experimental_immediate_command_list_append (Level Zero 1.9): closed regular command lists run
// in order on an immediate list. Semantics where the specification is silent: tessera/ze_tessera.h.
#include <vector>

#include "core/cmdlist/command_list.h"
#include "level_zero/ze_sync_args.h"
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
    std::vector<CommandList*> lists(numCommandLists);
    for (uint32_t i = 0; i < numCommandLists; ++i)
      if (!(lists[i] = CommandList::fromHandle(phCommandLists[i])))
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    Command sync{NopOp{}, {}, {}};
    if (ze_result_t r = tessera::ze::addSyncArgs(sync, hSignalEvent, numWaitEvents, phWaitEvents);
        r != ZE_RESULT_SUCCESS)
      return r;
    return target->appendLists(lists, std::move(sync));
  });
}
