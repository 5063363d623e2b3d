#include "backends/cpu/jit/uniformity.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/KnownBits.h>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

bool uniformBuiltin(llvm::StringRef name, Uniformity::Scope scope) {
  static const std::set<llvm::StringRef> group = {"__spirv_BuiltInWorkgroupId",
                                                  "__spirv_BuiltInWorkgroupSize",
                                                  "__spirv_BuiltInEnqueuedWorkgroupSize",
                                                  "__spirv_BuiltInNumWorkgroups",
                                                  "__spirv_BuiltInGlobalSize",
                                                  "__spirv_BuiltInGlobalOffset",
                                                  "__spirv_BuiltInWorkDim",
                                                  "__spirv_BuiltInSubgroupMaxSize",
                                                  "__spirv_BuiltInNumSubgroups",
                                                  "__spirv_BuiltInNumEnqueuedSubgroups"};
  // The last sub-group of a group may be smaller than the others.
  static const std::set<llvm::StringRef> subgroup = {"__spirv_BuiltInSubgroupId",
                                                     "__spirv_BuiltInSubgroupSize"};
  return group.count(name) || (scope == Uniformity::Scope::SubGroup && subgroup.count(name));
}

// Memory no work-item writes while the kernel runs: constant memory, by-value arguments (those the
// kernel writes were copied to allocas by byval_copies.cpp).
bool readOnlyMemory(llvm::Value* ptr) {
  if (ptr->getType()->getPointerAddressSpace() == 2) return true;
  auto* a = llvm::dyn_cast<llvm::Argument>(llvm::getUnderlyingObject(ptr));
  return a && a->hasByValAttr();
}

// Whether the value has at least `k` trailing zero bits.
bool multipleOf2To(llvm::Value* v, unsigned k, const llvm::DataLayout& dl) {
  return llvm::computeKnownBits(v, dl).countMinTrailingZeros() >= k;
}

llvm::Value* condition(const llvm::Instruction* t) {
  if (auto* br = llvm::dyn_cast<llvm::BranchInst>(t))
    return br->isConditional() ? br->getCondition() : nullptr;
  if (auto* sw = llvm::dyn_cast<llvm::SwitchInst>(t)) return sw->getCondition();
  return nullptr;
}

}  // namespace

Uniformity::Uniformity(llvm::Function& f, Scope scope) : f_(f), scope_(scope), pdt_(f) {
  for (llvm::BasicBlock& bb : f)
    for (llvm::Instruction& i : bb)
      if (candidate(i)) uniform_.insert(&i);
  for (bool changed = true; changed;) {
    changed = false;
    computeDivergentBlocks();
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb)
        if (uniform_.count(&i) && !stillUniform(i)) {
          uniform_.erase(&i);
          changed = true;
        }
  }
  computeDivergentBlocks();
}

bool Uniformity::uniform(const llvm::Value* v) const {
  return llvm::isa<llvm::Argument>(v) || llvm::isa<llvm::Constant>(v) || uniform_.count(v) != 0;
}

bool Uniformity::candidate(llvm::Instruction& i) const {
  if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i))
    return call->getCalledFunction() &&
           uniformBuiltin(spirvBaseName(call->getCalledFunction()->getName()), scope_);
  if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&i))
    return !load->isVolatile() && readOnlyMemory(load->getPointerOperand());
  return llvm::isa<llvm::BinaryOperator>(i) || llvm::isa<llvm::CastInst>(i) ||
         llvm::isa<llvm::GetElementPtrInst>(i) || llvm::isa<llvm::CmpInst>(i) ||
         llvm::isa<llvm::SelectInst>(i) || llvm::isa<llvm::PHINode>(i) ||
         llvm::isa<llvm::ExtractElementInst>(i) || llvm::isa<llvm::InsertElementInst>(i) ||
         llvm::isa<llvm::ShuffleVectorInst>(i) || llvm::isa<llvm::ExtractValueInst>(i) ||
         llvm::isa<llvm::InsertValueInst>(i) || llvm::isa<llvm::UnaryOperator>(i) ||
         llvm::isa<llvm::FreezeInst>(i);
}

