// What cl_qcom_recordable_queues' recordings (recording.h) and cl_khr_command_buffer's command
// buffers (command_buffer.h) share: kernel launches kept in a Level Zero mutable regular command
// list with the values they run with, updated in place with zeCommandListUpdateMutableCommandsExp,
// and replayed by appending the closed list to a queue's immediate list
// (zeCommandListImmediateAppendCommandListsExp), so a replay costs one append whatever it holds.
// Updates are checked as clSetKernelArg / clSetKernelArgSVMPointer / clSetKernelExecInfo /
// clEnqueueNDRangeKernel check their values, and never touch the kernel objects.
#pragma once

#include <level_zero/ze_api.h>

#include <vector>

#include "cl_shim/context.h"
#include "cl_shim/kernel.h"
#include "cl_shim/ndrange.h"

namespace tessera::cl {

class Device;
class Queue;

// One recorded launch: the kernel (which holds its program), its range, and its argument records
// (which hold the buffers they name).
struct MutableLaunch {
  Ref<Kernel> kernel;
  LaunchShape shape;
  std::vector<Kernel::Arg> args;
  std::vector<void*> svmPointers;  // CL_KERNEL_EXEC_INFO_SVM_PTRS
  cl_bool fineGrainSystem = CL_TRUE;
};

// The work-groups of a settled range (0 for an empty one), and whether every work-group is whole.
uint64_t groupCount(const LaunchShape& s);
bool uniformGroups(const LaunchShape& s);

// A new mutable regular command list on `device`.
ze_command_list_handle_t newMutableList(Context& context, Device& device, cl_int& err);

// Captures the kernel's launch of `shape` (settled, not empty; the kernel's mutex held) with the
// argument values of this moment into `out`, and appends it to `list`, whose mutable command id
// goes to `id`. CL_INVALID_KERNEL_ARGS when an argument's buffer was released since it was set.
cl_int appendMutableLaunch(ze_command_list_handle_t list, const Device& device, Kernel& kernel,
                           Kernel::PerDevice& z, const LaunchShape& shape, MutableLaunch& out,
                           uint64_t& id);

// Appends a captured launch to another device's list (its kernel's executable for that device:
// CL_INVALID_PROGRAM_EXECUTABLE when there is none). Its values are written by writeLaunches.
cl_int appendCapturedLaunch(ze_command_list_handle_t list, const Device& device,
                            const MutableLaunch& launch, uint64_t& id);

// Writes the current values (arguments, group count and size, offset) of `launches` into `list`
// of `device` through one update, then closes the list again ("The application must close a
// mutable command list after completing all updates").
struct LaunchSlot {
  uint64_t id;
  const MutableLaunch* launch;
};
cl_int writeLaunches(ze_command_list_handle_t list, const Device& device,
                     const std::vector<LaunchSlot>& launches);

// An argument update, checked as clSetKernelArg (svm: clSetKernelArgSVMPointer) checks it:
// CL_INVALID_ARG_INDEX, CL_INVALID_ARG_SIZE, CL_INVALID_ARG_VALUE, CL_INVALID_MEM_OBJECT, ...
cl_int updateArg(MutableLaunch& launch, cl_uint index, size_t size, const void* value, bool svm);
// An execution-info update, checked as clSetKernelExecInfo checks it (CL_INVALID_VALUE).
cl_int updateExecInfo(MutableLaunch& launch, cl_uint name, size_t size, const void* value);
// A changed range checked and settled as clEnqueueNDRangeKernel does on `device` (settleShape's
// codes), the local size chosen again where none is given.
cl_int settleUpdated(MutableLaunch& launch, const Device& device);
// The launch's __local bytes fit `device` (else "CL_OUT_OF_RESOURCES if ... insufficient resources
// such as registers or local memory", as clEnqueueNDRangeKernel answers).
bool localMemoryFits(const MutableLaunch& launch, const Device& device);

// Appends the closed `list` to `queue` as one command of `type` that waits and signals like any
// other, holding `hold` until it completes.
cl_int enqueueList(Queue& queue, ze_command_list_handle_t list, cl_command_type type,
                   cl_uint numWaits, const cl_event* waitList, cl_event* event, RefCounted* hold);

}  // namespace tessera::cl
