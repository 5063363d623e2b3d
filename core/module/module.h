// A module: SPIR-V reflected, validated, specialized, translated to LLVM IR and JIT-compiled into a
// work-group function per kernel (backends/cpu/jit). The compiled code is shared by every kernel
// made from the module and lives as long as the process's JIT.
#pragma once

#include <level_zero/ze_api.h>

#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/jit/kernel_abi.h"
#include "core/common/object.h"
#include "core/common/ref_counted.h"
#include "spirv/reflect.h"

namespace tessera::backends::cpu {
struct CompiledModule;
}

namespace tessera::core {

class Context;
class Device;

class Module : public Object<_ze_module_handle_t, 0x746573734d6f6431ull /* "tessMod1" */>,
               public RefCounted<Module> {
 public:
  // MODULE_BUILD_FAILURE with `log` when the binary, the options or the constants are refused or
  // the compile fails; INVALID_ENUMERATION for an unknown format; UNSUPPORTED_FEATURE for native
  // binaries (not supported yet).
  static ze_result_t create(Context& context, Device& device, const ze_module_desc_t& desc,
                            Module*& out, std::string& log);
  static Module* fromHandle(ze_module_handle_t h) { return Object::fromHandle<Module>(h); }

  Context& context() const { return context_; }
  Device& device() const { return device_; }
  const spirv::ModuleInfo& info() const { return info_; }
  std::vector<std::string> kernelNames() const;
  // The compiled kernel and its reflection, or nulls when the module has no kernel of that name.
  const backends::cpu::CompiledKernel* compiled(const std::string& name) const;
  const spirv::KernelInfo* reflected(const std::string& name) const { return info_.findKernel(name); }
  // Imports the module declares: kernels cannot be created while any stays unresolved.
  bool unlinked() const;

  // zeModuleDestroy: refused while kernels made from the module live.
  ze_result_t destroy();
  void addKernel() { ++liveKernels_; }
  void removeKernel() { --liveKernels_; }

 private:
  Module(Context& context, Device& device) : context_(context), device_(device) {}
  ~Module();
  friend class RefCounted<Module>;

  Context& context_;
  Device& device_;
  spirv::ModuleInfo info_;
  std::shared_ptr<const backends::cpu::CompiledModule> code_;
  std::atomic<uint32_t> liveKernels_{0};
};

// zeModuleBuildLogGetString's text.
class BuildLog : public Object<_ze_module_build_log_handle_t, 0x746573734c6f6731ull /* "tessLog1" */> {
 public:
  explicit BuildLog(std::string text) : text_(std::move(text)) {}
  static BuildLog* fromHandle(ze_module_build_log_handle_t h) { return Object::fromHandle<BuildLog>(h); }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

}  // namespace tessera::core
