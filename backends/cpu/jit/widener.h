// The widening across work-items (widen.cpp, which describes it): the Widener that turns one
// region's copy into its widened form, split by concept over
//   widen.cpp            the pass: run(), cutting refused paths off, widenRegion();
//   widen_classify.cpp   which values vary and whether the widening can express the region;
//   widen_transform.cpp  rewriting the varying instructions, phis and branches into vector form;
//   widen_memory.cpp     loads and stores: contiguous, gathers and scatters, per-lane vectors.
// Private to the JIT's widening; included by those four files only.
#pragma once

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Support/raw_ostream.h>

#include <optional>
#include <string>
#include <vector>

#include "backends/cpu/jit/jit_passes.h"
#include "backends/cpu/jit/lane_strides.h"

namespace tessera::backends::cpu::jit::widening {

inline bool scalarType(llvm::Type* t) {
  return t->isIntegerTy() || t->isFloatingPointTy() || t->isPointerTy();
}

// An OpenCL vector value (float4, int2, ...): widened lane-major, lane l's element k at l * n + k
// of a <VF * n> vector, which is how VF consecutive float4s lie in memory.
inline unsigned vectorElements(llvm::Type* t) {
  auto* v = llvm::dyn_cast<llvm::FixedVectorType>(t);
  return v && (v->getElementType()->isIntegerTy() || v->getElementType()->isFloatingPointTy())
             ? static_cast<unsigned>(v->getNumElements())
             : 0;
}

// Integers of more than 64 bits are not: LLVM 15's x86 instruction selection aborts the process
// on some vectors of them ("Cannot select: i32 = any_extend" for a <16 x i128> shift, and-mask and
// compare: a sub-group ballot's bit extract widened 16 work-items at a time, reduced with
// llvm-reduce on an AVX2 EPYC), so such a region runs scalar.
inline bool widenable(llvm::Type* t) {
  if (t->getScalarType()->isIntegerTy() && t->getScalarSizeInBits() > 64) return false;
  return scalarType(t) || vectorElements(t) != 0;
}

// Elements whose allocation differs from their bits (i1, and the odd-width integers of
// SPV_INTEL_arbitrary_precision_integers: an i48 is 48 bits stored in 6 bytes and allocated 8),
// LLVM's loop vectorizer's "irregular" types: VF of them side by side in a vector are not VF of
// them side by side in memory, so the widening never accesses them as one vector (backToBack) nor
// as OpenCL vectors of them lane by lane (the classification refuses such loads and stores).
inline bool irregularElement(const llvm::DataLayout& dl, llvm::Type* t) {
  llvm::Type* e = t->getScalarType();
  return dl.getTypeAllocSizeInBits(e).getFixedSize() != dl.getTypeSizeInBits(e).getFixedSize();
}

// A reduction of an OpenCL vector's elements to a scalar (any() and all() become or/and
// reductions of a compare): widened column by column (Widener::widenReduction).
inline bool isElementReduction(llvm::Intrinsic::ID id) {
  switch (id) {
    case llvm::Intrinsic::vector_reduce_and:
    case llvm::Intrinsic::vector_reduce_or:
    case llvm::Intrinsic::vector_reduce_xor:
    case llvm::Intrinsic::vector_reduce_add:
    case llvm::Intrinsic::vector_reduce_mul:
    case llvm::Intrinsic::vector_reduce_smax:
    case llvm::Intrinsic::vector_reduce_smin:
    case llvm::Intrinsic::vector_reduce_umax:
    case llvm::Intrinsic::vector_reduce_umin:
    case llvm::Intrinsic::vector_reduce_fmax:
    case llvm::Intrinsic::vector_reduce_fmin:
      return true;
    default:
      return false;
  }
}

// At most this many bits in one widened vector value (16 AVX-512 registers): clpeak's float8
// kernel widened 64 work-items at a time (32 registers a value) ran at a quarter of its float4
// one, its double4 one at a fifth of double2; at this bound both run at the FMA peak.
inline constexpr uint64_t kMaxWideBits = 8192;

// At most this many elements in one widened integer division or remainder by a divisor that is
// not a constant: x86 has no vector integer division (AVX-512 neither), so LLVM emits one scalar
// div per element in one block, and its instruction scheduler is quadratic in such a block
// (char16 divided 16 work-items at a time: 512 divs, 5 s to compile one kernel; 16 divs: 0.3 s).
// Widening gains nothing on them; a narrower level (or the scalar loop) takes the region.
inline constexpr unsigned kMaxWideDivisions = 16;

// Set on a kernel (jit_pipeline.cpp, planWidening) when the host's gathers are slow (LLVM's
// "fast-gather" tuning is absent: AMD's cores): loads whose lanes lie at a constant distance from
// each other are then one scalar load per lane (Widener::loadStrided) rather than a gather. Its
// regions, clones of the kernel, carry it too.
inline constexpr const char* kStridedLoadsAttr = "tessera-strided-loads";

// Set on a kernel (jit_pipeline.cpp, planWidening) when the host masks vector loads and stores
// per element natively (AVX-512 with byte and word masks, AVX512BW): lanes at most kMaxSpacing
// elements apart, scalars of whole bytes (a work-item's pair `[2 * i + m]`: CLBlast's XgemmDirect
// at its default 2 x 2 outputs a work-item), are then one masked load or store of the lanes' span
// with only every k-th element enabled (widen_memory.cpp, loadSpaced / storeSpaced), which touches
// exactly the lanes' bytes. Not on AVX2, whose masked stores AMD's cores run as microcode: there
// CLBlast's SGEMM n = 512 ran 7.5 GFLOP/s with them against 11 without (session 30); on an AVX-512
// EPYC 22 -> 36 (docs/performance.md, session 36).
inline constexpr const char* kMaskedSpansAttr = "tessera-masked-spans";
inline constexpr unsigned kMaxSpacing = 4;

class Widener {
 public:
  Widener(llvm::Function& f, unsigned first, unsigned vf, WidenStats* stats)
      : f_(f), first_(first), vf_(vf), stats_(stats), dl_(f.getParent()->getDataLayout()) {}

