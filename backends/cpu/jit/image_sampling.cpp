// Coordinates to texels (image_lowering.h): the sampler's normalized-coordinates flag, addressing
// mode and filter, as OpenCL C 1.2 section 8.2 ("Addressing and Filter Modes"; 3.0: "Image
// Addressing and Filtering") computes them, for each coordinate that addresses texels. A sampler
// known when the kernel is compiled (an inline sampler) folds to its one mode; a sampler argument
// selects between the modes per coordinate (the same choice for every work-item).
#include <llvm/IR/Constants.h>

#include "backends/cpu/runtime/image_abi.h"
#include "backends/cpu/jit/image_lowering.h"

namespace tessera::backends::cpu::jit::builtins::image {

llvm::Value* select(Builder& b, llvm::Value* c, llvm::Value* t, llvm::Value* f) {
  if (auto* k = llvm::dyn_cast<llvm::ConstantInt>(c)) return k->isOne() ? t : f;
  return b.CreateSelect(c, t, f);
}

namespace {

namespace sb = sampler_bits;

struct Modes {
  llvm::Value* normalized;  // i1 each
  llvm::Value* repeat;
  llvm::Value* mirror;
  llvm::Value* edge;
};

Modes modesOf(Builder& b, llvm::Value* sampler) {
  llvm::Value* address = b.CreateAnd(sampler, sb::kAddressMask);
  return {b.CreateICmpNE(b.CreateAnd(sampler, sb::kNormalizedCoords), b.getInt32(0)),
          b.CreateICmpEQ(address, b.getInt32(sb::kAddressRepeat)),
          b.CreateICmpEQ(address, b.getInt32(sb::kAddressMirroredRepeat)),
          b.CreateICmpEQ(address, b.getInt32(sb::kAddressClampToEdge))};
}

llvm::Value* floorOf(Builder& b, llvm::Value* x) {
  return unary(b, llvm::Intrinsic::floor, x);
}

// (int)floor(x), with x kept within +-2^30 first: no image is that large, so a coordinate beyond it
// (or NaN, which maxnum takes as -2^30) is outside either way, and fptosi stays defined.
llvm::Value* floorToInt(Builder& b, llvm::Value* x) {
  llvm::Value* f = floorOf(b, x);
  f = binary(b, llvm::Intrinsic::maxnum, f, fconst(f->getType(), -0x1p30));
  f = binary(b, llvm::Intrinsic::minnum, f, fconst(f->getType(), 0x1p30));
  return b.CreateFPToSI(f, b.getInt32Ty());
}

llvm::Value* clampInt(Builder& b, llvm::Value* i, llvm::Value* lo, llvm::Value* hi) {
  llvm::Value* r = b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, i, lo);
  return b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, r, hi);
}

// (index the load may use, inside): i when inside [0, n), else 0 (the border colour's then).
std::pair<llvm::Value*, llvm::Value*> inside(Builder& b, llvm::Value* i, llvm::Value* n) {
  llvm::Value* in = b.CreateICmpULT(i, n);
  return {select(b, in, i, b.getInt32(0)), in};
}

// The unnormalized coordinate u of s along an axis of n texels ("u = s * w_t" with normalized
// coordinates; REPEAT and MIRRORED_REPEAT, which OpenCL defines for normalized coordinates only,
// fold the coordinate into the image first).
llvm::Value* unnormalized(Builder& b, const Modes& m, llvm::Value* s, llvm::Value* nf) {
  llvm::Type* f32 = b.getFloatTy();
  llvm::Value* clamped = select(b, m.normalized, b.CreateFMul(s, nf), s);
  // REPEAT: "u = (s - floor(s)) * w_t".
  llvm::Value* repeated = b.CreateFMul(b.CreateFSub(s, floorOf(b, s)), nf);
  // MIRRORED_REPEAT: "s' = 2.0f * rint(0.5f * s); s' = fabs(s - s'); u = s' * w_t".
  llvm::Value* twice = b.CreateFMul(
      fconst(f32, 2.0), unary(b, llvm::Intrinsic::rint, b.CreateFMul(fconst(f32, 0.5), s)));
  llvm::Value* mirrored = b.CreateFMul(unary(b, llvm::Intrinsic::fabs, b.CreateFSub(s, twice)), nf);
  return select(b, m.repeat, repeated, select(b, m.mirror, mirrored, clamped));
}

