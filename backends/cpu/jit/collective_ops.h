// The operations of collectives, by the name SPIR-V's Group* and GroupNonUniform* instructions
// carry after their prefix ("IAdd", "FMin", "BitwiseXor", "LogicalAnd", "All", ...): each one's
// identity and how two values combine. Shared by the work-group collectives
// (workgroup_collectives.cpp) and the sub-group ones (subgroup_collectives.cpp).
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>

namespace tessera::backends::cpu::jit {

inline llvm::Value* identity(llvm::Type* t, llvm::StringRef op) {
  unsigned bits = t->getScalarSizeInBits();
  if (op == "IAdd" || op == "FAdd" || op == "BitwiseOr" || op == "BitwiseXor" ||
      op == "LogicalOr" || op == "LogicalXor" || op == "UMax" || op == "Any")
    return llvm::Constant::getNullValue(t);
  if (op.startswith("IMul")) return llvm::ConstantInt::get(t, 1);
  if (op.startswith("FMul")) return llvm::ConstantFP::get(t, 1.0);
  if (op == "BitwiseAnd" || op == "LogicalAnd" || op == "All" || op == "UMin")
    return llvm::Constant::getAllOnesValue(t);
  if (op == "FMin") return llvm::ConstantFP::getInfinity(t, false);
  if (op == "FMax") return llvm::ConstantFP::getInfinity(t, true);
  if (op == "SMin") return llvm::ConstantInt::get(t, llvm::APInt::getSignedMaxValue(bits));
  if (op == "SMax") return llvm::ConstantInt::get(t, llvm::APInt::getSignedMinValue(bits));
  return llvm::Constant::getNullValue(t);
}

// How two values of the operation combine (half min/max: see half_min_max.cpp).
inline llvm::Value* combine(llvm::IRBuilder<>& b, llvm::StringRef op, llvm::Value* x,
                            llvm::Value* y) {
  if (op == "IAdd") return b.CreateAdd(x, y);
  if (op == "FAdd") return b.CreateFAdd(x, y);
  if (op.startswith("IMul")) return b.CreateMul(x, y);
  if (op.startswith("FMul")) return b.CreateFMul(x, y);
  if (op == "BitwiseAnd" || op == "LogicalAnd" || op == "All") return b.CreateAnd(x, y);
  if (op == "BitwiseOr" || op == "LogicalOr" || op == "Any") return b.CreateOr(x, y);
  if (op == "BitwiseXor" || op == "LogicalXor") return b.CreateXor(x, y);
  llvm::Intrinsic::ID id = op == "FMin"   ? llvm::Intrinsic::minnum
                           : op == "FMax" ? llvm::Intrinsic::maxnum
                           : op == "UMin" ? llvm::Intrinsic::umin
                           : op == "UMax" ? llvm::Intrinsic::umax
                           : op == "SMin" ? llvm::Intrinsic::smin
                                          : llvm::Intrinsic::smax;
  return b.CreateBinaryIntrinsic(id, x, y);
}

}  // namespace tessera::backends::cpu::jit
