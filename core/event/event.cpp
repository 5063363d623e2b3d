#include "core/event/event.h"

namespace tessera::core {

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
  EventPool* pool =
      EventPool::createPrivate(context, ZE_EVENT_POOL_FLAG_HOST_VISIBLE | timestampFlags);
  pool->makeCounterBased(flags);
  Event* event;
  try {
    event = create(*pool, 0, signalScope, waitScope);
  } catch (...) {
    pool->destroy();
    throw;
  }
  event->standalone_ = true;
  // The pool is the event's alone and has no handle: the event holds it, the creation's
  // reference ends now.
  pool->destroy();
  return event;
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