  bool run(std::string* why);
  bool cutToBail();

 private:
  bool promotePrivates(std::string* why);

  static bool isPrefetch(const llvm::Instruction& i) {
    auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&i);
    return call != nullptr && call->getIntrinsicID() == llvm::Intrinsic::prefetch;
  }

  // Calls that must run once per work-item even with uniform arguments.
  static bool sideEffects(llvm::CallInst* call) {
    return !call->doesNotAccessMemory() || call->mayHaveSideEffects();
  }

  // A varying branch around plain code, `if (lid < s) scratch[lid] += ...`: the code runs for the
  // chunk when any lane takes the branch, its loads and stores masked by the lanes that do (the
  // others keep memory as it was), and the join's phis pick per lane. No bail, so it may follow
  // stores. The code is one block, or blocks whose own branches are uniform (CLBlast's
  // StoreResultsChecked: `if (idm < m && idn < n) { if (beta == 0) ... else ...; store }`), with
  // one entry and every exit to the join; what it holds must not act per lane or trap on another
  // lane's operands: no atomics, volatile accesses or calls with side effects, no integer
  // division that may trap (trap_free_arithmetic.cpp guards them all), no store of a varying
  // value to one address.
  struct Predicated {
    llvm::BasicBlock* then;
    llvm::BasicBlock* merge;
    bool negate;                            // the code runs where the condition is false
    std::vector<llvm::BasicBlock*> blocks;  // `then` first
  };

  // widen_classify.cpp
  bool classify(std::string* why);
  bool vectorShapeOk(llvm::Instruction& i, std::string* why);
  std::optional<Predicated> predicable(llvm::BranchInst* br);
  bool afterSideEffect(llvm::BasicBlock* target);
  bool uniformSlot(llvm::Value* p);
  llvm::Value* slotBase(llvm::Value* p);

  static std::string typeName(llvm::Type* t) {
    std::string s;
    llvm::raw_string_ostream os(s);
    t->print(os);
    return os.str();
  }

