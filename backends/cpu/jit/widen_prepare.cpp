#include "backends/cpu/jit/widen_prepare.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>

#include <map>
#include <vector>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {

void localizeSlots(llvm::Function& region, unsigned first) {
  llvm::Value* scratch = region.getArg(first + kScratch);
  // The slots (each the GEP off the scratch argument that barrier_regions.cpp made for it) of an
  // OpenCL vector that only plain loads and stores of its type reach. (Scalar slots stay: their
  // widened loads and stores are plain vector accesses, forwarded by the store buffer, and
  // promoting them too made XgemmDirect's loop 4% slower: O3 then unrolled it fully and spilled.)
  struct Slot {
    llvm::GetElementPtrInst* gep;
    llvm::Type* type;
    llvm::Align align;
  };
  std::vector<Slot> slots;
  for (llvm::User* u : scratch->users()) {
    auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(u);
    if (gep == nullptr || gep->getPointerOperand() != scratch) continue;
    Slot slot{gep, nullptr, llvm::Align()};
    bool ok = true;
    for (llvm::User* v : gep->users()) {
      llvm::Type* t = nullptr;
      if (auto* l = llvm::dyn_cast<llvm::LoadInst>(v); l && l->isSimple()) {
        t = l->getType();
        slot.align = l->getAlign();
      } else if (auto* st = llvm::dyn_cast<llvm::StoreInst>(v); st && st->isSimple() &&
                                                                st->getPointerOperand() == gep &&
                                                                st->getValueOperand() != gep) {
        t = st->getValueOperand()->getType();
        slot.align = st->getAlign();
      } else if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(v);
                 call && (call->getIntrinsicID() == llvm::Intrinsic::lifetime_start ||
                          call->getIntrinsicID() == llvm::Intrinsic::lifetime_end)) {
        continue;
      }
      ok = ok && t != nullptr && (slot.type == nullptr || t == slot.type);
      slot.type = t;
    }
    if (ok && slot.type != nullptr && slot.type->isVectorTy()) slots.push_back(slot);
  }
  if (slots.empty()) return;
  llvm::DominatorTree dt(region);
  llvm::LoopInfo li(dt);
  // A preheader and exits that only the loop reaches, for the copies in and out.
  for (llvm::Loop* loop : li) llvm::simplifyLoop(loop, &dt, &li, nullptr, nullptr, nullptr, false);
  llvm::IRBuilder<> entry(&*region.getEntryBlock().getFirstInsertionPt());
  for (llvm::Loop* loop : li) {
    llvm::BasicBlock* preheader = loop->getLoopPreheader();
    llvm::SmallVector<llvm::BasicBlock*, 4> exits;
    loop->getUniqueExitBlocks(exits);
    if (preheader == nullptr || !loop->hasDedicatedExits()) continue;
    for (const Slot& slot : slots) {
      std::vector<llvm::Instruction*> inside;
      bool stored = false;
      for (llvm::User* u : slot.gep->users()) {
        auto* i = llvm::cast<llvm::Instruction>(u);
        if (!loop->contains(i) || llvm::isa<llvm::IntrinsicInst>(i)) continue;
        inside.push_back(i);
        stored |= llvm::isa<llvm::StoreInst>(i);
      }
      if (inside.empty()) continue;
      llvm::AllocaInst* local =
          entry.CreateAlloca(slot.type, nullptr, slot.gep->getName() + ".local");
      local->setAlignment(slot.align);
      llvm::IRBuilder<> b(preheader->getTerminator());
      b.CreateStore(
          b.CreateAlignedLoad(slot.type, slot.gep, slot.align, slot.gep->getName() + ".in"), local);
      for (llvm::Instruction* i : inside) {
        if (auto* l = llvm::dyn_cast<llvm::LoadInst>(i))
          l->setOperand(l->getPointerOperandIndex(), local);
        else
          i->setOperand(llvm::cast<llvm::StoreInst>(i)->getPointerOperandIndex(), local);
      }
      if (!stored) continue;
      for (llvm::BasicBlock* exit : exits) {
        b.SetInsertPoint(&*exit->getFirstInsertionPt());
        b.CreateAlignedStore(b.CreateLoad(slot.type, local, slot.gep->getName() + ".out"), slot.gep,
                             slot.align);
      }
    }
  }
}

bool scalarizeVectorPhis(llvm::Function& region) {
  bool changed = false;
  for (bool again = true; again;) {
    again = false;
    for (llvm::BasicBlock& bb : region) {
      for (llvm::PHINode& phi : llvm::make_early_inc_range(bb.phis())) {
        auto* type = llvm::dyn_cast<llvm::FixedVectorType>(phi.getType());
        if (type == nullptr || phi.use_empty()) continue;
        const uint64_t n = type->getNumElements();
        std::vector<llvm::ExtractElementInst*> extracts;
        for (llvm::User* u : phi.users()) {
          auto* e = llvm::dyn_cast<llvm::ExtractElementInst>(u);
          auto* k = e ? llvm::dyn_cast<llvm::ConstantInt>(e->getIndexOperand()) : nullptr;
          if (k == nullptr || e->getVectorOperand() != &phi || k->getZExtValue() >= n) {
            extracts.clear();
            break;
          }
          extracts.push_back(e);
        }
        if (extracts.empty()) continue;
        std::map<uint64_t, llvm::PHINode*> elements;
        for (llvm::ExtractElementInst* e : extracts) {
          uint64_t k = llvm::cast<llvm::ConstantInt>(e->getIndexOperand())->getZExtValue();
          llvm::PHINode*& s = elements[k];
          if (s == nullptr) {
            s = llvm::PHINode::Create(type->getElementType(), phi.getNumIncomingValues(),
                                      phi.getName() + "." + llvm::Twine(k), &phi);
            // One extract per incoming block (a block may be listed more than once).
            llvm::DenseMap<llvm::BasicBlock*, llvm::Value*> from;
            for (unsigned i = 0; i < phi.getNumIncomingValues(); ++i) {
              llvm::BasicBlock* pred = phi.getIncomingBlock(i);
              llvm::Value*& element = from[pred];
              if (element == nullptr) {
                llvm::Value* v = phi.getIncomingValue(i);
                if (auto* c = llvm::dyn_cast<llvm::Constant>(v))
                  element = c->getAggregateElement(static_cast<unsigned>(k));
                if (element == nullptr)
                  element = llvm::ExtractElementInst::Create(v, e->getIndexOperand(), "",
                                                             pred->getTerminator());
              }
              s->addIncoming(element, pred);
            }
          }
          e->replaceAllUsesWith(s);
          e->eraseFromParent();
        }
        phi.eraseFromParent();
        changed = again = true;
      }
    }
  }
  return changed;
}

}  // namespace tessera::backends::cpu::jit
