// cl_qcom_recordable_queues' entry points. They are reached through
// clGetExtensionFunctionAddress(ForPlatform), not the ICD dispatch table, so each validates its own
// handles through the registry (recordings are Tessera objects without ICD dispatch).
#include "cl_shim/api_support.h"
#include "cl_shim/queue.h"
#include "cl_shim/recording.h"

namespace tessera::cl::api {
namespace {

cl_int enqueueRecording(cl_command_queue command_queue, cl_recording_qcom recording,
                        const Recording::Updates& updates, cl_uint num_events,
                        const cl_event* event_wait_list, cl_event* event) {
  // "CL_INVALID_COMMAND_QUEUE if <command_queue> is invalid."
  Queue* q = Queue::from(command_queue);
  if (!q) return CL_INVALID_COMMAND_QUEUE;
  // "CL_INVALID_VALUE if <recording> is invalid"
  Recording* r = Recording::from(recording);
  if (!r) return CL_INVALID_VALUE;
  // "<command_queue> must be an in-order command queue. It must not be a recordable queue."
  // Recordable: as every other enqueue to it, CL_INVALID_OPERATION; out of order:
  // "CL_INVALID_QUEUE_PROPERTIES if a recording is enqueued in an on-device queue or out of order
  // queue."
  if (q->recordable()) return CL_INVALID_OPERATION;
  if (q->properties() & (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE))
    return CL_INVALID_QUEUE_PROPERTIES;
  // "CL_INVALID_CONTEXT if <command_queue> was not created on the same context as <recording>."
  if (&q->context() != &r->context()) return CL_INVALID_CONTEXT;
  Ref<Recording> hold(r);
  return r->replay(*q, updates, num_events, event_wait_list, event);
}

}  // namespace

cl_recording_qcom CL_API_CALL clNewRecordingQCOM(cl_command_queue command_queue,
                                                 cl_int* errcode_ret) {
  return guardedCreate(errcode_ret, [&](cl_int& err) -> cl_recording_qcom {
    // "CL_INVALID_COMMAND_QUEUE if <command_queue> is not a valid command queue"
    Queue* q = Queue::from(command_queue);
    if (!q) { err = CL_INVALID_COMMAND_QUEUE; return nullptr; }
    Recording* r = Recording::create(*q, err);
    return r ? r->handle() : nullptr;
  });
}

cl_int CL_API_CALL clEndRecordingQCOM(cl_recording_qcom recording) {
  // "CL_INVALID_VALUE if <recording> is not a valid cl_recording_qcom object."
  Recording* r = Recording::from(recording);
  if (!r) return CL_INVALID_VALUE;
  return guarded([&] { return r->end(); });
}

cl_int CL_API_CALL clReleaseRecordingQCOM(cl_recording_qcom recording) {
  // "CL_INVALID_OPERATION if <recording> is not a valid cl_recording_qcom object."
  Recording* r = Recording::from(recording);
  if (!r) return CL_INVALID_OPERATION;
  // "If <recording> is an active recording on a recordable queue clReleaseRecordingQCOM will
  // return CL_INVALID_OPERATION."
  if (r->active()) return CL_INVALID_OPERATION;
  return guarded([&] {
    r->releaseApi();
    return CL_SUCCESS;
  });
}

cl_int CL_API_CALL clRetainRecordingQCOM(cl_recording_qcom recording) {
  Recording* r = Recording::from(recording);
  if (!r) return CL_INVALID_OPERATION;
  r->retainApi();
  return CL_SUCCESS;
}

cl_int CL_API_CALL clEnqueueRecordingQCOM(
    cl_command_queue command_queue, cl_recording_qcom recording, size_t num_args,
    const cl_array_arg_qcom* arg_array, size_t num_global_offsets,
    const cl_offset_qcom* global_offset_array, size_t num_global_workgroups,
    const cl_workgroup_qcom* global_workgroup_array, size_t num_local_workgroups,
    const cl_workgroup_qcom* local_workgroups_array, cl_uint num_events_in_wait_list,
    const cl_event* event_wait_list, cl_event* event) {
  return guarded([&] {
    Recording::Updates u;
    u.numArgs = num_args, u.args = arg_array;
    u.numOffsets = num_global_offsets, u.offsets = global_offset_array;
    u.numGlobal = num_global_workgroups, u.global = global_workgroup_array;
    u.numLocal = num_local_workgroups, u.local = local_workgroups_array;
    return enqueueRecording(command_queue, recording, u, num_events_in_wait_list, event_wait_list,
                            event);
  });
}

cl_int CL_API_CALL clEnqueueRecordingSVMQCOM(
    cl_command_queue command_queue, cl_recording_qcom recording, size_t num_args,
    const cl_array_arg_qcom* arg_array, size_t num_svm_args, const cl_array_arg_qcom* arg_svm_array,
    size_t num_global_offsets, const cl_offset_qcom* global_offset_array,
    size_t num_global_workgroups, const cl_workgroup_qcom* global_workgroup_array,
    size_t num_local_workgroups, const cl_workgroup_qcom* local_workgroups_array,
    size_t num_non_arg_objs, const cl_array_kernel_exec_info_qcom* non_arg_obj_array,
    cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event) {
  return guarded([&] {
    Recording::Updates u;
    u.numArgs = num_args, u.args = arg_array;
    u.numSvmArgs = num_svm_args, u.svmArgs = arg_svm_array;
    u.numOffsets = num_global_offsets, u.offsets = global_offset_array;
    u.numGlobal = num_global_workgroups, u.global = global_workgroup_array;
    u.numLocal = num_local_workgroups, u.local = local_workgroups_array;
    u.numExecInfo = num_non_arg_objs, u.execInfo = non_arg_obj_array;
    return enqueueRecording(command_queue, recording, u, num_events_in_wait_list, event_wait_list,
                            event);
  });
}

}  // namespace tessera::cl::api
