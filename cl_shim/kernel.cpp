#include "cl_shim/kernel.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "cl_shim/api_support.h"
#include "cl_shim/device.h"
#include "cl_shim/errors.h"
#include "cl_shim/kernel_arg_types.h"
#include "cl_shim/kernel_attributes.h"
#include "support/checked_math.h"

namespace tessera::cl {
using spirv::ArgKind;

Kernel* Kernel::create(Program& program, const std::string& name, cl_int& err) {
  size_t unit = 0;
  const spirv::KernelInfo* info = program.findKernel(name, &unit);
  // "CL_INVALID_KERNEL_NAME if kernel_name is not found in program."
  if (!info) { err = CL_INVALID_KERNEL_NAME; return nullptr; }
  auto* k = new Kernel;
  k->program_ = Ref<Program>(&program);
  k->name_ = name;
  k->info_ = *info;
  k->unit_ = unit;
  k->uniformGroups_ = program.unitUniformGroups(unit);
  k->args_.resize(info->args.size());
  // The image type each image argument declares, for clSetKernelArg's check.
  for (const spirv::KernelArg& a : info->args)
    if (a.kind == ArgKind::Image) {
      k->imageTypes_ = program.argTypes(unit, *info).imageTypes;
      break;
    }
  err = k->makeZeKernels();
  if (err != CL_SUCCESS) {
    k->releaseApi();
    return nullptr;
  }
  program.attachedKernels++;
  k->attached_ = true;
  return k;
}

cl_int Kernel::makeZeKernels() {
  for (Device* d : program_->executableDevices()) {
    std::vector<ZeModulePtr> mods = program_->modulesFor(*d);
    if (mods.size() <= unit_) return CL_INVALID_PROGRAM_EXECUTABLE;
    // Code generation waits for the kernel's first launch (ZE_tessera_module_kernels 1.1), as
    // in PoCL: programs that create every kernel at start and launch few (darktable: 289 kernels
    // created) do not compile the rest. ready() compiles.
    ze_tessera_kernel_deferred_desc_t deferred{ZE_STRUCTURE_TYPE_TESSERA_KERNEL_DEFERRED_DESC,
                                               nullptr};
    ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, &deferred, 0, name_.c_str()};
    ze_kernel_handle_t h = nullptr;
    ze_result_t r = zeKernelCreate(mods[unit_]->handle, &desc, &h);
    if (r != ZE_RESULT_SUCCESS) {
      if (r == ZE_RESULT_ERROR_INVALID_KERNEL_NAME) return CL_INVALID_KERNEL_NAME;
      if (r == ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED) return CL_INVALID_PROGRAM_EXECUTABLE;
      if (r == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE) {
        // A kernel the driver could not defer was compiled now and failed: it has no executable
        // ("CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built executable for
        // program"), and the reason joins the program's build log.
        program_->noteKernelFailure(*d, mods[unit_]->handle, name_);
        return CL_INVALID_PROGRAM_EXECUTABLE;
      }
      return fromZe(r);
    }
    static std::atomic<uint64_t> serials{0};
    zes_.push_back(PerDevice{d, mods[unit_], h, 0, false, ++serials});
  }
  if (zes_.empty()) return CL_INVALID_PROGRAM_EXECUTABLE;
  return CL_SUCCESS;
}

Kernel::~Kernel() {
  for (auto& z : zes_)
    if (z.ze) zeKernelDestroy(z.ze);
}

void Kernel::onApiReleased() {
  if (attached_) program_->attachedKernels--;
}

Kernel* Kernel::clone(cl_int& err) {
  std::lock_guard lock(mutex_);
  auto* k = new Kernel;
  k->program_ = program_;
  k->name_ = name_;
  k->info_ = info_;
  k->unit_ = unit_;
  k->args_ = args_;
  k->imageTypes_ = imageTypes_;
  k->svmPointers_ = svmPointers_;
  k->fineGrainSystem_ = fineGrainSystem_;
  // "clCloneKernel is used to make a shallow copy of the kernel object, its arguments and any
  // information passed to the kernel object using clSetKernelExecInfo."
  err = k->makeZeKernels();
  for (cl_uint i = 0; err == CL_SUCCESS && i < k->args_.size(); ++i) {
    const Arg& a = k->args_[i];
    if (!a.set) continue;
    err = k->applyLocked(i, a);
  }
  if (err != CL_SUCCESS) {
    k->releaseApi();
    return nullptr;
  }
  program_->attachedKernels++;
  k->attached_ = true;
  return k;
}

