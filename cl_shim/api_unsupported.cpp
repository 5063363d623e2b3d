// Entry points for what a Tessera device does not have: samplers (no images), native kernels and
// on-device queues. Each validates its handles first, so the error names the real problem.
#include "cl_shim/api.h"
#include "cl_shim/api_support.h"
#include "cl_shim/context.h"
#include "cl_shim/queue.h"

namespace tessera::cl::api {
namespace {

cl_sampler refuseSampler(cl_context context, cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) -> cl_sampler {
    // "CL_INVALID_CONTEXT if context is not a valid context." / "CL_INVALID_OPERATION if images
    // are not supported by any device associated with context (i.e. CL_DEVICE_IMAGE_SUPPORT
    // specified in the Device Queries table is CL_FALSE)."
    err = Context::from(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT;
    return nullptr;
  });
}

}  // namespace

cl_sampler clCreateSampler(cl_context context, cl_bool normalized_coords,
                           cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                           cl_int* errcode_ret) {
  return refuseSampler(context, errcode_ret);
}

cl_sampler clCreateSamplerWithProperties(cl_context context,
                                         const cl_sampler_properties* sampler_properties,
                                         cl_int* errcode_ret) {
  return refuseSampler(context, errcode_ret);
}

// No sampler object can exist, so every handle given here is "not a valid sampler object".
cl_int clRetainSampler(cl_sampler sampler) { return CL_INVALID_SAMPLER; }
cl_int clReleaseSampler(cl_sampler sampler) { return CL_INVALID_SAMPLER; }
cl_int clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name, size_t param_value_size,
                        void* param_value, size_t* param_value_size_ret) {
  return CL_INVALID_SAMPLER;
}

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