  // The lanes of a value: its stride (lane_strides.h), broadcasts, extracts, the lane-major
  // layout of OpenCL vectors.
  std::optional<int64_t> stride(llvm::Value* v) { return strides_.of(v); }
  // The stride that holds for every lane, active or not (lane_strides.h, exact answers).
  std::optional<int64_t> exactStride(llvm::Value* v) { return exact_.of(v); }

  llvm::Value* splat(llvm::IRBuilder<>& b, llvm::Value* v) {
    if (unsigned n = vectorElements(v->getType())) {
      llvm::SmallVector<int, 64> idx;
      for (unsigned l = 0; l < vf_; ++l)
        for (unsigned k = 0; k < n; ++k) idx.push_back(static_cast<int>(k));
      return b.CreateShuffleVector(v, idx);
    }
    if (auto* c = llvm::dyn_cast<llvm::Constant>(v))
      return llvm::ConstantVector::getSplat(llvm::ElementCount::getFixed(vf_), c);
    return b.CreateVectorSplat(vf_, v);
  }

  // The vector of v's lanes, at b's position.
  llvm::Value* wide(llvm::IRBuilder<>& b, llvm::Value* v) {
    if (varying_.count(v)) return wide_.lookup(v);
    return splat(b, v);
  }

  llvm::Value* lane(llvm::IRBuilder<>& b, llvm::Value* v, unsigned l) {
    if (!varying_.count(v)) return v;
    return b.CreateExtractElement(wide_.lookup(v), l);
  }

  llvm::Type* vecOf(llvm::Type* t) {
    if (unsigned n = vectorElements(t))
      return llvm::FixedVectorType::get(llvm::cast<llvm::FixedVectorType>(t)->getElementType(),
                                        vf_ * n);
    return llvm::FixedVectorType::get(t, vf_);
  }

  // Lane 0's value of type t out of its widened twin.
  llvm::Value* laneZero(llvm::IRBuilder<>& b, llvm::Value* w, llvm::Type* t) {
    unsigned n = vectorElements(t);
    if (n == 0) return b.CreateExtractElement(w, uint64_t{0});
    llvm::SmallVector<int, 16> idx;
    for (unsigned k = 0; k < n; ++k) idx.push_back(static_cast<int>(k));
    return b.CreateShuffleVector(w, idx);
  }

  // Each lane's mask bit repeated for the n elements of its vector (lane-major layout).
  llvm::Value* spreadLanes(llvm::IRBuilder<>& b, llvm::Value* perLane, unsigned n) {
    if (n <= 1) return perLane;
    llvm::SmallVector<int, 64> idx;
    for (unsigned l = 0; l < vf_; ++l)
      for (unsigned k = 0; k < n; ++k) idx.push_back(static_cast<int>(l));
    return b.CreateShuffleVector(perLane, idx);
  }

  // widen_transform.cpp
  llvm::Value* perLane(llvm::IRBuilder<>& b, llvm::Instruction& i);
  void transform();
  llvm::Value* maskOf(llvm::BasicBlock* branching);
  std::optional<std::pair<llvm::Value*, llvm::Value*>> endLanes(llvm::IRBuilder<>& b,
                                                                llvm::Value* cond);
  llvm::Value* widenElements(llvm::IRBuilder<>& b, llvm::Instruction& i);
  llvm::Value* widenReduction(llvm::IRBuilder<>& b, llvm::CallInst* call);
  llvm::Value* widenCall(llvm::IRBuilder<>& b, llvm::CallInst* call);

