// Relational instructions (isnan, isinf, isfinite, isnormal, signbit, isordered, isunordered,
// islessgreater, any, all) and bitselect / select.
//
// They return i1 (or <n x i1>) here. The translator carries a vector of booleans as <n x i8>
// (`trunc` to <n x i1> after the call, `sext` from it before any/all): lowerBuiltins sign-extends
// the result to the call's type, and any/all read a lane as true when it is not zero. OpenCL C's
// -1/0 per lane (int for float, long for double) and 1/0 for scalars are the selects the
// translator writes after the call.
#include <llvm/IR/Constants.h>

#include "backends/cpu/jit/builtin_lowering.h"

namespace tessera::backends::cpu::jit::builtins {
namespace {

// A boolean the translator may carry as an integer wider than i1: true when not zero.
llvm::Value* truth(Builder& b, llvm::Value* v) {
  if (v->getType()->isIntOrIntVectorTy(1)) return v;
  return b.CreateICmpNE(v, llvm::Constant::getNullValue(v->getType()));
}

}  // namespace

void addRelationalBuiltins(Table& m) {
  m["__spirv_IsNan"] = [](Builder& b, llvm::CallInst*, const Args& a) {
    return b.CreateFCmpUNO(a[0], a[0]);
  };
  m["__spirv_IsInf"] = [](Builder& b, llvm::CallInst*, const Args& a) { return isInf(b, a[0]); };
  m["__spirv_IsFinite"] = [](Builder& b, llvm::CallInst*, const Args& a) {
    return isFinite(b, a[0]);
  };
  m["__spirv_IsNormal"] = [](Builder& b, llvm::CallInst*, const Args& a) {
    llvm::Type* t = a[0]->getType();
    llvm::Value* x = unary(b, llvm::Intrinsic::fabs, a[0]);
    const llvm::fltSemantics& sem = t->getScalarType()->getFltSemantics();
    llvm::Value* minNormal = llvm::ConstantFP::get(t, llvm::APFloat::getSmallestNormalized(sem));
    return b.CreateAnd(b.CreateFCmpOGE(x, minNormal),
                       b.CreateFCmpOLT(x, llvm::ConstantFP::getInfinity(t)));
  };
  m["__spirv_SignBitSet"] = [](Builder& b, llvm::CallInst*, const Args& a) {
    return signBit(b, a[0]);
  };
  m["__spirv_Ordered"] = [](Builder& b, llvm::CallInst*, const Args& a) {
    return b.CreateFCmpORD(a[0], a[1]);
  };
  m["__spirv_Unordered"] = [](Builder& b, llvm::CallInst*, const Args& a) {
    return b.CreateFCmpUNO(a[0], a[1]);
  };
  m["__spirv_LessOrGreater"] = [](Builder& b, llvm::CallInst*, const Args& a) {
    return b.CreateFCmpONE(a[0], a[1]);
  };
  // The comparisons, which the translator's reader gives as instructions (fcmp) but its IR passes
  // leave as calls of OpenCL's result type for isequal, isgreater, ... (Tessera IR,
  // spirv/friendly_ir.h): a scalar's 1, a vector lane's -1 (asCallType).
  using P = llvm::CmpInst::Predicate;
  const std::pair<const char*, P> comparisons[] = {
      {"__spirv_FOrdEqual", P::FCMP_OEQ},        {"__spirv_FOrdNotEqual", P::FCMP_ONE},
      {"__spirv_FOrdLessThan", P::FCMP_OLT},     {"__spirv_FOrdGreaterThan", P::FCMP_OGT},
      {"__spirv_FOrdLessThanEqual", P::FCMP_OLE}, {"__spirv_FOrdGreaterThanEqual", P::FCMP_OGE},
      {"__spirv_FUnordEqual", P::FCMP_UEQ},      {"__spirv_FUnordNotEqual", P::FCMP_UNE},
      {"__spirv_FUnordLessThan", P::FCMP_ULT},   {"__spirv_FUnordGreaterThan", P::FCMP_UGT},
      {"__spirv_FUnordLessThanEqual", P::FCMP_ULE},
      {"__spirv_FUnordGreaterThanEqual", P::FCMP_UGE}};
  for (const auto& [name, predicate] : comparisons) {
    P p = predicate;
    m[name] = [p](Builder& b, llvm::CallInst*, const Args& a) {
      return b.CreateFCmp(p, a[0], a[1]);
    };
  }
  m["__spirv_Any"] = [](Builder& b, llvm::CallInst*, const Args& a) {
    llvm::Value* v = truth(b, a[0]);
    return v->getType()->isVectorTy() ? b.CreateOrReduce(v) : v;
  };
  m["__spirv_All"] = [](Builder& b, llvm::CallInst*, const Args& a) {
    llvm::Value* v = truth(b, a[0]);
    return v->getType()->isVectorTy() ? b.CreateAndReduce(v) : v;
  };
  // bitselect(a, b, c): "each bit of the result is the corresponding bit of a if the
  // corresponding bit of c is 0. Otherwise it is the corresponding bit of b."
  m["__spirv_ocl_bitselect"] = [](Builder& b, llvm::CallInst*, const Args& args) {
    Args a = uniform(b, args);
    llvm::Type* t = a[0]->getType();
    llvm::Type* it = t->isFPOrFPVectorTy() ? intShape(t) : t;
    llvm::Value* x = b.CreateBitCast(a[0], it);
    llvm::Value* y = b.CreateBitCast(a[1], it);
    llvm::Value* c = b.CreateBitCast(a[2], it);
    return b.CreateBitCast(b.CreateOr(b.CreateAnd(x, b.CreateNot(c)), b.CreateAnd(y, c)), t);
  };
  // select(a, b, c): "For each component of a vector type, result[i] = if MSB of c[i] is set ?
  // b[i] : a[i]. For a scalar type, result = c ? b : a."
  m["__spirv_ocl_select"] = [](Builder& b, llvm::CallInst*, const Args& a) {
    llvm::Value* c = a[2];
    llvm::Value* cond = c->getType()->isVectorTy()
                            ? b.CreateICmpSLT(c, llvm::Constant::getNullValue(c->getType()))
                            : b.CreateICmpNE(c, llvm::Constant::getNullValue(c->getType()));
    return b.CreateSelect(cond, a[1], a[0]);
  };
}

}  // namespace tessera::backends::cpu::jit::builtins
