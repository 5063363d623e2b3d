#include "cl_shim/mutable_launch.h"

#include "cl_shim/device.h"
#include "cl_shim/errors.h"
#include "cl_shim/platform.h"
#include "cl_shim/queue.h"

namespace tessera::cl {

ze_command_list_handle_t newMutableList(Context& context, Device& device, cl_int& err) {
  ze_mutable_command_list_exp_desc_t m{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_DESC, nullptr, 0};
  ze_command_list_desc_t d{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, &m, 0, 0};
  ze_command_list_handle_t l = nullptr;
  ze_result_t r = zeCommandListCreate(context.ze(), device.ze(), &d, &l);
  err = r == ZE_RESULT_SUCCESS ? CL_SUCCESS : fromZe(r);
  return l;
}

uint64_t groupCount(const LaunchShape& s) {
  if (s.empty) return 0;
  ze_group_count_t g = s.groups();
  return uint64_t(g.groupCountX) * g.groupCountY * g.groupCountZ;
}

bool uniformGroups(const LaunchShape& s) { return s.uniform(); }

namespace {

cl_int nextId(ze_command_list_handle_t list, uint64_t& id) {
  ze_mutable_command_id_exp_desc_t idDesc{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_ID_EXP_DESC, nullptr,
                                          0};
  ze_result_t r = zeCommandListGetNextCommandIdExp(list, &idDesc, &id);
  return r == ZE_RESULT_SUCCESS ? CL_SUCCESS : fromZe(r);
}

}  // namespace

cl_int appendMutableLaunch(ze_command_list_handle_t list, const Device& device, Kernel& kernel,
                           Kernel::PerDevice& z, const LaunchShape& shape, MutableLaunch& out,
                           uint64_t& id) {
  // The kernel's values now; unlike the kernel, the launch holds the buffers they name.
  std::vector<Kernel::Arg> args = kernel.args();
  for (Kernel::Arg& a : args) {
    if (!a.handle || a.memory) continue;
    Memory* m = Kernel::argBuffer(a);
    if (!m) return CL_INVALID_KERNEL_ARGS;  // released since clSetKernelArg
    a.memory = Ref<Memory>(m);
  }
  if (cl_int err = nextId(list, id); err != CL_SUCCESS) return err;
  ze_group_count_t groups = shape.groups();
  if (cl_int err = applyShape(z.ze, shape, device); err != CL_SUCCESS) return err;
  if (ze_result_t r = zeCommandListAppendLaunchKernel(list, z.ze, &groups, nullptr, 0, nullptr);
      r != ZE_RESULT_SUCCESS)
    return fromZe(r);
  out.kernel = Ref<Kernel>(&kernel);
  out.shape = shape;
  out.args = std::move(args);
  return CL_SUCCESS;
}

cl_int appendCapturedLaunch(ze_command_list_handle_t list, const Device& device,
                            const MutableLaunch& d, uint64_t& id) {
  Kernel::PerDevice* z = d.kernel->forDevice(device);
  // As a launch on that device would answer.
  if (!z) return CL_INVALID_PROGRAM_EXECUTABLE;
  if (cl_int err = d.kernel->ready(*z); err != CL_SUCCESS) return err;
  if (cl_int err = nextId(list, id); err != CL_SUCCESS) return err;
  ze_group_count_t groups = d.shape.groups();
  std::lock_guard lock(d.kernel->mutex());
  // The work dimension is not among what an update changes: the launch carries it from here.
  if (auto setWorkDim = device.platform().ext().kernelWorkDim)
    if (ze_result_t r = setWorkDim(z->ze, d.shape.workDim); r != ZE_RESULT_SUCCESS)
      return fromZe(r);
  ze_result_t r = zeCommandListAppendLaunchKernel(list, z->ze, &groups, nullptr, 0, nullptr);
  return r == ZE_RESULT_SUCCESS ? CL_SUCCESS : fromZe(r);
}

cl_int writeLaunches(ze_command_list_handle_t list, const Device& device,
                     const std::vector<LaunchSlot>& launches) {
  size_t n = launches.size();
  if (n == 0) return CL_SUCCESS;
  size_t numArgs = 0;
  for (const LaunchSlot& s : launches) numArgs += s.launch->args.size();
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
  for (const LaunchSlot& s : launches) {
    const MutableLaunch& d = *s.launch;
    for (uint32_t a = 0; a < d.args.size(); ++a) {
      const Kernel::Arg& v = d.args[a];
      if (!v.set) continue;
      const std::vector<uint8_t>* value = &v.value;
      if (v.sampler || v.handle) value = &values.emplace_back(Kernel::valueFor(v, device));
      args.push_back({ZE_STRUCTURE_TYPE_MUTABLE_KERNEL_ARGUMENT_EXP_DESC, nullptr, s.id, a,
                      v.localSize ? v.localSize : value->size(),
                      v.localSize ? nullptr : static_cast<const void*>(value->data())});
      link(args.back());
    }
    groups.push_back(d.shape.groups());
    counts.push_back(
        {ZE_STRUCTURE_TYPE_MUTABLE_GROUP_COUNT_EXP_DESC, nullptr, s.id, &groups.back()});
    link(counts.back());
    sizes.push_back({ZE_STRUCTURE_TYPE_MUTABLE_GROUP_SIZE_EXP_DESC, nullptr, s.id,
                     uint32_t(d.shape.local[0]), uint32_t(d.shape.local[1]),
                     uint32_t(d.shape.local[2])});
    link(sizes.back());
    offsets.push_back({ZE_STRUCTURE_TYPE_MUTABLE_GLOBAL_OFFSET_EXP_DESC, nullptr, s.id,
                       uint32_t(d.shape.offset[0]), uint32_t(d.shape.offset[1]),
                       uint32_t(d.shape.offset[2])});
    link(offsets.back());
  }
  ze_mutable_commands_exp_desc_t desc{ZE_STRUCTURE_TYPE_MUTABLE_COMMANDS_EXP_DESC, next, 0};
  ze_result_t r = zeCommandListUpdateMutableCommandsExp(list, &desc);
  if (r == ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION) return CL_INVALID_WORK_GROUP_SIZE;
  if (r != ZE_RESULT_SUCCESS) return fromZe(r);
  // "The application must close a mutable command list after completing all updates".
  r = zeCommandListClose(list);
  return r == ZE_RESULT_SUCCESS ? CL_SUCCESS : fromZe(r);
}

cl_int updateArg(MutableLaunch& d, cl_uint index, size_t size, const void* value, bool svm) {
  Kernel::Arg v;
  cl_int e =
      svm ? d.kernel->encodeSvmArg(index, value, v) : d.kernel->encodeArg(index, size, value, v);
  if (e != CL_SUCCESS) return e;
  d.args[index] = std::move(v);
  return CL_SUCCESS;
}

cl_int updateExecInfo(MutableLaunch& d, cl_uint name, size_t size, const void* value) {
  // clSetKernelExecInfo: "CL_INVALID_VALUE if param_name is not valid, if param_value is NULL or
  // if the size specified by param_value_size is not valid."
  if (!value) return CL_INVALID_VALUE;
  if (name == CL_KERNEL_EXEC_INFO_SVM_PTRS) {
    if (size == 0 || size % sizeof(void*)) return CL_INVALID_VALUE;
    auto* p = static_cast<void* const*>(value);
    d.svmPointers.assign(p, p + size / sizeof(void*));
    return CL_SUCCESS;
  }
  if (name == CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM) {
    if (size != sizeof(cl_bool)) return CL_INVALID_VALUE;
    d.fineGrainSystem = *static_cast<const cl_bool*>(value);
    return CL_SUCCESS;
  }
  return CL_INVALID_VALUE;
}

cl_int settleUpdated(MutableLaunch& d, const Device& device) {
  Kernel::PerDevice* z = d.kernel->forDevice(device);
  if (!z) return CL_INVALID_PROGRAM_EXECUTABLE;
  return settleShape(d.shape, *d.kernel, *z, device);
}

bool localMemoryFits(const MutableLaunch& d, const Device& device) {
  Kernel::PerDevice* z = d.kernel->forDevice(device);
  return !z || Kernel::localMemoryBytes(*z, d.args) <= device.zeCompute().maxSharedLocalMemory;
}

cl_int enqueueList(Queue& queue, ze_command_list_handle_t list, cl_command_type type,
                   cl_uint numWaits, const cl_event* waitList, cl_event* event, RefCounted* hold) {
  return queue.enqueue(
      type, numWaits, waitList, event,
      [list](ze_command_list_handle_t l, ze_event_handle_t signal, uint32_t n,
             ze_event_handle_t* w) {
        ze_command_list_handle_t lists[1] = {list};
        return zeCommandListImmediateAppendCommandListsExp(l, 1, lists, signal, n, w);
      },
      {hold}, false);
}

}  // namespace tessera::cl
