// ZE_experimental_mutable_command_list: command ids and in-place updates of a closed mutable list's
// commands. Semantics chosen where the specification is silent: tessera/ze_tessera.h and
// docs/architecture.md ("Mutable commands").
#include <algorithm>
#include <map>
#include <variant>

#include "core/cmdlist/command_list.h"

namespace tessera::core {

ze_result_t CommandList::nextCommandId(uint32_t flags, uint64_t& id,
                                       const std::vector<Kernel*>& kernels) {
  // "This function may not be called on a closed command list."
  if (!mutable_ || queue_ || closed_) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // "Provides possible kernel handles for kernel mutation when
  // ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_INSTRUCTION flag is present."
  if ((flags & kMutableKernel) && kernels.empty()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  for (Kernel* k : kernels)
    if (!k) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  std::lock_guard lock(idMutex_);
  size_t next = buffer_->commands.size();
  // Asked again before the append: the same command, so the same id.
  if (records_.empty() || records_.back().index != next) records_.push_back({next, 0, 0, {}});
  MutableRecord& r = records_.back();
  r.flags |= flags;
  if (flags & kMutableKernel)
    for (Kernel* k : kernels) r.kernels.emplace_back(k);
  id = records_.size();
  return ZE_RESULT_SUCCESS;
}

ze_result_t CommandList::updateKernels(uint32_t count, const uint64_t* ids,
                                       Kernel* const* kernels) {
  if (!mutable_ || !closed_) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // All or nothing: every switch is checked and its launch built before any is written.
  std::vector<LaunchOp> launches(count);
  for (uint32_t i = 0; i < count; ++i) {
    ze_result_t r = ZE_RESULT_SUCCESS;
    const LaunchOp* old = findMutableLaunch(ids[i], kMutableKernel, r);
    if (!old) return r;
    // "The kernel handle must be from the provided list for given command id."
    const auto& allowed = records_[ids[i] - 1].kernels;
    if (!kernels[i] || std::none_of(allowed.begin(), allowed.end(),
                                    [&](const Ref<Kernel>& k) { return k.get() == kernels[i]; }))
      return kInvalidKernelHandle;
    if (ze_result_t e = makeLaunch(*kernels[i], nullptr, launches[i]); e != ZE_RESULT_SUCCESS)
      return e;
    launches[i].dims.groupCount = old->dims.groupCount;
    launches[i].indirect = old->indirect;
  }
  if (count == 0) return ZE_RESULT_SUCCESS;
  markUpdated();
  for (uint32_t i = 0; i < count; ++i)
    std::get<LaunchOp>(commandAt(ids[i]).op) = std::move(launches[i]);
  return ZE_RESULT_SUCCESS;
}

const Command* CommandList::findMutable(uint64_t id, uint32_t flag, ze_result_t& error) const {
  error = ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // "Mutable command lists support mutation to identified commands after being closed."
  if (!mutable_ || !closed_) return nullptr;
  if (id == 0 || id > records_.size()) return nullptr;
  const MutableRecord& r = records_[id - 1];
  if (!(r.flags & flag) || r.index >= buffer_->commands.size()) return nullptr;
  error = ZE_RESULT_SUCCESS;
  return &buffer_->commands[r.index];
}

const LaunchOp* CommandList::findMutableLaunch(uint64_t id, uint32_t flag,
                                               ze_result_t& error) const {
  const Command* command = findMutable(id, flag, error);
  if (!command) return nullptr;
  const LaunchOp* launch = std::get_if<LaunchOp>(&command->op);
  if (!launch) error = ZE_RESULT_ERROR_INVALID_ARGUMENT;
  return launch;
}

void CommandList::markUpdated() {
  // An execution in flight (the application should have synchronized) keeps the commands it was
  // submitted with.
  if (buffer_.use_count() > 1) buffer_ = std::make_shared<RecordedCommands>(*buffer_);
  updated_ = true;
}

ze_result_t CommandList::checkChange(const MutableChange& c) const {
  if (c.kind != kMutableArguments && c.kind != kMutableGroupCount && c.kind != kMutableGroupSize &&
      c.kind != kMutableGlobalOffset)
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  ze_result_t r = ZE_RESULT_SUCCESS;
  const LaunchOp* l = findMutableLaunch(c.commandId, c.kind, r);
  if (!l) return r;
  switch (c.kind) {
    case kMutableArguments:
      return l->kernel->encodeArgument(c.argIndex, c.argSize, c.argValue, nullptr);
    case kMutableGroupCount:
      if (!c.groupCount) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
      // As zeCommandListAppendLaunchKernel checks them: at most 2^32 - 1 groups in all, with a
      // product that cannot wrap. (An indirect launch's buffer is read when it runs.)
      if (!l->indirect && !groupCountWithin(*c.groupCount, UINT32_MAX))
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
      return ZE_RESULT_SUCCESS;
    case kMutableGroupSize:
      return l->kernel->checkGroupSize(c.groupSize[0], c.groupSize[1], c.groupSize[2]);
    default:
      return ZE_RESULT_SUCCESS;
  }
}

ze_result_t CommandList::applyChange(const MutableChange& c) {
  LaunchOp& op = std::get<LaunchOp>(commandAt(c.commandId).op);
  switch (c.kind) {
    case kMutableArguments:
      return op.kernel->encodeArgument(c.argIndex, c.argSize, c.argValue, op.args.data());
    case kMutableGroupCount:
      // An indirect launch reads its group counts when it runs: the pointer is the new buffer.
      if (op.indirect)
        op.indirect = c.groupCount;
      else
        setGroupCount(op.dims, *c.groupCount);
      // Level Zero's updates name uniform groups: a last partial group (ZE_tessera_launch_shape)
      // does not outlive a new count or size (it could exceed the new size).
      op.dims.lastGroupSize = {0, 0, 0};
      break;
    case kMutableGroupSize:
      op.dims.groupSize = c.groupSize;
      op.dims.lastGroupSize = {0, 0, 0};
      break;
    case kMutableGlobalOffset:
      op.dims.globalOffset = c.offset;
      break;
  }
  return ZE_RESULT_SUCCESS;
}

// Each change was checked on its own before; an OUT_OF_DEVICE_MEMORY here is what an append
// answers for a launch needing more local memory than the list's device has.
ze_result_t CommandList::checkUpdatedLocalMemory(const std::vector<MutableChange>& changes) const {
  std::map<const LaunchOp*, std::vector<uint8_t>> staged;
  for (const MutableChange& c : changes) {
    if (c.kind != kMutableArguments) continue;
    ze_result_t r = ZE_RESULT_SUCCESS;
    const LaunchOp* l = findMutableLaunch(c.commandId, c.kind, r);
    if (!l) return r;
    auto [it, added] = staged.try_emplace(l, l->args);
    if (ze_result_t e =
            l->kernel->encodeArgument(c.argIndex, c.argSize, c.argValue, it->second.data());
        e != ZE_RESULT_SUCCESS)
      return e;
  }
  for (const auto& [launch, args] : staged)
    if (ze_result_t r = launch->kernel->checkLocalMemory(args, device_); r != ZE_RESULT_SUCCESS)
      return r;
  return ZE_RESULT_SUCCESS;
}

ze_result_t CommandList::updateMutableCommands(const std::vector<MutableChange>& changes) {
  if (!mutable_ || !closed_) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // All or nothing: check every change, then apply them in order.
  for (const MutableChange& c : changes)
    if (ze_result_t r = checkChange(c); r != ZE_RESULT_SUCCESS) return r;
  if (changes.empty()) return ZE_RESULT_SUCCESS;
  if (ze_result_t r = checkUpdatedLocalMemory(changes); r != ZE_RESULT_SUCCESS) return r;
  markUpdated();  // copies the commands first if an execution still holds them
  for (const MutableChange& c : changes)
    if (ze_result_t r = applyChange(c); r != ZE_RESULT_SUCCESS) return r;
  return ZE_RESULT_SUCCESS;
}

ze_result_t CommandList::updateSignalEvent(uint64_t id, ze_event_handle_t hSignalEvent) {
  Event* event = hSignalEvent ? Event::fromHandle(hSignalEvent) : nullptr;
  if (hSignalEvent && !event) return ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT;
  // Counter-based events take their slot when recorded (RecordedCommands::add); one swapped in
  // afterwards would have none. Not supported: INVALID_ARGUMENT.
  if (event && event->counterBased()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  ze_result_t r = ZE_RESULT_SUCCESS;
  if (!findMutable(id, kMutableSignalEvent, r)) return r;
  markUpdated();
  // "Passing a null pointer as the signal event will update the command to not issue a signal."
  Command& command = commandAt(id);
  command.signal = event ? Ref<Event>(event) : Ref<Event>();
  command.counterSignal = kNoCounter;
  command.counterFinal = false;
  return ZE_RESULT_SUCCESS;
}

ze_result_t CommandList::updateWaitEvents(uint64_t id, uint32_t numWaitEvents,
                                          const ze_event_handle_t* phWaitEvents) {
  ze_result_t r = ZE_RESULT_SUCCESS;
  if (!findMutable(id, kMutableWaitEvents, r)) return r;
  // "The number of wait events must match that of the source command."
  if (numWaitEvents != records_[id - 1].waits) return ZE_RESULT_ERROR_INVALID_SIZE;
  // "Passing nullptr as the wait events will update the command to not wait on any events";
  // "passing nullptr as an event on event wait list will remove event dependency from this wait
  // list slot". The command keeps only the events it waits on.
  std::vector<Ref<Event>> waits;
  if (phWaitEvents) {
    waits.reserve(numWaitEvents);
    for (uint32_t i = 0; i < numWaitEvents; ++i) {
      if (!phWaitEvents[i]) continue;
      Event* e = Event::fromHandle(phWaitEvents[i]);
      if (!e) return ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT;
      if (e->counterBased()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;  // as updateSignalEvent
      waits.emplace_back(e);
    }
  }
  markUpdated();
  commandAt(id).waits = std::move(waits);
  commandAt(id).counterWaits.clear();
  return ZE_RESULT_SUCCESS;
}

}  // namespace tessera::core
