// Element-by-element arithmetic rebuilding a vector made one vector operation
// (backends/cpu/jit/vector_recombine.cpp), on hand-written functions: CLBlast's MultiplyAddVector,
// a tree of operations, a shuffle of a wider vector's elements, and what must stay as it is.
#include <catch2/catch.hpp>

#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <memory>
#include <string>

#include "jit_test_support.h"
#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::test {
namespace {

// CLBlast 1.5's MultiplyAddVector for VWM == 4 (USE_VECTOR_MAD 0), as clang and SROA leave it.
constexpr const char* kMultiplyAdd = R"(
declare float @llvm.fmuladd.f32(float, float, float)
define <4 x float> @mad(<4 x float> %c, <4 x float> %a, float %b) {
  %a0 = extractelement <4 x float> %a, i64 0
  %c0 = extractelement <4 x float> %c, i64 0
  %r0 = call float @llvm.fmuladd.f32(float %a0, float %b, float %c0)
  %v0 = insertelement <4 x float> poison, float %r0, i64 0
  %a1 = extractelement <4 x float> %a, i64 1
  %c1 = extractelement <4 x float> %c, i64 1
  %r1 = call float @llvm.fmuladd.f32(float %a1, float %b, float %c1)
  %v1 = insertelement <4 x float> %v0, float %r1, i64 1
  %a2 = extractelement <4 x float> %a, i64 2
  %c2 = extractelement <4 x float> %c, i64 2
  %r2 = call float @llvm.fmuladd.f32(float %a2, float %b, float %c2)
  %v2 = insertelement <4 x float> %v1, float %r2, i64 2
  %a3 = extractelement <4 x float> %a, i64 3
  %c3 = extractelement <4 x float> %c, i64 3
  %r3 = call float @llvm.fmuladd.f32(float %a3, float %b, float %c3)
  %v3 = insertelement <4 x float> %v2, float %r3, i64 3
  ret <4 x float> %v3
}
)";

// alpha * x + y on the elements of the upper half of an int4 and of an int2, with a constant
// per element: a tree of two operations, a shuffle, constants, flags only some elements have.
constexpr const char* kTree = R"(
define <2 x i32> @tree(<4 x i32> %x, <2 x i32> %y, i32 %alpha) {
  %x2 = extractelement <4 x i32> %x, i64 2
  %x3 = extractelement <4 x i32> %x, i64 3
  %m0 = mul nsw i32 %x2, %alpha
  %m1 = mul i32 %x3, %alpha
  %y0 = extractelement <2 x i32> %y, i64 0
  %y1 = extractelement <2 x i32> %y, i64 1
  %s0 = add nsw i32 %m0, %y0
  %s1 = add nsw i32 %m1, %y1
  %t0 = xor i32 %s0, 5
  %t1 = xor i32 %s1, 9
  %v0 = insertelement <2 x i32> undef, i32 %t0, i64 0
  %v1 = insertelement <2 x i32> %v0, i32 %t1, i64 1
  ret <2 x i32> %v1
}
)";

// What stays: an element left out, different operations, a division, an element's value used
// elsewhere too, elements from two vectors at one position, compares of an i8 and an i16 (a
// column of constants of two types), an operation in another block.
constexpr const char* kUntouched = R"(
define <2 x float> @partial(<2 x float> %a, float %b) {
  %a0 = extractelement <2 x float> %a, i64 0
  %r0 = fmul float %a0, %b
  %v0 = insertelement <2 x float> %a, float %r0, i64 0
  ret <2 x float> %v0
}
define <2 x float> @mixed(<2 x float> %a, float %b) {
  %a0 = extractelement <2 x float> %a, i64 0
  %a1 = extractelement <2 x float> %a, i64 1
  %r0 = fmul float %a0, %b
  %r1 = fadd float %a1, %b
  %v0 = insertelement <2 x float> poison, float %r0, i64 0
  %v1 = insertelement <2 x float> %v0, float %r1, i64 1
  ret <2 x float> %v1
}
define <2 x i32> @division(<2 x i32> %a, i32 %b) {
  %a0 = extractelement <2 x i32> %a, i64 0
  %a1 = extractelement <2 x i32> %a, i64 1
  %r0 = sdiv i32 %a0, %b
  %r1 = sdiv i32 %a1, %b
  %v0 = insertelement <2 x i32> poison, i32 %r0, i64 0
  %v1 = insertelement <2 x i32> %v0, i32 %r1, i64 1
  ret <2 x i32> %v1
}
define <2 x float> @shared(<2 x float> %a, float %b, ptr %out) {
  %a0 = extractelement <2 x float> %a, i64 0
  %a1 = extractelement <2 x float> %a, i64 1
  %r0 = fmul float %a0, %b
  %r1 = fmul float %a1, %b
  store float %r0, ptr %out
  %v0 = insertelement <2 x float> poison, float %r0, i64 0
  %v1 = insertelement <2 x float> %v0, float %r1, i64 1
  ret <2 x float> %v1
}
define <2 x float> @two_sources(<2 x float> %a, <2 x float> %c, float %b) {
  %a0 = extractelement <2 x float> %a, i64 0
  %c1 = extractelement <2 x float> %c, i64 1
  %r0 = fmul float %a0, %b
  %r1 = fmul float %c1, %b
  %v0 = insertelement <2 x float> poison, float %r0, i64 0
  %v1 = insertelement <2 x float> %v0, float %r1, i64 1
  ret <2 x float> %v1
}
define <2 x i1> @mixed_types(i8 %c, i16 %s) {
  %r0 = icmp slt i8 3, %c
  %r1 = icmp slt i16 3, %s
  %v0 = insertelement <2 x i1> poison, i1 %r0, i64 0
  %v1 = insertelement <2 x i1> %v0, i1 %r1, i64 1
  ret <2 x i1> %v1
}
define <2 x float> @other_block(<2 x float> %a, float %b, i1 %p) {
entry:
  %a0 = extractelement <2 x float> %a, i64 0
  %a1 = extractelement <2 x float> %a, i64 1
  %r0 = fmul float %a0, %b
  %r1 = fmul float %a1, %b
  br i1 %p, label %then, label %join
then:
  br label %join
join:
  %v0 = insertelement <2 x float> poison, float %r0, i64 0
  %v1 = insertelement <2 x float> %v0, float %r1, i64 1
  ret <2 x float> %v1
}
)";

