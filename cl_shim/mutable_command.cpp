// clUpdateMutableCommandsKHR and clGetMutableCommandInfoKHR (cl_khr_command_buffer_mutable_dispatch
// 0.9.0): updates checked on staged copies of the launches they name, then written into the
// command buffer's list with one zeCommandListUpdateMutableCommandsExp (mutable_launch.h).
#include "cl_shim/api_support.h"
#include "cl_shim/command_buffer.h"
#include "cl_shim/device.h"

namespace tessera::cl {

cl_int CommandBuffer::update(const cl_mutable_base_config_khr* config) {
  std::lock_guard lock(mutex_);
  // "CL_INVALID_OPERATION if command_buffer has not been finalized."
  if (!finalized_) return CL_INVALID_OPERATION;
  // "CL_INVALID_OPERATION if command_buffer was not created with the CL_COMMAND_BUFFER_MUTABLE_KHR
  // flag."
  if (!(flags_ & CL_COMMAND_BUFFER_MUTABLE_KHR)) return CL_INVALID_OPERATION;
  // "CL_INVALID_VALUE if mutable_config is NULL, or if both next and mutable_dispatch_list members
  // of mutable_config are NULL."
  if (!config || (!config->next && !config->mutable_dispatch_list)) return CL_INVALID_VALUE;

  // "Otherwise, none of the updates to mutable-command objects are preserved": everything is
  // checked on staged copies first.
  std::vector<int> slot(launches_.size(), -1);
  std::vector<MutableLaunch> staged;
  std::vector<bool> shapeChanged, globalChanged;
  std::vector<size_t> changed;
  std::vector<const MutableCommand*> owners;
  // The chain: base configs only (no layered extension defines another structure here).
  // "CL_INVALID_VALUE if the next member of mutable_config is not NULL and any iteration of the
  // structure pointer chain does not contain valid type and next members."
  for (auto* base = config; base;
       base = static_cast<const cl_mutable_base_config_khr*>(base->next)) {
    // "CL_INVALID_VALUE if the type member of mutable_config is not
    // CL_STRUCTURE_TYPE_MUTABLE_BASE_CONFIG_KHR."
    if (base->type != CL_STRUCTURE_TYPE_MUTABLE_BASE_CONFIG_KHR) return CL_INVALID_VALUE;
    // "CL_INVALID_VALUE if the mutable_dispatch_list member of mutable_config is NULL and
    // num_mutable_dispatch > 0, or mutable_dispatch_list is not NULL and num_mutable_dispatch is
    // 0."
    if ((base->mutable_dispatch_list == nullptr) != (base->num_mutable_dispatch == 0))
      return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < base->num_mutable_dispatch; ++i) {
      const cl_mutable_dispatch_config_khr& c = base->mutable_dispatch_list[i];
      // "CL_INVALID_VALUE if type is not CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR"; no
      // structure extends it.
      if (c.type != CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR || c.next)
        return CL_INVALID_VALUE;
      // "CL_INVALID_MUTABLE_COMMAND_KHR if command is not a valid mutable command object, or
      // created from command_buffer."
      MutableCommand* h = MutableCommand::from(c.command);
      if (!h || &h->buffer() != this) return CL_INVALID_MUTABLE_COMMAND_KHR;
      if (slot[h->launch] < 0) {
        slot[h->launch] = int(staged.size());
        staged.push_back(launches_[h->launch]);
        shapeChanged.push_back(false);
        globalChanged.push_back(false);
        changed.push_back(h->launch);
        owners.push_back(h);
      }
      size_t s = size_t(slot[h->launch]);
      MutableLaunch& d = staged[s];
      const cl_mutable_dispatch_fields_khr f = h->fields;
      // "CL_INVALID_OPERATION if the work_dim is different from the work_dim set on command
      // recording"; 0, which is no work dimension, leaves it as it is (as later revisions say:
      // "if work_dim is not zero and different").
      if (c.work_dim && c.work_dim != d.shape.workDim) return CL_INVALID_OPERATION;
      // "CL_INVALID_OPERATION if the CL_MUTABLE_DISPATCH_<field> property was not set on command
      // recording and <the field> is not NULL" (arguments: "num_args or num_svm_args is
      // non-zero"; exec info: "num_exec_infos is non-zero").
      if ((c.global_work_offset && !(f & CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR)) ||
          (c.global_work_size && !(f & CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR)) ||
          (c.local_work_size && !(f & CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR)) ||
          ((c.num_args || c.num_svm_args) && !(f & CL_MUTABLE_DISPATCH_ARGUMENTS_KHR)) ||
          (c.num_exec_infos && !(f & CL_MUTABLE_DISPATCH_EXEC_INFO_KHR)))
        return CL_INVALID_OPERATION;
      // "CL_INVALID_VALUE if arg_list is NULL and num_args > 0, or arg_list is not NULL and
      // num_args is 0" (arg_svm_list / num_svm_args, exec_info_list / num_exec_infos alike).
      if ((c.arg_list == nullptr) != (c.num_args == 0) ||
          (c.arg_svm_list == nullptr) != (c.num_svm_args == 0) ||
          (c.exec_info_list == nullptr) != (c.num_exec_infos == 0))
        return CL_INVALID_VALUE;
      // "errors defined by clEnqueueNDRangeKernel, clSetKernelExecInfo, clSetKernelArg, and
      // clSetKernelArgSVMPointer are returned ... if any of the array elements are set to an
      // invalid value."
      for (cl_uint a = 0; a < c.num_args; ++a)
        if (cl_int e = updateArg(d, c.arg_list[a].arg_index, c.arg_list[a].arg_size,
                                 c.arg_list[a].arg_value, false);
            e != CL_SUCCESS)
          return e;
      // "arg_size is ignored" for SVM arguments.
      for (cl_uint a = 0; a < c.num_svm_args; ++a)
        if (cl_int e =
                updateArg(d, c.arg_svm_list[a].arg_index, 0, c.arg_svm_list[a].arg_value, true);
            e != CL_SUCCESS)
          return e;
      for (cl_uint x = 0; x < c.num_exec_infos; ++x) {
        const cl_mutable_dispatch_exec_info_khr& info = c.exec_info_list[x];
        if (cl_int e = updateExecInfo(d, info.param_name, info.param_value_size, info.param_value);
            e != CL_SUCCESS)
          return e;
      }
      const cl_uint dims = d.shape.workDim;
      if (c.global_work_offset)
        for (cl_uint k = 0; k < dims; ++k) d.shape.offset[k] = c.global_work_offset[k];
      if (c.global_work_size) {
        for (cl_uint k = 0; k < dims; ++k) {
          // An empty range cannot be a launch that later updates change (Tessera's choice, as
          // for recording one).
          if (c.global_work_size[k] == 0) return CL_INVALID_GLOBAL_WORK_SIZE;
          d.shape.global[k] = c.global_work_size[k];
        }
        globalChanged[s] = true;
      }
      if (c.local_work_size) {
        d.shape.localGiven = true;
        for (cl_uint k = 0; k < dims; ++k) d.shape.local[k] = c.local_work_size[k];
      }
      if (c.global_work_offset || c.global_work_size || c.local_work_size) shapeChanged[s] = true;
    }
  }
  const Device& device = queue_->device();
  for (size_t s = 0; s < staged.size(); ++s) {
    // A launch recorded without work-items stays without: any global size adds work-groups.
    if (staged[s].shape.empty && globalChanged[s]) return CL_INVALID_OPERATION;
    if (shapeChanged[s] && !staged[s].shape.empty) {
      if (cl_int e = settleUpdated(staged[s], device); e != CL_SUCCESS) return e;
      // "CL_INVALID_OPERATION if values of local_work_size and/or global_work_size result in an
      // increase to the number of work-groups in the ND-range." / "... result in a change to
      // work-group uniformity." (Against the range the command was recorded with.)
      if (groupCount(staged[s].shape) > owners[s]->recordedGroups ||
          uniformGroups(staged[s].shape) != owners[s]->recordedUniform)
        return CL_INVALID_OPERATION;
    }
    // clEnqueueNDRangeKernel: "CL_OUT_OF_RESOURCES if ... insufficient resources such as registers
    // or local memory" (new __local argument sizes).
    if (!localMemoryFits(staged[s], device)) return CL_OUT_OF_RESOURCES;
  }
  if (staged.empty()) return CL_SUCCESS;
  // Written into the list: later enqueues run the new values; an enqueue in flight keeps the ones
  // it was appended with (the list copies what an execution still holds before changing it).
  std::vector<MutableLaunch> previous;
  previous.reserve(staged.size());
  std::vector<LaunchSlot> slots;
  for (size_t s = 0; s < staged.size(); ++s) {
    previous.push_back(std::move(launches_[changed[s]]));
    launches_[changed[s]] = std::move(staged[s]);
    if (ids_[changed[s]] != CommandBuffer::kNoLaunch)
      slots.push_back({ids_[changed[s]], &launches_[changed[s]]});
  }
  cl_int err = writeLaunches(list_, device, slots);
  if (err != CL_SUCCESS) {
    // The list refused the update as a whole and was left as it was: so are the launches.
    for (size_t s = 0; s < changed.size(); ++s) launches_[changed[s]] = std::move(previous[s]);
    zeCommandListClose(list_);
  }
  return err;
}

