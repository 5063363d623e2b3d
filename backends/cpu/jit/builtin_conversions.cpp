#include "backends/cpu/jit/builtin_conversions.h"

#include <llvm/IR/Intrinsics.h>

#include <cmath>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

using Builder = llvm::IRBuilder<>;

// The mode a conversion's name asks for: "__spirv_ConvertSToF_Rfloat4_rtp" -> kUp.
Rounding roundingOf(llvm::StringRef name, Rounding fallback) {
  if (name.endswith("_rte")) return Rounding::kNearestEven;
  if (name.endswith("_rtz")) return Rounding::kTowardZero;
  if (name.endswith("_rtp")) return Rounding::kUp;
  if (name.endswith("_rtn")) return Rounding::kDown;
  return fallback;
}

llvm::Type* intShape(llvm::Type* t) {
  llvm::Type* scalar = llvm::IntegerType::get(t->getContext(), t->getScalarSizeInBits());
  if (auto* vt = llvm::dyn_cast<llvm::VectorType>(t))
    return llvm::VectorType::get(scalar, vt->getElementCount());
  return scalar;
}

// Rounds a float to an integral float by the conversion's mode: "the default rounding mode for
// conversions to integer is _rtz".
llvm::Value* roundFloat(Builder& b, llvm::Value* v, llvm::StringRef name) {
  llvm::Intrinsic::ID id = llvm::Intrinsic::trunc;
  switch (roundingOf(name, Rounding::kTowardZero)) {
    case Rounding::kNearestEven:
      id = llvm::Intrinsic::rint;  // nearest even under the default FP mode
      break;
    case Rounding::kUp:
      id = llvm::Intrinsic::ceil;
      break;
    case Rounding::kDown:
      id = llvm::Intrinsic::floor;
      break;
    case Rounding::kTowardZero:
      break;
  }
  return b.CreateUnaryIntrinsic(id, v);
}

// `r`, the round-to-nearest-even result of converting an exact value x, moved to the result `mode`
// asks for. `above` / `below` say per lane whether r > x / r < x; the directed result is then r's
// neighbour toward x. Floats are sign-magnitude, so the neighbour away from zero has r's bits + 1
// and the one toward zero bits - 1. (r is never a zero that would have to cross zero: a zero
// rounded to nearest has x's sign, and x beyond it in magnitude.)
llvm::Value* direct(Builder& b, llvm::Value* r, llvm::Value* above, llvm::Value* below,
                    Rounding mode) {
  if (mode == Rounding::kNearestEven) return r;
  llvm::Type* it = intShape(r->getType());
  llvm::Value* bits = b.CreateBitCast(r, it);
  llvm::Value* negative = b.CreateICmpSLT(bits, llvm::Constant::getNullValue(it));
  llvm::Value* shrink = nullptr;  // |r| too big: one step toward zero
  llvm::Value* grow = nullptr;    // |r| too small: one step away from zero
  switch (mode) {
    case Rounding::kTowardZero:
      shrink = b.CreateSelect(negative, below, above);
      grow = llvm::ConstantInt::getFalse(above->getType());
      break;
    case Rounding::kUp:
      shrink = b.CreateAnd(below, negative);
      grow = b.CreateAnd(below, b.CreateNot(negative));
      break;
    default:  // kDown
      shrink = b.CreateAnd(above, b.CreateNot(negative));
      grow = b.CreateAnd(above, negative);
      break;
  }
  llvm::Value* one = llvm::ConstantInt::get(it, 1);
  bits = b.CreateSelect(shrink, b.CreateSub(bits, one),
                        b.CreateSelect(grow, b.CreateAdd(bits, one), bits));
  return b.CreateBitCast(bits, r->getType());
}