std::vector<uint8_t> Kernel::valueFor(const Arg& a, const Device& d) {
  auto bytes = [](auto handle) {
    std::vector<uint8_t> v(sizeof handle);
    std::memcpy(v.data(), &handle, sizeof handle);
    return v;
  };
  if (a.sampler) return bytes(a.sampler->zeFor(d));
  if (Memory* m = a.handle ? argBuffer(a) : nullptr; m && m->image())
    return bytes(m->image()->zeFor(d));
  return a.value;
}

cl_int Kernel::applyLocked(cl_uint index, const Arg& a) {
  const bool local = info_.args.at(index).kind == ArgKind::LocalPointer;
  const bool perDevice = a.sampler || info_.args[index].kind == ArgKind::Image;
  for (auto& z : zes_) {
    // A __local size larger than the device's local memory is accepted here and refused by the
    // enqueue, as OpenCL places that failure: clEnqueueNDRangeKernel's "CL_OUT_OF_RESOURCES if
    // ... insufficient resources such as registers or local memory" (clSetKernelArg names no error
    // for it). Level Zero refuses such a size at once, so that device's kernel is not told.
    if (local && a.localSize > z.device->zeCompute().maxSharedLocalMemory) continue;
    // Images and samplers are Level Zero objects of each root device.
    std::vector<uint8_t> own;
    if (perDevice) own = valueFor(a, *z.device);
    const std::vector<uint8_t>& v = perDevice ? own : a.value;
    ze_result_t r = local ? zeKernelSetArgumentValue(z.ze, index, a.localSize, nullptr)
                          : zeKernelSetArgumentValue(z.ze, index, v.size(), v.data());
    if (r == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE) return CL_INVALID_ARG_SIZE;
    if (r == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX) return CL_INVALID_ARG_INDEX;
    if (r == ZE_RESULT_ERROR_INVALID_NULL_POINTER || r == ZE_RESULT_ERROR_INVALID_ARGUMENT)
      return CL_INVALID_ARG_VALUE;
    if (r != ZE_RESULT_SUCCESS) return fromZe(r);
  }
  return CL_SUCCESS;
}

