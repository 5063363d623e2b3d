// The event and event pool queries of Level Zero 1.9 and the counter-based event entry points of
// 1.15 and 1.17 (tessera/ze_tessera.h declares them). Every query is "lock-free": it reads what
// creation fixed.
#include "core/context/context.h"
#include "core/event/event.h"
#include "level_zero/api_support.h"
#include "tessera/ze_tessera.h"

using namespace tessera::core;
using tessera::ze::valueQuery;

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventGetEventPool(ze_event_handle_t hEvent,
                                                        ze_event_pool_handle_t* phEventPool) {
  // The pool the event was created from. An event may outlive its pool's handle
  // (docs/api-coverage.md, "Leniency"): the handle returned is then the destroyed one, which
  // every function refuses, as it refused it before.
  // A counter-based event of zeEventCounterBasedCreate has no pool: null.
  return valueQuery<Event>(hEvent, phEventPool, [](Event& event) {
    return event.standalone() ? ze_event_pool_handle_t{} : event.pool().toHandle();
  });
}

// "signal event scope. This is the scope of relevant cache hierarchies that are flushed on a signal
// action before the event is triggered": the descriptor's, as given.
ZE_APIEXPORT ze_result_t ZE_APICALL zeEventGetSignalScope(ze_event_handle_t hEvent,
                                                          ze_event_scope_flags_t* pSignalScope) {
  return valueQuery<Event>(hEvent, pSignalScope, [](Event& event) { return event.signalScope(); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventGetWaitScope(ze_event_handle_t hEvent,
                                                        ze_event_scope_flags_t* pWaitScope) {
  return valueQuery<Event>(hEvent, pWaitScope, [](Event& event) { return event.waitScope(); });
}

// For a pool opened from an IPC handle, the context it was opened in.
ZE_APIEXPORT ze_result_t ZE_APICALL zeEventPoolGetContextHandle(ze_event_pool_handle_t hEventPool,
                                                                ze_context_handle_t* phContext) {
  return valueQuery<EventPool>(hEventPool, phContext,
                               [](EventPool& pool) { return pool.context().toHandle(); });
}

// "creation flags used to create the event pool" (for an opened pool, the exporter's).
ZE_APIEXPORT ze_result_t ZE_APICALL zeEventPoolGetFlags(ze_event_pool_handle_t hEventPool,
                                                        ze_event_pool_flags_t* pFlags) {
  return valueQuery<EventPool>(hEventPool, pFlags, [](EventPool& pool) { return pool.flags(); });
}

// Counter-based events (core/event/event.h; semantics and what is not supported:
// tessera/ze_tessera.h). "0x3f < desc->flags" in 1.15's header; 1.17 adds GRAPH_EXTERNAL (bit 6),
// a hint Tessera has nothing to do for.
ZE_APIEXPORT ze_result_t ZE_APICALL
zeEventCounterBasedCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                          const ze_event_counter_based_desc_t* desc, ze_event_handle_t* phEvent) {
  Context* context = Context::fromHandle(hContext);
  Device* device = Device::fromHandle(hDevice);
  if (!context || !device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !phEvent) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(desc->stype, ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // "0x7 < desc->signal", "0x7 < desc->wait"
  if (desc->flags > 0x7f || desc->signal > 0x7 || desc->wait > 0x7)
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  // DEVICE_TIMESTAMP: "Cannot be combined with ZE_EVENT_COUNTER_BASED_FLAG_HOST_TIMESTAMP".
  const ze_event_counter_based_flags_t timestampFlags =
      ZE_EVENT_COUNTER_BASED_FLAG_DEVICE_TIMESTAMP | ZE_EVENT_COUNTER_BASED_FLAG_HOST_TIMESTAMP;
  if ((desc->flags & timestampFlags) == timestampFlags) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // The counter lives in Tessera's memory (a memfd's page for IPC), or in the application's
  // aggregate storage; an external sync allocation is not taken.
  if (tessera::ze::chainHasCycle(desc->pNext)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  const ze_event_counter_based_external_aggregate_storage_desc_t* aggregate = nullptr;
  for (auto* e = static_cast<const ze_base_desc_t*>(desc->pNext); e;
       e = static_cast<const ze_base_desc_t*>(e->pNext)) {
    if (e->stype == ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_EXTERNAL_SYNC_ALLOCATION_DESC)
      return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
    if (e->stype == ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_EXTERNAL_AGGREGATE_STORAGE_DESC)
      aggregate = reinterpret_cast<const ze_event_counter_based_external_aggregate_storage_desc_t*>(e);
  }
  if (&device->driver() != &context->driver()) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (aggregate) {
    if (desc->flags & ZE_EVENT_COUNTER_BASED_FLAG_IPC) return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
    if (!aggregate->deviceAddress) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // Read and written by every signal and wait: it must be the application's memory that lasts.
    auto a = context->memory().find(aggregate->deviceAddress);
    auto* p = reinterpret_cast<const uint8_t*>(aggregate->deviceAddress);
    if (reinterpret_cast<uintptr_t>(p) % alignof(uint64_t) || !a ||
        p + sizeof(uint64_t) > a->base + a->size)
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  return tessera::ze::guarded([&] {
    // Device and host timestamps are one clock on a CPU device (CLOCK_MONOTONIC). DEVICE_TIMESTAMP,
    // "timestamps populated in the device time domain", records as a KERNEL_TIMESTAMP pool does;
    // HOST_TIMESTAMP, "timestamps converted to the host time domain", as a KERNEL_MAPPED_TIMESTAMP
    // pool does (its synchronized timestamps are then readable: zeEventQueryKernelTimestampsExt).
    const ze_event_pool_flags_t poolTimestamps =
        (desc->flags & ZE_EVENT_COUNTER_BASED_FLAG_HOST_TIMESTAMP)
            ? TESSERA_ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP
        : (desc->flags & ZE_EVENT_COUNTER_BASED_FLAG_DEVICE_TIMESTAMP)
            ? ze_event_pool_flags_t{ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP}
            : 0;
    Event* event = Event::createCounterBased(*context, desc->flags, poolTimestamps,
                                             desc->signal, desc->wait);
    if (aggregate)
      event->useAggregateStorage(aggregate->deviceAddress, aggregate->incrementValue,
                                 aggregate->completionValue);
    *phEvent = event->toHandle();
    return ZE_RESULT_SUCCESS;
  });
}

// "Returns 0 for regular events created with zeEventCreate"; a counter-based event's flags as
// created, IMMEDIATE for 0 (its default: "Counter-based event is used for immediate command lists
// (default)").
ZE_APIEXPORT ze_result_t ZE_APICALL
zeEventGetCounterBasedFlags(ze_event_handle_t hEvent, ze_event_counter_based_flags_t* pFlags) {
  return valueQuery<Event>(hEvent, pFlags, [](Event& event) -> ze_event_counter_based_flags_t {
    if (!event.counterBased()) return 0;
    return event.counterFlags() ? event.counterFlags()
                                : ze_event_counter_based_flags_t{ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE};
  });
}

static_assert(tessera::core::kCounterBasedIpc == ZE_EVENT_COUNTER_BASED_FLAG_IPC);

// IPC counter-based events (core/event/event.h; tessera/ze_tessera_current.h).
ZE_APIEXPORT ze_result_t ZE_APICALL
zeEventCounterBasedGetIpcHandle(ze_event_handle_t hEvent, ze_ipc_event_counter_based_handle_t* phIpc) {
  Event* event = Event::fromHandle(hEvent);
  if (!event) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!phIpc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return event->counterIpcHandle(phIpc->data);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventCounterBasedOpenIpcHandle(
    ze_context_handle_t hContext, ze_ipc_event_counter_based_handle_t hIpc,
    ze_event_handle_t* phEvent) {
  Context* context = Context::fromHandle(hContext);
  if (!context) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!phEvent) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return tessera::ze::guarded([&] {
    Event* event = nullptr;
    ze_result_t r = Event::openCounterBased(*context, hIpc.data, event);
    if (r == ZE_RESULT_SUCCESS) *phEvent = event->toHandle();
    return r;
  });
}

// "[release] handle of event object": an event this process opened; others
// INVALID_SYNCHRONIZATION_OBJECT (zeEventDestroy ends them).
ZE_APIEXPORT ze_result_t ZE_APICALL zeEventCounterBasedCloseIpcHandle(ze_event_handle_t hEvent) {
  Event* event = Event::fromHandle(hEvent);
  if (!event) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!event->opened()) return ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT;
  event->destroy();
  return ZE_RESULT_SUCCESS;
}

// "Returns Counter Based Event completion value (counter) and its device address": the value of
// the last append that signals it (the event is complete when the counter reaches it) and the
// address of its 64-bit counter, which a kernel may read as the host does. INVALID_ARGUMENT for an
// event that is not counter-based.
ZE_APIEXPORT ze_result_t ZE_APICALL zeEventCounterBasedGetDeviceAddress(ze_event_handle_t hEvent,
                                                                        uint64_t* completionValue,
                                                                        uint64_t* deviceAddress) {
  Event* event = Event::fromHandle(hEvent);
  if (!event) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!completionValue || !deviceAddress) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!event->counterBased()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  *completionValue = event->issued();
  *deviceAddress = reinterpret_cast<uintptr_t>(event->counterAddress());
  return ZE_RESULT_SUCCESS;
}
