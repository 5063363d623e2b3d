// OpenCL C conversions that the translator leaves as calls: those with a rounding mode
// (convert_int4_rte, convert_float_rtz) or saturation (convert_uchar4_sat), e.g.
// __spirv_ConvertFToS_Rint4_rte or __spirv_SatConvertSToU_Ruchar4. Plain conversions arrive as
// LLVM instructions already. Also the directed roundings vstore_half_r needs.
#pragma once

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

namespace tessera::backends::cpu::jit {

// The SPIR-V names (without the _R<type> and mode suffixes) lowerConversion handles.
inline constexpr const char* kConversionBuiltins[] = {
    "__spirv_ConvertFToS", "__spirv_ConvertFToU",    "__spirv_ConvertSToF",
    "__spirv_ConvertUToF", "__spirv_SConvert",       "__spirv_UConvert",
    "__spirv_FConvert",    "__spirv_SatConvertSToU", "__spirv_SatConvertUToS"};

// Replaces nothing itself: returns the converted value of `call`'s argument. `base` is the name
// without suffixes (one of kConversionBuiltins); the mode and saturation come from the full name.
llvm::Value* lowerConversion(llvm::IRBuilder<>& b, llvm::CallInst* call, llvm::StringRef base);

// SPIR-V's FPRoundingMode values.
enum class Rounding : unsigned { kNearestEven = 0, kTowardZero = 1, kUp = 2, kDown = 3 };

// A floating-point value (scalar or vector) rounded to the narrower floating-point `result` type
// (double -> float, float -> half, double -> half) by `mode`, exactly as one correct rounding.
llvm::Value* narrowFloat(llvm::IRBuilder<>& b, llvm::Value* v, llvm::Type* result, Rounding mode);

}  // namespace tessera::backends::cpu::jit
