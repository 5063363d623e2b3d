// The compiler facade: the one owner of the pipeline that turns a module's SPIR-V into native code
//
//   SPIR-V or Tessera IR (program.h: ModuleFormat; IR skips the validation and translation below)
//          -> options parsed, reflected, specialization checked -> [a program that compiles by
//             kernel: translated once, then each kernel when first needed, lazy_code.h]
//          -> cache (memory, then disk)
//          -> validated (+ repaired), legalized, guarded, translated (spirv/clc/translate.h, in the
//             compiler process) -> [linked with its providers' IR] -> compiled by the kind's code
//             generator (backends/code_generator.h; the CPU's: the kernel JIT, backends/cpu/jit)
//          -> native code, stored in the cache
//
// with one key (cache_key.h) and one cache (code_cache.h). Core asks it for a module (a Program
// and its ModuleCode, program.h) and never sees LLVM or the code generator. Modeled on
// compute-runtime's CompilerInterface: the driver creates one, with its cache, settings and the
// kind of device it compiles for, and every module build goes through it.
//
// Threading: every member may be called from any thread; the code generator compiles modules (and
// kernels, lazy_code.h) on the calling threads, several at once.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "backends/code_generator.h"
#include "backends/device_kind.h"
#include "compiler/code_cache.h"
#include "compiler/compiler_config.h"
#include "compiler/lazy_code.h"
#include "compiler/program.h"

namespace tessera::compiler {

class Compiler {
 public:
  // Code for devices of `kind` (which outlives the compiler: kinds live as long as the process).
  Compiler(CompilerConfig settings, const backends::DeviceKind& kind);
  ~Compiler();
  Compiler(const Compiler&) = delete;
  Compiler& operator=(const Compiler&) = delete;

  const CompilerConfig& settings() const { return settings_; }

  // A specialization constant's id and its value, which has the size the module declares for it.
  struct SpecConstant {
    uint32_t id = 0;
    const void* value = nullptr;
  };

  struct Result {
    std::shared_ptr<const Program> program;  // null when the build failed (`log` says why)
    // null on failure, when the program needs linking, and when it compiles by kernel (`lazy`)
    std::shared_ptr<const ModuleCode> code;
    // A program that compiles by kernel (Program::compilesByKernel, lazy_code.h), built from
    // SPIR-V: its kernels' code, each made when first needed. Shared by the modules of one key.
    std::shared_ptr<LazyCode> lazy;
    std::string log;                         // the reason of a failure, or warnings
    bool ok() const { return program != nullptr; }
  };

  // zeModuleCreate from SPIR-V or Tessera IR (by the bytes' magic; Tessera IR must have been read
  // in the compiler process once: spirv::checkTesseraIR): `buildFlags` as build_options.h reads
  // them. A program that imports functions (Program::needsLinking) gets no code until link().
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
  // LazyCode's compile of one kernel (index in program.info.kernels) of `code`'s program: from the
  // cache (memory, then disk), else compiled from the program's bitcode and stored. Null with
  // `log` on failure.
  std::shared_ptr<const ModuleCode> compileKernel(LazyCode& code, size_t index, std::string& log);
  // The whole program translated to LLVM IR (spirv/clc/translate.h) as bitcode; false with `log`.
  // `warnings`: the translator's, on success.
  bool translateProgram(const Program& program, std::string& bitcode, std::string& log,
                        std::string& warnings);

  // LazyCode's whole(): the kernels of `units` (each one or more of `program`'s kernels, compiled
  // apart) as one ModuleCode with `units` as its parts, in the program's order; null when one of
  // the program's kernels is in none of them.
  std::shared_ptr<const ModuleCode> combineUnits(const Program& program,
                                                 std::vector<std::shared_ptr<const ModuleCode>> units);

  // Modules the code generator has compiled so far (what the cache saved shows here).
  uint64_t compileCount();
  // Programs translated to LLVM IR so far (what the translation notes saved shows here).
  uint64_t translateCount() const { return translations_.load(); }
  // What the code this process makes is for (native binaries and cache keys carry it): false with
  // `error` when no code can be generated here.
  bool codeTarget(backends::CodeTarget& out, std::string& error);