cl_int MutableCommand::info(cl_mutable_command_info_khr param, size_t size, void* value,
                            size_t* sizeRet) {
  InfoWriter out(size, value, sizeRet);
  CommandBuffer& b = *buffer_;
  std::lock_guard lock(b.mutex());
  const MutableLaunch& d = b.launchAt(launch);
  const cl_uint dims = d.shape.workDim;
  switch (param) {
    // "If NULL was passed as the queue when command was recorded, then the queue associated with
    // the command-buffer that command belongs to is returned."
    case CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR:
      return out.scalar<cl_command_queue>(b.queue().handle());
    case CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR:
      return out.scalar<cl_command_buffer_khr>(b.handle());
    case CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR:
      return out.scalar<cl_command_type>(CL_COMMAND_NDRANGE_KERNEL);
    // "If the properties argument specified on creation of command was NULL ... the
    // implementation must return param_value_size_ret equal to 0".
    case CL_MUTABLE_DISPATCH_PROPERTIES_ARRAY_KHR:
      return out.array(properties);
    case CL_MUTABLE_DISPATCH_KERNEL_KHR:
      return out.scalar<cl_kernel>(d.kernel->handle());
    case CL_MUTABLE_DISPATCH_DIMENSIONS_KHR:
      return out.scalar<cl_uint>(dims);
    case CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR:
      return out.bytes(d.shape.offset, dims * sizeof(size_t));
    case CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR:
      return out.bytes(d.shape.global, dims * sizeof(size_t));
    case CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR: {
      // "If a local work-item size was not set, zero is returned for each element in the array."
      const size_t zeros[3] = {0, 0, 0};
      return out.bytes(d.shape.localGiven ? d.shape.local : zeros, dims * sizeof(size_t));
    }
    default:
      return CL_INVALID_VALUE;
  }
}

}  // namespace tessera::cl
