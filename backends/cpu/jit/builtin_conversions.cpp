#include "backends/cpu/jit/builtin_conversions.h"

#include <llvm/IR/Intrinsics.h>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

// Rounds a float to an integral float by the conversion's mode: "the default rounding mode for
// conversions to integer is _rtz".
llvm::Value* roundFloat(llvm::IRBuilder<>& b, llvm::Value* v, llvm::StringRef name) {
  llvm::Intrinsic::ID id = llvm::Intrinsic::trunc;
  if (name.endswith("_rte")) id = llvm::Intrinsic::rint;  // nearest even under the default FP mode
  else if (name.endswith("_rtp")) id = llvm::Intrinsic::ceil;
  else if (name.endswith("_rtn")) id = llvm::Intrinsic::floor;
  return b.CreateUnaryIntrinsic(id, v);
}

// An integer converted with saturation: extended to 128 bits, clamped to the result's range.
llvm::Value* saturateInt(llvm::IRBuilder<>& b, llvm::Value* v, bool srcSigned, bool dstSigned,
                         llvm::Type* result) {
  llvm::Type* wideScalar = b.getIntNTy(128);
  llvm::Type* wide = result->isVectorTy()
                         ? llvm::VectorType::get(wideScalar,
                                                 llvm::cast<llvm::VectorType>(result)->getElementCount())
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

llvm::Value* lowerConversion(llvm::IRBuilder<>& b, llvm::CallInst* call, llvm::StringRef base) {
  // The unmangled name carries the suffixes: "__spirv_ConvertFToS_Rint4_rte".
  llvm::StringRef name = spirvBaseName(call->getCalledFunction()->getName());
  llvm::Value* v = call->getArgOperand(0);
  llvm::Type* result = call->getType();
  bool sat = base.startswith("__spirv_Sat") || name.contains("_sat");
  if (base == "__spirv_ConvertFToS" || base == "__spirv_ConvertFToU") {
    bool toSigned = base == "__spirv_ConvertFToS";
    v = roundFloat(b, v, name);
    // fptosi.sat / fptoui.sat clamp to the range and give 0 for NaN, as OpenCL's _sat requires.
    if (sat)
      return b.CreateIntrinsic(toSigned ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat,
                               {result, v->getType()}, {v});
    return toSigned ? b.CreateFPToSI(v, result) : b.CreateFPToUI(v, result);
  }
  if (base == "__spirv_ConvertSToF") return b.CreateSIToFP(v, result);
  if (base == "__spirv_ConvertUToF") return b.CreateUIToFP(v, result);
  if (base == "__spirv_FConvert") return b.CreateFPCast(v, result);
  bool srcSigned = base == "__spirv_SConvert" || base == "__spirv_SatConvertSToU";
  bool dstSigned = base == "__spirv_SConvert" || base == "__spirv_SatConvertUToS";
  if (sat) return saturateInt(b, v, srcSigned, dstSigned, result);
  return b.CreateIntCast(v, result, srcSigned);
}

}  // namespace tessera::backends::cpu::jit
