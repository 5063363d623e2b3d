// The launch of a kernel command into the device's executor (backends/device_kind.h), its faults
// contained (fault_containment.h): a launch that faults marks the kernel's context lost instead of
// killing the process, and a kernel of a lost context is not launched at all. Afterwards the
// launch's cost is recorded for the launch policy (core/command/launch_policy.h).
#pragma once

#include <level_zero/ze_api.h>

#include "backends/device_kind.h"
#include "core/command/command.h"
#include "core/device/device.h"
#include "core/queue/run_command.h"

namespace tessera::core {

// Runs `l` on `t` with the group counts `counts` (null: the launch's own). An empty grid runs
// nothing.
void launchKernel(const LaunchOp& l, const ze_group_count_t* counts, const ExecutionTarget& t);

// How evenly the workers of the process's parallel jobs on `device`'s kind of device finished,
// summed since the last reset (`reset`: start again after reading); zeTesseraDriverGetLaunchBalance.
using LaunchBalance = backends::BalanceTotals;
inline LaunchBalance launchBalance(const Device& device, bool reset) {
  return device.kind().balance(reset);
}

}  // namespace tessera::core
