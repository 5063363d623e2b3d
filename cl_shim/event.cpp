#include "cl_shim/event.h"

#include <time.h>

#include <thread>
#include <utility>

#include "cl_shim/api_support.h"
#include "cl_shim/queue.h"
#include "cl_shim/waiters.h"

namespace tessera::cl {

uint64_t hostNowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);  // the Tessera device timer is CLOCK_MONOTONIC too
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

Event::Event(Context& context, Queue* queue, cl_command_type type)
    : context_(&context), queue_(queue), queueRef_(queue), type_(type),
      timed_(!queue || queue->profiling()), ze_(context.takeEvent(timed_)) {
  // Only profiling reads the time (a clock read per enqueue otherwise).
  if (queue && queue->profiling()) queuedNs_ = hostNowNs();
}

Event::~Event() {
  context_->giveEvent(ze_, timed_);
}

void Event::reuse(cl_command_type type) {
  zeEventHostReset(ze_);
  userDeps_.clear();
  type_ = type;
  profiling_ = false;
  submitNs_ = 0;
  queuedNs_ = queue_ && queue_->profiling() ? hostNowNs() : 0;
}

void Event::markSubmitted(bool profiling) {
  profiling_ = profiling;
  submitNs_ = profiling ? hostNowNs() : queuedNs_;
}

cl_int Event::status() const {
  if (!queue_) {
    cl_int s = userStatus_.load(std::memory_order_acquire);
    return s;
  }
  ze_result_t r = zeEventQueryStatus(ze_);
  // A kernel faulted in the context (docs/reliability.md, "Faults"): a negative status.
  if (r == ZE_RESULT_ERROR_DEVICE_LOST) return CL_OUT_OF_RESOURCES;
  if (r != ZE_RESULT_SUCCESS) return CL_SUBMITTED;
  // Terminated by a user event that failed (dependOn).
  for (const Ref<Event>& u : userDeps_)
    if (u->status() < 0) return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  return CL_COMPLETE;
}

void Event::dependOn(const std::vector<Ref<Event>>& waited) {
  userDeps_.clear();
  auto add = [&](Event* u) {
    if (u->status() == CL_COMPLETE) return;  // succeeded: nothing to inherit
    for (const Ref<Event>& have : userDeps_)
      if (have.get() == u) return;
    userDeps_.emplace_back(u);
  };
  for (const Ref<Event>& w : waited) {
    if (!w->queue()) {
      add(w.get());
    } else {
      for (const Ref<Event>& u : w->userDeps_) add(u.get());
    }
  }
}

namespace {
// Set while this thread calls an event's callbacks.
thread_local bool t_inCallback = false;
}  // namespace

cl_int Event::wait() {
  zeEventHostSynchronize(ze_, UINT64_MAX);
  cl_int s = status();
  // The callbacks of the status reached have run when a wait returns (the OpenCL-CTS checks a
  // CL_COMPLETE callback's effect right after clWaitForEvents): whichever thread takes them first
  // calls them, and this one waits until those calls returned. Not inside a callback ("The
  // behavior of calling ... blocking OpenCL operations ... in a callback is undefined"), where it
  // could wait for itself.
  runCallbacks(s);
  if (!t_inCallback)
    while (callbacksRunning_.load(std::memory_order_acquire) != 0) std::this_thread::yield();
  return s;
}

void Event::hold(RefCounted* object) {
  std::lock_guard lock(mutex_);
  holds_.emplace_back(object);
}

void Event::hold(RefCounted* const* objects, size_t n, const std::vector<Ref<Event>>& events) {
  std::lock_guard lock(mutex_);
  holds_.reserve(holds_.size() + n + events.size());
  for (size_t i = 0; i < n; ++i)
    if (objects[i]) holds_.emplace_back(objects[i]);
  for (const Ref<Event>& e : events) holds_.emplace_back(e.get());
}

void Event::releaseHolds() {
  // Released outside the lock (a release may run destructor callbacks), then the storage comes
  // back so a reused event holds without allocating.
  std::vector<Ref<RefCounted>> gone;
  {
    std::lock_guard lock(mutex_);
    gone.swap(holds_);
  }
  gone.clear();
  std::lock_guard lock(mutex_);
  if (holds_.capacity() == 0) holds_.swap(gone);
}

