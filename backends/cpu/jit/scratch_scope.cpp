// Scratch accesses in their own alias scope. A work-group function keeps the values that live
// across a barrier in per-work-item scratch (its parameter kWgScratch, kernel_abi.h; kScratch of
// the region functions), a buffer nothing else can point into: the kernel never sees
// its address. LLVM cannot tell that when the kernel reads memory through vectors of pointers
// (the widening's gathers), whose underlying objects its alias analysis does not follow: a gather
// "may read" any scratch slot, so an accumulator kept in scratch across a region's loop is stored
// and reloaded every iteration instead of living in a register (CLBlast's XgemmDirect: four
// reloads and four stores around eight FMAs per k step).
//
// Nor can it tell two slots apart: slot s of work-item i is at s * work-items + i * size, and with
// the work-item count unknown two slots might overlap. Every scratch slot (kScratchSlotMetadata on
// its address) gets an alias scope of its own: an access to slot s is in s's scope and !noalias of
// the others; an access to scratch whose slot is not known is in every slot's scope; every other
// memory access is !noalias of them all. Sound only while the scratch pointer does not escape: any
// use of a derived pointer other than address arithmetic and the address operand of a load, store
// or masked gather/scatter leaves the function unannotated.
//
// Nor can it tell the rows of a jammed region apart (row_jam.cpp): their copies of slot s are at
// addresses that differ by a multiple of the row's size, unknown. An access to a slot that is not
// group-uniform (kUniformSlotMetadata) in row r of a jam (kJamRowMetadata) is also in that row's
// scope of a second domain and !noalias of the jam's other rows; uniform slots, accesses outside
// jams and those of other jams get no row scope, so they may alias any row.
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/MDBuilder.h>

#include <map>
#include <string>
#include <vector>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {

namespace {

// Pointers derived from `scratch` by address arithmetic (GEPs, casts, phis, selects, vector
// splats). False when one of them is used any other way than as an address or to derive another.
bool derivedAddresses(llvm::Argument* scratch, llvm::SmallPtrSetImpl<llvm::Value*>& derived) {
  llvm::SmallVector<llvm::Value*, 32> work{scratch};
  derived.insert(scratch);
  while (!work.empty()) {
    llvm::Value* v = work.pop_back_val();
    for (llvm::Use& u : v->uses()) {
      auto* user = llvm::dyn_cast<llvm::Instruction>(u.getUser());
      if (!user) return false;
      if (const llvm::Use* a = memoryAddressUse(*user)) {
        if (a == &u) continue;  // the address: fine
        return false;           // the value stored, a pass-through value, ...: it escapes
      }
      const bool arithmetic =
          llvm::isa<llvm::GetElementPtrInst, llvm::BitCastInst, llvm::AddrSpaceCastInst,
                    llvm::PHINode, llvm::SelectInst, llvm::InsertElementInst,
                    llvm::ShuffleVectorInst, llvm::ExtractElementInst>(user);
      if (!arithmetic) return false;
      // A GEP's index or a select's condition derived from a pointer would be integer use.
      if (auto* g = llvm::dyn_cast<llvm::GetElementPtrInst>(user);
          g && u.getOperandNo() != g->getPointerOperandIndex())
        return false;
      if (auto* s = llvm::dyn_cast<llvm::SelectInst>(user); s && u.getOperandNo() == 0)
        return false;
      if (auto* e = llvm::dyn_cast<llvm::InsertElementInst>(user); e && u.getOperandNo() == 2)
        return false;
      if (auto* e = llvm::dyn_cast<llvm::ExtractElementInst>(user); e && u.getOperandNo() == 1)
        return false;
      if (derived.insert(user).second) work.push_back(user);
    }
  }
  return true;
}

// The offset of the scratch slot `p` points into (kScratchSlotMetadata on the slot's address, found
// back through address arithmetic), or -1 when not known; *uniform says whether the slot is
// group-uniform (kUniformSlotMetadata).
int64_t slotOf(llvm::Value* p, bool* uniform) {
  for (;;) {
    auto* i = llvm::dyn_cast<llvm::Instruction>(p);
    if (!i) return -1;
    if (llvm::MDNode* md = i->getMetadata(kScratchSlotMetadata)) {
      *uniform = i->getMetadata(kUniformSlotMetadata) != nullptr;
      return llvm::mdconst::extract<llvm::ConstantInt>(md->getOperand(0))->getSExtValue();
    }
    if (auto* g = llvm::dyn_cast<llvm::GetElementPtrInst>(i))
      p = g->getPointerOperand();
    else if (llvm::isa<llvm::BitCastInst, llvm::AddrSpaceCastInst>(i))
      p = i->getOperand(0);
    else
      return -1;
  }
}

// Beyond this many slots one scope serves them all: each slot's accesses carry a list of every
// other slot (n lists of n - 1 scopes in all). CLBlast's XgemmDirectTN has 125.
constexpr size_t kMaxSlotScopes = 512;

}  // namespace

const llvm::Use* memoryAddressUse(llvm::Instruction& i) {
  if (auto* l = llvm::dyn_cast<llvm::LoadInst>(&i)) return &l->getOperandUse(0);
  if (auto* s = llvm::dyn_cast<llvm::StoreInst>(&i)) return &s->getOperandUse(1);
  if (auto* c = llvm::dyn_cast<llvm::IntrinsicInst>(&i)) {
    switch (c->getIntrinsicID()) {
      case llvm::Intrinsic::masked_gather:
      case llvm::Intrinsic::masked_load:
        return &c->getArgOperandUse(0);
      case llvm::Intrinsic::masked_scatter:
      case llvm::Intrinsic::masked_store:
        return &c->getArgOperandUse(1);
      default:
        break;
    }
  }
  return nullptr;
}

