#include "core/queue/kernel_launch.h"

#include <chrono>

#include "host/fault_guard.h"
#include "backends/device_kind.h"
#include "core/command/launch_policy.h"
#include "core/context/context.h"
#include "core/device/device.h"
#include "core/module/kernel.h"
#include "core/module/module.h"
#include "core/queue/fault_containment.h"

namespace tessera::core {
namespace {

// Returns false when the launch faulted or did not run because the context is lost.
// `tag`: what joinInterrupting() names to end the launch (a queue's cancel flag; null: never).
// `serialNs`, `parallel`: as Executor::launch's serialNs and its result.
bool launchContained(const Kernel& kernel, const uint8_t* args, const LaunchDims& dims,
                     backends::Executor& executor, const void* tag, uint64_t serialNs,
                     bool* parallel) {
  Context& context = kernel.module().context();
  if (context.lost()) return false;
  try {
    bool used = executor.launch(kernel.compiled(), args, dims, tag, serialNs);
    if (parallel) *parallel = used;
    return true;
  } catch (const host::KernelFault& f) {
    kernelFaulted(context, kernel.name().c_str(), f.info);
    return false;
  }
}

// get_work_dim() of a Level Zero launch, which names no work dimension: the highest dimension
// with more than one work-item. (The OpenCL layer names its work_dim through
// zeTesseraKernelSetWorkDim, which the launch then carries.)
uint32_t workDim(const LaunchDims& d) {
  if (uint64_t(d.groupCount[2]) * d.groupSize[2] > 1) return 3;
  if (uint64_t(d.groupCount[1]) * d.groupSize[1] > 1) return 2;
  return 1;
}

}  // namespace

void launchKernel(const LaunchOp& l, const ze_group_count_t* counts, const ExecutionTarget& t) {
  LaunchDims dims = l.dims;
  if (counts) setGroupCount(dims, *counts);
  // An empty grid runs nothing (group counts of zero are legal in indirect launches).
  if (!dims.groupCount[0] || !dims.groupCount[1] || !dims.groupCount[2]) return;
  if (dims.workDim == 0) dims.workDim = workDim(dims);
  // A tiny launch inline on the submitting thread runs its work-groups there alone for up to
  // kInlineBudgetNs, then on every worker (hashcat's launches of 2,048 work-items take milliseconds
  // each: on one thread they ran at half the machine's speed).
  backends::Executor& workers = t.device.workers();
  const auto start = std::chrono::steady_clock::now();
  bool parallel = false;
  if (!launchContained(*l.kernel, l.args.data(), dims, workers, t.cancel,
                       t.serial ? kInlineBudgetNs : 0, &parallel))
    return;
  // What a work-item costs, for the next launch's choice (launch_policy.h).
  const uint64_t ns = uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now() - start)
                                   .count());
  recordLaunchCost(*l.kernel, dims, ns, parallel, workers.size());
}

}  // namespace tessera::core
