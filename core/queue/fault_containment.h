// Fault containment: what happens when a command's work faults or fails. The context the command
// belongs to is marked lost (Context::status() says DEVICE_LOST) instead of the process being
// killed, with a line on stderr; a command of a lost context does not run at all (run_command.cpp,
// kernel_launch.cpp).
#pragma once

namespace tessera::host {
struct FaultInfo;
}  // namespace tessera::host

namespace tessera::core {

class Context;

// Marks `context` lost after a fault in an operation on the application's memory (`what`: "copy",
// "fill", ...), with a line on stderr like a kernel's fault.
void memoryFaulted(Context& context, const char* what, const host::FaultInfo& info);

// Marks `context` lost after a kernel's launch faulted or was interrupted (`info.signal` is
// host::interruptSignal()), with a line on stderr naming `kernel`.
void kernelFaulted(Context& context, const char* kernel, const host::FaultInfo& info);

// Marks `context` lost after a command failed on a queue's executor thread with an exception
// (`what`: its message), with a line on stderr.
void commandFailed(Context& context, const char* what);

}  // namespace tessera::core
