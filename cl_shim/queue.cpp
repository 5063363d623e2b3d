#include "cl_shim/queue.h"

#include <algorithm>
#include <cstdlib>

#include "cl_shim/api_support.h"
#include "cl_shim/command_buffer.h"
#include "cl_shim/device.h"
#include "cl_shim/errors.h"
#include "cl_shim/platform.h"

namespace tessera::cl {
namespace {

// cl_intel_device_partition_by_names: "An attempt to create a command queue on a sub-device which
// overlaps with a sub-device for which a command queue already exists will fail with
// CL_OUT_OF_RESOURCES." Applied when either device was made by names.
// Never destroyed: clEnqueueSVMFree's detached thread can release the last queue reference after
// exit-time static destruction began (ASan: heap-use-after-free in unclaimDevice at exit).
std::mutex& g_queueDevicesMutex = *new std::mutex;
std::vector<Device*>& g_queueDevices = *new std::vector<Device*>;  // devices with a live queue

bool claimDevice(Device& d) {
  std::lock_guard lock(g_queueDevicesMutex);
  for (Device* other : g_queueDevices)
    if (other != &d && (d.style().intelNames || other->style().intelNames) && d.overlaps(*other))
      return false;
  if (d.liveQueues++ == 0) g_queueDevices.push_back(&d);
  return true;
}

void unclaimDevice(Device& d) {
  std::lock_guard lock(g_queueDevicesMutex);
  if (--d.liveQueues == 0)
    g_queueDevices.erase(std::remove(g_queueDevices.begin(), g_queueDevices.end(), &d),
                         g_queueDevices.end());
}

}  // namespace

cl_int checkWaitList(const Context& context, cl_uint n, const cl_event* list,
                     std::vector<ze_event_handle_t>* zeEvents) {
  if (!waitListShapeOk(n, list)) return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < n; ++i) {
    Event* e = Event::from(list[i]);
    if (!e) return CL_INVALID_EVENT_WAIT_LIST;
    if (&e->context() != &context) return CL_INVALID_CONTEXT;
    if (zeEvents) zeEvents->push_back(e->ze());
  }
  return CL_SUCCESS;
}

Queue* Queue::create(Context& context, Device& device, cl_command_queue_properties properties,
                     std::vector<cl_queue_properties> array, cl_int& err) {
  // cl_ext_device_fission: "CL_INVALID_DEVICE if the device or one of its ancestors was not used
  // to create the context".
  if (!context.allows(&device)) { err = CL_INVALID_DEVICE; return nullptr; }
  const cl_command_queue_properties known = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                            CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE |
                                            CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_RECORDABLE_QCOM;
  if (properties & ~known) { err = CL_INVALID_VALUE; return nullptr; }
  // cl_qcom_recordable_queues: "CL_QUEUE_RECORDABLE_QCOM may not be combined with
  // CL_QUEUE_PROFILING_ENABLE, CL_QUEUE_ON_DEVICE, or CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE."
  if ((properties & CL_QUEUE_RECORDABLE_QCOM) &&
      (properties & (CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT |
                     CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))) {
    err = CL_INVALID_QUEUE_PROPERTIES;
    return nullptr;
  }
  // "CL_INVALID_QUEUE_PROPERTIES if values specified in properties are valid but are not supported
  // by the device."
  if (properties & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT)) {
    err = CL_INVALID_QUEUE_PROPERTIES;
    return nullptr;
  }
  if (!claimDevice(device)) { err = CL_OUT_OF_RESOURCES; return nullptr; }
  ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  desc.ordinal = 0;  // the compute group
  desc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
  ze_command_list_handle_t list = nullptr;
  ze_result_t r = zeCommandListCreateImmediate(context.ze(), device.ze(), &desc, &list);
  if (r != ZE_RESULT_SUCCESS) {
    unclaimDevice(device);
    err = fromZe(r);
    return nullptr;
  }
  auto* q = new Queue;
  q->context_ = Ref<Context>(&context);
  q->device_ = Ref<Device>(&device);
  q->properties_ = properties;
  q->array_ = std::move(array);
  q->list_ = list;
  err = CL_SUCCESS;
  return q;
}

