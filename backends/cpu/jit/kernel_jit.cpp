// The JIT pipeline, written once here. Order and why:
//  1. triple and DataLayout of the host (from the JIT): every later size and alignment (argument
//     slots, scratch slots, static locals) must be the host's, not SPIR's.
//  2. inlineIntoKernels: one function per kernel, so barriers in helpers are seen by step 5 and
//     calling conventions are C before anything is called natively. It refuses recursion (a
//     cycle in the call graph) first: inlining one never ends. Then copyWrittenByValArgs
//     (per kernel): after inlining, so writes made by helpers are seen; before step 5, so the
//     private copy is an alloca of the kernel, which formRegions keeps per work-item.
//  3. lowerWorkGroupCollectives, then lowerBuiltins. The collectives add barriers and static
//     locals, so they come before steps 4 and 5; before lowerBuiltins, which refuses what is left
//     at work-group scope. lowerBuiltins: math, relational, atomics, vector loads/stores, printf,
//     async copies become IR; before region formation so that the regions (and the work-item loops
//     around them) contain no calls but the few host helpers of builtin_runtime.h (printf, async
//     copies), and so that the work-item builtin an async copy asks for is replaced by step 5.
//  3b. simplifyKernels (unless optLevel is 0): LLVM's per-function simplification pipeline on
//     each kernel (SROA, InstCombine, loop canonicalization, GVN, ...): OpenCL C arrives
//     unoptimized (spirv/opencl_c.cpp), and the region passes want registers, not allocas, and
//     canonical loops. After lowerBuiltins, so that the math it emits is simplified with the rest
//     and only work-item builtins, barriers and host helpers remain as calls.
//  4. layoutStaticLocals (per kernel): offsets of the static __local variables the kernel reaches,
//     used by every region of that kernel.
//  5. formRegions (per kernel): cuts at barriers, turns work-item builtins into parameters.
//  6. buildWorkGroupFunction (per kernel): loops, parallel metadata, region inlining; the kernel
//     itself is then erased and every other function made internal so O3 drops what is unused.
//  7. verifier, stack probes on every function (stack_sizes.cpp), then the O3 pipeline (or the
//     level CompileOptions asks for) with the host TargetMachine (vectorizes the work-item loops);
//     after it, what the IR knows for measuring stacks (planStacks: callees, allocas; a frame
//     too large to compile fails here). Program-scope variables and the exports that
//     can run on their own keep external linkage; their addresses are looked up after step 8.
//  8. ORC: the module goes into a JITDylib of its own (kernel names of different modules do not
//     collide) that resolves libm and the like from the process. The object's `.stack_sizes`
//     then give each kernel's CompiledKernel::stackBytes.
#include "backends/cpu/jit/kernel_jit.h"

#include "backends/cpu/jit/builtin_runtime.h"

#include <llvm/ExecutionEngine/JITEventListener.h>
#include <llvm/ExecutionEngine/ObjectCache.h>
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h>
#include <llvm/ExecutionEngine/SectionMemoryManager.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include <llvm/Analysis/TargetTransformInfo.h>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu {

// Keeps a copy of the object code ORC compiles for each module (by module identifier), so that a
// module can be written out as a native binary and loaded again without compiling.
class ObjectCapture : public llvm::ObjectCache {
 public:
  void notifyObjectCompiled(const llvm::Module* m, llvm::MemoryBufferRef object) override {
    std::lock_guard<std::mutex> lock(mutex_);
    objects_[m->getModuleIdentifier()].assign(object.getBufferStart(), object.getBufferEnd());
  }
  std::unique_ptr<llvm::MemoryBuffer> getObject(const llvm::Module*) override { return nullptr; }
  std::vector<char> take(const std::string& id) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto node = objects_.extract(id);
    return node ? std::move(node.mapped()) : std::vector<char>{};
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::vector<char>> objects_;
};

