// cl_khr_command_buffer's and cl_khr_command_buffer_mutable_dispatch's entry points. They are
// reached through clGetExtensionFunctionAddress(ForPlatform), not the ICD dispatch table, so each
// validates its own handles through the registry. Each clCommand*KHR records by running the
// clEnqueue* entry point it corresponds to with the buffer capturing (command_buffer.h): "returns
// the errors defined by clEnqueue<...> except" the queue, context and wait-list ones, which
// CommandBuffer::record answers.
#include "cl_shim/api.h"
#include "cl_shim/api_support.h"
#include "cl_shim/command_buffer.h"

namespace tessera::cl::api {
namespace {

// "CL_INVALID_COMMAND_BUFFER_KHR if command_buffer is not a valid command-buffer."
template <typename F>
cl_int withBuffer(cl_command_buffer_khr command_buffer, F&& f) {
  CommandBuffer* b = CommandBuffer::from(command_buffer);
  if (!b) return CL_INVALID_COMMAND_BUFFER_KHR;
  return guarded([&] {
    Ref<CommandBuffer> hold(b);
    return f(*b);
  });
}

template <typename F>
cl_int recordCommand(cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                     cl_uint num_sync_points, const cl_sync_point_khr* sync_point_wait_list,
                     cl_sync_point_khr* sync_point, cl_mutable_command_khr* mutable_handle,
                     F&& enqueue) {
  return withBuffer(command_buffer, [&](CommandBuffer& b) {
    CommandBuffer::Recorded r{command_queue, num_sync_points, sync_point_wait_list, sync_point,
                              mutable_handle};
    return b.record(r, enqueue);
  });
}

}  // namespace

cl_command_buffer_khr CL_API_CALL
clCreateCommandBufferKHR(cl_uint num_queues, const cl_command_queue* queues,
                         const cl_command_buffer_properties_khr* properties, cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) -> cl_command_buffer_khr {
    // "CL_INVALID_VALUE if num_queues is not one." / "CL_INVALID_VALUE if queues is NULL."
    if (num_queues != 1 || !queues) {
      err = CL_INVALID_VALUE;
      return nullptr;
    }
    // "CL_INVALID_COMMAND_QUEUE if any command-queue in queues is not a valid command-queue."
    Queue* q = Queue::from(queues[0]);
    if (!q) {
      err = CL_INVALID_COMMAND_QUEUE;
      return nullptr;
    }
    // CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR is 0 and out-of-order queues are
    // supported: neither CL_INCOMPATIBLE_COMMAND_QUEUE_KHR of the specification applies.
    CommandBuffer* b = CommandBuffer::create(*q, properties, err);
    return b ? b->handle() : nullptr;
  });
}

cl_int CL_API_CALL clFinalizeCommandBufferKHR(cl_command_buffer_khr command_buffer) {
  return withBuffer(command_buffer, [](CommandBuffer& b) { return b.finalize(); });
}

