// ZE_experimental_immediate_command_list_append: closed regular lists replayed on an immediate list.
#include "core/cmdlist/command_list.h"

#include "core/context/context.h"

namespace tessera::core {

ze_result_t CommandList::appendLists(uint32_t numLists, const ze_command_list_handle_t* phLists,
                                     const SyncArgs& syncArgs) {
  std::vector<CommandList*> lists(numLists);
  for (uint32_t i = 0; i < numLists; ++i)
    if (!(lists[i] = CommandList::fromHandle(phLists[i])))
      return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Command sync;
  if (ze_result_t r = attachSync(syncArgs, sync); r != ZE_RESULT_SUCCESS) return r;
  if (!queue_) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // The waits first, the lists' buffers as they are now (shared, never changed again: an update
  // copies a buffer an execution still holds), then the signal; one submission, so nothing else
  // appended to this list can run in between.
  std::vector<std::shared_ptr<const RecordedCommands>> buffers;
  buffers.reserve(lists.size() + 2);
  for (CommandList* list : lists) {
    // As zeCommandQueueExecuteCommandLists: "The application is responsible for calling close
    // before submission", of the same device and queue group ordinal.
    if (!list || list->isImmediate() || !list->isExecutable() || !list->runsOn(device_) ||
        list->ordinal() != ordinal_)
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  // As append(): a lost context takes no more work (in a fork() child every context is lost, and
  // a synchronous list would wait for an executor that does not exist there).
  if (context_->lost()) return ZE_RESULT_ERROR_DEVICE_LOST;
  if (!sync.waits.empty()) {
    auto head = newBuffer();
    head->add(Command{NopOp{}, std::move(sync.waits), {}});
    buffers.push_back(std::move(head));
  }
  for (CommandList* list : lists) buffers.push_back(list->buffer());
  if (sync.signal) {
    auto tail = newBuffer();
    tail->add(Command{NopOp{}, {}, std::move(sync.signal)});
    buffers.push_back(std::move(tail));
  }
  if (buffers.empty()) return ZE_RESULT_SUCCESS;
  uint64_t ticket = queue_->submit(std::move(buffers), Ref<Fence>());
  if (queue_->synchronous()) queue_->waitFor(ticket);
  return ZE_RESULT_SUCCESS;
}

}  // namespace tessera::core
