// Repairs of mistakes real producers make in SPIR-V that SPIRV-Tools then refuses, where what the
// module means is clear and the repair cannot change it. clc/translate.cpp asks for them only when a
// module fails validation, and keeps a repair only when the repaired module validates; each repair
// is a warning in the build log. (oneAPI level-zero-tests ship such modules: cooperative_kernel.spv,
// cmdlist_verify.spv, 0kernels.spv; docs/conformance.md.)
//
//  - SPIR-V 1.4 and later: "the interface of an entry point must list every global variable
//    referenced by the entry point's static call tree"; a producer that lists only Input and Output
//    variables (the 1.3 rule) gets the others added.
//  - A capability that needs an extension the module does not declare, and that nothing in the
//    module uses, is dropped (ArbitraryPrecisionIntegersINTEL with no odd-width integer type).
//  - A capability the JIT reads that is declared, and used, without the extension that allows it
//    (FPFastMathModeINTEL without SPV_INTEL_fp_fast_math_mode, from SPIRV-LLVM-Translator as
//    AdaptiveCpp drives it; ArbitraryPrecisionIntegersINTEL with an odd-width OpTypeInt): the
//    extension is declared.
//  - A non-aggregate type (void, bool, a scalar of one width, sampler, event, ...) declared more
//    than once: the copies are renamed to the first declaration (merge_types.h).
//  - Alias analysis hints (SPV_INTEL_memory_access_aliasing) declared at module scope, where
//    SPIRV-LLVM-Translator writes them and SPIRV-Tools v2023.1 refuses them: the hints (the
//    declarations, the memory operands and decorations naming them, the capability and the
//    extension) are dropped; they are optimization hints, and the module means the same without.
//  - A module with no entry point and no Linkage capability (a module of helper functions, or none)
//    gets the Linkage capability: it then builds, with no kernels.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tessera::spirv {

struct Repaired {
  std::vector<uint32_t> words;  // the repaired module (a copy; unchanged when nothing applied)
  std::string warnings;         // one "warning: ..." line per repair made; empty if none
};

// `words` in host word order, header included. Never fails: what it cannot parse it leaves alone.
Repaired repairProducerMistakes(std::span<const uint32_t> words);

}  // namespace tessera::spirv
