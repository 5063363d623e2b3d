// ZE_experimental_mutable_command_list (Level Zero 1.9): command ids and in-place updates of a
// closed regular list's commands (core/cmdlist/mutable_commands.cpp). Semantics chosen where the
// specification is silent: tessera/ze_tessera.h, docs/architecture.md ("Mutable commands").
#include <vector>

#include "core/cmdlist/command_list.h"
#include "core/module/kernel.h"
#include "level_zero/api_support.h"
#include "tessera/ze_tessera.h"

using namespace tessera::core;
using tessera::ze::chainHasCycle;
using tessera::ze::guarded;

namespace {

static_assert(kMutableArguments == ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_ARGUMENTS);
static_assert(kMutableGroupCount == ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_COUNT);
static_assert(kMutableGroupSize == ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_SIZE);
static_assert(kMutableGlobalOffset == ZE_MUTABLE_COMMAND_EXP_FLAG_GLOBAL_OFFSET);
static_assert(kMutableSignalEvent == ZE_MUTABLE_COMMAND_EXP_FLAG_SIGNAL_EVENT);
static_assert(kMutableWaitEvents == ZE_MUTABLE_COMMAND_EXP_FLAG_WAIT_EVENTS);
static_assert(kMutableKernel == ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_INSTRUCTION);
static_assert(kInvalidKernelHandle == TESSERA_ZE_RESULT_ERROR_INVALID_KERNEL_HANDLE);

// What flags 0 stands for: "equivalent to setting all flags", where the kernel instruction "must be
// explictly included".
constexpr uint32_t kAllFlags = kMutableArguments | kMutableGroupCount | kMutableGroupSize |
                               kMutableGlobalOffset | kMutableSignalEvent | kMutableWaitEvents;

// The change one descriptor of the chain asks for (kind 0 for a structure type the extension does
// not have, which the update refuses when it reaches it).
MutableChange readChange(const ze_base_desc_t* h) {
  MutableChange c;
  switch (static_cast<uint32_t>(h->stype)) {
    case ZE_STRUCTURE_TYPE_MUTABLE_KERNEL_ARGUMENT_EXP_DESC: {
      auto* d = reinterpret_cast<const ze_mutable_kernel_argument_exp_desc_t*>(h);
      c.kind = kMutableArguments;
      c.commandId = d->commandId;
      c.argIndex = d->argIndex, c.argSize = d->argSize, c.argValue = d->pArgValue;
      break;
    }
    case ZE_STRUCTURE_TYPE_MUTABLE_GROUP_COUNT_EXP_DESC: {
      auto* d = reinterpret_cast<const ze_mutable_group_count_exp_desc_t*>(h);
      c.kind = kMutableGroupCount;
      c.commandId = d->commandId;
      c.groupCount = d->pGroupCount;
      break;
    }
    case ZE_STRUCTURE_TYPE_MUTABLE_GROUP_SIZE_EXP_DESC: {
      auto* d = reinterpret_cast<const ze_mutable_group_size_exp_desc_t*>(h);
      c.kind = kMutableGroupSize;
      c.commandId = d->commandId;
      c.groupSize = {d->groupSizeX, d->groupSizeY, d->groupSizeZ};
      break;
    }
    case ZE_STRUCTURE_TYPE_MUTABLE_GLOBAL_OFFSET_EXP_DESC: {
      auto* d = reinterpret_cast<const ze_mutable_global_offset_exp_desc_t*>(h);
      c.kind = kMutableGlobalOffset;
      c.commandId = d->commandId;
      c.offset = {d->offsetX, d->offsetY, d->offsetZ};
      break;
    }
  }
  return c;
}

// zeCommandListGetNextCommandIdExp, and WithKernelsExp's kernels (checked by the list).
ze_result_t nextCommandId(ze_command_list_handle_t hCommandList,
                          const ze_mutable_command_id_exp_desc_t* desc, uint32_t numKernels,
                          const ze_kernel_handle_t* phKernels, uint64_t* pCommandId,
                          uint32_t mostFlags) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !pCommandId) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(desc->stype, ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_ID_EXP_DESC))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (desc->flags > mostFlags) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  if (numKernels && !phKernels) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // "0 (default, equivalent to setting all flags)".
  uint32_t flags = desc->flags ? desc->flags : kAllFlags;
  return guarded([&] {
    std::vector<Kernel*> kernels;
    if (flags & kMutableKernel)
      for (uint32_t i = 0; i < numKernels; ++i) kernels.push_back(Kernel::fromHandle(phKernels[i]));
    return list->nextCommandId(flags, *pCommandId, kernels);
  });
}

}  // namespace

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListGetNextCommandIdExp(
    ze_command_list_handle_t hCommandList, const ze_mutable_command_id_exp_desc_t* desc,
    uint64_t* pCommandId) {
  // The kernel instruction needs the kernels, which only WithKernelsExp passes.
  return nextCommandId(hCommandList, desc, 0, nullptr, pCommandId, kAllFlags);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListGetNextCommandIdWithKernelsExp(
    ze_command_list_handle_t hCommandList, const ze_mutable_command_id_exp_desc_t* desc,
    uint32_t numKernels, ze_kernel_handle_t* phKernels, uint64_t* pCommandId) {
  return nextCommandId(hCommandList, desc, numKernels, phKernels, pCommandId,
                       kAllFlags | kMutableKernel);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListUpdateMutableCommandKernelsExp(
    ze_command_list_handle_t hCommandList, uint32_t numKernels, uint64_t* pCommandId,
    ze_kernel_handle_t* phKernels) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (numKernels && (!pCommandId || !phKernels)) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return guarded([&] {
    std::vector<Kernel*> kernels;
    for (uint32_t i = 0; i < numKernels; ++i) kernels.push_back(Kernel::fromHandle(phKernels[i]));
    return list->updateKernels(numKernels, pCommandId, kernels.data());
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListUpdateMutableCommandsExp(
    ze_command_list_handle_t hCommandList, const ze_mutable_commands_exp_desc_t* desc) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(desc->stype, ZE_STRUCTURE_TYPE_MUTABLE_COMMANDS_EXP_DESC) ||
      desc->flags != 0 || chainHasCycle(desc->pNext))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  return guarded([&] {
    std::vector<MutableChange> changes;
    for (auto* h = static_cast<const ze_base_desc_t*>(desc->pNext); h;
         h = static_cast<const ze_base_desc_t*>(h->pNext))
      changes.push_back(readChange(h));
    return list->updateMutableCommands(changes);
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListUpdateMutableCommandSignalEventExp(
    ze_command_list_handle_t hCommandList, uint64_t commandId, ze_event_handle_t hSignalEvent) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return guarded([&] { return list->updateSignalEvent(commandId, hSignalEvent); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListUpdateMutableCommandWaitEventsExp(
    ze_command_list_handle_t hCommandList, uint64_t commandId, uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return guarded([&] { return list->updateWaitEvents(commandId, numWaitEvents, phWaitEvents); });
}
