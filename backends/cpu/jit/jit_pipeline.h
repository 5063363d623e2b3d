// The JIT pipeline, written once: the list of passes KernelJit::compile runs on a module, in order,
// each with the reason for its place. The passes are plain functions (jit_passes.h); this list is
// the only place that orders them, and what TESSERA_JIT_DUMP=passes prints.
//
// A pass works on the module (scope Module) or on one kernel (scope Kernel). Consecutive Kernel
// passes run as a group, kernel by kernel: the first kernel goes through the whole group, then the
// next one.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "backends/cpu/runtime/compiled_module.h"
#include "backends/cpu/jit/jit_passes.h"
#include "backends/cpu/jit/kernel_jit.h"

namespace llvm {
class DataLayout;
}

namespace tessera::backends::cpu::jit {

// What the passes share while one module compiles.
struct PipelineState {
  llvm::Module& module;
  llvm::TargetMachine* tm;  // the host's, for the IR passes (ORC has its own for code generation)
  const std::string& triple;
  const llvm::DataLayout& dataLayout;
  const CompileOptions& options;
  std::string* error;  // why a pass failed
  CompiledModule& result;
  // Emits the optimized module as object code and looks its symbols up (KernelJit's ORC step).
  std::function<bool(PipelineState&)> emit;

  std::vector<llvm::Function*> kernels;  // the spir_kernel functions, once inlined
  WidenPlan widen;                       // the same for every kernel of the module
  // The kernel a Kernel pass works on, its index in `kernels` and `result.kernels`, and what the
  // passes of its group hand each other.
  llvm::Function* kernel = nullptr;
  size_t kernelIndex = 0;
  StaticLocalLayout locals;
  Regions regions;
  // What stays reachable from the host: exported functions, program-scope variables (name, size).
  std::vector<std::string> functions;
  std::vector<std::pair<std::string, uint64_t>> globals;
  StackPlan stacks;
};

enum class PassScope { Module, Kernel };

struct JitPass {
  const char* name;
  PassScope scope;
  bool (*run)(PipelineState&);  // false: failed, `error` says why
  const char* why;              // what it does, and why it comes where it does
};

// The passes, in the order they run.
std::span<const JitPass> pipeline();

// Runs every pass of pipeline() on `state`; false when one fails.
bool runPipeline(PipelineState& state);

}  // namespace tessera::backends::cpu::jit
