// A cl_event: a Level Zero event from the context's pool, the command it marks, what the command
// holds alive until it completes (buffers, kernels), profiling times and callbacks. User events
// are the same object without a queue, signalled from the host by clSetUserEventStatus.
#pragma once

#include <level_zero/ze_api.h>

#include <atomic>
#include <mutex>
#include <vector>

#include "cl_shim/context.h"
#include "cl_shim/object.h"

namespace tessera::cl {

class Queue;

using EventNotify = void(CL_CALLBACK*)(cl_event, cl_int, void*);

class Event : public Object<_cl_event, 0x45564e31 /* "EVN1" */> {
 public:
  // A command's event on `queue` (null for a user event).
  Event(Context& context, Queue* queue, cl_command_type type);
  static Event* from(cl_event h) { return Object::from<Event>(h); }

  Context& context() const { return *context_; }
  Queue* queue() const { return queue_; }
  cl_command_type type() const { return type_; }
  ze_event_handle_t ze() const { return ze_; }

  // CL_COMPLETE, CL_SUBMITTED (or CL_QUEUED for a command not yet handed over), or a negative
  // error status set on a user event.
  cl_int status() const;
  bool isComplete() const { return status() <= CL_COMPLETE; }
  // Blocks until complete and the callbacks registered for completion have returned; the event's
  // status (negative if it failed).
  cl_int wait();

  // A command's event: the user events among `waited` and those its waited commands depend on,
  // unless already complete. Called once, before the command is appended. clSetUserEventStatus:
  // "A negative integer value causes all enqueued commands that wait on this user event to be
  // terminated": such a command's status is then CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
  // once it is done (it still runs: its Level Zero wait only learns that the user event ended).
  void dependOn(const std::vector<Ref<Event>>& waited);

  // Keeps `object` alive until the command completes (released by releaseHolds()).
  void hold(RefCounted* object);
  // Holds the non-null `objects` and the `events`, with one lock and at most one allocation.
  void hold(RefCounted* const* objects, size_t n, const std::vector<Ref<Event>>& events);
  void releaseHolds();
  void markSubmitted(bool profiling);

  // Internal events (cl_shim/queue.h): never handed to the application, so their queue may reuse
  // them once complete; reuse() makes one ready for the next command (its Level Zero event reset,
  // its hold storage kept).
  bool isInternal() const { return internal_; }
  void markInternal() { internal_ = true; }
  void reuse(cl_command_type type);

  // User events.
  cl_int setUserStatus(cl_int status);

  cl_int addCallback(cl_int type, EventNotify fn, void* data);
  cl_int info(cl_event_info param, size_t size, void* value, size_t* sizeRet);
  cl_int profilingInfo(cl_profiling_info param, size_t size, void* value, size_t* sizeRet);

 protected:
  ~Event() override;

 private:
  void runCallbacks(cl_int status);

  Ref<Context> context_;
  Queue* queue_;          // the queue holds no reference to us after completion; we hold it
  Ref<RefCounted> queueRef_;
  cl_command_type type_;
  bool timed_;  // the Level Zero event records kernel timestamps (profiling queues, user events)
  ze_event_handle_t ze_;
  std::atomic<cl_int> userStatus_{CL_SUBMITTED};
  bool profiling_ = false;
  bool internal_ = false;
  uint64_t queuedNs_ = 0, submitNs_ = 0;

  // The user events this command depends on (dependOn); set before the command is appended,
  // read-only afterwards.
  std::vector<Ref<Event>> userDeps_;

  std::mutex mutex_;
  std::vector<Ref<RefCounted>> holds_;
  struct Callback { cl_int type; EventNotify fn; void* data; };
  std::vector<Callback> pendingCallbacks_;
  // Callbacks taken from pendingCallbacks_ (under mutex_) and not yet returned.
  std::atomic<int> callbacksRunning_{0};
};

uint64_t hostNowNs();

}  // namespace tessera::cl