namespace {

llvm::OptimizationLevel pipelineLevel(unsigned level) {
  switch (level) {
    case 0:
      return llvm::OptimizationLevel::O0;
    case 1:
      return llvm::OptimizationLevel::O1;
    case 2:
      return llvm::OptimizationLevel::O2;
    default:
      return llvm::OptimizationLevel::O3;
  }
}

// True when `f` can be called outside a kernel: it reaches no SPIR-V builtin left undefined
// (work-item builtins, barriers are only lowered inside kernels).
bool standalone(const llvm::Function& f) {
  for (const llvm::BasicBlock& bb : f)
    for (const llvm::Instruction& i : bb)
      for (const llvm::Value* op : i.operands()) {
        const auto* g = llvm::dyn_cast<llvm::GlobalValue>(op->stripPointerCasts());
        if (g && g->isDeclaration() && jit::spirvBaseName(g->getName()).startswith("__spirv"))
          return false;
      }
  return true;
}

void optimize(llvm::Module& m, llvm::TargetMachine* tm, unsigned level) {
  // A division the source allows to become x * (1/y) (-cl-fast-relaxed-math, `arcp`): x86's
  // reciprocal estimate has 12 bits (rcpps) and LLVM refines it once, which leaves 3 ulp; OpenCL
  // allows 2.5 for x / y under -cl-fast-relaxed-math (the 3.0 API spec's relaxed-math table), so
  // two refinement steps (OpenCL-CTS math_brute_force, divide fp32 rlx: -3.0 ulp before).
  for (llvm::Function& f : m)
    if (!f.isDeclaration()) f.addFnAttr("reciprocal-estimates", "divf:2,vec-divf:2");
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions options;
  options.LoopVectorization = true;
  options.SLPVectorization = true;
  llvm::PassBuilder pb(tm, options);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = level == 0 ? pb.buildO0DefaultPipeline(llvm::OptimizationLevel::O0)
                                           : pb.buildPerModuleDefaultPipeline(pipelineLevel(level));
  mpm.run(m, mam);
}

}  // namespace

// Work-items per widened iteration (jit/widen.cpp): two of the host's preferred vectors of 32-bit
// lanes (16 for AVX2), at most 16, for the regions with a loop of their own, unless the options or
// TESSERA_WIDEN=0 turn the widening off. Two vectors, because the loops that need widening
// accumulate (acc += a * b): each lane's chain waits on its FMA's latency, and two independent
// chains nearly double the throughput (naive SGEMM 3.9 -> 7.5 GFLOP/s in one loaded run); a row
// whose x size is a multiple of 8 only still runs widened, through the half-width level
// (workgroup_function.cpp). TESSERA_WIDEN=n (a power of two) forces n work-items and every region
// the widening accepts, loops or not.
jit::WidenPlan KernelJit::widenPlan(llvm::Function& f, const CompileOptions& options) const {
  int setting = options.widen;
  if (setting < 0) {
    const char* env = std::getenv("TESSERA_WIDEN");
    setting = env && *env ? std::atoi(env) : 1;
    if (setting < 0 || setting > 64 || (setting & (setting - 1)) != 0) setting = 1;
  }
  if (setting == 0) return {};
  if (setting > 1) return {static_cast<unsigned>(setting), true};
  uint64_t bits = tm_->getTargetTransformInfo(f)
                      .getRegisterBitWidth(llvm::TargetTransformInfo::RGK_FixedWidthVector)
                      .getFixedSize();
  unsigned vf = static_cast<unsigned>(std::min<uint64_t>(2 * (bits / 32), 16));
  return {vf >= 4 ? vf : 0, false};
}

