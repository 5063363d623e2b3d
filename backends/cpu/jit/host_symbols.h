// What JIT-compiled code may call outside itself, and where it is found. Kernels never resolve a
// name from the application's process: the C math library, its vector variants and the compiler
// runtime come from the libraries this one opens itself, by an explicit list of names, so that a
// kernel calling exp() builds in a program that does not link libm, and a kernel cannot reach
// system(), abort() or an application's own `expf`.
#pragma once

#include <llvm/ExecutionEngine/Orc/Core.h>

#include <memory>

namespace tessera::backends::cpu::jit {

// The generator a module's JITDylib asks for names it does not define (after the runtime
// functions of builtin_runtime.h, which are defined into the dylib directly): the math library
// (libm.so.6: C99's functions, double and float), the vector math library (libmvec.so.1: the
// _ZGV* variants vector_math.cpp calls), the compiler runtime (libgcc_s.so.1: the half
// conversions, __powisf2, 128-bit division, ...) and memcpy/memmove/memset. Any other name stays
// undefined and the build fails with "Symbols not found".
std::unique_ptr<llvm::orc::DefinitionGenerator> hostSymbolGenerator();

// Whether `name` (unmangled) is one of the names the generator resolves (for tests).
bool isHostSymbolAllowed(llvm::StringRef name);

}  // namespace tessera::backends::cpu::jit
