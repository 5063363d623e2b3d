// An event: a slot of a pool, signalled and reset by the host or by commands, waited on by both.
//
// A counter-based event (Level Zero 1.15 zeEventCounterBasedCreate, and the pools of
// ZE_experimental_event_pool_counter_based) is not a flag but a pair of 64-bit counters: `issued`,
// the value the last execution that signals it was given (an immediate list's append, a regular
// list's execution: core/command/command.h, RecordedCommands::issueCounters), and `completed`, the
// highest value a command has stored. It is complete when completed >= issued ("a signaled
// counter-based event always represents the completion of the last call to which it was passed as
// signal event"); a wait appended after it waits for the value issued then, not for a later one.
// Nothing resets it: each new append raises `issued`, so it is reused without reset, and a command
// waiting for an earlier value is not held up by a later signal.
//
// An event with external aggregate storage (1.17, ze_event_counter_based_external_aggregate_storage_
// desc_t) keeps no counter of its own: "device address that would be updated with atomic_add upon
// signaling of this event", by "value which would by atomically added upon each completion", and
// "when value under deviceAddress is equal or greater then this value then event is considered as
// completed". Every command that signals it adds (not only the last of a list, as for the others),
// its waits wait for the completion value, and the application may reset the storage (a fill).
//
// An IPC counter-based event (ZE_EVENT_COUNTER_BASED_FLAG_IPC, "Event can be shared across
// processes for waiting") keeps `completed` in a memfd's page (its pool's slot, EventSlot::counter)
// that zeEventCounterBasedOpenIpcHandle maps in another process; the handle carries the value
// issued when it was made, which the opened event waits for. "Enqueuing a signal operation
// overwrites the previous tracking point": the first append in the importing process that signals
// the opened event moves it to a counter of its own, so that process's signals never touch the
// exporter's counter.
#pragma once

#include <level_zero/ze_api.h>

#include <atomic>

#include "core/common/object.h"
#include "core/common/ref_counted.h"
#include "core/event/event_pool.h"
#include "core/sync/wait.h"