cl_int Kernel::encodeArg(cl_uint index, size_t size, const void* value, Arg& a) const {
  // "CL_INVALID_ARG_INDEX if arg_index is not a valid argument index."
  if (index >= info_.args.size()) return CL_INVALID_ARG_INDEX;
  const spirv::KernelArg& r = info_.args[index];
  a = Arg{};
  a.set = true;
  switch (r.kind) {
    case ArgKind::GlobalPointer:
    case ArgKind::ConstantPointer:
    case ArgKind::GenericPointer: {
      // "CL_INVALID_ARG_SIZE if arg_size does not match the size of the data type for an argument
      // that is not a memory object or if the argument is a memory object and arg_size !=
      // sizeof(cl_mem)".
      if (size != sizeof(cl_mem)) return CL_INVALID_ARG_SIZE;
      // "If the argument is a buffer object, the arg_value pointer can be NULL or point to a NULL
      // value in which case a NULL value will be used as the value for the argument".
      cl_mem handle = value ? *static_cast<const cl_mem*>(value) : nullptr;
      void* address = nullptr;
      if (handle) {
        Memory* m = Memory::buffer(handle);
        // "CL_INVALID_MEM_OBJECT for an argument declared to be a memory object when the
        // specified arg_value is not a valid memory object" (for a pointer, a buffer).
        if (!m || &m->context() != &program_->context()) return CL_INVALID_MEM_OBJECT;
        a.memory = Ref<Memory>(m);
        a.handle = handle;
        a.serial = m->serial();
        address = m->address();
      }
      a.value.resize(sizeof address);
      std::memcpy(a.value.data(), &address, sizeof address);
      break;
    }
    case ArgKind::LocalPointer:
      // "CL_INVALID_ARG_VALUE if the argument is declared with the local qualifier and arg_value
      // is not NULL." / "CL_INVALID_ARG_SIZE if ... the argument is declared with the local
      // qualifier and arg_size is zero."
      if (value) return CL_INVALID_ARG_VALUE;
      if (size == 0) return CL_INVALID_ARG_SIZE;
      a.localSize = size;
      break;
    case ArgKind::ByValue:
      if (size != r.size) return CL_INVALID_ARG_SIZE;
      // "CL_INVALID_ARG_VALUE if arg_value specified is not a valid value."
      if (!value) return CL_INVALID_ARG_VALUE;
      a.value.assign(static_cast<const uint8_t*>(value), static_cast<const uint8_t*>(value) + size);
      break;
    case ArgKind::Sampler: {
      // "CL_INVALID_ARG_SIZE if ... arg_value points to a sampler object and arg_size is not equal
      // to sizeof(cl_sampler)"; "CL_INVALID_SAMPLER if the kernel argument is a sampler, but
      // arg_value does not point to a valid sampler object". The kernel holds the sampler (a
      // sampler has no destructor callback to miss).
      if (size != sizeof(cl_sampler)) return CL_INVALID_ARG_SIZE;
      Sampler* s = value ? Sampler::from(*static_cast<const cl_sampler*>(value)) : nullptr;
      if (!s || &s->context() != &program_->context()) return CL_INVALID_SAMPLER;
      a.sampler = Ref<Sampler>(s);
      a.value = valueFor(a, *zes_.front().device);
      break;
    }
    case ArgKind::Image: {
      // "... if the argument is a memory object and arg_size != sizeof(cl_mem)"; "CL_INVALID_MEM_OBJECT
      // ... if arg_value points to a valid memory object, but the memory object is not valid for
      // the kernel argument": "The memory object specified as argument value must be a 2D image
      // object if the argument is declared to be of type image2d_t" (and so on).
      if (size != sizeof(cl_mem)) return CL_INVALID_ARG_SIZE;
      cl_mem handle = value ? *static_cast<const cl_mem*>(value) : nullptr;
      Memory* m = Memory::image(handle);
      if (!m || &m->context() != &program_->context()) return CL_INVALID_MEM_OBJECT;
      if (index < imageTypes_.size() && imageTypes_[index] &&
          imageTypes_[index] != m->image()->type())
        return CL_INVALID_MEM_OBJECT;
      // "CL_INVALID_ARG_VALUE if the argument is an image declared with the read_only qualifier
      // and arg_value refers to an image object created with cl_mem_flags of CL_MEM_WRITE_ONLY or
      // if the image argument is declared with the write_only qualifier and arg_value refers to an
      // image object created with cl_mem_flags of CL_MEM_READ_ONLY" (OpenCL 3.0, clSetKernelArg).
      // A read_write argument both reads and writes: "Writing to a buffer or image object created
      // with CL_MEM_READ_ONLY inside a kernel is undefined" (and reading one created with
      // CL_MEM_WRITE_ONLY), so either is refused there too. Otherwise the kernel would write an
      // image that was created (and given to Level Zero, without ZE_IMAGE_FLAG_KERNEL_WRITE) as
      // read-only.
      const spirv::KernelArg& declared = info_.args[index];
      if ((declared.readsImage() && (m->flags() & CL_MEM_WRITE_ONLY)) ||
          (declared.writesImage() && (m->flags() & CL_MEM_READ_ONLY)))
        return CL_INVALID_ARG_VALUE;
      // Named like a buffer, without being held (Arg::handle, serial).
      a.memory = Ref<Memory>(m);
      a.handle = handle;
      a.serial = m->serial();
      a.value = valueFor(a, *zes_.front().device);
      break;
    }
    case ArgKind::Unsupported:
      // Pipes, queues and the like, which the device does not have: no value is valid.
      return CL_INVALID_ARG_VALUE;
  }
  return CL_SUCCESS;
}

cl_int Kernel::setArg(cl_uint index, size_t size, const void* value) {
  Arg a;
  if (cl_int err = encodeArg(index, size, value, a); err != CL_SUCCESS) return err;
  // The kernel names the buffer without holding it: clSetKernelArg takes no reference, and
  // "After the memobj reference count becomes zero and commands queued for execution on a
  // command-queue(s) that use memobj have finished, the memory object is deleted" (with its
  // destructor callbacks) even while it is still a kernel's argument.
  a.memory = Ref<Memory>();
  std::lock_guard lock(mutex_);
  cl_int err = applyLocked(index, a);
  if (err != CL_SUCCESS) return err;
  args_[index] = std::move(a);
  return CL_SUCCESS;
}

