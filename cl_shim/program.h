// A cl_program: one or more units, SPIR-V or Tessera IR (one for a program made from IL, source or a binary; one
// per input for a linked program) and, per device it was built for, one Level Zero module per unit.
// Modules made for a device also serve the device's sub-devices (zeModuleCreate's module for a
// device runs on its partitions), so a kernel launched on a queue whose device descends from a
// device the program was built for uses that device's modules.
#pragma once

#include <level_zero/ze_api.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cl_shim/context.h"
#include "cl_shim/kernel_arg_types.h"
#include "cl_shim/object.h"
#include "spirv/opencl_c.h"
#include "spirv/reflect.h"

namespace tessera::cl {

// A Level Zero module, destroyed with the last holder (a program's build or a kernel made from it),
// so rebuilding a program never pulls a module from under an enqueued launch.
struct ZeModule {
  explicit ZeModule(ze_module_handle_t h) : handle(h) {}
  ~ZeModule() { if (handle) zeModuleDestroy(handle); }
  ZeModule(const ZeModule&) = delete;
  ZeModule& operator=(const ZeModule&) = delete;
  ze_module_handle_t handle;
};
using ZeModulePtr = std::shared_ptr<ZeModule>;

using ProgramNotify = void(CL_CALLBACK*)(cl_program, void*);

class Program : public Object<_cl_program, 0x50524731 /* "PRG1" */> {
 public:
  enum class Origin { IL, Source, Binary, Linked };

  // One unit and what reflection says about it: SPIR-V, or Tessera IR for programs built from
  // source (the driver's TESSERA_ZE_MODULE_FORMAT_LLVM_IR: no SPIR-V is made for them).
  struct Unit {
    std::vector<uint8_t> module;
    bool ir = false;  // `module` is Tessera IR
    // `info` is known: SPIR-V's reflection, or for Tessera IR the driver's, once a module exists
    // (Program::adoptKernelTables).
    bool reflected = false;
    spirv::ModuleInfo info;
    // The OpenCL C sources the unit was compiled from (several once linked); empty for units
    // from IL or binaries. CL_KERNEL_ATTRIBUTES reads them.
    std::vector<std::string> sources;
    // False when the unit was compiled from source without -cl-kernel-arg-info (then, for all
    // the unit's kernels, "CL_KERNEL_ARG_INFO_NOT_AVAILABLE if the argument information is not
    // available for kernel"); units from IL or binaries have what their SPIR-V names.
    bool argInfo = true;
    // The unit's kernels launch with uniform work-groups only (global size a multiple of the
    // local size). clEnqueueNDRangeKernel: "non-uniform work-groups are enabled only if the
    // program was compiled with the -cl-std=CL2.0 or -cl-std=CL3.0 flags and without the
    // -cl-uniform-work-group-size flag. If the program was created using clLinkProgram and any of
    // the linked programs were compiled in a way that only supports uniform work-group sizes, the
    // linked program only supports uniform work group sizes." IL and binaries: only the flag.
    bool uniformGroups = false;
  };

  // What clBuildProgram / clCompileProgram / clLinkProgram left for one device.
  struct DeviceBuild {
    cl_build_status status = CL_BUILD_NONE;
    cl_program_binary_type binaryType = CL_PROGRAM_BINARY_TYPE_NONE;
    std::string options;
    std::string log;
    std::vector<ZeModulePtr> modules;  // one per unit when an executable; empty otherwise
  };

  static Program* createWithIL(Context& context, const void* il, size_t length, cl_int& err);
  static Program* createWithSource(Context& context, std::string source);
  static Program* createWithBinary(Context& context, const std::vector<Device*>& devices,
                                   const size_t* lengths, const unsigned char** binaries,
                                   cl_int* binaryStatus, cl_int& err);
  // clLinkProgram. On a link failure the program is still returned (err CL_LINK_PROGRAM_FAILURE)
  // so that its build log can be read.
  static Program* link(Context& context, const std::vector<Device*>& devices,
                       const std::string& options, const std::vector<Program*>& inputs,
                       cl_int& err);
  static Program* from(cl_program h) { return Object::from<Program>(h); }

  Context& context() const { return *context_; }
  Origin origin() const { return origin_; }

  // CL_PROGRAM_DEVICES before any build: the context's devices, or those given with binaries.
  const std::vector<Device*>& baseDevices() const { return baseDevices_; }
  // May `d` be named in clBuildProgram / clGetProgramBuildInfo (cl_ext_device_fission rules)?
  bool knowsDevice(const Device* d) const;

  cl_int build(const std::vector<Device*>& devices, const std::string& options);
  cl_int compile(const std::vector<Device*>& devices, const std::string& options,
                 const std::vector<std::pair<std::string, std::string>>& headers);
  cl_int setSpecializationConstant(cl_uint specId, size_t size, const void* value);

  // The modules a launch on `d` uses: those built for `d` or its nearest ancestor; empty when none.
  // *builtFor receives that device.
  std::vector<ZeModulePtr> modulesFor(const Device& d, Device** builtFor = nullptr);
  // Devices with an executable, in build order.
  std::vector<Device*> executableDevices();
  // The kernels of every executable's modules compiled now, several at once (Tessera compiles a
  // kernel when it is first needed, ZE_tessera_module_kernels): clCreateKernelsInProgram asks
  // first. What fails is reported by the kernels' creation.
  void compileAllKernels();
  // zeKernelCreate of `name` in `module` (built for `d` or its ancestor) failed with
  // MODULE_BUILD_FAILURE (its code generation, at its first need): the reason joins the build log
  // of the device the module was built for.
  void noteKernelFailure(const Device& d, ze_module_handle_t module, const std::string& name);
  // The kernel `name`: the unit that defines it and its reflection; null if no unit has it.
  const spirv::KernelInfo* findKernel(const std::string& name, size_t* unit) const;
  // Every kernel of every unit, in order.
  std::vector<std::pair<size_t, const spirv::KernelInfo*>> kernels() const;