unsigned scopeScratchAccesses(llvm::Function& wg) {
  if (wg.arg_size() != kWgParamCount) return 0;
  llvm::Argument* scratch = wg.getArg(kWgScratch);
  if (!scratch->getType()->isPointerTy()) return 0;
  llvm::SmallPtrSet<llvm::Value*, 32> derived;
  if (!derivedAddresses(scratch, derived)) return 0;

  // Each access: the slot it reaches (-1: somewhere in scratch), or not scratch at all.
  enum : int64_t { kNotScratch = -2, kSomewhere = -1 };
  std::vector<std::pair<llvm::Instruction*, int64_t>> accesses;
  std::map<int64_t, llvm::MDNode*> slots;
  // The rows of each jam that reach a slot of their own: jam -> row -> scope.
  std::map<llvm::MDNode*, std::map<int64_t, llvm::MDNode*>> jams;
  std::map<llvm::Instruction*, std::pair<llvm::MDNode*, int64_t>> rowOf;
  for (llvm::BasicBlock& b : wg)
    for (llvm::Instruction& i : b) {
      if (!i.mayReadOrWriteMemory()) continue;
      // A call (a host helper, an atomic, a memcpy) never gets a scratch address: the walk above
      // refused any such use.
      const llvm::Use* a = memoryAddressUse(i);
      bool uniform = false;
      int64_t slot =
          a && derived.count(a->get()) ? slotOf(a->get(), &uniform) : int64_t{kNotScratch};
      if (slot >= 0) slots[slot] = nullptr;
      accesses.push_back({&i, slot});
      llvm::MDNode* tag = i.getMetadata(kJamRowMetadata);
      if (slot >= 0 && !uniform && tag) {
        auto* jam = llvm::cast<llvm::MDNode>(tag->getOperand(1));
        int64_t row = llvm::mdconst::extract<llvm::ConstantInt>(tag->getOperand(0))->getSExtValue();
        jams[jam][row] = nullptr;
        rowOf[&i] = {jam, row};
      }
    }

  llvm::LLVMContext& ctx = wg.getContext();
  llvm::MDBuilder md(ctx);
  llvm::MDNode* domain = md.createAnonymousAliasScopeDomain("tessera.scratch");
  // One scope per slot, or one for all of scratch when there are too many slots; an access whose
  // slot is not known is then in every slot's scope.
  const bool perSlot = slots.size() <= kMaxSlotScopes;
  llvm::SmallVector<llvm::Metadata*, 16> all;
  llvm::MDNode* whole = perSlot ? nullptr : md.createAnonymousAliasScope(domain, "scratch");
  for (auto& [offset, scope] : slots) {
    scope =
        perSlot ? md.createAnonymousAliasScope(domain, "slot " + std::to_string(offset)) : whole;
    if (perSlot) all.push_back(scope);
  }
  if (!perSlot) all.push_back(whole);
  llvm::MDNode* allScopes = llvm::MDNode::get(ctx, all);
  auto add = [](llvm::Instruction* i, unsigned kind, llvm::MDNode* list) {
    i->setMetadata(kind, llvm::MDNode::concatenate(i->getMetadata(kind), list));
  };
  // Each jammed row's scope, and per row the list of its jam's other rows.
  std::map<llvm::MDNode*, std::map<int64_t, llvm::MDNode*>> otherRows;
  if (!jams.empty()) {
    llvm::MDNode* rowDomain = md.createAnonymousAliasScopeDomain("tessera.jam_rows");
    for (auto& [jam, rows] : jams)
      for (auto& [row, scope] : rows)
        scope = md.createAnonymousAliasScope(rowDomain, "row " + std::to_string(row));
    for (auto& [jam, rows] : jams)
      for (auto& [row, scope] : rows) {
        llvm::SmallVector<llvm::Metadata*, 8> others;
        for (auto& [other, otherScope] : rows)
          if (other != row) others.push_back(otherScope);
        otherRows[jam][row] = llvm::MDNode::get(ctx, others);
      }
  }
  unsigned annotated = 0;
  for (auto [i, slot] : accesses) {
    if (slot == kNotScratch) {
      add(i, llvm::LLVMContext::MD_noalias, allScopes);
    } else if (slot == kSomewhere) {
      add(i, llvm::LLVMContext::MD_alias_scope, allScopes);
    } else {
      llvm::MDNode* own = slots[slot];
      add(i, llvm::LLVMContext::MD_alias_scope, llvm::MDNode::get(ctx, {own}));
      llvm::SmallVector<llvm::Metadata*, 16> others;
      for (llvm::Metadata* m : all)
        if (m != own) others.push_back(m);
      if (!others.empty()) add(i, llvm::LLVMContext::MD_noalias, llvm::MDNode::get(ctx, others));
      if (auto r = rowOf.find(i); r != rowOf.end()) {
        auto [jam, row] = r->second;
        add(i, llvm::LLVMContext::MD_alias_scope, llvm::MDNode::get(ctx, {jams[jam][row]}));
        add(i, llvm::LLVMContext::MD_noalias, otherRows[jam][row]);
      }
    }
    ++annotated;
  }
  return annotated;
}

}  // namespace tessera::backends::cpu::jit
