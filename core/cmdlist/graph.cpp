#include "core/cmdlist/graph.h"

#include <algorithm>
#include <cstdio>

#include "core/cmdlist/command_list.h"
#include "core/cmdlist/graph_dot.h"
#include "core/context/context.h"
#include "core/event/event.h"

namespace tessera::core {

Graph::Graph(Context& context) : context_(&context) {}

Graph* Graph::create(Context& context) {
  return new Graph(context);
}

Graph::~Graph() {
  // "Callback function pointer type invoked when a graph is destroyed": once nothing uses the
  // graph any more (executable graphs made from it hold it).
  if (callback_) callback_(callbackData_);
}

ze_result_t Graph::begin(CommandList& primary) {
  if (&primary.context() != context_.get()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  std::lock_guard lock(mutex_);
  if (capturing_ || recording_) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  ze_command_list_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, primary.ordinal(),
                              primary.isInOrder() ? kListInOrder : 0u};
  if (ze_result_t r = CommandList::create(*context_, primary.device(), desc, false, recording_);
      r != ZE_RESULT_SUCCESS)
    return r;
  capturing_ = true;
  primary_ = &primary;
  members_.assign(1, &primary);
  primary.setCapture(this);
  return ZE_RESULT_SUCCESS;
}

void Graph::join(CommandList& child) {
  std::lock_guard lock(mutex_);
  if (!capturing_) return;
  members_.push_back(&child);
  child.setCapture(this);
}

ze_result_t Graph::record(Command&& command) {
  std::lock_guard lock(mutex_);
  if (!capturing_) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  Ref<Event> signal = command.signal;
  if (ze_result_t r = recording_->append(std::move(command)); r != ZE_RESULT_SUCCESS) return r;
  if (signal) {
    signal->setCapturedBy(this);
    signalled_.push_back(std::move(signal));
  }
  return ZE_RESULT_SUCCESS;
}

void Graph::endLocked() {
  for (CommandList* list : members_) list->setCapture(nullptr);
  members_.clear();
  // "After this call succeeds, events signaled by previously captured commands do not create new
  // forks."
  for (const Ref<Event>& e : signalled_) e->clearCapturedBy(this);
  signalled_.clear();
  capturing_ = false;
}

ze_result_t Graph::end(CommandList& primary) {
  std::lock_guard lock(mutex_);
  if (!capturing_ || primary_ != &primary) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  endLocked();
  ownedByCapture_ = false;  // the application's now
  return recording_->close();
}

void Graph::ownByCapture() {
  std::lock_guard lock(mutex_);
  ownedByCapture_ = true;
}

bool Graph::ownedByCapture() const {
  std::lock_guard lock(mutex_);
  return ownedByCapture_;
}

void Graph::leave(CommandList& list) {
  {
    std::lock_guard lock(mutex_);
    if (!capturing_) return;
    if (&list != primary_) {
      members_.erase(std::remove(members_.begin(), members_.end(), &list), members_.end());
      list.setCapture(nullptr);
      return;
    }
    // The primary list is gone: nobody can end the capture any more, so it ends here, and the
    // graph keeps what was recorded (closed, as an ended capture's).
    endLocked();
    primary_ = nullptr;
    recording_->close();
    if (!ownedByCapture_) return;
    ownedByCapture_ = false;
  }
  // A graph of the capture's own was never handed out by an end: nobody else would destroy it (a
  // handle zeCommandListGetGraphExt gave meanwhile is then stale, and refused as such).
  destroy();
}

bool Graph::capturing() const {
  std::lock_guard lock(mutex_);
  return capturing_;
}

bool Graph::empty() const {
  std::lock_guard lock(mutex_);
  return !recording_ || recording_->buffer()->commands.empty();
}

CommandList* Graph::primary() const {
  std::lock_guard lock(mutex_);
  return primary_;
}

std::shared_ptr<const RecordedCommands> Graph::recorded() const {
  std::lock_guard lock(mutex_);
  if (capturing_ || !recording_) return nullptr;
  return recording_->buffer();
}

Device* Graph::device() const {
  std::lock_guard lock(mutex_);
  return recording_ ? &recording_->device() : nullptr;
}

uint32_t Graph::ordinal() const {
  std::lock_guard lock(mutex_);
  return recording_ ? recording_->ordinal() : 0;
}

void Graph::setDestructionCallback(DestructionCallback callback, void* userData) {
  std::lock_guard lock(mutex_);
  callback_ = callback;
  callbackData_ = userData;
}

ze_result_t Graph::dumpDot(const char* path) const {
  std::shared_ptr<const RecordedCommands> commands;
  {
    std::lock_guard lock(mutex_);
    if (capturing_) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    if (recording_) commands = recording_->buffer();
  }
  std::string dot = commands ? graphDot(*commands) : graphDot(RecordedCommands{});
  std::FILE* f = std::fopen(path, "w");
  if (!f) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  bool written = std::fwrite(dot.data(), 1, dot.size(), f) == dot.size();
  written = std::fclose(f) == 0 && written;
  return written ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

ze_result_t Graph::destroy() {
  if (capturing()) return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
  retireHandle();
  release();
  return ZE_RESULT_SUCCESS;
}

ze_result_t ExecutableGraph::create(Graph& graph, ExecutableGraph*& out) {
  std::shared_ptr<const RecordedCommands> commands = graph.recorded();
  Device* device = graph.device();
  if (!commands || !device) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  out = new ExecutableGraph(graph, std::move(commands), *device, graph.ordinal());
  return ZE_RESULT_SUCCESS;
}

}  // namespace tessera::core