  // widen_memory.cpp
  uint64_t backToBack(llvm::Type* t);
  llvm::Value* lanes(llvm::IRBuilder<>& b);
  llvm::Value* firstActive(llvm::IRBuilder<>& b);
  llvm::Value* activeAddress(llvm::IRBuilder<>& b, llvm::Value* p, int64_t s);
  llvm::Value* widenLoad(llvm::IRBuilder<>& b, llvm::LoadInst* l);
  llvm::Value* unclampedCheck(llvm::IRBuilder<>& b, llvm::LoadInst* l, int64_t size);
  llvm::Value* unclamped(llvm::Instruction* clamp);
  void versionLoads();
  llvm::Value* loadStrided(llvm::IRBuilder<>& b, llvm::LoadInst* l, int64_t stride);
  unsigned spacing(llvm::Type* t, std::optional<int64_t> stride);
  llvm::Value* spacedMask(llvm::IRBuilder<>& b, unsigned k);
  llvm::Value* loadSpaced(llvm::IRBuilder<>& b, llvm::LoadInst* l, int64_t stride, unsigned k);
  void storeSpaced(llvm::IRBuilder<>& b, llvm::StoreInst* st, int64_t stride, unsigned k);
  llvm::Value* loadLaneVectors(llvm::IRBuilder<>& b, llvm::LoadInst* l);
  void storeLaneVectors(llvm::IRBuilder<>& b, llvm::StoreInst* st);
  llvm::Type* laneInteger(llvm::Type* t);
  llvm::Value* laneAddress(llvm::IRBuilder<>& b, llvm::Value* p, unsigned k);
  llvm::Value* laneMask(llvm::IRBuilder<>& b, unsigned k, unsigned n);
  llvm::Value* concatLanes(llvm::IRBuilder<>& b, std::vector<llvm::Value*> parts,
                           const llvm::Twine& name);
  void widenStore(llvm::IRBuilder<>& b, llvm::StoreInst* st);

  llvm::Function& f_;
  unsigned first_;
  unsigned vf_;
  WidenStats* stats_;
  const llvm::DataLayout& dl_;
  std::vector<llvm::BasicBlock*> order_;
  llvm::DenseSet<llvm::Value*> varying_;
  llvm::DenseSet<llvm::Instruction*> perLane_;
  llvm::DenseMap<llvm::Value*, llvm::Value*> wide_;
  LaneStrides strides_{f_, first_, vf_, varying_, dl_};  // asked once varying_ is complete
  LaneStrides exact_{f_, first_, vf_, varying_, dl_, /*exact=*/true};
  // Clamped indices (widen_memory.cpp, unclampedCheck): the region's min/max of a varying value
  // and a uniform bound, the strides where none of them clamps, and the run-time check of each.
  llvm::DenseSet<llvm::Value*> clamps_;
  bool clampsFound_ = false;
  LaneStrides unclamped_{f_, first_, vf_, varying_, dl_};
  LaneStrides unclampedExact_{f_, first_, vf_, varying_, dl_, /*exact=*/true};
  llvm::DenseMap<llvm::Value*, llvm::Value*> unclampedChecks_;  // clamp -> no lane clamped
  // A load widened as its fallback (the instructions first..last, a gather) that is one vector
  // load at `pointer` where `check` holds; versionLoads() puts the two in the arms of a branch.
  struct VersionedLoad {
    llvm::Instruction* first;
    llvm::Instruction* last;
    llvm::Value* value;  // the fallback's result
    llvm::Value* check;
    llvm::Type* type;  // the scalar load's (which is gone by then in a predicated block)
    llvm::Value* pointer;
    llvm::Align align;
    std::string name;
    llvm::Value* mask;  // the predicated block's lanes (null: all)
  };
  std::vector<VersionedLoad> versioned_;
  std::vector<llvm::BranchInst*> divergent_;
  llvm::DenseMap<llvm::BasicBlock*, Predicated> predicated_;         // by the branching block
  llvm::DenseMap<llvm::BasicBlock*, llvm::BasicBlock*> thenBlocks_;  // predicated -> branching
  llvm::DenseMap<llvm::BasicBlock*, llvm::Value*> masks_;  // branching block -> its code's lanes
  llvm::Value* mask_ = nullptr;  // the lanes of the block being widened (null: all)
  bool effectsComputed_ = false;
  llvm::DenseSet<llvm::BasicBlock*> effects_, reached_;
  llvm::BasicBlock* refusedAt_ = nullptr;  // the block classify() refused the region for
};

}  // namespace tessera::backends::cpu::jit::widening
