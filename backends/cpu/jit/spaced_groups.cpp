// Pass: the widening's spaced accesses, after O3, joined where together they cover whole vectors.
//
// A work-item that reads or writes an OpenCL vector component by component (CLBlast's
// XgemmDirect copying its tiles, `avec = agm[i]; alm[2 * m] = avec.x; alm[2 * m + 1] = avec.y`;
// OpenCV's pixels) reaches the widening as scalar accesses k elements apart from lane to lane
// (SROA and InstCombine split the vector), and the widening reads or writes each as a masked
// access of k x VF elements with every k-th one on (Widener::loadSpaced, storeSpaced). The k
// components then read the same cache lines k times, each through a mask, and write them k times
// through masked stores. Here the k accesses at element offsets 0, 1, ..., k - 1 of one vector
// type become one plain access of all k x VF elements: exactly the bytes they read or wrote
// together, no others, and each component a shuffle of it.
//
// The joined load sits where the first of them was, the joined store where the last was: what
// lies between must not touch their bytes in the meantime, and only two things may stand there
// besides instructions that do not touch memory: accesses to the other one of global and __local
// memory (OpenCL's address spaces are disjoint objects), and accesses of a different row of the
// same jammed region (row_jam.cpp: a different work-item, whose unsynchronized accesses to the
// same bytes would be a data race; the rows' order between barriers is not the program's). Loads
// may also pass over loads and prefetches. Only accesses whose every lane is on (a constant mask)
// and with the same jammed row, if any, are joined.
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Metadata.h>

#include <optional>
#include <vector>

#include "backends/cpu/jit/function_scev.h"
#include "backends/cpu/jit/jit_passes.h"
#include "backends/cpu/jit/widener.h"

