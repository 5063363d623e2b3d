// Pass: sub-group operations (but the non-uniform ones, kNonUniformCutMetadata) run where whole
// sub-groups reach them (subgroup_collectives.cpp cuts
// the kernel there; the work-group function follows each sub-group's path, workgroup_dispatch.h).
// A cut under control flow that may differ between the work-items of one sub-group (a branch on
// the local id, on loaded data, a loop whose trip count varies per work-item) would have a
// sub-group's lanes wait at different cuts and compute a wrong answer; such a kernel fails to
// build instead, with a log line that says so. Then the sub-group id builtins become arithmetic
// (subgroup_builtins.cpp; kept as calls until here so that they count as sub-group uniform).
//
// Sub-group uniform values (the same for every work-item of a sub-group): arguments, constants,
// the group's ids and sizes, the sub-group's id, size and count, loads of read-only by-value
// arguments and of constant memory at a uniform address, and what is computed from them alone; a
// phi only where it joins uniform values along uniformly taken edges. Optimistic, as
// barrier_regions.cpp's analysis: everything starts uniform (so that loop counters can be) and what
// depends on a varying value leaves, until nothing changes. A block is divergent when it is control
// dependent (post-dominance frontier) on a branch with a varying condition.
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Instructions.h>

#include <set>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

bool uniformBuiltin(llvm::StringRef name) {
  static const std::set<llvm::StringRef> names = {"__spirv_BuiltInWorkgroupId",
                                                  "__spirv_BuiltInWorkgroupSize",
                                                  "__spirv_BuiltInEnqueuedWorkgroupSize",
                                                  "__spirv_BuiltInNumWorkgroups",
                                                  "__spirv_BuiltInGlobalSize",
                                                  "__spirv_BuiltInGlobalOffset",
                                                  "__spirv_BuiltInWorkDim",
                                                  "__spirv_BuiltInSubgroupMaxSize",
                                                  "__spirv_BuiltInNumSubgroups",
                                                  "__spirv_BuiltInNumEnqueuedSubgroups",
                                                  "__spirv_BuiltInSubgroupId",
                                                  "__spirv_BuiltInSubgroupSize"};
  return names.count(name) != 0;
}

// Memory no work-item writes while the kernel runs: constant memory, by-value arguments (those the
// kernel writes were copied to allocas by byval_copies.cpp).
bool readOnlyMemory(llvm::Value* ptr) {
  if (ptr->getType()->getPointerAddressSpace() == 2) return true;
  auto* a = llvm::dyn_cast<llvm::Argument>(llvm::getUnderlyingObject(ptr));
  return a && a->hasByValAttr();
}

class Uniformity {
 public:
  explicit Uniformity(llvm::Function& f) : f_(f), pdt_(f) {
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

  bool divergent(const llvm::BasicBlock* bb) const { return divergent_.count(bb) != 0; }

 private:
  bool isUniform(llvm::Value* v) const {
    return llvm::isa<llvm::Argument>(v) || llvm::isa<llvm::Constant>(v) || uniform_.count(v) != 0;
  }

  static bool candidate(llvm::Instruction& i) {
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i))
      return call->getCalledFunction() &&
             uniformBuiltin(spirvBaseName(call->getCalledFunction()->getName()));
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

  bool stillUniform(llvm::Instruction& i) const {
    for (llvm::Use& u : i.operands())
      if (!llvm::isa<llvm::BasicBlock>(u.get()) && !llvm::isa<llvm::Function>(u.get()) &&
          !isUniform(u.get()))
        return false;
    if (auto* phi = llvm::dyn_cast<llvm::PHINode>(&i)) {
      // Joined along edges every work-item takes alike.
      for (llvm::BasicBlock* pred : phi->blocks()) {
        if (divergent(pred)) return false;
        if (llvm::Value* c = condition(pred->getTerminator()); c && !isUniform(c)) return false;
      }
    }
    return true;
  }

  static llvm::Value* condition(llvm::Instruction* t) {
    if (auto* br = llvm::dyn_cast<llvm::BranchInst>(t))
      return br->isConditional() ? br->getCondition() : nullptr;
    if (auto* sw = llvm::dyn_cast<llvm::SwitchInst>(t)) return sw->getCondition();
    return nullptr;
  }

  // The blocks control dependent on a branch with a varying condition: for each such branch in A
  // and successor S, the blocks from S up the post-dominator tree to A's immediate post-dominator.
  void computeDivergentBlocks() {
    divergent_.clear();
    for (llvm::BasicBlock& a : f_) {
      llvm::Instruction* t = a.getTerminator();
      llvm::Value* c = condition(t);
      bool varying = c ? !isUniform(c) : (t->getNumSuccessors() > 1);
      if (!varying) continue;
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

  llvm::Function& f_;
  llvm::PostDominatorTree pdt_;
  std::set<llvm::Value*> uniform_;
  std::set<const llvm::BasicBlock*> divergent_;
};

bool checkCuts(llvm::Function& kernel, std::string* error) {
  std::vector<llvm::Instruction*> cuts;
  for (llvm::BasicBlock& bb : kernel)
    for (llvm::Instruction& i : bb)
      if (i.getMetadata(kSubgroupCutMetadata)) cuts.push_back(&i);
  if (cuts.empty()) return true;
  Uniformity u(kernel);
  for (llvm::Instruction* cut : cuts) {
    if (u.divergent(cut->getParent())) {
      *error = "kernel " + kernel.getName().str() +
               ": a sub-group operation or sub_group_barrier under control flow that may differ "
               "between the work-items of a sub-group is not supported (Tessera runs sub-group "
               "operations where whole sub-groups reach them)";
      return false;
    }
  }
  return true;
}

}  // namespace

bool checkSubgroupUniformity(llvm::Function& kernel, std::string* error) {
  if (!checkCuts(kernel, error)) return false;
  uint64_t size = kDefaultSubgroupSize;
  if (kernel.getFnAttribute(kSubgroupSizeAttribute).getValueAsString().getAsInteger(10, size))
    size = kDefaultSubgroupSize;
  lowerSubgroupLocalBuiltins(kernel, size, SubgroupBuiltins::Ids);
  return true;
}

}  // namespace tessera::backends::cpu::jit
