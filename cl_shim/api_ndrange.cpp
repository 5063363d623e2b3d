// clEnqueueNDRangeKernel and clEnqueueTask: an OpenCL ND-range becomes one
// zeCommandListAppendLaunchKernel of global / local groups, with the global offset set through
// zeKernelSetGlobalOffsetExp and the work dimension through zeTesseraKernelSetWorkDim. Level Zero
// snapshots arguments, group size, offset and work dimension when the launch is appended, so the
// kernel's mutex covers only setting them and appending.
#include <cstdint>
#include <limits>

#include "cl_shim/api.h"
#include "cl_shim/api_support.h"
#include "cl_shim/device.h"
#include "cl_shim/errors.h"
#include "cl_shim/kernel.h"
#include "cl_shim/platform.h"
#include "cl_shim/queue.h"
#include "cl_shim/recording.h"

namespace tessera::cl::api {
namespace {

// The largest divisor of n that is at most cap (n >= 1).
size_t largestDivisor(size_t n, size_t cap) {
  if (cap >= n) return n;
  for (size_t d = cap; d > 1; --d)
    if (n % d == 0) return d;
  return 1;
}

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
  // "CL_INVALID_WORK_DIMENSION if work_dim is not a valid value (i.e. a value between 1 and
  // CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS)."
  if (work_dim < 1 || work_dim > 3) return CL_INVALID_WORK_DIMENSION;
  if (!waitListShapeOk(num_events, event_wait_list)) return CL_INVALID_EVENT_WAIT_LIST;

  size_t global[3] = {1, 1, 1}, offset[3] = {0, 0, 0}, local[3] = {1, 1, 1};
  // "CL_INVALID_GLOBAL_WORK_SIZE if global_work_size is NULL or if any of the values specified in
  // global_work_size[0], ... global_work_size[work_dim - 1] are 0. Returning this error code under
  // these circumstances is deprecated by version 2.1." This is a 3.0 device: such a launch runs
  // nothing and completes once its wait list has.
  bool empty = global_work_size == nullptr;
  for (cl_uint d = 0; d < work_dim; ++d) {
    if (global_work_size) global[d] = global_work_size[d];
    if (global[d] == 0) empty = true;
    if (global_work_offset) offset[d] = global_work_offset[d];
    // "CL_INVALID_GLOBAL_OFFSET if the value specified in global_work_size + the corresponding
    // values in global_work_offset for any dimensions is greater than the maximum value
    // representable by size t on the device": Level Zero's offsets are 32-bit, so this device's
    // global ids end at 2^32 too.
    if (offset[d] > std::numeric_limits<uint32_t>::max() ||
        (!empty && global[d] > std::numeric_limits<size_t>::max() - offset[d]))
      return CL_INVALID_GLOBAL_OFFSET;
  }

  const Device& dev = q->device();
  const ze_device_compute_properties_t& cp = dev.zeCompute();
  const uint32_t maxItems[3] = {cp.maxGroupSizeX, cp.maxGroupSizeY, cp.maxGroupSizeZ};
  const size_t maxTotal = k->maxWorkGroupSize(dev);
  const auto& reqd = k->reflection().requiredSize;

  std::lock_guard lock(k->mutex());
  // "CL_INVALID_KERNEL_ARGS if the kernel argument values have not been specified."
  if (!k->allArgsSet()) return CL_INVALID_KERNEL_ARGS;

  if (local_work_size) {
    size_t total = 1;
    for (cl_uint d = 0; d < work_dim; ++d) {
      local[d] = local_work_size[d];
      if (local[d] == 0) return CL_INVALID_WORK_GROUP_SIZE;
      // "CL_INVALID_WORK_ITEM_SIZE if the number of work-items specified in any of
      // local_work_size[0], ... local_work_size[work_dim - 1] is greater than the corresponding
      // values specified by CL_DEVICE_MAX_WORK_ITEM_SIZES[0], ...".
      if (local[d] > maxItems[d]) return CL_INVALID_WORK_ITEM_SIZE;
      total *= local[d];
      // "CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and the number of work-items
      // specified by global_work_size is not evenly divisible by the size of work-group given by
      // local_work_size" (CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT is CL_FALSE).
      if (!empty && global[d] % local[d] != 0) return CL_INVALID_WORK_GROUP_SIZE;
    }
    // "... or if the total number of work-items in the work-group computed as local_work_size[0] *
    // ... local_work_size[work_dim - 1] is greater than the value specified by
    // CL_KERNEL_WORK_GROUP_SIZE in the table of OpenCL Device Queries for clGetKernelWorkGroupInfo."
    if (total > maxTotal) return CL_INVALID_WORK_GROUP_SIZE;
    // "CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and does not match the required
    // work-group size for kernel in the program source."
    if (reqd)
      for (int d = 0; d < 3; ++d)
        if (local[d] != reqd->size[d]) return CL_INVALID_WORK_GROUP_SIZE;
  } else if (reqd) {
    // No local size but a required one: the required one, when it divides the range.
    for (int d = 0; d < 3; ++d) {
      local[d] = reqd->size[d] ? reqd->size[d] : 1;
      if (!empty && global[d] % local[d] != 0) return CL_INVALID_WORK_GROUP_SIZE;
    }
  } else if (!empty) {
    // "local_work_size can also be a NULL value in which case the OpenCL implementation will
    // determine how to break the global work-items into appropriate work-group instances": the
    // largest divisors of each dimension within the device's limits, first dimension first.
    size_t budget = maxTotal;
    for (cl_uint d = 0; d < work_dim; ++d) {
      local[d] = largestDivisor(global[d], std::min<size_t>(budget, maxItems[d]));
      budget /= local[d];
    }
  }

