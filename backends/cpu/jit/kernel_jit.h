// The kernel JIT: LLVM modules of SPIR-V kernels in, work-group functions (kernel_abi.h) out,
// compiled with ORC LLJIT for the host CPU (its name and features) at O3.
//
// Threading contract: a KernelJit may be used from any thread; compile() serializes on an internal
// mutex (one module compiles at a time). CompiledModule is immutable and may be shared by any
// number of threads; its functions stay valid as long as the KernelJit that made it lives.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/cpu/jit/kernel_abi.h"

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
namespace orc {
class LLJIT;
}
}  // namespace llvm

namespace tessera::backends::cpu {

struct CompiledModule {
  std::vector<CompiledKernel> kernels;
  double compileMs = 0;
  const CompiledKernel* find(const std::string& name) const {
    for (const CompiledKernel& k : kernels) {
      if (k.name == name) return &k;
    }
    return nullptr;
  }
};

class KernelJit {
 public:
  // Null (and `error`) when LLVM cannot target the host.
  static std::unique_ptr<KernelJit> create(std::string* error);
  ~KernelJit();

  // Compiles every kernel of `module` (SPIRV-LLVM-Translator output with SPIRVFriendlyIR
  // builtins; consumed) in one go. `key` identifies the module's source (e.g. a hash of the
  // SPIR-V and build options): a second compile() with the same key returns the first result
  // without compiling. Null (and `error`) on failure (unsupported builtin, verifier error, ...).
  std::shared_ptr<const CompiledModule> compile(uint64_t key,
                                                std::unique_ptr<llvm::LLVMContext> context,
                                                std::unique_ptr<llvm::Module> module,
                                                std::string* error);
  uint64_t compileCount() const { return compiles_; }
  std::string hostCpu() const { return cpu_; }

 private:
  KernelJit() = default;
  std::mutex mutex_;
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  std::unique_ptr<llvm::TargetMachine> tm_;  // for the O3 pipeline (ORC owns its own for codegen)
  std::map<uint64_t, std::shared_ptr<const CompiledModule>> cache_;
  uint64_t compiles_ = 0;
  std::string cpu_;
};

}  // namespace tessera::backends::cpu