cl_int Event::setUserStatus(cl_int status) {
  // "CL_INVALID_OPERATION if the execution_status for event has already been changed by a previous
  // call to clSetUserEventStatus."
  cl_int expected = CL_SUBMITTED;
  if (!userStatus_.compare_exchange_strong(expected, status)) return CL_INVALID_OPERATION;
  // Commands waiting on a failed user event run anyway: the Level Zero event only says "done".
  zeEventHostSignal(ze_);
  runCallbacks(status);
  return CL_SUCCESS;
}

void Event::runCallbacks(cl_int status) {
  std::vector<Callback> now;
  {
    std::lock_guard lock(mutex_);
    for (auto it = pendingCallbacks_.begin(); it != pendingCallbacks_.end();) {
      // "The registered callback function will be called when the execution status of command
      // associated with event changes to an execution status equal to or past the status specified
      // by command_exec_status" (an error status is past them all).
      if (status <= it->type) {
        if (now.empty()) callbacksRunning_.fetch_add(1, std::memory_order_relaxed);
        now.push_back(*it);
        it = pendingCallbacks_.erase(it);
      } else {
        ++it;
      }
    }
  }
  if (now.empty()) return;
  bool outer = std::exchange(t_inCallback, true);
  for (const Callback& c : now) c.fn(handle(), status < 0 ? status : c.type, c.data);
  t_inCallback = outer;
  callbacksRunning_.fetch_sub(1, std::memory_order_release);
}

cl_int Event::addCallback(cl_int type, EventNotify fn, void* data) {
  {
    std::lock_guard lock(mutex_);
    pendingCallbacks_.push_back({type, fn, data});
  }
  cl_int s = status();
  if (s <= type) {
    runCallbacks(s);
    return CL_SUCCESS;
  }
  // Not there yet: a thread waits for completion and calls. User events call from
  // setUserStatus, which also signals the Level Zero event; the thread then finds nothing to do.
  // At the process's exit a waiter of an event that never completed stops without calling.
  retain();
  startWaiter([this] {
    if (!waitForEvent(ze_)) return;
    runCallbacks(status());
    release();
  });
  return CL_SUCCESS;
}

cl_int Event::info(cl_event_info param, size_t size, void* value, size_t* sizeRet) {
  InfoWriter out(size, value, sizeRet);
  switch (param) {
    case CL_EVENT_COMMAND_QUEUE:
      return out.scalar<cl_command_queue>(queue_ ? queue_->handle() : nullptr);
    case CL_EVENT_CONTEXT: return out.scalar<cl_context>(context_->handle());
    case CL_EVENT_COMMAND_TYPE: return out.scalar(type_);
    case CL_EVENT_COMMAND_EXECUTION_STATUS: return out.scalar<cl_int>(status());
    case CL_EVENT_REFERENCE_COUNT: return out.scalar<cl_uint>(apiRefs());
    default: return CL_INVALID_VALUE;
  }
}

cl_int Event::profilingInfo(cl_profiling_info param, size_t size, void* value, size_t* sizeRet) {
  // "CL_PROFILING_INFO_NOT_AVAILABLE if the CL_QUEUE_PROFILING_ENABLE flag is not set for the
  // command-queue, if the execution status of the command identified by event is not CL_COMPLETE
  // or if event is a user event object."
  if (!queue_ || !profiling_ || status() != CL_COMPLETE) return CL_PROFILING_INFO_NOT_AVAILABLE;
  InfoWriter out(size, value, sizeRet);
  if (param == CL_PROFILING_COMMAND_QUEUED) return out.scalar<cl_ulong>(queuedNs_);
  if (param == CL_PROFILING_COMMAND_SUBMIT) return out.scalar<cl_ulong>(submitNs_);
  if (param != CL_PROFILING_COMMAND_START && param != CL_PROFILING_COMMAND_END &&
      param != CL_PROFILING_COMMAND_COMPLETE)
    return CL_INVALID_VALUE;
  ze_kernel_timestamp_result_t ts{};
  if (zeEventQueryKernelTimestamp(ze_, &ts) != ZE_RESULT_SUCCESS)
    return CL_PROFILING_INFO_NOT_AVAILABLE;
  // The device timer ticks in nanoseconds of CLOCK_MONOTONIC, the clock of the host times above.
  cl_ulong start = std::max<cl_ulong>(ts.global.kernelStart, submitNs_);
  cl_ulong end = std::max<cl_ulong>(ts.global.kernelEnd, start);
  return out.scalar<cl_ulong>(param == CL_PROFILING_COMMAND_START ? start : end);
}

}  // namespace tessera::cl
