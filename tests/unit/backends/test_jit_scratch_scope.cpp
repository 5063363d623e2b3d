// Scratch slots in alias scopes of their own (backends/cpu/jit/scratch_scope.cpp): values a
// work-group function keeps in scratch across a loop that also gathers from __local memory stay in
// registers after O3, instead of being stored and reloaded every iteration.
#include <catch2/catch.hpp>

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <memory>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::test {
namespace {

// The shape of a widened region's loop: two accumulators in scratch slots (laid out by the
// unknown work-item count, so LLVM alone cannot tell them apart) updated from a gather of __local
// memory (whose vector of pointers LLVM's alias analysis does not follow back to %local).
// @escapes passes a scratch address to a call: it must be left alone.
constexpr const char* kLoop = R"(
declare <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr>, i32, <8 x i1>, <8 x float>)
declare void @helper(ptr)

define void @__tessera_wg.k(ptr noalias %ctx, i64 %gx, i64 %gy, i64 %gz, ptr noalias %local, ptr noalias %scratch) {
entry:
  %w = load i64, ptr %ctx
  %n = load i64, ptr %local
  %o1 = mul i64 %w, 32
  %s0 = getelementptr inbounds i8, ptr %scratch, i64 0, !tessera.scratch_slot !0
  %s1 = getelementptr inbounds i8, ptr %scratch, i64 %o1, !tessera.scratch_slot !1
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  %a0 = load <8 x float>, ptr %s0, align 4
  %a1 = load <8 x float>, ptr %s1, align 4
  %ki = insertelement <8 x i64> poison, i64 %k, i32 0
  %ks = shufflevector <8 x i64> %ki, <8 x i64> poison, <8 x i32> zeroinitializer
  %idx = add <8 x i64> %ks, <i64 0, i64 17, i64 34, i64 51, i64 68, i64 85, i64 102, i64 119>
  %p = getelementptr float, ptr %local, <8 x i64> %idx
  %g = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %p, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> undef)
  %n0 = fadd <8 x float> %a0, %g
  %n1 = fmul <8 x float> %a1, %g
  store <8 x float> %n0, ptr %s0, align 4
  store <8 x float> %n1, ptr %s1, align 4
  %k1 = add i64 %k, 1
  %c = icmp ult i64 %k1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

define void @__tessera_wg.escapes(ptr noalias %ctx, i64 %gx, i64 %gy, i64 %gz, ptr noalias %local, ptr noalias %scratch) {
  %s0 = getelementptr inbounds i8, ptr %scratch, i64 8, !tessera.scratch_slot !2
  store float 1.0, ptr %s0, align 4
  call void @helper(ptr %s0)
  %v = load float, ptr %local, align 4
  store float %v, ptr %s0, align 4
  ret void
}

!0 = !{i64 0}
!1 = !{i64 32}
!2 = !{i64 8}
)";

void optimize(llvm::Module& m) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb;
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cam, mam);
  pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(m, mam);
}

// Stores inside a loop of `f` (blocks that branch back to themselves).
int storesInLoops(llvm::Function& f) {
  int stores = 0;
  for (llvm::BasicBlock& b : f) {
    bool loops = false;
    for (llvm::BasicBlock* succ : llvm::successors(&b)) loops |= succ == &b;
    if (!loops) continue;
    for (llvm::Instruction& i : b) stores += llvm::isa<llvm::StoreInst>(&i);
  }
  return stores;
}

}  // namespace

TEST_CASE(
    "Given accumulators kept in scratch slots across a loop that gathers from local memory, when "
    "scratch accesses are scoped, then O3 keeps them in registers; a scratch address passed to a "
    "call leaves the function alone",
    "[jit][codegen]") {
  llvm::LLVMContext context;
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> before = llvm::parseAssemblyString(kLoop, diagnostic, context);
  std::unique_ptr<llvm::Module> after = llvm::parseAssemblyString(kLoop, diagnostic, context);
  REQUIRE(before != nullptr);
  REQUIRE(after != nullptr);

  // Two scratch loads, two stores, the gather and the two loads of the entry block.
  CHECK(jit::scopeScratchAccesses(*after->getFunction("__tessera_wg.k")) == 7);
  CHECK(jit::scopeScratchAccesses(*after->getFunction("__tessera_wg.escapes")) == 0);
  CHECK_FALSE(llvm::verifyModule(*after, &llvm::errs()));

  optimize(*before);
  optimize(*after);
  // Without scopes the gather may read either slot, and the slots may overlap: both stores stay.
  CHECK(storesInLoops(*before->getFunction("__tessera_wg.k")) == 2);
  CHECK(storesInLoops(*after->getFunction("__tessera_wg.k")) == 0);
}

}  // namespace tessera::backends::cpu::test
