// The compiler facade: the one owner of the pipeline that turns a module's SPIR-V into native code
//
//   SPIR-V -> options parsed, reflected, specialization checked -> cache (memory, then disk)
//          -> validated (+ repaired), legalized, guarded, translated (spirv/translate.h, in the
//             compiler process) -> [linked with its providers' IR] -> JIT-compiled (backends/cpu/
//             jit, the passes of jit_pipeline.h) -> native code, stored in the cache
//
// with one key (cache_key.h) and one cache (code_cache.h). Core asks it for a module (a Program
// and its ModuleCode, program.h) and never sees LLVM or the JIT. Modeled on compute-runtime's
// CompilerInterface: the driver creates one, with its cache and settings, and every module build
// goes through it.
//
// Threading: every member may be called from any thread. One JIT compiles one module at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "compiler/code_cache.h"
#include "compiler/program.h"
#include "compiler/settings.h"

namespace tessera::backends::cpu {
class KernelJit;
}

namespace tessera::compiler {

class Compiler {
 public:
  explicit Compiler(CompilerSettings settings);
  ~Compiler();
  Compiler(const Compiler&) = delete;
  Compiler& operator=(const Compiler&) = delete;

  const CompilerSettings& settings() const { return settings_; }

  // A specialization constant's id and its value, which has the size the module declares for it.
  struct SpecConstant {
    uint32_t id = 0;
    const void* value = nullptr;
  };

  struct Result {
    std::shared_ptr<const Program> program;  // null when the build failed (`log` says why)
    std::shared_ptr<const ModuleCode> code;  // null on failure, and when the program needs linking
    std::string log;                         // the reason of a failure, or warnings
    bool ok() const { return program != nullptr; }
  };

  // zeModuleCreate from SPIR-V: `buildFlags` as build_options.h reads them. A program that imports
  // functions (Program::needsLinking) gets no code until link().
  Result build(std::span<const uint8_t> spirv, const char* buildFlags,
               std::span<const SpecConstant> constants);
  // zeModuleCreate from a native binary (native_binary.h): loads its code without compiling, if
  // it has any and was compiled for this CPU (name and features).
  Result load(std::span<const uint8_t> nativeBinary);
  // A module zeModuleDynamicLink links an importer with: its program and, once compiled, its
  // code. The importer uses the variables of a provider with code in place (their addresses
  // become constants of its code), never copies of them: the variables it imports, and those the
  // provider's functions it calls reach.
  struct Provider {
    const Program* program = nullptr;
    const ModuleCode* code = nullptr;
  };
  // zeModuleDynamicLink: `importer`'s code with the definitions it needs from `providers` (in
  // order), compiled. Null with `log` on failure: also when a variable it imports is not one a
  // provider with code has.
  std::shared_ptr<const ModuleCode> link(const Program& importer,
                                         std::span<const Provider> providers, std::string& log);
  // zeModuleGetNativeBinary: the program and, when it has object code, its code.
  std::vector<uint8_t> nativeBinary(const Program& program, const ModuleCode* code);

  // Modules the JIT has compiled so far (what the cache saved shows here).
  uint64_t compileCount();

 private:
  // The JIT, made on first need; null (and `error`) when LLVM cannot target this CPU.
  backends::cpu::KernelJit* jit(std::string& error);
  // `work()`, and when memory runs out inside it (std::bad_alloc, which reaches the entry point as
  // OUT_OF_HOST_MEMORY) the JIT is retired: an allocation failure unwinds through LLVM frames
  // not written for it and can leave ORC's session half-updated, where a later lookup crashes. A
  // retired JIT stays alive for the code it already holds and is never used again; the next build
  // makes a new one.
  template <typename Work>
  auto retiringJitOnBadAlloc(Work&& work) -> decltype(work());
  Result buildProgram(std::span<const uint8_t> spirv, const char* buildFlags,
                      std::span<const SpecConstant> constants);
  Result loadNative(std::span<const uint8_t> nativeBinary);
  std::shared_ptr<const ModuleCode> linkProgram(const Program& importer,
                                                std::span<const Provider> providers,
                                                std::string& log);
  CacheKey keyOf(const Program& program);

  CompilerSettings settings_;
  CodeCache cache_;
  std::mutex jitMutex_;
  std::unique_ptr<backends::cpu::KernelJit> jit_;
  bool jitTried_ = false;
  std::string jitFailure_;
  std::vector<std::unique_ptr<backends::cpu::KernelJit>> retiredJits_;
};

}  // namespace tessera::compiler
