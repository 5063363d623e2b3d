// Scratch slots shared where that is safe: slot_sharing.h.
#include "backends/cpu/jit/slot_sharing.h"

#include <llvm/IR/Dominators.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

#include <algorithm>
#include <set>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

// Whether, from just after `from`, an instruction `target` accepts is reached on some path before
// one `stop` accepts.
template <typename Target, typename Stop>
bool reaches(llvm::Instruction* from, Target target, Stop stop) {
  std::set<llvm::BasicBlock*> entered;
  std::vector<llvm::Instruction*> work{from->getNextNode()};
  while (!work.empty()) {
    llvm::Instruction* i = work.back();
    work.pop_back();
    for (; i != nullptr; i = i->getNextNode()) {
      if (target(*i)) return true;
      if (stop(*i)) break;
      if (i->isTerminator())
        for (llvm::BasicBlock* succ : llvm::successors(i))
          if (entered.insert(succ).second) work.push_back(&succ->front());
    }
  }
  return false;
}

}  // namespace

llvm::AllocaInst* coalesceCarriedSlot(llvm::AllocaInst* phi,
                                      const std::function<bool(llvm::AllocaInst*)>& mayMerge) {
  llvm::StoreInst* copy = nullptr;
  std::vector<llvm::StoreInst*> others;
  for (llvm::User* u : phi->users()) {
    auto* st = llvm::dyn_cast<llvm::StoreInst>(u);
    if (st == nullptr) {
      if (!llvm::isa<llvm::LoadInst>(u)) return nullptr;
      continue;
    }
    if (st->getPointerOperand() != phi) return nullptr;
    auto* load = llvm::dyn_cast<llvm::LoadInst>(st->getValueOperand());
    if (load && llvm::isa<llvm::AllocaInst>(load->getPointerOperand()) &&
        load->getPointerOperand() != phi) {
      if (copy) return nullptr;
      copy = st;
    } else {
      others.push_back(st);
    }
  }
  if (copy == nullptr) return nullptr;
  auto* carried = llvm::cast<llvm::AllocaInst>(
      llvm::cast<llvm::LoadInst>(copy->getValueOperand())->getPointerOperand());
  if (!mayMerge(carried) || carried->getAllocatedType() != phi->getAllocatedType() ||
      carried->isArrayAllocation() || phi->isArrayAllocation())
    return nullptr;
  llvm::StoreInst* def = nullptr;
  for (llvm::User* u : carried->users()) {
    if (auto* st = llvm::dyn_cast<llvm::StoreInst>(u)) {
      if (def || st->getPointerOperand() != carried) return nullptr;
      def = st;
    } else if (!llvm::isa<llvm::LoadInst>(u)) {
      return nullptr;
    }
  }
  if (def == nullptr) return nullptr;
  auto storesPhi = [&](llvm::Instruction& i) {
    auto* st = llvm::dyn_cast<llvm::StoreInst>(&i);
    return st && st->getPointerOperand() == phi;
  };
  auto loads = [](llvm::AllocaInst* slot) {
    return [slot](llvm::Instruction& i) {
      auto* l = llvm::dyn_cast<llvm::LoadInst>(&i);
      return l && l->getPointerOperand() == slot;
    };
  };
  if (reaches(def, loads(phi), storesPhi)) return nullptr;
  for (llvm::StoreInst* other : others)
    if (reaches(other, loads(carried), [&](llvm::Instruction& i) { return &i == def; }))
      return nullptr;
  llvm::LoadInst* copied = llvm::cast<llvm::LoadInst>(copy->getValueOperand());
  copy->eraseFromParent();
  if (copied->use_empty()) copied->eraseFromParent();
  carried->replaceAllUsesWith(phi);
  carried->eraseFromParent();
  return carried;
}

void SharedSlots::add(llvm::AllocaInst* a, uint64_t offset, uint64_t size) {
  if (current_ == nullptr) {
    llvm::Value* parity = b_.CreateLoad(
        b_.getInt32Ty(), scratchSlotAddress(b_, scratch_, parityOffset_, workItems_, nullptr));
    current_ = b_.CreateZExt(b_.CreateAnd(parity, b_.getInt32(1)), b_.getInt64Ty(), "copy");
  }
  llvm::Value* other = b_.CreateXor(current_, b_.getInt64(1));
  slots_.push_back({a,
                    scratchSlotAddress(b_, scratch_, offset, workItems_,
                                       b_.CreateMul(current_, b_.getInt64(size))),
                    scratchSlotAddress(b_, scratch_, offset, workItems_,
                                       b_.CreateMul(other, b_.getInt64(size)))});
}

bool SharedSlots::exchange(llvm::Function& region, llvm::Instruction* entryEnd,
                           std::vector<llvm::AllocaInst*>& allocas) {
  bool writes = false;
  std::vector<llvm::AllocaInst*> used;
  for (Slot& s : slots_) {
    if (s.a->use_empty()) continue;
    used.push_back(s.a);
    for (llvm::User* u : s.a->users()) writes |= llvm::isa<llvm::StoreInst>(u);
  }
  llvm::IRBuilder<> b(entryEnd);
  for (llvm::AllocaInst* a : used) b.CreateStore(b.CreateLoad(a->getAllocatedType(), in(a)), a);
  if (writes) {
    std::vector<llvm::ReturnInst*> returns;
    for (llvm::BasicBlock& bb : region)
      if (auto* ret = llvm::dyn_cast<llvm::ReturnInst>(bb.getTerminator())) returns.push_back(ret);
    for (llvm::ReturnInst* ret : returns) {
      b.SetInsertPoint(ret);
      for (Slot& s : slots_) {
        llvm::Type* t = s.a->getAllocatedType();
        bool local = std::find(used.begin(), used.end(), s.a) != used.end();
        b.CreateStore(b.CreateLoad(t, local ? static_cast<llvm::Value*>(s.a) : s.in), s.out);
      }
    }
  }
  if (!used.empty()) {
    llvm::DominatorTree dt(region);
    llvm::PromoteMemToReg(used, dt);
    for (llvm::AllocaInst* a : used) allocas.erase(std::find(allocas.begin(), allocas.end(), a));
  }
  return writes;
}

llvm::Value* SharedSlots::in(llvm::AllocaInst* a) {
  return std::find_if(slots_.begin(), slots_.end(), [&](Slot& s) { return s.a == a; })->in;
}

llvm::Value* scratchSlotAddress(llvm::IRBuilder<>& b, llvm::Value* scratch, uint64_t offset,
                                llvm::Value* workItems, llvm::Value* within) {
  llvm::Value* at = b.CreateMul(b.getInt64(offset), workItems);
  if (within) at = b.CreateAdd(at, within);
  llvm::Value* p = b.CreateInBoundsGEP(b.getInt8Ty(), scratch, at);
  if (auto* gep = llvm::dyn_cast<llvm::Instruction>(p))
    gep->setMetadata(
        kScratchSlotMetadata,
        llvm::MDNode::get(b.getContext(), {llvm::ConstantAsMetadata::get(b.getInt64(offset))}));
  return p;
}

}  // namespace tessera::backends::cpu::jit