Queue::~Queue() {
  if (list_) zeCommandListDestroy(list_);
  unclaimDevice(*device_);
}

void Queue::onApiReleased() {
  // "clReleaseCommandQueue performs an implicit flush"; the queue is deleted once its commands
  // have completed. Waiting here breaks the queue <-> in-flight (and spare) event references.
  finish();
  std::vector<Event*> spare;
  {
    std::lock_guard lock(mutex_);
    for (auto& e : inflight_) e->releaseHolds();
    inflight_.clear();
    apiReleased_ = true;
    spare.swap(spare_);
  }
  for (Event* e : spare) e->releaseApi();
}

void Queue::reapLocked() {
  while (!inflight_.empty() && inflight_.front()->isComplete()) {
    Event* e = inflight_.front().get();
    e->releaseHolds();
    if (e->isInternal() && !apiReleased_) spare_.push_back(e);
    inflight_.pop_front();
  }
}

Event* Queue::internalEvent(cl_command_type type) {
  const bool reuse = device_->platform().settings().eventReuse;  // TESSERA_CL_EVENT_REUSE
  {
    std::lock_guard lock(mutex_);
    if (!spare_.empty()) {
      Event* e = spare_.back();
      spare_.pop_back();
      e->reuse(type);
      return e;
    }
  }
  auto* e = new Event(*context_, this, type);
  if (reuse) e->markInternal();
  return e;
}

cl_int Queue::enqueue(cl_command_type type, cl_uint numWaits, const cl_event* waitList,
                      cl_event* out, const Append& append, std::initializer_list<RefCounted*> holds,
                      bool blocking) {
  return enqueue(type, numWaits, waitList, out, append, holds.begin(), holds.size(), blocking);
}

cl_int Queue::enqueue(cl_command_type type, cl_uint numWaits, const cl_event* waitList,
                      cl_event* out, const Append& append, const std::vector<RefCounted*>& holds,
                      bool blocking) {
  return enqueue(type, numWaits, waitList, out, append, holds.data(), holds.size(), blocking);
}

cl_int Queue::enqueue(cl_command_type type, cl_uint numWaits, const cl_event* waitList,
                      cl_event* out, const Append& append, RefCounted* const* holds,
                      size_t numHolds, bool blocking) {
  // cl_khr_command_buffer: a clCommand*KHR running the enqueue entry point whose checks it shares
  // (command_buffer.h): the command goes into the command buffer's list instead.
  if (CommandBuffer* b = capturingBuffer(*this)) return b->take(append, holds, numHolds);
  // cl_qcom_recordable_queues: "Only clEnqueueNDRangeKernel may be recorded. All other API
  // enqueues to a recordable queue will return CL_INVALID_OPERATION." (NDRanges record through
  // recordLaunch, never through here.)
  if (recordable()) return CL_INVALID_OPERATION;
  std::vector<ze_event_handle_t> waits;
  if (cl_int err = checkWaitList(*context_, numWaits, waitList, &waits); err != CL_SUCCESS)
    return err;
  std::vector<Ref<Event>> waited;
  waited.reserve(numWaits);
  for (cl_uint i = 0; i < numWaits; ++i) waited.emplace_back(Event::from(waitList[i]));
  // A blocking command's event is waited for after the lock is let go, so it must not be reused
  // meanwhile: only non-blocking commands without an application event take internal ones.
  Event* event = out || blocking ? new Event(*context_, this, type) : internalEvent(type);
  // The command also holds the events it waits for: an event released by the application (its
  // Level Zero event then reset and reused) while the command still waits on it would never
  // signal again.
  event->hold(holds, numHolds, waited);
  event->dependOn(waited);
  {
    std::lock_guard lock(mutex_);
    // Submitted the moment it is appended: the device may start (and finish) it before the append
    // returns, so the time is taken first.
    event->markSubmitted(profiling());
    ze_result_t r = append(list_, event->ze(), uint32_t(waits.size()), waits.data());
    if (r != ZE_RESULT_SUCCESS) {
      event->releaseHolds();
      if (event->isInternal()) {
        // Signalled, as a reused event always is until its next command: a finish() that took
        // it as the last command waits for nothing.
        zeEventHostSignal(event->ze());
        spare_.push_back(event);
      } else {
        event->releaseApi();
      }
      return fromZe(r);
    }
    inflight_.emplace_back(event);
    reapLocked();
  }
  cl_int result = CL_SUCCESS;
  if (blocking) {
    const cl_int own = event->wait();
    // "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the read and write operations are blocking
    // and the execution status of any of the events in event_wait_list is a negative integer".
    for (auto& w : waited)
      if (w->status() < 0) result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    // The command itself did not complete: its own work faulted, or it was appended before a
    // kernel of this context faulted and then never ran (docs/reliability.md, "Faults"). A
    // blocking read must not return CL_SUCCESS over a buffer nothing was read into. Lost
    // contexts report as CL_OUT_OF_RESOURCES: "if there is a failure to allocate resources
    // required by the OpenCL implementation on the device".
    if (result == CL_SUCCESS && own < 0) result = CL_OUT_OF_RESOURCES;
    reap();
  }
  if (out)
    *out = event->handle();
  else if (!event->isInternal())
    event->releaseApi();
  return result;
}

