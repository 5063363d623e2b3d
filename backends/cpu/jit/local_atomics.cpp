// Pass: atomics on local memory as plain loads and stores. A work-group runs on one worker thread
// from its first region to its last (its sub-groups one after another, docs/architecture.md), and
// each worker has local memory of its own, so no other thread can read or write a group's local
// memory while the group runs: its atomics need no atomicity between threads, only to happen in
// the order the work-group function runs them, which plain accesses keep. Nor do they order
// anything another thread sees: OpenCL C 3.0's and SPIR-V's memory model let an atomic
// synchronize only with an atomic of another work-item on the same location, and every
// work-item that can reach a local location runs on this thread, in program order. A `lock`
// instruction drains the store buffer each time: the bench's 256-bin histogram (16M
// `atomic_inc`s on __local bins, each lane's in lane order after the widening) spent its time
// there, at PoCL's speed.
//
// This runs after the widening, which keeps every atomic scalar, one lane after the other (a
// plain read-modify-write before it would have become a gather and a scatter, and two lanes
// with the same bin would lose an increment). Atomics through generic pointers stay atomic: the
// pointer may be a global one.
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/LowerAtomic.h>

#include <vector>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

// The pointer an atomic, non-volatile access reads or writes through; null for anything else.
llvm::Value* atomicPointer(llvm::Instruction& i) {
  if (!i.isAtomic() || llvm::isa<llvm::FenceInst>(i)) return nullptr;
  if (auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&i))
    return rmw->isVolatile() ? nullptr : rmw->getPointerOperand();
  if (auto* cx = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&i))
    return cx->isVolatile() ? nullptr : cx->getPointerOperand();
  if (i.isVolatile()) return nullptr;
  return llvm::getLoadStorePointerOperand(&i);
}

}  // namespace

unsigned lowerLocalAtomics(llvm::Function& f) {
  std::vector<llvm::Instruction*> found;
  for (llvm::BasicBlock& bb : f)
    for (llvm::Instruction& i : bb)
      if (llvm::Value* p = atomicPointer(i);
          p && p->getType()->getPointerAddressSpace() == kLocalAddressSpace)
        found.push_back(&i);
  for (llvm::Instruction* i : found) {
    if (auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(i)) {
      llvm::lowerAtomicRMWInst(rmw);
    } else if (auto* cx = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(i)) {
      llvm::lowerAtomicCmpXchgInst(cx);
    } else if (auto* l = llvm::dyn_cast<llvm::LoadInst>(i)) {
      l->setAtomic(llvm::AtomicOrdering::NotAtomic);
    } else {
      llvm::cast<llvm::StoreInst>(i)->setAtomic(llvm::AtomicOrdering::NotAtomic);
    }
  }
  return static_cast<unsigned>(found.size());
}

}  // namespace tessera::backends::cpu::jit
