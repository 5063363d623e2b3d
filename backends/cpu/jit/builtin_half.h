// Half precision in the builtin library (builtin_half.cpp): which builtin calls on halves are
// computed by their float lowering, that computation, and the half arithmetic LLVM's x86 backend
// would get wrong or leave to a library call.
#pragma once

#include "backends/cpu/jit/builtin_lowering.h"

namespace tessera::backends::cpu::jit::builtins {

// Whether the call (an OpenCL.std instruction `base`) has half arguments or a half result that
// its lowering must see as floats.
bool computesInFloat(llvm::StringRef base, llvm::CallInst* call);

// `lowering` (the float one) applied to the call's arguments widened to float (fma: double), its
// result rounded to the call's half type to nearest even.
llvm::Value* lowerInFloat(Builder& b, llvm::CallInst* call, const Args& args, llvm::StringRef base,
                          const Lowering& lowering);

// Rewrites `fptrunc double -> half` (a library call on x86) as one correct rounding through float
// rounded to odd, and `llvm.fma` on halves as fma in double rounded once.
void lowerHalfArithmetic(llvm::Module& m);

}  // namespace tessera::backends::cpu::jit::builtins
