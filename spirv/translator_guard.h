// What the installed SPIRV-LLVM-Translator cannot take: it trusts its input, and Debian builds it
// (and LLVM) with assertions on, so a module that SPIRV-Tools accepts can still abort the process.
// translate() runs findTranslatorHazard() after validation and refuses what it finds. Every entry
// here was found by the corrupt-SPIR-V tests or by reading the translator; add new ones the same
// way.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace tessera::spirv {

// Whether the translator's instruction factory knows this opcode (else: "Not implemented" abort).
bool translatorKnowsOpcode(uint32_t opcode);

// The first hazard in a validated module (host-order words), described for a build log; empty if
// none. Hazards: unknown opcodes (also inside OpSpecConstantOp), Alignment decorations and Aligned
// memory operands that are not powers of two, literal strings
// padded with anything but nul bytes, VecTypeHint operands that name no type, names and
// decorations of ids defined before the annotation section (OpExtInstImport, OpString, decoration
// groups), FuncParamAttr values other than Zext..NoWrite, ids named like builtin variables
// ("__spirv_BuiltIn...") that are not decorated BuiltIn.
std::string findTranslatorHazard(std::span<const uint32_t> words);

}  // namespace tessera::spirv
