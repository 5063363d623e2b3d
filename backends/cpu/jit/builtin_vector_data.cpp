// Vector data loads and stores (vloadn, vstoren, the half variants with their rounding modes) and
// shuffle / shuffle2.
#include <llvm/IR/Constants.h>

#include "backends/cpu/jit/builtin_conversions.h"
#include "backends/cpu/jit/builtin_lowering.h"

namespace tessera::backends::cpu::jit::builtins {
namespace {

// vloadn / vload_halfn: `n` elements of `element` at p + offset * stride, converted to `result`.
llvm::Value* vload(Builder& b, llvm::Type* result, llvm::Type* element, llvm::Value* offset,
                   llvm::Value* p, unsigned n, unsigned stride) {
  llvm::Value* index = b.CreateMul(offset, llvm::ConstantInt::get(offset->getType(), stride));
  llvm::Value* at = b.CreateGEP(element, pointerTo(b, p, element), index);
  llvm::Type* loaded = withLanes(element, n);
  llvm::Value* v = b.CreateAlignedLoad(loaded, pointerTo(b, at, loaded),
                                       llvm::Align(element->getPrimitiveSizeInBits() / 8));
  return v->getType() == result ? v : b.CreateFPExt(v, result);
}

void vstore(Builder& b, llvm::Value* v, llvm::Type* element, llvm::Value* offset, llvm::Value* p,
            unsigned stride) {
  unsigned n = lanes(v->getType());
  llvm::Value* index = b.CreateMul(offset, llvm::ConstantInt::get(offset->getType(), stride));
  llvm::Value* at = b.CreateGEP(element, pointerTo(b, p, element), index);
  llvm::Type* stored = withLanes(element, n);
  b.CreateAlignedStore(v, pointerTo(b, at, stored),
                       llvm::Align(element->getPrimitiveSizeInBits() / 8));
}

// float or double (or vectors) to half with a SPIR-V FPRoundingMode (0 RTE, 1 RTZ, 2 RTP, 3 RTN).
llvm::Value* toHalf(Builder& b, llvm::Value* v, unsigned mode) {
  llvm::Type* f16 = shapeOf(v->getType(), b.getHalfTy());
  return narrowFloat(b, v, f16, static_cast<Rounding>(mode & 3));
}

// Lane i of the result is lane (mask[i] mod 2^k) of `source`, 2^k the source's lane count rounded
// up to a power of two. OpenCL C 1.2, 6.12.12: "only the ilogb(2m-1) least significant bits of
// each mask element are considered" (m: the lanes of x, or of x and y together for shuffle2). A
// constant mask becomes one shufflevector.
llvm::Value* shuffle(Builder& b, llvm::Type* result, llvm::Value* source, llvm::Value* mask) {
  unsigned m = lanes(source->getType());
  unsigned n = lanes(result);
  uint64_t keep = llvm::PowerOf2Ceil(m) - 1;
  if (auto* c = llvm::dyn_cast<llvm::Constant>(mask)) {
    llvm::SmallVector<int, 16> indices;
    bool constant = true;
    for (unsigned i = 0; i < n; ++i) {
      auto* e = llvm::dyn_cast_or_null<llvm::ConstantInt>(c->getAggregateElement(i));
      if (e == nullptr) {
        constant = false;
        break;
      }
      indices.push_back(static_cast<int>(std::min<uint64_t>(e->getZExtValue() & keep, m - 1)));
    }
    if (constant) return b.CreateShuffleVector(source, source, indices);
  }
  llvm::Type* it = mask->getType()->getScalarType();
  llvm::Value* r = llvm::PoisonValue::get(result);
  for (unsigned i = 0; i < n; ++i) {
    llvm::Value* index = b.CreateAnd(b.CreateExtractElement(mask, i), iconst(it, keep));
    if (keep != m - 1) {
      index = b.CreateIntrinsic(llvm::Intrinsic::umin, {it}, {index, iconst(it, m - 1)});
    }
    r = b.CreateInsertElement(r, b.CreateExtractElement(source, index), i);
  }
  return r;
}

// x and y as one vector of twice the lanes.
llvm::Value* concat(Builder& b, llvm::Value* x, llvm::Value* y) {
  llvm::SmallVector<int, 32> indices;
  for (unsigned i = 0; i < 2 * lanes(x->getType()); ++i) indices.push_back(static_cast<int>(i));
  return b.CreateShuffleVector(x, y, indices);
}

}  // namespace

void addVectorDataBuiltins(Table& m) {
  // (offset, p[, n]) and (value, offset, p[, mode]).
  m["__spirv_ocl_vloadn"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
    unsigned n = lanes(c->getType());
    return vload(b, c->getType(), c->getType()->getScalarType(), a[0], a[1], n, n);
  };
  m["__spirv_ocl_vstoren"] = [](Builder& b, llvm::CallInst*, const Args& a) {
    vstore(b, a[0], a[0]->getType()->getScalarType(), a[1], a[2], lanes(a[0]->getType()));
    return nullptr;
  };
  m["__spirv_ocl_vload_half"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
    return vload(b, c->getType(), b.getHalfTy(), a[0], a[1], 1, 1);
  };
  m["__spirv_ocl_vload_halfn"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
    unsigned n = lanes(c->getType());
    return vload(b, c->getType(), b.getHalfTy(), a[0], a[1], n, n);
  };
  m["__spirv_ocl_vloada_halfn"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
    unsigned n = lanes(c->getType());
    return vload(b, c->getType(), b.getHalfTy(), a[0], a[1], n, n == 3 ? 4 : n);
  };
  for (const char* name :
       {"__spirv_ocl_vstore_half", "__spirv_ocl_vstore_halfn", "__spirv_ocl_vstorea_halfn",
        "__spirv_ocl_vstore_half_r", "__spirv_ocl_vstore_halfn_r", "__spirv_ocl_vstorea_halfn_r"}) {
    llvm::StringRef s(name);
    bool aligned = s.contains("vstorea");
    bool rounding = s.endswith("_r");
    m[name] = [aligned, rounding](Builder& b, llvm::CallInst*, const Args& a) {
      unsigned n = lanes(a[0]->getType());
      unsigned stride = aligned && n == 3 ? 4 : n;
      vstore(b, toHalf(b, a[0], rounding ? constantArg(a[3]) : 0), b.getHalfTy(), a[1], a[2],
             stride);
      return nullptr;
    };
  }
  m["__spirv_ocl_shuffle"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
    return shuffle(b, c->getType(), a[0], a[1]);
  };
  m["__spirv_ocl_shuffle2"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
    return shuffle(b, c->getType(), concat(b, a[0], a[1]), a[2]);
  };
}

}  // namespace tessera::backends::cpu::jit::builtins
