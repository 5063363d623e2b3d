// What is checked of a native binary's object code before the JIT loads it (issue 28).
//
// The JIT's object linker (ORC's RTDyldObjectLinkingLayer over RuntimeDyld) was written for
// objects LLVM has just emitted: on malformed input it calls report_fatal_error ("Relocation type
// not implemented yet!", "Invalid data was encountered while parsing the file"), and it applies
// relocations at the offsets the object gives without comparing them with the section's size. A
// native binary is input (zeModuleCreate with ZE_MODULE_FORMAT_NATIVE), so its objects pass two
// checks before this process's JIT sees them:
//
//  1. checkObjectStructure, here, with llvm::object's Expected-returning readers: every section
//     inside the file, the symbol table and its strings readable, every symbol's section index
//     valid and its value and size inside its section, every relocation of a type the linker
//     implements for the host (x86-64: those LLVM's code generation emits for the JIT), of a
//     symbol that exists, and writing inside the section it relocates; and the unit's tables
//     agree with the object (each kernel's work-group function a defined function, each global a
//     defined variable of the size the table gives, each kernel's table equal to the record the
//     JIT wrote beside its code, abiRecord below). What depends on where memory lands (a write
//     outside a section) is refused here, so it cannot differ between two processes.
//  2. loadObjectIsolated (compiler/, through the compiler process, spirv/clc): the same JIT code
//     (KernelJit::load) loads the object and looks up every symbol in the compiler process first.
//     Whatever in LLVM ends a process on these bytes (a fatal error, an unreachable, an
//     assertion, a crash while parsing) ends that process, and the load fails with
//     ZE_RESULT_ERROR_INVALID_NATIVE_BINARY. Parsing depends only on the bytes, so an object that
//     loaded there loads here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/cpu/runtime/compiled_module.h"

namespace tessera::backends::cpu {

// What a kernel's code was compiled for and the launcher must give it: its name, its argument
// slots (kind, size, offset) and buffer size, its static __local bytes, its scratch bytes per
// work-item, its barrier count and sub-group sizes. The JIT writes it into the object as a constant
// named abiRecordSymbol(work-group function) (kernel_jit.cpp); check 1 compares a native binary's
// table with it, so that a table cannot promise less memory than the code uses (a scratch or
// __local size too small would have the kernel write past its buffers). The stack a kernel needs
// is measured after code generation and is not in it: a kernel given too little stack faults on
// the stack's guard page, which a launch survives (fault_guard.h).
std::string abiRecordSymbol(const std::string& kernelSymbol);
std::vector<uint32_t> abiRecord(const CompiledKernel& kernel);

// Check 1 above for `unit`'s object and tables. False with `error` naming the first problem.
bool checkObjectStructure(const CompiledModule& unit, std::string& error);

// Check 2's work, run by the compiler process: a JIT of its own (one for the process's life)
// loads `unit`'s object, looks up every symbol the tables name and removes it again. False with
// `error` when it fails without ending the process. (Objects with unwind tables are refused by
// check 1: the unwinder would parse a registered .eh_frame only at some later C++ exception,
// unchecked.)
bool loadObjectForCheck(const CompiledModule& unit, std::string& error);

}  // namespace tessera::backends::cpu
