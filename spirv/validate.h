// Validation with SPIRV-Tools (spirv-val's library) before anything else reads a binary: the
// translator trusts its input and can abort or exit() on malformed modules.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tessera::spirv {

struct ValidationResult {
  bool ok = false;
  // The SPIRV-Tools target environment used, e.g. "SPIR-V 1.0 (under OpenCL 2.1 semantics)".
  std::string environment;
  std::string log;  // empty when ok; else what failed, one diagnostic per line
};

// Chooses the environment from the header's version: SPIR-V 1.0 is checked under OpenCL 2.1 rules,
// 1.1 and 1.2 under OpenCL 2.2 rules (the OpenCL environments SPIRV-Tools has for them), 1.3 to 1.6
// under the universal rules of that version. Anything else fails. A module that declares a
// capability which Tessera's extensions add to the OpenCL environment (Int64Atomics:
// cl_khr_int64_base_atomics) has its capabilities, addressing and memory model checked under the
// OpenCL environment and the whole module under the universal rules of its version. A module with
// integer widths other than 8, 16, 32 and 64 (SPV_INTEL_arbitrary_precision_integers) is checked
// through a copy at standard widths (odd_integers.h), or fails when it may not use them.
// Likewise pointers to functions (SPV_INTEL_function_pointers): through a copy the validator can
// read (function_pointers.h).
ValidationResult validate(std::span<const uint8_t> binary);

// The newest SPIR-V version Tessera's reader takes (the installed translator's MaximumVersion).
inline constexpr uint32_t kNewestReadableVersion = 0x00010400;

// Validation of a module a producer wrote (the translator in the compiler process, the linker),
// at the version its instructions need. SPIRV-LLVM-Translator 15 declares the lowest version it
// knows its instructions need, and does not know every rule: `select i1 %c, <4 x float> ...` (a
// scalar condition choosing vectors, what clang emits for `c ? (float4)(...) : (float4)(...)`)
// becomes an OpSelect that only SPIR-V 1.4 allows ("Before version 1.4, results are only
// computed per component ... the Condition must be a vector of the same number of components"),
// in a module it declares 1.0. So a module that fails validation at the version it declares is
// raised to SPIR-V 1.4 (raiseToVersion14) and validated again; when that passes, `words` become the
// raised module and the result is the 1.4 validation. Otherwise `words` are left as they were and
// the result is the failure at the declared version, with the 1.4 diagnostic appended.
ValidationResult validateAtNeededVersion(std::vector<uint32_t>& words);

// `words` declared as SPIR-V 1.4, with what 1.4 asks of a module that earlier versions did not:
// "Starting with version 1.4, the interface's storage classes are all storage classes used in
// declaring all global variables referenced by the entry point's call tree" (OpEntryPoint), so
// every module-scope OpVariable joins every entry point's interface (once). Nothing else that a
// 1.0 to 1.3 module may contain changes meaning in 1.4. Words that are not a module of version 1.0
// to 1.4 come back unchanged.
std::vector<uint32_t> raiseToVersion14(const std::vector<uint32_t>& words);

}  // namespace tessera::spirv
