// Pass: the kernel's own optimization, before the region passes.
//
// OpenCL C reaches the JIT unoptimized (spirv/opencl_c.cpp: clang's IR goes to the translator
// before any LLVM pass, because the optimizer emits IR SPIR-V 1.0 cannot carry: freeze, odd-width
// integers, ...), and SPIR-V from other producers may be unoptimized too (-O0 builds, the CTS's
// binaries). The region passes (prefetch, formRegions, the widening) want what an optimizer
// leaves: values in registers rather than allocas (an alloca live across a barrier costs a
// per-work-item slot), canonical loops with induction variables (the widening's stride analysis),
// folded address arithmetic. So each kernel runs LLVM's per-function simplification pipeline (the
// one O2 runs on every function after inlining: SROA, EarlyCSE, InstCombine, SimplifyCFG, loop
// rotation, LICM, IndVarSimplify, GVN, ...) here, on the host's triple and DataLayout. The
// vectorizers are not in it: they run in the final O3 over the work-group function, where the
// work-item loops exist.
//
// What the optimizer must know first, since the translator declares the SPIR-V builtins bare:
//  - work-item builtins (__spirv_BuiltIn*) read nothing that changes within a work-item: readnone,
//    so they are CSE'd and hoisted like clang's `const` get_global_id;
//  - barriers and every other remaining __spirv_ call (group collectives, sub-group operations)
//    are convergent, and barriers are also noduplicate: no pass may make one depend on more
//    control flow or copy it (jump threading, unswitching, tail duplication), which would break
//    the rule that every work-item of a group reaches the same barriers.
// And: accesses of private variables are never volatile (plainPrivateAccesses).
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/Attributes.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Target/TargetMachine.h>

#include <vector>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

void markBuiltinDeclarations(llvm::Module& m) {
  for (llvm::Function& f : m) {
    if (!f.isDeclaration()) continue;
    llvm::StringRef base = spirvBaseName(f.getName());
    if (!base.startswith("__spirv_")) continue;
    f.addFnAttr(llvm::Attribute::NoUnwind);
    if (base.startswith("__spirv_BuiltIn")) {
      f.setDoesNotAccessMemory();
      f.addFnAttr(llvm::Attribute::WillReturn);
      f.addFnAttr(llvm::Attribute::NoSync);
      f.addFnAttr(llvm::Attribute::NoFree);
      continue;
    }
    f.addFnAttr(llvm::Attribute::Convergent);
    if (base == "__spirv_ControlBarrier") f.addFnAttr(llvm::Attribute::NoDuplicate);
  }
  // Call sites carry the callee's attributes only where they were copied; barriers must be
  // convergent at every call.
  for (llvm::Function& f : m) {
    for (llvm::BasicBlock& bb : f) {
      for (llvm::Instruction& i : bb) {
        auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
        if (call && call->getCalledFunction() &&
            call->getCalledFunction()->hasFnAttribute(llvm::Attribute::Convergent)) {
          call->addFnAttr(llvm::Attribute::Convergent);
        }
      }
    }
  }
}

// OpenCL C, "private": "The private address space is a memory segment that can only be accessed
// by one work item." Nothing but the work-item itself reads or writes a private variable, so
// `volatile` on one orders nothing anyone could observe; its loads and stores become plain, so
// that SROA keeps the value in a register and region formation recomputes it from the ids where it
// is used. CLBlast's GEMM kernels declare their tile id `volatile int tid` (to keep NVIDIA's
// compiler from caching it); kept volatile, it was reloaded from its slot by every work-item,
// opaque to the widening's stride analysis and to the prefetches.
void plainPrivateAccesses(llvm::Function& f) {
  std::vector<llvm::Value*> work;
  for (llvm::Instruction& i : f.getEntryBlock())
    if (llvm::isa<llvm::AllocaInst>(i)) work.push_back(&i);
  llvm::SmallPtrSet<llvm::Value*, 32> seen;
  while (!work.empty()) {
    llvm::Value* p = work.back();
    work.pop_back();
    if (!seen.insert(p).second) continue;
    for (llvm::User* u : p->users()) {
      if (auto* l = llvm::dyn_cast<llvm::LoadInst>(u)) {
        if (l->getPointerOperand() == p && !l->isAtomic()) l->setVolatile(false);
      } else if (auto* st = llvm::dyn_cast<llvm::StoreInst>(u)) {
        if (st->getPointerOperand() == p && !st->isAtomic()) st->setVolatile(false);
      } else if (llvm::isa<llvm::GetElementPtrInst>(u) || llvm::isa<llvm::BitCastInst>(u) ||
                 llvm::isa<llvm::AddrSpaceCastInst>(u)) {
        work.push_back(u);
      }
    }
  }
}

// The local ids of a kernel with a required work-group size are below it (the launch refuses any
// other size: core/module/kernel.cpp), and saying so as !range lets the simplification and the
// uniformity analysis (uniformity.h) reason on them: `group * 16 + lid * 2` of an 8-wide group
// then has the group's id above its low four bits alone.
void boundLocalIds(llvm::Function& f) {
  const llvm::MDNode* reqd = f.getMetadata("reqd_work_group_size");
  if (reqd == nullptr || reqd->getNumOperands() != 3) return;
  for (llvm::BasicBlock& bb : f)
    for (llvm::Instruction& i : bb) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
      if (call == nullptr || call->getCalledFunction() == nullptr || call->arg_size() != 1 ||
          !call->getType()->isIntegerTy() ||
          spirvBaseName(call->getCalledFunction()->getName()) != "__spirv_BuiltInLocalInvocationId")
        continue;
      auto* dim = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
      if (dim == nullptr || dim->getZExtValue() > 2) continue;
      auto* size = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(
          reqd->getOperand(static_cast<unsigned>(dim->getZExtValue())));
      if (size == nullptr || size->isZero()) continue;
      const unsigned bits = call->getType()->getIntegerBitWidth();
      if (size->getValue().getActiveBits() >= bits) continue;
      llvm::MDBuilder md(f.getContext());
      call->setMetadata(llvm::LLVMContext::MD_range,
                        md.createRange(llvm::APInt(bits, 0), size->getValue().zextOrTrunc(bits)));
    }
}

}  // namespace

void simplifyKernels(llvm::Module& m, llvm::TargetMachine* tm) {
  markBuiltinDeclarations(m);
  for (llvm::Function& f : m) {
    if (f.isDeclaration()) continue;
    plainPrivateAccesses(f);
    boundLocalIds(f);
  }
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::FunctionPassManager fpm = pb.buildFunctionSimplificationPipeline(
      llvm::OptimizationLevel::O2, llvm::ThinOrFullLTOPhase::None);
  for (llvm::Function& f : m) {
    if (!f.isDeclaration()) fpm.run(f, fam);
  }
}

}  // namespace tessera::backends::cpu::jit