// An integer converted to floating point by `mode`. sitofp / uitofp round to nearest even; the
// comparison with the exact value is done on integers: r converted back is exact, except when r is
// 2^bits (unsigned) or 2^(bits-1) (signed), which is above every value of the source type, or an
// infinity (half results: beyond 65504 either way).
llvm::Value* intToFloat(Builder& b, llvm::Value* v, llvm::Type* result, bool isSigned,
                        Rounding mode) {
  llvm::Value* r = isSigned ? b.CreateSIToFP(v, result) : b.CreateUIToFP(v, result);
  unsigned bits = v->getType()->getScalarSizeInBits();
  unsigned precision =
      llvm::APFloat::semanticsPrecision(result->getScalarType()->getFltSemantics());
  if (mode == Rounding::kNearestEven || bits - (isSigned ? 1 : 0) <= precision) return r;
  llvm::Value* limit =
      llvm::ConstantFP::get(result, std::ldexp(1.0, int(bits - (isSigned ? 1 : 0))));
  llvm::Value* outside = b.CreateFCmpOGE(r, limit);
  // A half overflows below the source's range too (-70000 -> -inf): every source value is above.
  llvm::Value* under = b.CreateFCmpOEQ(r, llvm::ConstantFP::getInfinity(result, /*Negative=*/true));
  llvm::Type* it = v->getType();
  llvm::Value* back = b.CreateFreeze(isSigned ? b.CreateFPToSI(r, it) : b.CreateFPToUI(r, it));
  llvm::Value* inRange = b.CreateNot(b.CreateOr(outside, under));
  llvm::Value* above = b.CreateOr(
      outside,
      b.CreateAnd(inRange, isSigned ? b.CreateICmpSGT(back, v) : b.CreateICmpUGT(back, v)));
  llvm::Value* below = b.CreateOr(
      under, b.CreateAnd(inRange, isSigned ? b.CreateICmpSLT(back, v) : b.CreateICmpULT(back, v)));
  return direct(b, r, above, below, mode);
}

// One floating-point rounding to a narrower type; widening back is exact, so the comparison is.
llvm::Value* narrowOnce(Builder& b, llvm::Value* v, llvm::Type* result, Rounding mode) {
  llvm::Value* r = b.CreateFPTrunc(v, result);
  if (mode == Rounding::kNearestEven) return r;
  llvm::Value* back = b.CreateFPExt(r, v->getType());
  return direct(b, r, b.CreateFCmpOGT(back, v), b.CreateFCmpOLT(back, v), mode);
}

// double -> float rounded to odd (toward zero, the last bit set when inexact), for a further
// rounding to half: rounding to odd at 24 bits, then once more to half's 11 by any mode, gives the
// correctly rounded half (Boldo and Melquiond, "Emulation of FMA and correctly rounded sums:
// proved algorithms using rounding to odd", 2008; it needs 24 >= 11 + 2).
//
// Done on the double's bits, so that the code stays shallow (the comparisons of a rounding and a
// directed fix-up, twice, made LLVM's instruction selection take minutes on the 48-lane vectors
// of a widened vstore_half3_rtz(double3)): the 29 bits below float's last one are jammed into it
// (or-ed in as a sticky bit and cleared), which leaves a value float holds exactly within float's
// normal range. Outside it only the sign and the side of half's range matter: finite magnitudes
// above 2^20 become 2^20 (every mode then gives what it gives for an overflow), nonzero ones below
// 2^-40 become 2^-40 (below half's smallest denormal, away from its rounding boundaries).
llvm::Value* narrowToOddForHalf(Builder& b, llvm::Value* v, llvm::Type* result) {
  llvm::Type* it = intShape(v->getType());
  llvm::Value* bits = b.CreateBitCast(v, it);
  const uint64_t below = (uint64_t{1} << 29) - 1;
  llvm::Value* sticky = b.CreateICmpNE(b.CreateAnd(bits, llvm::ConstantInt::get(it, below)),
                                       llvm::Constant::getNullValue(it));
  llvm::Value* jammed = b.CreateOr(b.CreateAnd(bits, llvm::ConstantInt::get(it, ~below)),
                                   b.CreateShl(b.CreateZExt(sticky, it), 29));
  llvm::Value* j = b.CreateBitCast(jammed, v->getType());
  llvm::Type* t = v->getType();
  llvm::Value* a = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v);
  llvm::Value* big = b.CreateAnd(b.CreateFCmpOGT(a, llvm::ConstantFP::get(t, 0x1p20)),
                                 b.CreateFCmpOLT(a, llvm::ConstantFP::getInfinity(t)));
  llvm::Value* tiny = b.CreateAnd(b.CreateFCmpOLT(a, llvm::ConstantFP::get(t, 0x1p-40)),
                                  b.CreateFCmpOGT(a, llvm::ConstantFP::get(t, 0.0)));
  auto signed_ = [&](double m) {
    return b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, llvm::ConstantFP::get(t, m), v);
  };
  j = b.CreateSelect(big, signed_(0x1p20), b.CreateSelect(tiny, signed_(0x1p-40), j));
  return b.CreateFPTrunc(j, result);  // exact
}

