// Code generation for a kind of device, behind the interface (issue 31 item 2; the other half of
// backends/device_kind.h, whose DeviceKind hands out a CodeGenerator): what the compiler facade
// (compiler/) gives a kind and gets back. compiler/ includes nothing else of backends/; core/
// reads a module's code through ModuleCode. No LLVM header here: the input is an llvm::Module the
// facade made from SPIR-V (spirv/clc/translate.h), declared, never defined. backends/cpu/jit/
// code_generator.h implements it for the CPU (the kernel JIT); no type of it appears here.
//
// Threading: a CodeGenerator may be used from any thread; several threads may compile at once
// (each module in its own LLVMContext). ModuleCode is immutable once made and may be shared.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backends/device_kind.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace tessera::backends {

// A module's code, whatever the kind: its kernels as core reads them (KernelCode), the symbols the
// host may reach and, for a program compiled kernel by kernel (compiler/lazy_code.h), the units it
// was made of. A kind's module code is this plus what only the kind reads (the CPU's
// CompiledModule: work-group functions, object code); a CodeGenerator is only ever given code it
// made itself.
class ModuleCode {
 public:
  virtual ~ModuleCode() = default;
  virtual size_t kernelCount() const = 0;
  virtual const KernelCode& kernel(size_t i) const = 0;
  // Whether it holds what a native binary carries (CodeGenerator::writeUnit): false for code that
  // is the combination of units (`parts`) and for code that cannot be saved.
  virtual bool saveable() const = 0;
  const KernelCode* find(const std::string& name) const {
    for (size_t i = 0; i < kernelCount(); ++i)
      if (kernel(i).name == name) return &kernel(i);
    return nullptr;
  }

  std::map<std::string, CompiledSymbol> globals;    // defined, externally visible variables
  std::map<std::string, CompiledSymbol> functions;  // CompileOptions::exports that were kept
  // When the module's kernels were compiled apart (compiler/lazy_code.h): the units compiled,
  // which native binaries carry (each saveable); empty for a module compiled at once.
  std::vector<std::shared_ptr<const ModuleCode>> parts;
  double compileMs = 0;

 protected:
  ModuleCode() = default;
  ModuleCode(const ModuleCode&) = default;
  ModuleCode& operator=(const ModuleCode&) = default;
};

struct CompileOptions {
  // The IR pipeline: 0 none (only what the kind's code needs), 1 O1, 2 O2, 3 O3 (default).
  unsigned optLevel = 3;
  // Functions (not kernels) the module exports and the host may ask the address of.
  std::vector<std::string> exports;
  // The code switches (compiler/compiler_config.h's CodeSettings, TESSERA_WIDEN, TESSERA_PREFETCH):
  // widening across work-items (0 off; -1 the kind's default; n > 1 n work-items) and prefetches
  // in loops with a barrier (0 off; 1 or -1 on). A kind without them ignores them.
  int widen = -1;
  int prefetch = -1;
  // Rows of a 2-D work-group run four at once in the regions that allow it (0 off; -1 the kind's
  // default).
  int rowJam = -1;
  // Kernels with barriers get a copy of their work-group function for one group size (0 off; -1
  // the kind's default).
  int groupCopy = -1;
  // TESSERA_JIT_DUMP=1: what the kind's passes did to the module, on stderr;
  // TESSERA_JIT_DUMP=times: the time each of its passes took on the module.
  bool dumpModule = false;
  bool dumpTimes = false;
};

// What made code and what it runs on: native binaries and cache keys carry it, and code is loaded
// only where all three are equal (the CPU: the host CPU's name and feature string, LLVM's version).
struct CodeTarget {
  std::string cpu;
  std::string features;
  std::string toolchain;
};

struct GeneratorOptions {
  // TESSERA_PERF_JIT=1: also write what a profiler needs to name the generated functions.
  bool perfJit = false;
};

class CodeGenerator {
 public:
  virtual ~CodeGenerator() = default;
  virtual const CodeTarget& target() const = 0;
  // The passes compile() runs, one a line in order: what TESSERA_JIT_DUMP=passes prints.
  virtual std::string describePipeline() const = 0;
  // Modules compiled so far (loads do not count).
  virtual uint64_t compileCount() const = 0;
  // Whether `name`, a function a module imports, is one the kind's code provides itself (Tessera's
  // own builtins: tessera_current_pu; vendors' builtins a kernel written for their drivers calls:
  // Intel's __builtin_IB_lsc_*), so that the module needs no zeModuleDynamicLink for it.
  virtual bool providesFunction(const std::string& name) const = 0;

  // Compiles every kernel of `module` (SPIRV-LLVM-Translator output; consumed with its context).
  // Every call compiles: caching is the caller's. Null with `error` on failure.
  virtual std::shared_ptr<const ModuleCode> compile(std::unique_ptr<llvm::LLVMContext> context,
                                                    std::unique_ptr<llvm::Module> module,
                                                    const CompileOptions& options,
                                                    std::string& error) = 0;
  // The kernels named `order` taken from `units` (each kernel from the first unit that has it),
  // with every unit's symbols, as one module whose parts are `units`: a program compiled kernel
  // by kernel, whole. Null when a kernel of `order` is in no unit.
  virtual std::shared_ptr<const ModuleCode> combine(
      const std::vector<std::string>& order,
      std::vector<std::shared_ptr<const ModuleCode>> units) const = 0;

  // Native binaries (compiler/native_binary.h): a saveable unit as bytes appended to `out`, and
  // back. readUnit takes the unit from the front of `in` and says how many bytes it used; it
  // refuses (null with `error`) a unit that is truncated or whose tables are not what compile()
  // makes. What it returns is not loaded: check, then load.
  virtual void writeUnit(const ModuleCode& unit, std::vector<uint8_t>& out) const = 0;
  virtual std::shared_ptr<ModuleCode> readUnit(std::span<const uint8_t> in, size_t& used,
                                               std::string& error) const = 0;
  // What can be checked of a read unit in this process without loading it (the CPU: its object's
  // structure against what its linker implements). False with `error` naming the first problem.
  virtual bool checkUnit(const ModuleCode& unit, std::string& error) const = 0;
  // What the compiler process (spirv/clc) is given to load a read unit on trial before this
  // process does: its object code and the symbols to look up.
  virtual void trialLoad(const ModuleCode& unit, std::vector<uint8_t>& object,
                         std::vector<std::string>& symbols) const = 0;
  // A read (and checked) unit made runnable here: its symbols' addresses found. Null with `error`.
  virtual std::shared_ptr<const ModuleCode> load(const ModuleCode& unit, std::string& error) = 0;
};

}  // namespace tessera::backends
