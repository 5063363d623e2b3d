// SPIR-V -> LLVM IR with SPIRV-LLVM-Translator. This header forward-declares what it needs of LLVM
// (LLVM headers compile slowly).
//
// Safety: the translator trusts its input. translate() therefore (1) validates with SPIRV-Tools,
// (2) reflects the module with our own bounds-checked parser, (3) refuses versions above the
// translator's maximum (1.4), rewrites what the translator cannot read where the meaning is clear
// (legalize.h) and refuses what else is known to abort it (translator_guard.h), and only
// then (4) has llvm::readSpirv run in the compiler process (clc/), which returns the module as
// bitcode: an assertion or exit() the checks did not foresee ends that process, not the
// application. Failures come back as strings; no exception crosses LLVM frames.
// Thread-safety: concurrent calls are fine as long as each uses its own LLVMContext.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "spirv/specialize.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace tessera::spirv {

namespace clc {
struct Settings;
}

struct TranslateOptions {
  std::span<const SpecAssignment> specConstants;  // from resolveSpecialization
  bool verify = true;                             // run LLVM's module verifier on the result
  // The compiler process to use (clc/client.h); null: as the environment says now.
  const clc::Settings* process = nullptr;
};

struct TranslateResult {
  TranslateResult();
  TranslateResult(TranslateResult&&) noexcept;
  TranslateResult& operator=(TranslateResult&&) noexcept;
  ~TranslateResult();

  std::unique_ptr<llvm::Module> module;  // null on failure
  std::string log;                       // why it failed; empty on success
  std::string warnings;                  // what legalize.h rewrote, for the build log
  bool ok() const { return module != nullptr; }
};

// Builtins come back in the SPIR-V friendly representation: calls such as
// __spirv_BuiltInGlobalInvocationId(i32) and __spirv_ControlBarrier(i32, i32, i32).
TranslateResult translate(llvm::LLVMContext& context, std::span<const uint8_t> binary,
                          const TranslateOptions& options = {});

// Tessera IR (friendly_ir.h: what compileOpenCLC makes with CompileOutput::TesseraIR), read into
// `context` and, with `verify`, checked by LLVM's verifier; no translation. The bytes must come
// from Tessera's compiler process (or have been read there once): LLVM's bitcode reader trusts
// more of its input than the checks above let reach the translator.
TranslateResult readTesseraIR(llvm::LLVMContext& context, std::span<const uint8_t> bitcode,
                              bool verify = true);

// Whether Tessera IR that did not come from Tessera's compiler process reads and verifies, checked
// in that process (`process`; null: as the environment says): empty when it does, else why not.
std::string checkTesseraIR(std::span<const uint8_t> bitcode, const clc::Settings* process);

// Steps (1) to (3) alone: whether translate() would hand this binary to the translator.
// Returns an empty string when it would, else the reason.
std::string checkTranslatable(std::span<const uint8_t> binary);

}  // namespace tessera::spirv
