// The event pool and event entry points.
#include <vector>

#include "core/cmdlist/graph.h"
#include "core/context/context.h"
#include "core/driver/driver.h"
#include "core/event/event.h"
#include "core/command/command_trace.h"
#include "level_zero/api_support.h"
#include "tessera/ze_tessera.h"

using namespace tessera::core;
using tessera::ze::guarded;

static_assert(kPoolKernelMappedTimestamp == TESSERA_ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP);

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventPoolCreate(ze_context_handle_t hContext,
                                                      const ze_event_pool_desc_t* desc,
                                                      uint32_t numDevices,
                                                      ze_device_handle_t* phDevices,
                                                      ze_event_pool_handle_t* phEventPool) {
  Context* context = Context::fromHandle(hContext);
  if (!context) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !phEventPool) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(desc->stype, ZE_STRUCTURE_TYPE_EVENT_POOL_DESC))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // "0xf < desc->flags" (1.6 added KERNEL_MAPPED_TIMESTAMP, bit 3). KERNEL_MAPPED_TIMESTAMP "cannot
  // be combined with ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP"; the header names no code for it:
  // INVALID_ARGUMENT, as for other combinations the headers forbid.
  if (desc->flags > 0xf) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  const ze_event_pool_flags_t bothTimestamps =
      ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP | TESSERA_ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP;
  if ((desc->flags & bothTimestamps) == bothTimestamps) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (desc->count == 0 || (numDevices > 0 && !phDevices)) return ZE_RESULT_ERROR_INVALID_SIZE;
  if (tessera::ze::chainHasCycle(desc->pNext)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // ZE_experimental_event_pool_counter_based: "Counter-based events can be created by passing
  // ze_event_pool_counter_based_exp_desc_t to zeEventPoolCreate as pNext member of
  // ze_event_pool_desc_t"; its flags "must be 0 (default) or a valid value of
  // ze_event_pool_counter_based_exp_flag_t" (IMMEDIATE, NON_IMMEDIATE). Their counters live in
  // this process's memory, so an IPC pool of them is not supported.
  const ze_event_pool_counter_based_exp_desc_t* counterBased = nullptr;
  for (auto* e = static_cast<const ze_base_desc_t*>(desc->pNext); e;
       e = static_cast<const ze_base_desc_t*>(e->pNext))
    if (e->stype == ZE_STRUCTURE_TYPE_COUNTER_BASED_EVENT_POOL_EXP_DESC)
      counterBased = reinterpret_cast<const ze_event_pool_counter_based_exp_desc_t*>(e);
  if (counterBased && counterBased->flags > 0x3) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  if (counterBased && (desc->flags & ZE_EVENT_POOL_FLAG_IPC))
    return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  return guarded([&] {
    std::vector<Device*> devices;
    for (uint32_t i = 0; i < numDevices; ++i) {
      Device* d = Device::fromHandle(phDevices[i]);
      if (!d || &d->driver() != &context->driver()) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
      devices.push_back(d);
    }
    EventPool* pool = EventPool::create(*context, desc->flags, desc->count, std::move(devices));
    if (counterBased) pool->makeCounterBased(counterBased->flags);
    *phEventPool = pool->toHandle();
    return ZE_RESULT_SUCCESS;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventPoolDestroy(ze_event_pool_handle_t hEventPool) {
  EventPool* pool = EventPool::fromHandle(hEventPool);
  if (!pool) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (pool->opened()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;  // opened: zeEventPoolCloseIpcHandle
  return pool->destroy();
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventCreate(ze_event_pool_handle_t hEventPool,
                                                  const ze_event_desc_t* desc,
                                                  ze_event_handle_t* phEvent) {
  EventPool* pool = EventPool::fromHandle(hEventPool);
  if (!pool) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !phEvent) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(desc->stype, ZE_STRUCTURE_TYPE_EVENT_DESC))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (desc->signal > 0x7 || desc->wait > 0x7) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  return guarded([&] {
    // The index must be in the pool; events on one index are aliases (EventPool::holds).
    Event* event = Event::create(*pool, desc->index, desc->signal, desc->wait);
    if (!event) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    *phEvent = event->toHandle();
    return ZE_RESULT_SUCCESS;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventDestroy(ze_event_handle_t hEvent) {
  Event* event = Event::fromHandle(hEvent);
  if (!event) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  event->destroy();
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventHostSignal(ze_event_handle_t hEvent) {
  Event* event = Event::fromHandle(hEvent);
  if (!event) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  // "Counter-based events must not be signaled from host, i.e., a call to zeEventHostSignal is not
  // allowed."
  if (event->counterBased()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (tessera::trace::enabled()) traceHostSignal(*event);  // the flow starts before the signal
  event->signal();
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventHostSynchronize(ze_event_handle_t hEvent,
                                                           uint64_t timeout) {
  Event* event = Event::fromHandle(hEvent);
  // Held through the wait: another thread may destroy the handle meanwhile (then the wait ends and
  // the handle is refused, as it would be if the call came after the destroy).
  if (!event || !event->tryRetain()) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Ref<Event> hold = Ref<Event>::adopt(event);
  // Signalled by a command a capture recorded: nothing will signal it until a replay
  // (core/cmdlist/graph.h: "return ZE_RESULT_ERROR_GRAPH_CAPTURE_UNSUPPORTED").
  if (event->capturedBy()) return kResultGraphCaptureUnsupported;
  if (event->pool().context().lost()) return ZE_RESULT_ERROR_DEVICE_LOST;
  const bool ready = tracedHostWait("zeEventHostSynchronize", event,
                                    [&] { return event->wait(timeout, &event->destroyed()); });
  if (event->destroyed().requested()) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ready) return ZE_RESULT_NOT_READY;
  return event->pool().context().status();
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventQueryStatus(ze_event_handle_t hEvent) {
  Event* event = Event::fromHandle(hEvent);
  if (!event) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (event->pool().context().lost()) return ZE_RESULT_ERROR_DEVICE_LOST;
  return event->isSignaled() ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventHostReset(ze_event_handle_t hEvent) {
  Event* event = Event::fromHandle(hEvent);
  if (!event) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  // "Counter-based events must not be reset, i.e., a call to zeEventHostReset or
  // zeCommandListAppendEventReset is not allowed."
  if (event->counterBased()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  event->reset();
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventQueryKernelTimestamp(ze_event_handle_t hEvent,
                                                                ze_kernel_timestamp_result_t* dstptr) {
  Event* event = Event::fromHandle(hEvent);
  if (!event) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!dstptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!event->pool().timestamps()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (!event->isSignaled()) return ZE_RESULT_NOT_READY;
  *dstptr = event->timestamps();
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventQueryTimestampsExp(ze_event_handle_t hEvent,
                                                              ze_device_handle_t hDevice,
                                                              uint32_t* pCount,
                                                              ze_kernel_timestamp_result_t* pTimestamps) {
  Event* event = Event::fromHandle(hEvent);
  if (!event || !Device::fromHandle(hDevice)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pCount) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!event->pool().timestamps()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (!event->isSignaled()) return ZE_RESULT_NOT_READY;
  // One timestamp: a command runs on one device, never split across sub-devices.
  return tessera::ze::countQuery(pCount, pTimestamps, 1,
                                 [&](uint32_t, ze_kernel_timestamp_result_t& out) {
                                   out = event->timestamps();
                                 });
}

// ZE_extension_event_query_kernel_timestamps (tessera/ze_tessera.h). "For collecting *only* kernel
// timestamps, the application must ensure the event was created from an event pool that was created
// using ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP flag. For collecting synchronized timestamps, the
// application must ensure the event was created from an event pool that was created using
// ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP flag. Kernel timestamps are also available from this
// type of event pool": an event of neither pool, or synchronized timestamps asked of a pool that is
// not mapped, is INVALID_ARGUMENT (as zeEventQueryKernelTimestamp answers an event without
// timestamps). "The destination memory will be unmodified if the event has not been signaled":
// NOT_READY then, as zeEventQueryKernelTimestamp. One packet ("if *pCount is zero, then the driver
// shall update the value with the total number of event packets available"): a command runs on one
// device, never split across sub-devices, so any device of the driver gets the one packet. The
// synchronized timestamp is the kernel timestamp: the device timer is the host clock
// (CLOCK_MONOTONIC, nanoseconds; zeDeviceGetGlobalTimestamps reads it once for both).
ZE_APIEXPORT ze_result_t ZE_APICALL zeEventQueryKernelTimestampsExt(
    ze_event_handle_t hEvent, ze_device_handle_t hDevice, uint32_t* pCount,
    ze_event_query_kernel_timestamps_results_ext_properties_t* pResults) {
  Event* event = Event::fromHandle(hEvent);
  Device* device = Device::fromHandle(hDevice);
  if (!event || !device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pCount) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (&device->driver() != &event->pool().context().driver())
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!event->pool().timestamps()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // "[optional][range(0, *pCount)] ... This parameter may be null when *pCount is zero."
  if (*pCount == 0) {
    *pCount = 1;
    return ZE_RESULT_SUCCESS;
  }
  if (!pResults) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  tessera::ze::adoptOutputStruct(*pResults,
                                 ZE_STRUCTURE_TYPE_EVENT_QUERY_KERNEL_TIMESTAMPS_RESULTS_EXT_PROPERTIES);
  if (pResults->pSynchronizedTimestampsBuffer && !event->pool().mappedTimestamps())
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (!event->isSignaled()) return ZE_RESULT_NOT_READY;
  // "if *pCount is greater than the number of event packets available, the driver shall update the
  // value with the correct value."
  *pCount = 1;
  const ze_kernel_timestamp_result_t t = event->timestamps();
  if (pResults->pKernelTimestampsBuffer) pResults->pKernelTimestampsBuffer[0] = t;
  if (pResults->pSynchronizedTimestampsBuffer) {
    ze_synchronized_timestamp_result_ext_t& s = pResults->pSynchronizedTimestampsBuffer[0];
    s.global = {t.global.kernelStart, t.global.kernelEnd};
    s.context = {t.context.kernelStart, t.context.kernelEnd};
  }
  return ZE_RESULT_SUCCESS;
}

// Event pool IPC: the pool's pages are a memfd that the other process takes with pidfd_getfd (see
// core/common/remote_fd.h for who may).
ZE_APIEXPORT ze_result_t ZE_APICALL zeEventPoolGetIpcHandle(ze_event_pool_handle_t hEventPool,
                                                            ze_ipc_event_pool_handle_t* phIpc) {
  EventPool* pool = EventPool::fromHandle(hEventPool);
  if (!pool) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!phIpc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return pool->ipcHandle(*phIpc);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventPoolOpenIpcHandle(ze_context_handle_t hContext,
                                                             ze_ipc_event_pool_handle_t hIpc,
                                                             ze_event_pool_handle_t* phEventPool) {
  Context* context = Context::fromHandle(hContext);
  if (!context) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!phEventPool) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return guarded([&] {
    EventPool* pool = nullptr;
    ze_result_t r = EventPool::open(*context, hIpc, pool);
    if (r == ZE_RESULT_SUCCESS) *phEventPool = pool->toHandle();
    return r;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventPoolCloseIpcHandle(ze_event_pool_handle_t hEventPool) {
  EventPool* pool = EventPool::fromHandle(hEventPool);
  if (!pool) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pool->opened()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;  // created here: destroy it
  return pool->destroy();
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventPoolPutIpcHandle(ze_context_handle_t hContext,
                                                            ze_ipc_event_pool_handle_t hIpc) {
  if (!Context::fromHandle(hContext)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  // A handle holds nothing in the exporter beyond the pool itself, whose destruction ends every
  // handle; returning one has nothing to release.
  return ZE_RESULT_SUCCESS;
}
