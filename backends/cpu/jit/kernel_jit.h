// The kernel JIT: LLVM modules of SPIR-V kernels in, work-group functions (kernel_abi.h) out,
// compiled with ORC LLJIT for the host CPU (its name and features) at O3. The passes and their
// order are one list, jit_pipeline.h.
//
// Threading contract: a KernelJit may be used from any thread, and several threads may compile at
// once (each module in its own LLVMContext): the IR passes and code generation run on the calling
// thread with a TargetMachine of its own; only adding the object code to ORC and looking its
// symbols up serialize on an internal mutex. CompiledModule is immutable and may be shared by any
// number of threads; its functions stay valid as long as the KernelJit that made it lives.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/cpu/runtime/compiled_module.h"

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
namespace orc {
class LLJIT;
class JITTargetMachineBuilder;
class JITDylib;
}
}  // namespace llvm

namespace tessera::backends::cpu {

// What one compile is asked for (the interface's, backends/code_generator.h). For this JIT:
// optLevel 3 vectorizes the work-item loops, code generation is the same for every level; an
// export keeps external linkage when it can run outside a kernel (no work-item builtins, no
// barriers); widen is the widening across work-items (jit/widen.cpp: -1 or 1 on at the host's
// preferred vector width in the regions with a loop of their own, n > 1 at n work-items in every
// region it accepts); prefetch the prefetches of jit/prefetch.cpp; dumpModule prints what the
// widening did to each kernel and the module before O3.
using backends::CompileOptions;

struct JitOptions {
  // TESSERA_PERF_JIT=1: also write the jitdump file `perf inject --jit` reads, so that profiles
  // name the work-group functions.
  bool perfJit = false;
};

class KernelJit {
 public:
  // Null (and `error`) when LLVM cannot target the host.
  static std::unique_ptr<KernelJit> create(std::string* error, const JitOptions& options = {});
  ~KernelJit();

  // Compiles every kernel of `module` (SPIRV-LLVM-Translator output with SPIRVFriendlyIR
  // builtins; consumed) in one go, through the passes of jit_pipeline.h in their order. Every call
  // compiles: caching is the caller's (compiler/, keyed by everything that decides the code).
  // Null (and `error`) on failure (unsupported builtin, verifier error, ...).
  std::shared_ptr<const CompiledModule> compile(std::unique_ptr<llvm::LLVMContext> context,
                                                std::unique_ptr<llvm::Module> module,
                                                std::string* error,
                                                const CompileOptions& options = {});
  // The pipeline compile() runs, one pass a line in order ("name: what it does and why there"):
  // what TESSERA_JIT_DUMP=passes prints.
  static std::string describePipeline();
  // A module compiled before (by this or another process), from its object code: `module`
  // gives the kernels (without `fn`), their symbols and the names of globals and functions;
  // every address is looked up in the loaded object. Nothing is compiled. Null (and `error`)
  // when the object does not load or lacks a symbol.
  std::shared_ptr<const CompiledModule> load(const CompiledModule& module, std::string* error);
  // The same load, then the module is removed again: whether `module` loads, for the compiler
  // process that tries native binaries' objects (object_check.h) and must not keep them.
  bool loadOnTrial(const CompiledModule& module, std::string* error);
  uint64_t compileCount() const { return compiles_.load(); }
  std::string hostCpu() const { return cpu_; }
  std::string hostFeatures() const { return features_; }
  // The LLVM this JIT was built with ("15.0.6"): code from another may differ.
  static std::string llvmVersion();

 private:
  KernelJit() = default;
  // load()'s work under the lock; `made` is the JITDylib it created (null if none).
  std::shared_ptr<const CompiledModule> loadLocked(const CompiledModule& module, std::string* error,
                                                   llvm::orc::JITDylib*& made);
  std::mutex mutex_;
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  // Makes each compile's TargetMachine (for the IR passes and code generation): a TargetMachine
  // is not safe to share between threads (its subtarget map is filled lazily).
  std::unique_ptr<llvm::orc::JITTargetMachineBuilder> machines_;
  std::atomic<uint64_t> compiles_{0};
  std::string cpu_;
  std::string features_;
  uint64_t dylibs_ = 0;
};

}  // namespace tessera::backends::cpu
