#include "compiler/compiler.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>

#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <new>

#include "compiler/kernel_module.h"
#include "compiler/native_binary.h"
#include "spirv/clc/client.h"
#include "spirv/clc/translate.h"
#include "spirv/ir_reflect.h"

namespace tessera::compiler {
namespace {

// The build options' level as the code generator's pipeline level (the default, 2, is the full O3
// pipeline), the program's exports, and the code switches.
backends::CompileOptions compileOptions(const Program& program, const CompilerConfig& settings) {
  backends::CompileOptions c;
  c.optLevel = program.options.optLevel >= 2 ? 3 : program.options.optLevel;
  c.exports = program.exports;
  c.widen = settings.code.widen;
  c.prefetch = settings.code.prefetch ? 1 : 0;
  c.rowJam = settings.code.rowJam ? 1 : 0;
  c.groupCopy = settings.code.groupCopy ? 1 : 0;
  c.dumpModule = settings.dumpModule;
  c.dumpTimes = settings.dumpTimes;
  return c;
}

// Reflection of a module's bytes in the format they are in.
spirv::ReflectResult reflectInput(std::span<const uint8_t> input) {
  return formatOf(input) == ModuleFormat::TesseraIR ? spirv::reflectIR(input)
                                                    : spirv::reflect(input);
}

// `p`'s module as LLVM IR in `context`: Tessera IR as it is, SPIR-V translated (in the compiler
// process `process`, spirv/clc/translate.h).
spirv::TranslateResult moduleOf(llvm::LLVMContext& context, const Program& p,
                                const spirv::clc::Settings& process) {
  if (p.format == ModuleFormat::TesseraIR) return spirv::readTesseraIR(context, p.input);
  spirv::TranslateOptions options;
  options.specConstants = p.specs;
  options.process = &process;
  return spirv::translate(context, p.input, options);
}

// A program of `input` with what reflection says it imports and exports (its key is set later).
// `generator` (null when there is none) says which imported functions its code provides itself.
std::shared_ptr<Program> makeProgram(std::vector<uint8_t> input, spirv::ModuleInfo info,
                                     BuildOptions options,
                                     std::vector<spirv::SpecAssignment> specs,
                                     const backends::CodeGenerator* generator) {
  auto p = std::make_shared<Program>();
  p->format = formatOf(input);
  p->input = std::move(input);
  p->info = std::move(info);
  p->options = options;
  p->specs = std::move(specs);
  for (const spirv::LinkageEntry& l : p->info.linkage) {
    if (!l.isFunction) {
      // Builtin variables come as imports too, the translator's way: the code provides them.
      if (l.builtIn) continue;
      if (l.kind == spirv::LinkageKind::Export) p->variableExports.push_back(l.name);
      if (l.kind == spirv::LinkageKind::Import) p->variableImports.push_back(l.name);
      continue;
    }
    if (l.kind == spirv::LinkageKind::Export) p->exports.push_back(l.name);
    // Tessera's own builtins (tessera_current_pu) are the code generator's to provide.
    if (l.kind == spirv::LinkageKind::Import &&
        !(generator && generator->providesFunction(l.name)))
      p->imports.push_back(l.name);
  }
  return p;
}

// Every use of `g` becomes `address` as a constant of g's type, and g goes: the module then uses
// storage that already exists (another module's program-scope variable) instead of its own.
void bindToAddress(llvm::GlobalVariable& g, void* address) {
  llvm::Constant* at =
      llvm::ConstantExpr::getIntToPtr(llvm::ConstantInt::get(llvm::Type::getInt64Ty(g.getContext()),
                                                             reinterpret_cast<uintptr_t>(address)),
                                      g.getType());
  g.replaceAllUsesWith(at);
  g.eraseFromParent();
}

// The variables of `module` that `code` (the same program's compiled code) holds, bound to their
// addresses there; each is also recorded in `storage` by name.
void bindToCode(llvm::Module& module, const ModuleCode& code,
                std::map<std::string, void*>& storage) {
  std::vector<llvm::GlobalVariable*> bound;
  for (llvm::GlobalVariable& g : module.globals()) {
    if (g.isDeclaration()) continue;
    auto it = code.globals.find(g.getName().str());
    if (it == code.globals.end()) continue;
    storage[it->first] = it->second.address;
    bound.push_back(&g);
  }
  for (llvm::GlobalVariable* g : bound) bindToAddress(*g, storage.at(g->getName().str()));
}

// Translation of `importer` and `providers` (spirv/clc/translate.h), the providers' IR linked into the
// importer's (only the definitions it needs), compiled. A provider with code lends its variables
// in place: the functions linked from it and the importer's imported variables use the
// provider's storage. Null with `error` on failure; `warnings` gets what translation rewrote in
// the importer.
std::shared_ptr<const ModuleCode> translateAndCompile(backends::CodeGenerator& generator,
                                                      const CompilerConfig& settings,
                                                      const Program& importer,
                                                      std::span<const Compiler::Provider> providers,
                                                      std::string& error, std::string& warnings) {
  auto context = std::make_unique<llvm::LLVMContext>();
  auto translate = [&](const Program& p) { return moduleOf(*context, p, settings.process); };
  spirv::TranslateResult main = translate(importer);
  if (!main.ok()) {
    error = main.log;
    return nullptr;
  }
  warnings = main.warnings;
  std::map<std::string, void*> storage;  // the providers' variables, by name
  for (const Compiler::Provider& provider : providers) {
    spirv::TranslateResult p = translate(*provider.program);
    if (!p.ok()) {
      error = p.log;
      return nullptr;
    }
    if (provider.code) bindToCode(*p.module, *provider.code, storage);
    if (llvm::Linker::linkModules(*main.module, std::move(p.module),
                                  llvm::Linker::Flags::LinkOnlyNeeded)) {
      error = "cannot link the LLVM IR of the module providing imports\n";
      return nullptr;
    }
  }
  // The imported variables (declarations, in the importer or in what came from its providers),
  // bound to the storage of the provider that defines them.
  std::vector<llvm::GlobalVariable*> imported;
  for (llvm::GlobalVariable& g : main.module->globals())
    if (g.isDeclaration() && storage.count(g.getName().str())) imported.push_back(&g);
  for (llvm::GlobalVariable* g : imported) bindToAddress(*g, storage.at(g->getName().str()));
  std::vector<std::string> needed = importer.variableImports;
  for (const Compiler::Provider& provider : providers)
    needed.insert(needed.end(), provider.program->variableImports.begin(),
                  provider.program->variableImports.end());
  for (const std::string& name : needed) {
    const llvm::GlobalVariable* g = main.module->getGlobalVariable(name, true);
    if (g && g->isDeclaration() && !g->use_empty()) {
      error += "imported variable " + name + " has no storage in the linked modules\n";
      return nullptr;
    }
  }
  return generator.compile(std::move(context), std::move(main.module),
                           compileOptions(importer, settings), error);
}

// Whether a native binary (or a disk entry) holds code of `program`'s build for `generator`'s
// target: the same CPU and features, optimization level and specialization, with code.
bool sameBuild(const NativeImage& image, const Program& program,
               const backends::CodeGenerator& generator) {
  const backends::CodeTarget& target = generator.target();
  if (image.cpu != target.cpu || image.features != target.features || !image.hasCode ||
      image.optLevel != program.options.optLevel || image.specs.size() != program.specs.size())
    return false;
  for (size_t i = 0; i < image.specs.size(); ++i)
    if (image.specs[i].specId != program.specs[i].specId ||
        image.specs[i].value != program.specs[i].value)
      return false;
  return true;
}

}  // namespace

bool Program::exportsFunction(const std::string& name) const {
  return std::find(exports.begin(), exports.end(), name) != exports.end();
}

bool Program::exportsVariable(const std::string& name) const {
  return std::find(variableExports.begin(), variableExports.end(), name) != variableExports.end();
}

Compiler::Compiler(CompilerConfig settings, const backends::DeviceKind& kind)
    : settings_(std::move(settings)), kind_(kind), cache_(settings_.cache) {}

Compiler::~Compiler() = default;

// A mutex rather than std::call_once: an exception (std::bad_alloc when memory runs out) thrown
// through glibc's pthread_once makes glibc load libgcc_s for the unwinding, which fails when memory
// is short and aborts the process (docs/reliability.md, "Exhaustion"). Under the mutex the
// exception passes only C++ frames, reaches zeModuleCreate as OUT_OF_HOST_MEMORY, and the next
// build tries again.
backends::CodeGenerator* Compiler::generator(std::string& error) {
  std::lock_guard lock(generatorMutex_);
  if (!generatorTried_) {
    backends::GeneratorOptions options;
    options.perfJit = settings_.perfJit;
    generatorFailure_.clear();
    generator_ = kind_.createCodeGenerator(options, generatorFailure_);
    generatorTried_ = true;
    if (generator_ && settings_.dumpPasses)
      std::fprintf(stderr, "tessera: JIT pipeline:\n%s", generator_->describePipeline().c_str());
  }
  if (!generator_) error = generatorFailure_;
  return generator_.get();
}

ModuleFormat formatOf(std::span<const uint8_t> bytes) {
  return spirv::isTesseraIR(bytes) ? ModuleFormat::TesseraIR : ModuleFormat::Spirv;
}

bool Compiler::codeTarget(backends::CodeTarget& out, std::string& error) {
  backends::CodeGenerator* g = generator(error);
  if (g) out = g->target();
  return g != nullptr;
}

CacheKey Compiler::keyOf(const Program& program) {
  CodeTarget target;
  std::string error;
  if (backends::CodeGenerator* g = generator(error)) target = g->target();
  return cacheKey(program.input, program.options, program.specs, settings_.code, target);
}

namespace {

// Debian's LLVM is built without exceptions: an allocation that fails inside it may end the
// process (its own bad-alloc handler aborts; a std::bad_alloc from operator new may meet a frame
// it cannot pass). So the compiler enters LLVM only with this much address space to spare, checked
// by mapping it (without touching it) and unmapping it at once; with less, the build is refused as
// out of memory before LLVM runs (docs/reliability.md).
constexpr size_t kCompileHeadroom = 32u << 20;

void requireHeadroom() {
  void* p = mmap(nullptr, kCompileHeadroom, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  munmap(p, kCompileHeadroom);
}

}  // namespace

template <typename Work>
auto Compiler::retiringGeneratorOnBadAlloc(Work&& work) -> decltype(work()) {
  try {
    requireHeadroom();
    return work();
  } catch (const std::bad_alloc&) {
    std::lock_guard lock(generatorMutex_);
    if (generator_) retiredGenerators_.push_back(std::move(generator_));
    generatorTried_ = false;
    throw;
  }
}

Compiler::Result Compiler::build(std::span<const uint8_t> binary, const char* buildFlags,
                                 std::span<const SpecConstant> constants) {
  return retiringGeneratorOnBadAlloc([&] { return buildProgram(binary, buildFlags, constants); });
}

Compiler::Result Compiler::load(std::span<const uint8_t> bytes) {
  return retiringGeneratorOnBadAlloc([&] { return loadNative(bytes); });
}

std::shared_ptr<const ModuleCode> Compiler::link(const Program& importer,
                                                 std::span<const Provider> providers,
                                                 std::string& log) {
  return retiringGeneratorOnBadAlloc([&] { return linkProgram(importer, providers, log); });
}

Compiler::Result Compiler::buildProgram(std::span<const uint8_t> binary, const char* buildFlags,
                                        std::span<const SpecConstant> constants) {
  Result r;
  // The same SPIR-V with the same flags and no constants gives the same program: reflecting it again
  // was most of what a module made again cost once its code was cached (about 100 us).
  const std::string flags = buildFlags ? buildFlags : "";
  std::shared_ptr<Program> program;
  if (constants.empty()) {
    std::lock_guard lock(programMutex_);
    for (const RecentProgram& p : recentPrograms_)
      if (p.flags == flags && p.input.size() == binary.size() &&
          std::equal(p.input.begin(), p.input.end(), binary.begin())) {
        program = p.program;
        break;
      }
  }
  if (!program) {
    program = makeProgramFrom(binary, buildFlags, constants, r.log);
    if (!program) return r;
    if (constants.empty()) {
      std::lock_guard lock(programMutex_);
      recentPrograms_.push_back({std::vector<uint8_t>(binary.begin(), binary.end()), flags, program});
      if (recentPrograms_.size() > kRecent) recentPrograms_.pop_front();
    }
  }
  return buildFrom(std::move(program));
}

std::shared_ptr<Program> Compiler::makeProgramFrom(std::span<const uint8_t> binary,
                                                   const char* buildFlags,
                                                   std::span<const SpecConstant> constants,
                                                   std::string& log) {
  BuildOptions options;
  if (!parseBuildOptions(buildFlags, options, log)) return nullptr;
  const bool ir = formatOf(binary) == ModuleFormat::TesseraIR;
  spirv::ReflectResult reflected = reflectInput(binary);
  if (!reflected.ok) {
    log = (ir ? "invalid Tessera IR: " : "invalid SPIR-V: ") + reflected.error;
    return nullptr;
  }
  // "Specialization constants ... ze_module_constants_t": ids and pointers to values whose size
  // the module declares.
  std::vector<spirv::SpecValue> values;
  for (const SpecConstant& c : constants) {
    const spirv::SpecConstant* sc = reflected.module.findSpecConstant(c.id);
    if (!sc) {
      log = "no specialization constant with id " + std::to_string(c.id);
      return nullptr;
    }
    if (!c.value) {
      log = "null value for specialization constant " + std::to_string(sc->specId);
      return nullptr;
    }
    const auto* bytes = static_cast<const uint8_t*>(c.value);
    values.push_back({sc->specId, std::vector<uint8_t>(bytes, bytes + sc->size)});
  }
  spirv::SpecializationResult spec = spirv::resolveSpecialization(reflected.module, values);
  if (!spec.ok) {
    log = spec.error;
    return nullptr;
  }
  spirv::applySpecializationToSizes(reflected.module, spec.assignments);
  std::string noGenerator;  // (the build says so: buildFrom)
  std::shared_ptr<Program> program =
      makeProgram(std::vector<uint8_t>(binary.begin(), binary.end()), std::move(reflected.module),
                  options, std::move(spec.assignments), generator(noGenerator));
  program->key = keyOf(*program);
  return program;
}

Compiler::Result Compiler::buildFrom(std::shared_ptr<Program> program) {
  Result r;
  // A module that imports functions is compiled once zeModuleDynamicLink has resolved them.
  if (program->needsLinking()) {
    r.program = std::move(program);
    return r;
  }
  std::string error;
  backends::CodeGenerator* generator = this->generator(error);
  if (!generator) {
    r.log = "no JIT for this CPU: " + error;
    return r;
  }
  if (program->compilesByKernel()) return buildByKernel(std::move(program));
  // An on-disk entry is used only when it is a valid native binary of exactly this program for
  // this CPU; otherwise the program is compiled and the entry rewritten.
  auto fromDisk = [&](std::span<const uint8_t> bytes) -> std::shared_ptr<const ModuleCode> {
    NativeImage image;
    std::string why;
    if (!readNativeBinary(bytes, *generator, image, why)) return nullptr;
    if (!sameBuild(image, *program, *generator) || image.spirv != program->input) return nullptr;
    return loadUnits(*generator, *program, image.units, why);
  };
  if (auto code = cache_.find(program->key, program->shareable(), fromDisk)) {
    r.program = std::move(program);
    r.code = std::move(code);
    return r;
  }
  std::string warnings;
  std::shared_ptr<const ModuleCode> code =
      translateAndCompile(*generator, settings_, *program, {}, error, warnings);
  if (!code) {
    r.log = error;
    return r;
  }
  r.log = std::move(warnings);
  std::vector<uint8_t> entry;
  if (code->saveable() && cache_.writesToDisk()) entry = nativeBinary(*program, code.get());
  cache_.store(program->key, code, program->shareable(), entry);
  r.program = std::move(program);
  r.code = std::move(code);
  return r;
}

Compiler::Result Compiler::loadNative(std::span<const uint8_t> bytes) {
  Result r;
  {
    std::lock_guard lock(nativeMutex_);
    for (const LoadedNative& n : recentNative_)
      if (n.bytes.size() == bytes.size() &&
          std::equal(n.bytes.begin(), n.bytes.end(), bytes.begin())) {
        r.program = n.program;
        r.code = n.code;
        return r;
      }
  }
  NativeImage image;
  std::string error;
  backends::CodeGenerator* generator = this->generator(error);
  if (!generator) {
    r.log = "no JIT for this CPU: " + error;
    return r;
  }
  if (!readNativeBinary(bytes, *generator, image, error)) {
    r.log = error;
    return r;
  }
  const backends::CodeTarget& target = generator->target();
  if (image.cpu != target.cpu || image.features != target.features) {
    r.log = "the native binary was compiled for CPU '" + image.cpu + "' with features '" +
            image.features + "'; this CPU is '" + target.cpu + "' with features '" +
            target.features + "': create the module from SPIR-V again";
    return r;
  }
  // A native binary's Tessera IR is the application's bytes: read once in the compiler process
  // before this process's bitcode reader sees them.
  if (formatOf(image.spirv) == ModuleFormat::TesseraIR) {
    if (std::string why = spirv::checkTesseraIR(image.spirv, &settings_.process); !why.empty()) {
      r.log = "the native binary's module: " + why;
      return r;
    }
  }
  spirv::ReflectResult reflected = reflectInput(image.spirv);
  if (!reflected.ok) {
    r.log = "the native binary's module: " + reflected.error;
    return r;
  }
  spirv::applySpecializationToSizes(reflected.module, image.specs);
  BuildOptions options;
  options.optLevel = image.optLevel;
  std::shared_ptr<Program> program =
      makeProgram(std::move(image.spirv), std::move(reflected.module), options,
                  std::move(image.specs), generator);
  program->key = keyOf(*program);
  if (image.hasCode) {
    // The application's bytes: each unit is loaded on trial in the compiler process before this
    // process's code generator loads it (the CPU's: backends/cpu/jit/object_check.h); the checks
    // of loadUnits run first.
    r.code = loadUnits(*generator, *program, image.units, error, &settings_.process);
    if (!r.code) {
      r.log = "the native binary's object code does not load: " + error;
      return r;
    }
    if (program->shareable()) {
      std::lock_guard lock(nativeMutex_);
      recentNative_.push_back({std::vector<uint8_t>(bytes.begin(), bytes.end()), program, r.code});
      if (recentNative_.size() > kRecent) recentNative_.pop_front();
    }
  } else if (program->compilesByKernel()) {
    // A binary written while one of its kernels had no code (its code generation failed): built
    // from its SPIR-V again, each kernel when first needed.
    return buildByKernel(std::move(program));
  } else if (!program->needsLinking()) {
    r.log = "the native binary has no code";
    return r;
  }
  r.program = std::move(program);
  return r;
}

std::shared_ptr<const ModuleCode> Compiler::linkProgram(const Program& importer,
                                                        std::span<const Provider> providers,
                                                        std::string& log) {
  std::string error;
  backends::CodeGenerator* generator = this->generator(error);
  if (!generator) {
    log = "no JIT for this CPU: " + error;
    return nullptr;
  }
  // Code that uses a provider's variables in place is that provider's only: never shared (a
  // provider with variables is not shareable itself).
  std::vector<CacheKey> keys;
  bool shareable = importer.shareable();
  for (const Provider& p : providers) {
    keys.push_back(p.program->key);
    shareable = shareable && p.program->shareable();
  }
  const CacheKey key = linkedKey(importer.key, keys);
  // Linked code lives in memory only: the on-disk tier holds modules built from one SPIR-V.
  if (auto code = cache_.find(key, shareable, nullptr)) return code;
  std::string warnings;
  std::shared_ptr<const ModuleCode> code =
      translateAndCompile(*generator, settings_, importer, providers, error, warnings);
  if (!code) {
    log += error;
    return nullptr;
  }
  cache_.store(key, code, shareable, {});
  return code;
}

std::vector<uint8_t> Compiler::nativeBinary(const Program& program, const ModuleCode* code) {
  NativeImage image;
  std::string error;
  backends::CodeGenerator* generator = this->generator(error);
  // Code exists only where a generator made it: without one, the binary has no code.
  if (generator) {
    image.cpu = generator->target().cpu;
    image.features = generator->target().features;
  }
  image.spirv = program.input;
  image.optLevel = program.options.optLevel;
  image.specs = program.specs;
  if (generator && code && !code->parts.empty()) {
    image.hasCode = true;
    image.units = code->parts;
  } else if (generator && code && code->saveable()) {
    image.hasCode = true;
    // Not owned (the image lives only for this call): the aliasing constructor with no owner.
    image.units.emplace_back(std::shared_ptr<const void>(), code);
  }
  return writeNativeBinary(image, generator);
}

std::shared_ptr<const ModuleCode> Compiler::loadUnits(
    backends::CodeGenerator& generator, const Program& program,
    const std::vector<std::shared_ptr<const ModuleCode>>& units, std::string& error,
    const spirv::clc::Settings* trial) {
  // Nothing is loaded before every unit has passed every check.
  for (const auto& unit : units) {
    if (!matchesReflection(*unit, program.info.kernels, error) ||
        !generator.checkUnit(*unit, error))
      return nullptr;
  }
  for (size_t i = 0; trial && i < units.size(); ++i) {
    spirv::clc::Request request;
    request.kind = spirv::clc::Kind::LoadObject;
    std::vector<uint8_t> object;
    generator.trialLoad(*units[i], object, request.symbols);
    request.object.assign(object.begin(), object.end());
    spirv::clc::Reply reply = spirv::clc::run(request, *trial);
    if (!reply.ok) {
      error = "it does not load in the compiler process: " +
              (reply.log.empty() ? std::string("no reason given") : reply.log);
      return nullptr;
    }
  }
  std::vector<std::shared_ptr<const ModuleCode>> loaded;
  for (const auto& unit : units) {
    auto code = generator.load(*unit, error);
    if (!code) return nullptr;
    loaded.push_back(std::move(code));
  }
  if (loaded.size() == 1 && loaded[0]->kernelCount() == program.info.kernels.size()) {
    for (size_t i = 0; i < program.info.kernels.size(); ++i)
      if (!loaded[0]->find(program.info.kernels[i].name)) {
        error = "the code does not match the SPIR-V (kernel " + program.info.kernels[i].name + ")";
        return nullptr;
      }
    return loaded[0];
  }
  auto code = combineUnits(program, std::move(loaded));
  if (!code) error = "the code does not match the SPIR-V (a kernel has no code)";
  return code;
}

std::shared_ptr<const ModuleCode> Compiler::combineUnits(
    const Program& program, std::vector<std::shared_ptr<const ModuleCode>> units) {
  std::string error;
  backends::CodeGenerator* generator = this->generator(error);
  if (!generator) return nullptr;
  std::vector<std::string> order;
  for (const spirv::KernelInfo& k : program.info.kernels) order.push_back(k.name);
  return generator->combine(order, std::move(units));
}

void Compiler::keepRecent(const std::shared_ptr<LazyCode>& lazy) {
  auto it = std::find(recentLazy_.begin(), recentLazy_.end(), lazy);
  if (it != recentLazy_.end()) recentLazy_.erase(it);
  recentLazy_.push_back(lazy);
  if (recentLazy_.size() > kRecent) recentLazy_.pop_front();
}

Compiler::Result Compiler::buildByKernel(std::shared_ptr<Program> program) {
  Result r;
  {
    std::lock_guard lock(lazyMutex_);
    if (auto lazy = lazy_[program->key].lock()) {
      keepRecent(lazy);
      r.program = std::move(program);
      r.lazy = std::move(lazy);
      return r;
    }
  }
  // Translated now, for the whole program: what it finds wrong is the build's failure. Unless an
  // earlier build of the same key translated it (the note keeps its warnings for the log): the
  // translation is then deterministic and waits until a kernel is not in the cache.
  std::optional<std::string> bitcode;
  const CacheKey noteKey = translationKey(program->key);
  if (std::optional<std::string> warnings = cache_.findNote(noteKey)) {
    r.log = std::move(*warnings);
  } else {
    std::string bytes, warningsNow;
    if (!translateProgram(*program, bytes, r.log, warningsNow)) return r;
    cache_.storeNote(noteKey, warningsNow);
    r.log = std::move(warningsNow);
    bitcode = std::move(bytes);
  }
  auto lazy = std::make_shared<LazyCode>(*this, program, std::move(bitcode));
  {
    std::lock_guard lock(lazyMutex_);
    for (auto it = lazy_.begin(); it != lazy_.end();)
      it = it->second.expired() ? lazy_.erase(it) : std::next(it);
    auto& slot = lazy_[program->key];
    if (auto other = slot.lock()) {
      lazy = std::move(other);  // another thread built the same program meanwhile
    } else {
      slot = lazy;
    }
    keepRecent(lazy);
  }
  r.program = std::move(program);
  r.lazy = std::move(lazy);
  return r;
}

bool Compiler::translateProgram(const Program& program, std::string& bitcode, std::string& log,
                                std::string& warnings) {
  llvm::LLVMContext context;
  if (program.format == ModuleFormat::Spirv) translations_.fetch_add(1);
  spirv::TranslateResult t = moduleOf(context, program, settings_.process);
  if (!t.ok()) {
    log += t.log;
    return false;
  }
  warnings = std::move(t.warnings);
  bitcode = programBitcode(*t.module);
  return true;
}

std::shared_ptr<const ModuleCode> Compiler::compileKernel(LazyCode& code, size_t index,
                                                          std::string& log) {
  return retiringGeneratorOnBadAlloc([&] { return compileKernelNow(code, index, log); });
}

std::shared_ptr<const ModuleCode> Compiler::compileKernelNow(LazyCode& lazy, size_t index,
                                                             std::string& log) {
  const Program& program = lazy.program();
  // Unit `index`: a kernel, or after them the exported functions.
  const bool exports = index == program.info.kernels.size();
  const std::string name = exports ? "\x02exports" : program.info.kernels.at(index).name;
  std::string error;
  backends::CodeGenerator* generator = this->generator(error);
  if (!generator) {
    log += "no JIT for this CPU: " + error + "\n";
    return nullptr;
  }
  const CacheKey key = kernelKey(program.key, name);
  // A disk entry is this kernel's unit alone, without the SPIR-V (the key covers it).
  auto fromDisk = [&](std::span<const uint8_t> bytes) -> std::shared_ptr<const ModuleCode> {
    NativeImage image;
    std::string why;
    if (!readNativeBinary(bytes, *generator, image, why) ||
        !sameBuild(image, program, *generator) || image.units.size() != 1 ||
        (!exports && !image.units[0]->find(name)))
      return nullptr;
    // The checks every loaded unit gets (loadUnits; the CPU's: backends/cpu/jit/object_check.h).
    if (!matchesReflection(*image.units[0], program.info.kernels, why) ||
        !generator->checkUnit(*image.units[0], why))
      return nullptr;
    return generator->load(*image.units[0], why);
  };
  if (auto code = cache_.find(key, true, fromDisk)) return code;
  const std::string* bitcode = lazy.bitcode(log);
  if (!bitcode) return nullptr;
  auto context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module =
      kernelModule(*context, *bitcode,
                   exports ? program.functionExports() : std::vector<std::string>{name}, error);
  // A kernel's unit exports nothing (what it calls is internal to it); the exported functions'
  // unit exports them.
  backends::CompileOptions options = compileOptions(program, settings_);
  if (!exports) options.exports.clear();
  std::shared_ptr<const ModuleCode> code;
  if (module) code = generator->compile(std::move(context), std::move(module), options, error);
  if (!code) {
    log += (exports ? std::string("exported functions") : "kernel " + name) + ": " + error +
           (error.empty() || error.back() != '\n' ? "\n" : "");
    return nullptr;
  }
  std::vector<uint8_t> entry;
  if (code->saveable() && cache_.writesToDisk()) {
    NativeImage image;
    image.cpu = generator->target().cpu;
    image.features = generator->target().features;
    image.optLevel = program.options.optLevel;
    image.specs = program.specs;
    image.hasCode = true;
    image.units.push_back(code);
    entry = writeNativeBinary(image, generator);
  }
  cache_.store(key, code, true, entry);
  return code;
}

uint64_t Compiler::compileCount() {
  std::lock_guard lock(generatorMutex_);
  return generator_ ? generator_->compileCount() : 0;
}

void compileAll(Compiler::Result& r) {
  if (!r.ok() || !r.lazy || r.code) return;
  std::string log;
  if (r.lazy->compile({}, log)) r.code = r.lazy->whole();
  if (!r.code) {
    r.log += log;
    r.program = nullptr;
  }
}

}  // namespace tessera::compiler
