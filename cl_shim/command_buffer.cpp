#include "cl_shim/command_buffer.h"

#include <algorithm>

#include "cl_shim/api_support.h"
#include "cl_shim/device.h"
#include "cl_shim/errors.h"

namespace tessera::cl {
namespace {

// The capture of this thread: set by CommandBuffer::record around the entry point it runs.
thread_local CommandBuffer* t_buffer = nullptr;
thread_local const Queue* t_queue = nullptr;

struct Capture {
  Capture(CommandBuffer* b, const Queue* q) { t_buffer = b, t_queue = q; }
  ~Capture() { t_buffer = nullptr, t_queue = nullptr; }
};

}  // namespace

CommandBuffer* capturingBuffer(const Queue& queue) {
  return t_queue == &queue ? t_buffer : nullptr;
}

CommandBuffer* CommandBuffer::create(Queue& queue,
                                     const cl_command_buffer_properties_khr* properties,
                                     cl_int& err) {
  // Every enqueue to a recordable queue is refused (cl_qcom_recordable_queues), so its commands
  // could not be recorded either: Tessera's choice of code.
  if (queue.recordable()) {
    err = CL_INCOMPATIBLE_COMMAND_QUEUE_KHR;
    return nullptr;
  }
  std::vector<cl_command_buffer_properties_khr> given;
  cl_command_buffer_flags_khr flags = 0;
  if (properties) {
    bool flagsSeen = false;
    for (const cl_command_buffer_properties_khr* p = properties; *p; p += 2) {
      // "CL_INVALID_VALUE if values specified in properties are not valid, or if the same property
      // name is specified more than once."
      if (p[0] != CL_COMMAND_BUFFER_FLAGS_KHR || flagsSeen) {
        err = CL_INVALID_VALUE;
        return nullptr;
      }
      flagsSeen = true;
      flags = p[1];
      if (flags & ~cl_command_buffer_flags_khr(CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR |
                                               CL_COMMAND_BUFFER_MUTABLE_KHR)) {
        err = CL_INVALID_VALUE;
        return nullptr;
      }
      given.push_back(p[0]);
      given.push_back(p[1]);
    }
    given.push_back(0);
  }
  // Both flags are supported by every device ("CL_INVALID_PROPERTY if values specified in
  // properties are valid but are not supported by all the devices"): never answered here.
  ze_command_list_handle_t l = newMutableList(queue.context(), queue.device(), err);
  if (!l) return nullptr;
  auto* b = new CommandBuffer;
  b->queue_ = Ref<Queue>(&queue);
  // "A command-buffer object should increment the reference count of attached OpenCL objects such
  // as queues": an API reference, so CL_COMMAND_BUFFER_QUEUES_KHR stays a valid handle.
  queue.retainApi();
  b->apiQueue_ = &queue;
  b->flags_ = flags;
  b->properties_ = std::move(given);
  b->list_ = l;
  err = CL_SUCCESS;
  return b;
}

void CommandBuffer::onApiReleased() {
  std::vector<MutableCommand*> handles;
  Queue* q = nullptr;
  {
    std::lock_guard lock(mutex_);
    handles.swap(handles_);
    q = std::exchange(apiQueue_, nullptr);
  }
  for (MutableCommand* h : handles) h->releaseApi();
  if (q) q->releaseApi();
}

CommandBuffer::~CommandBuffer() {
  // Enqueues in flight keep the commands they were appended with (the ze layer shares them).
  if (list_) zeCommandListDestroy(list_);
}

cl_int CommandBuffer::record(const Recorded& r,
                             const std::function<cl_int(cl_command_queue)>& enqueue) {
  // "CL_INVALID_COMMAND_QUEUE if command_queue is not NULL."
  if (r.queue) return CL_INVALID_COMMAND_QUEUE;
  std::lock_guard lock(mutex_);
  // "CL_INVALID_OPERATION if command_buffer has been finalized."
  if (finalized_) return CL_INVALID_OPERATION;
  // "CL_INVALID_VALUE if mutable_handle is not NULL" (cl_khr_command_buffer_mutable_dispatch
  // gives clCommandNDRangeKernelKHR's a use).
  if (r.mutableHandle && !r.launch) return CL_INVALID_VALUE;
  // "CL_INVALID_SYNC_POINT_WAIT_LIST_KHR if sync_point_wait_list is NULL and
  // num_sync_points_in_wait_list is > 0, or sync_point_wait_list is not NULL and
  // num_sync_points_in_wait_list is 0, or if synchronization-point objects in
  // sync_point_wait_list are not valid synchronization-points."
  if ((r.numSyncs == 0) != (r.syncs == nullptr)) return CL_INVALID_SYNC_POINT_WAIT_LIST_KHR;
  for (cl_uint i = 0; i < r.numSyncs; ++i)
    if (r.syncs[i] == 0 || r.syncs[i] >= nextSync_) return CL_INVALID_SYNC_POINT_WAIT_LIST_KHR;
  current_ = &r;
  taken_ = false;
  cl_int err;
  {
    Capture capture(this, queue_.get());
    err = enqueue(apiQueue_->handle());
  }
  current_ = nullptr;
  if (err != CL_SUCCESS) return err;
  // "sync_point returns a synchronization-point ID that identifies this particular command."
  cl_sync_point_khr sp = nextSync_++;
  if (r.syncOut) *r.syncOut = sp;
  return CL_SUCCESS;
}

namespace {

// The commands of one buffer run in the order they were recorded (a queue runs its commands one
// after another), so every sync point a command names is behind it already; the barrier says so
// to Level Zero, which does not promise order within a list.
cl_int barrierFor(ze_command_list_handle_t l, cl_uint numSyncs) {
  if (!numSyncs) return CL_SUCCESS;
  ze_result_t r = zeCommandListAppendBarrier(l, nullptr, 0, nullptr);
  return r == ZE_RESULT_SUCCESS ? CL_SUCCESS : fromZe(r);
}

}  // namespace

cl_int CommandBuffer::take(const Queue::Append& append, RefCounted* const* holds, size_t numHolds) {
  if (!current_ || taken_) return CL_INVALID_OPERATION;  // one command per clCommand*KHR
  if (cl_int err = barrierFor(list_, current_->numSyncs); err != CL_SUCCESS) return err;
  if (ze_result_t r = append(list_, nullptr, 0, nullptr); r != ZE_RESULT_SUCCESS) return fromZe(r);
  for (size_t i = 0; i < numHolds; ++i)
    if (holds[i]) holds_.emplace_back(holds[i]);
  taken_ = true;
  return CL_SUCCESS;
}

cl_int CommandBuffer::takeLaunch(Kernel& kernel, Kernel::PerDevice& z, const LaunchShape& shape) {
  if (!current_ || taken_) return CL_INVALID_OPERATION;
  MutableLaunch d;
  uint64_t id = kNoLaunch;
  if (shape.empty) {
    // A range without work-items is no launch in the list; its handle keeps the values for the
    // queries, and updates can give it no work-group ("CL_INVALID_OPERATION if values of
    // local_work_size and/or global_work_size result in an increase to the number of
    // work-groups").
    d.kernel = Ref<Kernel>(&kernel);
    d.shape = shape;
    d.args = kernel.args();
  } else {
    if (cl_int err = barrierFor(list_, current_->numSyncs); err != CL_SUCCESS) return err;
    if (cl_int err = appendMutableLaunch(list_, queue_->device(), kernel, z, shape, d, id);
        err != CL_SUCCESS)
      return err;
  }
  MutableCommand* h = nullptr;
  if (current_->mutableHandle) {
    h = new MutableCommand;
    h->buffer_ = this;
    h->launch = launches_.size();
    h->fields = current_->fields;
    h->recordedGroups = groupCount(shape);
    h->recordedUniform = uniformGroups(shape);
    if (current_->properties) {
      for (auto* p = current_->properties; *p; p += 2)
        h->properties.insert(h->properties.end(), p, p + 2);
      h->properties.push_back(0);
    }
    handles_.push_back(h);
  }
  launches_.push_back(std::move(d));
  ids_.push_back(id);
  if (h) *current_->mutableHandle = h->handle();
  taken_ = true;
  return CL_SUCCESS;
}

cl_int CommandBuffer::finalize() {
  std::lock_guard lock(mutex_);
  // "CL_INVALID_OPERATION if command_buffer is not in the Recording state."
  if (finalized_) return CL_INVALID_OPERATION;
  if (ze_result_t r = zeCommandListClose(list_); r != ZE_RESULT_SUCCESS) return fromZe(r);
  finalized_ = true;
  return CL_SUCCESS;
}

bool CommandBuffer::pending() {
  inflight_.erase(std::remove_if(inflight_.begin(), inflight_.end(),
                                 [](const Ref<Event>& e) { return e->isComplete(); }),
                  inflight_.end());
  return !inflight_.empty();
}

cl_int CommandBuffer::enqueue(cl_uint numQueues, cl_command_queue* queues, cl_uint numWaits,
                              const cl_event* waitList, cl_event* event) {
  std::lock_guard lock(mutex_);
  // "CL_INVALID_OPERATION if command_buffer has not been finalized."
  if (!finalized_) return CL_INVALID_OPERATION;
  // "CL_INVALID_OPERATION if command_buffer was not created with the
  // CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR flag and is in the Pending state."
  // (pending() also forgets the enqueues that completed.)
  if (pending() && !(flags_ & CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR)) return CL_INVALID_OPERATION;
  // "CL_INVALID_VALUE if queues is NULL and num_queues is > 0, or queues is not NULL and
  // num_queues is 0." / "if num_queues is > 0 and not the same value as num_queues set on
  // command_buffer creation."
  if ((queues == nullptr) != (numQueues == 0) || numQueues > 1) return CL_INVALID_VALUE;
  Queue* q = queue_.get();
  if (queues) {
    // "CL_INVALID_COMMAND_QUEUE if any element of queues is not a valid command-queue."
    q = Queue::from(queues[0]);
    if (!q) return CL_INVALID_COMMAND_QUEUE;
    // "CL_INVALID_CONTEXT if any element of queues does not have the same context as the
    // command-queue set on command_buffer creation at the same list index."
    if (&q->context() != &queue_->context()) return CL_INVALID_CONTEXT;
    // "CL_INCOMPATIBLE_COMMAND_QUEUE_KHR if any element of queues is not compatible with the
    // command-queue set on command_buffer creation at the same list index": "a command-queue
    // with identical properties targeting the same device and in the same OpenCL context".
    if (&q->device() != &queue_->device() || q->properties() != queue_->properties())
      return CL_INCOMPATIBLE_COMMAND_QUEUE_KHR;
  }
  // The wait list's codes (CL_INVALID_EVENT_WAIT_LIST, CL_INVALID_CONTEXT) come from the queue.
  cl_event e = nullptr;
  cl_int err = enqueueList(*q, list_, CL_COMMAND_COMMAND_BUFFER_KHR, numWaits, waitList, &e, this);
  if (err != CL_SUCCESS) return err;
  Event* ev = Event::from(e);
  inflight_.emplace_back(ev);
  if (event)
    *event = e;
  else
    ev->releaseApi();
  return CL_SUCCESS;
}

cl_int CommandBuffer::info(cl_command_buffer_info_khr param, size_t size, void* value,
                           size_t* sizeRet) {
  InfoWriter out(size, value, sizeRet);
  std::lock_guard lock(mutex_);
  switch (param) {
    case CL_COMMAND_BUFFER_NUM_QUEUES_KHR:
      return out.scalar<cl_uint>(1);
    case CL_COMMAND_BUFFER_QUEUES_KHR:
      return out.scalar<cl_command_queue>(queue_->handle());
    case CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR:
      return out.scalar<cl_uint>(apiRefs());
    case CL_COMMAND_BUFFER_STATE_KHR:
      return out.scalar<cl_command_buffer_state_khr>(
          !finalized_ ? CL_COMMAND_BUFFER_STATE_RECORDING_KHR
          : pending() ? CL_COMMAND_BUFFER_STATE_PENDING_KHR
                      : CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR);
    // "If the properties argument specified in clCreateCommandBufferKHR used to create
    // command_buffer was NULL, the implementation may return either a param_value_size_ret of 0
    // ... or ... a property value of 0": the first.
    case CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR:
      return out.array(properties_);
    default:
      return CL_INVALID_VALUE;
  }
}

}  // namespace tessera::cl
