#include "core/module/module.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>

#include "backends/cpu/jit/builtin_runtime.h"
#include "backends/cpu/jit/kernel_jit.h"
#include "core/common/hash.h"
#include "core/device/device.h"
#include "core/device/limits.h"
#include "core/module/build_options.h"
#include "core/module/module_cache.h"
#include "core/module/native_binary.h"
#include "spirv/specialize.h"
#include "spirv/translate.h"
#include "spirv/validate.h"

namespace tessera::core {
namespace {

// An import another module must provide: a function (builtin variables also come as imports, the
// translator's way) that is not one of Tessera's own builtins, which the JIT provides.
bool needsLinking(const spirv::LinkageEntry& l) {
  return l.kind == spirv::LinkageKind::Import && l.isFunction &&
         !backends::cpu::jit::isRuntimeFunction(l.name);
}

// One JIT for the process: compiled code is cached by the module's bytes, options and constants.
// A mutex rather than std::call_once: an exception (std::bad_alloc when memory runs out) thrown
// through glibc's pthread_once makes glibc load libgcc_s for the unwinding, which fails when memory
// is short and aborts the process (docs/reliability.md, "Exhaustion"). Under the mutex the
// exception passes only C++ frames, reaches zeModuleCreate as OUT_OF_HOST_MEMORY, and the next
// build tries again.
backends::cpu::KernelJit* sharedJit(std::string& error) {
  static std::mutex mutex;
  static backends::cpu::KernelJit* jit = nullptr;
  static bool tried = false;
  static std::string failure;
  std::lock_guard lock(mutex);
  if (!tried) {
    const char* perf = std::getenv("TESSERA_PERF_JIT");
    backends::cpu::JitOptions options;
    options.perfJit = perf && *perf == '1';
    jit = backends::cpu::KernelJit::create(&failure, options).release();
    tried = true;
  }
  if (!jit) error = failure;
  return jit;
}

// The widening across work-items (TESSERA_WIDEN, backends/cpu/jit/widen.cpp) and the prefetches
// across barriers (TESSERA_PREFETCH, jit/prefetch.cpp) change the code: part of both cache keys.
std::string jitSettings() {
  const char* w = std::getenv("TESSERA_WIDEN");
  const char* p = std::getenv("TESSERA_PREFETCH");
  return (w ? std::string("|W") + w : std::string()) + (p ? std::string("|P") + p : std::string());
}

// What decides the code: the binary, the options, the specialization.
uint64_t cacheKey(std::span<const uint8_t> binary, const BuildOptions& options,
                  const std::vector<spirv::SpecAssignment>& specs) {
  std::string text(reinterpret_cast<const char*>(binary.data()), binary.size());
  text += "|O" + std::to_string(options.optLevel) + jitSettings();
  for (const auto& s : specs)
    text += "|" + std::to_string(s.specId) + "=" + std::to_string(s.value);
  return fnv1a64(text);
}

// The build options' level as the JIT's pipeline level: the default (2) is the full O3 pipeline.
backends::cpu::CompileOptions compileOptions(const BuildOptions& options,
                                             const spirv::ModuleInfo& info) {
  backends::cpu::CompileOptions c;
  c.optLevel = options.optLevel >= 2 ? 3 : options.optLevel;
  // TESSERA_WIDEN: unset, empty or not 0..64 and a power of two: the host's width (1).
  const char* w = std::getenv("TESSERA_WIDEN");
  c.widen = w && *w ? std::atoi(w) : 1;
  if (c.widen < 0 || c.widen > 64 || (c.widen & (c.widen - 1)) != 0) c.widen = 1;
  const char* p = std::getenv("TESSERA_PREFETCH");
  c.prefetch = p && *p == '0' ? 0 : 1;
  const char* dump = std::getenv("TESSERA_JIT_DUMP");
  c.dumpModule = dump && *dump == '1';
  for (const auto& l : info.linkage)
    if (l.kind == spirv::LinkageKind::Export && l.isFunction) c.exports.push_back(l.name);
  return c;
}

// Code this process already has, by the module key (compiled here or loaded from the on-disk
// cache): a module created again skips translation and the disk.
std::mutex processCodeMutex;
std::map<uint64_t, std::shared_ptr<const backends::cpu::CompiledModule>>& processCode() {
  static auto* m = new std::map<uint64_t, std::shared_ptr<const backends::cpu::CompiledModule>>;
  return *m;
}
std::shared_ptr<const backends::cpu::CompiledModule> knownCode(uint64_t key) {
  std::lock_guard<std::mutex> lock(processCodeMutex);
  auto it = processCode().find(key);
  return it == processCode().end() ? nullptr : it->second;
}
// Whether the SPIR-V defines program-scope __global variables (OpVariable, storage class
// CrossWorkgroup): code with writable variables is never shared between modules, each module has
// its own (as in the JIT's cache).
bool hasProgramScopeVariables(std::span<const uint8_t> binary) {
  size_t words = binary.size() / 4;
  auto word = [&](size_t i) {
    uint32_t w;
    std::memcpy(&w, binary.data() + 4 * i, 4);
    return w;
  };
  for (size_t i = 5; i < words;) {
    uint32_t count = word(i) >> 16, opcode = word(i) & 0xffff;
    if (count == 0) return true;  // malformed: be safe
    if (opcode == 59 /* OpVariable */ && count >= 4 && i + 3 < words &&
        word(i + 3) == 5 /* CrossWorkgroup */)
      return true;
    i += count;
  }
  return false;
}

void rememberCode(uint64_t key, std::shared_ptr<const backends::cpu::CompiledModule> code,
                  std::span<const uint8_t> binary) {
  if (!code->globals.empty() || hasProgramScopeVariables(binary)) return;
  std::lock_guard<std::mutex> lock(processCodeMutex);
  processCode().emplace(key, std::move(code));
}

// An on-disk cache entry's code when it is a valid native binary of exactly this module for this
// CPU; null otherwise (the caller compiles and rewrites the entry).
std::shared_ptr<const backends::cpu::CompiledModule> loadCached(
    const std::vector<uint8_t>& bytes, std::span<const uint8_t> spirv, const BuildOptions& options,
    const std::vector<spirv::SpecAssignment>& specs, size_t kernelCount,
    backends::cpu::KernelJit& jit) {
  NativeImage image;
  std::string error;
  if (!readNativeBinary(bytes, image, error)) return nullptr;
  if (image.cpu != jit.hostCpu() || image.features != jit.hostFeatures() || !image.hasCode ||
      image.optLevel != options.optLevel || image.specs.size() != specs.size() ||
      image.code.kernels.size() != kernelCount ||
      !std::equal(spirv.begin(), spirv.end(), image.spirv.begin(), image.spirv.end()))
    return nullptr;
  for (size_t i = 0; i < specs.size(); ++i)
    if (image.specs[i].specId != specs[i].specId || image.specs[i].value != specs[i].value)
      return nullptr;
  return jit.load(image.code, &error);
}

}  // namespace

namespace {

// The first kernel of `code` whose static __local variables alone are more than `device`'s local
// memory: a build-log line naming it, or empty.
std::string staticLocalTooLarge(const backends::cpu::CompiledModule& code, const Device& device) {
  const uint32_t max = limits::maxSharedLocalMemory(device.resources());
  for (const backends::cpu::CompiledKernel& k : code.kernels)
    if (k.staticLocalBytes > max)
      return "kernel " + k.name + " uses " + std::to_string(k.staticLocalBytes) +
             " bytes of static __local memory; the device has " + std::to_string(max) +
             " (maxSharedLocalMemory)\n";
  return {};
}

}  // namespace

ze_result_t Module::create(Context& context, Device& device, const ze_module_desc_t& desc,
                           Module*& out, std::string& log) {
  ze_result_t r = build(context, device, desc, out, log);
  if (r != ZE_RESULT_SUCCESS || !out) return r;
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
  if (desc.format == ZE_MODULE_FORMAT_NATIVE)
    return createFromNative(context, device, desc, out, log);
  if (desc.format != ZE_MODULE_FORMAT_IL_SPIRV) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  auto fail = [&](std::string why) {
    log = std::move(why);
    return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
  };
  BuildOptions options;
  std::string error;
  if (!parseBuildOptions(desc.pBuildFlags, options, error)) return fail(error);
  std::span<const uint8_t> binary(desc.pInputModule, desc.inputSize);
  spirv::ReflectResult reflected = spirv::reflect(binary);
  if (!reflected.ok) return fail("invalid SPIR-V: " + reflected.error);

  // "Specialization constants ... ze_module_constants_t": ids and pointers to values whose size
  // the module declares.
  std::vector<spirv::SpecValue> values;
  if (const ze_module_constants_t* c = desc.pConstants) {
    if (c->numConstants > 0 && (!c->pConstantIds || !c->pConstantValues))
      return ZE_RESULT_ERROR_INVALID_NULL_POINTER;  // zeModuleCreate refuses it first
    for (uint32_t i = 0; i < c->numConstants; ++i) {
      const spirv::SpecConstant* sc = reflected.module.findSpecConstant(c->pConstantIds[i]);
      if (!sc)
        return fail("no specialization constant with id " + std::to_string(c->pConstantIds[i]));
      if (!c->pConstantValues || !c->pConstantValues[i])
        return fail("null value for specialization constant " + std::to_string(sc->specId));
      const auto* bytes = static_cast<const uint8_t*>(c->pConstantValues[i]);
      values.push_back({sc->specId, std::vector<uint8_t>(bytes, bytes + sc->size)});
    }
  }
  spirv::SpecializationResult spec = spirv::resolveSpecialization(reflected.module, values);
  if (!spec.ok) return fail(spec.error);
  spirv::applySpecializationToSizes(reflected.module, spec.assignments);

  // Until it is handed out, the module is dropped through its reference count.
  std::unique_ptr<Module, void (*)(Module*)> m(new Module(context, device),
                                               [](Module* p) { p->release(); });
  m->info_ = std::move(reflected.module);
  m->binary_.assign(binary.begin(), binary.end());
  m->options_ = options;
  m->specs_ = spec.assignments;
  m->key_ = cacheKey(binary, options, spec.assignments);
  // A module that imports symbols is compiled once zeModuleDynamicLink has resolved them; until
  // then zeKernelCreate answers ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED.
  if (m->unlinked()) {
    out = m.release();
    return ZE_RESULT_SUCCESS;
  }
  backends::cpu::KernelJit* jit = sharedJit(error);
  if (!jit) return fail("no JIT for this CPU: " + error);
  if (auto code = knownCode(m->key_)) {
    m->code_ = std::move(code);
    out = m.release();
    return ZE_RESULT_SUCCESS;
  }
  // The on-disk cache (core/module/module_cache.h): a valid entry loads without compiling.
  std::optional<std::string> cacheDir = module_cache::directory();
  std::string entry;
  if (cacheDir) {
    std::string specText;
    for (const auto& s : spec.assignments)
      specText += std::to_string(s.specId) + "=" + std::to_string(s.value) + ";";
    entry = module_cache::entryName(
        binary,
        "O" + std::to_string(options.optLevel) + "|" + (desc.pBuildFlags ? desc.pBuildFlags : "") +
            jitSettings(),
        specText, jit->hostCpu(), jit->hostFeatures());
    std::vector<uint8_t> bytes = module_cache::read(*cacheDir, entry);
    if (!bytes.empty()) {
      if (auto code = loadCached(bytes, binary, options, spec.assignments, m->info_.kernels.size(),
                                 *jit)) {
        module_cache::debug("hit", entry);
        module_cache::touch(*cacheDir, entry);
        rememberCode(m->key_, code, binary);
        m->code_ = std::move(code);
        out = m.release();
        return ZE_RESULT_SUCCESS;
      }
      module_cache::debug("corrupt", entry);
    } else {
      module_cache::debug("miss", entry);
    }
  }
  auto llvmContext = std::make_unique<llvm::LLVMContext>();
  spirv::TranslateOptions topts;
  topts.specConstants = spec.assignments;
  spirv::TranslateResult translated = spirv::translate(*llvmContext, binary, topts);
  if (!translated.ok()) return fail(translated.log);
  log += translated.warnings;
  auto code = jit->compile(std::move(llvmContext), std::move(translated.module), &error,
                           compileOptions(options, m->info_));
  if (!code) return fail(error);
  rememberCode(m->key_, code, binary);
  m->code_ = std::move(code);
  if (cacheDir && !m->code_->object.empty())
    module_cache::write(*cacheDir, entry, m->nativeBinary());
  out = m.release();
  return ZE_RESULT_SUCCESS;
}

ze_result_t Module::createFromNative(Context& context, Device& device, const ze_module_desc_t& desc,
                                     Module*& out, std::string& log) {
  auto fail = [&](std::string why) {
    log = std::move(why);
    return ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
  };
  NativeImage image;
  std::string error;
  if (!readNativeBinary({desc.pInputModule, desc.inputSize}, image, error)) return fail(error);
  backends::cpu::KernelJit* jit = sharedJit(error);
  if (!jit) return fail("no JIT for this CPU: " + error);
  if (image.cpu != jit->hostCpu() || image.features != jit->hostFeatures())
    return fail("the native binary was compiled for CPU '" + image.cpu + "' with features '" +
                image.features + "'; this CPU is '" + jit->hostCpu() + "' with features '" +
                jit->hostFeatures() + "': create the module from SPIR-V again");
  spirv::ReflectResult reflected = spirv::reflect(image.spirv);
  if (!reflected.ok) return fail("the native binary's SPIR-V: " + reflected.error);
  spirv::applySpecializationToSizes(reflected.module, image.specs);
  std::unique_ptr<Module, void (*)(Module*)> m(new Module(context, device),
                                               [](Module* p) { p->release(); });
  m->info_ = std::move(reflected.module);
  m->binary_ = std::move(image.spirv);
  m->options_.optLevel = image.optLevel;
  m->specs_ = std::move(image.specs);
  m->key_ = cacheKey(m->binary_, m->options_, m->specs_);
  if (image.hasCode) {
    if (image.code.kernels.size() != m->info_.kernels.size())
      return fail("the native binary's code does not match its SPIR-V");
    auto code = jit->load(image.code, &error);
    if (!code) return fail("the native binary's object code does not load: " + error);
    m->code_ = std::move(code);
  } else if (!m->hasFunctionImports()) {
    return fail("the native binary has no code");
  }
  out = m.release();
  return ZE_RESULT_SUCCESS;
}

std::vector<uint8_t> Module::nativeBinary() const {
  NativeImage image;
  std::string error;
  if (backends::cpu::KernelJit* jit = sharedJit(error)) {
    image.cpu = jit->hostCpu();
    image.features = jit->hostFeatures();
  }
  image.spirv = binary_;
  image.optLevel = options_.optLevel;
  image.specs = specs_;
  if (auto code = this->code(); code && !code->object.empty()) {
    image.hasCode = true;
    image.code = *code;
  }
  return writeNativeBinary(image);
}

Module::~Module() = default;

std::vector<std::string> Module::kernelNames() const {
  std::vector<std::string> names;
  for (const auto& k : info_.kernels) names.push_back(k.name);
  return names;
}

std::shared_ptr<const backends::cpu::CompiledModule> Module::code() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return code_;
}