bool Uniformity::stillUniform(llvm::Instruction& i) const {
  if (auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(&i); cmp && alignedCompare(cmp)) return true;
  for (llvm::Use& u : i.operands())
    if (!llvm::isa<llvm::BasicBlock>(u.get()) && !llvm::isa<llvm::Function>(u.get()) &&
        !uniform(u.get()))
      return false;
  if (auto* phi = llvm::dyn_cast<llvm::PHINode>(&i)) {
    // Joined along edges every work-item takes alike.
    for (llvm::BasicBlock* pred : phi->blocks()) {
      if (divergent(pred)) return false;
      if (llvm::Value* c = condition(pred->getTerminator()); c && !uniform(c)) return false;
    }
  }
  return true;
}

// `x < w` and `x >= w` (signed or unsigned) where w is uniform and x = u + v (or u | v), u uniform,
// 0 <= v < 2^k, and u and w multiples of 2^k: x lies in [u, u + 2^k) without wrapping (u is at
// most the largest multiple of 2^k), w is not inside unless it is u, so x < w exactly when u < w,
// the same for every work-item. CLBlast's XgemmDirect chooses between its full tiles and the
// checked edge ones, around its barriers, by `idm < (M / 16) * 16` with idm = group * 16 + lid * 2
// (the local id bounded by the required work-group size, simplify_kernels.cpp).
bool Uniformity::alignedCompare(llvm::ICmpInst* cmp) const {
  llvm::Value* x = cmp->getOperand(0);
  llvm::Value* w = cmp->getOperand(1);
  llvm::CmpInst::Predicate p = cmp->getPredicate();
  if (p == llvm::CmpInst::ICMP_SGT || p == llvm::CmpInst::ICMP_UGT ||
      p == llvm::CmpInst::ICMP_SLE || p == llvm::CmpInst::ICMP_ULE) {
    std::swap(x, w);
    p = llvm::CmpInst::getSwappedPredicate(p);
  }
  if (p != llvm::CmpInst::ICMP_SLT && p != llvm::CmpInst::ICMP_ULT &&
      p != llvm::CmpInst::ICMP_SGE && p != llvm::CmpInst::ICMP_UGE)
    return false;
  auto* sum = llvm::dyn_cast<llvm::BinaryOperator>(x);
  if (!uniform(w) || sum == nullptr ||
      (sum->getOpcode() != llvm::Instruction::Add && sum->getOpcode() != llvm::Instruction::Or))
    return false;
  const llvm::DataLayout& dl = f_.getParent()->getDataLayout();
  for (unsigned n = 0; n < 2; ++n) {
    llvm::Value* u = sum->getOperand(n);
    llvm::Value* v = sum->getOperand(1 - n);
    if (!uniform(u)) continue;
    const unsigned k = llvm::computeKnownBits(v, dl).countMaxActiveBits();
    if (k < x->getType()->getScalarSizeInBits() && multipleOf2To(u, k, dl) &&
        multipleOf2To(w, k, dl))
      return true;
  }
  return false;
}

// The blocks control dependent on a branch with a varying condition: for each such branch in A
// and successor S, the blocks from S up the post-dominator tree to A's immediate post-dominator.
void Uniformity::computeDivergentBlocks() {
  divergent_.clear();
  varyingBranch_ = false;
  for (llvm::BasicBlock& a : f_) {
    llvm::Instruction* t = a.getTerminator();
    llvm::Value* c = condition(t);
    bool varying = c ? !uniform(c) : (t->getNumSuccessors() > 1);
    if (!varying) continue;
    varyingBranch_ = true;
    llvm::DomTreeNode* an = pdt_.getNode(&a);
    llvm::DomTreeNode* stop = an ? an->getIDom() : nullptr;
    for (llvm::BasicBlock* s : llvm::successors(&a)) {
      for (llvm::DomTreeNode* n = pdt_.getNode(s); n && n != stop; n = n->getIDom()) {
        if (n->getBlock() == nullptr) break;  // the virtual exit
        divergent_.insert(n->getBlock());
      }
    }
  }
}

}  // namespace tessera::backends::cpu::jit
