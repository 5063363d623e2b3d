#include "core/module/module.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "compiler/compiler.h"
#include "compiler/lazy_code.h"
#include "core/context/context.h"
#include "core/device/device.h"
#include "core/device/limits.h"
#include "core/driver/driver.h"
#include "spirv/clc/translate.h"
#include "spirv/opencl_c.h"

namespace tessera::core {
namespace {

// The first kernel of `code` whose static __local variables alone are more than `device`'s local
// memory: a build-log line naming it, or empty.
std::string staticLocalTooLarge(const compiler::ModuleCode& code, const Device& device) {
  const uint32_t max = limits::maxSharedLocalMemory(device.resources());
  for (size_t i = 0; i < code.kernelCount(); ++i) {
    const compiler::KernelCode& k = code.kernel(i);
    if (k.staticLocalBytes > max)
      return "kernel " + k.name + " uses " + std::to_string(k.staticLocalBytes) +
             " bytes of static __local memory; the device has " + std::to_string(max) +
             " (maxSharedLocalMemory)\n";
  }
  return {};
}

// The first kernel of `program` whose arguments take more than the device reports
// (ze_device_module_properties_t::maxArgumentsSize, OpenCL's CL_DEVICE_MAX_PARAMETER_SIZE: "Max
// size in bytes of all arguments that can be passed to a kernel"): a build-log line naming it, or
// empty. Counted as OpenCL C's sizeof of each argument (a value's size, a pointer's, an image's or
// a sampler's 8 bytes), from the SPIR-V, so a kernel compiled only when first needed is refused at
// the module's creation too.
std::string argumentsTooLarge(const compiler::Program& program) {
  for (const spirv::KernelInfo& k : program.info.kernels) {
    uint64_t bytes = 0;
    for (const spirv::KernelArg& a : k.args)
      bytes += a.kind == spirv::ArgKind::ByValue ? a.size : sizeof(void*);
    if (bytes > limits::kMaxArgumentsSize)
      return "kernel " + k.name + " takes " + std::to_string(bytes) +
             " bytes of arguments; the device takes at most " +
             std::to_string(limits::kMaxArgumentsSize) + " (maxArgumentsSize)\n";
  }
  return {};
}

}  // namespace

ze_result_t Module::create(Context& context, Device& device, const ze_module_desc_t& desc,
                           Module*& out, std::string& log) {
  ze_result_t r = build(context, device, desc, out, log);
  if (r != ZE_RESULT_SUCCESS || !out) return r;
  if (std::string why = argumentsTooLarge(*out->program_); !why.empty()) {
    out->release();
    out = nullptr;
    log += why;
    return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
  }
  // A kernel no work-group of the device can run is a build error with a clear line, as the
  // reference driver answers MODULE_BUILD_FAILURE when a kernel's shared local memory is larger
  // than the device's (each kernel counts only the variables it reaches; launches check the
  // static and the argument sizes together).
  if (auto code = out->code()) {
    if (std::string why = staticLocalTooLarge(*code, device); !why.empty()) {
      out->release();
      out = nullptr;
      log += why;
      return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    }
  }
  return r;
}

ze_result_t Module::build(Context& context, Device& device, const ze_module_desc_t& desc,
                          Module*& out, std::string& log) {
  compiler::Compiler& compiler = device.driver().compiler();
  compiler::Compiler::Result built;
  if (desc.format == ZE_MODULE_FORMAT_NATIVE) {
    built = compiler.load({desc.pInputModule, desc.inputSize});
    if (!built.ok()) {
      log = std::move(built.log);
      return ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
    }
  } else if (desc.format == kModuleFormatTesseraIR) {
    std::span<const uint8_t> input{desc.pInputModule, desc.inputSize};
    // The application's bytes: read once in the compiler process, where a reader that trusts its
    // input can fail without ending the application (spirv/clc/translate.h).
    std::string why = compiler::formatOf(input) != compiler::ModuleFormat::TesseraIR
                          ? "not LLVM bitcode\n"
                          : spirv::checkTesseraIR(input, &compiler.settings().process);
    if (desc.pConstants && desc.pConstants->numConstants > 0)
      why += "Tessera IR has no specialization constants\n";
    if (!why.empty()) {
      log = "invalid Tessera IR: " + why;
      return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    }
    built = compiler.build(input, desc.pBuildFlags, {});
    log = std::move(built.log);
    if (!built.ok()) return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
  } else if (desc.format == ZE_MODULE_FORMAT_IL_SPIRV ||
             desc.format == kModuleFormatOpenCLC) {
    // OpenCL C source (Intel's format): compiled in the compiler process (with the frontend
    // cache) into Tessera IR, which the code generator reads without SPIR-V (spirv/friendly_ir.h),
    // its build options giving the module's flags.
    std::span<const uint8_t> input{desc.pInputModule, desc.inputSize};
    const char* buildFlags = desc.pBuildFlags;
    spirv::CompileResult source;
    if (desc.format == kModuleFormatOpenCLC) {
      source = spirv::compileOpenCLC(
          std::string_view(reinterpret_cast<const char*>(desc.pInputModule), desc.inputSize),
          desc.pBuildFlags ? desc.pBuildFlags : "", {}, spirv::CompileOutput::TesseraIR);
      if (!source.ok) {
        log = std::move(source.log);
        return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
      }
      input = {reinterpret_cast<const uint8_t*>(source.ir.data()), source.ir.size()};
      buildFlags = source.options.moduleFlags.c_str();
    } else if (compiler::formatOf(input) != compiler::ModuleFormat::Spirv) {
      // Tessera IR is made by Tessera's own front end, not taken from applications (its bitcode
      // reader trusts its input): an IL that is bitcode is not SPIR-V.
      log = "invalid SPIR-V: the module is LLVM bitcode\n";
      return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    }
    std::vector<compiler::Compiler::SpecConstant> constants;
    if (const ze_module_constants_t* c = desc.pConstants) {
      if (c->numConstants > 0 && (!c->pConstantIds || !c->pConstantValues))
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;  // zeModuleCreate refuses it first
      for (uint32_t i = 0; i < c->numConstants; ++i)
        constants.push_back({c->pConstantIds[i], c->pConstantValues[i]});
    }
    built = compiler.build(input, buildFlags, constants);
    log = source.log + built.log;  // clang's warnings, then the build's
    if (!built.ok()) return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
  } else {
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  }
  // A module that imports symbols has no code until zeModuleDynamicLink has resolved them; until
  // then zeKernelCreate answers ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED.
  auto* m = new Module(context, device);
  m->program_ = std::move(built.program);
  m->code_ = std::move(built.code);
  m->lazy_ = std::move(built.lazy);
  out = m;
  return ZE_RESULT_SUCCESS;
}

compiler::Compiler& Module::compiler() const {
  return device_.driver().compiler();
}

std::vector<uint8_t> Module::nativeBinary(bool compileAll) const {
  if (lazy_) {
    // "every kernel": those not compiled yet are compiled now; a binary without code when one
    // cannot be (its module compiles from the SPIR-V again, compiler.h's load).
    std::string log;
    auto whole = !compileAll || lazy_->compile({}, log) ? lazy_->whole() : nullptr;
    return compiler().nativeBinary(*program_, whole.get());
  }
  auto code = this->code();
  // Code that uses another module's variables in place holds their addresses in this process:
  // its binary carries none, and the module loaded from it links again (like an unlinked one's).
  std::lock_guard<std::mutex> lock(mutex_);
  return compiler().nativeBinary(*program_, boundStorage_ ? nullptr : code.get());
}

Module::Module(Context& context, Device& device) : context_(&context), device_(device) {}

Module::~Module() = default;

std::vector<std::string> Module::kernelNames() const {
  std::vector<std::string> names;
  for (const auto& k : program_->info.kernels) names.push_back(k.name);
  return names;
}

std::shared_ptr<const compiler::ModuleCode> Module::code() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return code_;
}

