// The pi functions: sinpi, cospi, tanpi (f(pi * x)) and asinpi, acospi, atanpi, atan2pi (f(x) /
// pi), which C's library lacks. Computed in double for float and double alike (a float result is
// then rounded once more, well within its bound).
//
// sinpi, cospi, tanpi reduce x exactly before multiplying by pi: x mod 2 (frem is exact) folded by
// the functions' symmetries into [-0.5, 0.5] (or [-0.25, 0.25] for tanpi) with subtractions that
// Sterbenz's lemma makes exact, so the only errors left are pi * y (a double-double pi: about half
// an ulp) and the C library's sin or tan: about 2 ulp in double against the spec's 4 (sinpi,
// cospi) and 6 (tanpi), OpenCL C 1.2 section 7.4. The inverse ones multiply by a double-double
// 1/pi, so that exact quarters come out exact (atanpi(inf) = 0.5): about 2 ulp against 5 and 6.
#include <llvm/IR/Constants.h>

#include "backends/cpu/jit/builtin_lowering.h"

namespace tessera::backends::cpu::jit::builtins {
namespace {

// pi and 1/pi as double-doubles.
constexpr double kPiHi = 0x1.921fb54442d18p+1, kPiLo = 0x1.1a62633145c07p-53;
constexpr double kInvPiHi = 0x1.45f306dc9c883p-2, kInvPiLo = -0x1.6b01ec5417056p-56;

llvm::Value* fma(Builder& b, llvm::Value* x, llvm::Value* y, llvm::Value* z) {
  return b.CreateIntrinsic(llvm::Intrinsic::fma, {x->getType()}, {x, y, z});
}

// x * (hi + lo) with one rounding at the end (x * lo is far below x * hi's last bit); a zero
// keeps its sign.
llvm::Value* timesDoubleDouble(Builder& b, llvm::Value* x, double hi, double lo) {
  llvm::Type* t = x->getType();
  llvm::Value* r = fma(b, x, fconst(t, hi), b.CreateFMul(x, fconst(t, lo)));
  return b.CreateSelect(b.CreateFCmpOEQ(x, fconst(t, 0.0)), x, r);
}

llvm::Value* negateIf(Builder& b, llvm::Value* condition, llvm::Value* v) {
  return b.CreateSelect(condition, b.CreateFNeg(v), v);
}

// sinpi(x): r = x mod 2 in (-2, 2); with a = |r|, sin(pi a) = sin(pi y) for y = a (a <= 0.5),
// 1 - a (a <= 1.5) or a - 2; then the sign of x (sinpi is odd). "sinpi(±0) returns ±0. sinpi(+n)
// returns +0 and sinpi(-n) returns -0 for positive integers n": y is +0 there, negated when x's
// sign bit is set.
llvm::Value* sinpi(Builder& b, llvm::Value* x) {
  llvm::Type* t = x->getType();
  llvm::Value* a = unary(b, llvm::Intrinsic::fabs, b.CreateFRem(x, fconst(t, 2.0)));
  llvm::Value* y = b.CreateSelect(
      b.CreateFCmpOLE(a, fconst(t, 0.5)), a,
      b.CreateSelect(b.CreateFCmpOLE(a, fconst(t, 1.5)), b.CreateFSub(fconst(t, 1.0), a),
                     b.CreateFSub(a, fconst(t, 2.0))));
  llvm::Value* v = unary(b, llvm::Intrinsic::sin, timesDoubleDouble(b, y, kPiHi, kPiLo));
  return negateIf(b, signBit(b, x), v);
}

// cospi(x) = sinpi(0.5 - a), a = |x| mod 2 folded to [0, 1] (2 - a above 1). 0.5 - a is exact for
// a >= 0.25; below, its rounding moves sin(pi y) near its flat top by less than an ulp.
// "cospi(n + 0.5) is +0 for any integer n": y is +0 there.
llvm::Value* cospi(Builder& b, llvm::Value* x) {
  llvm::Type* t = x->getType();
  llvm::Value* a = b.CreateFRem(unary(b, llvm::Intrinsic::fabs, x), fconst(t, 2.0));
  a = b.CreateSelect(b.CreateFCmpOGT(a, fconst(t, 1.0)), b.CreateFSub(fconst(t, 2.0), a), a);
  llvm::Value* y = b.CreateFSub(fconst(t, 0.5), a);
  return unary(b, llvm::Intrinsic::sin, timesDoubleDouble(b, y, kPiHi, kPiLo));
}

// tanpi(x): period 1, odd. a = |x mod 1| in [0, 1), y = a or a - 1 in [-0.5, 0.5]; for |y| <=
// 0.25 tan(pi y), above it 1 / tan(pi (±0.5 - y)) (exact subtraction) where tan is well
// conditioned. Special values (OpenCL C 1.2, 7.5.1): "tanpi(n) is copysign(0.0, n) for even
// integers n. tanpi(n) is copysign(0.0, -n) for odd integers n. tanpi(n + 0.5) for even integer n
// is +∞ where n + 0.5 is representable. tanpi(n + 0.5) for odd integer n is -∞": the sign there is
// x's sign bit flipped when the integer part of |x| is odd.
llvm::Value* tanpi(Builder& b, llvm::Value* x) {
  llvm::Type* t = x->getType();
  llvm::Value* half = fconst(t, 0.5);
  llvm::Value* r = b.CreateFRem(x, fconst(t, 1.0));
  llvm::Value* a = unary(b, llvm::Intrinsic::fabs, r);
  llvm::Value* y = b.CreateSelect(b.CreateFCmpOLE(a, half), a, b.CreateFSub(a, fconst(t, 1.0)));
  llvm::Value* ay = unary(b, llvm::Intrinsic::fabs, y);
  llvm::Value* near = b.CreateFCmpOLE(ay, fconst(t, 0.25));
  llvm::Value* w = b.CreateSelect(
      near, y, b.CreateFSub(b.CreateIntrinsic(llvm::Intrinsic::copysign, {t}, {half, y}), y));
  llvm::Value* tw = libm(b, "tan", t, {timesDoubleDouble(b, w, kPiHi, kPiLo)});
  llvm::Value* v = b.CreateSelect(near, tw, b.CreateFDiv(fconst(t, 1.0), tw));
  v = negateIf(b, signBit(b, x), v);
  llvm::Value* odd = b.CreateFCmpOGE(
      b.CreateFRem(unary(b, llvm::Intrinsic::fabs, x), fconst(t, 2.0)), fconst(t, 1.0));
  llvm::Value* negative = b.CreateXor(signBit(b, x), odd);
  llvm::Value* zero = negateIf(b, negative, fconst(t, 0.0));
  llvm::Value* inf = negateIf(b, negative, llvm::ConstantFP::getInfinity(t));
  v = b.CreateSelect(b.CreateFCmpOEQ(r, fconst(t, 0.0)), zero, v);
  return b.CreateSelect(b.CreateFCmpOEQ(a, half), inf, v);
}

// f(x...) / pi for the C function f, in double.
llvm::Value* overPi(Builder& b, const char* f, const Args& a) {
  Args wide;
  for (llvm::Value* v : a) wide.push_back(toDouble(b, v));
  llvm::Value* r = libm(b, f, wide[0]->getType(), wide);
  return timesDoubleDouble(b, r, kInvPiHi, kInvPiLo);
}

}  // namespace

void addMathPiBuiltins(Table& m) {
  auto inDouble = [&](const char* name, llvm::Value* (*f)(Builder&, llvm::Value*)) {
    m[name] = [f](Builder& b, llvm::CallInst* c, const Args& a) {
      return fromDouble(b, f(b, toDouble(b, a[0])), c->getType());
    };
  };
  inDouble("__spirv_ocl_sinpi", sinpi);
  inDouble("__spirv_ocl_cospi", cospi);
  inDouble("__spirv_ocl_tanpi", tanpi);
  for (const char* f : {"asin", "acos", "atan", "atan2"}) {
    std::string fn = f;
    m["__spirv_ocl_" + fn + "pi"] = [fn](Builder& b, llvm::CallInst* c, const Args& a) {
      return fromDouble(b, overPi(b, fn.c_str(), uniform(b, a)), c->getType());
    };
  }
}

}  // namespace tessera::backends::cpu::jit::builtins
