// The rewrites before the widening (backends/cpu/jit/widen_prepare.cpp), on hand-written regions:
// scratch slots that become private variables, and vector phis that become element phis.
#include <catch2/catch.hpp>

#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <memory>
#include <string>

#include "jit_test_support.h"
#include "backends/cpu/jit/widen_prepare.h"

namespace tessera::backends::cpu::test {
namespace {

bool verifies(llvm::Function& f) {
  std::string problems;
  llvm::raw_string_ostream os(problems);
  bool broken = llvm::verifyFunction(f, &os);
  INFO(os.str());
  return !broken;
}

template <typename T>
int count(llvm::Function& f, llvm::Value* pointer) {
  int n = 0;
  for (llvm::BasicBlock& bb : f)
    for (llvm::Instruction& i : bb)
      if (auto* access = llvm::dyn_cast<T>(&i); access && access->getPointerOperand() == pointer)
        ++n;
  return n;
}

llvm::Value* named(llvm::Function& f, const char* name) {
  for (llvm::BasicBlock& bb : f)
    for (llvm::Instruction& i : bb)
      if (i.getName() == name) return &i;
  FAIL("no value named " << name);
  return nullptr;
}

}  // namespace

TEST_CASE(
    "Given a region that carries a float4 through its scratch slot in a loop, when slots are "
    "localized, then the loop keeps it in a private variable copied in before and out after",
    "[jit][widen]") {
  // One kernel argument (%n), then the region parameters (jit_passes.h, RegionParam): 23 i64s,
  // local memory and scratch.
  const char* ir = R"(
define i32 @region(i32 %n, i64 %lx, i64 %ly, i64 %lz, i64 %gx, i64 %gy, i64 %gz, i64 %sx,
                   i64 %sy, i64 %sz, i64 %cx, i64 %cy, i64 %cz, i64 %ex, i64 %ey, i64 %ez,
                   i64 %tx, i64 %ty, i64 %tz, i64 %ox, i64 %oy, i64 %oz,
                   i64 %lin, i64 %wd, ptr %local, ptr %scratch) {
entry:
  %off = mul i64 %lin, 16
  %slot = getelementptr inbounds i8, ptr %scratch, i64 %off
  %off2 = mul i64 %lin, 4
  %plain = getelementptr inbounds i8, ptr %scratch, i64 %off2
  %array = getelementptr inbounds i8, ptr %scratch, i64 %lin
  %element = getelementptr inbounds i8, ptr %array, i64 4
  store i8 1, ptr %element
  store i32 %n, ptr %plain
  %first = icmp eq i32 %n, 0
  br i1 %first, label %done, label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = load <4 x float>, ptr %slot, align 16
  %x = extractelement <4 x float> %acc, i64 0
  %x1 = fadd float %x, 1.0
  %v = insertelement <4 x float> %acc, float %x1, i64 0
  store <4 x float> %v, ptr %slot, align 16
  store i8 2, ptr %element
  %c = load i32, ptr %plain
  %c1 = add i32 %c, 1
  store i32 %c1, ptr %plain
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  %m = load i32, ptr %plain
  ret i32 %m
done:
  ret i32 -1
}
)";
  llvm::LLVMContext context;
  auto m = parseModule(context, ir);
  llvm::Function& f = *m->getFunction("region");
  jit::localizeSlots(f, 1);
  REQUIRE(verifies(f));
  llvm::Value* slot = named(f, "slot");
  auto* loopLoad = llvm::cast<llvm::LoadInst>(named(f, "acc"));
  llvm::BasicBlock* loop = loopLoad->getParent();
  // The loop's accesses go to a private variable, copied in from the slot in the block before
  // the loop (a preheader made for it) and out in the loop's exit.
  CHECK(llvm::isa<llvm::AllocaInst>(loopLoad->getPointerOperand()));
  REQUIRE(count<llvm::LoadInst>(f, slot) == 1);
  REQUIRE(count<llvm::StoreInst>(f, slot) == 1);
  for (llvm::User* u : slot->users()) {
    auto* i = llvm::cast<llvm::Instruction>(u);
    if (llvm::isa<llvm::LoadInst>(i)) CHECK(i->getParent()->getSingleSuccessor() == loop);
    if (llvm::isa<llvm::StoreInst>(i)) CHECK(i->getParent()->getName() == "exit");
  }
  // A scalar slot keeps its accesses, in the loop too, and so does a slot reached through another
  // GEP (a private array's element).
  CHECK(count<llvm::StoreInst>(f, named(f, "plain")) == 2);
  CHECK(count<llvm::LoadInst>(f, named(f, "plain")) == 2);
  CHECK(count<llvm::StoreInst>(f, named(f, "element")) == 2);
}

TEST_CASE(
    "Given a loop phi of a float4 used only element by element, when vector phis are "
    "scalarized, then each used element gets its own phi and other vector phis stay",
    "[jit][widen]") {
  const char* ir = R"(
define void @f(ptr %p, i32 %n) {
entry:
  %init = load <4 x float>, ptr %p, align 16
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi <4 x float> [ %init, %entry ], [ %next, %loop ]
  %kept = phi <4 x float> [ %init, %entry ], [ %kept2, %loop ]
  %x = extractelement <4 x float> %acc, i64 0
  %w = extractelement <4 x float> %acc, i64 3
  %x1 = fadd float %x, 1.0
  %w1 = fadd float %w, 2.0
  %n0 = insertelement <4 x float> poison, float %x1, i64 0
  %next = insertelement <4 x float> %n0, float %w1, i64 3
  %kept2 = fadd <4 x float> %kept, %kept
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  %q = getelementptr <4 x float>, ptr %p, i64 1
  store <4 x float> %next, ptr %p, align 16
  store <4 x float> %kept2, ptr %q, align 16
  ret void
}
)";
  llvm::LLVMContext context;
  auto m = parseModule(context, ir);
  llvm::Function& f = *m->getFunction("f");
  CHECK(jit::scalarizeVectorPhis(f));
  REQUIRE(verifies(f));
  int vectorPhis = 0, floatPhis = 0;
  for (llvm::PHINode& phi : f.getEntryBlock().getNextNode()->phis()) {
    vectorPhis += phi.getType()->isVectorTy();
    floatPhis += phi.getType()->isFloatTy();
  }
  CHECK(vectorPhis == 1);  // %kept, which a vector add uses
  CHECK(floatPhis == 2);   // elements 0 and 3 of %acc
  // x1 = fadd(element 0's phi, 1): no extract of a vector phi left.
  auto* x1 = llvm::cast<llvm::Instruction>(named(f, "x1"));
  CHECK(llvm::isa<llvm::PHINode>(x1->getOperand(0)));
  CHECK_FALSE(jit::scalarizeVectorPhis(f));
}

}  // namespace tessera::backends::cpu::test
