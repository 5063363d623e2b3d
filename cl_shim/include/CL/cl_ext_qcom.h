/* cl_qcom_recordable_queues for Tessera's OpenCL platform: the tokens, types and functions of
 * Qualcomm's extension (version 1, 2019/10/22), with the names of Qualcomm's cl_ext_qcom.h, written
 * for Tessera from the extension's specification. The functions are not exported by the ICD: get
 * them with clGetExtensionFunctionAddressForPlatform(platform, "clNewRecordingQCOM") and the like
 * (the *_fn types below are their types).
 *
 * Tessera's choices where the specification is silent are in docs/architecture.md, "Recordings". */
#ifndef TESSERA_CL_EXT_QCOM_H
#define TESSERA_CL_EXT_QCOM_H

#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef cl_qcom_recordable_queues
#define cl_qcom_recordable_queues 1

/* clGetDeviceInfo: "Maximum number of commands that may be recorded in a cl_recording_qcom
 * object" (cl_uint). */
#define CL_DEVICE_RECORDABLE_QUEUE_MAX_SIZE_QCOM 0x41DE
/* clCreateCommandQueue(WithProperties): "Make the command queue recordable". */
#define CL_QUEUE_RECORDABLE_QCOM (1u << 30)

typedef struct _cl_recording_qcom* cl_recording_qcom;

/* "used to set kernel arguments" of dispatch <dispatch_index> (for an SVM argument, arg_value is
 * the pointer and arg_size 0). */
typedef struct _cl_array_arg_qcom {
  cl_uint dispatch_index;
  cl_uint arg_index;
  size_t arg_size;
  const void* arg_value;
} cl_array_arg_qcom;

/* clSetKernelExecInfo's parameters for dispatch <dispatch_index>. */
typedef struct _cl_array_kernel_exec_info_qcom {
  cl_uint dispatch_index;
  cl_kernel_exec_info param_name;
  size_t param_value_size;
  const void* param_value;
} cl_array_kernel_exec_info_qcom;

/* The global offsets of dispatch <dispatch_index> (elements past its work dimension ignored). */
typedef struct _cl_offset_qcom {
  cl_uint dispatch_index;
  size_t offsets[3];
} cl_offset_qcom;

/* A global or local work size of dispatch <dispatch_index>: one element per work dimension; NULL
 * only for a local size (the implementation chooses, as a NULL local_work_size). */
typedef struct _cl_workgroup_qcom {
  cl_uint dispatch_index;
  const size_t* workgroup_size;
} cl_workgroup_qcom;

typedef cl_recording_qcom(CL_API_CALL* clNewRecordingQCOM_fn)(cl_command_queue command_queue,
                                                             cl_int* errcode_ret);
typedef cl_int(CL_API_CALL* clEndRecordingQCOM_fn)(cl_recording_qcom recording);
typedef cl_int(CL_API_CALL* clReleaseRecordingQCOM_fn)(cl_recording_qcom recording);
typedef cl_int(CL_API_CALL* clRetainRecordingQCOM_fn)(cl_recording_qcom recording);
typedef cl_int(CL_API_CALL* clEnqueueRecordingQCOM_fn)(
    cl_command_queue command_queue, cl_recording_qcom recording, size_t num_args,
    const cl_array_arg_qcom* arg_array, size_t num_global_offsets,
    const cl_offset_qcom* global_offset_array, size_t num_global_workgroups,
    const cl_workgroup_qcom* global_workgroup_array, size_t num_local_workgroups,
    const cl_workgroup_qcom* local_workgroups_array, cl_uint num_events_in_wait_list,
    const cl_event* event_wait_list, cl_event* event);
typedef cl_int(CL_API_CALL* clEnqueueRecordingSVMQCOM_fn)(
    cl_command_queue command_queue, cl_recording_qcom recording, size_t num_args,
    const cl_array_arg_qcom* arg_array, size_t num_svm_args, const cl_array_arg_qcom* arg_svm_array,
    size_t num_global_offsets, const cl_offset_qcom* global_offset_array,
    size_t num_global_workgroups, const cl_workgroup_qcom* global_workgroup_array,
    size_t num_local_workgroups, const cl_workgroup_qcom* local_workgroups_array,
    size_t num_non_arg_objs, const cl_array_kernel_exec_info_qcom* non_arg_obj_array,
    cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event);

#endif /* cl_qcom_recordable_queues */

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_CL_EXT_QCOM_H */