cl_int Kernel::encodeSvmArg(cl_uint index, const void* ptr, Arg& a) const {
  if (index >= info_.args.size()) return CL_INVALID_ARG_INDEX;
  // Only pointer arguments take an SVM pointer. The device supports fine-grain system SVM, so any
  // host pointer (or NULL) is a valid value.
  if (!isPointer(info_.args[index].kind)) return CL_INVALID_ARG_VALUE;
  a = Arg{};
  a.set = true;
  a.svm = ptr;
  a.value.resize(sizeof ptr);
  std::memcpy(a.value.data(), &ptr, sizeof ptr);
  return CL_SUCCESS;
}

cl_int Kernel::setArgSVMPointer(cl_uint index, const void* ptr) {
  Arg a;
  if (cl_int err = encodeSvmArg(index, ptr, a); err != CL_SUCCESS) return err;
  std::lock_guard lock(mutex_);
  if (cl_int err = applyLocked(index, a); err != CL_SUCCESS) return err;
  args_[index] = std::move(a);
  return CL_SUCCESS;
}

cl_int Kernel::setExecInfo(cl_kernel_exec_info param, size_t size, const void* value) {
  // "CL_INVALID_VALUE if param_name is not valid, if param_value is NULL or if the size
  // specified by param_value_size is not valid."
  if (!value) return CL_INVALID_VALUE;
  std::lock_guard lock(mutex_);
  switch (param) {
    case CL_KERNEL_EXEC_INFO_SVM_PTRS: {
      if (size == 0 || size % sizeof(void*)) return CL_INVALID_VALUE;
      auto* p = static_cast<void* const*>(value);
      svmPointers_.assign(p, p + size / sizeof(void*));
      return CL_SUCCESS;
    }
    case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM:
      if (size != sizeof(cl_bool)) return CL_INVALID_VALUE;
      // Every host pointer is reachable by the device: either value is honoured.
      fineGrainSystem_ = *static_cast<const cl_bool*>(value);
      return CL_SUCCESS;
    default: return CL_INVALID_VALUE;
  }
}

