// Command queue entry points, markers, barriers, flush and finish.
#include "cl_shim/api.h"
#include "cl_shim/api_support.h"
#include "cl_shim/queue.h"

namespace tessera::cl::api {
namespace {

cl_command_queue createQueue(cl_context context, cl_device_id device,
                             cl_command_queue_properties props,
                             std::vector<cl_queue_properties> array, cl_int& err) {
  Context* c = Context::from(context);
  if (!c) { err = CL_INVALID_CONTEXT; return nullptr; }
  Device* d = Device::from(device);
  if (!d) { err = CL_INVALID_DEVICE; return nullptr; }
  Queue* q = Queue::create(*c, *d, props, std::move(array), err);
  return q ? q->handle() : nullptr;
}

// Markers and barriers: in an in-order queue both wait for everything before them; with a wait
// list they wait for those events too.
cl_int barrier(cl_command_queue queue, cl_command_type type, cl_uint n, const cl_event* list,
               cl_event* event) {
  Queue* q = Queue::from(queue);
  if (!q) return CL_INVALID_COMMAND_QUEUE;
  return q->enqueue(type, n, list, event,
                    [](ze_command_list_handle_t l, ze_event_handle_t signal, uint32_t nw,
                       ze_event_handle_t* w) { return zeCommandListAppendBarrier(l, signal, nw, w); });
}

}  // namespace

cl_command_queue clCreateCommandQueue(cl_context context, cl_device_id device,
                                      cl_command_queue_properties properties,
                                      cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) {
    return createQueue(context, device, properties, {}, err);
  });
}

cl_command_queue clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                    const cl_queue_properties* properties,
                                                    cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) -> cl_command_queue {
    cl_command_queue_properties bits = 0;
    std::vector<cl_queue_properties> array;
    if (properties) {
      for (const cl_queue_properties* p = properties; *p; p += 2) {
        if (p[0] == CL_QUEUE_PROPERTIES) {
          bits = p[1];
        } else if (p[0] == CL_QUEUE_SIZE) {
          // Only for device queues, which this device does not have.
          err = CL_INVALID_QUEUE_PROPERTIES;
          return nullptr;
        } else {
          err = CL_INVALID_VALUE;
          return nullptr;
        }
        array.push_back(p[0]);
        array.push_back(p[1]);
      }
      array.push_back(0);
    }
    return createQueue(context, device, bits, std::move(array), err);
  });
}

cl_int clRetainCommandQueue(cl_command_queue queue) {
  Queue* q = Queue::from(queue);
  if (!q) return CL_INVALID_COMMAND_QUEUE;
  q->retainApi();
  return CL_SUCCESS;
}

cl_int clReleaseCommandQueue(cl_command_queue queue) {
  Queue* q = Queue::from(queue);
  if (!q) return CL_INVALID_COMMAND_QUEUE;
  return guarded([&] {
    q->releaseApi();
    return CL_SUCCESS;
  });
}

cl_int clGetCommandQueueInfo(cl_command_queue queue, cl_command_queue_info param_name,
                             size_t param_value_size, void* param_value,
                             size_t* param_value_size_ret) {
  return guarded([&] {
    Queue* q = Queue::from(queue);
    if (!q) return CL_INVALID_COMMAND_QUEUE;
    return q->info(param_name, param_value_size, param_value, param_value_size_ret);
  });
}

// Deprecated since 1.1; the property cannot be changed after creation here.
cl_int clSetCommandQueueProperty(cl_command_queue queue, cl_command_queue_properties properties,
                                 cl_bool enable, cl_command_queue_properties* old_properties) {
  Queue* q = Queue::from(queue);
  if (!q) return CL_INVALID_COMMAND_QUEUE;
  return CL_INVALID_OPERATION;
}

cl_int clFlush(cl_command_queue queue) {
  // Every command was handed to the device when it was enqueued.
  return Queue::from(queue) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

cl_int clFinish(cl_command_queue queue) {
  Queue* q = Queue::from(queue);
  if (!q) return CL_INVALID_COMMAND_QUEUE;
  return guarded([&] { return q->finish(); });
}

cl_int clEnqueueMarkerWithWaitList(cl_command_queue queue, cl_uint num_events,
                                   const cl_event* event_wait_list, cl_event* event) {
  return guarded([&] { return barrier(queue, CL_COMMAND_MARKER, num_events, event_wait_list, event); });
}

cl_int clEnqueueBarrierWithWaitList(cl_command_queue queue, cl_uint num_events,
                                    const cl_event* event_wait_list, cl_event* event) {
  return guarded([&] { return barrier(queue, CL_COMMAND_BARRIER, num_events, event_wait_list, event); });
}

cl_int clEnqueueMarker(cl_command_queue queue, cl_event* event) {
  if (!event) return Queue::from(queue) ? CL_INVALID_VALUE : CL_INVALID_COMMAND_QUEUE;
  return guarded([&] { return barrier(queue, CL_COMMAND_MARKER, 0, nullptr, event); });
}

cl_int clEnqueueBarrier(cl_command_queue queue) {
  return guarded([&] { return barrier(queue, CL_COMMAND_BARRIER, 0, nullptr, nullptr); });
}

cl_int clEnqueueWaitForEvents(cl_command_queue queue, cl_uint num_events,
                              const cl_event* event_list) {
  if (!Queue::from(queue)) return CL_INVALID_COMMAND_QUEUE;
  if (num_events == 0 || !event_list) return CL_INVALID_VALUE;
  return guarded([&] { return barrier(queue, CL_COMMAND_BARRIER, num_events, event_list, nullptr); });
}

}  // namespace tessera::cl::api
