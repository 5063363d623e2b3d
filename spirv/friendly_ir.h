// OpenCL C's LLVM IR as the JIT reads it, without SPIR-V (issue 27 item 3): the module clang emits
// for spir64, with its builtins put into SPIRV-LLVM-Translator's "SPIR-V friendly" representation
// (`__spirv_ocl_exp`, `__spirv_BuiltInGlobalInvocationId`, `__spirv_ControlBarrier`, ...) by the
// translator's own IR-to-IR passes, the ones its writer runs before it writes SPIR-V. The writer,
// where the losses are (instructions a SPIR-V version cannot carry, `freeze`, odd-width integers,
// zero-length arrays), never runs: what clang accepts reaches the JIT as clang wrote it.
//
// Runs in the compiler process (clc/main.cpp), like the rest of the translator.
#pragma once

#include <string>

namespace llvm {
class Module;
}

namespace tessera::spirv {

// Rewrites `module` in place into Tessera IR (the format TESSERA_ZE_MODULE_FORMAT_LLVM_IR takes,
// tessera/ze_tessera.h): builtins in the SPIR-V friendly form and each kernel a `spir_kernel`
// function of its own name. False with the reason in `log` when the result does not verify.
bool toTesseraIR(llvm::Module& module, std::string& log);

// toTesseraIR's second half, on a module the translator's passes have been run on (llvm-spirv -s
// writes such modules too): kernels, handle types and builtins named as the translator's reader
// names them, stale builtin parameter attributes dropped, clang's `convergent` kept only on the
// barriers and group operations. No verification.
void nameAsTheReaderDoes(llvm::Module& module);

}  // namespace tessera::spirv