cl_int Kernel::ready(PerDevice& z) {
  std::lock_guard lock(readyMutex_);
  if (z.ready) return CL_SUCCESS;
  ze_kernel_properties_t props{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
  ze_result_t r = zeKernelGetProperties(z.ze, &props);
  if (r == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE) {
    // The kernel's code generation failed at its first need: the program has no executable for
    // it, as clEnqueueNDRangeKernel says ("CL_INVALID_PROGRAM_EXECUTABLE if there is no
    // successfully built program executable available for device associated with
    // command_queue"), and the reason joins the program's build log.
    program_->noteKernelFailure(*z.device, z.module->handle, name_);
    return CL_INVALID_PROGRAM_EXECUTABLE;
  }
  if (r != ZE_RESULT_SUCCESS) return fromZe(r);
  z.staticLocal = props.localMemSize;
  z.ready = true;
  return CL_SUCCESS;
}

cl_int Kernel::readyForQuery(PerDevice& z) {
  // The queries list no CL_INVALID_PROGRAM_EXECUTABLE: a kernel whose code cannot be generated
  // has none of the resources they describe ("CL_OUT_OF_RESOURCES if there is a failure to
  // allocate resources required by the OpenCL implementation on the device").
  cl_int err = ready(z);
  return err == CL_INVALID_PROGRAM_EXECUTABLE ? CL_OUT_OF_RESOURCES : err;
}

Kernel::PerDevice* Kernel::forDevice(const Device& d) {
  PerDevice* best = nullptr;
  int bestDepth = -1;
  for (auto& z : zes_) {
    if (!d.descendsFrom(z.device)) continue;
    int depth = 0;
    for (Device* x = z.device; x; x = x->parent()) ++depth;
    if (depth > bestDepth) bestDepth = depth, best = &z;
  }
  return best;
}

bool Kernel::allArgsSet() const {
  for (const Arg& a : args_)
    if (!a.set) return false;
  return true;
}

uint64_t Kernel::localMemoryBytes(const PerDevice& z, const std::vector<Arg>& args) {
  // Tessera's driver starts the static variables and each __local argument at a multiple of 128
  // bytes (OpenCL's largest type alignment; docs/architecture.md); sizes are the application's,
  // so the sum saturates rather than wraps (two sizes of 2^63 summed to 0 and passed the check).
  constexpr uint64_t kAlign = 128;
  auto aligned = [](uint64_t v) {
    uint64_t out;
    return support::checkedAlignUp(v, kAlign, out) ? out : UINT64_MAX;
  };
  uint64_t total = aligned(z.staticLocal);
  for (const Arg& a : args)
    if (a.localSize) total = support::saturatingAdd(total, aligned(a.localSize));
  return total;
}

Memory* Kernel::argBuffer(const Arg& a) {
  if (a.memory) return a.memory.get();
  Memory* m = Memory::from(a.handle);
  return m && m->serial() == a.serial ? m : nullptr;
}

bool Kernel::launchHolds(std::vector<RefCounted*>& out) {
  out.clear();
  out.push_back(this);
  out.push_back(program_.get());
  for (Arg& a : args_) {
    if (!a.handle) continue;
    Memory* m = argBuffer(a);
    if (!m) return false;
    out.push_back(m);
  }
  return true;
}

size_t Kernel::maxWorkGroupSize(const Device& d) const {
  size_t max = d.zeCompute().maxTotalGroupSize;
  return max ? max : 1;
}

cl_int Kernel::info(cl_kernel_info param, size_t size, void* value, size_t* sizeRet) {
  InfoWriter out(size, value, sizeRet);
  switch (param) {
    case CL_KERNEL_FUNCTION_NAME: return out.string(name_);
    case CL_KERNEL_NUM_ARGS: return out.scalar<cl_uint>(cl_uint(info_.args.size()));
    case CL_KERNEL_REFERENCE_COUNT: return out.scalar<cl_uint>(apiRefs());
    case CL_KERNEL_CONTEXT: return out.scalar<cl_context>(program_->context().handle());
    case CL_KERNEL_PROGRAM: return out.scalar<cl_program>(program_->handle());
    case CL_KERNEL_ATTRIBUTES: {
      // "For kernels not created from OpenCL C source and the clCreateProgramWithSource API call
      // the string returned from this query will be empty."
      std::vector<std::string> sources = program_->unitSources(unit_);
      if (sources.empty()) return out.string("");
      // The attributes' OpenCL C text: zeKernelGetSourceAttributes with a null *pString hands
      // out the kernel's own string; the source restores what SPIR-V loses (kernel_attributes.h).
      uint32_t n = 0;
      char* text = nullptr;
      std::string s;
      if (!zes_.empty() && zeKernelGetSourceAttributes(zes_.front().ze, &n, &text) ==
                               ZE_RESULT_SUCCESS && text)
        s = text;
      return out.string(withSourceSpelling(s, sources, name_));
    }
    default: return CL_INVALID_VALUE;
  }
}

cl_int Kernel::argInfo(cl_uint index, cl_kernel_arg_info param, size_t size, void* value,
                       size_t* sizeRet) {
  if (index >= info_.args.size()) return CL_INVALID_ARG_INDEX;
  const spirv::KernelArg& a = info_.args[index];
  // "CL_KERNEL_ARG_INFO_NOT_AVAILABLE if the argument information is not available for kernel":
  // "Kernel argument information is only available if the program object associated with kernel
  // is created with clCreateProgramWithSource and the program executable was built with the
  // -cl-kernel-arg-info option"; for SPIR-V it is what the module keeps as OpName on the
  // parameters.
  if (!program_->unitArgInfo(unit_)) return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
  bool named = false;
  for (const auto& x : info_.args) named |= !x.name.empty();
  if (!named) return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
  InfoWriter out(size, value, sizeRet);
  switch (param) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER: {
      cl_kernel_arg_address_qualifier q = CL_KERNEL_ARG_ADDRESS_PRIVATE;
      if (a.kind == ArgKind::GlobalPointer || a.kind == ArgKind::GenericPointer ||
          a.kind == ArgKind::Image)
        q = CL_KERNEL_ARG_ADDRESS_GLOBAL;
      else if (a.kind == ArgKind::ConstantPointer)
        q = CL_KERNEL_ARG_ADDRESS_CONSTANT;
      else if (a.kind == ArgKind::LocalPointer)
        q = CL_KERNEL_ARG_ADDRESS_LOCAL;
      return out.scalar(q);
    }
    case CL_KERNEL_ARG_ACCESS_QUALIFIER: {
      cl_kernel_arg_access_qualifier q = CL_KERNEL_ARG_ACCESS_NONE;
      if (a.kind == ArgKind::Image)
        q = a.imageAccess == 1   ? CL_KERNEL_ARG_ACCESS_WRITE_ONLY
            : a.imageAccess == 2 ? CL_KERNEL_ARG_ACCESS_READ_WRITE
                                 : CL_KERNEL_ARG_ACCESS_READ_ONLY;
      return out.scalar(q);
    }
    case CL_KERNEL_ARG_TYPE_NAME:
    case CL_KERNEL_ARG_TYPE_QUALIFIER: {
      ArgTypeInfo t = program_->argTypes(unit_, info_);
      if (param == CL_KERNEL_ARG_TYPE_NAME) return out.string(t.typeNames.at(index));
      return out.scalar<cl_kernel_arg_type_qualifier>(t.qualifiers.at(index));
    }
    case CL_KERNEL_ARG_NAME: return out.string(a.name);
    default: return CL_INVALID_VALUE;
  }
}

