// A kernel launch whose faults are contained (backends/cpu/fault_guard.h): a launch that faults
// marks the kernel's context lost (Context::status() says DEVICE_LOST) instead of killing the
// process, and a kernel of a lost context is not launched at all.
#pragma once

#include "backends/cpu/jit/launcher.h"
#include "backends/cpu/worker_pool.h"

namespace tessera::core {

class Kernel;

// Returns false when the launch faulted or did not run because the context is lost.
bool launchContained(const Kernel& kernel, const uint8_t* args,
                     const backends::cpu::LaunchDims& dims, backends::cpu::WorkerPool& pool);

}  // namespace tessera::core
