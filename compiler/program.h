// What the compiler facade (compiler.h) hands out. No LLVM here: core holds these and never sees
// how they were made.
//   Program     a module's input as the compiler accepted it: SPIR-V, reflection, options,
//               specialization, imports and exports, and its cache key.
//   ModuleCode  its native code, as the kind's code generator made it (backends/code_generator.h):
//               the kernels (KernelCode each), the symbols the host may reach; the rest is the
//               kind's. Immutable, and shared by every module that has the same key (unless it has
//               program-scope variables).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "backends/code_generator.h"
#include "compiler/build_options.h"
#include "compiler/cache_key.h"
#include "spirv/reflect.h"
#include "spirv/specialize.h"

namespace tessera::compiler {

// One kernel's code as core sees it (backends/device_kind.h): name, argument table, local,
// scratch, stack and sub-group sizes, neutral of the kind; only an Executor of the kind that
// compiled it reads further.
using KernelCode = backends::KernelCode;
using CompiledSymbol = backends::CompiledSymbol;
// A module's code (backends/code_generator.h): core reads its kernels and symbols.
using ModuleCode = backends::ModuleCode;

// What a module is made from: SPIR-V, or Tessera IR (LLVM bitcode of Tessera's own OpenCL C front
// end, spirv/friendly_ir.h), which reaches the code generator without a translation.
enum class ModuleFormat : uint8_t { Spirv, TesseraIR };

// The format of a module's bytes, by their first word: LLVM bitcode's magic ("BC" 0xC0DE) is
// Tessera IR, anything else is taken for SPIR-V (whose reflection refuses what is not).
ModuleFormat formatOf(std::span<const uint8_t> bytes);

struct Program {
  ModuleFormat format = ModuleFormat::Spirv;
  std::vector<uint8_t> input;  // as given (also for a module loaded from a native binary)
  spirv::ModuleInfo info;      // reflection, with specialized work-group sizes
  BuildOptions options;
  std::vector<spirv::SpecAssignment> specs;
  CacheKey key;
  // Functions another module must provide (zeModuleDynamicLink): Import-linkage functions other
  // than those the kind's code provides itself (CodeGenerator::providesFunction).
  std::vector<std::string> imports;
  // Functions the module exports (Export linkage).
  std::vector<std::string> exports;
  // Program-scope variables another module must provide (Import linkage on an OpVariable that is
  // not a builtin: OpenCL C's `extern global int x;`), and those it defines for others (Export).
  // An importer uses the provider's storage itself (Compiler::link).
  std::vector<std::string> variableImports;
  std::vector<std::string> variableExports;

  bool needsLinking() const { return !imports.empty() || !variableImports.empty(); }
  // The exported functions that are not kernels (what zeModuleGetFunctionPointer may return; a
  // kernel's Export linkage makes no host-callable function).
  std::vector<std::string> functionExports() const {
    std::vector<std::string> out;
    for (const std::string& name : exports)
      if (!info.findKernel(name)) out.push_back(name);
    return out;
  }
  bool exportsFunction(const std::string& name) const;
  bool exportsVariable(const std::string& name) const;
  // Whether code compiled from it may be shared by several modules: not when it defines
  // program-scope __global variables, which each module must have its own copy of.
  bool shareable() const { return info.globalVariables.empty(); }
  // Whether its kernels may be compiled apart, each when first needed (lazy_code.h): they share
  // no storage (no program-scope __global variable), and it imports nothing and exports no
  // variable.
  bool compilesByKernel() const {
    return shareable() && !needsLinking() && variableExports.empty();
  }
};

}  // namespace tessera::compiler
