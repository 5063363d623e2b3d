// Pass: the widening's strided loads, after O3, as vector loads per lane and a transpose.
//
// A load whose lanes lie a constant distance apart, on a host whose gathers are slow, reaches O3
// as a gather tagged kStridedLanesMetadata (Widener::loadStrided). CLBlast's XgemmDirect reads
// its transposed __local A tile so: lane l's element k of row m is `alm[(2 * l + m) * 17 + k]`,
// lanes 136 bytes apart. Once O3 has unrolled the k loop, a block holds the gathers of k, k + 1,
// k + 2, k + 3: each lane reads four consecutive floats, which one load of a float4 per lane
// reads too, exactly those bytes and no others. The four vectors of lanes are then that VF x 4
// matrix transposed: the rows concatenated into 4 vectors of VF, then split twice into even and
// odd elements (two-operand shuffles, 12 of them for VF = 8, against a gather or eight inserts
// a vector). Gathers that find no neighbour become one scalar load per lane. Nothing here is
// left for the backend to run as a gather.
//
// Gathers are grouped only within a stretch of a block that writes no memory (they all read at
// the first one's place then), with the same stride and element type, their lane-0 addresses
// apart by multiples of the element size that ScalarEvolution can tell.
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/ValueHandle.h>
#include <llvm/Transforms/Utils/Local.h>

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "backends/cpu/jit/function_scev.h"
#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

// The most gathers one transpose takes (vectors of 16 elements a lane).
constexpr unsigned kMaxGroup = 16;

struct Strided {
  llvm::IntrinsicInst* gather;
  llvm::Value* base;   // lane 0's address (null when the addresses are not base + lane * stride)
  int64_t stride;      // bytes
  int64_t offset = 0;  // bytes from its cluster's first gather's base
};

// A tagged gather with every lane on: its lane-0 address and stride, from the addresses
// loadStrided built (a GEP of one base by constant offsets lane * stride, through casts).
std::optional<Strided> asStrided(llvm::Instruction& i) {
  auto* g = llvm::dyn_cast<llvm::IntrinsicInst>(&i);
  if (g == nullptr || g->getIntrinsicID() != llvm::Intrinsic::masked_gather) return std::nullopt;
  llvm::MDNode* md = g->getMetadata(kStridedLanesMetadata);
  auto* mask = llvm::dyn_cast<llvm::Constant>(g->getArgOperand(2));
  if (md == nullptr || mask == nullptr || !mask->isAllOnesValue()) return std::nullopt;
  Strided s{g, nullptr, 0};
  s.stride = llvm::mdconst::extract<llvm::ConstantInt>(md->getOperand(0))->getSExtValue();
  llvm::Value* addresses = g->getArgOperand(0);
  while (auto* cast = llvm::dyn_cast<llvm::BitCastOperator>(addresses))
    addresses = cast->getOperand(0);
  auto* gep = llvm::dyn_cast<llvm::GEPOperator>(addresses);
  if (gep == nullptr || gep->getNumIndices() != 1 || gep->getPointerOperandType()->isVectorTy())
    return s;
  auto* offsets = llvm::dyn_cast<llvm::Constant>(gep->getOperand(1));
  const llvm::DataLayout& dl = g->getModule()->getDataLayout();
  const auto lanes = llvm::cast<llvm::FixedVectorType>(g->getType())->getNumElements();
  if (offsets == nullptr || !offsets->getType()->isVectorTy()) return s;
  const int64_t unit =
      static_cast<int64_t>(dl.getTypeAllocSize(gep->getSourceElementType()).getFixedSize());
  for (unsigned l = 0; l < lanes; ++l) {
    auto* c = llvm::dyn_cast_or_null<llvm::ConstantInt>(offsets->getAggregateElement(l));
    if (c == nullptr || c->getSExtValue() * unit != s.stride * l) return s;
  }
  s.base = gep->getPointerOperand();
  return s;
}

unsigned lanesOf(const Strided& s) {
  return llvm::cast<llvm::FixedVectorType>(s.gather->getType())->getNumElements();
}

llvm::Type* elementOf(const Strided& s) {
  return llvm::cast<llvm::FixedVectorType>(s.gather->getType())->getElementType();
}

// Lane l's address: lane 0's plus l * stride bytes, or the gather's own address of lane l.
llvm::Value* laneAddress(llvm::IRBuilder<>& b, const Strided& s, llvm::Value* base, unsigned l) {
  llvm::Type* type = s.gather->getArgOperand(0)->getType()->getScalarType();
  if (base == nullptr) return b.CreateExtractElement(s.gather->getArgOperand(0), l);
  llvm::Type* bytePtr = b.getInt8PtrTy(type->getPointerAddressSpace());
  llvm::Value* at = b.CreateConstGEP1_64(b.getInt8Ty(), b.CreatePointerCast(base, bytePtr),
                                         s.stride * int64_t(l));
  return b.CreatePointerCast(at, type);
}

llvm::Align alignOf(const Strided& s) {
  return llvm::Align(llvm::cast<llvm::ConstantInt>(s.gather->getArgOperand(1))->getZExtValue());
}

