// The CPU kind's code generator (the interface's CodeGenerator, backends/code_generator.h): the
// kernel JIT (kernel_jit.h) for compiling and loading, object_check.h for what is checked of a
// native binary's object before it is loaded, native_unit.h for a unit's bytes, and
// builtin_runtime.h for the functions the JIT provides itself. backends/cpu/kind/cpu_kind.cpp
// hands it out.
#pragma once

#include <memory>
#include <string>

#include "backends/code_generator.h"

namespace tessera::backends::cpu {

// Null with `error` when LLVM cannot target the host.
std::unique_ptr<CodeGenerator> createCodeGenerator(const GeneratorOptions& options,
                                                   std::string& error);

}  // namespace tessera::backends::cpu
