// ZE_experimental_immediate_command_list_append: closed regular lists replayed on an immediate list;
// zeCommandListAppendGraphExt: an instantiated graph replayed the same way (core/cmdlist/graph.h).
#include "core/cmdlist/command_list.h"

#include <algorithm>

#include "core/cmdlist/graph.h"
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
  for (CommandList* list : lists) {
    // As zeCommandQueueExecuteCommandLists: "The application is responsible for calling close
    // before submission", of the same device and queue group ordinal.
    if (!list || list->isImmediate() || !list->isExecutable() || !list->runsOn(device_) ||
        list->ordinal() != ordinal_)
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  std::vector<std::shared_ptr<const RecordedCommands>> recorded;
  recorded.reserve(lists.size());
  for (CommandList* list : lists) recorded.push_back(list->buffer());
  // ZE_RECORD_REPLAY_GRAPH_EXT_FLAG_APPEND_COMMANDLIST: "Supports appending a command list into a
  // graph" (reported, core/cmdlist/graph.h).
  if (capture_) return captureRecorded(recorded, sync);
  return submitRecorded(std::move(recorded), sync);
}

ze_result_t CommandList::appendGraph(ExecutableGraph& graph, const SyncArgs& syncArgs) {
  Command sync;
  if (ze_result_t r = attachSync(syncArgs, sync); r != ZE_RESULT_SUCCESS) return r;
  if (!queue_) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (!runnableOn(graph.device(), graph.commands()->cooperativeGroups, device_) ||
      graph.ordinal() != ordinal_)
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // ZE_RECORD_REPLAY_GRAPH_EXT_FLAG_SUBGRAPHS: "Supports appending a subgraph into a graph".
  if (capture_) return captureRecorded({graph.commands()}, sync);
  return submitRecorded({graph.commands()}, sync);
}

ze_result_t CommandList::captureRecorded(
    const std::vector<std::shared_ptr<const RecordedCommands>>& recorded, Command& sync) {
  // Each through append(), as if appended one by one: a wait on another capture's event is the
  // merge error, an event the commands signal becomes the capture's (forks), and the order is the
  // replay's (the capture's recording runs its commands in order, as a submission does). A wait
  // on another capture's event is refused before anything is recorded.
  auto foreign = [&](const Event& e) {
    Graph* other = e.capturedBy();
    return other && other != capture_;
  };
  auto merges = [&](const std::vector<Ref<Event>>& waits) {
    return std::any_of(waits.begin(), waits.end(), [&](const Ref<Event>& e) { return foreign(*e); });
  };
  if (merges(sync.waits)) return kResultGraphCaptureMergeAttempt;
  for (const auto& buffer : recorded)
    for (const Command& c : buffer->commands) {
      if (merges(c.waits)) return kResultGraphCaptureMergeAttempt;
      for (uint32_t slot : c.counterWaits)
        if (foreign(*buffer->counterEvents[slot])) return kResultGraphCaptureMergeAttempt;
    }
  if (!sync.waits.empty())
    if (ze_result_t r = append(Command{NopOp{}, std::move(sync.waits), {}}); r != ZE_RESULT_SUCCESS)
      return r;
  for (const auto& buffer : recorded)
    for (size_t i = 0; i < buffer->commands.size(); ++i)
      if (ze_result_t r = append(buffer->asAppended(i)); r != ZE_RESULT_SUCCESS) return r;
  if (sync.signal) return append(Command{NopOp{}, {}, std::move(sync.signal)});
  return ZE_RESULT_SUCCESS;
}

ze_result_t CommandList::submitRecorded(
    std::vector<std::shared_ptr<const RecordedCommands>> recorded, Command& sync) {
  // As append(): a lost context takes no more work (in a fork() child every context is lost, and
  // a synchronous list would wait for an executor that does not exist there).
  if (context_->lost()) return ZE_RESULT_ERROR_DEVICE_LOST;
  std::vector<std::shared_ptr<const RecordedCommands>> buffers;
  buffers.reserve(recorded.size() + 2);
  if (!sync.waits.empty()) {
    auto head = newBuffer();
    head->add(Command{NopOp{}, std::move(sync.waits), {}});
    buffers.push_back(std::move(head));
  }
  for (auto& r : recorded) buffers.push_back(std::move(r));
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
