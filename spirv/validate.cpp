#include "spirv/validate.h"

#include <spirv-tools/libspirv.h>
#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

#include "spirv/function_pointers.h"
#include "spirv/instructions.h"
#include "spirv/odd_integers.h"
#include "spirv/reflect.h"

namespace tessera::spirv {
namespace {

bool environmentFor(uint32_t version, spv_target_env* env) {
  switch (version) {
    case 0x00010000:
      *env = SPV_ENV_OPENCL_2_1;
      return true;
    case 0x00010100:
    case 0x00010200:
      *env = SPV_ENV_OPENCL_2_2;
      return true;
    case 0x00010300:
      *env = SPV_ENV_UNIVERSAL_1_3;
      return true;
    case 0x00010400:
      *env = SPV_ENV_UNIVERSAL_1_4;
      return true;
    case 0x00010500:
      *env = SPV_ENV_UNIVERSAL_1_5;
      return true;
    case 0x00010600:
      *env = SPV_ENV_UNIVERSAL_1_6;
      return true;
    default:
      return false;
  }
}

// Capabilities that extensions Tessera's devices advertise allow beyond the OpenCL environments'
// lists, with the extension that allows each.
struct ExtensionCapability {
  uint32_t capability;
  const char* name;
  const char* extension;
};
constexpr ExtensionCapability kExtensionCapabilities[] = {
    {spv::CapabilityInt64Atomics, "Int64Atomics", "cl_khr_int64_base_atomics"},
    // The OpenCL SPIR-V environment: "If the OpenCL environment supports the extension
    // cl_khr_fp16, then the environment must accept modules that declare the following SPIR-V
    // capabilities: Float16".
    {spv::CapabilityFloat16, "Float16", "cl_khr_fp16"},
};

const ExtensionCapability* extensionCapability(uint32_t capability) {
  for (const ExtensionCapability& e : kExtensionCapabilities) {
    if (e.capability == capability) return &e;
  }
  return nullptr;
}

// The universal environment of the same SPIR-V version (every rule but the environment's).
spv_target_env universalFor(uint32_t version) {
  switch (version) {
    case 0x00010000:
      return SPV_ENV_UNIVERSAL_1_0;
    case 0x00010100:
      return SPV_ENV_UNIVERSAL_1_1;
    case 0x00010200:
      return SPV_ENV_UNIVERSAL_1_2;
    case 0x00010300:
      return SPV_ENV_UNIVERSAL_1_3;
    case 0x00010400:
      return SPV_ENV_UNIVERSAL_1_4;
    case 0x00010500:
      return SPV_ENV_UNIVERSAL_1_5;
    default:
      return SPV_ENV_UNIVERSAL_1_6;
  }
}

struct ContextDeleter {
  void operator()(spv_context c) const { spvContextDestroy(c); }
};
struct OptionsDeleter {
  void operator()(spv_validator_options o) const { spvValidatorOptionsDestroy(o); }
};

// One SPIRV-Tools run: true when valid, else false with the diagnostic ("at word N: ...") appended
// to `error`.
bool runValidator(spv_target_env env, const std::vector<uint32_t>& words, std::string& error) {
  std::unique_ptr<spv_context_t, ContextDeleter> context(spvContextCreate(env));
  std::unique_ptr<spv_validator_options_t, OptionsDeleter> options(spvValidatorOptionsCreate());
  if (!context || !options) {
    error = "SPIRV-Tools could not create a validation context";
    return false;
  }
  // SPIR-V's universal limit of 255 function parameters is a default the client may raise; a
  // kernel may take as many as CL_DEVICE_MAX_PARAMETER_SIZE (4096 bytes) allows, a char each.
  spvValidatorOptionsSetUniversalLimit(options.get(), spv_validator_limit_max_function_args, 4096);
  spv_const_binary_t input{words.data(), words.size()};
  spv_diagnostic diagnostic = nullptr;
  spv_result_t status = spvValidateWithOptions(context.get(), options.get(), &input, &diagnostic);
  if (status != SPV_SUCCESS && diagnostic != nullptr && diagnostic->error != nullptr) {
    if (diagnostic->isTextSource == false && diagnostic->position.index != 0) {
      error += "at word " + std::to_string(diagnostic->position.index) + ": ";
    }
    error += diagnostic->error;
  }
  spvDiagnosticDestroy(diagnostic);
  return status == SPV_SUCCESS;
}

// The OpCapability operands of the module's first section (a bounds-checked walk: the validator
// reports malformed streams itself).
std::vector<uint32_t> declaredCapabilities(const std::vector<uint32_t>& words) {
  std::vector<uint32_t> capabilities;
  for (const Instruction& i : Instructions(words)) {
    if (i.opcode() == spv::OpCapability && i.wordCount() == 2)
      capabilities.push_back(i[1]);
    else if (i.opcode() != spv::OpExtension && i.opcode() != spv::OpExtInstImport)
      break;
  }
  return capabilities;
}

// The module's environment-level declarations alone: header, OpCapability (without the extension
// capabilities), OpExtension, OpExtInstImport and OpMemoryModel, with Linkage declared so that no
// entry point is needed. Validated under the OpenCL environment it checks what that environment
// adds to the universal rules for these (capabilities, addressing and memory model).
std::vector<uint32_t> environmentSkeleton(const std::vector<uint32_t>& words) {
  std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
  bool linkage = false;
  for (const Instruction& i : Instructions(words)) {
    uint32_t opcode = i.opcode();
    bool keep = opcode == spv::OpCapability || opcode == spv::OpExtension ||
                opcode == spv::OpExtInstImport || opcode == spv::OpMemoryModel;
    if (!keep) break;
    bool isCapability = opcode == spv::OpCapability && i.wordCount() == 2;
    if (isCapability && i[1] == spv::CapabilityLinkage) linkage = true;
    if (!isCapability || extensionCapability(i[1]) == nullptr)
      out.insert(out.end(), i.words.begin(), i.words.end());
    if (opcode == spv::OpMemoryModel) break;
  }
  if (!linkage)
    out.insert(out.begin() + kHeaderWords,
               {(2u << 16) | spv::OpCapability, spv::CapabilityLinkage});
  return out;
}

}  // namespace

ValidationResult validate(std::span<const uint8_t> binary) {
  ValidationResult result;
  std::vector<uint32_t> words = toWords(binary);
  if (words.empty()) {
    result.log = binary.size() % 4 != 0
                     ? "size " + std::to_string(binary.size()) + " is not a multiple of 4 bytes"
                     : "not SPIR-V: the first word is not the magic number 0x07230203";
    return result;
  }
  if (words.size() < 5) {
    result.log = "shorter than the 5-word SPIR-V header";
    return result;
  }
  spv_target_env env;
  if (!environmentFor(words[1], &env)) {
    char version[32];
    snprintf(version, sizeof version, "0x%08x", words[1]);
    result.log =
        std::string("unsupported SPIR-V version word ") + version + " (supported: 1.0 to 1.6)";
    return result;
  }
  result.environment = spvTargetEnvDescription(env);

  // The Level Zero SPIR-V environment: "An environment that supports SPIR-V 1.0 must support
  // SPIR-V 1.0 modules that declare the following capabilities: ... Int64Atomics (for devices
  // supporting ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS)"; the OpenCL environment likewise with
  // cl_khr_int64_base_atomics, which every Tessera device has. SPIRV-Tools' OpenCL environments
  // know only the core capability lists, so such a module is checked in two parts: its
  // declarations under the OpenCL environment (without the extension's capabilities) and the whole
  // module under the universal rules of its version.
  // Integer widths other than 8, 16, 32 and 64 (SPV_INTEL_arbitrary_precision_integers, which
  // this SPIRV-Tools refuses whatever the module declares): the module is checked through a copy
  // in which they have standard widths (odd_integers.h), or refused when it may not use them.
  StandardWidthShadow shadow = standardWidthShadow(words);
  if (shadow.needed && !shadow.error.empty()) {
    result.log = "SPIR-V validation failed (" + result.environment + "): " + shadow.error;
    return result;
  }
  if (shadow.needed) {
    words = std::move(shadow.words);
    result.environment += ", " + shadow.description;
  }
  // Pointers to functions (SPV_INTEL_function_pointers), which this SPIRV-Tools refuses whatever
  // the module declares: the module is checked through a copy it can read
  // (function_pointers.h), or refused when it may not use them.
  FunctionPointerShadow pointers = functionPointerShadow(words);
  if (pointers.needed && !pointers.error.empty()) {
    result.log = "SPIR-V validation failed (" + result.environment + "): " + pointers.error;
    return result;
  }
  if (pointers.needed) {
    words = std::move(pointers.words);
    result.environment += ", pointers to functions validated as pointers to empty structures";
  }

  std::string extensions;
  for (uint32_t capability : declaredCapabilities(words)) {
    if (const ExtensionCapability* e = extensionCapability(capability)) {
      extensions +=
          std::string(extensions.empty() ? "" : ", ") + e->name + " (" + e->extension + ")";
    }
  }
  std::string error;
  bool ok;
  if (extensions.empty()) {
    ok = runValidator(env, words, error);
  } else {
    result.environment += " with " + extensions + ", the module under " +
                          spvTargetEnvDescription(universalFor(words[1]));
    ok = runValidator(env, environmentSkeleton(words), error);
    if (!ok) error = "in the module's capabilities and memory model: " + error;
    ok = ok && runValidator(universalFor(words[1]), words, error);
  }
  if (ok) {
    result.ok = true;
  } else {
    result.log = "SPIR-V validation failed (" + result.environment + ")";
    if (!error.empty()) result.log += ": " + error;
    if (shadow.needed || pointers.needed) result.log += " (word numbers count in that copy)";
  }
  return result;
}

std::vector<uint32_t> raiseToVersion14(const std::vector<uint32_t>& words) {
  if (words.size() < kHeaderWords || words[0] != spv::MagicNumber || words[1] < 0x00010000 ||
      words[1] > kNewestReadableVersion || Instructions(words).malformed())
    return words;
  // Module-scope variables: the OpVariables before the first function.
  std::vector<uint32_t> globals;
  for (const Instruction& i : Instructions(words)) {
    if (i.opcode() == spv::OpFunction) break;
    if (i.opcode() == spv::OpVariable && i.wordCount() >= 4 &&
        i[3] != spv::StorageClassFunction)
      globals.push_back(i[2]);
  }
  std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
  out[1] = kNewestReadableVersion;
  for (const Instruction& i : Instructions(words)) {
    if (i.opcode() != spv::OpEntryPoint || i.wordCount() < 4) {
      out.insert(out.end(), i.words.begin(), i.words.end());
      continue;
    }
    // OpEntryPoint <model> <function> <name: a literal string, nul-terminated> <interface ids>.
    size_t first = 3;
    while (first < i.wordCount() && (i[first] >> 24) != 0) ++first;
    ++first;  // the word that holds the terminating nul
    if (first > i.wordCount()) {  // no terminator: malformed, left to validation
      out.insert(out.end(), i.words.begin(), i.words.end());
      continue;
    }
    std::vector<uint32_t> entry(i.words.begin(), i.words.end());
    for (uint32_t g : globals)
      if (std::find(entry.begin() + first, entry.end(), g) == entry.end()) entry.push_back(g);
    entry[0] = (uint32_t(entry.size()) << 16) | spv::OpEntryPoint;
    out.insert(out.end(), entry.begin(), entry.end());
  }
  return out;
}

ValidationResult validateAtNeededVersion(std::vector<uint32_t>& words) {
  auto bytes = [](const std::vector<uint32_t>& w) {
    return std::span(reinterpret_cast<const uint8_t*>(w.data()), w.size() * sizeof(uint32_t));
  };
  ValidationResult declared = validate(bytes(words));
  if (declared.ok || words.size() < kHeaderWords || words[1] > kNewestReadableVersion)
    return declared;
  std::vector<uint32_t> raised = raiseToVersion14(words);
  if (raised == words) return declared;
  ValidationResult newer = validate(bytes(raised));
  if (!newer.ok) {
    declared.log += "; raised to SPIR-V 1.4: " + newer.log;
    return declared;
  }
  words = std::move(raised);
  return newer;
}

}  // namespace tessera::spirv
