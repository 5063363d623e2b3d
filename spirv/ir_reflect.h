// Reflection of a Tessera IR module (LLVM 15 bitcode of a spir64 module with typed pointers, as
// clang emits it for OpenCL C and after SPIRV-LLVM-Translator's IR-to-IR passes have put the
// builtins into the SPIR-V friendly form): the ModuleInfo spirv::reflect (spirv/reflect.h) gives
// for the same program compiled to SPIR-V, so that the layers above need no second description of
// kernels.
//
// What it reads: kernels are the `spir_kernel` definitions (a translator wrapper
// `__spirv_entry_X` is kernel X, so the module may be read before or after the wrappers take their
// kernels' names); argument kinds from the parameter types (address space, image and sampler
// types, `byval`), sizes and alignments by reflect.cpp's OpenCL layout rules, names and image
// access from clang's kernel_arg_* metadata, work-group sizes and the vector type hint from
// reqd_work_group_size / work_group_size_hint / vec_type_hint. Module: linkage as the translator
// would declare it, program-scope __global and static __local variables, printf.
//
// What stays empty because it names SPIR-V, not the program: ids (functionId, typeId,
// interfaceIds, targetId, variable ids), the header words (version, generator, bound),
// opcodesUsed, extensions, extInstImports, specConstants (OpenCL C has none).
#pragma once

#include <cstdint>
#include <span>

#include "spirv/reflect.h"

namespace llvm {
class Module;
}

namespace tessera::spirv {

// Whether `bytes` are LLVM bitcode (its magic, "BC" 0xC0DE), the form Tessera IR takes; SPIR-V
// never starts so.
bool isTesseraIR(std::span<const uint8_t> bytes);

// Reflection of a module already in memory. ok == false (with the reason) only for metadata a
// kernel cannot have: a reqd_work_group_size or work_group_size_hint without three integers.
ReflectResult reflectIR(const llvm::Module& module);

// Parses `bitcode` in an LLVMContext of its own (typed pointers) and reflects it. Bitcode the
// reader refuses gives ok == false and its message. LLVM's bitcode reader is not hardened against
// hostile input the way reflect() is against hostile SPIR-V: bitcode from an untrusted source is
// for the compiler process (docs/architecture.md), not the application.
ReflectResult reflectIR(std::span<const uint8_t> bitcode);

}  // namespace tessera::spirv