std::unique_ptr<KernelJit> KernelJit::create(std::string* error) {
  static const bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) {
    *error = llvm::toString(jtmb.takeError());
    return nullptr;
  }
  jtmb->setCodeGenOptLevel(llvm::CodeGenOpt::Aggressive);
  // A kernel that reaches `unreachable` (OpUnreachable) traps (SIGILL, contained by fault_guard.h)
  // rather than running into whatever code follows it.
  jtmb->getOptions().TrapUnreachable = true;
  // Each function's frame size in a `.stack_sizes` section of the object (not loaded; read by
  // jit/stack_sizes.cpp to size the stacks kernels run on).
  jtmb->getOptions().EmitStackSizeSection = true;
  std::string cpu = jtmb->getCPU();
  std::string features = jtmb->getFeatures().getString();
  auto tm = jtmb->createTargetMachine();
  if (!tm) {
    *error = llvm::toString(tm.takeError());
    return nullptr;
  }
  auto objects = std::make_unique<ObjectCapture>();
  ObjectCapture* capture = objects.get();
  // ORC's usual compiler for a single-threaded LLJIT, with the object capture as its cache.
  auto compiler = [capture](llvm::orc::JITTargetMachineBuilder jtmb)
      -> llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
    auto tm = jtmb.createTargetMachine();
    if (!tm) return tm.takeError();
    return std::make_unique<llvm::orc::TMOwningSimpleCompiler>(std::move(*tm), capture);
  };
  // ORC's usual object layer on ELF; with TESSERA_PERF_JIT=1 it also writes the jitdump file
  // `perf inject --jit` reads, so that profiles name the work-group functions.
  auto objectLayer =
      [](llvm::orc::ExecutionSession& es,
         const llvm::Triple&) -> llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> {
    auto layer = std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
        es, [] { return std::make_unique<llvm::SectionMemoryManager>(); });
    const char* perf = std::getenv("TESSERA_PERF_JIT");
    if (perf && *perf == '1') {
      if (llvm::JITEventListener* l = llvm::JITEventListener::createPerfJITEventListener())
        layer->registerJITEventListener(*l);
    }
    return layer;
  };
  auto jit = llvm::orc::LLJITBuilder()
                 .setJITTargetMachineBuilder(std::move(*jtmb))
                 .setCompileFunctionCreator(compiler)
                 .setObjectLinkingLayerCreator(objectLayer)
                 .create();
  if (!jit) {
    *error = llvm::toString(jit.takeError());
    return nullptr;
  }
  std::unique_ptr<KernelJit> k(new KernelJit());
  k->jit_ = std::move(*jit);
  k->cpu_ = cpu;
  k->features_ = features;
  k->tm_ = std::move(*tm);
  k->objects_ = std::move(objects);
  return k;
}

KernelJit::~KernelJit() = default;

namespace {

// A JITDylib for one module: process symbols (libm) and the kernel runtime (builtin_runtime.h).
llvm::Expected<llvm::orc::JITDylib&> newDylib(llvm::orc::LLJIT& lljit, const std::string& name) {
  auto dylib = lljit.createJITDylib(name);
  if (!dylib) return dylib.takeError();
  // Symbols of the process (libm) ...
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      lljit.getDataLayout().getGlobalPrefix());
  if (!process) return process.takeError();
  dylib->addGenerator(std::move(*process));
  // ... and the runtime functions kernels call by name (builtin_runtime.h), bound to this
  // process's addresses, also for object code loaded from a native binary.
  auto flags = llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable;
  llvm::orc::SymbolMap runtime;
  runtime[lljit.mangleAndIntern(jit::kPrintfSymbol)] =
      llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(&jit::printfRuntime), flags);
  runtime[lljit.mangleAndIntern(jit::kAsyncCopySymbol)] =
      llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(&jit::asyncCopyRuntime), flags);
  runtime[lljit.mangleAndIntern(jit::kCurrentPuSymbol)] =
      llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(&jit::currentPuRuntime), flags);
  if (auto e = dylib->define(llvm::orc::absoluteSymbols(std::move(runtime)))) return std::move(e);
  return *dylib;
}

}  // namespace

