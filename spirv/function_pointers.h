// Pointers to functions (SPV_INTEL_function_pointers), which the installed SPIRV-Tools (2023.1)
// refuses whatever the module declares ("Invalid use of function type result id"): the extension
// lets OpTypePointer point to an OpTypeFunction ("Function pointers ... OpTypePointer with
// CodeSectionINTEL or Function storage class and OpTypeFunction as Type"), adds
// OpConstantFunctionPointerINTEL (the address of a function of the module, which may be defined
// after it) and OpFunctionPointerCallINTEL (a call through such a pointer). clang writes them for
// `__cl_clang_function_pointers`; level-zero-tests' module_fptr_call.spv calls through an address
// zeModuleGetFunctionPointer gave, with the build options -ze-take-global-address
// -ze-library-compilation.
//
// validate.h checks such a module through a shadow copy the validator can read, and the module
// itself is translated (SPIRV-LLVM-Translator reads the extension; the JIT calls through the
// pointer as through any host function pointer):
//  - each pointer to a function type points, in the shadow, to an empty structure of its own
//    (CodeSectionINTEL becomes Function): the pointer keeps its id, so every instruction that
//    converts, selects, stores or passes it is checked as a pointer;
//  - each OpConstantFunctionPointerINTEL is an OpConstantNull of its pointer type (the function it
//    names is checked to be an OpFunction of the module here, with a type that matches);
//  - OpFunctionPointerCallINTEL stays (the validator checks its operands' ids).
// A module that uses any of this without capability FunctionPointersINTEL and the extension fails.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tessera::spirv {

struct FunctionPointerShadow {
  bool needed = false;          // the module has pointers to functions
  std::string error;            // needed but not allowed or not consistent: why
  std::vector<uint32_t> words;  // needed and allowed: the copy to validate instead
};

// `words` in host word order, header included. A module that does not parse is left to the
// validator: needed is false.
FunctionPointerShadow functionPointerShadow(std::span<const uint32_t> words);

}  // namespace tessera::spirv
