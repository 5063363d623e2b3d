// Which values are the same for every work-item of a work-group or of a sub-group, and which
// blocks only some of them run (barrier_regions.cpp keeps the group-uniform values that cross a
// barrier in slots the widening reads once; subgroup_uniformity.cpp refuses sub-group operations
// under divergent control flow).
//
// Uniform values: arguments, constants, the group's ids and sizes (and, for a sub-group, its id
// and size), loads of read-only by-value arguments and of constant memory at a uniform address,
// what is computed from them alone, comparisons whose varying part cannot change the outcome
// (alignedCompare); a phi only where it joins uniform values along edges every
// work-item takes alike. Optimistic: everything starts uniform (so that loop counters can be) and
// what depends on a varying value leaves, until nothing changes. A block is divergent when it is
// control dependent (post-dominance frontier) on a branch with a varying condition; a loop whose
// exit is such a branch has its header and latch divergent, so its phis are varying and a value
// it computes from uniform operands alone is the same in every iteration.
#pragma once

#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

#include <set>

namespace tessera::backends::cpu::jit {

class Uniformity {
 public:
  enum class Scope { WorkGroup, SubGroup };

  Uniformity(llvm::Function& f, Scope scope);

  bool uniform(const llvm::Value* v) const;
  // Run by some work-items only (of the scope's group).
  bool divergent(const llvm::BasicBlock* bb) const { return divergent_.count(bb) != 0; }
  // No branch of the function decides differently for two work-items of a group.
  bool controlUniform() const { return !varyingBranch_; }

 private:
  bool candidate(llvm::Instruction& i) const;
  bool stillUniform(llvm::Instruction& i) const;
  bool alignedCompare(llvm::ICmpInst* cmp) const;
  void computeDivergentBlocks();

  llvm::Function& f_;
  Scope scope_;
  llvm::PostDominatorTree pdt_;
  std::set<const llvm::Value*> uniform_;
  std::set<const llvm::BasicBlock*> divergent_;
  bool varyingBranch_ = false;
};

}  // namespace tessera::backends::cpu::jit
