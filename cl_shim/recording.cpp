#include "cl_shim/recording.h"

#include <algorithm>

#include "cl_shim/api_support.h"
#include "cl_shim/device.h"
#include "cl_shim/errors.h"
#include "cl_shim/platform.h"
#include "cl_shim/queue.h"
#include "tessera/ze_tessera.h"

namespace tessera::cl {
namespace {

// The active recording of each recordable queue that has one.
std::mutex g_activeMutex;
std::vector<std::pair<Queue*, Recording*>> g_active;

Ref<Recording> activeOf(Queue& q) {
  std::lock_guard lock(g_activeMutex);
  for (auto& [queue, rec] : g_active)
    if (queue == &q) return Ref<Recording>(rec);
  return Ref<Recording>();
}

void deactivate(Queue* q) {
  std::lock_guard lock(g_activeMutex);
  g_active.erase(std::remove_if(g_active.begin(), g_active.end(),
                                [&](const auto& e) { return e.first == q; }),
                 g_active.end());
}

}  // namespace

Recording* Recording::create(Queue& queue, cl_int& err) {
  // "CL_INVALID_QUEUE_PROPERTIES if <command_queue> is not recordable."
  if (!queue.recordable()) { err = CL_INVALID_QUEUE_PROPERTIES; return nullptr; }
  std::lock_guard lock(g_activeMutex);
  // "CL_INVALID_OPERATION if an active recording is already open on <command_queue>"
  for (auto& e : g_active)
    if (e.first == &queue) { err = CL_INVALID_OPERATION; return nullptr; }
  ze_command_list_handle_t l = newMutableList(queue.context(), queue.device(), err);
  if (!l) return nullptr;
  auto* r = new Recording;
  r->context_ = Ref<Context>(&queue.context());
  r->device_ = Ref<Device>(&queue.device());
  r->lists_.push_back({&queue.device(), l, {}});
  // "The new cl_recording_qcom object holds a refcount on <command_queue>"
  r->queue_ = &queue;
  queue.retainApi();
  g_active.emplace_back(&queue, r);
  err = CL_SUCCESS;
  return r;
}

Recording::~Recording() {
  // Replays in flight keep the commands they were appended with (the ze layer shares them).
  for (DeviceList& dl : lists_)
    if (dl.list) zeCommandListDestroy(dl.list);
}

bool Recording::active() const { return active_.load(); }

size_t Recording::size() const {
  std::lock_guard lock(mutex_);
  return dispatches_.size();
}

cl_int Recording::record(Kernel& kernel, Kernel::PerDevice& z, const LaunchShape& shape) {
  std::lock_guard lock(recordMutex_);
  if (!active_) return CL_INVALID_OPERATION;
  // "Recording more commands than CL_DEVICE_RECORDABLE_QUEUE_MAX_SIZE_QCOM will result in an error
  // being returned": CL_INVALID_OPERATION, "or the recording is full".
  if (dispatches_.size() >= kRecordingMaxSize) return CL_INVALID_OPERATION;
  // An empty range has no launch to update later (Tessera's choice, docs/architecture.md).
  if (shape.empty) return CL_INVALID_GLOBAL_WORK_SIZE;
  DeviceList& dl = lists_[0];
  Dispatch d;
  uint64_t id = 0;
  if (cl_int err = appendMutableLaunch(dl.list, *dl.device, kernel, z, shape, d, id);
      err != CL_SUCCESS)
    return err;
  dl.ids.push_back(id);
  dispatches_.push_back(std::move(d));
  return CL_SUCCESS;
}

cl_int Recording::end() {
  Queue* q = nullptr;
  {
    std::lock_guard lock(recordMutex_);
    // "CL_INVALID_OPERATION if <recording> has already been closed."
    if (!active_) return CL_INVALID_OPERATION;
    if (ze_result_t r = zeCommandListClose(lists_[0].list); r != ZE_RESULT_SUCCESS) return fromZe(r);
    q = std::exchange(queue_, nullptr);
    deactivate(q);
    active_ = false;
  }
  // "the refcount on the recordable queue which is held by <recording> will be released."
  q->releaseApi();
  return CL_SUCCESS;
}

// Records every dispatch on another device's list: the launches as they are, then every value the
// dispatches now have through one update.
cl_int Recording::recordOn(DeviceList& dl, bool) {
  for (const Dispatch& d : dispatches_) {
    uint64_t id = 0;
    if (cl_int err = appendCapturedLaunch(dl.list, *dl.device, d, id); err != CL_SUCCESS) return err;
    dl.ids.push_back(id);
  }
  if (ze_result_t r = zeCommandListClose(dl.list); r != ZE_RESULT_SUCCESS) return fromZe(r);
  return apply(dl, {}, true);
}

Recording::DeviceList* Recording::listFor(Device& device, cl_int& err) {
  err = CL_SUCCESS;
  for (DeviceList& dl : lists_)
    if (dl.device == &device) return &dl;
  ze_command_list_handle_t l = newMutableList(*context_, device, err);
  if (!l) return nullptr;
  lists_.push_back({&device, l, {}});
  if ((err = recordOn(lists_.back(), true)) != CL_SUCCESS) {
    zeCommandListDestroy(l);
    lists_.pop_back();
    return nullptr;
  }
  return &lists_.back();
}

// Writes the current values of dispatches `changed` (all when `all`) into a list, and closes it.
cl_int Recording::apply(DeviceList& dl, const std::vector<size_t>& changed, bool all) {
  std::vector<LaunchSlot> slots;
  size_t n = all ? dispatches_.size() : changed.size();
  slots.reserve(n);
  for (size_t j = 0; j < n; ++j) {
    size_t i = all ? j : changed[j];
    slots.push_back({dl.ids[i], &dispatches_[i]});
  }
  return writeLaunches(dl.list, *dl.device, slots);
}

cl_int Recording::replay(Queue& queue, const Updates& u, cl_uint numWaits, const cl_event* waitList,
                         cl_event* event) {
  // Everything is checked before anything changes: a failed replay leaves the recording as it was.
  if (cl_int err = checkWaitList(*context_, numWaits, waitList, nullptr); err != CL_SUCCESS)
    return err;
  if ((u.numArgs && !u.args) || (u.numSvmArgs && !u.svmArgs) || (u.numOffsets && !u.offsets) ||
      (u.numGlobal && !u.global) || (u.numLocal && !u.local) || (u.numExecInfo && !u.execInfo))
    return CL_INVALID_VALUE;
  // "<recording> must be a valid recording object that has been closed with clEndRecordingQCOM."
  if (active_) return CL_INVALID_OPERATION;
  std::lock_guard lock(mutex_);
  // "A zero length recording will also cause this error."
  if (dispatches_.empty()) return CL_INVALID_OPERATION;

  bool any = u.numArgs || u.numSvmArgs || u.numOffsets || u.numGlobal || u.numLocal || u.numExecInfo;
  std::vector<size_t> changed;
  if (any) {
    // Staged copies of the dispatches the updates touch.
    std::vector<int> slot(dispatches_.size(), -1);
    std::vector<Dispatch> staged;
    std::vector<bool> shapeChanged;
    cl_int err = CL_SUCCESS;
    // "CL_INVALID_KERNEL_ARGS if a dispatch index is out of bounds."
    auto stage = [&](cl_uint index) -> Dispatch* {
      if (index >= dispatches_.size()) { err = CL_INVALID_KERNEL_ARGS; return nullptr; }
      if (slot[index] < 0) {
        slot[index] = int(staged.size());
        staged.push_back(dispatches_[index]);
        shapeChanged.push_back(false);
        changed.push_back(index);
      }
      return &staged[slot[index]];
    };
    auto setArg = [&](const cl_array_arg_qcom& a, bool svm) -> cl_int {
      Dispatch* d = stage(a.dispatch_index);
      if (!d) return err;
      // "CL_INVALID_ARG_INDEX if <arg_array> or <arg_svm_array> tries to modify a valid dispatch
      // index, but invalid kernel argument index." Values are checked as clSetKernelArg /
      // clSetKernelArgSVMPointer check them.
      return updateArg(*d, a.arg_index, a.arg_size, a.arg_value, svm);
    };
    for (size_t i = 0; i < u.numArgs; ++i)
      if (cl_int e = setArg(u.args[i], false); e != CL_SUCCESS) return e;
    for (size_t i = 0; i < u.numSvmArgs; ++i)
      if (cl_int e = setArg(u.svmArgs[i], true); e != CL_SUCCESS) return e;
    for (size_t i = 0; i < u.numOffsets; ++i) {
      Dispatch* d = stage(u.offsets[i].dispatch_index);
      if (!d) return err;
      // "If the kernel is executed with work dimension less than three, the higher array elements
      // are ignored."
      for (cl_uint k = 0; k < d->shape.workDim; ++k) d->shape.offset[k] = u.offsets[i].offsets[k];
      shapeChanged[slot[u.offsets[i].dispatch_index]] = true;
    }
    for (size_t i = 0; i < u.numGlobal; ++i) {
      Dispatch* d = stage(u.global[i].dispatch_index);
      if (!d) return err;
      // "CL_INVALID_GLOBAL_WORK_SIZE if a global work size is set to NULL"; a recorded launch
      // always runs something, so no size may be 0 either.
      if (!u.global[i].workgroup_size) return CL_INVALID_GLOBAL_WORK_SIZE;
      for (cl_uint k = 0; k < d->shape.workDim; ++k) {
        if (u.global[i].workgroup_size[k] == 0) return CL_INVALID_GLOBAL_WORK_SIZE;
        d->shape.global[k] = u.global[i].workgroup_size[k];
      }
      shapeChanged[slot[u.global[i].dispatch_index]] = true;
    }
    for (size_t i = 0; i < u.numLocal; ++i) {
      Dispatch* d = stage(u.local[i].dispatch_index);
      if (!d) return err;
      // "<workgroup_size> may be NULL if setting a local work size, and has the same meaning as
      // NULL local work size when used in clEnqueueNDRangeKernel."
      d->shape.localGiven = u.local[i].workgroup_size != nullptr;
      if (d->shape.localGiven)
        for (cl_uint k = 0; k < d->shape.workDim; ++k) d->shape.local[k] = u.local[i].workgroup_size[k];
      shapeChanged[slot[u.local[i].dispatch_index]] = true;
    }
    for (size_t i = 0; i < u.numExecInfo; ++i) {
      const cl_array_kernel_exec_info_qcom& x = u.execInfo[i];
      Dispatch* d = stage(x.dispatch_index);
      if (!d) return err;
      // "Fields param_name, param_value_size, and param_value retain the same meaning as for
      // clSetKernelExecInfo": its checks, CL_INVALID_VALUE.
      if (cl_int e = updateExecInfo(*d, x.param_name, x.param_value_size, x.param_value);
          e != CL_SUCCESS)
        return e;
    }
    // The updated ranges, checked as clEnqueueNDRangeKernel checks a range (ndrange.h), the local
    // size chosen again where the application gives none. The extension names one code for them
    // all: "CL_INVALID_WORK_GROUP_SIZE if the global or local work group size is invalid".
    for (size_t s = 0; s < staged.size(); ++s) {
      if (!shapeChanged[s]) continue;
      cl_int e = settleUpdated(staged[s], *device_);
      if (e == CL_INVALID_WORK_ITEM_SIZE) e = CL_INVALID_WORK_GROUP_SIZE;
      if (e != CL_SUCCESS) return e;
      // A recording's launches are Level Zero mutable commands, whose group size updates name
      // uniform groups only: no partial group (api_ndrange.cpp refuses recording one too).
      if (!staged[s].shape.uniform()) return CL_INVALID_WORK_GROUP_SIZE;
    }
    // New __local sizes: checked as clEnqueueNDRangeKernel checks them ("CL_OUT_OF_RESOURCES if
    // ... insufficient resources such as registers or local memory"), without wrapping.
    for (const Dispatch& d : staged)
      if (!localMemoryFits(d, queue.device())) return CL_OUT_OF_RESOURCES;
    for (size_t s = 0; s < staged.size(); ++s) dispatches_[changed[s]] = std::move(staged[s]);
  }

  // The target device's list (recorded now if this is the first replay there), then the updates
  // into every list the recording has, so all stay alike.
  cl_int err = CL_SUCCESS;
  DeviceList* target = listFor(queue.device(), err);
  if (!target) return err;
  if (any)
    for (DeviceList& dl : lists_)
      if (cl_int e = apply(dl, changed, false); e != CL_SUCCESS) return e;

  return enqueueList(queue, target->list, CL_COMMAND_NDRANGE_KERNEL, numWaits, waitList, event,
                     this);
}

cl_int recordLaunch(Queue& queue, Kernel& kernel, Kernel::PerDevice& z, const LaunchShape& shape,
                    cl_uint numWaits, const cl_event* waitList, cl_event* event) {
  // "If <command_queue> is a recordable command queue, <event_wait_list> must be 0 and
  // <num_events_wait_list> must be NULL." / "<event> must be NULL."
  if (numWaits || waitList) return CL_INVALID_EVENT_WAIT_LIST;
  if (event) return CL_INVALID_VALUE;
  // "Enqueueing a command to a recordable queue when no recording is active will result in a
  // CL_INVALID_OPERATION error being returned."
  Ref<Recording> r = activeOf(queue);
  if (!r) return CL_INVALID_OPERATION;
  return r->record(kernel, z, shape);
}

}  // namespace tessera::cl
