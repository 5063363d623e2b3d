// A program's code made kernel by kernel, each kernel when it is first needed (zeKernelCreate /
// clCreateKernel), not all when the module is created.
//
// Which programs: those whose kernels share nothing that must exist once (Program::
// compilesByKernel): no program-scope __global variable (each kernel's code would have its own
// copy), no exported variable, no import. Other programs compile whole at zeModuleCreate, as
// before. Exported functions (zeModuleGetFunctionPointer's) are one more unit, compiled when first
// asked for (exported()); in the kernels' units they are internal like any other function.
//
// What is decided when: zeModuleCreate does everything about the program as a whole (options,
// validation, reflection, specialization, translation to LLVM IR, kept here as bitcode). When an
// earlier build of the same key (this process's or another's) translated the program, the disk
// cache holds a note saying so (CodeCache::findNote) and the translation waits until a kernel
// misses the cache: a warm build does not translate at all. A kernel's
// code generation (the JIT's pipeline on that kernel alone, kernel_module.h) runs at its first
// kernel(), and what it finds wrong (an unsupported builtin, recursion, a frame too large, ...)
// is that call's failure, kept: every later call for that kernel answers the same.
//
// The compiled kernels are cached by the compiler like whole modules (memory, and disk entries per
// kernel, keyed by the program's key and the kernel's name): a second module of the same program,
// in this process or another, finds them there.
//
// Threading: any thread. Two threads needing the same kernel at once compile it once (the second
// waits for the first); different kernels compile in parallel.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>

#include "compiler/program.h"

namespace tessera::compiler {

class Compiler;

class LazyCode {
 public:
  // `bitcode`: the program's translation, or nullopt when it is known to translate (a note) and is
  // translated when first needed (bitcode()).
  LazyCode(Compiler& compiler, std::shared_ptr<const Program> program,
           std::optional<std::string> bitcode);
  ~LazyCode();
  LazyCode(const LazyCode&) = delete;
  LazyCode& operator=(const LazyCode&) = delete;

  const Program& program() const { return *program_; }
  // The code of the program's kernel `index` (in Program::info.kernels), compiled now unless an
  // earlier call did; null, with the reason in `log`, when its code generation failed.
  std::shared_ptr<const ModuleCode> kernel(size_t index, std::string& log);
  // The kernels of `indices` (every kernel, and the exported functions, when empty) not compiled
  // yet, compiled now in parallel on at most as many threads as this process may run on (its CPU
  // affinity), this one included.
  // False, with each failure's reason in `log`, when any fails.
  bool compile(std::span<const size_t> indices, std::string& log);
  // The program's exported functions that are not kernels (Program::functionExports, in
  // ModuleCode::functions), compiled now unless an earlier call did; a ModuleCode without kernels.
  // Null, with `log`, when their code generation failed; an empty ModuleCode when there are none.
  std::shared_ptr<const ModuleCode> exported(std::string& log);
  // The program's LLVM IR as bitcode (kernel_module.h), translated now unless it was before; null
  // with the translator's reason in `log` (translation fails the same way every time).
  const std::string* bitcode(std::string& log);
  // How many of the program's kernels have code now.
  size_t compiledCount() const { return compiled_.load(); }
  // After compile() of every kernel succeeded: the code of every kernel as one ModuleCode, whose
  // parts are the kernels' own (what native binaries carry). Null while some kernel has no code.
  std::shared_ptr<const ModuleCode> whole();

 private:
  struct Slot;

  Compiler& compiler_;
  std::shared_ptr<const Program> program_;
  std::mutex bitcodeMutex_;
  std::optional<std::string> bitcode_;  // the program's LLVM IR (kernel_module.h), once translated
  std::string translationError_;        // why it did not translate
  size_t units_ = 0;     // the program's kernels, and one more when it exports other functions
  std::unique_ptr<Slot[]> slots_;  // one per unit
  std::atomic<size_t> compiled_{0};
  std::mutex wholeMutex_;
  std::shared_ptr<const ModuleCode> whole_;
};

}  // namespace tessera::compiler
