// The kernel launch appends. The kernel's arguments, group size, offset and work dimension are
// copied now ("Arguments are copied at append time"); how a launch runs is
// core/queue/kernel_launch.cpp's.
#include "backends/device_kind.h"
#include "core/cmdlist/command_list.h"
#include "core/device/device.h"

namespace tessera::core {

ze_result_t CommandList::makeLaunch(Kernel& kernel, const ze_group_count_t* counts,
                                    LaunchOp& out, const LaunchDims* shape) const {
  // A deferred kernel's first launch compiles it (core/module/kernel.h).
  if (ze_result_t r = kernel.ensureCode(); r != ZE_RESULT_SUCCESS) return r;
  if (shape) {
    const auto& g = shape->groupSize;
    if (ze_result_t r = kernel.checkGroupSize(g[0], g[1], g[2]); r != ZE_RESULT_SUCCESS) return r;
    if (shape->workDim > 3) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    for (int d = 0; d < 3; ++d)
      if (shape->lastGroupSize[d] > g[d]) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  if (!kernel.argumentsLaunchable()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (ze_result_t r = kernel.checkPrivateMemory(); r != ZE_RESULT_SUCCESS) return r;
  if (ze_result_t r = kernel.checkLocalMemory(kernel.argumentBuffer(), device_);
      r != ZE_RESULT_SUCCESS)
    return r;
  out.kernel = Ref<Kernel>(&kernel);
  out.args = kernel.argumentBuffer();
  out.dims.groupSize = shape ? shape->groupSize : kernel.groupSize();
  out.dims.globalOffset = shape ? shape->globalOffset : kernel.globalOffset();
  if (shape) out.dims.lastGroupSize = shape->lastGroupSize;
  // 0: decided when the launch runs (kernel_launch.cpp)
  out.dims.workDim = shape ? shape->workDim : kernel.workDim();
  if (counts) setGroupCount(out.dims, *counts);
  return ZE_RESULT_SUCCESS;
}

ze_result_t CommandList::appendLaunch(ze_kernel_handle_t hKernel, const ze_group_count_t* counts,
                                      LaunchKind kind, const SyncArgs& sync,
                                      const LaunchDims* shape) {
  // Kernels run on compute queues only.
  if (isCopyOnly()) return ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE;
  Kernel* kernel = Kernel::fromHandle(hKernel);
  if (!kernel) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!counts) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // The header's documented argument checks come before the kernel's state is looked at.
  if (!sync.waits && sync.numWaits) return ZE_RESULT_ERROR_INVALID_SIZE;
  const bool indirect = kind == LaunchKind::Indirect;
  // At most 2^32 - 1 work-groups in all. A cooperative launch needs every group resident at once:
  // no more groups than the list's device has workers (what zeKernelSuggestMaxCooperativeGroupCount
  // answers for the module's device; a sub-device's list may run fewer at once).
  const uint64_t most = kind == LaunchKind::Cooperative ? device_.workers().size() : UINT32_MAX;
  if (!indirect && !groupCountWithin(*counts, most)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (kind == LaunchKind::Cooperative && !isImmediate())
    buffer_->cooperativeGroups =
        std::max(buffer_->cooperativeGroups, uint64_t{counts->groupCountX} * counts->groupCountY *
                                                 counts->groupCountZ);
  // Built in place: a launch's command is moved once, into the list or to where it runs.
  Command command{LaunchOp{}, {}, {}};
  LaunchOp& op = std::get<LaunchOp>(command.op);
  if (ze_result_t r = makeLaunch(*kernel, indirect ? nullptr : counts, op, shape);
      r != ZE_RESULT_SUCCESS)
    return r;
  if (indirect) op.indirect = counts;
  if (ze_result_t r = attachSync(sync, command); r != ZE_RESULT_SUCCESS) return r;
  return append(std::move(command));
}

ze_result_t CommandList::appendLaunches(uint32_t numKernels, const ze_kernel_handle_t* phKernels,
                                        const uint32_t* count, const ze_group_count_t* counts,
                                        const SyncArgs& sync) {
  if (isCopyOnly()) return ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE;
  if (!phKernels || !count || !counts) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  MultiLaunchOp op{{}, count, counts};
  for (uint32_t i = 0; i < numKernels; ++i) {
    Kernel* kernel = Kernel::fromHandle(phKernels[i]);
    if (!kernel) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    LaunchOp launch;
    if (ze_result_t r = makeLaunch(*kernel, nullptr, launch); r != ZE_RESULT_SUCCESS) return r;
    op.launches.push_back(std::move(launch));
  }
  return append(std::move(op), sync);
}

}  // namespace tessera::core
