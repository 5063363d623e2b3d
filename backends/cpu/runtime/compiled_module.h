// What the kernel JIT (kernel_jit.h) makes of one module: its kernels as the launcher runs them
// (kernel_abi.h), the symbols the host may reach, and the object code for native binaries. No LLVM
// here: the compiler facade (compiler/) hands these out without exposing the JIT.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/runtime/kernel_abi.h"

namespace tessera::backends::cpu {

// A module-scope symbol the host can reach (plain data of the interface, backends/device_kind.h).
using backends::CompiledSymbol;

struct CompiledModule {
  std::vector<CompiledKernel> kernels;
  std::map<std::string, CompiledSymbol> globals;    // defined, externally visible variables
  std::map<std::string, CompiledSymbol> functions;  // `CompileOptions::exports` that were kept
  std::vector<std::string> kernelSymbols;           // the work-group function of kernels[i]
  std::vector<char> object;  // the relocatable object code the JIT linked (for native binaries)
  // When the module's kernels were compiled apart (compiler/lazy_code.h): the modules compiled,
  // whose objects native binaries carry; `object` is then empty. Empty for a module compiled at
  // once.
  std::vector<std::shared_ptr<const CompiledModule>> parts;
  double compileMs = 0;
  const CompiledKernel* find(const std::string& name) const {
    for (const CompiledKernel& k : kernels) {
      if (k.name == name) return &k;
    }
    return nullptr;
  }
};

}  // namespace tessera::backends::cpu