namespace tessera::core {

class Graph;

// ZE_EVENT_COUNTER_BASED_FLAG_IPC (1.15; the 1.4 headers lack it, level_zero checks they agree).
constexpr uint32_t kCounterBasedIpc = 1u << 3;

class Event : public Object<_ze_event_handle_t, 0x7465737345766e31ull /* "tessEvn1" */>,
              public RefCounted<Event> {
 public:
  // nullptr when the index is out of range (live events on one index alias each other). The scopes are the
  // descriptor's, kept for zeEventGetSignalScope / zeEventGetWaitScope (host memory is coherent:
  // nothing else depends on them).
  static Event* create(EventPool& pool, uint32_t index, ze_event_scope_flags_t signalScope = 0,
                       ze_event_scope_flags_t waitScope = 0);
  static Event* fromHandle(ze_event_handle_t h) { return Object::fromHandle<Event>(h); }

  // A counter-based event on a pool of its own (zeEventCounterBasedCreate): the pool's handle is
  // retired at once, so only the event holds it. `timestampFlags`: 0, or the pool flag its kernel
  // timestamps are recorded under (KERNEL_TIMESTAMP or KERNEL_MAPPED_TIMESTAMP).
  static Event* createCounterBased(Context& context, uint32_t flags,
                                   ze_event_pool_flags_t timestampFlags,
                                   ze_event_scope_flags_t signalScope,
                                   ze_event_scope_flags_t waitScope);

  // zeEventCounterBasedGetIpcHandle: an event created with ZE_EVENT_COUNTER_BASED_FLAG_IPC
  // (others: INVALID_SYNCHRONIZATION_OBJECT), with the value issued now.
  // The handle's bytes are ze_ipc_event_counter_based_handle_t's `data`.
  using IpcBytes = char[ZE_MAX_IPC_HANDLE_SIZE];
  ze_result_t counterIpcHandle(IpcBytes& out) const;
  // zeEventCounterBasedOpenIpcHandle.
  static ze_result_t openCounterBased(Context& context, const IpcBytes& handle, Event*& out);
  // Whether it was opened from another process's handle (and is ended by
  // zeEventCounterBasedCloseIpcHandle).
  bool opened() const { return opened_; }

  EventPool& pool() const { return *pool_; }
  // Whether it came from zeEventCounterBasedCreate (it has no pool of the application's).
  bool standalone() const { return standalone_; }
  bool counterBased() const { return counterBased_; }
  // zeEventGetCounterBasedFlags: the flags it was created with (0 for an ordinary event).
  uint32_t counterFlags() const { return counterFlags_; }
  // Set once, right after creation: the storage (8-byte aligned, in the application's memory).
  void useAggregateStorage(uint64_t* address, uint64_t increment, uint64_t completion) {
    aggregate_ = address;
    aggregateIncrement_ = increment;
    aggregateCompletion_ = completion;
  }
  // Whether every command that signals it counts (external aggregate storage).
  bool aggregates() const { return aggregate_ != nullptr; }
  // A counter-based event: the value a new execution that signals it stores when done.
  uint64_t issue() {
    if (aggregate_) return aggregateCompletion_;
    if (opened_ && !detached_.load(std::memory_order_acquire)) detach();
    return issued_.fetch_add(1, std::memory_order_acq_rel) + 1;
  }
  // The value of the last execution that signals it (0: none yet, complete).
  uint64_t issued() const {
    return aggregate_ ? aggregateCompletion_ : issued_.load(std::memory_order_acquire);
  }
  // The execution `value` has finished signalling it (aggregate storage: one more signal).
  void complete(uint64_t value);
  uint64_t completedValue() const;
  const uint64_t* counterAddress() const { return aggregate_ ? aggregate_ : completed().address(); }
  // Waits for the execution `value` to have signalled (false on timeout or cancel).
  bool waitFor(uint64_t value, uint64_t timeoutNs, const sync::Cancel* cancel = nullptr) {
    if (aggregate_) return waitAggregate(value, timeoutNs, cancel);
    return completed().waitAtLeast(value, timeoutNs, cancel);
  }
  ze_event_scope_flags_t signalScope() const { return signalScope_; }
  ze_event_scope_flags_t waitScope() const { return waitScope_; }
  bool isSignaled() const {
    return counterBased_ ? completedValue() >= issued() : sync::flagIsSet(slot().state);
  }
  void signal() { sync::flagSet(slot().state, pool_->shared()); }
  void reset() { sync::flagClear(slot().state); }
  // False on timeout or cancel.
  bool wait(uint64_t timeoutNs, const sync::Cancel* cancel = nullptr) {
    if (counterBased_) return waitFor(issued(), timeoutNs, cancel);
    return sync::flagWait(slot().state, timeoutNs, pool_->shared(), cancel);
  }
  // Requested by destroy(): a host wait under way (given this as its cancel) ends then, instead of
  // waiting on a slot that the next event of the same index will use.
  const sync::Cancel& destroyed() const { return destroyed_; }
  // The span of the command that signals the event, for kernel-timestamp pools.
  void recordSpan(uint64_t start, uint64_t end);
  const ze_kernel_timestamp_result_t& timestamps() const { return slot().timestamps; }

  void destroy();

  // The graph whose capture recorded a command that signals this event, while that capture lasts
  // (core/cmdlist/graph.h): an immediate list that waits for it joins the capture, and the host
  // may not wait for it.
  Graph* capturedBy() const { return capturedBy_.load(std::memory_order_acquire); }
  void setCapturedBy(Graph* graph) { capturedBy_.store(graph, std::memory_order_release); }
  void clearCapturedBy(Graph* graph) {
    capturedBy_.compare_exchange_strong(graph, nullptr, std::memory_order_acq_rel);
  }

 private:
  Event(EventPool& pool, uint32_t index) : pool_(&pool), index_(index) {}
  ~Event();
  friend class RefCounted<Event>;
  EventSlot& slot() const { return pool_->slot(index_); }
  sync::Counter& completed() const { return *completed_.load(std::memory_order_acquire); }
  // An opened event's first signal in this process: a counter of its own from now on.
  void detach();
  bool waitAggregate(uint64_t value, uint64_t timeoutNs, const sync::Cancel* cancel);

  Ref<EventPool> pool_;
  uint32_t index_;
  ze_event_scope_flags_t signalScope_ = 0;
  ze_event_scope_flags_t waitScope_ = 0;
  sync::Cancel destroyed_;
  bool standalone_ = false;
  bool counterBased_ = false;
  uint32_t counterFlags_ = 0;
  std::atomic<uint64_t> issued_{0};
  // The counter in use: ownCounter_, or the shared page's (IPC, exported or opened).
  mutable sync::Counter ownCounter_;
  std::atomic<sync::Counter*> completed_{&ownCounter_};
  bool opened_ = false;
  std::atomic<bool> detached_{false};
  // External aggregate storage (null: none); ownCounter_ then counts this process's signals, to
  // wake the waiters.
  uint64_t* aggregate_ = nullptr;
  uint64_t aggregateIncrement_ = 0;
  uint64_t aggregateCompletion_ = 0;
  std::atomic<Graph*> capturedBy_{nullptr};
};

}  // namespace tessera::core
