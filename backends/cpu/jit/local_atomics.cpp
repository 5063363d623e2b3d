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

// OpenCL's local address space in the translator's IR (and Tessera IR's).
constexpr unsigned kLocalAddressSpace = 3;

bool local(const llvm::Value* pointer) {
  return pointer->getType()->getPointerAddressSpace() == kLocalAddressSpace;
}

}  // namespace

unsigned lowerLocalAtomics(llvm::Function& f) {
  std::vector<llvm::Instruction*> found;
  for (llvm::BasicBlock& bb : f)
    for (llvm::Instruction& i : bb) {
      if (auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&i)) {
        if (!rmw->isVolatile() && local(rmw->getPointerOperand())) found.push_back(rmw);
      } else if (auto* cx = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&i)) {
        if (!cx->isVolatile() && local(cx->getPointerOperand())) found.push_back(cx);
      } else if (auto* l = llvm::dyn_cast<llvm::LoadInst>(&i)) {
        if (l->isAtomic() && !l->isVolatile() && local(l->getPointerOperand())) found.push_back(l);
      } else if (auto* s = llvm::dyn_cast<llvm::StoreInst>(&i)) {
        if (s->isAtomic() && !s->isVolatile() && local(s->getPointerOperand())) found.push_back(s);
      }
    }
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