cl_int Kernel::queriedDevice(Device*& device, PerDevice*& z) {
  // "CL_INVALID_DEVICE if device is not in the list of devices associated with kernel or if device
  // is NULL but there is more than one device associated with kernel."
  if (!device) {
    if (zes_.size() != 1) return CL_INVALID_DEVICE;
    z = &zes_.front();
    device = z->device;
    return CL_SUCCESS;
  }
  z = forDevice(*device);
  return z ? CL_SUCCESS : CL_INVALID_DEVICE;
}

cl_int Kernel::workGroupInfo(Device* device, cl_kernel_work_group_info param, size_t size,
                             void* value, size_t* sizeRet) {
  PerDevice* z = nullptr;
  if (cl_int err = queriedDevice(device, z); err != CL_SUCCESS) return err;
  if (cl_int err = readyForQuery(*z); err != CL_SUCCESS) return err;
  InfoWriter out(size, value, sizeRet);
  ze_kernel_properties_t props{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
  ze_kernel_preferred_group_size_properties_t preferred{
      ZE_STRUCTURE_TYPE_KERNEL_PREFERRED_GROUP_SIZE_PROPERTIES};
  props.pNext = &preferred;
  if (ze_result_t r = zeKernelGetProperties(z->ze, &props); r != ZE_RESULT_SUCCESS) return fromZe(r);
  switch (param) {
    case CL_KERNEL_WORK_GROUP_SIZE: return out.scalar<size_t>(maxWorkGroupSize(*device));
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
      std::vector<size_t> s{0, 0, 0};
      if (info_.requiredSize)
        for (int i = 0; i < 3; ++i) s[i] = info_.requiredSize->size[i];
      return out.array(s);
    }
    case CL_KERNEL_LOCAL_MEM_SIZE: {
      // "the amount of local memory in bytes being used by a kernel. This includes local memory
      // that may be needed by an implementation to execute the kernel, variables declared inside
      // the kernel with the __local address qualifier and local memory to be allocated for
      // arguments to the kernel declared as pointers with the __local address qualifier and whose
      // size is specified with clSetKernelArg."
      std::lock_guard lock(mutex_);
      return out.scalar<cl_ulong>(localMemoryBytes(*z));
    }
    // "the preferred multiple of work-group size for launch. This is a performance hint": with
    // sub-groups, Level Zero's preferred multiple, the sub-group size (full sub-groups, full
    // widened chunks of lanes).
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
      return out.scalar<size_t>(
          device->subgroupSupport() ? std::max(preferred.preferredMultiple, 1u) : 1u);
    // cl_intel_required_subgroup_size: "the amount of spill memory used by a kernel ... a return
    // value of 0 will always indicate that compiler was able to compile the kernel to fit into
    // the device's register file without spilling registers to memory" (Level Zero's
    // spillMemSize: spilled values live on the work-item's stack, counted in its private memory).
    case CL_KERNEL_SPILL_MEM_SIZE_INTEL:
      if (!device->subgroupSupport()) return CL_INVALID_VALUE;
      return out.scalar<cl_ulong>(props.spillMemSize);
    case CL_KERNEL_PRIVATE_MEM_SIZE: return out.scalar<cl_ulong>(props.privateMemSize);
    case CL_KERNEL_GLOBAL_WORK_SIZE:
      // "CL_INVALID_VALUE if param_name is CL_KERNEL_GLOBAL_WORK_SIZE and device is not a custom
      // device and kernel is not a built-in kernel."
      return CL_INVALID_VALUE;
    default: return CL_INVALID_VALUE;
  }
}

}  // namespace tessera::cl
