// Entry points for what a Tessera device does not have: native kernels and on-device queues. Each
// validates its handles first, so the error names the real problem.
#include "cl_shim/api.h"
#include "cl_shim/api_support.h"
#include "cl_shim/context.h"
#include "cl_shim/queue.h"

namespace tessera::cl::api {

cl_int clEnqueueNativeKernel(cl_command_queue command_queue, void(CL_CALLBACK* user_func)(void*),
                             void* args, size_t cb_args, cl_uint num_mem_objects,
                             const cl_mem* mem_list, const void** args_mem_loc,
                             cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                             cl_event* event) {
  if (!Queue::from(command_queue)) return CL_INVALID_COMMAND_QUEUE;
  // "CL_INVALID_OPERATION if the device associated with command_queue cannot execute the native
  // kernel." (CL_DEVICE_EXECUTION_CAPABILITIES has CL_EXEC_KERNEL only.)
  return CL_INVALID_OPERATION;
}

cl_int clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                                      cl_command_queue command_queue) {
  Context* c = Context::from(context);
  if (!c) return CL_INVALID_CONTEXT;
  Device* d = Device::from(device);
  if (!d || !c->allows(d)) return CL_INVALID_DEVICE;
  // The 3.0 backwards-compatibility table: "Returns CL_INVALID_OPERATION if device does not
  // support on-device queues" (CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES is 0), whatever
  // command_queue is: no queue given here could be a device queue.
  (void)command_queue;
  return CL_INVALID_OPERATION;
}

}  // namespace tessera::cl::api
