// The loop over a call's groups, inside the loop over rows (kernel_abi.h, rowsAcrossGroups).
//
// A work-group function runs groups groupX .. groupX + groupsX - 1 of one row of groups. For a
// kernel that allows it, its loops become z { y { group x { x } } }: each row of work-items across
// every group of the call, then the next row. A 2-D kernel of 16 x 16 groups then walks its
// images a whole row at a time instead of 64 bytes of 18 rows (a 5-point stencil, 4096^2 floats,
// in C on 2 threads of a Zen 4 VM: 8.6-9.0 ms group by group, 6.0-6.4 in rows across 256 groups,
// 5.0-5.3 row-major without groups). Only the group id x changes between the calls' groups: the
// context (sizes, offsets) is the same, since the launcher never puts the partial last group of a
// non-uniform launch in a run with others.
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include <vector>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {

void loopGroupsInRows(llvm::Function& wg, llvm::BasicBlock* yHeader, llvm::BasicBlock* yLatch) {
  llvm::LLVMContext& ctx = wg.getContext();
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  llvm::Argument* groupX = wg.getArg(kWgGroupX);
  llvm::Argument* groupsX = wg.getArg(kWgGroupsX);
  // What the y header did before its branch stays there (the row's linear id); the branch into
  // the row's x loops starts the loop over groups.
  llvm::BasicBlock* head = yHeader->splitBasicBlock(yHeader->getTerminator(), "wg.gx");
  auto* gx = llvm::PHINode::Create(i64, 2, "gx", &head->front());
  groupX->replaceAllUsesWith(gx);
  gx->addIncoming(groupX, yHeader);
  // Every way out of the row's x loops reaches the y latch: it reaches the next group first. The
  // latch's phis (the rows the y loop steps over: 1, or kJamRows after jammed rows) depend on the
  // way taken, which is the same for every group of the row.
  auto* latch = llvm::BasicBlock::Create(ctx, "wg.gx.latch", &wg, yLatch);
  std::vector<llvm::BasicBlock*> from(llvm::pred_begin(yLatch), llvm::pred_end(yLatch));
  for (llvm::BasicBlock* p : from) p->getTerminator()->replaceSuccessorWith(yLatch, latch);
  while (auto* phi = llvm::dyn_cast<llvm::PHINode>(&yLatch->front())) {
    phi->removeFromParent();
    latch->getInstList().push_back(phi);
  }
  llvm::IRBuilder<> b(latch);
  llvm::Value* next = b.CreateAdd(gx, b.getInt64(1), "gx.next", true, true);
  gx->addIncoming(next, latch);
  b.CreateCondBr(b.CreateICmpULT(next, b.CreateAdd(groupX, groupsX)), head, yLatch);
}

}  // namespace tessera::backends::cpu::jit
