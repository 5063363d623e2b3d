#include "spirv/link.h"

#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/linker.hpp>

#include <span>
#include <string>

#include "spirv/opencl_options.h"
#include "spirv/validate.h"

namespace tessera::spirv {

namespace {

std::span<const uint8_t> asBytes(const std::vector<uint32_t>& words) {
  return {reinterpret_cast<const uint8_t*>(words.data()), words.size() * 4};
}

const char* levelName(spv_message_level_t level) {
  switch (level) {
    case SPV_MSG_FATAL:
    case SPV_MSG_INTERNAL_ERROR:
    case SPV_MSG_ERROR:
      return "error";
    case SPV_MSG_WARNING:
      return "warning";
    default:
      return "note";
  }
}

}  // namespace

CompileResult linkSpirv(const std::vector<std::vector<uint32_t>>& modules, bool createLibrary) {
  CompileResult result;
  if (modules.empty()) {
    result.log = "error: nothing to link\n";
    return result;
  }
  // The linker trusts its input as the translator does: check every module first.
  for (size_t i = 0; i < modules.size(); ++i) {
    ValidationResult validation = validate(asBytes(modules[i]));
    if (!validation.ok) {
      result.log = "error: input module " + std::to_string(i) +
                   " is not valid SPIR-V: " + validation.log + "\n";
      return result;
    }
  }

  spvtools::Context context(SPV_ENV_UNIVERSAL_1_4);  // the newest version the translator reads
  context.SetMessageConsumer([&result](spv_message_level_t level, const char*,
                                       const spv_position_t&, const char* message) {
    result.log += std::string(levelName(level)) + ": " + message + "\n";
  });
  spvtools::LinkerOptions options;
  options.SetCreateLibrary(createLibrary);
  options.SetAllowPartialLinkage(createLibrary);
  options.SetVerifyIds(true);

  std::vector<uint32_t> linked;
  if (spvtools::Link(context, modules, &linked, options) != SPV_SUCCESS) {
    if (result.log.empty()) result.log = "error: linking failed\n";
    return result;
  }
  ValidationResult validation = validate(asBytes(linked));
  if (!validation.ok) {
    result.log += "error: the linked module does not validate: " + validation.log + "\n";
    return result;
  }
  result.spirv = std::move(linked);
  result.ok = true;
  return result;
}

CompileResult linkSpirvWithOptions(const std::vector<std::vector<uint32_t>>& modules,
                                   std::string_view options) {
  LinkOptions parsed = parseLinkOptions(options);
  if (!parsed.ok) {
    CompileResult result;
    result.invalidOptions = true;
    result.log = "error: " + parsed.error + "\n";
    return result;
  }
  return linkSpirv(modules, parsed.createLibrary);
}

}  // namespace tessera::spirv
