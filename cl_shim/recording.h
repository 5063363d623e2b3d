// cl_qcom_recordable_queues: a cl_recording_qcom is a Level Zero mutable regular command list of
// kernel launches. clEnqueueNDRangeKernel on a recordable queue with an active recording appends a
// launch with the kernel's arguments of that moment (validated exactly as a launch is); a replay
// applies the updates given to it per dispatch index with zeCommandListUpdateMutableCommandsExp,
// closes the list again and appends it to the target queue's immediate list with
// zeCommandListImmediateAppendCommandListsExp, so it waits and signals like any command. Updates
// persist in the recording and never touch the kernel objects. The recording keeps the kernels (and
// so their programs) and the buffers its launches name alive for its whole life.
//
// Replays on a queue of another device of the context: the launches are recorded again, once, on a
// list for that device (the kernel's executable for it, with the dispatches' current values), kept
// with the recording and updated alongside the first. See docs/architecture.md, "Recordings".
#pragma once

#include <type_traits>

#include <level_zero/ze_api.h>

#include <atomic>
#include <mutex>
#include <vector>

#include "CL/cl_ext_qcom.h"
#include "cl_shim/context.h"
#include "cl_shim/kernel.h"
#include "cl_shim/mutable_launch.h"
#include "cl_shim/ndrange.h"
#include "cl_shim/object.h"

struct _cl_recording_qcom { cl_icd_dispatch* dispatch; };

namespace tessera::cl {

class Queue;

// CL_DEVICE_RECORDABLE_QUEUE_MAX_SIZE_QCOM.
constexpr cl_uint kRecordingMaxSize = 65536;

class Recording : public Object<_cl_recording_qcom, 0x52454331 /* "REC1" */> {
 public:
  static Recording* create(Queue& queue, cl_int& err);
  static Recording* from(cl_recording_qcom h) { return Object::from<Recording>(h); }

  Context& context() const { return *context_; }
  bool active() const;
  size_t size() const;

  // Appends one launch (the kernel's mutex held, `shape` settled). CL_INVALID_OPERATION when full.
  cl_int record(Kernel& kernel, Kernel::PerDevice& z, const LaunchShape& shape);
  cl_int end();

  struct Updates {
    size_t numArgs = 0;
    const cl_array_arg_qcom* args = nullptr;
    size_t numSvmArgs = 0;
    const cl_array_arg_qcom* svmArgs = nullptr;
    size_t numOffsets = 0;
    const cl_offset_qcom* offsets = nullptr;
    size_t numGlobal = 0;
    const cl_workgroup_qcom* global = nullptr;
    size_t numLocal = 0;
    const cl_workgroup_qcom* local = nullptr;
    size_t numExecInfo = 0;
    const cl_array_kernel_exec_info_qcom* execInfo = nullptr;
  };
  // clEnqueueRecording(SVM)QCOM on `queue` (checked: valid, in order, not recordable, same context).
  cl_int replay(Queue& queue, const Updates& updates, cl_uint numWaits, const cl_event* waitList,
                cl_event* event);

 protected:
  ~Recording() override;

 private:
  Recording() = default;

  // The values each launch runs with (recorded, then updated).
  using Dispatch = MutableLaunch;
  struct DeviceList {
    Device* device;
    ze_command_list_handle_t list = nullptr;
    std::vector<uint64_t> ids;  // per dispatch
  };

  DeviceList* listFor(Device& device, cl_int& err);
  cl_int recordOn(DeviceList& dl, bool closeAfter);
  cl_int apply(DeviceList& dl, const std::vector<size_t>& changed, bool all);

  Ref<Context> context_;
  Queue* queue_ = nullptr;  // the recordable queue while active (an API reference held)
  Ref<Device> device_;
  // recordMutex_ serializes record() and end() (taken with a kernel's mutex held); mutex_ serializes
  // replays (which take kernels' mutexes inside). A replay needs !active_, which end() sets last,
  // and a record() after end() changes nothing: the two never hold each other's mutexes.
  std::mutex recordMutex_;
  mutable std::mutex mutex_;
  std::atomic<bool> active_{true};
  std::vector<Dispatch> dispatches_;
  std::vector<DeviceList> lists_;  // lists_[0]: the recordable queue's device
};

// clEnqueueNDRangeKernel on a recordable queue, after every check of a launch: records into the
// queue's active recording (CL_INVALID_OPERATION without one), refuses wait lists and events.
cl_int recordLaunch(Queue& queue, Kernel& kernel, Kernel::PerDevice& z, const LaunchShape& shape,
                    cl_uint numWaits, const cl_event* waitList, cl_event* event);

}  // namespace tessera::cl

// The extension's entry points (api_recording.cpp), reached through
// clGetExtensionFunctionAddressForPlatform only, with the types CL/cl_ext_qcom.h gives them.
namespace tessera::cl::api {
std::remove_pointer_t<clNewRecordingQCOM_fn> clNewRecordingQCOM;
std::remove_pointer_t<clEndRecordingQCOM_fn> clEndRecordingQCOM;
std::remove_pointer_t<clReleaseRecordingQCOM_fn> clReleaseRecordingQCOM;
std::remove_pointer_t<clRetainRecordingQCOM_fn> clRetainRecordingQCOM;
std::remove_pointer_t<clEnqueueRecordingQCOM_fn> clEnqueueRecordingQCOM;
std::remove_pointer_t<clEnqueueRecordingSVMQCOM_fn> clEnqueueRecordingSVMQCOM;
}  // namespace tessera::cl::api
