// zeDeviceSynchronize's part of CommandQueue: the process's live queues and the wait for those of
// one device. The header: "This function blocks until all preceding submissions to all queues on
// the device are completed"; "The application may call this function from simultaneous threads
// with the same device handle."
#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "core/context/context.h"
#include "core/device/device.h"
#include "core/queue/command_queue.h"

namespace tessera::core {
namespace {

// Every live queue of the process. A synchronizeDevice call holds the queues it waits for
// (CommandQueue::syncHolds_, changed under `mutex`); a queue's destructor waits on `released`
// until none does, so a wait never reads a queue that is gone.
struct LiveQueues {
  std::mutex mutex;
  std::condition_variable released;
  std::vector<CommandQueue*> queues;
};

LiveQueues& live() {
  static auto* queues = new LiveQueues;  // never destroyed: queues may outlive exit
  return *queues;
}

// `d` is `device` or one of its sub-devices (partition devices included): the sub-devices' PUs are
// the device's, so work submitted to them is work of the device.
bool within(const Device* d, const Device& device) {
  for (; d; d = d->parent())
    if (d == &device) return true;
  return false;
}

}  // namespace

void CommandQueue::list() {
  LiveQueues& l = live();
  std::lock_guard lock(l.mutex);
  l.queues.push_back(this);
}

void CommandQueue::unlist() {
  LiveQueues& l = live();
  std::unique_lock lock(l.mutex);
  l.queues.erase(std::remove(l.queues.begin(), l.queues.end(), this), l.queues.end());
  // Wakes the executor and any synchronizeDevice waiting on this queue (their waits take stop_).
  stop_.request();
  l.released.wait(lock, [&] { return syncHolds_ == 0; });
}

ze_result_t CommandQueue::synchronizeDevice(const Device& device) {
  // A fork() child's queues have no executors (support/fork_child.h): its contexts are lost.
  if (support::inForkChild()) return ZE_RESULT_ERROR_DEVICE_LOST;
  struct Held {
    CommandQueue* queue;
    uint64_t ticket;  // everything submitted before the call
  };
  std::vector<Held> held;
  LiveQueues& l = live();
  {
    std::lock_guard lock(l.mutex);
    held.reserve(l.queues.size());  // nothing below throws once a queue is held
    for (CommandQueue* q : l.queues)
      if (within(&q->device_, device)) {
        ++q->syncHolds_;
        held.push_back({q, q->submitted_.load()});
      }
  }
  bool lost = false;
  for (const Held& h : held) {
    CommandQueue& q = *h.queue;
    // As zeCommandQueueSynchronize: a lost context's queue is not waited for. A destroyed queue
    // (stop_ requested) ends the wait: what it had not run never will.
    if (!q.context_->lost()) q.completed_.waitAtLeast(h.ticket, sync::kForever, &q.stop_);
    if (q.context_->lost()) lost = true;
    std::lock_guard lock(l.mutex);
    if (--q.syncHolds_ == 0) l.released.notify_all();
  }
  return lost ? ZE_RESULT_ERROR_DEVICE_LOST : ZE_RESULT_SUCCESS;
}

}  // namespace tessera::core
