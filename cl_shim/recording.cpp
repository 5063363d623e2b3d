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

ze_command_list_handle_t newMutableList(Context& context, Device& device, cl_int& err) {
  ze_mutable_command_list_exp_desc_t m{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_DESC, nullptr, 0};
  ze_command_list_desc_t d{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, &m, 0, 0};
  ze_command_list_handle_t l = nullptr;
  ze_result_t r = zeCommandListCreate(context.ze(), device.ze(), &d, &l);
  err = r == ZE_RESULT_SUCCESS ? CL_SUCCESS : fromZe(r);
  return l;
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
  // The kernel's values now; unlike the kernel, the recording holds the buffers they name.
  std::vector<Kernel::Arg> args = kernel.args();
  for (Kernel::Arg& a : args) {
    if (!a.handle || a.memory) continue;
    Memory* m = Kernel::argBuffer(a);
    if (!m) return CL_INVALID_KERNEL_ARGS;  // released since clSetKernelArg
    a.memory = Ref<Memory>(m);
  }
  DeviceList& dl = lists_[0];
  ze_mutable_command_id_exp_desc_t idDesc{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_ID_EXP_DESC, nullptr, 0};
  uint64_t id = 0;
  if (ze_result_t r = zeCommandListGetNextCommandIdExp(dl.list, &idDesc, &id); r != ZE_RESULT_SUCCESS)
    return fromZe(r);
  ze_group_count_t groups = shape.groups();
  if (cl_int err = applyShape(z.ze, shape, *dl.device); err != CL_SUCCESS) return err;
  if (ze_result_t r = zeCommandListAppendLaunchKernel(dl.list, z.ze, &groups, nullptr, 0, nullptr);
      r != ZE_RESULT_SUCCESS)
    return fromZe(r);
  dl.ids.push_back(id);
  Dispatch d;
  d.kernel = Ref<Kernel>(&kernel);
  d.shape = shape;
  d.args = std::move(args);
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
  ze_mutable_command_id_exp_desc_t idDesc{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_ID_EXP_DESC, nullptr, 0};
  for (Dispatch& d : dispatches_) {
    Kernel::PerDevice* z = d.kernel->forDevice(*dl.device);
    // As a launch on that device would answer.
    if (!z) return CL_INVALID_PROGRAM_EXECUTABLE;
    uint64_t id = 0;
    if (ze_result_t r = zeCommandListGetNextCommandIdExp(dl.list, &idDesc, &id); r != ZE_RESULT_SUCCESS)
      return fromZe(r);
    ze_group_count_t groups = d.shape.groups();
    std::lock_guard lock(d.kernel->mutex());
    // The work dimension is not among what an update changes: the launch carries it from here.
    if (auto setWorkDim = dl.device->platform().ext().kernelWorkDim)
      if (ze_result_t r = setWorkDim(z->ze, d.shape.workDim); r != ZE_RESULT_SUCCESS)
        return fromZe(r);
    if (ze_result_t r = zeCommandListAppendLaunchKernel(dl.list, z->ze, &groups, nullptr, 0, nullptr);
        r != ZE_RESULT_SUCCESS)
      return fromZe(r);
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
  size_t n = all ? dispatches_.size() : changed.size();
  if (n == 0) return CL_SUCCESS;
  size_t numArgs = 0;
  for (size_t j = 0; j < n; ++j) numArgs += dispatches_[all ? j : changed[j]].args.size();
  std::vector<ze_mutable_kernel_argument_exp_desc_t> args;
  std::vector<ze_mutable_group_count_exp_desc_t> counts;
  std::vector<ze_mutable_group_size_exp_desc_t> sizes;
  std::vector<ze_mutable_global_offset_exp_desc_t> offsets;
  std::vector<ze_group_count_t> groups;
  // Image and sampler values are Level Zero objects of the list's device's root (Kernel::valueFor).
  std::vector<std::vector<uint8_t>> values;
  args.reserve(numArgs);
  values.reserve(numArgs);
  counts.reserve(n), sizes.reserve(n), offsets.reserve(n), groups.reserve(n);
  const void* next = nullptr;
  auto link = [&](auto& desc) {
    desc.pNext = next;
    next = &desc;
  };
  for (size_t j = 0; j < n; ++j) {
    size_t i = all ? j : changed[j];
    const Dispatch& d = dispatches_[i];
    uint64_t id = dl.ids[i];
    for (uint32_t a = 0; a < d.args.size(); ++a) {
      const Kernel::Arg& v = d.args[a];
      if (!v.set) continue;
      const std::vector<uint8_t>* value = &v.value;
      if (v.sampler || v.handle) value = &values.emplace_back(Kernel::valueFor(v, *dl.device));
      args.push_back({ZE_STRUCTURE_TYPE_MUTABLE_KERNEL_ARGUMENT_EXP_DESC, nullptr, id, a,
                      v.localSize ? v.localSize : value->size(),
                      v.localSize ? nullptr : static_cast<const void*>(value->data())});
      link(args.back());
    }
    groups.push_back(d.shape.groups());
    counts.push_back({ZE_STRUCTURE_TYPE_MUTABLE_GROUP_COUNT_EXP_DESC, nullptr, id, &groups.back()});
    link(counts.back());
    sizes.push_back({ZE_STRUCTURE_TYPE_MUTABLE_GROUP_SIZE_EXP_DESC, nullptr, id,
                     uint32_t(d.shape.local[0]), uint32_t(d.shape.local[1]),
                     uint32_t(d.shape.local[2])});
    link(sizes.back());
    offsets.push_back({ZE_STRUCTURE_TYPE_MUTABLE_GLOBAL_OFFSET_EXP_DESC, nullptr, id,
                       uint32_t(d.shape.offset[0]), uint32_t(d.shape.offset[1]),
                       uint32_t(d.shape.offset[2])});
    link(offsets.back());
  }
  ze_mutable_commands_exp_desc_t desc{ZE_STRUCTURE_TYPE_MUTABLE_COMMANDS_EXP_DESC, next, 0};
  ze_result_t r = zeCommandListUpdateMutableCommandsExp(dl.list, &desc);
  if (r == ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION) return CL_INVALID_WORK_GROUP_SIZE;
  if (r != ZE_RESULT_SUCCESS) return fromZe(r);
  // "The application must close a mutable command list after completing all updates".
  r = zeCommandListClose(dl.list);
  return r == ZE_RESULT_SUCCESS ? CL_SUCCESS : fromZe(r);
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
      Kernel::Arg v;
      cl_int e = svm ? d->kernel->encodeSvmArg(a.arg_index, a.arg_value, v)
                     : d->kernel->encodeArg(a.arg_index, a.arg_size, a.arg_value, v);
      if (e != CL_SUCCESS) return e;
      d->args[a.arg_index] = std::move(v);
      return CL_SUCCESS;
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
      if (!x.param_value) return CL_INVALID_VALUE;
      if (x.param_name == CL_KERNEL_EXEC_INFO_SVM_PTRS) {
        if (x.param_value_size == 0 || x.param_value_size % sizeof(void*)) return CL_INVALID_VALUE;
        auto* p = static_cast<void* const*>(x.param_value);
        d->svmPointers.assign(p, p + x.param_value_size / sizeof(void*));
      } else if (x.param_name == CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM) {
        if (x.param_value_size != sizeof(cl_bool)) return CL_INVALID_VALUE;
        d->fineGrainSystem = *static_cast<const cl_bool*>(x.param_value);
      } else {
        return CL_INVALID_VALUE;
      }
    }
    // The updated ranges, checked as clEnqueueNDRangeKernel checks a range (ndrange.h), the local
    // size chosen again where the application gives none. The extension names one code for them
    // all: "CL_INVALID_WORK_GROUP_SIZE if the global or local work group size is invalid".
    for (size_t s = 0; s < staged.size(); ++s) {
      if (!shapeChanged[s]) continue;
      Kernel::PerDevice* z = staged[s].kernel->forDevice(*device_);
      if (!z) return CL_INVALID_PROGRAM_EXECUTABLE;
      cl_int e = settleShape(staged[s].shape, *staged[s].kernel, *z, *device_);
      if (e == CL_INVALID_WORK_ITEM_SIZE) e = CL_INVALID_WORK_GROUP_SIZE;
      if (e != CL_SUCCESS) return e;
    }
    // New __local sizes: checked as clEnqueueNDRangeKernel checks them ("CL_OUT_OF_RESOURCES if
    // ... insufficient resources such as registers or local memory"), without wrapping.
    for (Dispatch& d : staged) {
      Kernel::PerDevice* z = d.kernel->forDevice(queue.device());
      if (z &&
          Kernel::localMemoryBytes(*z, d.args) > queue.device().zeCompute().maxSharedLocalMemory)
        return CL_OUT_OF_RESOURCES;
    }
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

  ze_command_list_handle_t list = target->list;
  return queue.enqueue(
      CL_COMMAND_NDRANGE_KERNEL, numWaits, waitList, event,
      [list](ze_command_list_handle_t l, ze_event_handle_t signal, uint32_t n, ze_event_handle_t* w) {
        ze_command_list_handle_t lists[1] = {list};
        return zeCommandListImmediateAppendCommandListsExp(l, 1, lists, signal, n, w);
      },
      {this}, false);
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
