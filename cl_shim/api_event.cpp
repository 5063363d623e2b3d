// Event entry points: waits, user events, callbacks, profiling.
#include "cl_shim/api.h"
#include "cl_shim/api_support.h"
#include "cl_shim/event.h"
#include "cl_shim/queue.h"

namespace tessera::cl::api {

cl_int clWaitForEvents(cl_uint num_events, const cl_event* event_list) {
  if (num_events == 0 || !event_list) return CL_INVALID_VALUE;
  return guarded([&] {
    std::vector<Ref<Event>> events;
    for (cl_uint i = 0; i < num_events; ++i) {
      Event* e = Event::from(event_list[i]);
      if (!e) return CL_INVALID_EVENT;
      // "CL_INVALID_CONTEXT if events specified in event_list do not belong to the same context."
      if (i > 0 && &e->context() != &events[0]->context()) return CL_INVALID_CONTEXT;
      events.emplace_back(e);
    }
    cl_int result = CL_SUCCESS;
    for (auto& e : events)
      if (e->wait() < 0) result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    for (auto& e : events)
      if (Queue* q = e->queue()) q->reap();
    return result;
  });
}

cl_int clGetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size,
                      void* param_value, size_t* param_value_size_ret) {
  return guarded([&] {
    Event* e = Event::from(event);
    if (!e) return CL_INVALID_EVENT;
    return e->info(param_name, param_value_size, param_value, param_value_size_ret);
  });
}

cl_int clRetainEvent(cl_event event) {
  Event* e = Event::from(event);
  if (!e) return CL_INVALID_EVENT;
  e->retainApi();
  return CL_SUCCESS;
}

cl_int clReleaseEvent(cl_event event) {
  Event* e = Event::from(event);
  if (!e) return CL_INVALID_EVENT;
  e->releaseApi();
  return CL_SUCCESS;
}

cl_int clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name,
                               size_t param_value_size, void* param_value,
                               size_t* param_value_size_ret) {
  return guarded([&] {
    Event* e = Event::from(event);
    if (!e) return CL_INVALID_EVENT;
    return e->profilingInfo(param_name, param_value_size, param_value, param_value_size_ret);
  });
}

cl_event clCreateUserEvent(cl_context context, cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) -> cl_event {
    Context* c = Context::from(context);
    if (!c) { err = CL_INVALID_CONTEXT; return nullptr; }
    return (new Event(*c, nullptr, CL_COMMAND_USER))->handle();
  });
}

cl_int clSetUserEventStatus(cl_event event, cl_int execution_status) {
  Event* e = Event::from(event);
  if (!e || e->queue()) return CL_INVALID_EVENT;
  // "CL_INVALID_VALUE if the execution_status is not CL_COMPLETE or a negative integer value."
  if (execution_status > CL_COMPLETE) return CL_INVALID_VALUE;
  return guarded([&] { return e->setUserStatus(execution_status); });
}

cl_int clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                          EventNotify pfn_notify, void* user_data) {
  Event* e = Event::from(event);
  if (!e) return CL_INVALID_EVENT;
  // "CL_INVALID_VALUE if pfn_event_notify is NULL or if command_exec_callback_type is not
  // CL_SUBMITTED, CL_RUNNING, or CL_COMPLETE."
  if (!pfn_notify || (command_exec_callback_type != CL_SUBMITTED &&
                      command_exec_callback_type != CL_RUNNING &&
                      command_exec_callback_type != CL_COMPLETE))
    return CL_INVALID_VALUE;
  return guarded([&] { return e->addCallback(command_exec_callback_type, pfn_notify, user_data); });
}

}  // namespace tessera::cl::api