// CLK_FILTER_NEAREST: "i = (int)floor(u)", then per addressing mode: REPEAT "if (i > w_t - 1)
// i = i - w_t"; MIRRORED_REPEAT "i = min(i, w_t - 1)"; CLAMP_TO_EDGE "i = clamp(i, 0, w_t - 1)";
// CLAMP "i = clamp(i, -1, w_t)" with the border colour outside; NONE leaves i (outside:
// undefined; the border colour here).
std::pair<llvm::Value*, llvm::Value*> nearestAxis(Builder& b, const Modes& m, llvm::Value* s,
                                                  llvm::Value* n) {
  llvm::Value* nf = b.CreateUIToFP(n, b.getFloatTy());
  llvm::Value* last = b.CreateSub(n, b.getInt32(1));
  llvm::Value* i = floorToInt(b, unnormalized(b, m, s, nf));
  i = select(b, m.repeat, b.CreateSelect(b.CreateICmpSGT(i, last), b.CreateSub(i, n), i), i);
  i = select(b, m.mirror, b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, i, last), i);
  i = select(b, m.edge, clampInt(b, i, b.getInt32(0), last), i);
  return inside(b, i, n);
}

struct LinearAxis {
  std::pair<llvm::Value*, llvm::Value*> lo, hi;  // (index, inside) of i0 and i1
  llvm::Value* a;                                // the weight of i1
};

// CLK_FILTER_LINEAR: "i0 = (int)floor(u - 0.5f); i1 = i0 + 1; a = frac(u - 0.5f)" (frac(x) is
// x - floor(x)), then REPEAT "if (i0 < 0) i0 = w_t + i0; if (i1 > w_t - 1) i1 = i1 - w_t";
// MIRRORED_REPEAT "i0 = max(i0, 0); i1 = min(i1, w_t - 1)"; CLAMP_TO_EDGE both clamped to
// [0, w_t - 1]; CLAMP and NONE the border colour for a texel outside.
LinearAxis linearAxis(Builder& b, const Modes& m, llvm::Value* s, llvm::Value* n) {
  llvm::Value* nf = b.CreateUIToFP(n, b.getFloatTy());
  llvm::Value* last = b.CreateSub(n, b.getInt32(1));
  llvm::Value* zero = b.getInt32(0);
  llvm::Value* t = b.CreateFSub(unnormalized(b, m, s, nf), fconst(b.getFloatTy(), 0.5));
  llvm::Value* a = b.CreateFSub(t, floorOf(b, t));
  llvm::Value* i0 = floorToInt(b, t);
  llvm::Value* i1 = b.CreateAdd(i0, b.getInt32(1));
  i0 = select(b, m.repeat, b.CreateSelect(b.CreateICmpSLT(i0, zero), b.CreateAdd(n, i0), i0), i0);
  i1 = select(b, m.repeat, b.CreateSelect(b.CreateICmpSGT(i1, last), b.CreateSub(i1, n), i1), i1);
  i0 = select(b, m.mirror, b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, i0, zero), i0);
  i1 = select(b, m.mirror, b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, i1, last), i1);
  i0 = select(b, m.edge, clampInt(b, i0, zero, last), i0);
  i1 = select(b, m.edge, clampInt(b, i1, zero, last), i1);
  return {inside(b, i0, n), inside(b, i1, n), a};
}

// Coordinate k of the call's coordinate operand (a scalar for one coordinate).
llvm::Value* coordinate(Builder& b, llvm::Value* coord, unsigned k) {
  if (!coord->getType()->isVectorTy()) return coord;
  return b.CreateExtractElement(coord, uint64_t{k});
}

// The layer of an array: "clamp(rint(coord.y), 0, image_array_size - 1)" (1D array; coord.z of a
// 2D array), never normalized nor filtered; an integer layer is clamped alike.
llvm::Value* layerIndex(Builder& b, llvm::Value* c, llvm::Value* layers) {
  llvm::Value* last = b.CreateSub(layers, b.getInt32(1));
  if (c->getType()->isIntegerTy()) return clampInt(b, c, b.getInt32(0), last);
  llvm::Value* r = unary(b, llvm::Intrinsic::rint, c);
  r = binary(b, llvm::Intrinsic::maxnum, r, fconst(r->getType(), 0.0));
  r = binary(b, llvm::Intrinsic::minnum, r, b.CreateUIToFP(last, r->getType()));
  return b.CreateFPToSI(r, b.getInt32Ty());
}

Tap emptyTap(Builder& b) {
  Tap t;
  t.index.fill(b.getInt32(0));
  t.inside = b.getTrue();
  return t;
}

}  // namespace