// A gather alone: one scalar load per lane, put together with inserts.
void expand(const Strided& s) {
  llvm::IRBuilder<> b(s.gather);
  llvm::Value* v = llvm::PoisonValue::get(s.gather->getType());
  for (unsigned l = 0; l < lanesOf(s); ++l) {
    llvm::LoadInst* load =
        b.CreateAlignedLoad(elementOf(s), laneAddress(b, s, s.base, l), alignOf(s));
    load->setAAMetadata(s.gather->getAAMetadata());
    v = b.CreateInsertElement(v, load, l);
  }
  v->takeName(s.gather);
  s.gather->replaceAllUsesWith(v);
}

llvm::Value* concat(llvm::IRBuilder<>& b, llvm::ArrayRef<llvm::Value*> parts) {
  if (parts.size() == 1) return parts[0];
  const size_t half = parts.size() / 2;
  llvm::Value* lo = concat(b, parts.take_front(half));
  llvm::Value* hi = concat(b, parts.drop_front(half));
  const unsigned n = llvm::cast<llvm::FixedVectorType>(lo->getType())->getNumElements();
  llvm::SmallVector<int, 64> idx;
  for (unsigned e = 0; e < 2 * n; ++e) idx.push_back(static_cast<int>(e));
  return b.CreateShuffleVector(lo, hi, idx);
}

// `seq`: a flat array of rows of `k` elements (row l, element j at l * k + j) as vectors of VF
// elements; splitting it into its even and odd elements halves k. Fills out[j] with the vector of
// every row's element j.
void deinterleave(llvm::IRBuilder<>& b, std::vector<llvm::Value*> seq, unsigned j, unsigned step,
                  std::vector<llvm::Value*>& out) {
  if (seq.size() == 1) {
    out[j] = seq[0];
    return;
  }
  const unsigned n = llvm::cast<llvm::FixedVectorType>(seq[0]->getType())->getNumElements();
  llvm::SmallVector<int, 64> evens, odds;
  for (unsigned e = 0; e < n; ++e) evens.push_back(static_cast<int>(2 * e));
  for (unsigned e = 0; e < n; ++e) odds.push_back(static_cast<int>(2 * e + 1));
  std::vector<llvm::Value*> even, odd;
  for (size_t t = 0; t + 1 < seq.size(); t += 2) {
    even.push_back(b.CreateShuffleVector(seq[t], seq[t + 1], evens));
    odd.push_back(b.CreateShuffleVector(seq[t], seq[t + 1], odds));
  }
  deinterleave(b, std::move(even), j, step * 2, out);
  deinterleave(b, std::move(odd), j + step, step * 2, out);
}

// Gathers of one stride whose lane-0 addresses are element after element (group[j] at j
// elements from group[0]), k = group.size() a power of two at most their lanes: lane l's k
// elements are one vector load at group[0]'s address plus l * stride, placed before `first`, the
// earliest of them in the block.
void transpose(const std::vector<Strided>& group, llvm::Instruction* first) {
  const Strided& lead = group.front();
  const unsigned vf = lanesOf(lead), k = static_cast<unsigned>(group.size());
  llvm::Type* element = elementOf(lead);
  llvm::IRBuilder<> b(first);
  // group[0]'s base from the earliest gather's own (which is defined before it).
  const Strided* early = &lead;
  for (const Strided& s : group)
    if (s.gather == first) early = &s;
  llvm::Type* bytePtr = b.getInt8PtrTy(lead.base->getType()->getPointerAddressSpace());
  llvm::Value* base = b.CreatePointerCast(
      b.CreateConstGEP1_64(b.getInt8Ty(), b.CreatePointerCast(early->base, bytePtr),
                           -(early->offset - lead.offset)),
      lead.base->getType());
  auto* row = llvm::FixedVectorType::get(element, k);
  llvm::AAMDNodes aa = lead.gather->getAAMetadata();
  for (const Strided& s : group)
    if (s.gather->getAAMetadata() != aa) aa = llvm::AAMDNodes();
  std::vector<llvm::Value*> rows;
  for (unsigned l = 0; l < vf; ++l) {
    llvm::Value* at = laneAddress(b, lead, base, l);
    llvm::LoadInst* load = b.CreateAlignedLoad(
        row, b.CreatePointerCast(at, row->getPointerTo(bytePtr->getPointerAddressSpace())),
        alignOf(lead));
    load->setAAMetadata(aa);
    rows.push_back(load);
  }
  // k vectors of VF elements: rows l * VF / k ... concatenated.
  std::vector<llvm::Value*> seq;
  const unsigned perVector = vf / k;
  for (unsigned c = 0; c < k; ++c)
    seq.push_back(concat(b, llvm::ArrayRef<llvm::Value*>(rows).slice(c * perVector, perVector)));
  std::vector<llvm::Value*> columns(k, nullptr);
  deinterleave(b, std::move(seq), 0, 1, columns);
  for (unsigned j = 0; j < k; ++j) {
    columns[j]->takeName(group[j].gather);
    group[j].gather->replaceAllUsesWith(columns[j]);
  }
}

