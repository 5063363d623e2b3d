// What the kernel JIT (kernel_jit.h) makes of one module: the interface's ModuleCode
// (backends/code_generator.h: symbols, parts) with its kernels as the launcher runs them
// (kernel_abi.h) and the object code for native binaries. No LLVM here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backends/code_generator.h"
#include "backends/cpu/runtime/kernel_abi.h"

namespace tessera::backends::cpu {

// A module-scope symbol the host can reach (plain data of the interface, backends/device_kind.h).
using backends::CompiledSymbol;

struct CompiledModule final : backends::ModuleCode {
  std::vector<CompiledKernel> kernels;
  std::vector<std::string> kernelSymbols;  // the work-group function of kernels[i]
  // The relocatable object code the JIT linked (for native binaries); empty for a module combined
  // from parts (ModuleCode::parts, whose objects native binaries carry).
  std::vector<char> object;

  size_t kernelCount() const override { return kernels.size(); }
  const KernelCode& kernel(size_t i) const override { return kernels[i]; }
  bool saveable() const override { return !object.empty(); }
  const CompiledKernel* find(const std::string& name) const {
    for (const CompiledKernel& k : kernels) {
      if (k.name == name) return &k;
    }
    return nullptr;
  }
};

// `code` as the CPU kind's: every ModuleCode the CPU's code generator hands out is one.
inline const CompiledModule& compiledModule(const backends::ModuleCode& code) {
  return static_cast<const CompiledModule&>(code);
}
inline std::shared_ptr<const CompiledModule> compiledModule(
    std::shared_ptr<const backends::ModuleCode> code) {
  return std::static_pointer_cast<const CompiledModule>(std::move(code));
}

}  // namespace tessera::backends::cpu
