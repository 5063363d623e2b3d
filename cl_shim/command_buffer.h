// cl_khr_command_buffer (revision 0.9.1) and cl_khr_command_buffer_mutable_dispatch (0.9.0), the
// revisions of the installed CL/cl_ext.h (opencl-headers 2023.02.06) and the OpenCL-CTS built
// here; later revisions change the signatures of the same entry points (docs/architecture.md).
//
// A command buffer is a Level Zero mutable regular command list on its queue's device, replayed as
// a recording is (mutable_launch.h): clEnqueueCommandBufferKHR appends the closed list to the
// queue's immediate list with zeCommandListImmediateAppendCommandListsExp. Each clCommand*KHR runs
// the enqueue entry point it corresponds to (clEnqueueCopyBuffer for clCommandCopyBufferKHR, ...)
// with this buffer as the thread's capture (capturingBuffer): every check and error code of that
// entry point applies, and where the command would be appended to the queue it is appended to the
// buffer's list instead (Queue::enqueue, and enqueueKernel for kernel launches, which keeps each
// launch's values for clUpdateMutableCommandsKHR). Commands run in recording order (a queue's
// commands run one after another), so sync points need only be checked; a command that waits for
// sync points gets a barrier before it all the same.
#pragma once

#include <level_zero/ze_api.h>

#include <type_traits>

#include <atomic>
#include <functional>
#include <mutex>
#include <vector>

#include "cl_shim/context.h"
#include "cl_shim/event.h"
#include "cl_shim/mutable_launch.h"
#include "cl_shim/object.h"
#include "cl_shim/queue.h"

struct _cl_command_buffer_khr {
  cl_icd_dispatch* dispatch;
};
struct _cl_mutable_command_khr {
  cl_icd_dispatch* dispatch;
};

namespace tessera::cl {

// CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR: printf (a kernel's printf writes to stdout as it
// runs, wherever the launch came from), simultaneous use (an enqueue shares the list's closed
// commands and an update copies what an execution in flight still holds) and out-of-order queues
// (whose commands run in order here). No device-side enqueue.
constexpr cl_device_command_buffer_capabilities_khr kCommandBufferCapabilities =
    CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR |
    CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR |
    CL_COMMAND_BUFFER_CAPABILITY_OUT_OF_ORDER_KHR;
// CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR: everything a launch has can be updated.
constexpr cl_mutable_dispatch_fields_khr kMutableDispatchFields =
    CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR | CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR |
    CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR | CL_MUTABLE_DISPATCH_ARGUMENTS_KHR |
    CL_MUTABLE_DISPATCH_EXEC_INFO_KHR;

class CommandBuffer;

// A command's handle (cl_mutable_command_khr): "The lifetime of this handle is tied to the parent
// command-buffer, such that freeing the command-buffer will also free this handle."
class MutableCommand : public Object<_cl_mutable_command_khr, 0x4d555431 /* "MUT1" */> {
 public:
  static MutableCommand* from(cl_mutable_command_khr h) { return Object::from<MutableCommand>(h); }
  CommandBuffer& buffer() const { return *buffer_; }
  cl_int info(cl_mutable_command_info_khr param, size_t size, void* value, size_t* sizeRet);

 private:
  friend class CommandBuffer;
  MutableCommand() = default;
  CommandBuffer* buffer_ = nullptr;  // the buffer retires this handle before it goes
  size_t launch = 0;                 // index into the buffer's launches
  cl_mutable_dispatch_fields_khr fields = 0;
  // The range as recorded: updates may not add work-groups or change uniformity.
  uint64_t recordedGroups = 0;
  bool recordedUniform = true;
  std::vector<cl_ndrange_kernel_command_properties_khr> properties;  // as given, 0-terminated
};

class CommandBuffer : public Object<_cl_command_buffer_khr, 0x434d4231 /* "CMB1" */> {
 public:
  static CommandBuffer* create(Queue& queue, const cl_command_buffer_properties_khr* properties,
                               cl_int& err);
  static CommandBuffer* from(cl_command_buffer_khr h) { return Object::from<CommandBuffer>(h); }

  Context& context() const { return queue_->context(); }
  Queue& queue() const { return *queue_; }

  // What one clCommand*KHR needs: the common checks (the queue parameter, the state, the sync
  // point wait list), then `enqueue(queue)` runs the entry point whose checks the command shares
  // with this buffer capturing, then the command's sync point. `mutableHandle`: where a
  // clCommandNDRangeKernelKHR returns its handle (null for other commands, which refuse one).
  struct Recorded {
    cl_command_queue queue;
    cl_uint numSyncs;
    const cl_sync_point_khr* syncs;
    cl_sync_point_khr* syncOut;
    cl_mutable_command_khr* mutableHandle;
    bool launch = false;  // clCommandNDRangeKernelKHR, with:
    const cl_ndrange_kernel_command_properties_khr* properties = nullptr;
    cl_mutable_dispatch_fields_khr fields = 0;  // CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR
  };
  cl_int record(const Recorded& r, const std::function<cl_int(cl_command_queue)>& enqueue);

