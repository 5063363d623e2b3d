// A command queue: an executor thread, pinned to the device's PUs, that runs the command lists
// handed to it in order and signals fences.
//
// Threading: submit() is free-threaded ("Command queue submission is free-threaded"); the executor
// is the only thread that runs commands; synchronize() may be called from any thread.
#pragma once

#include <level_zero/ze_api.h>

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/command/command.h"
#include "core/command/counter_values.h"
#include "core/common/object.h"
#include "core/common/ref_counted.h"
#include "core/fence/fence.h"
#include "core/sync/wait.h"
#include "support/fork_child.h"

namespace tessera::core {

class Context;
class Device;

class CommandQueue
    : public Object<_ze_command_queue_handle_t, 0x7465737343717531ull /* "tessCqu1" */> {
 public:
  // When the executor thread starts. kNow for zeCommandQueueCreate: everything it runs goes to the
  // executor, and a thread the system refuses is the create's OUT_OF_HOST_MEMORY. kFirstSubmission
  // for an immediate list's queue: a list whose commands all run inline on the application's thread
  // (a SYNCHRONOUS list on its device's PUs) never has one, so no idle thread of it can spin or wake
  // beside the launches it makes (issue 20: at most one runnable Tessera thread per PU), and an
  // application's many such lists cost no threads.
  enum class ExecutorStart { kNow, kFirstSubmission };
  // Checks the ordinal and index against the device's queue groups; INVALID_ARGUMENT otherwise.
  static ze_result_t create(Context& context, Device& device, const ze_command_queue_desc_t& desc,
                            ExecutorStart start, std::unique_ptr<CommandQueue>& out);
  static CommandQueue* fromHandle(ze_command_queue_handle_t h) {
    return Object::fromHandle<CommandQueue>(h);
  }
  // Cancels what has not run (waits are abandoned) and joins the executor.
  ~CommandQueue();

  Context& context() const { return *context_; }
  Device& device() const { return device_; }
  uint32_t ordinal() const { return desc_.ordinal; }
  uint32_t index() const { return desc_.index; }
  ze_command_queue_flags_t flags() const { return desc_.flags; }
  ze_command_queue_mode_t mode() const { return desc_.mode; }
  ze_command_queue_priority_t priority() const { return desc_.priority; }
  bool synchronous() const { return desc_.mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS; }

  // Hands buffers to the executor; returns the submission's ticket.
  uint64_t submit(std::vector<std::shared_ptr<const RecordedCommands>> buffers, Ref<Fence> fence);
  // Waits until everything submitted before the call completed; false on timeout.
  bool synchronize(uint64_t timeoutNs);
  // Every command submitted has run (its event, if any, signalled or about to be): a command run
  // now on the submitting thread comes after them all. Only meaningful to the one thread that
  // submits, as for an immediate list's own queue. Counted before the last command's event is
  // signalled, not when the executor has finished its bookkeeping (completed_): a host woken by
  // that event and appending at once must find the queue idle, or its next command would be handed
  // to the executor too, and every one after it (6 us a launch instead of 0.36).
  bool idle() const { return ran_.load(std::memory_order_acquire) == submitted_.load(); }
  // Waits for one ticket, without timeout.
  void waitFor(uint64_t ticket) { completed_.waitAtLeast(ticket, sync::kForever, &stop_); }

  // zeDeviceSynchronize (device_sync.cpp): waits until everything submitted before the call to
  // every live queue of `device` and of its sub-devices (immediate lists' queues among them) has
  // completed, or the queue was destroyed meanwhile. SUCCESS, or DEVICE_LOST when one of those
  // queues' contexts is lost (then it is not waited for, as zeCommandQueueSynchronize does not
  // wait). Holds no lock while it waits: queues are made, destroyed and run meanwhile.
  static ze_result_t synchronizeDevice(const Device& device);

 private:
  CommandQueue(Context& context, Device& device, const ze_command_queue_desc_t& desc,
               ExecutorStart start);
  void executorMain();
  // Starts the executor if it is not running yet; under mutex_ (or in the constructor).
  void startExecutorLocked();
  // The process's list of live queues that synchronizeDevice walks (device_sync.cpp). unlist()
  // takes the queue out and requests stop_, then waits until no synchronizeDevice still holds it.
  void list();
  void unlist();

  struct Submission {
    std::vector<std::shared_ptr<const RecordedCommands>> buffers;
    Ref<Fence> fence;
    // The buffers' counter values for this execution, buffer after buffer (each
    // counterValueCount() long; empty when no buffer uses counter-based events): issued by
    // submit(), in submission order. Inline for a few events (counter_values.h).
    CounterValues counterValues;
  };
  static void acquireUses(const std::vector<std::shared_ptr<const RecordedCommands>>& buffers);
  static void releaseUses(const Submission& s);

  Ref<Context> context_;  // held: the context may be destroyed first (context.h)
  Device& device_;
  ze_command_queue_desc_t desc_;
  std::mutex mutex_;
  std::deque<Submission> pending_;
  sync::Counter submitted_, completed_;
  std::atomic<uint64_t> ran_{0};  // submissions whose commands have all run (idle())
  sync::Cancel stop_;                // requested by the destructor
  std::atomic<uint32_t> exited_{0};  // a sync flag, set as executorMain returns (teardown.h)
  support::OwnerProcess owner_;      // a fork child's copy has no executor (support/fork_child.h)
  uint32_t syncHolds_ = 0;  // synchronizeDevice calls waiting on this queue (device_sync.cpp's mutex)
  std::thread executor_;  // started as ExecutorStart says (under mutex_)
};

}  // namespace tessera::core