std::shared_ptr<const CompiledModule> KernelJit::compile(uint64_t key,
                                                         std::unique_ptr<llvm::LLVMContext> context,
                                                         std::unique_ptr<llvm::Module> module,
                                                         std::string* error,
                                                         const CompileOptions& options) {
  // The module dies before its context on every path (parameters are destroyed in an unspecified
  // order).
  struct ModuleFirst {
    std::unique_ptr<llvm::Module>& module;
    ~ModuleFirst() { module.reset(); }
  } moduleFirst{module};
  std::lock_guard<std::mutex> lock(mutex_);
  // The same SPIR-V widened otherwise is other code.
  if (options.widen >= 0) key = key * 1000003u + static_cast<uint64_t>(options.widen) + 1;
  if (options.prefetch >= 0) key = key * 1000033u + static_cast<uint64_t>(options.prefetch) + 1;
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  auto start = std::chrono::steady_clock::now();
  llvm::Module& m = *module;
  auto result = std::make_shared<CompiledModule>();

  // 1.
  m.setTargetTriple(jit_->getTargetTriple().str());
  m.setDataLayout(jit_->getDataLayout());
  // 2.-4.
  std::vector<llvm::Function*> kernels;
  if (!jit::inlineIntoKernels(m, &kernels, error)) return nullptr;
  jit::makeArithmeticTrapFree(m);  // before anything optimizes on division by zero
  for (llvm::Function* kernel : kernels) jit::copyWrittenByValArgs(*kernel);
  jit::lowerWorkGroupCollectives(m);
  if (!jit::lowerBuiltins(m, error)) return nullptr;
  if (options.optLevel > 0) jit::simplifyKernels(m, tm_.get());
  // 5.-6.
  std::vector<std::string> symbols;
  const jit::WidenPlan widen =
      kernels.empty() ? jit::WidenPlan{} : widenPlan(*kernels.front(), options);
  for (llvm::Function* kernel : kernels) {
    CompiledKernel info;
    info.name = kernel->getName().str();
    // 4. per kernel: only the static __local variables this kernel reaches.
    jit::StaticLocalLayout locals = jit::layoutStaticLocals(m, *kernel);
    if (locals.overflow || locals.bytes > UINT32_MAX) {
      *error = "kernel " + info.name + ": its static __local variables take more than 4 GiB";
      return nullptr;
    }
    info.staticLocalBytes = static_cast<uint32_t>(locals.bytes);
    if (options.prefetch > 0 || (options.prefetch < 0 && jit::prefetchEnabled()))
      info.prefetches = jit::prefetchAcrossBarriers(*kernel);
    jit::Regions regions;
    if (!jit::formRegions(*kernel, locals, &regions, error)) return nullptr;
    llvm::Function* wg = jit::buildWorkGroupFunction(*kernel, regions, &info, widen);
    symbols.push_back(wg->getName().str());
    result->kernelSymbols.push_back(symbols.back());
    result->kernels.push_back(std::move(info));
  }
  for (llvm::Function* kernel : kernels) kernel->eraseFromParent();
  std::vector<std::string> functions;
  for (llvm::Function& f : m) {
    if (!f.isDeclaration() && !f.getName().startswith("__tessera_wg.")) {
      bool exported = std::find(options.exports.begin(), options.exports.end(),
                                f.getName().str()) != options.exports.end();
      if (exported && standalone(f)) {
        functions.push_back(f.getName().str());
      } else {
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
      }
    }
    if (f.isDeclaration() && !f.use_empty() &&
        jit::spirvBaseName(f.getName()).startswith("__spirv_")) {
      *error = "unsupported builtin: " + jit::spirvBaseName(f.getName()).str();
      return nullptr;
    }
  }
  // 7. (TESSERA_JIT_DUMP=1 prints what the widening did and the module here, before O3.)
  if (const char* dump = std::getenv("TESSERA_JIT_DUMP"); dump && *dump == '1') {
    for (const CompiledKernel& k : result->kernels) {
      const WidenStats& w = k.widen;
      llvm::errs() << "tessera: kernel " << k.name << ": width " << w.width
                   << (w.loopWidth ? " (" + std::to_string(w.loopWidth) + " in loop regions)" : "")
                   << ", " << w.widenedRegions << " of " << k.barrierCount + 1
                   << " regions widened (contiguous " << w.contiguous << ", gathers " << w.gathers
                   << ", scatters " << w.scatters << ", vector gathers " << w.vectorGathers
                   << ", vector scatters " << w.vectorScatters << ", per lane " << w.perLane
                   << ", checked branches " << w.checkedBranches << ", predicated branches "
                   << w.predicatedBranches << ", cut paths " << w.cutPaths
                   << "), prefetches " << k.prefetches
                   << (w.refused.empty() ? "" : "; refused " + w.refused) << "\n";
    }
    m.print(llvm::errs(), nullptr);
  }
  std::string verify;
  llvm::raw_string_ostream vos(verify);
  if (llvm::verifyModule(m, &vos)) {
    *error = "internal error: the work-group functions do not verify: " + vos.str();
    return nullptr;
  }
  std::vector<std::pair<std::string, uint64_t>> globals;
  // Program-scope variables a kernel may write belong to one module: such code is not shared
  // through the cache (two modules of the same SPIR-V get two copies of `counter`).
  bool shareable = true;
  for (llvm::GlobalVariable& g : m.globals()) {
    if (!g.isDeclaration() && !g.isConstant() && g.getAddressSpace() != 3) shareable = false;
    if (!g.isDeclaration() && g.hasExternalLinkage() && !g.getName().startswith("__spirv")) {
      globals.emplace_back(g.getName().str(), m.getDataLayout().getTypeAllocSize(g.getValueType()));
    }
  }
  jit::addStackProbes(m);
  optimize(m, tm_.get(), options.optLevel);
  jit::StackPlan stacks;
  if (!jit::planStacks(m, &stacks, error)) return nullptr;
  // 8.
  std::string id = "module" + std::to_string(dylibs_++);
  m.setModuleIdentifier(id);
  auto dylib = newDylib(*jit_, id);
  if (!dylib) {
    *error = llvm::toString(dylib.takeError());
    return nullptr;
  }
  if (auto e = jit_->addIRModule(
          *dylib, llvm::orc::ThreadSafeModule(std::move(module), std::move(context)))) {
    *error = llvm::toString(std::move(e));
    return nullptr;
  }
  for (size_t i = 0; i < symbols.size(); ++i) {
    auto address = jit_->lookup(*dylib, symbols[i]);
    if (!address) {
      *error = llvm::toString(address.takeError());
      return nullptr;
    }
    result->kernels[i].fn = address->toPtr<WorkGroupFn>();
  }
  for (const auto& [name, size] : globals) {
    auto address = jit_->lookup(*dylib, name);
    if (!address) {
      *error = llvm::toString(address.takeError());
      return nullptr;
    }
    result->globals[name] = {address->toPtr<void*>(), size};
  }
  for (const std::string& name : functions) {
    auto address = jit_->lookup(*dylib, name);
    if (!address) {
      *error = llvm::toString(address.takeError());
      return nullptr;
    }
    result->functions[name] = {address->toPtr<void*>(), 0};
  }
  result->object = objects_->take(id);
  const std::map<std::string, uint64_t> frames =
      jit::readStackSizes(llvm::StringRef(result->object.data(), result->object.size()));
  for (size_t i = 0; i < symbols.size(); ++i)
    result->kernels[i].stackBytes = static_cast<uint32_t>(
        std::min<uint64_t>(jit::stackNeed(symbols[i], stacks, frames), UINT32_MAX));
  ++compiles_;
  result->compileMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (shareable) cache_[key] = result;
  return result;
}

