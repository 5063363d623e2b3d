#include "core/event/event.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <new>

namespace tessera::core {
namespace {

// What an IPC counter-based event's handle carries after its pool's handle (EventPool::ipcHandle):
// the value the opened event waits for and the exporter's flags.
struct CounterIpcTail {
  static constexpr uint32_t kMagic = 0x45437354;  // "TsCE"
  uint64_t value;
  uint32_t flags;
  uint32_t magic;
};
static_assert(EventPool::kIpcBytesUsed + sizeof(CounterIpcTail) <= ZE_MAX_IPC_HANDLE_SIZE);

}  // namespace

Event* Event::create(EventPool& pool, uint32_t index, ze_event_scope_flags_t signalScope,
                     ze_event_scope_flags_t waitScope) {
  if (!pool.holds(index)) return nullptr;
  Event* event = new Event(pool, index);
  event->signalScope_ = signalScope;
  event->waitScope_ = waitScope;
  event->counterBased_ = pool.counterBased();
  event->counterFlags_ = pool.counterFlags();
  // A new event starts not signalled, whatever an earlier event of its index left behind (and so,
  // as in Intel's driver, do the live events it aliases). Not in IPC pools: there, the processes
  // sharing the pool each create an event on the same slot, and the other one may already have
  // signalled it (the guide's two-process example).
  if (!pool.shared()) {
    event->reset();
    event->slot().timestamps = {};
  }
  return event;
}

Event* Event::createCounterBased(Context& context, uint32_t flags,
                                 ze_event_pool_flags_t timestampFlags,
                                 ze_event_scope_flags_t signalScope,
                                 ze_event_scope_flags_t waitScope) {
  // An IPC event's slot is a memfd's page, its counter made there (process-shared).
  const bool ipc = flags & kCounterBasedIpc;
  EventPool* pool = EventPool::createPrivate(
      context, ZE_EVENT_POOL_FLAG_HOST_VISIBLE | timestampFlags |
                   (ipc ? ze_event_pool_flags_t{ZE_EVENT_POOL_FLAG_IPC} : 0));
  pool->makeCounterBased(flags);
  Event* event;
  try {
    event = create(*pool, 0, signalScope, waitScope);
  } catch (...) {
    pool->destroy();
    throw;
  }
  event->standalone_ = true;
  if (ipc) event->completed_.store(new (&event->slot().counter) sync::Counter(/*shared=*/true));
  // The pool is the event's alone and has no handle: the event holds it, the creation's
  // reference ends now.
  pool->destroy();
  return event;
}

ze_result_t Event::counterIpcHandle(IpcBytes& out) const {
  if (!counterBased_ || !(counterFlags_ & kCounterBasedIpc) || opened_)
    return ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT;
  ze_ipc_event_pool_handle_t poolHandle;
  if (ze_result_t r = pool_->ipcHandle(poolHandle); r != ZE_RESULT_SUCCESS) return r;
  std::memcpy(out, poolHandle.data, sizeof poolHandle.data);
  CounterIpcTail tail{issued(), counterFlags_, CounterIpcTail::kMagic};
  std::memcpy(out + EventPool::kIpcBytesUsed, &tail, sizeof tail);
  return ZE_RESULT_SUCCESS;
}

ze_result_t Event::openCounterBased(Context& context, const IpcBytes& handle, Event*& out) {
  CounterIpcTail tail;
  std::memcpy(&tail, handle + EventPool::kIpcBytesUsed, sizeof tail);
  if (tail.magic != CounterIpcTail::kMagic || !(tail.flags & kCounterBasedIpc))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  ze_ipc_event_pool_handle_t poolHandle{};
  std::memcpy(poolHandle.data, handle, EventPool::kIpcBytesUsed);
  EventPool* pool = nullptr;
  if (ze_result_t r = EventPool::open(context, poolHandle, pool, /*registered=*/false);
      r != ZE_RESULT_SUCCESS)
    return r;
  if (pool->count() != 1) {  // an event pool's handle with a forged tail
    pool->destroy();
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  Event* event;
  try {
    event = new Event(*pool, 0);
  } catch (...) {
    pool->destroy();
    throw;
  }
  pool->makeCounterBased(tail.flags);
  event->counterBased_ = true;
  event->counterFlags_ = tail.flags;
  event->standalone_ = true;
  event->opened_ = true;
  event->issued_.store(tail.value);
  event->completed_.store(&event->slot().counter);  // made by the exporter
  pool->destroy();  // the event holds it
  out = event;
  return ZE_RESULT_SUCCESS;
}

void Event::detach() {
  static std::mutex mutex;  // only opened events come here, once each
  std::lock_guard<std::mutex> lock(mutex);
  if (detached_.load(std::memory_order_acquire)) return;
  issued_.store(0, std::memory_order_release);
  completed_.store(&ownCounter_, std::memory_order_release);
  detached_.store(true, std::memory_order_release);
}

void Event::complete(uint64_t value) {
  if (!aggregate_) {
    completed().advanceTo(value);
    return;
  }
  std::atomic_ref<uint64_t>(*aggregate_).fetch_add(aggregateIncrement_, std::memory_order_acq_rel);
  ownCounter_.increment();  // wakes the waiters
}

uint64_t Event::completedValue() const {
  if (aggregate_) return std::atomic_ref<uint64_t>(*aggregate_).load(std::memory_order_acquire);
  return completed().load();
}

bool Event::waitAggregate(uint64_t value, uint64_t timeoutNs, const sync::Cancel* cancel) {
  const uint64_t start = sync::nowNs();
  while (true) {
    // The count of signals first: one that lands after the check below ends the sleep.
    const uint64_t signals = ownCounter_.load();
    if (completedValue() >= value) return true;
    if (cancel && cancel->requested()) return false;
    const uint64_t waited = sync::nowNs() - start;
    if (timeoutNs != sync::kForever && waited >= timeoutNs) return false;
    // This process's signals wake the sleep; the application may write the storage too (it resets
    // it with a fill, and may add to it), which wakes nobody: so 1 ms at most at a time.
    uint64_t slice = 1'000'000;
    if (timeoutNs != sync::kForever) slice = std::min(slice, timeoutNs - waited);
    ownCounter_.waitAtLeast(signals + 1, slice, cancel);
  }
}

Event::~Event() = default;

void Event::recordSpan(uint64_t start, uint64_t end) {
  // Tessera has one clock: the device timer is CLOCK_MONOTONIC in nanoseconds
  // (timerResolution 1, 64 valid bits), and a context's time is the device's.
  ze_kernel_timestamp_result_t& t = slot().timestamps;
  t.global.kernelStart = t.context.kernelStart = start;
  t.global.kernelEnd = t.context.kernelEnd = end;
}

void Event::destroy() {
  // Commands recorded in lists may still hold this event after its handle ends ("destroy all event
  // handles created from the pool before destroying the pool itself" is about handles); they keep
  // the slot's memory alive.
  retireHandle();
  destroyed_.request();
  release();
}

}  // namespace tessera::core
