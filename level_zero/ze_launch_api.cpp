// The kernel launch appends: each looks up its list and calls CommandList::appendLaunch(es)
// (core/cmdlist/command_list_launch.cpp), which copies the kernel's arguments, group size and
// offset ("Arguments are copied at append time").

#include "core/cmdlist/command_list.h"
#include "core/module/kernel.h"
#include "level_zero/api_support.h"
#include "tessera/ze_tessera.h"

using namespace tessera::core;
using tessera::ze::guarded;

namespace {

ze_result_t appendLaunch(ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
                         const ze_group_count_t* counts, LaunchKind kind,
                         ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                         ze_event_handle_t* phWaitEvents, const LaunchDims* shape = nullptr) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return guarded([&] {
    return list->appendLaunch(hKernel, counts, kind, {hSignalEvent, numWaitEvents, phWaitEvents},
                              shape);
  });
}

// The pNext of zeCommandListAppendLaunchKernelWithArguments and ...WithParameters (1.14): "This
// function can replace zeCommandListAppendLaunchCooperativeKernel with additional parameter
// ze_command_list_append_launch_kernel_param_cooperative_desc_t"; any other structure is
// ZE_RESULT_ERROR_UNSUPPORTED_FEATURE ("when passed additional parameters are invalid or
// incompatible with the device or command list"), a chain with a cycle INVALID_ARGUMENT.
ze_result_t launchParameters(const void* pNext, LaunchKind& kind) {
  if (tessera::ze::chainHasCycle(pNext)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  kind = LaunchKind::Plain;
  for (auto* e = static_cast<const ze_base_desc_t*>(pNext); e;
       e = static_cast<const ze_base_desc_t*>(e->pNext)) {
    if (e->stype != ZE_STRUCTURE_TYPE_COMMAND_LIST_APPEND_PARAM_COOPERATIVE_DESC)
      return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
    auto* c =
        reinterpret_cast<const ze_command_list_append_launch_kernel_param_cooperative_desc_t*>(e);
    kind = c->isCooperative ? LaunchKind::Cooperative : LaunchKind::Plain;
  }
  return ZE_RESULT_SUCCESS;
}

}  // namespace

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendLaunchKernel(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t* pLaunchFuncArgs, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  return appendLaunch(hCommandList, hKernel, pLaunchFuncArgs, LaunchKind::Plain, hSignalEvent,
                      numWaitEvents, phWaitEvents);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendLaunchCooperativeKernel(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t* pLaunchFuncArgs, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  return appendLaunch(hCommandList, hKernel, pLaunchFuncArgs, LaunchKind::Cooperative, hSignalEvent,
                      numWaitEvents, phWaitEvents);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendLaunchKernelIndirect(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t* pLaunchArgumentsBuffer, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  return appendLaunch(hCommandList, hKernel, pLaunchArgumentsBuffer, LaunchKind::Indirect,
                      hSignalEvent, numWaitEvents, phWaitEvents);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendLaunchMultipleKernelsIndirect(
    ze_command_list_handle_t hCommandList, uint32_t numKernels, ze_kernel_handle_t* phKernels,
    const uint32_t* pCountBuffer, const ze_group_count_t* pLaunchArgumentsBuffer,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return guarded([&] {
    return list->appendLaunches(numKernels, phKernels, pCountBuffer, pLaunchArgumentsBuffer,
                                {hSignalEvent, numWaitEvents, phWaitEvents});
  });
}

// ZE_tessera_launch_shape (tessera/ze_tessera.h).
ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraCommandListAppendLaunchKernelShaped(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t* pLaunchFuncArgs, const ze_tessera_launch_shape_t* pShape,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  if (!pShape) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  LaunchDims shape;
  for (int d = 0; d < 3; ++d) {
    shape.groupSize[d] = pShape->groupSize[d];
    shape.globalOffset[d] = pShape->globalOffset[d];
    shape.lastGroupSize[d] = pShape->lastGroupSize[d];
  }
  shape.workDim = pShape->workDim;
  return appendLaunch(hCommandList, hKernel, pLaunchFuncArgs, LaunchKind::Plain, hSignalEvent,
                      numWaitEvents, phWaitEvents, &shape);
}

// Level Zero 1.14 (tessera/ze_tessera.h says what pArguments and pNext hold): the kernel's group
// size and arguments are set as zeKernelSetGroupSize and zeKernelSetArgumentValue set them (with
// their errors), then the launch is appended as zeCommandListAppendLaunchKernel's (or, with the
// cooperative parameter, zeCommandListAppendLaunchCooperativeKernel's).
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendLaunchKernelWithArguments(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t groupCounts, const ze_group_size_t groupSizes, void** pArguments,
    const void* pNext, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  Kernel* kernel = Kernel::fromHandle(hKernel);
  if (!list || !kernel) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!phWaitEvents && numWaitEvents > 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  LaunchKind kind;
  if (ze_result_t r = launchParameters(pNext, kind); r != ZE_RESULT_SUCCESS) return r;
  if (ze_result_t r = kernel->checkArgumentValues(pArguments); r != ZE_RESULT_SUCCESS) return r;
  return guarded([&] {
    if (ze_result_t r = kernel->setGroupSize(groupSizes.groupSizeX, groupSizes.groupSizeY,
                                             groupSizes.groupSizeZ);
        r != ZE_RESULT_SUCCESS)
      return r;
    if (ze_result_t r = kernel->setArguments(pArguments); r != ZE_RESULT_SUCCESS) return r;
    return list->appendLaunch(hKernel, &groupCounts, kind,
                              {hSignalEvent, numWaitEvents, phWaitEvents});
  });
}

// Level Zero 1.14: "Launch kernel over one or more work groups and allow to pass additional
// parameters": zeCommandListAppendLaunchKernel's launch, or with the cooperative parameter in pNext
// zeCommandListAppendLaunchCooperativeKernel's (launchParameters); the kernel's group size and
// arguments as they are set.
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendLaunchKernelWithParameters(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t* pGroupCounts, const void* pNext, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  if (!CommandList::fromHandle(hCommandList) || !Kernel::fromHandle(hKernel))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pGroupCounts) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!phWaitEvents && numWaitEvents > 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  LaunchKind kind;
  if (ze_result_t r = launchParameters(pNext, kind); r != ZE_RESULT_SUCCESS) return r;
  return appendLaunch(hCommandList, hKernel, pGroupCounts, kind, hSignalEvent, numWaitEvents,
                      phWaitEvents);
}