cl_int CL_API_CALL clRetainCommandBufferKHR(cl_command_buffer_khr command_buffer) {
  CommandBuffer* b = CommandBuffer::from(command_buffer);
  if (!b) return CL_INVALID_COMMAND_BUFFER_KHR;
  b->retainApi();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseCommandBufferKHR(cl_command_buffer_khr command_buffer) {
  CommandBuffer* b = CommandBuffer::from(command_buffer);
  if (!b) return CL_INVALID_COMMAND_BUFFER_KHR;
  // "After the command_buffer reference count becomes zero and has finished execution, the
  // command-buffer is deleted": enqueues in flight hold it.
  return guarded([&] {
    b->releaseApi();
    return CL_SUCCESS;
  });
}

cl_int CL_API_CALL clEnqueueCommandBufferKHR(cl_uint num_queues, cl_command_queue* queues,
                                             cl_command_buffer_khr command_buffer,
                                             cl_uint num_events_in_wait_list,
                                             const cl_event* event_wait_list, cl_event* event) {
  return withBuffer(command_buffer, [&](CommandBuffer& b) {
    return b.enqueue(num_queues, queues, num_events_in_wait_list, event_wait_list, event);
  });
}

cl_int CL_API_CALL clCommandBarrierWithWaitListKHR(cl_command_buffer_khr command_buffer,
                                                   cl_command_queue command_queue,
                                                   cl_uint num_sync_points_in_wait_list,
                                                   const cl_sync_point_khr* sync_point_wait_list,
                                                   cl_sync_point_khr* sync_point,
                                                   cl_mutable_command_khr* mutable_handle) {
  // "If sync_point_wait_list is NULL, then this particular command waits until all previous
  // recorded commands to command_queue have completed": a Level Zero barrier either way.
  return recordCommand(command_buffer, command_queue, num_sync_points_in_wait_list,
                       sync_point_wait_list, sync_point, mutable_handle, [&](cl_command_queue q) {
                         return api::clEnqueueBarrierWithWaitList(q, 0, nullptr, nullptr);
                       });
}

cl_int CL_API_CALL clCommandCopyBufferKHR(cl_command_buffer_khr command_buffer,
                                          cl_command_queue command_queue, cl_mem src_buffer,
                                          cl_mem dst_buffer, size_t src_offset, size_t dst_offset,
                                          size_t size, cl_uint num_sync_points_in_wait_list,
                                          const cl_sync_point_khr* sync_point_wait_list,
                                          cl_sync_point_khr* sync_point,
                                          cl_mutable_command_khr* mutable_handle) {
  return recordCommand(command_buffer, command_queue, num_sync_points_in_wait_list,
                       sync_point_wait_list, sync_point, mutable_handle, [&](cl_command_queue q) {
                         return api::clEnqueueCopyBuffer(q, src_buffer, dst_buffer, src_offset,
                                                         dst_offset, size, 0, nullptr, nullptr);
                       });
}

cl_int CL_API_CALL clCommandCopyBufferRectKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, cl_mem src_buffer,
    cl_mem dst_buffer, const size_t* src_origin, const size_t* dst_origin, const size_t* region,
    size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr* sync_point_wait_list,
    cl_sync_point_khr* sync_point, cl_mutable_command_khr* mutable_handle) {
  return recordCommand(command_buffer, command_queue, num_sync_points_in_wait_list,
                       sync_point_wait_list, sync_point, mutable_handle, [&](cl_command_queue q) {
                         return api::clEnqueueCopyBufferRect(q, src_buffer, dst_buffer, src_origin,
                                                             dst_origin, region, src_row_pitch,
                                                             src_slice_pitch, dst_row_pitch,
                                                             dst_slice_pitch, 0, nullptr, nullptr);
                       });
}

cl_int CL_API_CALL clCommandCopyBufferToImageKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, cl_mem src_buffer,
    cl_mem dst_image, size_t src_offset, const size_t* dst_origin, const size_t* region,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr* sync_point_wait_list,
    cl_sync_point_khr* sync_point, cl_mutable_command_khr* mutable_handle) {
  return recordCommand(command_buffer, command_queue, num_sync_points_in_wait_list,
                       sync_point_wait_list, sync_point, mutable_handle, [&](cl_command_queue q) {
                         return api::clEnqueueCopyBufferToImage(q, src_buffer, dst_image,
                                                                src_offset, dst_origin, region, 0,
                                                                nullptr, nullptr);
                       });
}

cl_int CL_API_CALL clCommandCopyImageKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, cl_mem src_image,
    cl_mem dst_image, const size_t* src_origin, const size_t* dst_origin, const size_t* region,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr* sync_point_wait_list,
    cl_sync_point_khr* sync_point, cl_mutable_command_khr* mutable_handle) {
  return recordCommand(command_buffer, command_queue, num_sync_points_in_wait_list,
                       sync_point_wait_list, sync_point, mutable_handle, [&](cl_command_queue q) {
                         return api::clEnqueueCopyImage(q, src_image, dst_image, src_origin,
                                                        dst_origin, region, 0, nullptr, nullptr);
                       });
}

cl_int CL_API_CALL clCommandCopyImageToBufferKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue, cl_mem src_image,
    cl_mem dst_buffer, const size_t* src_origin, const size_t* region, size_t dst_offset,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr* sync_point_wait_list,
    cl_sync_point_khr* sync_point, cl_mutable_command_khr* mutable_handle) {
  return recordCommand(command_buffer, command_queue, num_sync_points_in_wait_list,
                       sync_point_wait_list, sync_point, mutable_handle, [&](cl_command_queue q) {
                         return api::clEnqueueCopyImageToBuffer(q, src_image, dst_buffer,
                                                                src_origin, region, dst_offset, 0,
                                                                nullptr, nullptr);
                       });
}

