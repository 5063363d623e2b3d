// Atomics and fences (sub-group operations: subgroup_collectives.cpp). Atomics become atomicrmw /
// cmpxchg / atomic load and store, seq_cst whatever the requested semantics (stronger than asked is
// allowed).
#include <llvm/IR/Constants.h>

#include "backends/cpu/jit/builtin_lowering.h"

namespace tessera::backends::cpu::jit::builtins {
namespace {

llvm::Value* rmw(Builder& b, llvm::AtomicRMWInst::BinOp op, llvm::Value* ptr, llvm::Value* v) {
  return b.CreateAtomicRMW(op, ptr, v, llvm::MaybeAlign(),
                           llvm::AtomicOrdering::SequentiallyConsistent);
}

}  // namespace

void addAtomicBuiltins(Table& m) {
  // Atomics: (pointer, scope, semantics[, value]).
  auto atomic = [&](const char* name, llvm::AtomicRMWInst::BinOp op) {
    m[name] = [op](Builder& b, llvm::CallInst*, const Args& a) { return rmw(b, op, a[0], a[3]); };
  };
  atomic("__spirv_AtomicIAdd", llvm::AtomicRMWInst::Add);
  atomic("__spirv_AtomicISub", llvm::AtomicRMWInst::Sub);
  atomic("__spirv_AtomicSMin", llvm::AtomicRMWInst::Min);
  atomic("__spirv_AtomicUMin", llvm::AtomicRMWInst::UMin);
  atomic("__spirv_AtomicSMax", llvm::AtomicRMWInst::Max);
  atomic("__spirv_AtomicUMax", llvm::AtomicRMWInst::UMax);
  atomic("__spirv_AtomicAnd", llvm::AtomicRMWInst::And);
  atomic("__spirv_AtomicOr", llvm::AtomicRMWInst::Or);
  atomic("__spirv_AtomicXor", llvm::AtomicRMWInst::Xor);
  atomic("__spirv_AtomicExchange", llvm::AtomicRMWInst::Xchg);
  atomic("__spirv_AtomicFAddEXT", llvm::AtomicRMWInst::FAdd);
  atomic("__spirv_AtomicFMinEXT", llvm::AtomicRMWInst::FMin);
  atomic("__spirv_AtomicFMaxEXT", llvm::AtomicRMWInst::FMax);
  m["__spirv_AtomicIIncrement"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
    return rmw(b, llvm::AtomicRMWInst::Add, a[0], llvm::ConstantInt::get(c->getType(), 1));
  };
  m["__spirv_AtomicIDecrement"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
    return rmw(b, llvm::AtomicRMWInst::Sub, a[0], llvm::ConstantInt::get(c->getType(), 1));
  };
  m["__spirv_AtomicLoad"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
    llvm::LoadInst* l = b.CreateLoad(c->getType(), a[0]);
    l->setAtomic(llvm::AtomicOrdering::SequentiallyConsistent);
    l->setAlignment(llvm::Align(c->getModule()->getDataLayout().getTypeStoreSize(c->getType())));
    return l;
  };
  m["__spirv_AtomicStore"] = [](Builder& b, llvm::CallInst* c, const Args& a) {
    llvm::StoreInst* s = b.CreateStore(a[3], a[0]);
    s->setAtomic(llvm::AtomicOrdering::SequentiallyConsistent);
    s->setAlignment(llvm::Align(c->getModule()->getDataLayout().getTypeStoreSize(a[3]->getType())));
    return nullptr;
  };
  for (const char* n : {"__spirv_AtomicCompareExchange", "__spirv_AtomicCompareExchangeWeak"}) {
    // (pointer, scope, equal semantics, unequal semantics, value, comparator) -> original.
    m[n] = [](Builder& b, llvm::CallInst*, const Args& a) {
      llvm::Value* pair = b.CreateAtomicCmpXchg(a[0], a[5], a[4], llvm::MaybeAlign(),
                                                llvm::AtomicOrdering::SequentiallyConsistent,
                                                llvm::AtomicOrdering::SequentiallyConsistent);
      return b.CreateExtractValue(pair, 0);
    };
  }
  m["__spirv_AtomicFlagTestAndSet"] = [](Builder& b, llvm::CallInst*, const Args& a) {
    return b.CreateICmpNE(rmw(b, llvm::AtomicRMWInst::Xchg, a[0], b.getInt32(1)), b.getInt32(0));
  };
  m["__spirv_AtomicFlagClear"] = [](Builder& b, llvm::CallInst*, const Args& a) {
    llvm::StoreInst* s = b.CreateStore(b.getInt32(0), a[0]);
    s->setAtomic(llvm::AtomicOrdering::SequentiallyConsistent);
    s->setAlignment(llvm::Align(4));
    return nullptr;
  };
  // A work-group runs on one thread, so a fence orders against other work-groups and the host.
  m["__spirv_MemoryBarrier"] = [](Builder& b, llvm::CallInst*, const Args&) {
    b.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
    return nullptr;
  };
}

}  // namespace tessera::backends::cpu::jit::builtins