const backends::cpu::CompiledKernel* Module::compiled(const std::string& name) const {
  auto code = this->code();  // code_ is never replaced once set: the pointer stays valid
  return code ? code->find(name) : nullptr;
}

bool Module::hasFunctionImports() const {
  for (const auto& l : info_.linkage)
    if (needsLinking(l)) return true;
  return false;
}

bool Module::unlinked() const {
  return hasFunctionImports() && !code();
}

bool Module::exports(const std::string& function) const {
  for (const auto& l : info_.linkage)
    if (l.kind == spirv::LinkageKind::Export && l.isFunction && l.name == function) return true;
  return false;
}

ze_result_t Module::dynamicLink(const std::vector<Module*>& modules, std::string& log) {
  // 1. Every import of every module still to link, resolved by exactly one other module of the
  //    set; the providers of an importer are collected transitively (a provider may import too).
  struct Plan {
    Module* importer;
    std::vector<Module*> providers;  // in the order their IR is linked in
  };
  std::vector<Plan> plans;
  std::string problems;
  for (Module* m : modules) {
    if (!m->unlinked()) continue;  // "Modules will only be linked once."
    if (std::find_if(plans.begin(), plans.end(), [&](const Plan& p) { return p.importer == m; }) !=
        plans.end())
      continue;
    Plan plan{m, {}};
    std::vector<Module*> pending{m};
    for (size_t next = 0; next < pending.size(); ++next) {
      Module* user = pending[next];
      for (const auto& l : user->info_.linkage) {
        if (!needsLinking(l)) continue;
        std::vector<Module*> found;
        for (Module* other : modules)
          if (other != user && other->exports(l.name) &&
              std::find(found.begin(), found.end(), other) == found.end())
            found.push_back(other);
        if (found.empty()) {
          problems += "unresolved import: " + l.name + "\n";
        } else if (found.size() > 1) {
          problems += "ambiguous import: " + l.name + " is exported by " +
                      std::to_string(found.size()) + " modules\n";
        } else if (found[0] != m &&
                   std::find(pending.begin(), pending.end(), found[0]) == pending.end()) {
          pending.push_back(found[0]);
          plan.providers.push_back(found[0]);
        }
      }
    }
    plans.push_back(std::move(plan));
  }
  if (!problems.empty()) {
    log = problems;
    return ZE_RESULT_ERROR_MODULE_LINK_FAILURE;
  }
  // 2. Each importer: its IR and its providers' (only what it needs) in one LLVM module, compiled.
  std::string error;
  backends::cpu::KernelJit* jit = sharedJit(error);
  if (!jit) {
    log = "no JIT for this CPU: " + error;
    return ZE_RESULT_ERROR_MODULE_LINK_FAILURE;
  }
  for (const Plan& plan : plans) {
    Module& m = *plan.importer;
    auto context = std::make_unique<llvm::LLVMContext>();
    auto translateOne = [&](const Module& from) {
      spirv::TranslateOptions topts;
      topts.specConstants = from.specs_;
      return spirv::translate(*context, from.binary_, topts);
    };
    spirv::TranslateResult importer = translateOne(m);
    if (!importer.ok()) {
      log += importer.log;
      return ZE_RESULT_ERROR_MODULE_LINK_FAILURE;
    }
    std::string key = std::to_string(m.key_);
    for (Module* provider : plan.providers) {
      spirv::TranslateResult p = translateOne(*provider);
      if (!p.ok()) {
        log += p.log;
        return ZE_RESULT_ERROR_MODULE_LINK_FAILURE;
      }
      // Only the definitions the importer (and what was linked before) still needs.
      if (llvm::Linker::linkModules(*importer.module, std::move(p.module),
                                    llvm::Linker::Flags::LinkOnlyNeeded)) {
        log += "cannot link the LLVM IR of the module providing imports\n";
        return ZE_RESULT_ERROR_MODULE_LINK_FAILURE;
      }
      key += "+" + std::to_string(provider->key_);
    }
    auto code = jit->compile(std::move(context), std::move(importer.module), &error,
                             compileOptions(m.options_, m.info_));
    if (!code) {
      log += error;
      return ZE_RESULT_ERROR_MODULE_LINK_FAILURE;
    }
    if (std::string why = staticLocalTooLarge(*code, m.device_); !why.empty()) {
      log += why;
      return ZE_RESULT_ERROR_MODULE_LINK_FAILURE;
    }
    std::lock_guard<std::mutex> lock(m.mutex_);
    if (!m.code_) m.code_ = std::move(code);
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t Module::globalPointer(const std::string& name, size_t* size, void** ptr) const {
  auto code = this->code();
  if (!code)
    return hasFunctionImports() ? ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED
                                : ZE_RESULT_ERROR_INVALID_GLOBAL_NAME;
  auto it = code->globals.find(name);
  if (it == code->globals.end()) return ZE_RESULT_ERROR_INVALID_GLOBAL_NAME;
  if (size) *size = it->second.size;
  if (ptr) *ptr = it->second.address;
  return ZE_RESULT_SUCCESS;
}

ze_result_t Module::functionPointer(const std::string& name, void** ptr) const {
  auto code = this->code();
  if (!code)
    return hasFunctionImports() ? ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED
                                : ZE_RESULT_ERROR_INVALID_FUNCTION_NAME;
  auto it = code->functions.find(name);
  if (it == code->functions.end()) return ZE_RESULT_ERROR_INVALID_FUNCTION_NAME;
  *ptr = it->second.address;
  return ZE_RESULT_SUCCESS;
}

ze_result_t Module::destroy() {
  if (liveKernels_.load()) return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
  retireHandle();
  release();
  return ZE_RESULT_SUCCESS;
}

}  // namespace tessera::core