cl_int CL_API_CALL clCommandFillBufferKHR(cl_command_buffer_khr command_buffer,
                                          cl_command_queue command_queue, cl_mem buffer,
                                          const void* pattern, size_t pattern_size, size_t offset,
                                          size_t size, cl_uint num_sync_points_in_wait_list,
                                          const cl_sync_point_khr* sync_point_wait_list,
                                          cl_sync_point_khr* sync_point,
                                          cl_mutable_command_khr* mutable_handle) {
  // The pattern is copied when the fill is appended, as for clEnqueueFillBuffer ("The memory
  // associated with pattern can be reused or freed after the function returns").
  return recordCommand(command_buffer, command_queue, num_sync_points_in_wait_list,
                       sync_point_wait_list, sync_point, mutable_handle, [&](cl_command_queue q) {
                         return api::clEnqueueFillBuffer(q, buffer, pattern, pattern_size, offset,
                                                         size, 0, nullptr, nullptr);
                       });
}

cl_int CL_API_CALL clCommandFillImageKHR(cl_command_buffer_khr command_buffer,
                                         cl_command_queue command_queue, cl_mem image,
                                         const void* fill_color, const size_t* origin,
                                         const size_t* region, cl_uint num_sync_points_in_wait_list,
                                         const cl_sync_point_khr* sync_point_wait_list,
                                         cl_sync_point_khr* sync_point,
                                         cl_mutable_command_khr* mutable_handle) {
  return recordCommand(command_buffer, command_queue, num_sync_points_in_wait_list,
                       sync_point_wait_list, sync_point, mutable_handle, [&](cl_command_queue q) {
                         return api::clEnqueueFillImage(q, image, fill_color, origin, region, 0,
                                                        nullptr, nullptr);
                       });
}

cl_int CL_API_CALL clCommandNDRangeKernelKHR(
    cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
    const cl_ndrange_kernel_command_properties_khr* properties, cl_kernel kernel, cl_uint work_dim,
    const size_t* global_work_offset, const size_t* global_work_size, const size_t* local_work_size,
    cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr* sync_point_wait_list,
    cl_sync_point_khr* sync_point, cl_mutable_command_khr* mutable_handle) {
  return withBuffer(command_buffer, [&](CommandBuffer& b) {
    CommandBuffer::Recorded r{command_queue, num_sync_points_in_wait_list, sync_point_wait_list,
                              sync_point, mutable_handle};
    r.launch = true;
    r.properties = properties;
    // "If CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR is not specified then it defaults to the value
    // returned by the CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR device query."
    r.fields = kMutableDispatchFields;
    if (properties) {
      bool seen = false;
      for (auto* p = properties; *p; p += 2) {
        // "CL_INVALID_VALUE if values specified in properties are not valid"
        if (p[0] != CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR || seen) return CL_INVALID_VALUE;
        seen = true;
        // "CL_INVALID_OPERATION if the requested CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR
        // properties are not reported by CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR"
        if (p[1] & ~kMutableDispatchFields) return CL_INVALID_OPERATION;
        r.fields = p[1];
      }
    }
    return b.record(r, [&](cl_command_queue q) {
      return api::clEnqueueNDRangeKernel(q, kernel, work_dim, global_work_offset, global_work_size,
                                         local_work_size, 0, nullptr, nullptr);
    });
  });
}

cl_int CL_API_CALL clGetCommandBufferInfoKHR(cl_command_buffer_khr command_buffer,
                                             cl_command_buffer_info_khr param_name,
                                             size_t param_value_size, void* param_value,
                                             size_t* param_value_size_ret) {
  return withBuffer(command_buffer, [&](CommandBuffer& b) {
    return b.info(param_name, param_value_size, param_value, param_value_size_ret);
  });
}

cl_int CL_API_CALL clUpdateMutableCommandsKHR(cl_command_buffer_khr command_buffer,
                                              const cl_mutable_base_config_khr* mutable_config) {
  return withBuffer(command_buffer, [&](CommandBuffer& b) { return b.update(mutable_config); });
}

cl_int CL_API_CALL clGetMutableCommandInfoKHR(cl_mutable_command_khr command,
                                              cl_mutable_command_info_khr param_name,
                                              size_t param_value_size, void* param_value,
                                              size_t* param_value_size_ret) {
  // "CL_INVALID_MUTABLE_COMMAND_KHR if command is not a valid mutable command object."
  MutableCommand* c = MutableCommand::from(command);
  if (!c) return CL_INVALID_MUTABLE_COMMAND_KHR;
  return guarded([&] {
    Ref<MutableCommand> hold(c);
    return c->info(param_name, param_value_size, param_value, param_value_size_ret);
  });
}

}  // namespace tessera::cl::api
