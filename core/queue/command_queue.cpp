#include "core/queue/command_queue.h"

#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "host/affinity.h"
#include "core/context/context.h"
#include "core/device/device.h"
#include "core/driver/driver.h"
#include "core/queue/run_command.h"
#include "core/queue/teardown.h"
#include "core/command/command_trace.h"

namespace tessera::core {
namespace {

// "priorities accepted and, where the OS allows, applied": a niceness for the executor thread.
// Raising it needs CAP_SYS_NICE; without it the queue runs at normal priority.
void applyPriority(ze_command_queue_priority_t priority) {
  int nice = priority == ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH  ? -5
             : priority == ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_LOW ? 5
                                                                  : 0;
  if (nice) setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), nice);
}

}  // namespace

ze_result_t CommandQueue::create(Context& context, Device& device,
                                 const ze_command_queue_desc_t& desc, ExecutorStart start,
                                 std::unique_ptr<CommandQueue>& out) {
  auto groups = device.queueGroups();
  if (desc.ordinal >= groups.size() || desc.index >= groups[desc.ordinal].numQueues)
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  out.reset(new CommandQueue(context, device, desc, start));
  return ZE_RESULT_SUCCESS;
}

CommandQueue::CommandQueue(Context& context, Device& device, const ze_command_queue_desc_t& desc,
                           ExecutorStart start)
    : context_(&context), device_(device), desc_(desc) {
  desc_.pNext = nullptr;
  list();  // zeDeviceSynchronize finds it (device_sync.cpp)
  if (start == ExecutorStart::kFirstSubmission) return;
  try {
    startExecutorLocked();
  } catch (...) {
    unlist();  // no destructor runs for an object whose constructor threw
    throw;
  }
}

void CommandQueue::startExecutorLocked() {
  // A fork child's copy never starts one: what it is handed never runs there (its contexts are
  // lost).
  if (executor_.joinable() || owner_.isForkCopy()) return;
  executor_ = std::thread([this] { executorMain(); });  // std::system_error: OUT_OF_HOST_MEMORY
}

CommandQueue::~CommandQueue() {
  if (owner_.isForkCopy()) {
    // The parent's queue in a fork child: its executor does not exist here, and what it left
    // pending never runs (the child's contexts are lost). Nothing to join or to give back.
    support::abandonThread(executor_);
    return;
  }
  unlist();  // requests stop_, which wakes the executor wherever it sleeps (sync::Cancel)
  // Interrupts a kernel that does not end (docs/reliability.md, "Faults").
  bool started;
  {
    std::lock_guard lock(mutex_);
    started = executor_.joinable();
  }
  if (started)
    joinInterrupting(executor_, exited_, &stop_, device_.driver().config().queueDestroyTimeoutMs);
  // What never ran lets go of its allocations, so a BLOCKING_FREE of them does not wait forever.
  for (const Submission& s : pending_) releaseUses(s);
}

void CommandQueue::acquireUses(const std::vector<std::shared_ptr<const RecordedCommands>>& buffers) {
  for (const auto& b : buffers)
    if (b->context)
      for (const void* base : b->touched) b->context->memory().acquireUse(base);
}

void CommandQueue::releaseUses(const Submission& s) {
  for (const auto& b : s.buffers)
    if (b->context)
      for (const void* base : b->touched) b->context->memory().releaseUse(base);
}

uint64_t CommandQueue::submit(std::vector<std::shared_ptr<const RecordedCommands>> buffers,
                              Ref<Fence> fence) {
  {
    // Before anything is held: a thread the system refuses leaves nothing to give back.
    std::lock_guard lock(mutex_);
    startExecutorLocked();
  }
  // Hold a use of every allocation the lists touch until they completed (zeMemFreeExt).
  acquireUses(buffers);
  // Counter-based events get this execution's values now, as it is submitted: a host wait or an
  // append made after this call waits for them.
  size_t values = 0;
  for (const auto& b : buffers) values += b->counterValueCount();
  CounterValues counterValues(values);
  for (size_t i = 0, at = 0; i < buffers.size(); at += buffers[i]->counterValueCount(), ++i)
    if (buffers[i]->usesCounters()) buffers[i]->issueCounters(counterValues.data() + at);
  uint64_t ticket;
  {
    std::lock_guard lock(mutex_);
    pending_.push_back({std::move(buffers), std::move(fence), std::move(counterValues)});
    ticket = submitted_.load() + 1;
    submitted_.increment();
  }
  return ticket;
}

bool CommandQueue::synchronize(uint64_t timeoutNs) {
  return completed_.waitAtLeast(submitted_.load(), timeoutNs);
}

void CommandQueue::executorMain() {
  struct Exit {
    std::atomic<uint32_t>& flag;
    ~Exit() { sync::flagSet(flag, false); }
  } exit{exited_};
  // No exception leaves this thread (std::terminate would end the process): what follows only
  // tunes the thread, and runCommand turns a command's failure into the context's loss.
  try {
    pthread_setname_np(pthread_self(), "tessera-queue");
    host::pinCurrentThread(device_.pinCpus());
    applyPriority(desc_.priority);
    if (trace::enabled()) traceNameQueue(device_, desc_.ordinal, desc_.index, synchronous());
  } catch (...) {
  }
  // Copy-only queues keep to their own thread; compute queues may spread large copies over the
  // device's workers.
  ExecutionTarget target{device_, *context_, desc_.ordinal == 0, &stop_};
  target.executor = true;
  uint64_t done = 0;
  while (submitted_.waitAtLeast(done + 1, sync::kForever, &stop_)) {
    Submission s;
    {
      std::lock_guard lock(mutex_);
      s = std::move(pending_.front());
      pending_.pop_front();
    }
    // The last command counts the submission as run before it signals (idle()).
    const Command* last = nullptr;
    for (const auto& buffer : s.buffers)
      if (!buffer->commands.empty()) last = &buffer->commands.back();
    bool ok = true;
    for (size_t b = 0, at = 0; b < s.buffers.size(); at += s.buffers[b]->counterValueCount(), ++b) {
      const auto& buffer = s.buffers[b];
      const bool counted = buffer->usesCounters();
      target.buffer = counted ? buffer.get() : nullptr;
      target.counterValues = counted ? s.counterValues.data() + at : nullptr;
      for (const Command& c : buffer->commands) {
        target.ran = &c == last ? &ran_ : nullptr;
        if (ok) ok = runCommand(c, target);
      }
    }
    if (!last) ran_.fetch_add(1, std::memory_order_release);
    releaseUses(s);
    // Dropped before completion is reported, so a synchronized list holds its buffer alone again
    // (a mutable list's update then changes it in place rather than copying it).
    s.buffers.clear();
    if (!ok) return;  // cancelled: the queue is being destroyed
    // "A fence guarantees both execution completion and memory coherency, across the device and
    // host, prior to being signaled": everything above happened-before the release in signal().
    if (s.fence) s.fence->signal();
    if (s.fence && trace::enabled()) trace::instant("marker", "fence signaled", trace::nowNs());
    ++done;
    completed_.increment();
  }
}

}  // namespace tessera::core