std::shared_ptr<const CompiledModule> KernelJit::load(const CompiledModule& module,
                                                      std::string* error) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto result = std::make_shared<CompiledModule>(module);
  auto dylib = newDylib(*jit_, "module" + std::to_string(dylibs_++));
  if (!dylib) {
    *error = llvm::toString(dylib.takeError());
    return nullptr;
  }
  llvm::StringRef bytes(module.object.data(), module.object.size());
  if (auto e = jit_->addObjectFile(*dylib, llvm::MemoryBuffer::getMemBufferCopy(bytes))) {
    *error = llvm::toString(std::move(e));
    return nullptr;
  }
  auto address = [&](const std::string& name, void** out) {
    auto a = jit_->lookup(*dylib, name);
    if (!a) {
      *error = llvm::toString(a.takeError());
      return false;
    }
    *out = a->toPtr<void*>();
    return true;
  };
  if (result->kernelSymbols.size() != result->kernels.size()) {
    *error = "kernel symbols missing";
    return nullptr;
  }
  for (size_t i = 0; i < result->kernels.size(); ++i) {
    void* fn = nullptr;
    if (!address(result->kernelSymbols[i], &fn)) return nullptr;
    result->kernels[i].fn = reinterpret_cast<WorkGroupFn>(fn);
  }
  for (auto& [name, symbol] : result->globals)
    if (!address(name, &symbol.address)) return nullptr;
  for (auto& [name, symbol] : result->functions)
    if (!address(name, &symbol.address)) return nullptr;
  return result;
}

}  // namespace tessera::backends::cpu
