// The image builtins' inside, shared by their four files:
//   builtin_image.cpp     the table entries: which call is which (the translator's names), the
//                         queries, samplers, argument kinds;
//   image_sampling.cpp    coordinates to texels: the sampler's addressing and filter modes as the
//                         OpenCL C spec writes them ("Image Addressing and Filtering");
//   image_texels.cpp      texels to values and back: the common formats decoded and encoded
//                         inline, the swizzle;
//   image_generic.cpp     any other format, through image_runtime.h; the ImageView's fields and
//                         the switch the others use.
// The code they make is plain scalar IR per work-item (channels as separate values, selects rather
// than branches where the lanes may differ), so the widening (widen.cpp) runs it VF work-items at a
// time; the format is chosen by a switch on the image's layout and type, the same for every
// work-item of a launch.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <vector>

#include "backends/cpu/jit/builtin_lowering.h"

namespace tessera::backends::cpu::jit::builtins::image {

// What the channel values are: float (read_imagef, write_imagef) or 32-bit integers (the i and ui
// forms: which of the two is the image format's business, UINT or SINT).
enum class Kind { Float, Int };

// The image type of a builtin's first argument, from the translator's name for it
// ("__spirv_Image__void_1_0_0_0_0_0_0": sampled type, Dim, depth, arrayed, MS, sampled, format,
// access). Dim: 0 1D, 1 2D, 2 3D, 5 Buffer.
struct Shape {
  unsigned dim = 0;
  bool arrayed = false;
  // Coordinates that address texels (and are filtered): 1, 2 or 3.
  unsigned spatial() const { return dim == 1 ? 2 : dim == 2 ? 3 : 1; }
  // Every coordinate the kernel gives: the layer last for arrays (image_abi.h: a 1D array's layer
  // is coordinate 1, a 2D array's coordinate 2).
  unsigned coordinates() const { return spatial() + (arrayed ? 1 : 0); }
};
std::optional<Shape> shapeOf(llvm::CallInst* call);

// An image's ImageView fields, loaded where the builder is (invariant: a kernel never writes them).
struct View {
  llvm::Value* view = nullptr;          // the ImageView's address
  llvm::Value* data = nullptr;          // pixel (0, 0, 0)
  std::array<llvm::Value*, 3> extent;   // i32 each
  std::array<llvm::Value*, 3> pitch;    // i64 bytes per step of each coordinate
  llvm::Value* formatKey = nullptr;     // i32: layout * 8 + type
  std::array<llvm::Value*, 4> swizzle;  // i32 each
};
View loadView(Builder& b, llvm::Value* image);
llvm::Value* loadField(Builder& b, llvm::Value* view, uint64_t offset, llvm::Type* type);
inline uint32_t formatKey(uint32_t layout, uint32_t type) {
  return layout * 8 + type;
}

// One texel a read uses: its index along each coordinate (0 beyond the image's coordinates) and
// whether it lies inside the image; a texel outside is the border colour, whose components are 0
// (the swizzle then makes (0, 0, 0, 1) of formats without alpha, as the spec's border colours).
// An index outside is replaced by 0, so the load stays inside the image.
struct Tap {
  std::array<llvm::Value*, 3> index;  // i32
  llvm::Value* inside = nullptr;      // i1
};
// The taps of a read and their weights (none: nearest, one tap).
struct Footprint {
  std::vector<Tap> taps;
  std::vector<llvm::Value*> weights;
};

// A read as its builtin gives it. Its footprint is computed from these where its texels are read:
// in the kernel for the formats decoded inline, in the generic read function for the others.
struct Read {
  Shape shape;
  Kind kind = Kind::Float;
  llvm::Value* sampler = nullptr;  // i32 (image_abi.h's bits); null: no sampler
  bool linear = false;             // with a sampler: LINEAR (else NEAREST)
  llvm::Value* coord = nullptr;    // the builtin's coordinate operand
};

using Components = std::array<llvm::Value*, 4>;
using Values = std::vector<llvm::Value*>;

// image_sampling.cpp
// read_image{f,i,ui} with a sampler (`sampler`: its i32 value, image_abi.h's bits): the footprint
// of float coordinates, or of integer ones, per the sampler's modes.
Footprint sampledFootprint(Builder& b, const View& v, const Shape& s, llvm::Value* sampler,
                           llvm::Value* coord, bool linear);
// Without a sampler (OpImageRead, OpImageFetch, and the coordinates of writes): integer
// coordinates, nothing outside the image ("CLK_ADDRESS_NONE": read as the border colour here).
Footprint exactFootprint(Builder& b, const View& v, const Shape& s, llvm::Value* coord);
// The one or the other, as the read says.
Footprint footprintOf(Builder& b, const View& v, const Read& r);
// The footprint's components from its taps' `texels`: the border's 0 outside, weighted.
Components filter(Builder& b, const Footprint& f, const std::vector<Components>& texels, Kind kind);
// A constant-folding select (IRBuilder folds only when all three operands are constants).
llvm::Value* select(Builder& b, llvm::Value* c, llvm::Value* t, llvm::Value* f);

// image_generic.cpp (with loadView and loadField above)
// Splits the block at the builder's position into a switch on `key` (i32): each case, and `other`
// for the rest, in a block of its own, the values they give (as many, of the same types) joined by
// phis; the builder is left after the join, before what followed it.
using CaseBody = std::function<Values(Builder&)>;
Values switchOn(Builder& b, llvm::Value* key,
                const std::vector<std::pair<uint32_t, CaseBody>>& cases, const CaseBody& other);
inline Values valuesOf(const Components& c) {
  return Values(c.begin(), c.end());
}
inline Components componentsOf(const Values& v) {
  return {v[0], v[1], v[2], v[3]};
}
// A read of any format, through the generic read function: its components (before the swizzle).
Values callGenericRead(Builder& b, const View& v, const Read& r);
// write_image*'s components into the tap's texel through the runtime (nothing when outside).
void writeRuntime(Builder& b, const View& v, const Tap& tap, const Components& c);

// image_texels.cpp
// The components of a read (before the swizzle), by the image's format.
Components readComponents(Builder& b, const View& v, const Read& r);
// The call's <4 x T> value from components: the image's swizzle applied.
llvm::Value* swizzled(Builder& b, const View& v, const Components& c, Kind kind,
                      llvm::Type* result);
// write_image{f,i,ui}: `texel` (<4 x float> or <4 x i32>) into the tap (one, exact) when inside.
void writeTexel(Builder& b, const View& v, const Tap& tap, llvm::Value* texel, Kind kind);

}  // namespace tessera::backends::cpu::jit::builtins::image