namespace tessera::backends::cpu::jit {
namespace {

struct Spaced {
  llvm::IntrinsicInst* access;
  bool store;
  unsigned k;          // elements from lane to lane
  int64_t offset = 0;  // bytes from its group's phase 0
};

llvm::Value* pointerOf(const Spaced& s) {
  return s.access->getArgOperand(s.store ? 1 : 0);
}

llvm::FixedVectorType* typeOf(const Spaced& s) {
  return llvm::cast<llvm::FixedVectorType>(s.store ? s.access->getArgOperand(0)->getType()
                                                   : s.access->getType());
}

llvm::MDNode* rowOf(const llvm::Instruction* i) {
  return i->getMetadata(kJamRowMetadata);
}

// k when `mask` is on at every k-th element and off elsewhere (k > 1 dividing its size).
unsigned spacingOf(llvm::Value* mask) {
  auto* c = llvm::dyn_cast<llvm::Constant>(mask);
  if (c == nullptr) return 0;
  const unsigned n = llvm::cast<llvm::FixedVectorType>(c->getType())->getNumElements();
  for (unsigned k = 2; k <= widening::kMaxSpacing && k < n; ++k) {
    if (n % k != 0) continue;
    bool fits = true;
    for (unsigned e = 0; e < n && fits; ++e) {
      auto* bit = llvm::dyn_cast_or_null<llvm::ConstantInt>(c->getAggregateElement(e));
      fits = bit != nullptr && bit->isOne() == (e % k == 0);
    }
    if (fits) return k;
  }
  return 0;
}

// A masked load or store the widening made spaced: k elements from lane to lane, every lane on,
// in global or __local memory (a load's other elements undefined).
std::optional<Spaced> asSpaced(llvm::Instruction& i) {
  auto* c = llvm::dyn_cast<llvm::IntrinsicInst>(&i);
  if (c == nullptr) return std::nullopt;
  Spaced s{c, false, 0};
  if (c->getIntrinsicID() == llvm::Intrinsic::masked_load) {
    if (!llvm::isa<llvm::UndefValue>(c->getArgOperand(3))) return std::nullopt;
    s.k = spacingOf(c->getArgOperand(2));
  } else if (c->getIntrinsicID() == llvm::Intrinsic::masked_store) {
    s.store = true;
    s.k = spacingOf(c->getArgOperand(3));
  } else {
    return std::nullopt;
  }
  const unsigned space = pointerOf(s)->getType()->getPointerAddressSpace();
  if (s.k == 0 || (space != kGlobalAddressSpace && space != kLocalAddressSpace))
    return std::nullopt;
  const llvm::DataLayout& dl = c->getModule()->getDataLayout();
  llvm::Type* element = typeOf(s)->getElementType();
  if (dl.getTypeSizeInBits(element) != 8 * dl.getTypeAllocSize(element)) return std::nullopt;
  return s;
}

// The address space `i` accesses memory in, when it is a load or store of a known kind.
std::optional<unsigned> spaceOf(llvm::Instruction& i) {
  const llvm::Use* a = memoryAddressUse(i);
  if (a == nullptr) return std::nullopt;
  return a->get()->getType()->getScalarType()->getPointerAddressSpace();
}

bool isPrefetch(const llvm::Instruction& i) {
  auto* c = llvm::dyn_cast<llvm::IntrinsicInst>(&i);
  return c != nullptr && c->getIntrinsicID() == llvm::Intrinsic::prefetch;
}

// The bytes from `p` to `q`, when ScalarEvolution can tell. Indices often reach this pass
// without `nsw` (SPIR-V from elsewhere without SPV_KHR_no_integer_wrap_decoration, InstCombine's
// adds rewritten as ors, uint arithmetic, which wraps), so `p[sext(i + 1)]` and `p[sext(i)]` are
// not a constant apart to it: of two GEPs of one base by 32-bit indices extended alike (sign or
// zero: int or uint indices), the indices' difference is taken instead, under the widening's
// assumption that 32-bit index arithmetic does not wrap (lane_strides.h: the same assumption that
// made these accesses spaced in the first place).
std::optional<int64_t> distance(llvm::ScalarEvolution& se, llvm::Value* p, llvm::Value* q) {
  if (auto* d = llvm::dyn_cast<llvm::SCEVConstant>(se.getMinusSCEV(se.getSCEV(q), se.getSCEV(p))))
    return d->getAPInt().getSExtValue();
  auto* gp = llvm::dyn_cast<llvm::GetElementPtrInst>(p);
  auto* gq = llvm::dyn_cast<llvm::GetElementPtrInst>(q);
  if (gp == nullptr || gq == nullptr || gp->getNumIndices() != 1 || gq->getNumIndices() != 1 ||
      gp->getPointerOperand() != gq->getPointerOperand() ||
      gp->getSourceElementType() != gq->getSourceElementType())
    return std::nullopt;
  auto* ip = llvm::dyn_cast<llvm::CastInst>(gp->getOperand(1));
  auto* iq = llvm::dyn_cast<llvm::CastInst>(gq->getOperand(1));
  if (ip == nullptr || iq == nullptr || ip->getOpcode() != iq->getOpcode() ||
      (!llvm::isa<llvm::SExtInst>(ip) && !llvm::isa<llvm::ZExtInst>(ip)) ||
      ip->getSrcTy() != iq->getSrcTy() || !ip->getSrcTy()->isIntegerTy(32))
    return std::nullopt;
  auto* d = llvm::dyn_cast<llvm::SCEVConstant>(
      se.getMinusSCEV(se.getSCEV(iq->getOperand(0)), se.getSCEV(ip->getOperand(0))));
  if (d == nullptr) return std::nullopt;
  const llvm::DataLayout& dl = gp->getModule()->getDataLayout();
  return d->getAPInt().getSExtValue() *
         static_cast<int64_t>(dl.getTypeAllocSize(gp->getSourceElementType()).getFixedSize());
}

// The address and the bytes `i` reads or writes, when it is a load or store of one vector or
// scalar (not a gather or scatter).
std::optional<std::pair<llvm::Value*, uint64_t>> footprint(llvm::Instruction& i) {
  const llvm::DataLayout& dl = i.getModule()->getDataLayout();
  auto bytes = [&](llvm::Type* t) { return dl.getTypeStoreSize(t).getFixedSize(); };
  if (auto* l = llvm::dyn_cast<llvm::LoadInst>(&i))
    return std::make_pair(l->getPointerOperand(), bytes(l->getType()));
  if (auto* st = llvm::dyn_cast<llvm::StoreInst>(&i))
    return std::make_pair(st->getPointerOperand(), bytes(st->getValueOperand()->getType()));
  if (auto* c = llvm::dyn_cast<llvm::IntrinsicInst>(&i)) {
    if (c->getIntrinsicID() == llvm::Intrinsic::masked_load)
      return std::make_pair(c->getArgOperand(0), bytes(c->getType()));
    if (c->getIntrinsicID() == llvm::Intrinsic::masked_store)
      return std::make_pair(c->getArgOperand(1), bytes(c->getArgOperand(0)->getType()));
  }
  return std::nullopt;
}

// Where a group reaches: its memory, its jammed row, and its bytes (`bytes` from `at`).
struct Reach {
  unsigned space;
  llvm::MDNode* row;
  llvm::Value* at;
  uint64_t bytes;
};

// Whether `i`, lying between the accesses of a group, leaves the group's bytes alone while they
// move past it: loads when `loads` (they move up past reads).
bool passable(llvm::Instruction& i, const Reach& group, bool loads, llvm::ScalarEvolution& se) {
  if (!i.mayReadOrWriteMemory() || isPrefetch(i)) return true;
  if (loads && !i.mayWriteToMemory()) return true;
  std::optional<unsigned> other = spaceOf(i);
  if (!other) return false;
  if (*other != group.space && (*other == kGlobalAddressSpace || *other == kLocalAddressSpace))
    return true;
  llvm::MDNode* otherRow = rowOf(&i);
  if (group.row != nullptr && otherRow != nullptr && otherRow != group.row &&
      otherRow->getOperand(1) == group.row->getOperand(1))
    return true;
  // Bytes on either side of the group's.
  auto reach = footprint(i);
  if (!reach || reach->first->getType() != group.at->getType()) return false;
  std::optional<int64_t> d = distance(se, group.at, reach->first);
  return d &&
         (*d >= static_cast<int64_t>(group.bytes) || *d + static_cast<int64_t>(reach->second) <= 0);
}

// The k accesses of `group` (group[j] at j elements from group[0]) made one.
void join(const std::vector<Spaced>& group) {
  const Spaced& lead = group.front();
  llvm::FixedVectorType* type = typeOf(lead);
  const unsigned n = type->getNumElements(), k = lead.k;
  llvm::AAMDNodes aa = lead.access->getAAMetadata();
  for (const Spaced& s : group)
    if (s.access->getAAMetadata() != aa) aa = llvm::AAMDNodes();
  const llvm::Align align(
      llvm::cast<llvm::ConstantInt>(lead.access->getArgOperand(lead.store ? 2 : 1))
          ->getZExtValue());
  if (!lead.store) {
    // At the first load, from its own address less its offset.
    const Spaced* first = &lead;
    for (const Spaced& s : group)
      if (s.access->comesBefore(first->access)) first = &s;
    llvm::IRBuilder<> b(first->access);
    llvm::Value* p = pointerOf(*first);
    llvm::Type* bytePtr = b.getInt8PtrTy(p->getType()->getPointerAddressSpace());
    llvm::Value* at = b.CreatePointerCast(
        b.CreateConstGEP1_64(b.getInt8Ty(), b.CreatePointerCast(p, bytePtr), -first->offset),
        p->getType());
    llvm::LoadInst* whole = b.CreateAlignedLoad(type, at, align, "spaced.whole");
    whole->setAAMetadata(aa);
    if (llvm::MDNode* row = rowOf(lead.access)) whole->setMetadata(kJamRowMetadata, row);
    for (unsigned j = 0; j < k; ++j) {
      llvm::SmallVector<int, 64> idx;
      for (unsigned e = 0; e < n; ++e)
        idx.push_back(e % k == 0 ? static_cast<int>(e + j) : llvm::UndefMaskElem);
      llvm::Value* part = b.CreateShuffleVector(whole, idx);
      part->takeName(group[j].access);
      group[j].access->replaceAllUsesWith(part);
    }
    return;
  }
  // At the last store: element e is component e % k's.
  const Spaced* last = &lead;
  for (const Spaced& s : group)
    if (last->access->comesBefore(s.access)) last = &s;
  llvm::IRBuilder<> b(last->access);
  llvm::Value* whole = lead.access->getArgOperand(0);
  for (unsigned j = 1; j < k; ++j) {
    llvm::SmallVector<int, 64> idx;
    for (unsigned e = 0; e < n; ++e)
      idx.push_back(e % k == j ? static_cast<int>(n + e - j) : static_cast<int>(e));
    whole = b.CreateShuffleVector(whole, group[j].access->getArgOperand(0), idx);
  }
  llvm::StoreInst* st = b.CreateAlignedStore(whole, pointerOf(lead), align);
  st->setAAMetadata(aa);
  if (llvm::MDNode* row = rowOf(lead.access)) st->setMetadata(kJamRowMetadata, row);
}

// Whether the group's accesses may all move to the first (loads) or last (stores) of them.
bool movable(const std::vector<Spaced>& group, llvm::ScalarEvolution& se) {
  const Spaced& lead = group.front();
  const llvm::DataLayout& dl = lead.access->getModule()->getDataLayout();
  llvm::Instruction* from = lead.access;
  llvm::Instruction* to = lead.access;
  for (const Spaced& s : group) {
    if (s.access->comesBefore(from)) from = s.access;
    if (to->comesBefore(s.access)) to = s.access;
  }
  const Reach reach{pointerOf(lead)->getType()->getPointerAddressSpace(), rowOf(lead.access),
                    pointerOf(lead), dl.getTypeStoreSize(typeOf(lead)).getFixedSize()};
  for (llvm::Instruction* i = from->getNextNode(); i != to; i = i->getNextNode()) {
    bool member = false;
    for (const Spaced& s : group) member |= s.access == i;
    if (!member && !passable(*i, reach, !lead.store, se)) return false;
  }
  return true;
}

// The groups of one block: for each phase-0 access, the k - 1 others of its kind at 1 .. k - 1
// elements from it.
std::vector<std::vector<Spaced>> groupsOf(std::vector<Spaced>& found, llvm::ScalarEvolution& se) {
  std::vector<std::vector<Spaced>> groups;
  std::vector<bool> used(found.size(), false);
  for (size_t a = 0; a < found.size(); ++a) {
    if (used[a]) continue;
    const Spaced& anchor = found[a];
    const llvm::DataLayout& dl = anchor.access->getModule()->getDataLayout();
    const int64_t size =
        static_cast<int64_t>(dl.getTypeStoreSize(typeOf(anchor)->getElementType()).getFixedSize());
    std::vector<std::optional<size_t>> phase(anchor.k);
    phase[0] = a;
    for (size_t c = 0; c < found.size(); ++c) {
      const Spaced& s = found[c];
      if (c == a || used[c] || s.store != anchor.store || s.k != anchor.k ||
          typeOf(s) != typeOf(anchor) || rowOf(s.access) != rowOf(anchor.access) ||
          pointerOf(s)->getType() != pointerOf(anchor)->getType())
        continue;
      std::optional<int64_t> d = distance(se, pointerOf(anchor), pointerOf(s));
      if (!d) continue;
      const int64_t bytes = *d;
      if (bytes <= 0 || bytes % size != 0 || bytes / size >= anchor.k) continue;
      auto& slot = phase[static_cast<size_t>(bytes / size)];
      if (!slot) slot = c;
    }
    bool whole = true;
    for (auto& p : phase) whole &= p.has_value();
    if (!whole) continue;
    std::vector<Spaced> group;
    for (unsigned j = 0; j < anchor.k; ++j) {
      group.push_back(found[*phase[j]]);
      group.back().offset = static_cast<int64_t>(j) * size;
    }
    if (!movable(group, se)) continue;
    for (auto& p : phase) used[*p] = true;
    groups.push_back(std::move(group));
  }
  return groups;
}

}  // namespace

unsigned joinSpacedAccesses(llvm::Function& f) {
  std::vector<std::vector<Spaced>> perBlock;
  for (llvm::BasicBlock& bb : f) {
    std::vector<Spaced> found;
    for (llvm::Instruction& i : bb)
      if (auto s = asSpaced(i)) found.push_back(*s);
    if (found.size() > 1) perBlock.push_back(std::move(found));
  }
  if (perBlock.empty()) return 0;
  FunctionScev scev(f);
  llvm::ScalarEvolution& se = scev.get();
  // Planned on the function as O3 left it (ScalarEvolution's answers), then replaced.
  std::vector<std::vector<Spaced>> groups;
  for (std::vector<Spaced>& found : perBlock)
    for (std::vector<Spaced>& g : groupsOf(found, se)) groups.push_back(std::move(g));
  unsigned joined = 0;
  for (const std::vector<Spaced>& group : groups) {
    join(group);
    for (const Spaced& s : group) {
      s.access->eraseFromParent();
      ++joined;
    }
  }
  return joined;
}

}  // namespace tessera::backends::cpu::jit
