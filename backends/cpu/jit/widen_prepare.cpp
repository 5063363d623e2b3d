#include "backends/cpu/jit/widen_prepare.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

#include <map>
#include <vector>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {

void localizeSlots(llvm::Function& region, unsigned first) {
  llvm::Value* scratch = region.getArg(first + kScratch);
  std::vector<llvm::ReturnInst*> returns;
  for (llvm::BasicBlock& bb : region)
    if (auto* ret = llvm::dyn_cast<llvm::ReturnInst>(bb.getTerminator())) returns.push_back(ret);
  std::vector<llvm::GetElementPtrInst*> slots;
  for (llvm::User* u : scratch->users())
    if (auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(u);
        gep && gep->getPointerOperand() == scratch)
      slots.push_back(gep);
  llvm::BasicBlock& entry = region.getEntryBlock();
  for (llvm::GetElementPtrInst* slot : slots) {
    // Plain loads and stores of one type at the slot's own address, and lifetime markers.
    llvm::Type* type = nullptr;
    llvm::Align align;
    bool ok = true, stored = false;
    std::vector<llvm::Instruction*> accesses, markers;
    for (llvm::User* u : slot->users()) {
      llvm::Type* t = nullptr;
      if (auto* l = llvm::dyn_cast<llvm::LoadInst>(u); l && l->isSimple()) {
        t = l->getType();
        align = l->getAlign();
      } else if (auto* s = llvm::dyn_cast<llvm::StoreInst>(u);
                 s && s->isSimple() && s->getPointerOperand() == slot &&
                 s->getValueOperand() != slot) {
        t = s->getValueOperand()->getType();
        align = s->getAlign();
        stored = true;
      } else if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(u);
                 call && (call->getIntrinsicID() == llvm::Intrinsic::lifetime_start ||
                          call->getIntrinsicID() == llvm::Intrinsic::lifetime_end)) {
        markers.push_back(call);
        continue;
      }
      if (t == nullptr || (type != nullptr && t != type)) {
        ok = false;
        break;
      }
      type = t;
      accesses.push_back(llvm::cast<llvm::Instruction>(u));
    }
    if (!ok || type == nullptr || slot->getParent() != &entry) continue;
    for (llvm::Instruction* m : markers) m->eraseFromParent();
    llvm::IRBuilder<> b(&*entry.getFirstInsertionPt());
    llvm::AllocaInst* local = b.CreateAlloca(type, nullptr, slot->getName() + ".local");
    local->setAlignment(align);
    b.SetInsertPoint(slot->getNextNode());
    b.CreateStore(b.CreateAlignedLoad(type, slot, align, slot->getName() + ".in"), local);
    for (llvm::Instruction* i : accesses) {
      if (auto* l = llvm::dyn_cast<llvm::LoadInst>(i)) {
        l->setOperand(l->getPointerOperandIndex(), local);
      } else {
        auto* s = llvm::cast<llvm::StoreInst>(i);
        s->setOperand(s->getPointerOperandIndex(), local);
      }
    }
    if (!stored) continue;
    for (llvm::ReturnInst* ret : returns) {
      b.SetInsertPoint(ret);
      b.CreateAlignedStore(b.CreateLoad(type, local, slot->getName() + ".out"), slot, align);
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
