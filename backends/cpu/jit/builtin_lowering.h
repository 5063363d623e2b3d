// The builtin library's inside: how one builtin call becomes IR, the helpers its families share,
// and the families themselves (one file each). builtin_library.cpp assembles the table from the
// families and runs it (lowerBuiltins, jit_passes.h, is the only entry point outside the library).
//
// A lowering gets the call's arguments and a builder positioned before the call; it returns the
// call's value (null for void builtins) and lowerBuiltins replaces and erases the call. Lowerings
// work on any scalar or vector shape: one IR value per call, never one call per lane unless the
// operation only exists as a scalar libm function.
#pragma once

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>

#include <functional>
#include <string>

namespace tessera::backends::cpu::jit::builtins {

using Builder = llvm::IRBuilder<>;
using Args = llvm::SmallVector<llvm::Value*, 6>;
using Lowering = std::function<llvm::Value*(Builder&, llvm::CallInst*, const Args&)>;
using Table = llvm::StringMap<Lowering>;

// The families (SPIR-V names without mangling: "__spirv_ocl_sinpi").
void addMathBuiltins(Table& t);        // builtin_math.cpp: math functions, half_ and native_
void addMathPiBuiltins(Table& t);      // builtin_math_pi.cpp: sinpi, cospi, tanpi, asinpi, ...
void addIntegerBuiltins(Table& t);     // builtin_integer.cpp
void addGeometricBuiltins(Table& t);   // builtin_geometric.cpp: common and geometric functions
void addRelationalBuiltins(Table& t);  // builtin_relational.cpp: relational, select, any/all
void addVectorDataBuiltins(Table& t);  // builtin_vector_data.cpp: vload/vstore(_half), shuffle
void addAtomicBuiltins(Table& t);      // builtin_atomics.cpp: atomics, fences, sub-group ops
void addHostCallBuiltins(Table& t);    // builtin_host_calls.cpp: printf, async copies, prefetch
void addImageBuiltins(Table& t);       // builtin_image.cpp: image reads, writes, queries, samplers
void addIntelLscBuiltins(Table& t);    // builtin_intel_lsc.cpp: Intel's __builtin_IB_lsc_*
bool isIntelLscName(llvm::StringRef name);
// Why a call of an Intel LSC builtin cannot be lowered (its operands or result are not the
// builtin's types; a kernel declares these itself), or empty.
std::string intelLscRefusal(llvm::StringRef base, llvm::CallInst* call);
// builtin_image.cpp: why an image builtin cannot be lowered (empty: it can, or it is no image
// builtin); the builtins whose calls must be lowered after their users' (an image read takes the
// operands of the OpSampledImage it reads); the inline sampler's builtin, which has no __spirv_
// name.
std::string imageRefusal(llvm::StringRef base, llvm::CallInst* call);
bool lowersAfterItsUsers(llvm::StringRef base);
bool isSamplerInitializer(llvm::StringRef base);

// Why a call cannot be lowered (builtin_host_calls.cpp), or empty.
std::string refusal(llvm::StringRef base, llvm::CallInst* call);

// --- shapes ---
unsigned lanes(llvm::Type* t);
llvm::Type* withLanes(llvm::Type* scalar, unsigned n);
// `scalar` (an element type) in the shape of `like`: scalar, or a vector of as many lanes.
llvm::Type* shapeOf(llvm::Type* like, llvm::Type* scalar);
// The integer type of `t`'s lane width in `t`'s shape (float4 -> i32 x 4).
llvm::Type* intShape(llvm::Type* t);
// `v` splatted to `like`'s lanes when `v` is a scalar and `like` a vector; `v` otherwise.
llvm::Value* splatTo(Builder& b, llvm::Value* v, llvm::Type* like);
// Scalar arguments of the same element type as a vector argument, splatted to it (OpenCL C's
// "gentype f(gentype x, sgentype y)" forms, which some producers pass as they are).
Args uniform(Builder& b, const Args& a);

// --- constants ---
llvm::Value* fconst(llvm::Type* t, double v);
llvm::Value* iconst(llvm::Type* t, uint64_t v);

// --- calls ---
// An intrinsic overloaded on its first argument's type.
llvm::Value* intrinsic(Builder& b, llvm::Intrinsic::ID id, const Args& a);
llvm::Value* unary(Builder& b, llvm::Intrinsic::ID id, llvm::Value* x);
llvm::Value* binary(Builder& b, llvm::Intrinsic::ID id, llvm::Value* x, llvm::Value* y);
// The scalar C function `name` on each lane, with a result of `result`'s element type per lane.
llvm::Value* libmCall(Builder& b, llvm::StringRef name, llvm::Type* result, const Args& a);
// A libm function by its double name ("sin"), "f"-suffixed when `result`'s element is float.
llvm::Value* libm(Builder& b, llvm::StringRef base, llvm::Type* result, const Args& a);
// A libm function with a result through a pointer (frexpf(x, int*), ...), lane by lane: `a` holds
// the value arguments, `out` the kernel's pointer to `outElement`s (one per lane).
llvm::Value* libmOut(Builder& b, llvm::CallInst* call, llvm::StringRef name, Args a,
                     llvm::Value* out, llvm::Type* outElement);
// A call to a host function of builtin_runtime.h, by the name the JIT binds to it.
llvm::Value* callHost(Builder& b, const char* symbol, llvm::Type* result, const Args& a);

// --- floating point ---
// float (or a float vector) widened to double; a double as it is.
llvm::Value* toDouble(Builder& b, llvm::Value* v);
// A double value back to `type` (float or double shape): rounds to nearest.
llvm::Value* fromDouble(Builder& b, llvm::Value* v, llvm::Type* type);
// The sign bit of each lane as i1.
llvm::Value* signBit(Builder& b, llvm::Value* x);
// |x| == inf, and x finite (neither inf nor NaN), per lane.
llvm::Value* isInf(Builder& b, llvm::Value* x);
llvm::Value* isFinite(Builder& b, llvm::Value* x);
// The lanes of a vector reduced with `op` (scalar: the value itself).
llvm::Value* reduce(Builder& b, llvm::Value* v,
                    const std::function<llvm::Value*(llvm::Value*, llvm::Value*)>& op);

// --- pointers ---
// `p` as a pointer to `element` in the same address space.
llvm::Value* pointerTo(Builder& b, llvm::Value* p, llvm::Type* element);
// `p` as a pointer to `element` in the default address space, as C wants.
llvm::Value* cPointer(Builder& b, llvm::Value* p, llvm::Type* element);
llvm::Value* bytePointer(Builder& b, llvm::Value* p);

unsigned constantArg(llvm::Value* v);

}  // namespace tessera::backends::cpu::jit::builtins