  // What clGetKernelArgInfo and image arguments need of `kernel`, a kernel of `unit`.
  ArgTypeInfo argTypes(size_t unit, const spirv::KernelInfo& kernel) const;

  // Whether a unit's kernels launch with uniform work-groups only (Unit::uniformGroups).
  bool unitUniformGroups(size_t unit) const {
    std::lock_guard lock(mutex_);
    return unit < units_.size() && units_[unit].uniformGroups;
  }

  // Whether a unit's kernels answer clGetKernelArgInfo (Unit::argInfo).
  bool unitArgInfo(size_t unit) const {
    std::lock_guard lock(mutex_);
    return unit < units_.size() && units_[unit].argInfo;
  }

  // The sources of a unit (Unit::sources).
  std::vector<std::string> unitSources(size_t unit) const {
    std::lock_guard lock(mutex_);
    return unit < units_.size() ? units_[unit].sources : std::vector<std::string>{};
  }

  // Kernel objects the application holds: "CL_INVALID_OPERATION if there are kernel objects
  // attached to program" (clBuildProgram, clCompileProgram).
  std::atomic<int> attachedKernels{0};

  cl_int info(cl_program_info param, size_t size, void* value, size_t* sizeRet);
  cl_int buildInfo(Device& device, cl_program_build_info param, size_t size, void* value,
                   size_t* sizeRet);

 private:
  Program() = default;
  // Makes one module per unit on `d` (optionally linked together) with zeModuleCreate's
  // pBuildFlags `flags`; returns the CL code and appends to `log`.
  cl_int makeModules(Device& d, const std::string& flags, std::vector<ZeModulePtr>& out,
                     std::string& log);
  // The kernels of each Tessera IR unit not reflected yet, from the driver's reflection of its
  // module in `modules` (one per unit, in order); false when one cannot be read.
  bool adoptKernelTables(const std::vector<ZeModulePtr>& modules);
  DeviceBuild* recordFor(const Device& d);  // exact record or null; mutex_ held
  std::vector<Device*> programDevicesLocked() const;

  Ref<Context> context_;
  Origin origin_ = Origin::IL;
  std::vector<Device*> baseDevices_;
  std::vector<Ref<Device>> deviceRefs_;  // sub-devices named in binaries or builds stay alive
  std::vector<Unit> units_;
  std::vector<uint8_t> il_;  // CL_PROGRAM_IL (IL programs only)
  std::string source_;       // CL_PROGRAM_SOURCE (source programs only)
  std::map<uint32_t, std::vector<uint8_t>> specConstants_;

  mutable std::mutex mutex_;
  std::vector<std::pair<Device*, DeviceBuild>> builds_;
};

// The front end for OpenCL C (program_compiler.cpp): source to Tessera IR (clBuildProgram, and
// clCompileProgram's objects, which clLinkProgram links and CL_PROGRAM_BINARIES gives) or, with
// TESSERA_CL_BUILD_IR=0, SPIR-V.
struct CompileResult {
  // CL_SUCCESS, CL_COMPILE_PROGRAM_FAILURE or CL_INVALID_BUILD_OPTIONS
  cl_int error = CL_SUCCESS;
  std::vector<uint8_t> module;
  std::string log;
  // From the options as the front end parsed them (once): zeModuleCreate's pBuildFlags, and
  // whether -cl-kernel-arg-info was given.
  std::string moduleFlags;
  bool argInfo = false;
  // Whether the program's kernels need uniform work-groups (Program::Unit::uniformGroups).
  bool uniformGroups = false;
};
CompileResult compileSource(const std::string& source, const std::string& options,
                            const std::vector<std::pair<std::string, std::string>>& headers,
                            spirv::CompileOutput output);

// A unit of `module`, SPIR-V or Tessera IR. SPIR-V is reflected here (its specialization
// constants are needed before any module exists); Tessera IR is not: its kernels are the driver's
// reflection of the module made from it (Program's adoptKernelTables), so the bitcode is read once.
// `error` gets why SPIR-V does not reflect.
Program::Unit makeUnit(std::vector<uint8_t> module, std::string* error);

// Appends `more` to a build log on a line of its own.
void appendLog(std::string& log, const std::string& more);

// clLinkProgram's work on the inputs' units (program_link.cpp): functions, variables and types
// defined in one input and declared extern in another resolve before any code exists. Tessera IR
// units (OpenCL C compiled by clCompileProgram) are linked as LLVM IR (spirv/ir_link.h), SPIR-V
// units of one version as SPIR-V (spirv/link.h). SPIR-V units of different versions, and SPIR-V
// beside Tessera IR, stay separate units, each a module whose imports zeModuleDynamicLink resolves
// (Program::makeModules); a name two of them define is still a failure here.
// "-create-library: Create a library of compiled binaries": the result keeps its exports and may
// leave imports to a later link.
struct LinkedUnits {
  bool ok = false;
  std::string log;
  std::vector<Program::Unit> units;
};
LinkedUnits linkUnits(std::vector<Program::Unit> inputs, bool createLibrary);

}  // namespace tessera::cl
