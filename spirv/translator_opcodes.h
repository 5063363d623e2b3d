// Which SPIR-V opcodes the installed SPIRV-LLVM-Translator can read without aborting.
#pragma once

#include <cstdint>

namespace tessera::spirv {

bool translatorKnowsOpcode(uint32_t opcode);

}  // namespace tessera::spirv