  // "CL_OUT_OF_RESOURCES if there is a failure to queue the execution instance of kernel on the
  // command-queue because of insufficient resources needed to execute the kernel. For example, the
  // explicitly specified local_work_size causes a failure to execute the kernel because of
  // insufficient resources such as registers or local memory."
  if (k->localMemoryBytes(*z) > dev.zeCompute().maxSharedLocalMemory) return CL_OUT_OF_RESOURCES;

  // cl_qcom_recordable_queues: "A recordable command queue may also be passed, in which case the
  // kernel will be recorded and not queued for execution."
  // Only clEnqueueNDRangeKernel records: clEnqueueTask is "other API enqueue".
  if (q->recordable() && type != CL_COMMAND_NDRANGE_KERNEL) return CL_INVALID_OPERATION;
  if (q->recordable())
    return recordLaunch(*q, *k, *z, LaunchShape{work_dim, {global[0], global[1], global[2]},
                                                {local[0], local[1], local[2]},
                                                {offset[0], offset[1], offset[2]},
                                                local_work_size != nullptr, empty},
                        num_events, event_wait_list, event);

  if (empty) {
    return q->enqueue(type, num_events, event_wait_list, event,
                      [](ze_command_list_handle_t l, ze_event_handle_t signal, uint32_t n,
                         ze_event_handle_t* w) { return zeCommandListAppendBarrier(l, signal, n, w); },
                      {k, &k->program()}, false);
  }

  ze_group_count_t groups{};
  uint32_t* counts[3] = {&groups.groupCountX, &groups.groupCountY, &groups.groupCountZ};
  for (int d = 0; d < 3; ++d) {
    size_t n = global[d] / local[d];
    if (n > std::numeric_limits<uint32_t>::max()) return CL_INVALID_GLOBAL_WORK_SIZE;
    *counts[d] = uint32_t(n);
  }
  if (zeKernelSetGroupSize(z->ze, uint32_t(local[0]), uint32_t(local[1]), uint32_t(local[2])) !=
      ZE_RESULT_SUCCESS)
    return CL_INVALID_WORK_GROUP_SIZE;
  if (ze_result_t r = zeKernelSetGlobalOffsetExp(z->ze, uint32_t(offset[0]), uint32_t(offset[1]),
                                                 uint32_t(offset[2]));
      r != ZE_RESULT_SUCCESS)
    return fromZe(r);
  // get_work_dim(): "the number of dimensions in use", the work_dim given here, also when the
  // higher dimensions have size 1 (Level Zero itself would count only those above 1).
  if (auto setWorkDim = dev.platform().ext().kernelWorkDim)
    if (ze_result_t r = setWorkDim(z->ze, work_dim); r != ZE_RESULT_SUCCESS) return fromZe(r);
  ze_kernel_handle_t zk = z->ze;
  // The held objects, in storage this thread keeps across launches (enqueue copies them into the
  // event before it returns).
  thread_local std::vector<RefCounted*> holds;
  // An argument's buffer released since clSetKernelArg: the argument has no value any more.
  if (!k->launchHolds(holds)) return CL_INVALID_KERNEL_ARGS;
  // Two words of captures fit in std::function's own storage: no allocation per launch (the
  // append runs before enqueue returns, while `groups` lives).
  cl_int err = q->enqueue(
      type, num_events, event_wait_list, event,
      [zk, g = &groups](ze_command_list_handle_t l, ze_event_handle_t signal, uint32_t n,
                        ze_event_handle_t* w) {
        return zeCommandListAppendLaunchKernel(l, zk, g, signal, n, w);
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
