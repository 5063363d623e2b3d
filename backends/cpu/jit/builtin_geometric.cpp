// Common functions (OpenCL C 1.2, 6.12.4: clamp, degrees, max, min, mix, radians, step,
// smoothstep, sign) and geometric functions (6.12.5: cross, dot, distance, length, normalize and
// their fast_ forms).
//
// length, distance and normalize must not overflow or underflow where the result is
// representable (length of (0x1p64f, 0x1p64f) is 0x1.6a09e6p64f, not inf). Float vectors are
// computed in double, where their squares and sums cannot overflow or lose bits to underflow.
// Double vectors are scaled by a power of two first (exact) when their largest element is beyond
// 2^±500: the scaled squares then lie within double's range, and elements too small to matter
// next to the largest are the only ones that can lose bits. fast_length, fast_distance and
// fast_normalize are the accurate ones (the spec allows 8192 ulp for them).
#include <llvm/IR/Constants.h>

#include "backends/cpu/jit/builtin_lowering.h"

namespace tessera::backends::cpu::jit::builtins {
namespace {

llvm::Value* sumOfSquares(Builder& b, llvm::Value* v) {
  llvm::Value* squares = b.CreateFMul(v, v);
  return reduce(b, squares, [&](llvm::Value* x, llvm::Value* y) { return b.CreateFAdd(x, y); });
}

// Scale factors for a double vector whose largest |element| is `largest`: {scale, unscale}.
std::pair<llvm::Value*, llvm::Value*> scaleFor(Builder& b, llvm::Value* largest) {
  llvm::Type* t = largest->getType();
  llvm::Value* big = b.CreateFCmpOGT(largest, fconst(t, 0x1p500));
  llvm::Value* small = b.CreateFCmpOLT(largest, fconst(t, 0x1p-500));
  llvm::Value* one = fconst(t, 1.0);
  llvm::Value* scale =
      b.CreateSelect(big, fconst(t, 0x1p-600), b.CreateSelect(small, fconst(t, 0x1p600), one));
  llvm::Value* unscale =
      b.CreateSelect(big, fconst(t, 0x1p600), b.CreateSelect(small, fconst(t, 0x1p-600), one));
  return {scale, unscale};
}

llvm::Value* largestMagnitude(Builder& b, llvm::Value* v) {
  return reduce(b, unary(b, llvm::Intrinsic::fabs, v), [&](llvm::Value* x, llvm::Value* y) {
    return binary(b, llvm::Intrinsic::maxnum, x, y);
  });
}

// sqrt(sum of v[i]^2) of a double vector without overflow or underflow.
llvm::Value* lengthOf(Builder& b, llvm::Value* v, bool fromFloat) {
  if (fromFloat) return unary(b, llvm::Intrinsic::sqrt, sumOfSquares(b, v));
  auto [scale, unscale] = scaleFor(b, largestMagnitude(b, v));
  llvm::Value* scaled = b.CreateFMul(v, splatTo(b, scale, v->getType()));
  return b.CreateFMul(unary(b, llvm::Intrinsic::sqrt, sumOfSquares(b, scaled)), unscale);
}

llvm::Value* length(Builder& b, llvm::Type* result, llvm::Value* p) {
  bool fromFloat = p->getType()->getScalarType()->isFloatTy();
  return fromDouble(b, lengthOf(b, toDouble(b, p), fromFloat), result);
}

// distance(p0, p1) = length(p0 - p1); the difference of floats is taken in double.
llvm::Value* distance(Builder& b, llvm::Type* result, llvm::Value* p0, llvm::Value* p1) {
  bool fromFloat = p0->getType()->getScalarType()->isFloatTy();
  llvm::Value* d = b.CreateFSub(toDouble(b, p0), toDouble(b, p1));
  return fromDouble(b, lengthOf(b, d, fromFloat), result);
}

// normalize(p), OpenCL C 1.2, 6.12.5: "Returns a vector in the same direction as p but with a
// length of 1. normalize(v) returns v if all elements of v are zero. normalize(v) returns a vector
// full of NaNs if any element is a NaN. normalize(v) for which any element in v is infinite shall
// proceed as if the elements in v were replaced as follows: for (i = 0; i < sizeof(v) /
// sizeof(v[0]); i++) v[i] = isinf(v[i]) ? copysign(1.0, v[i]) : 0.0 * v[i];"
llvm::Value* normalize(Builder& b, llvm::Value* p) {
  bool fromFloat = p->getType()->getScalarType()->isFloatTy();
  llvm::Value* v = toDouble(b, p);
  llvm::Type* t = v->getType();
  llvm::Value* inf = isInf(b, v);
  llvm::Value* anyInf = t->isVectorTy() ? b.CreateOrReduce(inf) : inf;
  llvm::Value* replaced =
      b.CreateSelect(inf, b.CreateIntrinsic(llvm::Intrinsic::copysign, {t}, {fconst(t, 1.0), v}),
                     b.CreateFMul(fconst(t, 0.0), v));
  v = b.CreateSelect(anyInf, replaced, v);
  if (!fromFloat) v = b.CreateFMul(v, splatTo(b, scaleFor(b, largestMagnitude(b, v)).first, t));
  // The sum is 0 only when every element is (scaled, the squares of the others are normal), NaN
  // when one is NaN.
  llvm::Value* len = unary(b, llvm::Intrinsic::sqrt, sumOfSquares(b, v));
  llvm::Value* r = fromDouble(b, b.CreateFDiv(v, splatTo(b, len, t)), p->getType());
  return b.CreateSelect(b.CreateFCmpOEQ(len, fconst(len->getType(), 0.0)), p, r);
}

// x * y - z * w with one rounding error, by Kahan's algorithm with fma (about 1.5 ulp).
llvm::Value* differenceOfProducts(Builder& b, llvm::Value* x, llvm::Value* y, llvm::Value* z,
                                  llvm::Value* w) {
  llvm::Type* t = x->getType();
  llvm::Value* zw = b.CreateFMul(z, w);
  llvm::Value* error = b.CreateIntrinsic(llvm::Intrinsic::fma, {t}, {b.CreateFNeg(z), w, zw});
  llvm::Value* f = b.CreateIntrinsic(llvm::Intrinsic::fma, {t}, {x, y, b.CreateFNeg(zw)});
  return b.CreateFAdd(f, error);
}

// cross(p0, p1) of 3- or 4-element vectors: "(p0.y*p1.z - p0.z*p1.y, p0.z*p1.x - p0.x*p1.z,
// p0.x*p1.y - p0.y*p1.x), w = 0". Float products are exact in double, so the float result is
// rounded once.
llvm::Value* cross(Builder& b, llvm::Value* p0, llvm::Value* p1) {
  unsigned n = lanes(p0->getType());
  auto rotate = [&](llvm::Value* v, int i, int j, int k) {
    llvm::SmallVector<int, 4> mask = {i, j, k};
    if (n == 4) mask.push_back(3);
    return b.CreateShuffleVector(v, v, mask);
  };
  llvm::Value* x = toDouble(b, p0);
  llvm::Value* y = toDouble(b, p1);
  llvm::Value* r = nullptr;
  if (p0->getType()->getScalarType()->isFloatTy()) {
    r = b.CreateFSub(b.CreateFMul(rotate(x, 1, 2, 0), rotate(y, 2, 0, 1)),
                     b.CreateFMul(rotate(x, 2, 0, 1), rotate(y, 1, 2, 0)));
  } else {
    r = differenceOfProducts(b, rotate(x, 1, 2, 0), rotate(y, 2, 0, 1), rotate(x, 2, 0, 1),
                             rotate(y, 1, 2, 0));
  }
  if (n == 4) r = b.CreateInsertElement(r, fconst(r->getType()->getScalarType(), 0.0), 3);
  return fromDouble(b, r, p0->getType());
}

llvm::Value* dot(Builder& b, llvm::Value* x, llvm::Value* y) {
  llvm::Value* p = b.CreateFMul(x, y);
  return reduce(b, p, [&](llvm::Value* s, llvm::Value* e) { return b.CreateFAdd(s, e); });
}

}  // namespace

void addGeometricBuiltins(Table& m) {
  // Common functions; scalar edges, bounds and weights are splatted to the vector.
  auto intr = [&](const char* name, llvm::Intrinsic::ID id) {
    m[name] = [id](Builder& b, llvm::CallInst*, const Args& a) {
      return intrinsic(b, id, uniform(b, a));
    };
  };
  intr("__spirv_ocl_fmin_common", llvm::Intrinsic::minnum);
  intr("__spirv_ocl_fmax_common", llvm::Intrinsic::maxnum);
  m["__spirv_ocl_fclamp"] = [](Builder& b, llvm::CallInst*, const Args& args) {
    Args a = uniform(b, args);
    llvm::Value* x = binary(b, llvm::Intrinsic::maxnum, a[0], a[1]);
    return binary(b, llvm::Intrinsic::minnum, x, a[2]);
  };
  m["__spirv_ocl_degrees"] = [](Builder& b, llvm::CallInst*, const Args& a) {
    return b.CreateFMul(a[0], fconst(a[0]->getType(), 57.29577951308232));
  };
  m["__spirv_ocl_radians"] = [](Builder& b, llvm::CallInst*, const Args& a) {
    return b.CreateFMul(a[0], fconst(a[0]->getType(), 0.017453292519943295));
  };
  // mix(x, y, a) = x + (y - x) * a.
  m["__spirv_ocl_mix"] = [](Builder& b, llvm::CallInst*, const Args& args) {
    Args a = uniform(b, args);
    return b.CreateFAdd(a[0], b.CreateFMul(b.CreateFSub(a[1], a[0]), a[2]));
  };
  // step(edge, x): "0.0 if x < edge, otherwise it returns 1.0".
  m["__spirv_ocl_step"] = [](Builder& b, llvm::CallInst* c, const Args& args) {
    Args a = uniform(b, args);
    llvm::Type* t = c->getType();
    return b.CreateSelect(b.CreateFCmpOLT(a[1], a[0]), fconst(t, 0.0), fconst(t, 1.0));
  };
  // smoothstep(edge0, edge1, x): "t = clamp((x - edge0) / (edge1 - edge0), 0, 1);
  // return t * t * (3 - 2 * t);"
  m["__spirv_ocl_smoothstep"] = [](Builder& b, llvm::CallInst* c, const Args& args) {
    Args a = uniform(b, args);
    llvm::Type* t = c->getType();
    llvm::Value* x = b.CreateFDiv(b.CreateFSub(a[2], a[0]), b.CreateFSub(a[1], a[0]));
    x = binary(b, llvm::Intrinsic::maxnum, x, fconst(t, 0.0));
    x = binary(b, llvm::Intrinsic::minnum, x, fconst(t, 1.0));
    return b.CreateFMul(b.CreateFMul(x, x),
                        b.CreateFSub(fconst(t, 3.0), b.CreateFMul(fconst(t, 2.0), x)));
  };
  // sign(x): "1.0 if x > 0, -0.0 if x = -0.0, +0.0 if x = +0.0, or -1.0 if x < 0. Returns 0.0 if x
  // is a NaN."
  m["__spirv_ocl_sign"] = [](Builder& b, llvm::CallInst*, const Args& a) {
    llvm::Type* t = a[0]->getType();
    llvm::Value* zeroOrSelf = b.CreateSelect(b.CreateFCmpUNO(a[0], a[0]), fconst(t, 0.0), a[0]);
    return b.CreateSelect(
        b.CreateFCmpOGT(a[0], fconst(t, 0.0)), fconst(t, 1.0),
        b.CreateSelect(b.CreateFCmpOLT(a[0], fconst(t, 0.0)), fconst(t, -1.0), zeroOrSelf));
  };
  // Geometric functions.
  m["__spirv_Dot"] = [](Builder& b, llvm::CallInst*, const Args& a) { return dot(b, a[0], a[1]); };
  m["__spirv_ocl_cross"] = [](Builder& b, llvm::CallInst*, const Args& a) {
    return cross(b, a[0], a[1]);
  };
  for (const char* n : {"__spirv_ocl_length", "__spirv_ocl_fast_length"}) {
    m[n] = [](Builder& b, llvm::CallInst* c, const Args& a) {
      return length(b, c->getType(), a[0]);
    };
  }
  for (const char* n : {"__spirv_ocl_distance", "__spirv_ocl_fast_distance"}) {
    m[n] = [](Builder& b, llvm::CallInst* c, const Args& a) {
      return distance(b, c->getType(), a[0], a[1]);
    };
  }
  for (const char* n : {"__spirv_ocl_normalize", "__spirv_ocl_fast_normalize"}) {
    m[n] = [](Builder& b, llvm::CallInst*, const Args& a) { return normalize(b, a[0]); };
  }
}

}  // namespace tessera::backends::cpu::jit::builtins
