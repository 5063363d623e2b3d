#include "core/cmdlist/command_list.h"

#include <cstdlib>
#include <variant>

#include "host/affinity.h"
#include "core/cmdlist/graph.h"
#include "core/command/launch_policy.h"
#include "core/context/context.h"
#include "core/device/device.h"
#include "core/driver/driver.h"
#include "core/fence/fence.h"
#include "core/command/counter_values.h"
#include "core/queue/run_command.h"
#include "support/fork_child.h"

namespace tessera::core {

CommandList::CommandList(Context& context, Device& device, uint32_t ordinal,
                         ze_command_list_flags_t flags, bool isMutable)
    : context_(&context), device_(device), ordinal_(ordinal), flags_(flags), mutable_(isMutable),
      buffer_(newBuffer()) {}

std::shared_ptr<RecordedCommands> CommandList::newBuffer() {
  auto buffer = std::make_shared<RecordedCommands>();
  buffer->context = context_.get();
  return buffer;
}

namespace {

// The IN_ORDER bit of Level Zero 1.9's ze_command_queue_flag_t (kListInOrder: command_list.h), and
// the COPY_OFFLOAD_HINT bits, ZE_BIT(5) and ZE_BIT(2) (tessera/ze_tessera.h's
// TESSERA_ZE_*_FLAG_*; public values).
constexpr ze_command_queue_flags_t kQueueInOrder = 1u << 1;
constexpr ze_command_list_flags_t kListCopyOffloadHint = 1u << 5;
constexpr ze_command_queue_flags_t kQueueCopyOffloadHint = 1u << 2;

// Commands up to this size count as tiny: a launch of at most kTinyItems work-items
// (launch_policy.h), a copy or fill of at most kTinyBytes, or a command with no operation
// (barriers, markers, signals).
constexpr size_t kTinyBytes = 64u << 10;

}  // namespace

bool CommandList::isTinyAndReady(const Command& c) {
  for (const Ref<Event>& e : c.waits)
    if (!e->isSignaled()) return false;
  if (std::holds_alternative<NopOp>(c.op)) return true;
  if (const auto* l = std::get_if<LaunchOp>(&c.op))
    // An indirect launch's group counts are only known when it runs.
    return !l->indirect && smallAndShort(*l->kernel, l->dims);
  if (const auto* cp = std::get_if<CopyOp>(&c.op)) return cp->size <= kTinyBytes;
  if (const auto* f = std::get_if<FillOp>(&c.op)) return f->size <= kTinyBytes;
  // Anything else runs on the executor, a host function among them ("The runtime invokes the host
  // function asynchronously to API calls").
  return false;
}

ze_result_t CommandList::create(Context& context, Device& device,
                                const ze_command_list_desc_t& desc, bool isMutable,
                                std::unique_ptr<CommandList>& out) {
  if (desc.commandQueueGroupOrdinal >= device.queueGroups().size())
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  out.reset(new CommandList(context, device, desc.commandQueueGroupOrdinal, desc.flags, isMutable));
  out->inOrder_ = (desc.flags & kListInOrder) != 0;
  return ZE_RESULT_SUCCESS;
}

ze_result_t CommandList::createImmediate(Context& context, Device& device,
                                         const ze_command_queue_desc_t& desc,
                                         std::unique_ptr<CommandList>& out) {
  std::unique_ptr<CommandQueue> queue;
  // Its executor starts with the first command that is not run inline (command_queue.h).
  ze_result_t r = CommandQueue::create(context, device, desc,
                                       CommandQueue::ExecutorStart::kFirstSubmission, queue);
  if (r != ZE_RESULT_SUCCESS) return r;
  // The list flags the queue's flags stand for (zeCommandListGetFlags): EXPLICIT_ONLY, IN_ORDER
  // and the copy-offload hint are flags of both descriptors.
  ze_command_list_flags_t flags =
      ((desc.flags & ZE_COMMAND_QUEUE_FLAG_EXPLICIT_ONLY) ? ZE_COMMAND_LIST_FLAG_EXPLICIT_ONLY : 0) |
      ((desc.flags & kQueueInOrder) ? kListInOrder : 0) |
      ((desc.flags & kQueueCopyOffloadHint) ? kListCopyOffloadHint : 0);
  out.reset(new CommandList(context, device, desc.ordinal, flags));
  out->queue_ = std::move(queue);
  out->inOrder_ = (desc.flags & kQueueInOrder) != 0;
  return ZE_RESULT_SUCCESS;
}

ze_result_t CommandList::attachSync(const SyncArgs& sync, Command& command) const {
  if (sync.numWaits > 0 && !sync.waits) return ZE_RESULT_ERROR_INVALID_SIZE;
  if (sync.signal) {
    Event* e = Event::fromHandle(sync.signal);
    if (!e) return ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT;
    if (e->counterBased() && !inOrder_) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    command.signal = Ref<Event>(e);
  }
  command.waits.reserve(sync.numWaits);
  for (uint32_t i = 0; i < sync.numWaits; ++i) {
    Event* e = Event::fromHandle(sync.waits[i]);
    if (!e) return ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT;
    // Waiting for a counter-based event is allowed on any list: the restriction is on the lists
    // that increment its counter.
    command.waits.emplace_back(e);
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t CommandList::append(Op&& op, const SyncArgs& sync) {
  Command command{std::move(op), {}, {}};
  if (ze_result_t r = attachSync(sync, command); r != ZE_RESULT_SUCCESS) return r;
  return append(std::move(command));
}

namespace {

// An inline command's waits for counter-based events, each at the value issued before the append
// ("Synchronizing on a counter-based event waits only for the last saved counter value"): every
// value is read before any wait, then waited for, then those events leave command.waits (what
// remains are ordinary events, which runCommand waits for). The values live on the stack: false,
// with nothing done, for a command that waits for more than kOnStack counter-based events.
bool waitCounterBased(Command& command) {
  constexpr size_t kOnStack = 16;
  Event* events[kOnStack];
  uint64_t values[kOnStack];
  size_t n = 0;
  for (const Ref<Event>& e : command.waits)
    if (e->counterBased()) {
      if (n == kOnStack) return false;
      events[n] = e.get();
      values[n++] = e->issued();
    }
  // command.waits holds the events through the waits.
  for (size_t i = 0; i < n; ++i) events[i]->waitFor(values[i], sync::kForever);
  auto& waits = command.waits;
  for (auto it = waits.begin(); it != waits.end();)
    it = (*it)->counterBased() ? waits.erase(it) : it + 1;
  return true;
}

}  // namespace

ze_result_t CommandList::append(Command&& command) {
  if (queue_) {
    // Graph capture (core/cmdlist/graph.h): recorded, not run. A list that waits for an event a
    // captured command signals joins that capture (a fork); one that already captures into
    // another graph may not ("It is invalid to merge two separate graph capture sessions").
    for (const Ref<Event>& e : command.waits)
      if (Graph* other = e->capturedBy(); other && other != capture_) {
        if (capture_) return kResultGraphCaptureMergeAttempt;
        other->join(*this);
      }
    if (capture_) return capture_->record(std::move(command));
  }
  if (!queue_) {
    // Leniency (docs/api-coverage.head.md): a command appended to a closed list is accepted and
    // not recorded, so the list runs what it held when it was closed. ze_api.h lists no error for
    // it; Intel's driver appends past the end of the closed batch, where nothing runs, and
    // level-zero-tests (zeCommandListCloseThenAppendTests) expects SUCCESS and the command not run.
    if (closed_) return ZE_RESULT_SUCCESS;
    if (mutable_ && !records_.empty() && records_.back().index == buffer_->commands.size())
      records_.back().waits = command.waits.size();
    buffer_->add(std::move(command));
    return ZE_RESULT_SUCCESS;
  }
  // A lost context (a kernel faulted in it) takes no more work: "all APIs will return
  // ZE_RESULT_ERROR_DEVICE_LOST when any object associated with that context is used".
  if (context_->lost()) return ZE_RESULT_ERROR_DEVICE_LOST;
  // The lowest latency: run on the calling thread, when it may run only on the device's PUs (or the
  // topology is not this machine's), which keeps "a queue executes only on its device's PUs".
  // Always for a SYNCHRONOUS list; for an asynchronous one only a tiny command that is ready to run
  // on an idle queue (so order is kept): handing it to the executor would cost a wake-up of a
  // sleeping thread, tens of microseconds on these VMs, for nanoseconds of work.
  // TESSERA_INLINE_LAUNCH=0 hands every command of an asynchronous list to the executor.
  bool inlineTiny = !queue_->synchronous() && device_.driver().config().inlineLaunch &&
                    queue_->idle() &&
                    isTinyAndReady(command);
  if (queue_->synchronous() || inlineTiny) {
    const auto& cpus = device_.pinCpus();
    if (cpus.empty() || device_.pinsEveryCpu() || host::confinedTo(cpus)) {
      // A tiny command's work-groups stay on this thread too: waking a helper costs more.
      ExecutionTarget target{device_, *context_, !isCopyOnly(), nullptr, inlineTiny};
      if (usesCounterEvents(command) && waitCounterBased(command)) {
        // Its counter-based events get this append's values, as a submission's would
        // (RecordedCommands::issueCounters), without a one-command buffer: the waits' values were
        // read first (those issued before this append, its own signal's included) and waited for
        // on this thread; the signal's value is issued now (slot 0: [0] wait, [1] signal).
        uint64_t values[2] = {0, 0};
        if (command.signal && command.signal->counterBased()) {
          values[1] = command.signal->issue();
          command.counterSignal = 0;
          command.counterFinal = true;
          target.counterValues = values;
        }
        runCommand(command, target);
      } else if (usesCounterEvents(command)) {
        // More counter-based waits than waitCounterBased keeps on the stack: a one-command buffer.
        RecordedCommands one;
        one.add(std::move(command));
        CounterValues values(one.counterValueCount());
        one.issueCounters(values.data());
        target.buffer = &one;
        target.counterValues = values.data();
        runCommand(one.commands.front(), target);
      } else {
        runCommand(command, target);
      }
      // A synchronous list reports a fault now (DEVICE_LOST); an asynchronous one, as if the
      // command had run on the executor, at the next synchronization.
      return inlineTiny ? ZE_RESULT_SUCCESS : context_->status();
    }
  }
  auto buffer = newBuffer();
  buffer->add(std::move(command));
  uint64_t ticket = queue_->submit({std::move(buffer)}, Ref<Fence>());
  if (queue_->synchronous()) {
    queue_->waitFor(ticket);
    return context_->status();
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t CommandList::close() {
  // "An immediate command list is not required to be closed or reset. However, usage will be
  // honored": closing it changes nothing. Closing a mutable list after updates makes it
  // executable again.
  if (!queue_) closed_ = true;
  updated_ = false;
  return ZE_RESULT_SUCCESS;
}

ze_result_t CommandList::reset() {
  if (queue_) {
    // A fork() child's copy of the parent's list: its queue's executor does not exist there, so
    // waiting for it would never end (support/fork_child.h).
    if (support::inForkChild()) return ZE_RESULT_ERROR_DEVICE_LOST;
    queue_->synchronize(sync::kForever);
    return ZE_RESULT_SUCCESS;
  }
  // Executions still in flight keep the old buffer.
  buffer_ = newBuffer();
  closed_ = false;
  updated_ = false;
  records_.clear();
  return ZE_RESULT_SUCCESS;
}

CommandList::~CommandList() {
  if (capture_) capture_->leave(*this);
}

bool CommandList::runnableOn(const Device& recordedFor, uint64_t cooperativeGroups,
                             const Device& device) {
  if (&device == &recordedFor) return true;
  auto root = [](const Device& d) { return d.rootDevice() ? d.rootDevice() : &d; };
  return root(device) == root(recordedFor) && cooperativeGroups <= device.workers().size();
}

ze_result_t executeCommandLists(CommandQueue& queue, const std::vector<CommandList*>& lists,
                                Fence* fence) {
  if (fence && !fence->madeOn(queue)) return ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT;
  std::vector<std::shared_ptr<const RecordedCommands>> buffers;
  buffers.reserve(lists.size());
  for (CommandList* list : lists) {
    // "Command lists can only be executed on a command queue with an identical command queue
    // group ordinal."
    if (list->ordinal() != queue.ordinal()) return ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE;
    // "Only command lists created using ZE_COMMAND_LIST_FLAG_EXPLICIT_ONLY can be executed on a
    // command queue created using ZE_COMMAND_QUEUE_FLAG_EXPLICIT_ONLY" is not checked (leniency,
    // docs/api-coverage.md): ze_api.h marks INVALID_COMMAND_LIST_TYPE "[Validation]", a check of
    // the validation layer; the flags only govern distributing work over several engines, which a
    // CPU device does not do; Intel's driver runs such lists, and level-zero-tests (2026,
    // CommandQueueFlagTest and zeCommandQueueSynchronizeTimeoutTests) expects it to.
    // "The application is responsible for calling close before submission."
    if (list->isImmediate() || !list->isExecutable() || !list->runsOn(queue.device()))
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    buffers.push_back(list->buffer());
  }
  uint64_t ticket = queue.submit(std::move(buffers), Ref<Fence>(fence));
  if (queue.synchronous()) queue.waitFor(ticket);
  return ZE_RESULT_SUCCESS;
}

}  // namespace tessera::core
