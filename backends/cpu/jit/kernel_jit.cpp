// KernelJit: ORC LLJIT for the host CPU, running the pipeline of jit_pipeline.h on each module and
// loading object code of native binaries.
#include "backends/cpu/jit/kernel_jit.h"

#include "backends/cpu/runtime/builtin_runtime.h"
#include "backends/cpu/jit/host_symbols.h"
#include "backends/cpu/runtime/image_runtime.h"
#include "backends/cpu/jit/object_check.h"

#include <llvm/Config/llvm-config.h>
#include <llvm/ExecutionEngine/JITEventListener.h>
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h>
#include <llvm/ExecutionEngine/SectionMemoryManager.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>

#include <algorithm>
#include <chrono>

#include "backends/cpu/jit/jit_pipeline.h"

namespace tessera::backends::cpu {

std::unique_ptr<KernelJit> KernelJit::create(std::string* error, const JitOptions& options) {
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
  if (auto tm = jtmb->createTargetMachine(); !tm) {
    *error = llvm::toString(tm.takeError());
    return nullptr;
  }
  auto machines = std::make_unique<llvm::orc::JITTargetMachineBuilder>(*jtmb);
  // ORC's usual object layer on ELF; with JitOptions::perfJit it also writes the jitdump file
  // `perf inject --jit` reads, so that profiles name the work-group functions.
  auto objectLayer =
      [perfJit = options.perfJit](
          llvm::orc::ExecutionSession& es,
          const llvm::Triple&) -> llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> {
    auto layer = std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
        es, [] { return std::make_unique<llvm::SectionMemoryManager>(); });
    if (perfJit) {
      if (llvm::JITEventListener* l = llvm::JITEventListener::createPerfJITEventListener())
        layer->registerJITEventListener(*l);
    }
    return layer;
  };
  auto jit = llvm::orc::LLJITBuilder()
                 .setJITTargetMachineBuilder(std::move(*jtmb))
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
  k->machines_ = std::move(machines);
  return k;
}

KernelJit::~KernelJit() = default;

namespace {

// A JITDylib for one module: the kernel runtime (builtin_runtime.h) and what host_symbols.h lets
// kernels call (libm, libmvec, the compiler runtime), never the application's symbols.
llvm::Expected<llvm::orc::JITDylib&> newDylib(llvm::orc::LLJIT& lljit, const std::string& name) {
  auto dylib = lljit.createJITDylib(name);
  if (!dylib) return dylib.takeError();
  dylib->addGenerator(jit::hostSymbolGenerator());
  // The runtime functions kernels call by name (builtin_runtime.h), bound to this
  // process's addresses, also for object code loaded from a native binary.
  auto flags = llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable;
  llvm::orc::SymbolMap runtime;
  runtime[lljit.mangleAndIntern(jit::kPrintfSymbol)] =
      llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(&jit::printfRuntime), flags);
  runtime[lljit.mangleAndIntern(jit::kAsyncCopySymbol)] =
      llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(&jit::asyncCopyRuntime), flags);
  runtime[lljit.mangleAndIntern(jit::kImageLoadSymbol)] =
      llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(&jit::imageLoadRuntime), flags);
  runtime[lljit.mangleAndIntern(jit::kImageStoreSymbol)] =
      llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(&jit::imageStoreRuntime), flags);
  runtime[lljit.mangleAndIntern(jit::kAddressSpaceSymbol)] =
      llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(&jit::addressSpaceRuntime), flags);
  runtime[lljit.mangleAndIntern(jit::kCurrentPuSymbol)] =
      llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(&jit::currentPuRuntime), flags);
  if (auto e = dylib->define(llvm::orc::absoluteSymbols(std::move(runtime)))) return std::move(e);
  return *dylib;
}

// `name`'s address in `dylib`; false (and `error`) when it is not there.
bool lookupSymbol(llvm::orc::LLJIT& lljit, llvm::orc::JITDylib& dylib, const std::string& name,
                  void** out, std::string* error) {
  auto address = lljit.lookup(dylib, name);
  if (!address) {
    *error = llvm::toString(address.takeError());
    return false;
  }
  *out = address->toPtr<void*>();
  return true;
}

// LLVM's diagnostics during a compile. Without a handler of its own, a context prints warnings and
// remarks on the application's stderr (OpenCV's matchTemplate printed 196 "loop not unrolled"
// warnings for its kernels' `#pragma unroll`) and ends the process on an error. Here warnings and
// remarks are dropped (the kernel's source asked for a transformation that is only a hint) and
// errors are kept, to fail the compile with their text.
void collectErrors(const llvm::DiagnosticInfo& info, void* context) {
  if (info.getSeverity() != llvm::DS_Error) return;
  auto* errors = static_cast<std::string*>(context);
  llvm::raw_string_ostream os(*errors);
  llvm::DiagnosticPrinterRawOStream printer(os);
  if (!errors->empty()) os << "\n";
  info.print(printer);
}

}  // namespace

