// Rewrites of SPIR-V that SPIRV-Tools accepts but the installed translator refuses or aborts on,
// where what the module means is clear: hints the translator cannot carry are dropped and forms it
// does not read are written in ones it does. Each rewrite is a warning in the build log; whatever
// is not rewritten here is refused by translator_guard.h with a clear message.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tessera::spirv {

struct Legalized {
  std::vector<uint32_t> words;  // the module to translate (a copy, rewritten or not)
  std::string warnings;         // one "warning: ..." line per kind of rewrite; empty if none
};

// `words` must have passed validation (host word order, header included).
Legalized legalizeForTranslator(std::span<const uint32_t> words);

}  // namespace tessera::spirv
