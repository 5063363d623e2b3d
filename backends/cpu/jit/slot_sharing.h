// Scratch slots of values that cross barriers (barrier_regions.cpp), shared where that is safe:
// a loop-carried value kept in its phi's slot, and slots every work-item stores the same value in
// kept once per work-group.
#pragma once

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace tessera::backends::cpu::jit {

// The address `within` bytes into the scratch slot at `offset` (a slot is offset * work-items bytes
// into the region's `scratch` parameter, one `offset`-sized part per work-item), tagged with
// kScratchSlotMetadata so later passes know it for a slot.
llvm::Value* scratchSlotAddress(llvm::IRBuilder<>& b, llvm::Value* scratch, uint64_t offset,
                                llvm::Value* workItems, llvm::Value* within);

// A loop-carried value crossing a barrier lives in two slots: the phi's (`phi`, stored by each
// predecessor) and that of the value the latch carries back (`carried`, stored where it is
// computed), and the latch copies one into the other: the tiled SGEMM's accumulator, reloaded and
// stored again for every row of every tile. When the phi's old value is dead once the new one is
// stored (no read of `phi` after that store before `phi` is written again), and no other value
// is stored into `phi` while the carried one may still be read, the two are one slot and the
// copy goes.
// Returns the slot merged into `phi` (erased), or null. `mayMerge` says which slots may be.
llvm::AllocaInst* coalesceCarriedSlot(llvm::AllocaInst* phi,
                                      const std::function<bool(llvm::AllocaInst*)>& mayMerge);

// Slots every work-item stores the same value in (a loop counter or a tile's index carried across
// a barrier) hold one copy per work-group instead of one per work-item, when every region runs
// for all the group's work-items before the next region starts (no sub-group cuts). The
// work-items of a region run one after the other, so one copy written in place would give the
// second work-item the value the first one left (a loop counter stepped twice). So there are two
// copies: a region reads every such value from the current copy into a variable of its own at its
// start (later reads are that variable), and a region that writes any of them stores them all
// into the other copy at each of its exits; the work-group function then makes that copy current
// (Regions::writesShared). All the work-items of a run read the values from before it and store
// the same values after it. The tiled SGEMM stored its tile counter, broadcast as a 64-bit vector,
// into sixteen work-items' slots per row: a tenth of its time.
class SharedSlots {
 public:
  // `b` builds at the end of a region's entry block; `scratch` is the region's scratch parameter,
  // `workItems` the group's work-item count, `parityOffset` Regions::parityOffset.
  SharedSlots(llvm::IRBuilder<>& b, llvm::Value* scratch, llvm::Value* workItems,
              uint64_t parityOffset)
      : b_(b), scratch_(scratch), workItems_(workItems), parityOffset_(parityOffset) {}

  // The slot of `a` at `offset`: its two copies, `size` bytes each.
  void add(llvm::AllocaInst* a, uint64_t offset, uint64_t size);

  // In `region`, whose allocas precede `entryEnd`: each slot's alloca loaded from the current copy
  // before `entryEnd`, every value stored into the other copy before each return if the region
  // writes any, the allocas promoted to registers (and taken out of `allocas`). Whether the region
  // writes any.
  bool exchange(llvm::Function& region, llvm::Instruction* entryEnd,
                std::vector<llvm::AllocaInst*>& allocas);

 private:
  struct Slot {
    llvm::AllocaInst* a;
    llvm::Value* in;   // the current copy
    llvm::Value* out;  // the other one
  };
  llvm::Value* in(llvm::AllocaInst* a);

  llvm::IRBuilder<>& b_;
  llvm::Value* scratch_;
  llvm::Value* workItems_;
  uint64_t parityOffset_;
  llvm::Value* current_ = nullptr;
  std::vector<Slot> slots_;
};

}  // namespace tessera::backends::cpu::jit
