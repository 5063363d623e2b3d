// Integer functions (OpenCL C 1.2, 6.12.3) on every integer type and vector width: intrinsics and
// plain arithmetic, results exact. s_ and u_ name the signed and unsigned forms (SPIR-V integers
// carry no sign).
#include <llvm/IR/Constants.h>

#include "backends/cpu/jit/builtin_lowering.h"

namespace tessera::backends::cpu::jit::builtins {
namespace {

// `t` with lanes twice as wide (i32 x 4 -> i64 x 4).
llvm::Type* doubleWidth(llvm::Type* t) {
  return shapeOf(t, llvm::IntegerType::get(t->getContext(), 2 * t->getScalarSizeInBits()));
}

llvm::Value* extend(Builder& b, llvm::Value* v, llvm::Type* t, bool isSigned) {
  return isSigned ? b.CreateSExt(v, t) : b.CreateZExt(v, t);
}

// The high half of the double-width product.
llvm::Value* mulHi(Builder& b, llvm::Value* x, llvm::Value* y, bool isSigned) {
  llvm::Type* t = x->getType();
  llvm::Type* wide = doubleWidth(t);
  llvm::Value* p = b.CreateMul(extend(b, x, wide, isSigned), extend(b, y, wide, isSigned));
  return b.CreateTrunc(b.CreateLShr(p, t->getScalarSizeInBits()), t);
}

// v clamped to the range of `narrow` (signed or not) and truncated to it.
llvm::Value* saturate(Builder& b, llvm::Value* v, llvm::Type* narrow, bool isSigned) {
  llvm::Type* wide = v->getType();
  unsigned bits = narrow->getScalarSizeInBits();
  unsigned wideBits = wide->getScalarSizeInBits();
  llvm::APInt lo = isSigned ? llvm::APInt::getSignedMinValue(bits).sext(wideBits)
                            : llvm::APInt::getMinValue(wideBits);
  llvm::APInt hi = isSigned ? llvm::APInt::getSignedMaxValue(bits).sext(wideBits)
                            : llvm::APInt::getMaxValue(bits).zext(wideBits);
  llvm::Intrinsic::ID max = isSigned ? llvm::Intrinsic::smax : llvm::Intrinsic::umax;
  llvm::Intrinsic::ID min = isSigned ? llvm::Intrinsic::smin : llvm::Intrinsic::umin;
  v = binary(b, max, v, llvm::ConstantInt::get(wide, lo));
  v = binary(b, min, v, llvm::ConstantInt::get(wide, hi));
  return b.CreateTrunc(v, narrow);
}

// (x + y) >> 1 without overflow, rounded down (hadd) or up (rhadd): the halves plus the carry of
// the low bits.
llvm::Value* halfAdd(Builder& b, llvm::Value* x, llvm::Value* y, bool isSigned, bool roundUp) {
  llvm::Type* t = x->getType();
  llvm::Value* one = llvm::ConstantInt::get(t, 1);
  llvm::Value* hx = isSigned ? b.CreateAShr(x, one) : b.CreateLShr(x, one);
  llvm::Value* hy = isSigned ? b.CreateAShr(y, one) : b.CreateLShr(y, one);
  llvm::Value* low = roundUp ? b.CreateOr(x, y) : b.CreateAnd(x, y);
  return b.CreateAdd(b.CreateAdd(hx, hy), b.CreateAnd(low, one));
}

}  // namespace

void addIntegerBuiltins(Table& m) {
  auto intr = [&](const char* name, llvm::Intrinsic::ID id) {
    m[name] = [id](Builder& b, llvm::CallInst*, const Args& a) {
      return intrinsic(b, id, uniform(b, a));
    };
  };
  intr("__spirv_ocl_s_max", llvm::Intrinsic::smax);
  intr("__spirv_ocl_u_max", llvm::Intrinsic::umax);
  intr("__spirv_ocl_s_min", llvm::Intrinsic::smin);
  intr("__spirv_ocl_u_min", llvm::Intrinsic::umin);
  intr("__spirv_ocl_s_add_sat", llvm::Intrinsic::sadd_sat);
  intr("__spirv_ocl_u_add_sat", llvm::Intrinsic::uadd_sat);
  intr("__spirv_ocl_s_sub_sat", llvm::Intrinsic::ssub_sat);
  intr("__spirv_ocl_u_sub_sat", llvm::Intrinsic::usub_sat);
  intr("__spirv_ocl_popcount", llvm::Intrinsic::ctpop);
  intr("__spirv_BitCount", llvm::Intrinsic::ctpop);
  intr("__spirv_BitReverse", llvm::Intrinsic::bitreverse);
  // abs returns the unsigned type: abs(INT_MIN) is 2^31, the same bits.
  m["__spirv_ocl_s_abs"] = [](Builder& b, llvm::CallInst*, const Args& a) {
    return b.CreateIntrinsic(llvm::Intrinsic::abs, {a[0]->getType()}, {a[0], b.getFalse()});
  };
  m["__spirv_ocl_u_abs"] = [](Builder&, llvm::CallInst*, const Args& a) { return a[0]; };
  // abs_diff: |x - y| "without modulo overflow", unsigned: max - min, which fits the unsigned type.
  for (bool isSigned : {true, false}) {
    m[isSigned ? "__spirv_ocl_s_abs_diff" : "__spirv_ocl_u_abs_diff"] =
        [isSigned](Builder& b, llvm::CallInst*, const Args& a) {
          llvm::Value* hi =
              binary(b, isSigned ? llvm::Intrinsic::smax : llvm::Intrinsic::umax, a[0], a[1]);
          llvm::Value* lo =
              binary(b, isSigned ? llvm::Intrinsic::smin : llvm::Intrinsic::umin, a[0], a[1]);
          return b.CreateSub(hi, lo);
        };
    const char* s = isSigned ? "s" : "u";
    m[std::string("__spirv_ocl_") + s + "_hadd"] = [isSigned](Builder& b, llvm::CallInst*,
                                                              const Args& a) {
      return halfAdd(b, a[0], a[1], isSigned, false);
    };
    m[std::string("__spirv_ocl_") + s + "_rhadd"] = [isSigned](Builder& b, llvm::CallInst*,
                                                               const Args& a) {
      return halfAdd(b, a[0], a[1], isSigned, true);
    };
    m[std::string("__spirv_ocl_") + s + "_mul_hi"] = [isSigned](Builder& b, llvm::CallInst*,
                                                                const Args& a) {
      return mulHi(b, a[0], a[1], isSigned);
    };
    m[std::string("__spirv_ocl_") + s + "_mad_hi"] = [isSigned](Builder& b, llvm::CallInst*,
                                                                const Args& a) {
      return b.CreateAdd(mulHi(b, a[0], a[1], isSigned), a[2]);
    };
    // mad_sat: a * b + c saturated. In twice the width the product and the sum are exact:
    // |a * b| <= 2^(2n-2) and c < 2^(n-1) signed; a * b + c <= 2^2n - 2^n unsigned.
    m[std::string("__spirv_ocl_") + s + "_mad_sat"] = [isSigned](Builder& b, llvm::CallInst*,
                                                                 const Args& a) {
      llvm::Type* t = a[0]->getType();
      llvm::Type* wide = doubleWidth(t);
      llvm::Value* p =
          b.CreateMul(extend(b, a[0], wide, isSigned), extend(b, a[1], wide, isSigned));
      return saturate(b, b.CreateAdd(p, extend(b, a[2], wide, isSigned)), t, isSigned);
    };
    // upsample(hi, lo) = ((wide)hi << n) | lo: the extension of hi is shifted out either way.
    m[std::string("__spirv_ocl_") + s + "_upsample"] = [](Builder& b, llvm::CallInst* c,
                                                          const Args& a) {
      llvm::Type* wide = c->getType();
      llvm::Value* hi = b.CreateZExt(a[0], wide);
      llvm::Value* lo = b.CreateZExt(a[1], wide);
      return b.CreateOr(b.CreateShl(hi, a[0]->getType()->getScalarSizeInBits()), lo);
    };
    // clamp(x, minval, maxval) = min(max(x, minval), maxval).
    m[std::string("__spirv_ocl_") + s + "_clamp"] = [isSigned](Builder& b, llvm::CallInst*,
                                                               const Args& args) {
      Args a = uniform(b, args);
      llvm::Value* x =
          binary(b, isSigned ? llvm::Intrinsic::smax : llvm::Intrinsic::umax, a[0], a[1]);
      return binary(b, isSigned ? llvm::Intrinsic::smin : llvm::Intrinsic::umin, x, a[2]);
    };
  }
  m["__spirv_ocl_clz"] = [](Builder& b, llvm::CallInst*, const Args& a) {
    return b.CreateIntrinsic(llvm::Intrinsic::ctlz, {a[0]->getType()}, {a[0], b.getFalse()});
  };
  m["__spirv_ocl_ctz"] = [](Builder& b, llvm::CallInst*, const Args& a) {
    return b.CreateIntrinsic(llvm::Intrinsic::cttz, {a[0]->getType()}, {a[0], b.getFalse()});
  };
  // rotate(v, i): "bits shifted off the left side of the element are shifted back in from the
  // right", the count taken modulo the width (as fshl does).
  m["__spirv_ocl_rotate"] = [](Builder& b, llvm::CallInst*, const Args& args) {
    Args a = uniform(b, args);
    return b.CreateIntrinsic(llvm::Intrinsic::fshl, {a[0]->getType()}, {a[0], a[0], a[1]});
  };
  // mul24 / mad24: "x and y are 24-bit integers"; outside that range the result is
  // implementation-defined, here the full 32-bit product.
  for (const char* n : {"__spirv_ocl_s_mad24", "__spirv_ocl_u_mad24"}) {
    m[n] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return b.CreateAdd(b.CreateMul(a[0], a[1]), a[2]);
    };
  }
  for (const char* n : {"__spirv_ocl_s_mul24", "__spirv_ocl_u_mul24"}) {
    m[n] = [](Builder& b, llvm::CallInst*, const Args& a) { return b.CreateMul(a[0], a[1]); };
  }
}

}  // namespace tessera::backends::cpu::jit::builtins
