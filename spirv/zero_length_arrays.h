// Zero-length arrays (`int data[0]`, flexible array members `long data[]`, `local int z[0]`) are
// `[0 x T]` in clang's LLVM IR and inexpressible in every SPIR-V version: OpTypeArray's Length
// "must be at least 1" (SPIR-V 1.4, 3.32.6), and the OpenCL environment has no runtime arrays.
// SPIRV-LLVM-Translator 15 refuses the module ("InvalidArraySize"), so a valid OpenCL C program
// failed to build. This lowering runs on clang's module in the compiler process, before the
// translator, and keeps every byte offset and size the program can observe:
//
// - every address computation through a type that changes becomes byte arithmetic (an i8 GEP by the
//   offset the data layout gives, then a cast), so no GEP indexes a rewritten type;
// - a struct loses its zero-size members; when that changes a member's offset, the struct's size
//   or its alignment, it becomes a packed struct with explicit i8 padding at the old offsets and
//   the old size (so arrays of it and structs around it keep their layout too);
// - a zero-length object of its own (an alloca or a variable of type [0 x T]) gets one element:
//   any access to it is outside the object in C, so the extra element is never read by a valid
//   program;
// - pointer, array and function types follow their element types.
//
// Nothing changes in a module without `[0 x T]`. Forms the lowering does not handle (aggregate
// values of a rewritten struct taken apart with extractvalue/insertvalue, non-zero constant
// aggregates of one used as operands, a rewritten variable's address in another variable's
// initializer) leave the module untouched and are reported, and the translator's error follows.
#pragma once

#include <string>

namespace llvm {
class Module;
}

namespace tessera::spirv {

// False with `reason` set when the module holds a form the lowering does not handle; the module is
// then unchanged. True otherwise (also when there was nothing to do).
bool lowerZeroLengthArrays(llvm::Module& module, std::string& reason);

}  // namespace tessera::spirv
