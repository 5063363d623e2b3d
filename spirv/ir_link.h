// clLinkProgram for programs compiled from OpenCL C: clCompileProgram's objects (and libraries) are
// Tessera IR (friendly_ir.h), and they are linked as LLVM IR by LLVM's own linker, so no valid
// program is lost to a translation on its way from clang to the JIT (issue 27 item 3). Functions
// and program-scope variables one module declares and another defines resolve here, kernels and
// exported functions keep their names, what two modules define twice is an error.
//
// Runs in the compiler process (clc/main.cpp): the inputs may come from program binaries, and
// LLVM's bitcode reader is not hardened against hostile input.
#pragma once

#include <string>
#include <vector>

namespace tessera::spirv {

// Links `modules` (Tessera IR bitcode) into one, returned as bitcode. Unless `createLibrary`
// ("-create-library: Create a library of compiled binaries"), every function and variable a module
// imports must be defined by one of them (builtins excepted: ir_reflect.h's linkage).
// `definedElsewhere`: names that units linked beside these define (SPIR-V units of the same
// clLinkProgram, which stay modules of their own): defining one of them again is an error too.
// Empty, with the reasons in `log` ("error: ..." lines), when a module does not read or verify, a
// name is defined twice ("multiple definition", as a C linker says), the linker refuses them
// (types that do not match) or an import stays unresolved.
std::string linkTesseraIRInProcess(const std::vector<std::string>& modules, bool createLibrary,
                                   const std::vector<std::string>& definedElsewhere,
                                   std::string& log);

}  // namespace tessera::spirv
