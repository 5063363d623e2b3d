// ZE_experimental_mutable_command_list (Level Zero 1.9): command ids and in-place updates of a closed
// regular list's commands. Semantics chosen where the specification is silent are in
// tessera/ze_tessera.h and docs/architecture.md ("Mutable commands").
#include <map>
#include <variant>
#include <vector>

#include "core/cmdlist/command_list.h"
#include "level_zero/api_support.h"
#include "support/checked_math.h"
#include "tessera/ze_tessera.h"

using namespace tessera::core;
using tessera::ze::guarded;

namespace {

constexpr uint32_t kKernelFlags =
    ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_ARGUMENTS | ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_COUNT |
    ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_SIZE | ZE_MUTABLE_COMMAND_EXP_FLAG_GLOBAL_OFFSET;
constexpr uint32_t kAllFlags = kKernelFlags | ZE_MUTABLE_COMMAND_EXP_FLAG_SIGNAL_EVENT |
                               ZE_MUTABLE_COMMAND_EXP_FLAG_WAIT_EVENTS;

struct ChainHeader {
  ze_structure_type_t stype;
  const void* pNext;
};

// The single kernel launch a command id names, for a change of kind `flag`.
template <typename ListT>
auto launchOf(ListT& list, uint64_t id, uint32_t flag, ze_result_t& error) {
  auto* command = list.findMutable(id, flag, error);
  using Ptr = decltype(std::get_if<LaunchOp>(&command->op));
  if (!command) return Ptr(nullptr);
  Ptr launch = std::get_if<LaunchOp>(&command->op);
  if (!launch) error = ZE_RESULT_ERROR_INVALID_ARGUMENT;
  return launch;
}

// One descriptor of the chain: checked only (`apply` false) or applied. The checking pass has
// already accepted every descriptor when `apply` is true.
ze_result_t update(CommandList& list, const ChainHeader* h, bool apply) {
  ze_result_t r = ZE_RESULT_SUCCESS;
  switch (static_cast<uint32_t>(h->stype)) {
    case ZE_STRUCTURE_TYPE_MUTABLE_KERNEL_ARGUMENT_EXP_DESC: {
      auto* d = reinterpret_cast<const ze_mutable_kernel_argument_exp_desc_t*>(h);
      const LaunchOp* l =
          launchOf(std::as_const(list), d->commandId, ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_ARGUMENTS, r);
      if (!l) return r;
      if (!apply) return l->kernel->encodeArgument(d->argIndex, d->argSize, d->pArgValue, nullptr);
      auto& op = const_cast<LaunchOp&>(*l);
      return op.kernel->encodeArgument(d->argIndex, d->argSize, d->pArgValue, op.args.data());
    }
    case ZE_STRUCTURE_TYPE_MUTABLE_GROUP_COUNT_EXP_DESC: {
      auto* d = reinterpret_cast<const ze_mutable_group_count_exp_desc_t*>(h);
      const LaunchOp* l =
          launchOf(std::as_const(list), d->commandId, ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_COUNT, r);
      if (!l) return r;
      if (!d->pGroupCount) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
      // As zeCommandListAppendLaunchKernel checks them: at most 2^32 - 1 groups in all, with a
      // product that cannot wrap. (An indirect launch's buffer is read when it runs.)
      uint64_t groups = 0;
      if (!apply && !l->indirect &&
          (!tessera::support::checkedProduct(
               {d->pGroupCount->groupCountX, d->pGroupCount->groupCountY,
                d->pGroupCount->groupCountZ},
               groups) ||
           groups > UINT32_MAX))
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
      if (!apply) return ZE_RESULT_SUCCESS;
      auto& op = const_cast<LaunchOp&>(*l);
      // An indirect launch reads its group counts when it runs: the pointer is the new buffer.
      if (op.indirect) {
        op.indirect = d->pGroupCount;
      } else {
        op.dims.groupCount[0] = d->pGroupCount->groupCountX;
        op.dims.groupCount[1] = d->pGroupCount->groupCountY;
        op.dims.groupCount[2] = d->pGroupCount->groupCountZ;
      }
      return ZE_RESULT_SUCCESS;
    }
    case ZE_STRUCTURE_TYPE_MUTABLE_GROUP_SIZE_EXP_DESC: {
      auto* d = reinterpret_cast<const ze_mutable_group_size_exp_desc_t*>(h);
      const LaunchOp* l =
          launchOf(std::as_const(list), d->commandId, ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_SIZE, r);
      if (!l) return r;
      if (!apply) return l->kernel->checkGroupSize(d->groupSizeX, d->groupSizeY, d->groupSizeZ);
      auto& op = const_cast<LaunchOp&>(*l);
      op.dims.groupSize[0] = d->groupSizeX;
      op.dims.groupSize[1] = d->groupSizeY;
      op.dims.groupSize[2] = d->groupSizeZ;
      return ZE_RESULT_SUCCESS;
    }
    case ZE_STRUCTURE_TYPE_MUTABLE_GLOBAL_OFFSET_EXP_DESC: {
      auto* d = reinterpret_cast<const ze_mutable_global_offset_exp_desc_t*>(h);
      const LaunchOp* l =
          launchOf(std::as_const(list), d->commandId, ZE_MUTABLE_COMMAND_EXP_FLAG_GLOBAL_OFFSET, r);
      if (!l) return r;
      if (!apply) return ZE_RESULT_SUCCESS;
      auto& op = const_cast<LaunchOp&>(*l);
      op.dims.globalOffset[0] = d->offsetX;
      op.dims.globalOffset[1] = d->offsetY;
      op.dims.globalOffset[2] = d->offsetZ;
      return ZE_RESULT_SUCCESS;
    }
    default:
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
}

// The local memory of every launch the chain's argument changes touch, with all of them applied
// to copies of the launches' argument buffers: OUT_OF_DEVICE_MEMORY (as an append answers) when a
// launch would need more than the list's device has. Each descriptor was checked on its own before.
ze_result_t checkLocalMemory(const CommandList& list, const ChainHeader* first) {
  std::map<const LaunchOp*, std::vector<uint8_t>> staged;
  for (auto* h = first; h; h = static_cast<const ChainHeader*>(h->pNext)) {
    if (h->stype != ZE_STRUCTURE_TYPE_MUTABLE_KERNEL_ARGUMENT_EXP_DESC) continue;
    auto* d = reinterpret_cast<const ze_mutable_kernel_argument_exp_desc_t*>(h);
    ze_result_t r = ZE_RESULT_SUCCESS;
    const LaunchOp* l =
        launchOf(list, d->commandId, ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_ARGUMENTS, r);
    if (!l) return r;
    auto [it, added] = staged.try_emplace(l, l->args);
    if (ze_result_t e =
            l->kernel->encodeArgument(d->argIndex, d->argSize, d->pArgValue, it->second.data());
        e != ZE_RESULT_SUCCESS)
      return e;
  }
  for (const auto& [launch, args] : staged)
    if (ze_result_t r = launch->kernel->checkLocalMemory(args, list.device());
        r != ZE_RESULT_SUCCESS)
      return r;
  return ZE_RESULT_SUCCESS;
}

}  // namespace

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListGetNextCommandIdExp(
    ze_command_list_handle_t hCommandList, const ze_mutable_command_id_exp_desc_t* desc,
    uint64_t* pCommandId) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !pCommandId) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->stype != ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_ID_EXP_DESC)
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (desc->flags > kAllFlags) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  // "0 (default, equivalent to setting all flags)".
  uint32_t flags = desc->flags ? desc->flags : kAllFlags;
  return guarded([&] { return list->nextCommandId(flags, *pCommandId); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListUpdateMutableCommandsExp(
    ze_command_list_handle_t hCommandList, const ze_mutable_commands_exp_desc_t* desc) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->stype != ZE_STRUCTURE_TYPE_MUTABLE_COMMANDS_EXP_DESC || desc->flags != 0)
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (!list->isMutable() || !list->isClosed()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  auto* first = static_cast<const ChainHeader*>(desc->pNext);
  // All or nothing: check every descriptor, then apply them in order.
  for (auto* h = first; h; h = static_cast<const ChainHeader*>(h->pNext))
    if (ze_result_t r = update(*list, h, false); r != ZE_RESULT_SUCCESS) return r;
  if (!first) return ZE_RESULT_SUCCESS;
  return guarded([&] {
    if (ze_result_t r = checkLocalMemory(std::as_const(*list), first); r != ZE_RESULT_SUCCESS)
      return r;
    list->markUpdated();  // copies the commands first if an execution still holds them
    for (auto* h = first; h; h = static_cast<const ChainHeader*>(h->pNext))
      if (ze_result_t r = update(*list, h, true); r != ZE_RESULT_SUCCESS) return r;
    return ZE_RESULT_SUCCESS;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListUpdateMutableCommandSignalEventExp(
    ze_command_list_handle_t hCommandList, uint64_t commandId, ze_event_handle_t hSignalEvent) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Event* event = hSignalEvent ? Event::fromHandle(hSignalEvent) : nullptr;
  if (hSignalEvent && !event) return ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT;
  return guarded([&] {
    ze_result_t r;
    Command* c = list->mutableCommand(commandId, ZE_MUTABLE_COMMAND_EXP_FLAG_SIGNAL_EVENT, r);
    if (!c) return r;
    // "Passing a null pointer as the signal event will update the command to not issue a signal."
    c->signal = event ? Ref<Event>(event) : Ref<Event>();
    return ZE_RESULT_SUCCESS;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListUpdateMutableCommandWaitEventsExp(
    ze_command_list_handle_t hCommandList, uint64_t commandId, uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return guarded([&] {
    ze_result_t r;
    if (!list->findMutable(commandId, ZE_MUTABLE_COMMAND_EXP_FLAG_WAIT_EVENTS, r)) return r;
    // "The number of wait events must match that of the source command."
    if (numWaitEvents != list->recordedWaits(commandId)) return ZE_RESULT_ERROR_INVALID_SIZE;
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
        waits.emplace_back(e);
      }
    }
    Command* c = list->mutableCommand(commandId, ZE_MUTABLE_COMMAND_EXP_FLAG_WAIT_EVENTS, r);
    c->waits = std::move(waits);
    return ZE_RESULT_SUCCESS;
  });
}
