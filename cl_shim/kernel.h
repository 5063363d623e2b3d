// A cl_kernel: one Level Zero kernel per device the program has an executable for (made from that
// device's module), the kernel's reflection, and CL-side records of its arguments. clSetKernelArg
// applies a value to every ze kernel at once; Level Zero copies argument values when a launch is
// appended, so setting an argument later never changes an enqueued launch. The records say which
// arguments were set (CL_INVALID_KERNEL_ARGS) and hold the buffers the arguments name, which each
// launch then holds until it completes.
#pragma once

#include <level_zero/ze_api.h>

#include <mutex>
#include <vector>

#include "cl_shim/memory.h"
#include "cl_shim/object.h"
#include "cl_shim/program.h"
#include "cl_shim/sampler.h"

namespace tessera::cl {

class Kernel : public Object<_cl_kernel, 0x4b524e31 /* "KRN1" */> {
 public:
  static Kernel* create(Program& program, const std::string& name, cl_int& err);
  Kernel* clone(cl_int& err);
  static Kernel* from(cl_kernel h) { return Object::from<Kernel>(h); }

  struct Arg {
    bool set = false;
    // A buffer or image argument: named by handle and serial (Memory::serial). A kernel object
    // does not keep its arguments' memory objects alive; `memory` holds one only where a copy of
    // the values must (a recording's dispatches).
    cl_mem handle = nullptr;
    uint64_t serial = 0;
    Ref<Memory> memory;
    Ref<Sampler> sampler;        // a sampler argument (held)
    std::vector<uint8_t> value;  // what was given to the ze kernels (valueFor: per device)
    size_t localSize = 0;        // __local arguments
    const void* svm = nullptr;   // clSetKernelArgSVMPointer
  };

  struct PerDevice {
    Device* device;
    ZeModulePtr module;
    ze_kernel_handle_t ze = nullptr;
    // The kernel's static __local bytes, asked of Level Zero once, by ready(): every enqueue
    // checks them.
    uint64_t staticLocal = 0;
    bool ready = false;  // the ze kernel has code (ready())
    // Unique in the process (never reused, unlike a handle's address): names this ze kernel in
    // the per-thread memo of the driver's group-size choice (ndrange.cpp).
    uint64_t serial = 0;
  };

  Program& program() const { return *program_; }
  const spirv::KernelInfo& reflection() const { return info_; }
  // Launches need uniform work-groups (OpenCL C before 2.0, -cl-uniform-work-group-size).
  bool uniformGroupsOnly() const { return uniformGroups_; }

  cl_int setArg(cl_uint index, size_t size, const void* value);
  cl_int setArgSVMPointer(cl_uint index, const void* ptr);
  cl_int setExecInfo(cl_kernel_exec_info param, size_t size, const void* value);
  // What setArg / setArgSVMPointer check and would store, without changing the kernel (for
  // cl_qcom_recordable_queues' updates, which are never reflected in the kernel object).
  cl_int encodeArg(cl_uint index, size_t size, const void* value, Arg& out) const;
  cl_int encodeSvmArg(cl_uint index, const void* ptr, Arg& out) const;
  // The arguments as set. Under mutex().
  const std::vector<Arg>& args() const { return args_; }

  // The ze kernel for a launch on `d` (its own device's or the nearest ancestor's); null when the
  // program has no executable for either.
  PerDevice* forDevice(const Device& d);
  // The ze kernel `z` with its code (Tessera generates a kernel's code at its first need,
  // ZE_tessera_module_kernels 1.1), and z.staticLocal known: what every launch and every query of
  // the code asks first. CL_INVALID_PROGRAM_EXECUTABLE when its code generation fails, the reason
  // joining the program's build log. Not under mutex().
  cl_int ready(PerDevice& z);
  // ready() for clGetKernelWorkGroupInfo and clGetKernelSubGroupInfo: CL_OUT_OF_RESOURCES instead.
  cl_int readyForQuery(PerDevice& z);
  // The mutex that serializes argument setting and appending launches.
  std::mutex& mutex() { return mutex_; }
  // True when every argument has a value. Under mutex().
  bool allArgsSet() const;
  // Bytes of __local memory a launch needs: the kernel's static __local variables plus the sizes
  // given to its __local arguments, each start aligned as the driver lays them out; the largest
  // uint64_t when the sum does not fit (never a wrapped total). Under mutex().
  uint64_t localMemoryBytes(const PerDevice& z) const { return localMemoryBytes(z, args_); }
  static uint64_t localMemoryBytes(const PerDevice& z, const std::vector<Arg>& args);
  // Objects a launch holds: the kernel, its program, the buffers its arguments name, into `out`
  // (cleared first, so a caller can keep one vector's storage across launches). False when an
  // argument names a buffer the application has released since. Under mutex().
  bool launchHolds(std::vector<RefCounted*>& out);
  // The live buffer or image an argument names; null when it was released.
  static Memory* argBuffer(const Arg& a);
  // What the ze kernel of device `d` is given for `a`: its value, or for an image or sampler the
  // Level Zero image or sampler of d's root device.
  static std::vector<uint8_t> valueFor(const Arg& a, const Device& d);

  cl_int info(cl_kernel_info param, size_t size, void* value, size_t* sizeRet);
  cl_int argInfo(cl_uint index, cl_kernel_arg_info param, size_t size, void* value,
                 size_t* sizeRet);
  cl_int workGroupInfo(Device* device, cl_kernel_work_group_info param, size_t size, void* value,
                       size_t* sizeRet);
  // clGetKernelSubGroupInfo, and with `khr` clGetKernelSubGroupInfoKHR (kernel_subgroups.cpp).
  cl_int subGroupInfo(Device* device, cl_kernel_sub_group_info param, size_t inputSize,
                      const void* input, size_t size, void* value, size_t* sizeRet, bool khr);
  // CL_KERNEL_WORK_GROUP_SIZE on `d`.
  size_t maxWorkGroupSize(const Device& d) const;

 protected:
  ~Kernel() override;
  void onApiReleased() override;

 private:
  Kernel() = default;
  cl_int makeZeKernels();
  // The device a query names and its ze kernel: `device` itself, or when it is null the kernel's
  // only device; CL_INVALID_DEVICE otherwise.
  cl_int queriedDevice(Device*& device, PerDevice*& z);
  cl_int applyLocked(cl_uint index, const Arg& a);

  Ref<Program> program_;
  std::string name_;
  spirv::KernelInfo info_;
  size_t unit_ = 0;
  bool uniformGroups_ = false;  // Program::Unit::uniformGroups of the kernel's unit
  bool attached_ = false;  // counted in program_->attachedKernels
  std::vector<PerDevice> zes_;
  std::vector<Arg> args_;
  std::vector<cl_mem_object_type> imageTypes_;  // per argument; empty without image arguments
  std::vector<void*> svmPointers_;
  cl_bool fineGrainSystem_ = CL_TRUE;
  mutable std::mutex mutex_;
  std::mutex readyMutex_;  // ready(): one compile per ze kernel
};

}  // namespace tessera::cl