std::shared_ptr<const CompiledModule> KernelJit::compile(std::unique_ptr<llvm::LLVMContext> context,
                                                         std::unique_ptr<llvm::Module> module,
                                                         std::string* error,
                                                         const CompileOptions& options) {
  // The module dies before its context on every path (parameters are destroyed in an unspecified
  // order).
  struct ModuleFirst {
    std::unique_ptr<llvm::Module>& module;
    ~ModuleFirst() { module.reset(); }
  } moduleFirst{module};
  auto start = std::chrono::steady_clock::now();
  std::string diagnostics;
  context->setDiagnosticHandlerCallBack(collectErrors, &diagnostics);
  // This compile's own TargetMachine: the passes and code generation run on this thread, beside
  // other compiles.
  auto tm = machines_->createTargetMachine();
  if (!tm) {
    *error = llvm::toString(tm.takeError());
    return nullptr;
  }
  auto result = std::make_shared<CompiledModule>();
  const std::string triple = jit_->getTargetTriple().str();
  jit::PipelineState state{.module = *module,
                           .tm = tm->get(),
                           .triple = triple,
                           .dataLayout = jit_->getDataLayout(),
                           .options = options,
                           .error = error,
                           .result = *result};
  // The pipeline's last pass: object code for the module (here, on this thread), then, under the
  // lock, the object in a JITDylib of its own (kernel names of different modules do not collide)
  // and the addresses of what the host reaches.
  state.emit = [&](jit::PipelineState& s) {
    // Each kernel's table beside its code (object_check.h): a native binary's table is compared
    // with it when loaded.
    for (size_t i = 0; i < result->kernelSymbols.size(); ++i) {
      const std::vector<uint32_t> record = abiRecord(result->kernels[i]);
      auto* init = llvm::ConstantDataArray::get(s.module.getContext(), record);
      new llvm::GlobalVariable(s.module, init->getType(), true, llvm::GlobalValue::ExternalLinkage,
                               init, abiRecordSymbol(result->kernelSymbols[i]));
    }
    llvm::SmallVector<char, 0> object;
    {
      llvm::raw_svector_ostream os(object);
      llvm::legacy::PassManager codegen;
      if ((*tm)->addPassesToEmitFile(codegen, os, nullptr, llvm::CGFT_ObjectFile)) {
        *error = "the target cannot emit object code";
        return false;
      }
      codegen.run(s.module);
    }
    result->object.assign(object.begin(), object.end());
    std::lock_guard<std::mutex> lock(mutex_);
    std::string id = "module" + std::to_string(dylibs_++);
    auto dylib = newDylib(*jit_, id);
    if (!dylib) {
      *error = llvm::toString(dylib.takeError());
      return false;
    }
    llvm::StringRef bytes(result->object.data(), result->object.size());
    if (auto e = jit_->addObjectFile(*dylib, llvm::MemoryBuffer::getMemBufferCopy(bytes, id))) {
      *error = llvm::toString(std::move(e));
      return false;
    }
    auto lookup = [&](const std::string& name, void** out) {
      return lookupSymbol(*jit_, *dylib, name, out, error);
    };
    for (size_t i = 0; i < result->kernelSymbols.size(); ++i) {
      void* fn = nullptr;
      if (!lookup(result->kernelSymbols[i], &fn)) return false;
      result->kernels[i].fn = reinterpret_cast<WorkGroupFn>(fn);
    }
    for (const auto& [name, size] : s.globals) {
      CompiledSymbol symbol{nullptr, size};
      if (!lookup(name, &symbol.address)) return false;
      result->globals[name] = symbol;
    }
    for (const std::string& name : s.functions) {
      CompiledSymbol symbol;
      if (!lookup(name, &symbol.address)) return false;
      result->functions[name] = symbol;
    }
    const std::map<std::string, uint64_t> frames =
        jit::readStackSizes(llvm::StringRef(result->object.data(), result->object.size()));
    for (size_t i = 0; i < result->kernelSymbols.size(); ++i)
      result->kernels[i].stackBytes = static_cast<uint32_t>(std::min<uint64_t>(
          jit::stackNeed(result->kernelSymbols[i], s.stacks, frames), UINT32_MAX));
    return true;
  };
  if (!jit::runPipeline(state)) return nullptr;
  if (!diagnostics.empty()) {
    *error = diagnostics;
    return nullptr;
  }
  ++compiles_;
  result->compileMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return result;
}

std::string KernelJit::llvmVersion() { return LLVM_VERSION_STRING; }

std::string KernelJit::describePipeline() {
  std::string text;
  size_t n = 0;
  for (const jit::JitPass& p : jit::pipeline())
    text += std::to_string(++n) + ". " + p.name +
            (p.scope == jit::PassScope::Kernel ? " (per kernel)" : "") + ": " + p.why + "\n";
  return text;
}

std::shared_ptr<const CompiledModule> KernelJit::load(const CompiledModule& module,
                                                      std::string* error) {
  std::lock_guard<std::mutex> lock(mutex_);
  llvm::orc::JITDylib* dylib = nullptr;
  return loadLocked(module, error, dylib);
}

bool KernelJit::loadOnTrial(const CompiledModule& module, std::string* error) {
  std::lock_guard<std::mutex> lock(mutex_);
  llvm::orc::JITDylib* dylib = nullptr;
  bool ok = loadLocked(module, error, dylib) != nullptr;
  if (dylib) {
    if (auto e = jit_->getExecutionSession().removeJITDylib(*dylib)) {
      if (ok)
        *error = llvm::toString(std::move(e));
      else
        llvm::consumeError(std::move(e));
      ok = false;
    }
  }
  return ok;
}

std::shared_ptr<const CompiledModule> KernelJit::loadLocked(const CompiledModule& module,
                                                            std::string* error,
                                                            llvm::orc::JITDylib*& made) {
  auto result = std::make_shared<CompiledModule>(module);
  auto dylib = newDylib(*jit_, "module" + std::to_string(dylibs_++));
  if (!dylib) {
    *error = llvm::toString(dylib.takeError());
    return nullptr;
  }
  made = &*dylib;
  llvm::StringRef bytes(module.object.data(), module.object.size());
  if (auto e = jit_->addObjectFile(*dylib, llvm::MemoryBuffer::getMemBufferCopy(bytes))) {
    *error = llvm::toString(std::move(e));
    return nullptr;
  }
  auto address = [&](const std::string& name, void** out) {
    return lookupSymbol(*jit_, *dylib, name, out, error);
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
