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
#include <string>

#include "backends/cpu/jit/jit_passes.h"
#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

// The shape of a widened region's loop: two accumulators in scratch slots (laid out by the
// unknown work-item count, so LLVM alone cannot tell them apart) updated from a gather of __local
// memory (whose vector of pointers LLVM's alias analysis does not follow back to %local).
// @escapes passes a scratch address to a call: it must be left alone.
constexpr const char* kLoop = R"(
declare <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr>, i32, <8 x i1>, <8 x float>)
declare void @helper(ptr)

define void @__tessera_wg.k(ptr noalias %ctx, i64 %gx, i64 %gy, i64 %gz, ptr noalias %local, ptr noalias %scratch, i64 %groups) {
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

define void @__tessera_wg.escapes(ptr noalias %ctx, i64 %gx, i64 %gy, i64 %gz, ptr noalias %local, ptr noalias %scratch, i64 %groups) {
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

// A jammed region's loop (row_jam.cpp): rows 0 and 1 of one jam keep their copies of slot 0 at
// addresses an unknown distance apart (the row's size is the local size). @ROWTAG0@ and @ROWTAG1@
// become the rows' kJamRowMetadata (or nothing), @UNIFORM@ kUniformSlotMetadata (or nothing).
constexpr const char* kRows = R"(
declare <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr>, i32, <8 x i1>, <8 x float>)

define void @__tessera_wg.rows(ptr noalias %ctx, i64 %gx, i64 %gy, i64 %gz, ptr noalias %local, ptr noalias %scratch, i64 %groups) {
entry:
  %w = load i64, ptr %ctx
  %n = load i64, ptr %local
  %o1 = mul i64 %w, 4
  %s0 = getelementptr inbounds i8, ptr %scratch, i64 0, !tessera.scratch_slot !0 @UNIFORM@
  %s1 = getelementptr inbounds i8, ptr %scratch, i64 %o1, !tessera.scratch_slot !0 @UNIFORM@
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  %a0 = load <8 x float>, ptr %s0, align 4 @ROWTAG0@
  %a1 = load <8 x float>, ptr %s1, align 4 @ROWTAG1@
  %ki = insertelement <8 x i64> poison, i64 %k, i32 0
  %ks = shufflevector <8 x i64> %ki, <8 x i64> poison, <8 x i32> zeroinitializer
  %idx = add <8 x i64> %ks, <i64 0, i64 17, i64 34, i64 51, i64 68, i64 85, i64 102, i64 119>
  %p = getelementptr float, ptr %local, <8 x i64> %idx
  %g = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> %p, i32 4, <8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>, <8 x float> undef)
  %n0 = fadd <8 x float> %a0, %g
  %n1 = fadd <8 x float> %a1, %g
  store <8 x float> %n0, ptr %s0, align 4 @ROWTAG0@
  store <8 x float> %n1, ptr %s1, align 4 @ROWTAG1@
  %k1 = add i64 %k, 1
  %c = icmp ult i64 %k1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

!0 = !{i64 0}
!1 = distinct !{}
!2 = !{i64 0, !1}
!3 = !{i64 1, !1}
!4 = distinct !{}
!5 = !{i64 1, !4}
!6 = !{}
)";

// kRows with its placeholders replaced.
std::string rowsModule(const char* tag0, const char* tag1, bool uniform) {
  std::string text = kRows;
  auto replace = [&](const std::string& from, const std::string& to) {
    for (size_t at; (at = text.find(from)) != std::string::npos;) text.replace(at, from.size(), to);
  };
  replace("@ROWTAG0@", tag0);
  replace("@ROWTAG1@", tag1);
  replace("@UNIFORM@", uniform ? ", !tessera.uniform_slot !6" : "");
  return text;
}

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

TEST_CASE(
    "Given two rows of a jammed region keeping their copies of one scratch slot across a loop, "
    "when scratch accesses are scoped, then O3 keeps both in registers only when the accesses say "
    "they are two rows of the same jam and the slot is not group-uniform",
    "[jit][codegen]") {
  struct Case {
    const char* tag0;
    const char* tag1;
    bool uniform;
    int stores;  // left in the loop after O3
  };
  const Case cases[] = {
      {", !tessera.jam_row !2", ", !tessera.jam_row !3", false, 0},  // rows 0 and 1 of one jam
      {"", "", false, 2},                                            // not jammed
      {", !tessera.jam_row !2", "", false, 2},                       // one row's access untagged
      {", !tessera.jam_row !2", ", !tessera.jam_row !5", false, 2},  // rows of two jams
      {", !tessera.jam_row !2", ", !tessera.jam_row !3", true, 2},   // a uniform slot
  };
  for (const Case& c : cases) {
    CAPTURE(c.tag0, c.tag1, c.uniform);
    llvm::LLVMContext context;
    llvm::SMDiagnostic diagnostic;
    std::unique_ptr<llvm::Module> m =
        llvm::parseAssemblyString(rowsModule(c.tag0, c.tag1, c.uniform), diagnostic, context);
    REQUIRE(m != nullptr);
    llvm::Function* f = m->getFunction("__tessera_wg.rows");
    CHECK(jit::scopeScratchAccesses(*f) == 7);
    CHECK_FALSE(llvm::verifyModule(*m, &llvm::errs()));
    optimize(*m);
    CHECK(storesInLoops(*f) == c.stores);
  }
}

TEST_CASE(
    "Given a kernel that keeps values in scratch across barriers, when compiled through the JIT's "
    "pipeline, then its work-group function's scratch accesses are scoped",
    "[jit][codegen]") {
  // The pass finds scratch by its place among the work-group function's parameters
  // (WorkGroupFnParam): it did nothing, silently, while it took the last parameter for it and a
  // parameter was added after scratch. The tiled SGEMM carries acc and t across its barriers.
  const CompiledKernel& k = kernel("widen", "tiled");
  REQUIRE(k.scratchBytesPerWorkItem > 0);
  CHECK(k.scopedAccesses > 0);
}

}  // namespace tessera::backends::cpu::test
