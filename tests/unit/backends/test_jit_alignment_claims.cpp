// Alignment claims hold for memory the module lays out (backends/cpu/jit/alignment_claims.cpp):
// AdaptiveCpp's vec<float, 16> kernels declared a private variable 8-byte aligned and copied into
// it with a 64-byte claim; x86 code used vmovaps on the 8-byte-aligned stack slot and faulted.
#include <catch2/catch.hpp>

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/SourceMgr.h>

#include <memory>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::test {
namespace {

constexpr const char* kModule = R"(
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
%vec16 = type { [16 x float] }
%wrap = type { ptr addrspace(1) }
@table = internal addrspace(2) constant [64 x i8] zeroinitializer, align 1
declare void @llvm.memcpy.p0.p1.i64(ptr noalias, ptr addrspace(1) noalias, i64, i1)
declare void @llvm.memcpy.p0.p2.i64(ptr noalias, ptr addrspace(2) noalias, i64, i1)

define void @k(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr byval(%wrap) %w) {
entry:
  %private = alloca %vec16, align 8
  %odd = alloca [8 x float], align 4
  call void @llvm.memcpy.p0.p1.i64(ptr align 64 %private, ptr addrspace(1) align 64 %in, i64 64, i1 false)
  call void @llvm.memcpy.p0.p2.i64(ptr align 4 %odd, ptr addrspace(2) align 32 @table, i64 32, i1 false)
  %second = getelementptr inbounds i8, ptr %private, i64 4
  %x = load <4 x float>, ptr %second, align 32
  %y = load <4 x float>, ptr %odd, align 16
  %p = load ptr addrspace(1), ptr %w, align 64
  %sum = fadd <4 x float> %x, %y
  store <4 x float> %sum, ptr addrspace(1) %out, align 16
  store <4 x float> %sum, ptr addrspace(1) %p, align 16
  ret void
}
)";

TEST_CASE("Given accesses claiming more alignment than the memory the module lays out has, then "
          "the memory is aligned to the claims at its start and the other claims are lowered",
          "[jit][alignment]") {
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> m = llvm::parseAssemblyString(kModule, error, context);
  REQUIRE(m);
  jit::honourAlignmentClaims(*m);
  REQUIRE_FALSE(llvm::verifyModule(*m, &llvm::errs()));

  llvm::Function* k = m->getFunction("k");
  auto* priv = llvm::cast<llvm::AllocaInst>(&*llvm::inst_begin(k));
  CHECK(priv->getAlign().value() == 64);  // the claim of the copy at its start
  auto* odd = llvm::cast<llvm::AllocaInst>(priv->getNextNode());
  CHECK(odd->getAlign().value() == 16);  // the vector load's claim at its start
  // The module-scope constant is aligned to the copy's source claim.
  CHECK(m->getGlobalVariable("table", true)->getAlign().valueOrOne().value() == 32);
  for (llvm::Instruction& i : llvm::instructions(k)) {
    auto* l = llvm::dyn_cast<llvm::LoadInst>(&i);
    if (!l) continue;
    if (l->getName() == "x") CHECK(l->getAlign().value() == 4);  // 4 bytes past a 64-byte start
    if (l->getName() == "y") CHECK(l->getAlign().value() == 16);
    if (l->getName() == "p") CHECK(l->getAlign().value() < 64);  // a by-value argument's slot
  }
  // Stores through the application's pointers keep their claims.
  for (llvm::Instruction& i : llvm::instructions(k))
    if (auto* s = llvm::dyn_cast<llvm::StoreInst>(&i)) CHECK(s->getAlign().value() == 16);
}

}  // namespace
}  // namespace tessera::backends::cpu::test
