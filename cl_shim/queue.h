// A cl_command_queue: a Level Zero immediate command list (asynchronous) on the queue's device, so
// each enqueue is handed to the device at once and runs only on that device's PUs. Commands run in
// submission order, also on an out-of-order queue (which permits reordering, never requires it).
// Every command gets an Event; the queue keeps the events in flight and releases what their
// commands held once they complete.
#pragma once

#include <level_zero/ze_api.h>

#include <deque>
#include <functional>
#include <initializer_list>
#include <mutex>
#include <vector>

#include "cl_shim/context.h"
#include "cl_shim/device.h"
#include "cl_shim/event.h"
#include "cl_shim/object.h"
#include "CL/cl_ext_qcom.h"

namespace tessera::cl {

class Queue : public Object<_cl_command_queue, 0x51554531 /* "QUE1" */> {
 public:
  // properties: the bitfield; array: what clCreateCommandQueueWithProperties was given (for
  // CL_QUEUE_PROPERTIES_ARRAY), empty for clCreateCommandQueue.
  static Queue* create(Context& context, Device& device, cl_command_queue_properties properties,
                       std::vector<cl_queue_properties> array, cl_int& err);
  static Queue* from(cl_command_queue h) { return Object::from<Queue>(h); }

  Context& context() const { return *context_; }
  Device& device() const { return *device_; }
  cl_command_queue_properties properties() const { return properties_; }
  bool profiling() const { return properties_ & CL_QUEUE_PROFILING_ENABLE; }
  // cl_qcom_recordable_queues: only clEnqueueNDRangeKernel records (cl_shim/recording.h); enqueue()
  // refuses every command with CL_INVALID_OPERATION.
  bool recordable() const { return properties_ & CL_QUEUE_RECORDABLE_QCOM; }

  // Appends one command: `append(list, signal, numWaits, waits)` records it on the immediate list
  // and must signal `signal` when done. Checks the wait list (CL_INVALID_EVENT_WAIT_LIST,
  // CL_INVALID_CONTEXT), keeps `holds` alive until completion, returns the event in *out when
  // out is not null, and waits for completion when `blocking` (then
  // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if a waited-for event failed, and
  // CL_OUT_OF_RESOURCES if the command itself did not complete because its context was lost).
  using Append = std::function<ze_result_t(ze_command_list_handle_t, ze_event_handle_t, uint32_t,
                                           ze_event_handle_t*)>;
  cl_int enqueue(cl_command_type type, cl_uint numWaits, const cl_event* waitList, cl_event* out,
                 const Append& append, std::initializer_list<RefCounted*> holds = {},
                 bool blocking = false);
  // Like enqueue, with the holds given as a vector or an array (null entries are skipped).
  cl_int enqueue(cl_command_type type, cl_uint numWaits, const cl_event* waitList, cl_event* out,
                 const Append& append, const std::vector<RefCounted*>& holds, bool blocking);
  cl_int enqueue(cl_command_type type, cl_uint numWaits, const cl_event* waitList, cl_event* out,
                 const Append& append, RefCounted* const* holds, size_t numHolds, bool blocking);

  // A command that gives something back (clEnqueueUnmapMemObject, clEnqueueSVMUnmap,
  // clEnqueueSVMFree): enqueued like any other, but in a lost context (a kernel faulted in it) it
  // still succeeds, the caller releasing on the host what the command would have released, and
  // its event (when asked for) is complete with the lost context's CL_OUT_OF_RESOURCES.
  // Applications release in destructors and cleanup paths that cannot handle an error (OpenCV's
  // UMat unmap throws from ~Mat, which ends the process in std::terminate).
  cl_int enqueueRelease(cl_command_type type, cl_uint numWaits, const cl_event* waitList,
                        cl_event* out, const Append& append,
                        std::initializer_list<RefCounted*> holds = {});
  // True once a kernel, copy or fill of this queue's context faulted (docs/reliability.md).
  bool lost() const;

  cl_int finish();
  // Lets go of what the completed commands at the queue's front held (their buffers, kernels),
  // once the application has learnt they completed (a blocking command, clWaitForEvents): a
  // buffer it then releases is freed at once, not at the queue's next command, while the next
  // allocation would fault in new pages beside it.
  void reap();
  cl_int info(cl_command_queue_info param, size_t size, void* value, size_t* sizeRet);

 protected:
  ~Queue() override;
  void onApiReleased() override;

 private:
  Queue() = default;
  void reapLocked();

  Ref<Context> context_;
  Ref<Device> device_;
  cl_command_queue_properties properties_ = 0;
  std::vector<cl_queue_properties> array_;
  ze_command_list_handle_t list_ = nullptr;

  // An event for a command whose event the application did not ask for: a completed one of this
  // queue reused (its handle never left Tessera), else a new one. Locks mutex_.
  Event* internalEvent(cl_command_type type);

  std::mutex mutex_;
  std::deque<Ref<Event>> inflight_;
  // Completed internal events, kept with their Level Zero event, registry entry and hold storage
  // so a launch does not pay for them again (TESSERA_CL_EVENT_REUSE=0: always new events). Each
  // holds the queue, so they are let go when the application releases the queue.
  std::vector<Event*> spare_;
  bool apiReleased_ = false;
};

// Checks a wait list against a context: CL_INVALID_EVENT_WAIT_LIST or CL_INVALID_CONTEXT.
cl_int checkWaitList(const Context& context, cl_uint n, const cl_event* list,
                     std::vector<ze_event_handle_t>* zeEvents);

}  // namespace tessera::cl
