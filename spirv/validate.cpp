#include "spirv/validate.h"

#include <spirv-tools/libspirv.h>

#include <cstdio>
#include <memory>
#include <vector>

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

struct ContextDeleter {
  void operator()(spv_context c) const { spvContextDestroy(c); }
};
struct OptionsDeleter {
  void operator()(spv_validator_options o) const { spvValidatorOptionsDestroy(o); }
};

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

  std::unique_ptr<spv_context_t, ContextDeleter> context(spvContextCreate(env));
  std::unique_ptr<spv_validator_options_t, OptionsDeleter> options(spvValidatorOptionsCreate());
  if (!context || !options) {
    result.log = "SPIRV-Tools could not create a validation context";
    return result;
  }
  spv_const_binary_t input{words.data(), words.size()};
  spv_diagnostic diagnostic = nullptr;
  spv_result_t status = spvValidateWithOptions(context.get(), options.get(), &input, &diagnostic);
  if (status == SPV_SUCCESS) {
    result.ok = true;
  } else {
    std::string log = "SPIR-V validation failed (" + result.environment + ")";
    if (diagnostic != nullptr && diagnostic->error != nullptr) {
      log += ": ";
      if (diagnostic->isTextSource == false && diagnostic->position.index != 0) {
        log += "at word " + std::to_string(diagnostic->position.index) + ": ";
      }
      log += diagnostic->error;
    }
    result.log = std::move(log);
  }
  spvDiagnosticDestroy(diagnostic);
  return result;
}

}  // namespace tessera::spirv
