// A module: a Program and its native code as the compiler facade (compiler/compiler.h) hands
// them out. The code is shared by every kernel made from the module (and by other modules of the
// same key) and lives as long as the driver's compiler.
#pragma once

#include <level_zero/ze_api.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "compiler/program.h"
#include "core/common/object.h"
#include "core/common/ref_counted.h"
#include "spirv/reflect.h"

namespace tessera::compiler {
class Compiler;
class LazyCode;
}

namespace tessera::core {

class Context;
class Device;

// Intel's module format of OpenCL C source (TESSERA_ZE_MODULE_FORMAT_OCLC in tessera/ze_tessera.h;
// level_zero checks they agree).
constexpr ze_module_format_t kModuleFormatOpenCLC = ze_module_format_t(3);
// Tessera IR (TESSERA_ZE_MODULE_FORMAT_LLVM_IR; spirv/friendly_ir.h).
constexpr ze_module_format_t kModuleFormatTesseraIR = ze_module_format_t(0x54530001U);

class Module : public Object<_ze_module_handle_t, 0x746573734d6f6431ull /* "tessMod1" */>,
               public RefCounted<Module> {
 public:
  // MODULE_BUILD_FAILURE with `log` when the binary, the options or the constants are refused or
  // the compile fails; INVALID_ENUMERATION for an unknown format. A native binary (from
  // nativeBinary()) loads without compiling; INVALID_NATIVE_BINARY with `log` when it is corrupt
  // or was compiled for another CPU (name or features).
  static ze_result_t create(Context& context, Device& device, const ze_module_desc_t& desc,
                            Module*& out, std::string& log);
  static Module* fromHandle(ze_module_handle_t h) { return Object::fromHandle<Module>(h); }

  Context& context() const { return *context_; }
  Device& device() const { return device_; }
  const compiler::Program& program() const { return *program_; }
  const spirv::ModuleInfo& info() const { return program_->info; }
  // The SPIR-V or Tessera IR the module was built from (also for a module loaded from a native
  // binary).
  const std::vector<uint8_t>& il() const { return program_->input; }
  std::vector<std::string> kernelNames() const;
  // The compiled kernel `name` (compiled now when the module compiles by kernel and nothing
  // compiled it yet, compiler/lazy_code.h). INVALID_KERNEL_NAME when the module has no such kernel;
  // MODULE_BUILD_FAILURE when its code generation failed or its static __local variables alone are
  // more than the device's local memory (compileKernels' log says why).
  ze_result_t compiled(const std::string& name, const compiler::KernelCode*& out);
  // The named kernels (every kernel when `names` is empty) compiled now, in parallel
  // (zeTesseraModuleBuildKernels); MODULE_BUILD_FAILURE with `log` when one fails as compiled()
  // would, INVALID_KERNEL_NAME when the module has no kernel of one of the names.
  ze_result_t compileKernels(const std::vector<std::string>& names, std::string& log);
  // Whether its kernels are compiled one by one when first needed (compiler/lazy_code.h), rather
  // than all at creation.
  bool compilesByKernel() const { return lazy_ != nullptr; }
  // How many of its kernels have code (all of a module compiled at creation).
  uint32_t compiledKernelCount() const;
  const spirv::KernelInfo* reflected(const std::string& name) const {
    return program_->info.findKernel(name);
  }
  // Imports (functions or variables) not yet resolved by zeModuleDynamicLink: kernels cannot be
  // created while any stays unresolved, and the module has no code yet.
  bool unlinked() const;
  // zeModuleDynamicLink: resolves the imports of every unlinked module of `modules` against the
  // exports of the others (each function or variable by exactly one module, transitively), then
  // has the compiler link the providers' code into each importer's; an imported variable is the
  // defining module's own storage (linked after it), as are the variables of functions it calls.
  // All or nothing: MODULE_LINK_FAILURE with `log` naming each unresolved or ambiguous symbol,
  // and no module changes.
  static ze_result_t dynamicLink(const std::vector<Module*>& modules, std::string& log);
  // zeModuleGetGlobalPointer / zeModuleGetFunctionPointer: INVALID_MODULE_UNLINKED before the
  // module is linked, INVALID_GLOBAL_NAME / INVALID_FUNCTION_NAME for names it does not define
  // (or, for variables, import: the defining module's address).
  ze_result_t globalPointer(const std::string& name, size_t* size, void** ptr) const;
  ze_result_t functionPointer(const std::string& name, void** ptr) const;
  // zeModuleGetNativeBinary: the SPIR-V, its specialization and options, and (once compiled) the
  // JIT's object code with what the kernels need (compiler/native_binary.h).
  // A module that compiles by kernel compiles those it has not yet first (in parallel); when one
  // cannot be compiled, the binary carries no code and a module created from it compiles its
  // kernels from its SPIR-V, again when first needed. Without `compileAll`
  // (zeTesseraModuleGetNativeBinaryAsIs) nothing is compiled for it: the binary carries code only
  // when every kernel has some already.
  std::vector<uint8_t> nativeBinary(bool compileAll = true) const;

  // zeModuleDestroy: ends the handle; kernels made from the module keep it.
  ze_result_t destroy();

 private:
  Module(Context& context, Device& device);
  ~Module();
  friend class RefCounted<Module>;

  static ze_result_t build(Context& context, Device& device, const ze_module_desc_t& desc,
                           Module*& out, std::string& log);
  std::shared_ptr<const compiler::ModuleCode> code() const;
  compiler::Compiler& compiler() const;
  // Whether it has program-scope variables another module's code may use in place.
  bool hasStorage() const;

  Ref<Context> context_;  // held: the context may be destroyed first (context.h)
  Device& device_;
  std::shared_ptr<const compiler::Program> program_;
  mutable std::mutex mutex_;  // code_ and the two below: set once, at creation or by dynamicLink
  std::shared_ptr<const compiler::ModuleCode> code_;
  // The code of a module that compiles by kernel (code_ then stays null): set at creation.
  std::shared_ptr<compiler::LazyCode> lazy_;
  // The variables it imports, where their defining modules keep them.
  std::map<std::string, compiler::CompiledSymbol> importedGlobals_;
  bool boundStorage_ = false;  // code_ uses other modules' variables in place
};

// zeModuleBuildLogGetString's text.
class BuildLog
    : public Object<_ze_module_build_log_handle_t, 0x746573734c6f6731ull /* "tessLog1" */> {
 public:
  explicit BuildLog(std::string text) : text_(std::move(text)) {}
  static BuildLog* fromHandle(ze_module_build_log_handle_t h) {
    return Object::fromHandle<BuildLog>(h);
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

}  // namespace tessera::core