// An integer converted with saturation: extended to 128 bits, clamped to the result's range.
llvm::Value* saturateInt(Builder& b, llvm::Value* v, bool srcSigned, bool dstSigned,
                         llvm::Type* result) {
  llvm::Type* wideScalar = b.getIntNTy(128);
  llvm::Type* wide = result->isVectorTy()
                         ? llvm::VectorType::get(
                               wideScalar, llvm::cast<llvm::VectorType>(result)->getElementCount())
                         : wideScalar;
  llvm::Value* x = srcSigned ? b.CreateSExt(v, wide) : b.CreateZExt(v, wide);
  unsigned bits = result->getScalarSizeInBits();
  llvm::APInt lo = dstSigned ? llvm::APInt::getSignedMinValue(bits).sext(128)
                             : llvm::APInt::getMinValue(bits).zext(128);
  llvm::APInt hi = dstSigned ? llvm::APInt::getSignedMaxValue(bits).sext(128)
                             : llvm::APInt::getMaxValue(bits).zext(128);
  llvm::Value* loV = llvm::ConstantInt::get(wide, lo);
  llvm::Value* hiV = llvm::ConstantInt::get(wide, hi);
  x = b.CreateSelect(b.CreateICmpSLT(x, loV), loV, x);
  x = b.CreateSelect(b.CreateICmpSGT(x, hiV), hiV, x);
  return b.CreateTrunc(x, result);
}

}  // namespace

llvm::Value* narrowFloat(Builder& b, llvm::Value* v, llvm::Type* result, Rounding mode) {
  llvm::Type* from = v->getType()->getScalarType();
  if (from->isDoubleTy() && result->getScalarType()->isHalfTy()) {
    llvm::Type* f32 = llvm::Type::getFloatTy(b.getContext());
    if (auto* vt = llvm::dyn_cast<llvm::VectorType>(result))
      f32 = llvm::VectorType::get(f32, vt->getElementCount());
    // NaN stays NaN through both steps; infinities and overflow are decided by the second.
    v = narrowToOddForHalf(b, v, f32);
  }
  return narrowOnce(b, v, result, mode);
}

llvm::Value* lowerConversion(Builder& b, llvm::CallInst* call, llvm::StringRef base) {
  // The unmangled name carries the suffixes: "__spirv_ConvertFToS_Rint4_rte".
  llvm::StringRef name = spirvBaseName(call->getCalledFunction()->getName());
  llvm::Value* v = call->getArgOperand(0);
  llvm::Type* result = call->getType();
  bool sat = base.startswith("__spirv_Sat") || name.contains("_sat");
  if (base == "__spirv_ConvertFToS" || base == "__spirv_ConvertFToU") {
    bool toSigned = base == "__spirv_ConvertFToS";
    v = roundFloat(b, v, name);
    // fptosi.sat / fptoui.sat clamp to the range and give 0 for NaN, as OpenCL's _sat requires.
    if (sat) {
      // From float when the source is half (exact): on x86 with AVX-512 (no FP16), LLVM 15
      // lowers fptosi.sat of half vectors to 16-bit integers so that a NaN gives -32768, not 0.
      if (v->getType()->getScalarType()->isHalfTy()) {
        llvm::Type* f32 = b.getFloatTy();
        if (auto* vt = llvm::dyn_cast<llvm::VectorType>(v->getType()))
          f32 = llvm::VectorType::get(f32, vt->getElementCount());
        v = b.CreateFPExt(v, f32);
      }
      return b.CreateIntrinsic(toSigned ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat,
                               {result, v->getType()}, {v});
    }
    return toSigned ? b.CreateFPToSI(v, result) : b.CreateFPToUI(v, result);
  }
  // OpenCL C 1.2, 6.2.3.2: "Conversions to floating-point type shall conform to IEEE-754 rounding
  // rules"; the default mode for them is _rte, and _rtz, _rtp, _rtn round as IEEE-754 directs.
  Rounding mode = roundingOf(name, Rounding::kNearestEven);
  if (base == "__spirv_ConvertSToF" || base == "__spirv_ConvertUToF")
    return intToFloat(b, v, result, base == "__spirv_ConvertSToF", mode);
  if (base == "__spirv_FConvert") {
    if (result->getScalarSizeInBits() < v->getType()->getScalarSizeInBits())
      return narrowFloat(b, v, result, mode);
    return b.CreateFPCast(v, result);  // widening is exact
  }
  bool srcSigned = base == "__spirv_SConvert" || base == "__spirv_SatConvertSToU";
  bool dstSigned = base == "__spirv_SConvert" || base == "__spirv_SatConvertUToS";
  if (sat) return saturateInt(b, v, srcSigned, dstSigned, result);
  return b.CreateIntCast(v, result, srcSigned);
}

}  // namespace tessera::backends::cpu::jit
