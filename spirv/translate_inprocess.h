// llvm::readSpirv itself, run by the compiler process (clc/main.cpp) for translate() (translate.h),
// which has already validated the binary and refused the translator's known hazards. In an
// application's process use translate(): the translator may assert or exit() on what it does not
// expect.
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

// Host-order words in; the module, or null with the translator's reason in `log`.
std::unique_ptr<llvm::Module> translateInProcess(llvm::LLVMContext& context,
                                                 std::span<const uint32_t> words,
                                                 std::span<const SpecAssignment> specConstants,
                                                 std::string& log);

}  // namespace tessera::spirv