cl_int Queue::enqueueRelease(cl_command_type type, cl_uint numWaits, const cl_event* waitList,
                             cl_event* out, const Append& append,
                             std::initializer_list<RefCounted*> holds) {
  cl_int err = enqueue(type, numWaits, waitList, out, append, holds);
  if (err != CL_OUT_OF_RESOURCES || !lost()) return err;
  // The context is lost: the command cannot be appended, but what it gives back is given back
  // (the caller releases it on the host). Its event, when asked for, is complete and reports the
  // lost context like every event of that context (CL_OUT_OF_RESOURCES).
  if (out) {
    auto* event = new Event(*context_, this, type);
    event->markSubmitted(profiling());
    zeEventHostSignal(event->ze());
    *out = event->handle();
  }
  return CL_SUCCESS;
}

bool Queue::lost() const {
  return zeContextGetStatus(context_->ze()) == ZE_RESULT_ERROR_DEVICE_LOST;
}

void Queue::reap() {
  std::lock_guard lock(mutex_);
  reapLocked();
}

cl_int Queue::finish() {
  Ref<Event> last;
  {
    std::lock_guard lock(mutex_);
    if (!inflight_.empty()) last = inflight_.back();
  }
  if (last) last->wait();
  reap();
  // A kernel faulted in this context (docs/reliability.md, "Faults"): the device is lost
  // to it, whether or not the faulting command was still in flight.
  return lost() ? CL_OUT_OF_RESOURCES : CL_SUCCESS;
}

cl_int Queue::info(cl_command_queue_info param, size_t size, void* value, size_t* sizeRet) {
  InfoWriter out(size, value, sizeRet);
  switch (param) {
    case CL_QUEUE_CONTEXT: return out.scalar<cl_context>(context_->handle());
    case CL_QUEUE_DEVICE: return out.scalar<cl_device_id>(device_->handle());
    case CL_QUEUE_REFERENCE_COUNT: return out.scalar<cl_uint>(apiRefs());
    case CL_QUEUE_PROPERTIES: return out.scalar(properties_);
    case CL_QUEUE_PROPERTIES_ARRAY: return out.array(array_);
    case CL_QUEUE_DEVICE_DEFAULT: return out.scalar<cl_command_queue>(nullptr);
    case CL_QUEUE_SIZE: return CL_INVALID_COMMAND_QUEUE;  // only for device queues
    default: return CL_INVALID_VALUE;
  }
}

}  // namespace tessera::cl
