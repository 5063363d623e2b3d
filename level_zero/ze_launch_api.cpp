// The kernel launch appends. The kernel's arguments, group size and offset are copied now
// ("Arguments are copied at append time").
#include "backends/cpu/worker_pool.h"
#include "core/device/device.h"
#include "core/module/kernel.h"
#include "level_zero/ze_sync_args.h"
#include "support/checked_math.h"

using namespace tessera::core;
using tessera::ze::appendOp;

namespace {

// The launch of `kernel` as it stands on `device`; INVALID_ARGUMENT if an argument was never set,
// OUT_OF_DEVICE_MEMORY if its work-groups' local memory is more than the device has.
ze_result_t makeLaunch(Kernel& kernel, const Device& device, const ze_group_count_t* counts,
                       LaunchOp& out) {
  if (!kernel.allArgumentsSet()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (ze_result_t r = kernel.checkPrivateMemory(); r != ZE_RESULT_SUCCESS) return r;
  if (ze_result_t r = kernel.checkLocalMemory(kernel.argumentBuffer(), device);
      r != ZE_RESULT_SUCCESS)
    return r;
  out.kernel = Ref<Kernel>(&kernel);
  out.args = kernel.argumentBuffer();
  for (int d = 0; d < 3; ++d) {
    out.dims.groupSize[d] = kernel.groupSize()[d];
    out.dims.globalOffset[d] = kernel.globalOffset()[d];
  }
  out.dims.workDim = kernel.workDim();  // 0: decided when the launch runs (command_exec.cpp)
  if (counts) {
    out.dims.groupCount[0] = counts->groupCountX;
    out.dims.groupCount[1] = counts->groupCountY;
    out.dims.groupCount[2] = counts->groupCountZ;
  }
  return ZE_RESULT_SUCCESS;
}

// Kernels run on compute queues only.
ze_result_t checkComputeList(ze_command_list_handle_t hCommandList) {
  CommandList* list = CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return list->isCopyOnly() ? ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE : ZE_RESULT_SUCCESS;
}

ze_result_t appendLaunch(ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
                         const ze_group_count_t* counts, bool indirect, uint32_t maxGroups,
                         ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                         ze_event_handle_t* phWaitEvents) {
  if (ze_result_t r = checkComputeList(hCommandList); r != ZE_RESULT_SUCCESS) return r;
  Kernel* kernel = Kernel::fromHandle(hKernel);
  if (!kernel) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!counts) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // The header's documented argument checks come before the kernel's state is looked at.
  if (!phWaitEvents && numWaitEvents) return ZE_RESULT_ERROR_INVALID_SIZE;
  // At most `maxGroups` work-groups in all; a product that does not fit in 64 bits (2^22 * 2^21 *
  // 2^21 wrapped to 0) is more than that too.
  uint64_t groups = 0;
  if (!indirect && (!tessera::support::checkedProduct(
                        {counts->groupCountX, counts->groupCountY, counts->groupCountZ}, groups) ||
                    groups > maxGroups))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  return tessera::ze::guarded([&] {
    LaunchOp op;
    const Device& device = CommandList::fromHandle(hCommandList)->device();
    if (ze_result_t r = makeLaunch(*kernel, device, indirect ? nullptr : counts, op);
        r != ZE_RESULT_SUCCESS)
      return r;
    if (indirect) op.indirect = counts;
    return appendOp(hCommandList, std::move(op), hSignalEvent, numWaitEvents, phWaitEvents);
  });
}

}  // namespace

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendLaunchKernel(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t* pLaunchFuncArgs, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  return appendLaunch(hCommandList, hKernel, pLaunchFuncArgs, false, UINT32_MAX, hSignalEvent,
                      numWaitEvents, phWaitEvents);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendLaunchCooperativeKernel(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t* pLaunchFuncArgs, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  // Every group must be resident at once: no more groups than the list's device has workers (what
  // zeKernelSuggestMaxCooperativeGroupCount answers for the module's device; a sub-device's list
  // may run fewer at once).
  CommandList* list = CommandList::fromHandle(hCommandList);
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return tessera::ze::guarded([&] {
    return appendLaunch(hCommandList, hKernel, pLaunchFuncArgs, false,
                        list->device().workers().size(), hSignalEvent, numWaitEvents,
                        phWaitEvents);
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendLaunchKernelIndirect(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t* pLaunchArgumentsBuffer, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  return appendLaunch(hCommandList, hKernel, pLaunchArgumentsBuffer, true, UINT32_MAX,
                      hSignalEvent, numWaitEvents, phWaitEvents);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendLaunchMultipleKernelsIndirect(
    ze_command_list_handle_t hCommandList, uint32_t numKernels, ze_kernel_handle_t* phKernels,
    const uint32_t* pCountBuffer, const ze_group_count_t* pLaunchArgumentsBuffer,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents) {
  if (ze_result_t r = checkComputeList(hCommandList); r != ZE_RESULT_SUCCESS) return r;
  if (!phKernels || !pCountBuffer || !pLaunchArgumentsBuffer)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return tessera::ze::guarded([&] {
    MultiLaunchOp op{{}, pCountBuffer, pLaunchArgumentsBuffer};
    for (uint32_t i = 0; i < numKernels; ++i) {
      Kernel* kernel = Kernel::fromHandle(phKernels[i]);
      if (!kernel) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
      LaunchOp launch;
      if (ze_result_t r =
              makeLaunch(*kernel, CommandList::fromHandle(hCommandList)->device(), nullptr, launch);
          r != ZE_RESULT_SUCCESS)
        return r;
      op.launches.push_back(std::move(launch));
    }
    return appendOp(hCommandList, std::move(op), hSignalEvent, numWaitEvents, phWaitEvents);
  });
}