 private:
  // The kind's code generator, made on first need; null (and `error`) when the kind cannot
  // generate code here (the CPU: LLVM cannot target it).
  backends::CodeGenerator* generator(std::string& error);
  // `work()`, and when memory runs out inside it (std::bad_alloc, which reaches the entry point as
  // OUT_OF_HOST_MEMORY) the code generator is retired: an allocation failure unwinds through LLVM
  // frames not written for it and can leave the JIT's session (ORC's) half-updated, where a later
  // lookup crashes. A retired generator stays alive for the code it already holds and is never
  // used again; the next build makes a new one.
  template <typename Work>
  auto retiringGeneratorOnBadAlloc(Work&& work) -> decltype(work());
  Result buildProgram(std::span<const uint8_t> spirv, const char* buildFlags,
                      std::span<const SpecConstant> constants);
  // The program of a SPIR-V module (options parsed, reflected, specialized, keyed); null with `log`.
  std::shared_ptr<Program> makeProgramFrom(std::span<const uint8_t> spirv, const char* buildFlags,
                                           std::span<const SpecConstant> constants,
                                           std::string& log);
  // The rest of buildProgram: the program's code, from the caches or compiled.
  Result buildFrom(std::shared_ptr<Program> program);
  Result loadNative(std::span<const uint8_t> nativeBinary);
  // build() of a program that compiles by kernel: translated now (unless a note says an earlier
  // build translated it), compiled later (LazyCode).
  Result buildByKernel(std::shared_ptr<Program> program);
  std::shared_ptr<const ModuleCode> linkProgram(const Program& importer,
                                                std::span<const Provider> providers,
                                                std::string& log);
  CacheKey keyOf(const Program& program);
  std::shared_ptr<const ModuleCode> compileKernelNow(LazyCode& code, size_t index,
                                                     std::string& log);
  // Loads the units of a native binary (or a disk entry) into the code generator: the code, one
  // part per unit when there are several. Null with `error` on failure. Each unit's tables must
  // match the program's SPIR-V and it must pass the generator's checkUnit (the CPU's:
  // backends/cpu/jit/object_check.h); with `trial`, each is first loaded in a compiler process
  // started with those settings (CodeGenerator::trialLoad).
  std::shared_ptr<const ModuleCode> loadUnits(backends::CodeGenerator& generator,
                                              const Program& program,
                                              const std::vector<std::shared_ptr<const ModuleCode>>& units,
                                              std::string& error,
                                              const spirv::clc::Settings* trial = nullptr);

  CompilerConfig settings_;
  const backends::DeviceKind& kind_;
  CodeCache cache_;
  std::mutex generatorMutex_;
  std::unique_ptr<backends::CodeGenerator> generator_;
  bool generatorTried_ = false;
  std::string generatorFailure_;
  std::vector<std::unique_ptr<backends::CodeGenerator>> retiredGenerators_;
  // The live LazyCode of each key: modules of the same program share it (and its compiled kernels).
  std::mutex lazyMutex_;
  std::atomic<uint64_t> translations_{0};
  std::map<CacheKey, std::weak_ptr<LazyCode>> lazy_;
  // The last kRecent programs built by kernel stay alive after their modules are gone, so that a
  // module made again from the same SPIR-V (programs that create and destroy a module per test or
  // per run) reuses the translation and the kernels already compiled instead of translating again
  // (4-8 ms for the bench suite's module, against tens of microseconds). Under lazyMutex_.
  static constexpr size_t kRecent = 32;
  std::deque<std::shared_ptr<LazyCode>> recentLazy_;
  void keepRecent(const std::shared_ptr<LazyCode>& lazy);
  // Native binaries loaded before with shareable code (no program-scope variables): loading the
  // very same bytes again gives the same program and code, without the checks and trial load that
  // the first load passed (about 1-2 ms). Compared byte for byte; at most kRecent, newest last.
  struct LoadedNative {
    std::vector<uint8_t> bytes;
    std::shared_ptr<const Program> program;
    std::shared_ptr<const ModuleCode> code;
  };
  std::mutex nativeMutex_;
  std::deque<LoadedNative> recentNative_;
  // Programs made from SPIR-V without specialization constants, by their bytes and build flags
  // (buildProgram), at most kRecent, newest last: a program is never changed once made.
  struct RecentProgram {
    std::vector<uint8_t> input;
    std::string flags;
    std::shared_ptr<Program> program;
  };
  std::mutex programMutex_;
  std::deque<RecentProgram> recentPrograms_;
};

// `r` with the code of every kernel (what a caller that wants the whole module's code, a test or a
// tool, asks after build()): a program that compiles by kernel compiles them all now, in
// parallel, and `r.code` becomes their combination; when one fails, `r.program` becomes null and
// `r.log` says why.
void compileAll(Compiler::Result& r);

}  // namespace tessera::compiler