std::string text(llvm::Function& f) {
  std::string s;
  llvm::raw_string_ostream os(s);
  f.print(os);
  return os.str();
}

// The value `f` returns.
llvm::Value* returned(llvm::Function& f) {
  for (llvm::BasicBlock& bb : f)
    if (auto* ret = llvm::dyn_cast<llvm::ReturnInst>(bb.getTerminator()))
      return ret->getReturnValue();
  return nullptr;
}

int countOf(llvm::Function& f, unsigned opcode) {
  int n = 0;
  for (llvm::BasicBlock& bb : f)
    for (llvm::Instruction& i : bb) n += i.getOpcode() == opcode;
  return n;
}

}  // namespace

TEST_CASE(
    "Given CLBlast's element-by-element multiply-add of a float4, when vector operations are "
    "recombined, then one fmuladd of the vectors and a splat of the scalar returns, and no "
    "element operation is left",
    "[jit][widen]") {
  llvm::LLVMContext context;
  auto m = parseModule(context, kMultiplyAdd);
  llvm::Function& f = *m->getFunction("mad");
  CHECK(jit::recombineVectorOps(f) == 1);
  INFO(text(f));
  CHECK_FALSE(llvm::verifyFunction(f, &llvm::errs()));
  auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(returned(f));
  REQUIRE(call != nullptr);
  CHECK(call->getIntrinsicID() == llvm::Intrinsic::fmuladd);
  CHECK(call->getType()->isVectorTy());
  CHECK(call->getArgOperand(0) == f.getArg(1));
  CHECK(call->getArgOperand(2) == f.getArg(0));
  CHECK(llvm::isa<llvm::ShuffleVectorInst>(call->getArgOperand(1)));  // the splat of %b
  CHECK(countOf(f, llvm::Instruction::ExtractElement) == 0);
  CHECK(countOf(f, llvm::Instruction::InsertElement) == 1);  // the splat's
}

TEST_CASE(
    "Given a tree of integer operations on elements of two vectors and constants, when vector "
    "operations are recombined, then the same tree runs on vectors, with a shuffle for the upper "
    "half, a constant vector, and nsw only where every element had it",
    "[jit][widen]") {
  llvm::LLVMContext context;
  auto m = parseModule(context, kTree);
  llvm::Function& f = *m->getFunction("tree");
  CHECK(jit::recombineVectorOps(f) == 1);
  INFO(text(f));
  CHECK_FALSE(llvm::verifyFunction(f, &llvm::errs()));
  auto* x = llvm::dyn_cast<llvm::BinaryOperator>(returned(f));
  REQUIRE(x != nullptr);
  CHECK(x->getOpcode() == llvm::Instruction::Xor);
  auto* k = llvm::dyn_cast<llvm::ConstantDataVector>(x->getOperand(1));
  REQUIRE(k != nullptr);
  CHECK(k->getElementAsInteger(0) == 5);
  CHECK(k->getElementAsInteger(1) == 9);
  auto* add = llvm::dyn_cast<llvm::BinaryOperator>(x->getOperand(0));
  REQUIRE(add != nullptr);
  CHECK(add->hasNoSignedWrap());
  CHECK(add->getOperand(1) == f.getArg(1));
  auto* mul = llvm::dyn_cast<llvm::BinaryOperator>(add->getOperand(0));
  REQUIRE(mul != nullptr);
  CHECK_FALSE(mul->hasNoSignedWrap());
  auto* upper = llvm::dyn_cast<llvm::ShuffleVectorInst>(mul->getOperand(0));
  REQUIRE(upper != nullptr);
  CHECK(upper->getShuffleMask()[0] == 2);
  CHECK(upper->getShuffleMask()[1] == 3);
  CHECK(countOf(f, llvm::Instruction::ExtractElement) == 0);
}

TEST_CASE(
    "Given vectors rebuilt from a left-out element, different operations, divisions, a value "
    "used elsewhere, two source vectors, compares of different types or another block's "
    "operations, when vector operations are recombined, then nothing changes",
    "[jit][widen]") {
  llvm::LLVMContext context;
  auto m = parseModule(context, kUntouched);
  for (llvm::Function& f : *m) {
    if (f.isDeclaration()) continue;
    const std::string before = text(f);
    INFO(f.getName().str());
    CHECK(jit::recombineVectorOps(f) == 0);
    CHECK(text(f) == before);  // nothing built and left behind either
  }
}

}  // namespace tessera::backends::cpu::test
