// How one command runs: its waits, its operation (copies and fills under the fault guard, kernel
// launches through kernel_launch.h), its signal. Called by a queue's executor and, for tiny
// commands, inline by an immediate list (core/cmdlist/command_list.cpp).
#pragma once

#include <atomic>

#include "core/command/command.h"
#include "core/sync/wait.h"

namespace tessera::core {

class Context;
class Device;

// Where a command runs.
struct ExecutionTarget {
  Device& device;
  Context& context;                      // the one a fault or failure of the command loses
  bool mayUseWorkers;                    // compute queues spread large copies over the PUs
  const sync::Cancel* cancel = nullptr;  // requested when the queue is destroyed
  bool serial = false;  // a tiny inline command: work-groups on the calling thread first
  // On a queue's executor thread: an operation that throws (std::bad_alloc of a launch's
  // per-thread memory, ...) loses the context, as a fault does, and the command still signals, so
  // waiters see DEVICE_LOST. On the application's thread (immediate lists running inline) the
  // exception reaches the entry point instead, which returns it (OUT_OF_HOST_MEMORY).
  bool executor = false;
  // Incremented once the command has run, before its event is signalled (CommandQueue::idle()).
  std::atomic<uint64_t>* ran = nullptr;
  // The buffer the command belongs to and this execution's counter values
  // (RecordedCommands::issueCounters), when its commands use counter-based events.
  const RecordedCommands* buffer = nullptr;
  const uint64_t* counterValues = nullptr;
};

// Runs one command: its waits, its operation, its signal. False when cancelled while waiting.
// Copies, fills and the other operations that touch the application's memory run under the fault
// guard, as kernels do: a fault loses target.context instead of killing the process.
bool runCommand(const Command& command, const ExecutionTarget& target);

}  // namespace tessera::core