Footprint exactFootprint(Builder& b, const View& v, const Shape& s, llvm::Value* coord) {
  Tap t = emptyTap(b);
  for (unsigned k = 0; k < s.coordinates(); ++k) {
    auto [index, in] = inside(b, coordinate(b, coord, k), v.extent[k]);
    t.index[k] = index;
    t.inside = b.CreateAnd(t.inside, in);
  }
  return {{t}, {}};
}

Footprint footprintOf(Builder& b, const View& v, const Read& r) {
  if (r.sampler == nullptr) return exactFootprint(b, v, r.shape, r.coord);
  return sampledFootprint(b, v, r.shape, r.sampler, r.coord, r.linear);
}

Footprint sampledFootprint(Builder& b, const View& v, const Shape& s, llvm::Value* sampler,
                           llvm::Value* coord, bool linear) {
  Modes m = modesOf(b, sampler);
  Tap base = emptyTap(b);
  if (s.arrayed) {
    unsigned k = s.spatial();
    base.index[k] = layerIndex(b, coordinate(b, coord, k), v.extent[k]);
  }
  if (coord->getType()->getScalarType()->isIntegerTy()) {
    // Integer coordinates: OpenCL allows them with unnormalized coordinates, NEAREST and
    // CLAMP_TO_EDGE, CLAMP or NONE only: the texel itself, clamped or the border colour.
    for (unsigned k = 0; k < s.spatial(); ++k) {
      llvm::Value* i = coordinate(b, coord, k);
      llvm::Value* last = b.CreateSub(v.extent[k], b.getInt32(1));
      i = select(b, m.edge, clampInt(b, i, b.getInt32(0), last), i);
      auto [index, in] = inside(b, i, v.extent[k]);
      base.index[k] = index;
      base.inside = b.CreateAnd(base.inside, in);
    }
    return {{base}, {}};
  }
  if (!linear) {
    for (unsigned k = 0; k < s.spatial(); ++k) {
      auto [index, in] = nearestAxis(b, m, coordinate(b, coord, k), v.extent[k]);
      base.index[k] = index;
      base.inside = b.CreateAnd(base.inside, in);
    }
    return {{base}, {}};
  }
  // "T = (1 - a) * (1 - b) * T_i0j0 + a * (1 - b) * T_i1j0 + (1 - a) * b * T_i0j1 + a * b * T_i1j1"
  // (3D: times (1 - c) for k0 and c for k1, in the same order): tap t takes i1 where bit 0 of t
  // is set, j1 for bit 1, k1 for bit 2.
  std::vector<LinearAxis> axes;
  for (unsigned k = 0; k < s.spatial(); ++k)
    axes.push_back(linearAxis(b, m, coordinate(b, coord, k), v.extent[k]));
  Footprint f;
  llvm::Value* one = fconst(b.getFloatTy(), 1.0);
  for (unsigned t = 0; t < (1u << s.spatial()); ++t) {
    Tap tap = base;
    llvm::Value* weight = nullptr;
    for (unsigned k = 0; k < s.spatial(); ++k) {
      bool high = (t >> k) & 1;
      auto [index, in] = high ? axes[k].hi : axes[k].lo;
      tap.index[k] = index;
      tap.inside = b.CreateAnd(tap.inside, in);
      llvm::Value* w = high ? axes[k].a : b.CreateFSub(one, axes[k].a);
      weight = weight == nullptr ? w : b.CreateFMul(weight, w);
    }
    f.taps.push_back(tap);
    f.weights.push_back(weight);
  }
  return f;
}

Components filter(Builder& b, const Footprint& f, const std::vector<Components>& texels,
                  Kind kind) {
  llvm::Type* t = kind == Kind::Float ? b.getFloatTy() : b.getInt32Ty();
  llvm::Value* zero = llvm::Constant::getNullValue(t);
  Components sum{};
  for (size_t i = 0; i < f.taps.size(); ++i) {
    const Components& c = texels[i];
    for (unsigned k = 0; k < 4; ++k) {
      llvm::Value* value = select(b, f.taps[i].inside, c[k], zero);
      if (f.weights.empty()) {
        sum[k] = value;
      } else {
        value = b.CreateFMul(f.weights[i], value);
        sum[k] = i == 0 ? value : b.CreateFAdd(sum[k], value);
      }
    }
  }
  return sum;
}

}  // namespace tessera::backends::cpu::jit::builtins::image
