#include "core/command/launch_policy.h"

#include <algorithm>

#include "core/device/device.h"
#include "core/module/module.h"
#include "core/module/kernel.h"

namespace tessera::core {
namespace {

// The largest divisor of n (>= 1) that is at most cap (>= 1).
uint32_t largestDivisor(uint64_t n, uint32_t cap) {
  for (uint64_t d = std::min<uint64_t>(n, cap); d > 1; --d)
    if (n % d == 0) return uint32_t(d);
  return 1;
}

}  // namespace

// The rule, for Level Zero's suggestion and OpenCL's NULL local size alike:
// - A kernel with a required size (reqd_work_group_size, SPIR-V LocalSize) gets that size; the
//   caller checks that it divides the range (OpenCL: CL_INVALID_WORK_GROUP_SIZE).
// - Otherwise each dimension, x first, gets the largest divisor of its global size within what the
//   group has left of its cap: groups must divide the range (Level Zero launches whole groups, and
//   this device does not report OpenCL's non-uniform work-groups), and a prime global size gets 1.
// - The cap: kPlainGroupCap = 1,024 work-items without barriers (the device takes up to
//   limits::kMaxGroupSize = 4,096 when the application asks), kBarrierGroupCap = 256 with them. A
//   group's work-items run one after another on one thread (the JIT's work-group function,
//   vectorized across x), so a group should be long in x to amortize its start and drain: a vector
//   add of 16M floats runs at 25-27 GB/s in groups of 256 and 31-35 in groups of 1,024 or more here
//   (a plain C++ loop called on 256-element pieces loses the same tenth; bench/ze_suite_bench shows
//   both). Beyond 1,024 nothing is gained, and GPU drivers suggest at most 1,024: programs written
//   for them size their group counts by it (intel/compute-benchmarks' SinKernelGraph launches 64
//   groups of the suggested size over 65,536 items, and with 4,096 wrote past its buffers).
// - Small ranges: a group runs on one thread, so a range with fewer than kGroupsPerPu groups per
//   PU of the kernel's device at the cap leaves PUs idle (3,000 work-items were one group, one
//   thread, on any number of cores). The cap is then lowered to items / (kGroupsPerPu x PUs), but
//   not below kMinBalancedGroup = 64 work-items (four vectors of the widest widening), so such a
//   range gets at least min(kGroupsPerPu x PUs, items / 64) groups. A kernel with barriers instead runs as one
//   loop over the group's work-items per region between barriers, and each work-item's values that
//   live across a barrier are stored in per-work-item scratch: every barrier is a pass over all of
//   the group's scratch. 256 work-items keep that within a core's L1/L2 between passes (with 64
//   bytes live per work-item, 16 KiB a group against 256 KiB at 4,096), with loops still long
//   enough (16 or more vector iterations a region). Before this function served both APIs, OpenCL's NULL local size gave such kernels up
//   to 4,096; the kernels with barriers the benches time (tiled SGEMM, the reduction) name their
//   local size, so no figure there depended on it.
std::array<uint32_t, 3> suggestGroupSize(const Kernel& kernel, uint64_t gx, uint64_t gy,
                                         uint64_t gz) {
  if (const auto& required = kernel.info().requiredSize)
    return {required->size[0], required->size[1], required->size[2]};
  uint32_t cap = kernel.compiled().barrierCount == 0 ? kPlainGroupCap : kBarrierGroupCap;
  uint64_t items = 0;
  if (support::checkedProduct(
          {std::max<uint64_t>(gx, 1), std::max<uint64_t>(gy, 1), std::max<uint64_t>(gz, 1)},
          items)) {
    const uint64_t pus = std::max<uint32_t>(kernel.module().device().resources().pus, 1);
    const uint64_t balanced = items / (kGroupsPerPu * pus);
    if (balanced < cap) cap = uint32_t(std::max<uint64_t>(balanced, kMinBalancedGroup));
  }
  const uint32_t x = largestDivisor(std::max<uint64_t>(gx, 1), cap);
  const uint32_t y = largestDivisor(std::max<uint64_t>(gy, 1), cap / x);
  const uint32_t z = largestDivisor(std::max<uint64_t>(gz, 1), cap / (x * y));
  return {x, y, z};
}

bool smallAndShort(const Kernel& kernel, const LaunchDims& dims) {
  uint64_t items = 0;
  if (!dims.items(items) || items > kTinyItems) return false;
  if (items == 0 || kernel.costPerItemPs() <= kInlineBudgetNs * 1000 / items) return true;
  // Measured as long: tried inline again now and then, so that one launch measured long by
  // accident (its thread preempted) does not keep every later one off the submitting thread.
  return kernel.countLongVerdict() % kLongRetryInterval == 0;
}

void recordLaunchCost(const Kernel& kernel, const LaunchDims& dims, uint64_t ns, bool parallel,
                      uint32_t workers) {
  uint64_t groups = 0, items = 0;
  if (!dims.groups(groups) || !dims.items(items) || items == 0) return;
  const uint64_t threads = parallel ? std::min<uint64_t>(workers, groups) : 1;
  const uint64_t ps = std::max<uint64_t>(1, ns * 1000 / items * threads);
  // A short parallel run is mostly the workers' wake-up: it only tells that a work-item costs at
  // most this much, so it may lower the estimate, never raise it.
  if (parallel && ns < kInlineBudgetNs && ps >= kernel.costPerItemPs()) return;
  kernel.recordCostPerItemPs(ps);
}

}  // namespace tessera::core