  // The capture (while record runs enqueue on this thread): one command from Queue::enqueue, or a
  // kernel launch from enqueueKernel (the kernel's mutex held, the range checked and settled).
  cl_int take(const Queue::Append& append, RefCounted* const* holds, size_t numHolds);
  cl_int takeLaunch(Kernel& kernel, Kernel::PerDevice& z, const LaunchShape& shape);

  cl_int finalize();
  cl_int enqueue(cl_uint numQueues, cl_command_queue* queues, cl_uint numWaits,
                 const cl_event* waitList, cl_event* event);
  cl_int info(cl_command_buffer_info_khr param, size_t size, void* value, size_t* sizeRet);
  cl_int update(const cl_mutable_base_config_khr* config);

  // The mutable command id of a launch that is not in the list (an empty range).
  static constexpr uint64_t kNoLaunch = ~uint64_t(0);

  // For MutableCommand::info.
  const MutableLaunch& launchAt(size_t i) const { return launches_[i]; }
  std::mutex& mutex() const { return mutex_; }

 protected:
  ~CommandBuffer() override;
  void onApiReleased() override;

 private:
  CommandBuffer() = default;
  bool pending();  // under mutex_

  Ref<Queue> queue_;
  Queue* apiQueue_ = nullptr;  // CL_COMMAND_BUFFER_QUEUES_KHR (the handle given; held below)
  cl_command_buffer_flags_khr flags_ = 0;
  std::vector<cl_command_buffer_properties_khr> properties_;  // as given, 0-terminated
  ze_command_list_handle_t list_ = nullptr;

  mutable std::mutex mutex_;
  bool finalized_ = false;
  cl_sync_point_khr nextSync_ = 1;  // the sync point of the next command
  // Per launch: its values and its mutable command id in list_.
  std::vector<MutableLaunch> launches_;
  std::vector<uint64_t> ids_;
  std::vector<MutableCommand*> handles_;  // API references owned by the buffer
  std::vector<Ref<RefCounted>> holds_;    // what the recorded non-launch commands use
  std::vector<Ref<Event>> inflight_;      // enqueues not yet seen complete (the Pending state)
  // The command being recorded (record -> take / takeLaunch).
  const Recorded* current_ = nullptr;
  bool taken_ = false;
};

// The command buffer this thread records into through `queue`'s enqueue entry points; null when
// none (every enqueue but one made by a clCommand*KHR).
CommandBuffer* capturingBuffer(const Queue& queue);

}  // namespace tessera::cl

// The entry points (api_command_buffer.cpp), reached through clGetExtensionFunctionAddress(
// ForPlatform) only, with the types CL/cl_ext.h gives them.
namespace tessera::cl::api {
std::remove_pointer_t<clCreateCommandBufferKHR_fn> clCreateCommandBufferKHR;
std::remove_pointer_t<clFinalizeCommandBufferKHR_fn> clFinalizeCommandBufferKHR;
std::remove_pointer_t<clRetainCommandBufferKHR_fn> clRetainCommandBufferKHR;
std::remove_pointer_t<clReleaseCommandBufferKHR_fn> clReleaseCommandBufferKHR;
std::remove_pointer_t<clEnqueueCommandBufferKHR_fn> clEnqueueCommandBufferKHR;
std::remove_pointer_t<clCommandBarrierWithWaitListKHR_fn> clCommandBarrierWithWaitListKHR;
std::remove_pointer_t<clCommandCopyBufferKHR_fn> clCommandCopyBufferKHR;
std::remove_pointer_t<clCommandCopyBufferRectKHR_fn> clCommandCopyBufferRectKHR;
std::remove_pointer_t<clCommandCopyBufferToImageKHR_fn> clCommandCopyBufferToImageKHR;
std::remove_pointer_t<clCommandCopyImageKHR_fn> clCommandCopyImageKHR;
std::remove_pointer_t<clCommandCopyImageToBufferKHR_fn> clCommandCopyImageToBufferKHR;
std::remove_pointer_t<clCommandFillBufferKHR_fn> clCommandFillBufferKHR;
std::remove_pointer_t<clCommandFillImageKHR_fn> clCommandFillImageKHR;
std::remove_pointer_t<clCommandNDRangeKernelKHR_fn> clCommandNDRangeKernelKHR;
std::remove_pointer_t<clGetCommandBufferInfoKHR_fn> clGetCommandBufferInfoKHR;
std::remove_pointer_t<clUpdateMutableCommandsKHR_fn> clUpdateMutableCommandsKHR;
std::remove_pointer_t<clGetMutableCommandInfoKHR_fn> clGetMutableCommandInfoKHR;
}  // namespace tessera::cl::api
