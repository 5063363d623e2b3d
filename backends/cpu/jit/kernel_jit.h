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
class Function;
class LLVMContext;
class Module;
class TargetMachine;
namespace orc {
class LLJIT;
}
}  // namespace llvm

namespace tessera::backends::cpu {

namespace jit {
struct WidenPlan;
}

// A module-scope symbol the host can reach: a program-scope global variable or an exported
// function.
struct CompiledSymbol {
  void* address = nullptr;
  uint64_t size = 0;  // bytes of a variable; 0 for a function
};

struct CompiledModule {
  std::vector<CompiledKernel> kernels;
  std::map<std::string, CompiledSymbol> globals;    // defined, externally visible variables
  std::map<std::string, CompiledSymbol> functions;  // `CompileOptions::exports` that were kept
  std::vector<std::string> kernelSymbols;           // the work-group function of kernels[i]
  std::vector<char> object;  // the relocatable object code the JIT linked (for native binaries)
  double compileMs = 0;
  const CompiledKernel* find(const std::string& name) const {
    for (const CompiledKernel& k : kernels) {
      if (k.name == name) return &k;
    }
    return nullptr;
  }
};

struct CompileOptions {
  // The IR pipeline: 0 none (only what the work-group functions need), 1 O1, 2 O2, 3 O3 (default;
  // vectorizes the work-item loops). Code generation is the same for every level.
  unsigned optLevel = 3;
  // Functions (not kernels) the module exports and the host may ask the address of: they keep
  // external linkage when they can run outside a kernel (no work-item builtins, no barriers).
  std::vector<std::string> exports;
  // Widening across work-items (jit/widen.cpp): -1 as TESSERA_WIDEN says (on unless "0", at the
  // host's preferred vector width), 0 off, 1 on at the host's width, n > 1 on at n work-items.
  int widen = -1;
  // Prefetches of the next iteration's loads in loops with a barrier (jit/prefetch.cpp): -1 as
  // TESSERA_PREFETCH says (on unless "0"), 0 off, 1 on.
  int prefetch = -1;
};

class ObjectCapture;

class KernelJit {
 public:
  // Null (and `error`) when LLVM cannot target the host.
  static std::unique_ptr<KernelJit> create(std::string* error);
  ~KernelJit();

  // Compiles every kernel of `module` (SPIRV-LLVM-Translator output with SPIRVFriendlyIR
  // builtins; consumed) in one go. `key` identifies the module's source (e.g. a hash of the
  // SPIR-V and build options): a second compile() with the same key returns the first result
  // without compiling (the key must therefore cover `options`). Null (and `error`) on failure
  // (unsupported builtin, verifier error, ...).
  std::shared_ptr<const CompiledModule> compile(uint64_t key,
                                                std::unique_ptr<llvm::LLVMContext> context,
                                                std::unique_ptr<llvm::Module> module,
                                                std::string* error,
                                                const CompileOptions& options = {});
  // A module compiled before (by this or another process), from its object code: `module`
  // gives the kernels (without `fn`), their symbols and the names of globals and functions;
  // every address is looked up in the loaded object. Nothing is compiled. Null (and `error`)
  // when the object does not load or lacks a symbol.
  std::shared_ptr<const CompiledModule> load(const CompiledModule& module, std::string* error);
  uint64_t compileCount() const { return compiles_; }
  std::string hostCpu() const { return cpu_; }
  std::string hostFeatures() const { return features_; }

 private:
  KernelJit() = default;
  jit::WidenPlan widenPlan(llvm::Function& f, const CompileOptions& options) const;
  std::mutex mutex_;
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  std::unique_ptr<llvm::TargetMachine> tm_;  // for the O3 pipeline (ORC owns its own for codegen)
  std::unique_ptr<ObjectCapture> objects_;   // the object code of each compiled module
  std::map<uint64_t, std::shared_ptr<const CompiledModule>> cache_;
  uint64_t compiles_ = 0;
  std::string cpu_;
  std::string features_;
  uint64_t dylibs_ = 0;
};

}  // namespace tessera::backends::cpu
