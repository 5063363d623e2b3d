// clEnqueueNDRangeKernel and clEnqueueTask: an OpenCL ND-range becomes one
// zeTesseraCommandListAppendLaunchKernelShaped (ZE_tessera_launch_shape) of global / local groups
// carrying the group size, global offset and work dimension, the ze kernel's own untouched. Level
// Zero copies the arguments when the launch is appended, so the kernel's mutex covers the append,
// the one ze call of a launch under it.
#include "cl_shim/api.h"
#include "cl_shim/api_support.h"
#include "cl_shim/command_buffer.h"
#include "cl_shim/device.h"
#include "cl_shim/errors.h"
#include "cl_shim/kernel.h"
#include "cl_shim/ndrange.h"
#include "cl_shim/platform.h"
#include "cl_shim/queue.h"
#include "cl_shim/recording.h"

namespace tessera::cl::api {
namespace {

cl_int enqueueKernel(cl_command_queue queue, cl_kernel kernel, cl_uint work_dim,
                     const size_t* global_work_offset, const size_t* global_work_size,
                     const size_t* local_work_size, cl_uint num_events,
                     const cl_event* event_wait_list, cl_event* event, cl_command_type type) {
  Queue* q = Queue::from(queue);
  if (!q) return CL_INVALID_COMMAND_QUEUE;
  Kernel* k = Kernel::from(kernel);
  if (!k) return CL_INVALID_KERNEL;
  // "CL_INVALID_CONTEXT if context associated with command_queue and kernel are not the same".
  if (&q->context() != &k->program().context()) return CL_INVALID_CONTEXT;
  // "CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built program executable available
  // for device associated with command_queue." A program built for a device serves its
  // sub-devices.
  Kernel::PerDevice* z = k->forDevice(q->device());
  if (!z) return CL_INVALID_PROGRAM_EXECUTABLE;
  if (cl_int err = k->ready(*z); err != CL_SUCCESS) return err;
  // "CL_INVALID_WORK_DIMENSION if work_dim is not a valid value (i.e. a value between 1 and
  // CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS)."
  if (work_dim < 1 || work_dim > 3) return CL_INVALID_WORK_DIMENSION;
  if (!waitListShapeOk(num_events, event_wait_list)) return CL_INVALID_EVENT_WAIT_LIST;

  // The range's checks and local size, as a recording's replay checks an updated one (ndrange.h).
  const Device& dev = q->device();
  LaunchShape shape =
      LaunchShape::of(work_dim, global_work_offset, global_work_size, local_work_size);
  if (cl_int err = settleShape(shape, *k, *z, dev); err != CL_SUCCESS) return err;

  std::lock_guard lock(k->mutex());
  // "CL_INVALID_KERNEL_ARGS if the kernel argument values have not been specified."
  if (!k->allArgsSet()) return CL_INVALID_KERNEL_ARGS;

  // "CL_OUT_OF_RESOURCES if there is a failure to queue the execution instance of kernel on the
  // command-queue because of insufficient resources needed to execute the kernel. For example, the
  // explicitly specified local_work_size causes a failure to execute the kernel because of
  // insufficient resources such as registers or local memory."
  if (k->localMemoryBytes(*z) > dev.zeCompute().maxSharedLocalMemory) return CL_OUT_OF_RESOURCES;

  // cl_khr_command_buffer: clCommandNDRangeKernelKHR records the launch, checked as here, into the
  // command buffer (command_buffer.h).
  // Recorded launches become Level Zero mutable commands, whose group size updates name uniform
  // groups only: a non-uniform range is not recorded (mutable_launch.cpp, settleUpdated).
  if ((capturingBuffer(*q) || q->recordable()) && !shape.uniform())
    return CL_INVALID_WORK_GROUP_SIZE;
  if (CommandBuffer* b = capturingBuffer(*q)) return b->takeLaunch(*k, *z, shape);

  // cl_qcom_recordable_queues: "A recordable command queue may also be passed, in which case the
  // kernel will be recorded and not queued for execution."
  // Only clEnqueueNDRangeKernel records: clEnqueueTask is "other API enqueue".
  if (q->recordable() && type != CL_COMMAND_NDRANGE_KERNEL) return CL_INVALID_OPERATION;
  if (q->recordable()) return recordLaunch(*q, *k, *z, shape, num_events, event_wait_list, event);

  if (shape.empty) {
    return q->enqueue(type, num_events, event_wait_list, event,
                      [](ze_command_list_handle_t l, ze_event_handle_t signal, uint32_t n,
                         ze_event_handle_t* w) { return zeCommandListAppendBarrier(l, signal, n, w); },
                      {k, &k->program()}, false);
  }

  struct {
    ze_group_count_t groups;
    ze_tessera_launch_shape_t shape;
    ze_pfnTesseraCommandListAppendLaunchKernelShaped_t append;
  } launch{shape.groups(), zeShape(shape), dev.platform().ext().appendLaunchShaped};
  ze_kernel_handle_t zk = z->ze;
  // The held objects, in storage this thread keeps across launches (enqueue copies them into the
  // event before it returns).
  thread_local std::vector<RefCounted*> holds;
  // An argument's buffer released since clSetKernelArg: the argument has no value any more.
  if (!k->launchHolds(holds)) return CL_INVALID_KERNEL_ARGS;
  // Two words of captures fit in std::function's own storage: no allocation per launch (the
  // append runs before enqueue returns, while `launch` lives).
  cl_int err = q->enqueue(
      type, num_events, event_wait_list, event,
      [zk, at = &launch](ze_command_list_handle_t l, ze_event_handle_t signal, uint32_t n,
                         ze_event_handle_t* w) {
        return at->append(l, zk, &at->groups, &at->shape, signal, n, w);
      },
      holds, false);
  // The append refuses a kernel whose private memory exceeds the device's limit with
  // OUT_OF_DEVICE_MEMORY; no buffer is allocated here. "CL_OUT_OF_RESOURCES if there is a failure
  // to queue the execution instance of kernel on the command-queue because of insufficient
  // resources needed to execute the kernel."
  return err == CL_MEM_OBJECT_ALLOCATION_FAILURE ? CL_OUT_OF_RESOURCES : err;
}

}  // namespace

cl_int clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                              const size_t* global_work_offset, const size_t* global_work_size,
                              const size_t* local_work_size, cl_uint num_events_in_wait_list,
                              const cl_event* event_wait_list, cl_event* event) {
  return guarded([&] {
    return enqueueKernel(command_queue, kernel, work_dim, global_work_offset, global_work_size,
                         local_work_size, num_events_in_wait_list, event_wait_list, event,
                         CL_COMMAND_NDRANGE_KERNEL);
  });
}

cl_int clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                     cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                     cl_event* event) {
  // "equivalent to calling clEnqueueNDRangeKernel with work_dim set to 1, global_work_offset set
  // to NULL, global_work_size[0] set to 1, and local_work_size[0] set to 1."
  const size_t one = 1;
  return guarded([&] {
    return enqueueKernel(command_queue, kernel, 1, nullptr, &one, &one, num_events_in_wait_list,
                         event_wait_list, event, CL_COMMAND_TASK);
  });
}

}  // namespace tessera::cl::api
