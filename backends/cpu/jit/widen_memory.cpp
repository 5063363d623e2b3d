// The widening (widener.h): loads and stores of the lanes: contiguous vectors, one load for
// coinciding addresses, gathers and scatters, and OpenCL vectors lane by lane.
#include "backends/cpu/jit/widener.h"

#include <llvm/Transforms/Utils/BasicBlockUtils.h>

namespace tessera::backends::cpu::jit::widening {

// The bytes one lane's value of type t covers in memory, when VF of them at that distance from
// each other lie back to back as one vector of vecOf(t) does: elements of whole bytes (not i1:
// <8 x i1> is one byte, eight i1 are eight), counted by the store size, not the allocation size,
// so that a 3-element vector is its 3 elements (a vload3 of pixels 3 bytes apart is one
// contiguous <3 VF x i8>, whose store size is exactly the lanes' bytes). 0 otherwise, and 0 for
// elements whose allocation is larger than their bits (irregularElement: an i48 stored in 6 bytes
// and allocated 8), whose vectors are packed in memory but whose masked loads and stores LLVM
// scalarizes at allocation-size strides (ScalarizeMaskedMemIntrin's element GEPs): such lanes take
// the gathers and scatters, each lane touching exactly its own bytes.
uint64_t Widener::backToBack(llvm::Type* t) {
  llvm::Type* e = t->getScalarType();
  uint64_t elementBytes = dl_.getTypeStoreSize(e).getFixedSize();
  if (irregularElement(dl_, t)) return 0;
  uint64_t bytes = dl_.getTypeStoreSize(t).getFixedSize();
  return dl_.getTypeStoreSize(vecOf(t)).getFixedSize() == vf_ * bytes ? bytes : 0;
}

// The lanes a memory access runs for: the predicated block's, else all.
llvm::Value* Widener::lanes(llvm::IRBuilder<>& b) {
  return mask_ ? mask_ : llvm::Constant::getAllOnesValue(vecOf(b.getInt1Ty()));
}

// The first lane of the predicated block being widened (one runs it, or the block does not run).
llvm::Value* Widener::firstActive(llvm::IRBuilder<>& b) {
  llvm::Type* bits = b.getIntNTy(vf_);
  llvm::Value* first = b.CreateIntrinsic(llvm::Intrinsic::cttz, {bits},
                                         {b.CreateBitCast(mask_, bits), b.getFalse()});
  return b.CreateIntrinsic(llvm::Intrinsic::umin, {bits},
                           {first, llvm::ConstantInt::get(bits, vf_ - 1)});
}

// Where an access whose lanes lie `s` bytes apart starts: lane 0's address, unless the access is
// masked and the stride is one that holds only between the lanes that use the address
// (lane_strides.h: the optimizer may have zero-extended an index that the guard proves not
// negative, and lane 0, outside the guard, then has an address 16 GiB away); then the first active
// lane's address, less its distance from lane 0. The lanes the mask leaves out touch nothing, so
// the start itself need not be inside the buffer.
llvm::Value* Widener::activeAddress(llvm::IRBuilder<>& b, llvm::Value* p, int64_t s) {
  if (!mask_ || !varying_.count(p) || exactStride(p) == s) return p;
  ++stats_->activeBases;
  llvm::Value* first = firstActive(b);
  llvm::Value* at = b.CreateExtractElement(wide_.lookup(p), first);
  if (s == 0) return at;
  llvm::Value* back = b.CreateMul(b.CreateZExt(first, b.getInt64Ty()), b.getInt64(-s));
  return b.CreateGEP(b.getInt8Ty(), at, back, p->getName() + ".from.active");
}

llvm::Value* Widener::widenLoad(llvm::IRBuilder<>& b, llvm::LoadInst* l) {
  llvm::Type* t = l->getType();
  llvm::Value* p = l->getPointerOperand();
  auto s = stride(p);
  uint64_t size = backToBack(t);
  if (s && size && *s == static_cast<int64_t>(size)) {
    ++stats_->contiguous;
    if (mask_)
      return b.CreateMaskedLoad(vecOf(t), activeAddress(b, p, *s), l->getAlign(),
                                spreadLanes(b, mask_, vectorElements(t)), nullptr,
                                l->getName() + ".wide");
    return b.CreateAlignedLoad(vecOf(t), p, l->getAlign(), l->getName() + ".wide");
  }
  if (s && *s == 0) {
    // Every lane's address is lane 0's (`in[tid / 8]`, lane_strides.h): one load for all, from
    // a lane that makes it.
    ++stats_->contiguous;
    return splat(
        b, b.CreateAlignedLoad(t, activeAddress(b, p, 0), l->getAlign(), l->getName() + ".one"));
  }
  llvm::Value* check = !s && size ? unclampedCheck(b, l, static_cast<int64_t>(size)) : nullptr;
  // The fallback's instructions are those inserted between `before` and l.
  llvm::Instruction* before = l->getPrevNode();
  const WidenStats counted = *stats_;
  llvm::Value* v = nullptr;
  if (vectorElements(t)) {
    v = loadLaneVectors(b, l);
  } else if (unsigned k = spacing(t, s)) {
    v = loadSpaced(b, l, *s, k);
  } else if (s && !mask_ && f_.hasFnAttribute(kStridedLoadsAttr)) {
    v = loadStrided(b, l, *s);
  } else {
    ++stats_->gathers;
    v = b.CreateMaskedGather(vecOf(t), wide(b, p), l->getAlign(), lanes(b), nullptr,
                             l->getName() + ".wide");
  }
  if (check) {
    stats_->gathers = counted.gathers;
    stats_->vectorGathers = counted.vectorGathers;
    ++stats_->versionedLoads;
    llvm::Instruction* first = before ? before->getNextNode() : &*l->getParent()->begin();
    versioned_.push_back(
        {first, l->getPrevNode(), v, check, t, p, l->getAlign(), l->getName().str(), mask_});
  }
  return v;
}

// Clamped neighbours (`in[clamp(x + dx, 0, w - 1)]`: the edges of a median, a blur, a
// morphology): the lanes' addresses are not consecutive in general, but they are in every chunk
// where no clamp on the way to the address clamps a lane, all but the chunks at the edges. The
// check that none does (the and of unclamped() over those clamps), when the address is
// consecutive then (LaneStrides::seeThroughClamps), else null. The load is then one vector load
// where the check holds and its fallback (a gather) where it does not (versionLoads): each lane
// reads exactly its own address either way. Clamps behind a phi are not looked through.
llvm::Value* Widener::unclampedCheck(llvm::IRBuilder<>& b, llvm::LoadInst* l, int64_t size) {
  if (!clampsFound_) {
    clampsFound_ = true;
    for (llvm::BasicBlock* bb : order_)
      for (llvm::Instruction& i : *bb)
        if (varying_.count(&i) && LaneStrides::clampedOperand(&i, varying_)) clamps_.insert(&i);
    unclamped_.seeThroughClamps(&clamps_, &strides_);
    unclampedExact_.seeThroughClamps(&clamps_, &exact_);
  }
  if (clamps_.empty()) return nullptr;
  // The clamps the address is computed from, short of phis.
  std::vector<llvm::Instruction*> found;
  llvm::DenseSet<llvm::Value*> seen;
  std::vector<llvm::Value*> work{l->getPointerOperand()};
  while (!work.empty()) {
    auto* i = llvm::dyn_cast<llvm::Instruction>(work.back());
    work.pop_back();
    if (i == nullptr || !varying_.count(i) || llvm::isa<llvm::PHINode>(i) || !seen.insert(i).second)
      continue;
    if (clamps_.count(i)) found.push_back(i);
    for (llvm::Value* op : i->operands()) work.push_back(op);
  }
  if (found.empty() || unclamped_.of(l->getPointerOperand()) != size) return nullptr;
  llvm::Value* all = nullptr;
  for (llvm::Instruction* c : found) {
    llvm::Value* ok = unclamped(c);
    if (ok == nullptr) return nullptr;
    all = all ? b.CreateAnd(all, ok) : ok;
  }
  return all;
}

// Whether the clamp c = min/max(a, u) (u uniform) leaves every lane's a as it is: a's lanes step
// by a known stride in every lane (an exact stride, the clamps before it taken as not clamping,
// which their own checks establish), so they are monotonic (the stride analysis's no-wrap
// assumption), and all of them lie inside the bound when the first and the last do. An unsigned
// min/max also needs a not negative in any lane. Built right after c, where a and u are known;
// null when the lanes' stride is not known.
llvm::Value* Widener::unclamped(llvm::Instruction* c) {
  if (auto it = unclampedChecks_.find(c); it != unclampedChecks_.end()) return it->second;
  auto* call = llvm::cast<llvm::IntrinsicInst>(c);
  llvm::Value* a = LaneStrides::clampedOperand(c, varying_);
  llvm::Value* u = call->getArgOperand(call->getArgOperand(0) == a ? 1 : 0);
  const llvm::Intrinsic::ID id = call->getIntrinsicID();
  const bool isUnsigned = id == llvm::Intrinsic::umin || id == llvm::Intrinsic::umax;
  llvm::Value* r = nullptr;
  auto s = a->getType()->isIntegerTy() ? unclampedExact_.of(a) : std::nullopt;
  if (s && (!isUnsigned || unclampedExact_.nonNegative(a))) {
    llvm::IRBuilder<> b(c->getNextNode());
    const auto pred = id == llvm::Intrinsic::smin   ? llvm::CmpInst::ICMP_SLE
                      : id == llvm::Intrinsic::smax ? llvm::CmpInst::ICMP_SGE
                      : id == llvm::Intrinsic::umin ? llvm::CmpInst::ICMP_ULE
                                                    : llvm::CmpInst::ICMP_UGE;
    llvm::Value* last = b.CreateAdd(
        a, llvm::ConstantInt::get(a->getType(), static_cast<uint64_t>(int64_t(vf_ - 1) * *s), true),
        c->getName() + ".last.lane");
    r = b.CreateAnd(b.CreateICmp(pred, a, u), b.CreateICmp(pred, last, u),
                    c->getName() + ".unclamped");
  }
  unclampedChecks_[c] = r;
  return r;
}

// The loads unclampedCheck found: the fallback's instructions move into the else arm of a branch
// on the check, the vector load at the lanes' first address goes into the then arm, and a phi
// where the load was takes the one that ran. After the rest of the transformation (which keys
// blocks and would not follow the split).
void Widener::versionLoads() {
  for (const VersionedLoad& v : versioned_) {
    llvm::Instruction* thenTerm = nullptr;
    llvm::Instruction* elseTerm = nullptr;
    auto* slow = llvm::cast<llvm::Instruction>(v.value);
    llvm::SplitBlockAndInsertIfThenElse(v.check, v.first, &thenTerm, &elseTerm);
    std::vector<llvm::Instruction*> moved;
    for (llvm::Instruction* i = v.first;; i = i->getNextNode()) {
      moved.push_back(i);
      if (i == v.last) break;
    }
    for (llvm::Instruction* i : moved) i->moveBefore(elseTerm);
    llvm::IRBuilder<> b(thenTerm);
    llvm::Value* fast;
    if (v.mask) {
      mask_ = v.mask;
      fast = b.CreateMaskedLoad(
          vecOf(v.type), activeAddress(b, v.pointer, static_cast<int64_t>(backToBack(v.type))),
          v.align, spreadLanes(b, v.mask, vectorElements(v.type)), nullptr, v.name + ".unclamped");
      mask_ = nullptr;
    } else {
      fast = b.CreateAlignedLoad(vecOf(v.type), v.pointer, v.align, v.name + ".unclamped");
    }
    llvm::BasicBlock* tail = thenTerm->getSuccessor(0);
    llvm::PHINode* phi =
        llvm::PHINode::Create(slow->getType(), 2, v.name + ".wide", &tail->front());
    slow->replaceAllUsesWith(phi);
    phi->addIncoming(fast, thenTerm->getParent());
    phi->addIncoming(slow, elseTerm->getParent());
  }
  versioned_.clear();
}

// Lanes at a known constant distance (`alm[(lid * 2 + m) * 17 + k]`, CLBlast's XgemmDirect
// reading its __local A tile), on a host whose gathers are slow (kStridedLoadsAttr): a gather
// with every lane on, its addresses lane 0's plus lane * stride bytes, tagged
// kStridedLanesMetadata. It is not run as a gather: after O3 (which unrolls the loops it sits in
// and leaves gathers alone), strided_groups.cpp turns gathers whose lanes read consecutive elements
// of each other (k, k + 1, ... of a lane's row) into one vector load per lane and a transpose, and
// the others into one scalar load per lane (on this AMD EPYC, CLBlast's SGEMM n=256 took 15% less
// CPU time so than with gathers). Unmasked only (a masked lane must not load).
llvm::Value* Widener::loadStrided(llvm::IRBuilder<>& b, llvm::LoadInst* l, int64_t stride) {
  ++stats_->stridedLoads;
  llvm::Type* t = l->getType();
  llvm::Value* p = l->getPointerOperand();
  llvm::Type* bytePtr = b.getInt8PtrTy(p->getType()->getPointerAddressSpace());
  llvm::SmallVector<llvm::Constant*, 64> offsets;
  for (unsigned i = 0; i < vf_; ++i) offsets.push_back(b.getInt64(stride * int64_t(i)));
  llvm::Value* bytes = b.CreateGEP(b.getInt8Ty(), b.CreatePointerCast(p, bytePtr),
                                   llvm::ConstantVector::get(offsets), p->getName() + ".lanes");
  llvm::Value* addresses = b.CreatePointerCast(bytes, vecOf(p->getType()));
  // Every lane's alignment: lane 0's, as far as the stride keeps it.
  const llvm::Align lane = llvm::commonAlignment(l->getAlign(), static_cast<uint64_t>(stride));
  llvm::CallInst* g =
      b.CreateMaskedGather(vecOf(t), addresses, lane, lanes(b), nullptr, l->getName() + ".wide");
  llvm::LLVMContext& c = b.getContext();
  g->setMetadata(kStridedLanesMetadata,
                 llvm::MDNode::get(c, llvm::ConstantAsMetadata::get(b.getInt64(stride))));
  return g;
}

// Lanes k elements apart, 1 < k <= kMaxSpacing, for a scalar of whole bytes on a host that masks
// per element (kMaskedSpansAttr): k, else 0.
unsigned Widener::spacing(llvm::Type* t, std::optional<int64_t> stride) {
  if (!f_.hasFnAttribute(kMaskedSpansAttr)) return 0;
  const int64_t size = vectorElements(t) ? 0 : static_cast<int64_t>(backToBack(t));
  if (!stride || size == 0 || *stride <= size || *stride % size != 0) return 0;
  const int64_t k = *stride / size;
  return k <= kMaxSpacing ? static_cast<unsigned>(k) : 0;
}

// The mask of a spaced access's k x VF elements: element i * k is lane i's bit (the predicated
// block's, else on), the others off.
llvm::Value* Widener::spacedMask(llvm::IRBuilder<>& b, unsigned k) {
  llvm::Value* off = llvm::Constant::getNullValue(vecOf(b.getInt1Ty()));
  llvm::SmallVector<int, 64> idx;
  for (unsigned e = 0; e < k * vf_; ++e)
    idx.push_back(static_cast<int>(e % k ? vf_ : e / k));  // vf_: off's first element
  return b.CreateShuffleVector(lanes(b), off, idx);
}

// Lanes k elements apart (spacing): one masked load of the k x VF elements from lane 0's address
// (the first active lane's, less its distance, in a predicated block: activeAddress), only the
// lanes' own elements enabled, then every k-th element. It reads exactly the lanes' bytes (a
// masked-off element is not read, and cannot fault, past the end of a buffer either), where the
// gather or the scalar load per lane cost a load and an insert per lane.
llvm::Value* Widener::loadSpaced(llvm::IRBuilder<>& b, llvm::LoadInst* l, int64_t stride,
                                 unsigned k) {
  ++stats_->stridedLoads;
  llvm::Type* t = l->getType();
  auto* span = llvm::FixedVectorType::get(t, k * vf_);
  llvm::Value* all =
      b.CreateMaskedLoad(span, activeAddress(b, l->getPointerOperand(), stride), l->getAlign(),
                         spacedMask(b, k), nullptr, l->getName() + ".span");
  llvm::SmallVector<int, 64> idx;
  for (unsigned i = 0; i < vf_; ++i) idx.push_back(static_cast<int>(i * k));
  return b.CreateShuffleVector(all, idx, l->getName() + ".wide");
}

// The store counterpart: the lanes' values spread to every k-th element of k x VF, stored with
// only those elements enabled. Lanes k elements apart never coincide, so the order between lanes
// does not matter.
void Widener::storeSpaced(llvm::IRBuilder<>& b, llvm::StoreInst* st, int64_t stride, unsigned k) {
  ++stats_->stridedStores;
  llvm::SmallVector<int, 64> idx;
  for (unsigned e = 0; e < k * vf_; ++e)
    idx.push_back(e % k ? llvm::UndefMaskElem : static_cast<int>(e / k));
  llvm::Value* spread = b.CreateShuffleVector(wide(b, st->getValueOperand()), idx);
  b.CreateMaskedStore(spread, activeAddress(b, st->getPointerOperand(), stride), st->getAlign(),
                      spacedMask(b, k));
}

// An OpenCL vector whose lanes' vectors are not consecutive in memory (CLBlast's tile loads,
// `alm[kg * 8 + tid % 8]`, a float4 per lane at a stride the analysis does not know): a lane's
// vector as wide as an int or a long (float2, char4, ...) is one integer of a gather; a wider
// one is loaded lane by lane from each lane's address, and the VF vectors are concatenated
// lane-major. In a predicated block each lane's load is masked by its own bit (a masked load
// does not touch memory where its mask is off).
llvm::Value* Widener::loadLaneVectors(llvm::IRBuilder<>& b, llvm::LoadInst* l) {
  llvm::Type* t = l->getType();
  llvm::Value* p = l->getPointerOperand();
  ++stats_->vectorGathers;
  if (llvm::Type* whole = laneInteger(t)) {
    llvm::Value* g = b.CreateMaskedGather(vecOf(whole), wide(b, p), l->getAlign(), lanes(b));
    return b.CreateBitCast(g, vecOf(t), l->getName() + ".wide");
  }
  std::vector<llvm::Value*> parts;
  for (unsigned k = 0; k < vf_; ++k) {
    llvm::Value* at = laneAddress(b, p, k);
    if (mask_)
      parts.push_back(b.CreateMaskedLoad(t, at, l->getAlign(), laneMask(b, k, vectorElements(t))));
    else
      parts.push_back(b.CreateAlignedLoad(t, at, l->getAlign()));
  }
  return concatLanes(b, parts, l->getName() + ".wide");
}

// The store of an OpenCL vector whose lanes' vectors are not consecutive, or all at one address:
// each lane's vector stored at its address in lane order (the scalar order, so the last lane's
// is the one left where addresses coincide), masked by its lane's bit in a predicated block;
// an int- or long-sized one as one scatter of integers (ordered the same way).
void Widener::storeLaneVectors(llvm::IRBuilder<>& b, llvm::StoreInst* st) {
  llvm::Value* v = st->getValueOperand();
  llvm::Value* p = st->getPointerOperand();
  llvm::Type* t = v->getType();
  const unsigned n = vectorElements(t);
  ++stats_->vectorScatters;
  llvm::Value* w = wide(b, v);
  if (llvm::Type* whole = laneInteger(t); whole && varying_.count(p)) {
    b.CreateMaskedScatter(b.CreateBitCast(w, vecOf(whole)), wide(b, p), st->getAlign(), lanes(b));
    return;
  }
  for (unsigned k = 0; k < vf_; ++k) {
    llvm::SmallVector<int, 16> idx;
    for (unsigned e = 0; e < n; ++e) idx.push_back(static_cast<int>(k * n + e));
    llvm::Value* part = b.CreateShuffleVector(w, idx);
    llvm::Value* at = laneAddress(b, p, k);
    if (mask_)
      b.CreateMaskedStore(part, at, st->getAlign(), laneMask(b, k, n));
    else
      b.CreateAlignedStore(part, at, st->getAlign());
  }
}

// The integer type a lane's vector of type t is, bit for bit, when the target gathers such
// integers (4 or 8 bytes), else null.
llvm::Type* Widener::laneInteger(llvm::Type* t) {
  uint64_t bits = 8 * backToBack(t);
  if (bits != 32 && bits != 64) return nullptr;
  return llvm::IntegerType::get(t->getContext(), static_cast<unsigned>(bits));
}

// Lane k's address: lane 0's (the scalar instruction's value) plus k strides when the stride is
// known (and, in a predicated block, holds for every lane: see activeAddress), else element k of
// the widened address.
llvm::Value* Widener::laneAddress(llvm::IRBuilder<>& b, llvm::Value* p, unsigned k) {
  if (!varying_.count(p)) return p;
  if (auto s = stride(p); s && (!mask_ || exactStride(p) == s)) {
    if (k == 0) return p;
    return b.CreateGEP(b.getInt8Ty(), p, b.getInt64(static_cast<uint64_t>(*s * k)));
  }
  return b.CreateExtractElement(wide_.lookup(p), k);
}

// Lane k's bit of the block's mask, for the n elements of its vector.
llvm::Value* Widener::laneMask(llvm::IRBuilder<>& b, unsigned k, unsigned n) {
  return b.CreateVectorSplat(n, b.CreateExtractElement(mask_, k));
}

// The lanes' vectors (all of one type, lane order) as one lane-major vector: pairs concatenated
// level by level (LLVM's concat_vectors, which x86 does with subvector inserts).
llvm::Value* Widener::concatLanes(llvm::IRBuilder<>& b, std::vector<llvm::Value*> parts,
                                  const llvm::Twine& name) {
  auto count = [](llvm::Value* v) {
    return static_cast<unsigned>(llvm::cast<llvm::FixedVectorType>(v->getType())->getNumElements());
  };
  const unsigned total = count(parts[0]) * static_cast<unsigned>(parts.size());
  while (parts.size() > 1) {
    if (parts.size() % 2) parts.push_back(llvm::PoisonValue::get(parts[0]->getType()));
    std::vector<llvm::Value*> next;
    for (size_t k = 0; k < parts.size(); k += 2) {
      llvm::SmallVector<int, 64> idx;
      for (unsigned e = 0; e < 2 * count(parts[k]); ++e) idx.push_back(static_cast<int>(e));
      next.push_back(b.CreateShuffleVector(parts[k], parts[k + 1], idx));
    }
    parts = std::move(next);
  }
  if (count(parts[0]) == total) {
    parts[0]->setName(name);
    return parts[0];
  }
  llvm::SmallVector<int, 64> idx;
  for (unsigned e = 0; e < total; ++e) idx.push_back(static_cast<int>(e));
  return b.CreateShuffleVector(parts[0], idx, name);
}

void Widener::widenStore(llvm::IRBuilder<>& b, llvm::StoreInst* st) {
  llvm::Value* v = st->getValueOperand();
  llvm::Value* p = st->getPointerOperand();
  llvm::Type* t = v->getType();
  if (!varying_.count(p) && !vectorElements(t)) {
    // A varying value to one address: lane by lane, the last lane's store is the one left.
    perLane(b, *st);
    return;
  }
  auto s = stride(p);
  uint64_t size = backToBack(t);
  if (varying_.count(p) && s && size && *s == static_cast<int64_t>(size)) {
    ++stats_->contiguous;
    if (mask_)
      b.CreateMaskedStore(wide(b, v), activeAddress(b, p, *s), st->getAlign(),
                          spreadLanes(b, mask_, vectorElements(t)));
    else
      b.CreateAlignedStore(wide(b, v), p, st->getAlign())
          ->setMetadata(kLaneBytesMetadata,
                        llvm::MDNode::get(b.getContext(), llvm::ConstantAsMetadata::get(b.getInt64(
                                                              static_cast<int64_t>(size)))));
    return;
  }
  if (vectorElements(t)) {
    storeLaneVectors(b, st);
    return;
  }
  if (unsigned k = varying_.count(p) ? spacing(t, s) : 0) {
    storeSpaced(b, st, *s, k);
    return;
  }
  ++stats_->scatters;
  b.CreateMaskedScatter(wide(b, v), wide(b, p), st->getAlign(), lanes(b));
}

}  // namespace tessera::backends::cpu::jit::widening
