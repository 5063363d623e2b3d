// Pass: integer arithmetic that OpenCL leaves undefined gets a value instead of a trap or a
// promise. The OpenCL C specification (3.0, "Arithmetic Operators"): "Division on integer types
// which results in a value that lies outside of the range bounded by the maximum and minimum
// representable values of the integer type will not cause an exception but will result in an
// unspecified value. A divide by zero with integer types does not cause an exception but will
// result in an unspecified value." x86's div/idiv raise SIGFPE for a zero divisor and for
// INT_MIN / -1 (which fault_guard.h would take as a kernel fault), and LLVM takes both as
// undefined behaviour it may optimize on. So, before any LLVM optimization runs, every
// sdiv/udiv/srem/urem (scalars and vectors) whose divisor may be zero, or -1 with a dividend that
// may be the minimum, divides by 1 in those cases instead, through a select on the divisor (a
// signed quotient by -1 is then the negated dividend): the division stays straight-line code that
// the loop vectorizer and the widening (widen.cpp) vectorize like any other, and the guard
// depends on the divisor only, so a kernel argument's is computed once. A divisor that may be
// poison is frozen first, so the guard's compare sees the value the division divides by. A
// division whose divisor is a constant that cannot fault is left as it is. The results where
// OpenCL leaves them undefined: x / 0 = x, x % 0 = 0, INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0.
//
// Shifts: "The result of E1 << E2 is E1 left-shifted by log2(N) least significant bits in E2
// viewed as an unsigned integer value, where N is the number of bits used to represent the data
// type of E1" (and likewise for >>). Clang's OpenCL C front end masks the count itself; SPIR-V
// from other producers may not, and LLVM's shl/lshr/ashr by the width or more is poison. Counts
// not known to be in range are masked with N - 1 (N is a power of two for every OpenCL type; other
// widths take the count modulo N).
//
// Float to integer conversions out of range are poison in LLVM and not a trap on x86 (cvttss2si
// & co. return the "integer indefinite" value with exceptions masked, which they are in every
// thread the launcher runs); nothing is done for them here.
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/KnownBits.h>
#include <llvm/Support/MathExtras.h>

#include <vector>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

constexpr const char* kTrapFreeMetadata = "tessera.trap_free";

bool isSignedDivision(unsigned opcode) {
  return opcode == llvm::Instruction::SDiv || opcode == llvm::Instruction::SRem;
}

// True when every element of the constant `c` (a scalar or a vector) satisfies `pred`.
template <typename Pred>
bool everyElement(const llvm::Constant* c, Pred pred) {
  if (const auto* ci = llvm::dyn_cast<llvm::ConstantInt>(c)) return pred(ci->getValue());
  const auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(c->getType());
  if (vt == nullptr) return false;
  for (unsigned i = 0; i < vt->getNumElements(); ++i) {
    const auto* e = llvm::dyn_cast_or_null<llvm::ConstantInt>(c->getAggregateElement(i));
    if (e == nullptr || !pred(e->getValue())) return false;
  }
  return true;
}

// A division whose divisor is a constant that cannot fault: no element 0 (or undefined), and for
// signed divisions no element -1.
bool constantDivisorIsSafe(const llvm::BinaryOperator& div) {
  const auto* d = llvm::dyn_cast<llvm::Constant>(div.getOperand(1));
  if (d == nullptr) return false;
  const bool isSigned = isSignedDivision(div.getOpcode());
  return everyElement(
      d, [&](const llvm::APInt& v) { return !v.isZero() && !(isSigned && v.isAllOnes()); });
}

llvm::Value* frozen(llvm::IRBuilder<>& b, llvm::Value* v) {
  return llvm::isGuaranteedNotToBeUndefOrPoison(v) ? v : b.CreateFreeze(v, v->getName() + ".fr");
}

