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
  return valueQuery<Event>(hEvent, phEventPool,
                           [](Event& event) { return event.pool().toHandle(); });
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

// Counter-based events are not implemented (docs/api-coverage.md, "Level Zero after 1.4", says
// what they would take): the arguments get the header's checks, then
// ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, which the header lists first among the function's results.
ZE_APIEXPORT ze_result_t ZE_APICALL
zeEventCounterBasedCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                          const ze_event_counter_based_desc_t* desc, ze_event_handle_t* phEvent) {
  if (!Context::fromHandle(hContext) || !Device::fromHandle(hDevice))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !phEvent) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(desc->stype, ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // "0x7f < desc->flags", "0x7 < desc->signal", "0x7 < desc->wait"
  if (desc->flags > 0x7f || desc->signal > 0x7 || desc->wait > 0x7)
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
}

// "Returns 0 for regular events created with zeEventCreate": every Tessera event is one.
ZE_APIEXPORT ze_result_t ZE_APICALL
zeEventGetCounterBasedFlags(ze_event_handle_t hEvent, ze_event_counter_based_flags_t* pFlags) {
  if (!Event::fromHandle(hEvent)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pFlags) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *pFlags = 0;
  return ZE_RESULT_SUCCESS;
}
