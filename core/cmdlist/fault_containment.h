// A kernel launch whose faults are contained (backends/cpu/fault_guard.h): a launch that faults
// marks the kernel's context lost (Context::status() says DEVICE_LOST) instead of killing the
// process, and a kernel of a lost context is not launched at all.
#pragma once

#include <atomic>
#include <thread>

#include "core/cmdlist/launch_dims.h"

namespace tessera::backends::cpu {
struct FaultInfo;
class WorkerPool;
}  // namespace tessera::backends::cpu

namespace tessera::core {

class Context;
class Kernel;

// Returns false when the launch faulted or did not run because the context is lost.
// `tag`: what joinInterrupting() names to end the launch (a queue's cancel flag; null: never).
// `serialNs`, `parallel`: as backends::cpu::launch's serialNs and its result.
bool launchContained(const Kernel& kernel, const uint8_t* args, const LaunchDims& dims,
                     backends::cpu::WorkerPool* pool,
                     const void* tag = nullptr, uint64_t serialNs = 0, bool* parallel = nullptr);

// Marks `context` lost after a fault in an operation on the application's memory (`what`: "copy",
// "fill", ...), with a line on stderr like a kernel's fault.
void memoryFaulted(Context& context, const char* what, const backends::cpu::FaultInfo& info);

// Marks `context` lost after a command failed on a queue's executor thread with an exception
// (`what`: its message), with a line on stderr.
void commandFailed(Context& context, const char* what);

// Joins a queue's executor. If it has not exited after `timeoutMs` (TESSERA_QUEUE_DESTROY_TIMEOUT_MS;
// 0 waits forever) — a kernel that does not end — the kernel's work-groups running under `tag` are
// interrupted (fault_guard.h), which loses the kernel's context, and the join goes on. `exited` is
// set by the executor as it returns.
void joinInterrupting(std::thread& executor, const std::atomic<bool>& exited, const void* tag,
                      uint64_t timeoutMs);

}  // namespace tessera::core