void guardDivision(llvm::BinaryOperator& div, const llvm::DataLayout& dl) {
  llvm::Value* x = div.getOperand(0);
  llvm::Value* d = div.getOperand(1);
  llvm::Type* t = d->getType();
  const bool isSigned = isSignedDivision(div.getOpcode());
  const auto* constant = llvm::dyn_cast<llvm::Constant>(d);
  bool mayBeZero = constant
                       ? !everyElement(constant, [](const llvm::APInt& v) { return !v.isZero(); })
                       : !llvm::isKnownNonZero(d, dl);
  bool mayOverflow = false;
  if (isSigned) {
    // -1 is impossible when some bit of the divisor is known zero; the minimum when the dividend's
    // sign bit is known zero or one of its other bits is known one.
    llvm::KnownBits kd = llvm::computeKnownBits(d, dl);
    llvm::KnownBits kx = llvm::computeKnownBits(x, dl);
    llvm::APInt low = kx.One;
    low.clearSignBit();
    mayOverflow = kd.Zero.isZero() && !kx.isNonNegative() && low.isZero();
  }
  if (mayBeZero || mayOverflow) {
    // The guard depends on the divisor alone (a kernel argument's is computed once, outside the
    // work-item loops): a divisor of -1 divides by 1 too, x % 1 being x % -1 (0), and a quotient
    // by -1 is then -x (the minimum's stays the minimum).
    llvm::IRBuilder<> b(&div);
    d = frozen(b, d);
    llvm::Value* bad;
    if (mayBeZero && mayOverflow)  // d in {-1, 0}
      bad = b.CreateICmpULT(b.CreateAdd(d, llvm::ConstantInt::get(t, 1)),
                            llvm::ConstantInt::get(t, 2));
    else if (mayBeZero)
      bad = b.CreateICmpEQ(d, llvm::Constant::getNullValue(t));
    else
      bad = b.CreateICmpEQ(d, llvm::Constant::getAllOnesValue(t));
    div.setOperand(1, b.CreateSelect(bad, llvm::ConstantInt::get(t, 1), d, "divisor.safe"));
    if (mayOverflow && div.getOpcode() == llvm::Instruction::SDiv) {
      b.SetInsertPoint(div.getNextNode());
      llvm::Value* negated = b.CreateSub(llvm::Constant::getNullValue(t), x, "negated");
      llvm::Value* q = b.CreateSelect(b.CreateICmpEQ(d, llvm::Constant::getAllOnesValue(t)),
                                      negated, &div, "quotient");
      div.replaceUsesWithIf(q, [&](llvm::Use& u) { return u.getUser() != q; });
    }
  }
  div.setMetadata(kTrapFreeMetadata, llvm::MDNode::get(div.getContext(), {}));
}

void maskShiftCount(llvm::BinaryOperator& shift, const llvm::DataLayout& dl) {
  llvm::Value* n = shift.getOperand(1);
  llvm::Type* t = n->getType();
  const unsigned bits = t->getScalarSizeInBits();
  if (llvm::computeKnownBits(n, dl).getMaxValue().ult(bits)) return;  // already in range
  llvm::IRBuilder<> b(&shift);
  shift.setOperand(1, llvm::isPowerOf2_32(bits)
                          ? b.CreateAnd(n, llvm::ConstantInt::get(t, bits - 1), "count.masked")
                          : b.CreateURem(n, llvm::ConstantInt::get(t, bits), "count.masked"));
}

}  // namespace

void makeArithmeticTrapFree(llvm::Module& m) {
  const llvm::DataLayout& dl = m.getDataLayout();
  for (llvm::Function& f : m) {
    std::vector<llvm::BinaryOperator*> divisions, shifts;
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb)
        if (auto* bo = llvm::dyn_cast<llvm::BinaryOperator>(&i)) {
          if (bo->isIntDivRem()) divisions.push_back(bo);
          if (bo->isShift()) shifts.push_back(bo);
        }
    for (llvm::BinaryOperator* div : divisions) guardDivision(*div, dl);
    for (llvm::BinaryOperator* shift : shifts) maskShiftCount(*shift, dl);
  }
}

bool isTrapFreeDivision(const llvm::Instruction& i) {
  const auto* div = llvm::dyn_cast<llvm::BinaryOperator>(&i);
  if (div == nullptr || !div->isIntDivRem()) return true;
  return div->getMetadata(kTrapFreeMetadata) != nullptr || constantDivisorIsSafe(*div);
}

}  // namespace tessera::backends::cpu::jit