ze_result_t Module::compiled(const std::string& name, const compiler::KernelCode*& out) {
  out = nullptr;
  if (!lazy_) {
    auto code = this->code();  // code_ is never replaced once set: the pointer stays valid
    out = code ? code->find(name) : nullptr;
    return out ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
  }
  const auto& kernels = program_->info.kernels;
  size_t index = 0;
  while (index < kernels.size() && kernels[index].name != name) ++index;
  if (index == kernels.size()) return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
  std::string why;
  // The LazyCode keeps the kernel's code as long as this module holds it: the pointer stays valid.
  auto code = lazy_->kernel(index, why);
  if (code) {
    const compiler::KernelCode* k = code->find(name);
    why = k ? staticLocalTooLarge(*code, device_) : "kernel " + name + ": no code\n";
    if (why.empty()) {
      out = k;
      return ZE_RESULT_SUCCESS;
    }
  }
  // The kernel's failure, at its creation (zeModuleCreate compiled no kernel); the reason is what
  // zeTesseraModuleBuildKernels logs for it.
  return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
}

ze_result_t Module::compileKernels(const std::vector<std::string>& names, std::string& log) {
  const auto& kernels = program_->info.kernels;
  std::vector<size_t> indices;
  for (const std::string& name : names) {
    size_t index = 0;
    while (index < kernels.size() && kernels[index].name != name) ++index;
    if (index == kernels.size()) return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
    indices.push_back(index);
  }
  if (!lazy_) return ZE_RESULT_SUCCESS;  // compiled at creation (or, unlinked, at linking)
  if (names.empty())
    for (size_t i = 0; i < kernels.size(); ++i) indices.push_back(i);
  bool ok = lazy_->compile(indices, log);
  // What zeKernelCreate would refuse of a compiled kernel, too.
  for (size_t i : indices) {
    std::string ignored;
    if (auto code = lazy_->kernel(i, ignored)) {
      std::string why = staticLocalTooLarge(*code, device_);
      ok = ok && why.empty();
      log += why;
    }
  }
  return ok ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
}