struct Plan {
  std::vector<std::pair<std::vector<Strided>, llvm::Instruction*>> groups;  // and their first
  std::vector<Strided> alone;
};

// The gathers of one stretch of a block that writes no memory, grouped.
void planStretch(std::vector<Strided>& stretch, llvm::ScalarEvolution& se, Plan& plan) {
  std::vector<bool> used(stretch.size(), false);
  for (size_t a = 0; a < stretch.size(); ++a) {
    if (used[a] || stretch[a].base == nullptr) continue;
    // The cluster of gathers like stretch[a] at constant distances from it.
    const Strided& anchor = stretch[a];
    const llvm::DataLayout& dl = anchor.gather->getModule()->getDataLayout();
    // Elements that lie back to back in a vector as in memory (not i1, whose vectors are packed
    // bits, nor types allocated wider than their bits).
    llvm::Type* element = elementOf(anchor);
    if (dl.getTypeSizeInBits(element) != 8 * dl.getTypeAllocSize(element)) continue;
    const int64_t size = static_cast<int64_t>(dl.getTypeStoreSize(element).getFixedSize());
    const unsigned vf = lanesOf(anchor);
    if (!llvm::isPowerOf2_32(vf)) continue;  // the rows are concatenated by halves
    const unsigned space = anchor.base->getType()->getPointerAddressSpace();
    const llvm::SCEV* at = se.getSCEV(anchor.base);
    std::vector<size_t> members;
    for (size_t c = a; c < stretch.size(); ++c) {
      Strided& s = stretch[c];
      if (used[c] || s.base == nullptr || s.stride != anchor.stride ||
          s.gather->getType() != anchor.gather->getType() ||
          s.base->getType()->getPointerAddressSpace() != space)
        continue;
      auto* d = llvm::dyn_cast<llvm::SCEVConstant>(se.getMinusSCEV(se.getSCEV(s.base), at));
      if (d == nullptr) continue;
      s.offset = d->getAPInt().getSExtValue();
      members.push_back(c);
    }
    std::sort(members.begin(), members.end(),
              [&](size_t x, size_t y) { return stretch[x].offset < stretch[y].offset; });
    // Runs of element after element, taken in powers of two.
    for (size_t r = 0; r < members.size();) {
      size_t end = r + 1;
      while (end < members.size() &&
             stretch[members[end]].offset == stretch[members[end - 1]].offset + size)
        ++end;
      for (size_t from = r; end - from >= 2;) {
        unsigned k = 1;
        while (2 * k <= end - from && 2 * k <= std::min(vf, kMaxGroup)) k *= 2;
        std::vector<Strided> group;
        llvm::Instruction* first = nullptr;
        for (size_t m = from; m < from + k; ++m) {
          group.push_back(stretch[members[m]]);
          used[members[m]] = true;
          llvm::Instruction* g = stretch[members[m]].gather;
          if (first == nullptr || g->comesBefore(first)) first = g;
        }
        plan.groups.emplace_back(std::move(group), first);
        from += k;
      }
      r = end;
    }
  }
  for (size_t a = 0; a < stretch.size(); ++a)
    if (!used[a]) plan.alone.push_back(stretch[a]);
}

}  // namespace

unsigned groupStridedLoads(llvm::Function& f) {
  bool any = false;
  for (llvm::BasicBlock& bb : f)
    for (llvm::Instruction& i : bb)
      if (asStrided(i)) any = true;
  if (!any) return 0;
  FunctionScev scev(f);
  llvm::ScalarEvolution& se = scev.get();
  std::vector<std::vector<Strided>> stretches;
  for (llvm::BasicBlock& bb : f) {
    stretches.emplace_back();
    for (llvm::Instruction& i : bb) {
      if (auto s = asStrided(i)) {
        stretches.back().push_back(*s);
      } else if (i.mayWriteToMemory() && !stretches.back().empty()) {
        stretches.emplace_back();
      }
    }
  }
  // Planned on the function as O3 left it (ScalarEvolution's answers), then replaced.
  Plan plan;
  for (std::vector<Strided>& stretch : stretches) planStretch(stretch, se, plan);
  unsigned transposed = 0;
  std::vector<llvm::Instruction*> done;
  for (auto& [group, first] : plan.groups) {
    transpose(group, first);
    transposed += static_cast<unsigned>(group.size());
    for (const Strided& s : group) done.push_back(s.gather);
  }
  for (const Strided& s : plan.alone) {
    expand(s);
    done.push_back(s.gather);
  }
  std::vector<llvm::WeakTrackingVH> addresses;
  for (llvm::Instruction* g : done) {
    addresses.emplace_back(g->getOperand(0));
    g->eraseFromParent();
  }
  for (llvm::WeakTrackingVH& a : addresses)
    if (a) llvm::RecursivelyDeleteTriviallyDeadInstructions(a);
  return transposed;
}

}  // namespace tessera::backends::cpu::jit
