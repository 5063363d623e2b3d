#include "core/module/module.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <mutex>

#include "backends/cpu/jit/kernel_jit.h"
#include "core/common/hash.h"
#include "core/module/build_options.h"
#include "spirv/specialize.h"
#include "spirv/translate.h"
#include "spirv/validate.h"

namespace tessera::core {
namespace {

// One JIT for the process: compiled code is cached by the module's bytes, options and constants.
backends::cpu::KernelJit* sharedJit(std::string& error) {
  static std::once_flag once;
  static backends::cpu::KernelJit* jit = nullptr;
  static std::string failure;
  std::call_once(once, [] { jit = backends::cpu::KernelJit::create(&failure).release(); });
  if (!jit) error = failure;
  return jit;
}

// What decides the code: the binary, the options, the specialization.
uint64_t cacheKey(std::span<const uint8_t> binary, const BuildOptions& options,
                  const std::vector<spirv::SpecAssignment>& specs) {
  std::string text(reinterpret_cast<const char*>(binary.data()), binary.size());
  text += "|O" + std::to_string(options.optLevel);
  for (const auto& s : specs) text += "|" + std::to_string(s.specId) + "=" + std::to_string(s.value);
  return fnv1a64(text);
}

}  // namespace

ze_result_t Module::create(Context& context, Device& device, const ze_module_desc_t& desc,
                           Module*& out, std::string& log) {
  if (desc.format == ZE_MODULE_FORMAT_NATIVE) {
    log = "native binaries are not supported yet";
    return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  }
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
    for (uint32_t i = 0; i < c->numConstants; ++i) {
      const spirv::SpecConstant* sc = reflected.module.findSpecConstant(c->pConstantIds[i]);
      if (!sc) return fail("no specialization constant with id " + std::to_string(c->pConstantIds[i]));
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
  // A module that imports symbols is compiled once zeModuleDynamicLink has resolved them; until
  // then zeKernelCreate answers ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED.
  if (m->unlinked()) {
    out = m.release();
    return ZE_RESULT_SUCCESS;
  }
  backends::cpu::KernelJit* jit = sharedJit(error);
  if (!jit) return fail("no JIT for this CPU: " + error);
  auto llvmContext = std::make_unique<llvm::LLVMContext>();
  spirv::TranslateOptions topts;
  topts.specConstants = spec.assignments;
  spirv::TranslateResult translated = spirv::translate(*llvmContext, binary, topts);
  if (!translated.ok()) return fail(translated.log);
  auto code = jit->compile(cacheKey(binary, options, spec.assignments), std::move(llvmContext),
                           std::move(translated.module), &error);
  if (!code) return fail(error);
  m->code_ = std::move(code);
  out = m.release();
  return ZE_RESULT_SUCCESS;
}

Module::~Module() = default;

std::vector<std::string> Module::kernelNames() const {
  std::vector<std::string> names;
  for (const auto& k : info_.kernels) names.push_back(k.name);
  return names;
}

const backends::cpu::CompiledKernel* Module::compiled(const std::string& name) const {
  return code_ ? code_->find(name) : nullptr;
}

bool Module::unlinked() const {
  for (const auto& l : info_.linkage)
    // Builtin variables also come as imports (the translator's way): only functions count.
    if (l.kind == spirv::LinkageKind::Import && l.isFunction) return true;
  return false;
}

ze_result_t Module::destroy() {
  if (liveKernels_.load()) return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
  retireHandle();
  release();
  return ZE_RESULT_SUCCESS;
}

}  // namespace tessera::core
