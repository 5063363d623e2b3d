#include "spirv/translate.h"

#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <sstream>

#include "spirv/reflect.h"
#include "spirv/translator_guard.h"
#include "spirv/validate.h"

namespace tessera::spirv {

TranslateResult::TranslateResult() = default;
TranslateResult::TranslateResult(TranslateResult&&) noexcept = default;
TranslateResult& TranslateResult::operator=(TranslateResult&&) noexcept = default;
TranslateResult::~TranslateResult() = default;

namespace {

// SPIRV::VersionNumber::MaximumVersion of the installed translator.
constexpr uint32_t kTranslatorMaxVersion = 0x00010400;

}  // namespace

std::string checkTranslatable(std::span<const uint8_t> binary) {
  ValidationResult validation = validate(binary);
  if (!validation.ok) return validation.log;
  ReflectResult reflection = reflect(binary);
  if (!reflection.ok) return "malformed SPIR-V: " + reflection.error;
  const ModuleInfo& module = reflection.module;
  if (module.version > kTranslatorMaxVersion) {
    return "SPIR-V " + std::to_string(module.versionMajor()) + "." +
           std::to_string(module.versionMinor()) +
           " is newer than the translator reads (1.4 at most)";
  }
  return findTranslatorHazard(toWords(binary));
}

TranslateResult translate(llvm::LLVMContext& context, std::span<const uint8_t> binary,
                          const TranslateOptions& options) {
  TranslateResult result;
  result.log = checkTranslatable(binary);
  if (!result.log.empty()) return result;

  // The translator reads host-order words; toWords has already swapped a big-endian binary.
  std::vector<uint32_t> words = toWords(binary);
  std::string bytes(reinterpret_cast<const char*>(words.data()), words.size() * 4);
  std::istringstream stream(bytes);

  SPIRV::TranslatorOpts opts;
  opts.enableAllExtensions();
  opts.setDesiredBIsRepresentation(SPIRV::BIsRepresentation::SPIRVFriendlyIR);
  opts.setGenKernelArgNameMDEnabled(true);
  for (const SpecAssignment& a : options.specConstants) opts.setSpecConst(a.specId, a.value);

  llvm::Module* raw = nullptr;
  std::string error;
  bool ok = llvm::readSpirv(context, opts, stream, raw, error);
  std::unique_ptr<llvm::Module> module(raw);
  if (!ok || module == nullptr) {
    result.log = "SPIR-V translation failed: " + (error.empty() ? "no reason given" : error);
    return result;
  }
  if (options.verify) {
    std::string problems;
    llvm::raw_string_ostream os(problems);
    if (llvm::verifyModule(*module, &os)) {
      os.flush();
      result.log = "the translated LLVM module is invalid: " + problems;
      return result;
    }
  }
  result.module = std::move(module);
  return result;
}

}  // namespace tessera::spirv
