// Math functions (OpenCL C 1.2, 6.12.2) for float and double, scalar and vector: LLVM intrinsics
// where LLVM has one, the C library's functions otherwise (glibc's are within the spec's ULP
// bounds, section 7.4), and IR of their own for what C lacks or defines otherwise (pown, rootn,
// powr, ilogb, maxmag, minmag, nan). The pi functions are in builtin_math_pi.cpp.
//
// half_ and native_ functions are the full-precision ones (the spec's 8192-ulp and
// implementation-defined bounds allow it).
#include <llvm/IR/Constants.h>

#include <climits>

#include "backends/cpu/jit/builtin_lowering.h"

namespace tessera::backends::cpu::jit::builtins {
namespace {

using llvm::Intrinsic::ID;

// pown(x, n): x to an integer power. In double, n is exact (a float cannot hold every int: pown(-1,
// 2147483647) must keep the odd exponent's sign) and so is a float x; one rounding to float after.
llvm::Value* pown(Builder& b, llvm::Value* x, llvm::Value* n) {
  llvm::Value* xd = toDouble(b, x);
  n = splatTo(b, n, x->getType());
  llvm::Value* nd = b.CreateSIToFP(n, xd->getType());
  return fromDouble(b, binary(b, llvm::Intrinsic::pow, xd, nd), x->getType());
}

// rootn(x, n) = x^(1/n), in double. 1/n is not exact: the exponent is 1/n as a double-double
// (hi + lo, lo from the exact residual 1 - hi * n), and x^lo = 1 + lo * ln x to the last bit
// (|lo * ln x| < 2^-44), so the result is pow(x, hi) * (1 + lo * ln x), about 1.5 ulp.
// OpenCL C 1.2, 7.5.1: "rootn(±0, n) is ±∞ for odd n < 0. rootn(±0, n) is +∞ for even n < 0.
// rootn(±0, n) is +0 for even n > 0. rootn(±0, n) is ±0 for odd n > 0. rootn(x, n) returns a NaN
// for x < 0 and n is even. rootn(x, 0) returns a NaN."
llvm::Value* rootn(Builder& b, llvm::Value* x, llvm::Value* n) {
  llvm::Value* xd = toDouble(b, x);
  llvm::Type* t = xd->getType();
  n = splatTo(b, n, x->getType());
  llvm::Value* nd = b.CreateSIToFP(n, t);
  llvm::Value* ax = unary(b, llvm::Intrinsic::fabs, xd);
  llvm::Value* hi = b.CreateFDiv(fconst(t, 1.0), nd);
  llvm::Value* residual =
      b.CreateIntrinsic(llvm::Intrinsic::fma, {t}, {b.CreateFNeg(hi), nd, fconst(t, 1.0)});
  llvm::Value* lo = b.CreateFDiv(residual, nd);
  llvm::Value* p = binary(b, llvm::Intrinsic::pow, ax, hi);
  llvm::Value* e = b.CreateFMul(lo, unary(b, llvm::Intrinsic::log, ax));
  // x = 0, inf or NaN (e not finite) and p = 0 or inf: p is the answer.
  e = b.CreateSelect(isFinite(b, e), e, fconst(t, 0.0));
  llvm::Value* r =
      b.CreateSelect(isFinite(b, p), b.CreateIntrinsic(llvm::Intrinsic::fma, {t}, {p, e, p}), p);
  llvm::Value* zero = llvm::Constant::getNullValue(n->getType());
  llvm::Value* odd = b.CreateICmpNE(b.CreateAnd(n, llvm::ConstantInt::get(n->getType(), 1)), zero);
  r = b.CreateSelect(odd, binary(b, llvm::Intrinsic::copysign, r, xd), r);
  llvm::Value* nan = b.CreateOr(b.CreateICmpEQ(n, zero),
                                b.CreateAnd(b.CreateNot(odd), b.CreateFCmpOLT(xd, fconst(t, 0.0))));
  r = b.CreateSelect(nan, llvm::ConstantFP::getNaN(t), r);
  return fromDouble(b, r, x->getType());
}

// powr(x, y) = pow(x, y) for x >= 0, with its own special values (OpenCL C 1.2, 7.5.1):
// "powr(x, ±0) is 1 for finite x > 0. powr(±0, y) is +∞ for finite y < 0. powr(±0, -∞) is +∞.
// powr(±0, y) is +0 for y > 0. powr(+1, y) is 1 for finite y. powr(x, y) returns NaN for x < 0.
// powr(±0, ±0) returns NaN. powr(+∞, ±0) returns NaN. powr(+1, ±∞) returns NaN. powr(x, NaN)
// returns the NaN for x >= 0. powr(NaN, y) returns the NaN."
llvm::Value* powr(Builder& b, llvm::Value* x, llvm::Value* y) {
  llvm::Type* t = x->getType();
  llvm::Value* zero = fconst(t, 0.0);
  llvm::Value* r = binary(b, llvm::Intrinsic::pow, unary(b, llvm::Intrinsic::fabs, x), y);
  llvm::Value* yZero = b.CreateFCmpOEQ(y, zero);
  llvm::Value* nan = b.CreateFCmpULT(x, zero);  // also x or y NaN
  nan = b.CreateOr(nan, b.CreateFCmpUNO(y, y));
  nan = b.CreateOr(nan, b.CreateAnd(b.CreateFCmpOEQ(x, zero), yZero));
  nan = b.CreateOr(nan, b.CreateAnd(isInf(b, x), yZero));
  nan = b.CreateOr(nan, b.CreateAnd(b.CreateFCmpOEQ(x, fconst(t, 1.0)), isInf(b, y)));
  return b.CreateSelect(nan, llvm::ConstantFP::getNaN(t), r);
}

// ilogb(x): the unbiased exponent as an int. opencl-c-base.h: "#define FP_ILOGB0 INT_MIN",
// "#define FP_ILOGBNAN INT_MAX"; glibc's ilogb gives INT_MIN for a NaN on x86, INT_MAX for inf.
llvm::Value* ilogb(Builder& b, llvm::CallInst* c, llvm::Value* x) {
  const char* name = x->getType()->getScalarType()->isFloatTy() ? "ilogbf" : "ilogb";
  llvm::Value* r = libmCall(b, name, c->getType(), {x});
  return b.CreateSelect(b.CreateFCmpUNO(x, x), llvm::ConstantInt::get(c->getType(), INT_MAX), r);
}

// nan(nancode): "a quiet NaN. The nancode may be placed in the significand of the resulting
// NaN": the exponent all ones, the quiet bit, and nancode in the bits below it.
llvm::Value* nan(Builder& b, llvm::CallInst* c, llvm::Value* code) {
  llvm::Type* t = c->getType();
  llvm::Type* it = intShape(t);
  unsigned bits = t->getScalarSizeInBits();
  unsigned mantissa = llvm::APFloat::semanticsPrecision(t->getScalarType()->getFltSemantics()) - 1;
  uint64_t quiet = (~uint64_t{0} << (mantissa - 1)) & (~uint64_t{0} >> (64 - bits) >> 1);
  llvm::Value* payload =
      b.CreateAnd(b.CreateZExtOrTrunc(code, it), iconst(it, (uint64_t{1} << (mantissa - 1)) - 1));
  return b.CreateBitCast(b.CreateOr(payload, iconst(it, quiet)), t);
}

// maxmag: "x if |x| > |y|, y if |y| > |x|, otherwise fmax(x, y)"; minmag likewise with < and fmin.
llvm::Value* magnitude(Builder& b, llvm::Value* x, llvm::Value* y, bool max) {
  llvm::Value* ax = unary(b, llvm::Intrinsic::fabs, x);
  llvm::Value* ay = unary(b, llvm::Intrinsic::fabs, y);
  llvm::Value* xWins = max ? b.CreateFCmpOGT(ax, ay) : b.CreateFCmpOLT(ax, ay);
  llvm::Value* yWins = max ? b.CreateFCmpOGT(ay, ax) : b.CreateFCmpOLT(ay, ax);
  llvm::Value* tie = binary(b, max ? llvm::Intrinsic::maxnum : llvm::Intrinsic::minnum, x, y);
  return b.CreateSelect(xWins, x, b.CreateSelect(yWins, y, tie));
}

}  // namespace

void addMathBuiltins(Table& m) {
  auto intr = [&](const std::string& name, ID id) {
    m[name] = [id](Builder& b, llvm::CallInst*, const Args& a) {
      return intrinsic(b, id, uniform(b, a));
    };
  };
  auto call = [&](const std::string& name, const char* fn) {
    std::string f = fn;
    m[name] = [f](Builder& b, llvm::CallInst* c, const Args& a) {
      return libm(b, f, c->getType(), uniform(b, a));
    };
  };
  // Math with an LLVM intrinsic (also the native_ and half_ variants: same precision or better).
  for (const char* prefix : {"", "native_", "half_"}) {
    auto p = [&](const char* n) { return std::string("__spirv_ocl_") + prefix + n; };
    intr(p("sqrt"), llvm::Intrinsic::sqrt);
    intr(p("sin"), llvm::Intrinsic::sin);
    intr(p("cos"), llvm::Intrinsic::cos);
    intr(p("exp"), llvm::Intrinsic::exp);
    intr(p("exp2"), llvm::Intrinsic::exp2);
    intr(p("log"), llvm::Intrinsic::log);
    intr(p("log2"), llvm::Intrinsic::log2);
    intr(p("log10"), llvm::Intrinsic::log10);
    call(p("tan"), "tan");
    call(p("exp10"), "exp10");
    m[p("powr")] = [](Builder& b, llvm::CallInst*, const Args& args) {
      Args a = uniform(b, args);
      return powr(b, a[0], a[1]);
    };
    m[p("rsqrt")] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return b.CreateFDiv(fconst(a[0]->getType(), 1.0), intrinsic(b, llvm::Intrinsic::sqrt, a));
    };
    m[p("recip")] = [](Builder& b, llvm::CallInst*, const Args& a) {
      return b.CreateFDiv(fconst(a[0]->getType(), 1.0), a[0]);
    };
    m[p("divide")] = [](Builder& b, llvm::CallInst*, const Args& args) {
      Args a = uniform(b, args);
      return b.CreateFDiv(a[0], a[1]);
    };
  }
  intr("__spirv_ocl_fabs", llvm::Intrinsic::fabs);
  intr("__spirv_ocl_floor", llvm::Intrinsic::floor);
  intr("__spirv_ocl_ceil", llvm::Intrinsic::ceil);
  intr("__spirv_ocl_trunc", llvm::Intrinsic::trunc);
  intr("__spirv_ocl_rint", llvm::Intrinsic::rint);
  intr("__spirv_ocl_round", llvm::Intrinsic::round);
  intr("__spirv_ocl_fma", llvm::Intrinsic::fma);
  intr("__spirv_ocl_mad", llvm::Intrinsic::fmuladd);
  intr("__spirv_ocl_fmin", llvm::Intrinsic::minnum);
  intr("__spirv_ocl_fmax", llvm::Intrinsic::maxnum);
  intr("__spirv_ocl_copysign", llvm::Intrinsic::copysign);
  intr("__spirv_ocl_pow", llvm::Intrinsic::pow);
  for (const char* f :
       {"asin",  "acos",  "atan", "atan2",     "sinh", "cosh",   "tanh",     "asinh",
        "acosh", "atanh", "cbrt", "erf",       "erfc", "tgamma", "lgamma",   "expm1",
        "log1p", "hypot", "fmod", "remainder", "fdim", "logb",   "nextafter"}) {
    call(std::string("__spirv_ocl_") + f, f);
  }
  m["__spirv_ocl_pown"] = [](Builder& b, llvm::CallInst*, const Args& a) {
    return pown(b, a[0], a[1]);
  };
  m["__spirv_ocl_rootn"] = [](Builder& b, llvm::CallInst*, const Args& a) {
    return rootn(b, a[0], a[1]);
  };
  // ldexp(x, k): x * 2^k rounded once (also into the denormals), as C's ldexp.
  m["__spirv_ocl_ldexp"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
    return libm(b, "ldexp", c->getType(), {a[0], splatTo(b, a[1], a[0]->getType())});
  };
  m["__spirv_ocl_ilogb"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
    return ilogb(b, c, a[0]);
  };
  m["__spirv_ocl_nan"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
    return nan(b, c, a[0]);
  };
  m["__spirv_ocl_maxmag"] = [](Builder& b, llvm::CallInst*, const Args& args) {
    Args a = uniform(b, args);
    return magnitude(b, a[0], a[1], true);
  };
  m["__spirv_ocl_minmag"] = [](Builder& b, llvm::CallInst*, const Args& args) {
    Args a = uniform(b, args);
    return magnitude(b, a[0], a[1], false);
  };
  // Math with a second result through a pointer (the pointer is the last argument).
  m["__spirv_ocl_sincos"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
    b.CreateStore(unary(b, llvm::Intrinsic::cos, a[0]), pointerTo(b, a[1], c->getType()));
    return unary(b, llvm::Intrinsic::sin, a[0]);
  };
  m["__spirv_ocl_frexp"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
    return libmOut(b, c, "frexp", {a[0]}, a[1], b.getInt32Ty());
  };
  m["__spirv_ocl_modf"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
    return libmOut(b, c, "modf", {a[0]}, a[1], c->getType()->getScalarType());
  };
  m["__spirv_ocl_remquo"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
    return libmOut(b, c, "remquo", {a[0], a[1]}, a[2], b.getInt32Ty());
  };
  m["__spirv_ocl_lgamma_r"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
    return libmOut(b, c, "lgamma_r", {a[0]}, a[1], b.getInt32Ty());
  };
  m["__spirv_ocl_fract"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
    // fract(x) = fmin(x - floor(x), largest float below 1); NaN stays NaN, +-inf gives +-0.
    llvm::Type* t = c->getType();
    llvm::Value* fl = unary(b, llvm::Intrinsic::floor, a[0]);
    b.CreateStore(fl, pointerTo(b, a[1], t));
    const llvm::fltSemantics& sem = t->getScalarType()->getFltSemantics();
    llvm::APFloat below1(sem, 1);
    below1.next(true);
    llvm::Value* r = binary(b, llvm::Intrinsic::minnum, b.CreateFSub(a[0], fl),
                            llvm::ConstantFP::get(t, below1));
    llvm::Value* zero = binary(b, llvm::Intrinsic::copysign, fconst(t, 0.0), a[0]);
    r = b.CreateSelect(isInf(b, a[0]), zero, r);
    return b.CreateSelect(b.CreateFCmpUNO(a[0], a[0]), a[0], r);
  };
}

}  // namespace tessera::backends::cpu::jit::builtins
