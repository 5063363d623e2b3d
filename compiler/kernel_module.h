// One kernel's share of a program's LLVM IR, for compiling kernels one at a time (lazy_code.h).
//
// A program's IR is kept as bitcode (programBitcode); kernelModule parses it into a context of the
// caller's and keeps only what a kernel (or the exported functions) reaches: the kernel, the
// functions it calls (other kernels it calls become plain functions, which the JIT inlines like any
// helper) and the variables they use (constant data and static __local variables: a program
// compiled this way has no program-scope __global variable, whose storage would have to be one for
// every kernel). Everything else goes, so the JIT's passes and code generation see one kernel.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace tessera::compiler {

// `module` as bitcode.
std::string programBitcode(const llvm::Module& module);

// The module of `roots` from `bitcode` (programBitcode's), in `context`: one kernel, or the
// program's exported functions (zeModuleGetFunctionPointer's); a kernel among what the roots call
// is a function there. Null and `error` when the bitcode does not parse or lacks a root.
std::unique_ptr<llvm::Module> kernelModule(llvm::LLVMContext& context, std::string_view bitcode,
                                           const std::vector<std::string>& roots,
                                           std::string& error);

}  // namespace tessera::compiler