uint32_t Module::compiledKernelCount() const {
  if (lazy_) return static_cast<uint32_t>(lazy_->compiledCount());
  auto code = this->code();
  return code ? static_cast<uint32_t>(code->kernelCount()) : 0;
}

bool Module::unlinked() const {
  return program_->needsLinking() && !code();
}

bool Module::hasStorage() const {
  return !program_->info.globalVariables.empty() || !program_->variableExports.empty();
}

ze_result_t Module::dynamicLink(const std::vector<Module*>& modules, std::string& log) {
  // 1. Every import of every module still to link, resolved by exactly one other module of the
  //    set (a function import by a module exporting that function, a variable import by one
  //    exporting that variable); the providers of an importer are collected transitively (a
  //    provider may import too).
  struct Plan {
    Module* importer;
    std::vector<Module*> providers;  // in the order their code is linked in
    std::shared_ptr<const compiler::ModuleCode> code;
    bool boundStorage = false;  // its code uses a provider's variables in place
  };
  std::vector<Plan> plans;
  std::string problems;
  for (Module* m : modules) {
    if (!m->unlinked()) continue;  // "Modules will only be linked once."
    if (std::find_if(plans.begin(), plans.end(), [&](const Plan& p) { return p.importer == m; }) !=
        plans.end())
      continue;
    Plan plan{m, {}, nullptr};
    std::vector<Module*> pending{m};
    for (size_t next = 0; next < pending.size(); ++next) {
      Module* user = pending[next];
      auto resolve = [&](const std::string& name, bool variable) {
        std::vector<Module*> found;
        for (Module* other : modules) {
          const compiler::Program& p = *other->program_;
          if (other != user && (variable ? p.exportsVariable(name) : p.exportsFunction(name)) &&
              std::find(found.begin(), found.end(), other) == found.end())
            found.push_back(other);
        }
        const char* kind = variable ? "variable " : "";
        if (found.empty()) {
          problems += std::string("unresolved import: ") + kind + name + "\n";
        } else if (found.size() > 1) {
          problems += std::string("ambiguous import: ") + kind + name + " is exported by " +
                      std::to_string(found.size()) + " modules\n";
        } else if (found[0] != m &&
                   std::find(pending.begin(), pending.end(), found[0]) == pending.end()) {
          pending.push_back(found[0]);
          plan.providers.push_back(found[0]);
        }
      };
      for (const std::string& name : user->program_->imports) resolve(name, false);
      for (const std::string& name : user->program_->variableImports) resolve(name, true);
    }
    plans.push_back(std::move(plan));
  }
  if (!problems.empty()) {
    log = problems;
    return ZE_RESULT_ERROR_MODULE_LINK_FAILURE;
  }
  // 2. Each importer's code with its providers' (only what it needs), from the compiler. A
  //    provider with program-scope variables lends them in place, so it must have code first:
  //    importers are linked after such providers of the set (a cycle of them cannot link).
  auto planOf = [&](const Module* p) -> Plan* {
    for (Plan& q : plans)
      if (q.importer == p) return &q;
    return nullptr;
  };
  for (size_t done = 0; done < plans.size();) {
    Plan* ready = nullptr;
    for (Plan& plan : plans) {
      if (plan.code) continue;
      bool waits = false;
      for (const Module* p : plan.providers) {
        const Plan* q = planOf(p);
        waits = waits || (p->hasStorage() && q && !q->code);
      }
      if (!waits) {
        ready = &plan;
        break;
      }
    }
    if (!ready) {
      log +=
          "cannot link: modules import program-scope variables from each other in a cycle "
          "(the module defining a variable is compiled before the modules importing it)\n";
      return ZE_RESULT_ERROR_MODULE_LINK_FAILURE;
    }
    Module& m = *ready->importer;
    std::vector<compiler::Compiler::Provider> providers;
    for (const Module* p : ready->providers) {
      const Plan* q = planOf(p);
      const compiler::ModuleCode* code = q ? q->code.get() : p->code().get();
      if (!p->hasStorage()) code = nullptr;  // nothing to use in place: its code is not needed
      if (code && !code->globals.empty()) ready->boundStorage = true;
      providers.push_back({p->program_.get(), code});
    }
    auto code = m.compiler().link(*m.program_, providers, log);
    if (!code) return ZE_RESULT_ERROR_MODULE_LINK_FAILURE;
    if (std::string why = staticLocalTooLarge(*code, m.device_); !why.empty()) {
      log += why;
      return ZE_RESULT_ERROR_MODULE_LINK_FAILURE;
    }
    ready->code = std::move(code);
    ++done;
  }
  // 3. All linked: each importer gets its code, and the addresses of the variables it imports.
  for (Plan& plan : plans) {
    Module& m = *plan.importer;
    std::map<std::string, compiler::CompiledSymbol> imported;
    for (const std::string& name : m.program_->variableImports) {
      for (const Module* p : plan.providers) {
        if (!p->program_->exportsVariable(name)) continue;
        const Plan* q = planOf(p);
        auto code = q ? q->code : p->code();
        if (!code) continue;  // (a definer of variables always has code by now)
        if (auto it = code->globals.find(name); it != code->globals.end())
          imported[name] = it->second;
      }
    }
    std::lock_guard<std::mutex> lock(m.mutex_);
    if (!m.code_) {
      m.code_ = std::move(plan.code);
      m.importedGlobals_ = std::move(imported);
      m.boundStorage_ = plan.boundStorage;
    }
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t Module::globalPointer(const std::string& name, size_t* size, void** ptr) const {
  auto code = this->code();
  if (!code)
    return program_->needsLinking() ? ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED
                                    : ZE_RESULT_ERROR_INVALID_GLOBAL_NAME;
  // Its own variables, then those it imports: the defining module's storage, which it uses.
  auto it = code->globals.find(name);
  if (it == code->globals.end()) {
    it = importedGlobals_.find(name);
    if (it == importedGlobals_.end()) return ZE_RESULT_ERROR_INVALID_GLOBAL_NAME;
  }
  if (size) *size = it->second.size;
  if (ptr) *ptr = it->second.address;
  return ZE_RESULT_SUCCESS;
}

ze_result_t Module::functionPointer(const std::string& name, void** ptr) const {
  std::string ignored;
  // A module compiled by kernel compiles its exported functions when one is first asked for.
  auto code = lazy_ ? lazy_->exported(ignored) : this->code();
  if (!code)
    return program_->needsLinking() ? ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED
                                    : ZE_RESULT_ERROR_INVALID_FUNCTION_NAME;
  auto it = code->functions.find(name);
  if (it == code->functions.end()) return ZE_RESULT_ERROR_INVALID_FUNCTION_NAME;
  *ptr = it->second.address;
  return ZE_RESULT_SUCCESS;
}

ze_result_t Module::destroy() {
  // "The application must destroy all kernel and build log handles created from the module before
  // destroying the module itself" is asked of the application, and Intel's driver destroys a module
  // whose kernels live with SUCCESS (programs rely on it). Kernels hold the module (Kernel::module_),
  // so they stay usable: only the handle ends here (docs/api-coverage.md, "Leniency").
  retireHandle();
  release();
  return ZE_RESULT_SUCCESS;
}

}  // namespace tessera::core
