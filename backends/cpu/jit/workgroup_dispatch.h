// The work-group function's dispatch when sub-groups may take different paths
// (workgroup_function.cpp uses it for kernels with sub-group cuts). Without it the work-group
// function runs each region for every work-item and continues with the region the last one
// returned (barriers are reached by all: OpenCL requires them in work-group-uniform control flow).
// A sub-group operation is only sub-group-uniform: after a region, sub-group 0 may wait at the cut
// of its `if (get_sub_group_id() == 0) sub_group_reduce_add(...)` while the others have returned.
// So each work-item's returned region id is kept (a 4-byte scratch slot per work-item); when they
// all agree, the next region runs as before for all of them (the fast path); else, in rounds, the
// smallest region id that some work-items wait at, preferring sub-group cuts (a work-group
// barrier's region runs only once every work-item waits there, or when nothing else is left), runs
// scalar for exactly those work-items, until all agree again or have returned. Non-uniform
// operations' cuts run before the others (a sub-group's lanes that took different branches meet
// again at the next uniform one), and the work-items of a round get a new run stamp, which tells
// an operation after a non-uniform cut which lanes of its sub-group take part. The lanes of one
// sub-group follow the same path (subgroup_uniformity.cpp refuses kernels where they might not),
// so a sub-group always arrives at a cut, and runs the region after it, together.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <vector>

namespace tessera::backends::cpu::jit {

class FollowEach {
 public:
  // In the work-group function's entry (`b`): the slots after `scratchBytes` bytes of each
  // work-item's other scratch; `subgroupCut` as Regions has it.
  FollowEach(llvm::IRBuilder<>& b, llvm::Value* const ls[3], llvm::Value* scratch,
             uint64_t scratchBytes, const std::vector<uint8_t>& subgroupCut);
  // The scratch bytes per work-item, with the slots.
  uint64_t scratchBytesPerWorkItem() const { return slotOffset_ + 8; }
  // The run stamps (kRunStamps): all 0 while every work-item runs each region; in a divergent
  // round, those it runs get the round's number.
  llvm::Value* stamps() const { return stamps_; }
  // Once, at the end of the work-group function's entry: every work-item in run 0.
  void resetStamps(llvm::IRBuilder<>& b);
  // Before a region runs for every work-item.
  void begin(llvm::IRBuilder<>& b);
  // Work-items [linear, linear + count) returned `next`.
  void record(llvm::IRBuilder<>& b, llvm::Value* next, llvm::Value* linear, unsigned count);
  // After a region ran for every work-item: to `dispatch` with `next` set when they agree, else to
  // the divergent rounds.
  void end(llvm::IRBuilder<>& b, llvm::Value* next, llvm::BasicBlock* dispatch);
  // The divergent rounds: region k runs by calling `regions[k]` with `args`, in which the local
  // ids (x, y, z at `idIndex`..+2) and the linear id (`linearIndex`) are replaced. The calls it
  // makes are appended to `calls` (the caller inlines them).
  void buildRounds(llvm::Function* wg, const std::vector<llvm::Function*>& regions,
                   const std::vector<llvm::Value*>& args, unsigned idIndex, unsigned linearIndex,
                   llvm::Value* next, llvm::BasicBlock* dispatch, llvm::BasicBlock* exit,
                   std::vector<llvm::CallInst*>* calls);

 private:
  llvm::Value* slot(llvm::IRBuilder<>& b, llvm::Value* linear);

  llvm::Value* ls_[3];
  llvm::Value* items_;
  llvm::Value* slots_;
  uint64_t slotOffset_;
  std::vector<uint8_t> subgroupCut_;
  llvm::Value* stamps_;
  llvm::AllocaInst* round_;
  llvm::AllocaInst* seen_;
  llvm::AllocaInst* mixed_;
  llvm::AllocaInst* minKey_;
  llvm::AllocaInst* same_;
  llvm::BasicBlock* divergent_ = nullptr;
};

}  // namespace tessera::backends::cpu::jit
