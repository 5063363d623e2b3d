#include "spirv/clc/translate.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include "spirv/clc/client.h"
#include "spirv/legalize.h"
#include "spirv/reflect.h"
#include "spirv/repair.h"
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

// Steps (1) to (3), with the rewrites of legalize.h between validation and the hazard check: the
// words to translate, or the reason not to in `error`. A module that fails validation is validated
// again after repair.h's repairs, and translated repaired when that passes.
Legalized prepare(std::span<const uint8_t> binary, std::string& error) {
  std::vector<uint32_t> repaired;
  std::string repairs;
  ValidationResult validation = validate(binary);
  if (!validation.ok) {
    Repaired r = repairProducerMistakes(toWords(binary));
    std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(r.words.data()),
                                   r.words.size() * sizeof(uint32_t));
    if (r.warnings.empty() || !validate(bytes).ok) {
      error = validation.log;
      return {};
    }
    repaired = std::move(r.words);
    repairs = std::move(r.warnings);
    binary = std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(repaired.data()),
                                      repaired.size() * sizeof(uint32_t));
  }
  ReflectResult reflection = reflect(binary);
  if (!reflection.ok) {
    error = "malformed SPIR-V: " + reflection.error;
    return {};
  }
  const ModuleInfo& module = reflection.module;
  if (module.version > kTranslatorMaxVersion) {
    error = "SPIR-V " + std::to_string(module.versionMajor()) + "." +
            std::to_string(module.versionMinor()) +
            " is newer than the translator reads (1.4 at most)";
    return {};
  }
  Legalized legal = legalizeForTranslator(toWords(binary));
  legal.warnings.insert(0, repairs);
  error = findTranslatorHazard(legal.words);
  return legal;
}

}  // namespace

std::string checkTranslatable(std::span<const uint8_t> binary) {
  std::string error;
  prepare(binary, error);
  return error;
}

TranslateResult translate(llvm::LLVMContext& context, std::span<const uint8_t> binary,
                          const TranslateOptions& options) {
  TranslateResult result;
  Legalized legal = prepare(binary, result.log);
  if (!result.log.empty()) return result;
  result.warnings = std::move(legal.warnings);

  // The translator itself runs in the compiler process (translate_inprocess.cpp): it asserts or
  // exit()s on what it does not expect, which the checks above cannot all foresee. The module
  // comes back as bitcode. (The translator reads host-order words; toWords has already swapped
  // a big-endian binary.)
  clc::Request request;
  request.kind = clc::Kind::TranslateSpirv;
  request.spirv = std::move(legal.words);
  request.specConstants.assign(options.specConstants.begin(), options.specConstants.end());
  clc::Reply reply = clc::run(
      request, options.process ? *options.process : clc::settingsFromEnvironment());
  if (!reply.ok) {
    result.log = reply.log.empty() ? "SPIR-V translation failed: no reason given" : reply.log;
    return result;
  }
  std::span<const uint8_t> bitcode(reinterpret_cast<const uint8_t*>(reply.payload.data()),
                                   reply.payload.size());
  TranslateResult read = readTesseraIR(context, bitcode, options.verify);
  if (!read.ok()) read.log = "the compiler process returned " + read.log;
  read.warnings = std::move(result.warnings);
  return read;
}

std::string checkTesseraIR(std::span<const uint8_t> bitcode, const clc::Settings* process) {
  clc::Request request;
  request.kind = clc::Kind::CheckIR;
  request.object.assign(reinterpret_cast<const char*>(bitcode.data()), bitcode.size());
  clc::Reply reply = clc::run(request, process ? *process : clc::settingsFromEnvironment());
  if (reply.ok) return {};
  return reply.log.empty() ? "the Tessera IR does not read: no reason given" : reply.log;
}

TranslateResult readTesseraIR(llvm::LLVMContext& context, std::span<const uint8_t> bitcode,
                              bool verify) {
  TranslateResult result;
  // The code generator reads opaque pointers, which is what the translator's reader writes;
  // Tessera IR is clang's typed-pointer IR, upgraded as it is read. (Left alone, the reader would
  // make a context that has not chosen yet typed, and the widening's rewrites would not verify.)
  if (!context.hasSetOpaquePointersValue()) context.setOpaquePointers(true);
  llvm::Expected<std::unique_ptr<llvm::Module>> parsed = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(
          llvm::StringRef(reinterpret_cast<const char*>(bitcode.data()), bitcode.size()),
          "tessera-ir"),
      context);
  if (!parsed) {
    result.log = "unreadable bitcode: " + llvm::toString(parsed.takeError());
    return result;
  }
  std::unique_ptr<llvm::Module> module = std::move(*parsed);
  if (verify) {
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
