// The work-group function's dispatch that follows each work-item (workgroup_dispatch.h).
#include "backends/cpu/jit/workgroup_dispatch.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

// `seen` before any work-item of a region's run returned.
constexpr uint32_t kNone = 0xFFFFFFFDu;

// for (i = 0; i < count; ++i) body(i), from `b`'s block (which it terminates); `b` continues after
// the loop. count >= 1.
template <typename Body>
void loop(llvm::IRBuilder<>& b, llvm::Value* count, const char* name, Body body) {
  llvm::Function* f = b.GetInsertBlock()->getParent();
  llvm::LLVMContext& ctx = f->getContext();
  llvm::BasicBlock* from = b.GetInsertBlock();
  llvm::BasicBlock* head = llvm::BasicBlock::Create(ctx, name, f);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx, llvm::Twine(name) + ".done", f);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  llvm::PHINode* i = b.CreatePHI(b.getInt64Ty(), 2, "i");
  i->addIncoming(b.getInt64(0), from);
  body(b, i);
  llvm::Value* i1 = b.CreateAdd(i, b.getInt64(1), "", true, true);
  i->addIncoming(i1, b.GetInsertBlock());
  b.CreateCondBr(b.CreateICmpULT(i1, count), head, done);
  b.SetInsertPoint(done);
}

}  // namespace

FollowEach::FollowEach(llvm::IRBuilder<>& b, llvm::Value* const ls[3], llvm::Value* scratch,
                       uint64_t scratchBytes, const std::vector<uint8_t>& subgroupCut)
    : subgroupCut_(subgroupCut) {
  for (int d = 0; d < 3; ++d) ls_[d] = ls[d];
  slotOffset_ = (scratchBytes + 3) / 4 * 4;
  items_ = b.CreateMul(b.CreateMul(ls[0], ls[1]), ls[2], "items");
  slots_ = b.CreateInBoundsGEP(b.getInt8Ty(), scratch, b.CreateMul(items_, b.getInt64(slotOffset_)),
                               "next.slots");
  seen_ = b.CreateAlloca(b.getInt32Ty(), nullptr, "next.seen");
  mixed_ = b.CreateAlloca(b.getInt1Ty(), nullptr, "next.mixed");
  minKey_ = b.CreateAlloca(b.getInt64Ty(), nullptr, "min.key");
  same_ = b.CreateAlloca(b.getInt1Ty(), nullptr, "same");
  round_ = b.CreateAlloca(b.getInt32Ty(), nullptr, "round");
  b.CreateStore(b.getInt32(0), round_);
  stamps_ =
      b.CreateInBoundsGEP(b.getInt8Ty(), slots_, b.CreateMul(items_, b.getInt64(4)), "run.stamps");
  divergent_ =
      llvm::BasicBlock::Create(b.getContext(), "divergent", b.GetInsertBlock()->getParent());
}

void FollowEach::resetStamps(llvm::IRBuilder<>& b) {
  loop(b, items_, "stamps.reset", [&](llvm::IRBuilder<>& lb, llvm::Value* i) {
    lb.CreateStore(lb.getInt32(0), lb.CreateInBoundsGEP(lb.getInt32Ty(), stamps_, i));
  });
}

llvm::Value* FollowEach::slot(llvm::IRBuilder<>& b, llvm::Value* linear) {
  return b.CreateInBoundsGEP(b.getInt32Ty(), slots_, linear);
}

void FollowEach::begin(llvm::IRBuilder<>& b) {
  b.CreateStore(b.getInt32(kNone), seen_);
  b.CreateStore(b.getFalse(), mixed_);
}

void FollowEach::record(llvm::IRBuilder<>& b, llvm::Value* next, llvm::Value* linear,
                        unsigned count) {
  llvm::Value* at = slot(b, linear);
  if (count == 1) {
    b.CreateAlignedStore(next, at, llvm::Align(4));
  } else {
    b.CreateAlignedStore(b.CreateVectorSplat(count, next), at, llvm::Align(4));
  }
  llvm::Value* seen = b.CreateLoad(b.getInt32Ty(), seen_);
  seen = b.CreateSelect(b.CreateICmpEQ(seen, b.getInt32(kNone)), next, seen);
  b.CreateStore(seen, seen_);
  b.CreateStore(b.CreateOr(b.CreateLoad(b.getInt1Ty(), mixed_), b.CreateICmpNE(seen, next)),
                mixed_);
}

void FollowEach::end(llvm::IRBuilder<>& b, llvm::Value* next, llvm::BasicBlock* dispatch) {
  b.CreateStore(b.CreateLoad(b.getInt32Ty(), seen_), next);
  b.CreateCondBr(b.CreateLoad(b.getInt1Ty(), mixed_), divergent_, dispatch);
}

void FollowEach::buildRounds(llvm::Function* wg, const std::vector<llvm::Function*>& regions,
                             const std::vector<llvm::Value*>& args, unsigned idIndex,
                             unsigned linearIndex, llvm::Value* next, llvm::BasicBlock* dispatch,
                             llvm::BasicBlock* exit, std::vector<llvm::CallInst*>* calls) {
  llvm::LLVMContext& ctx = wg->getContext();
  llvm::Module& m = *wg->getParent();
  llvm::IRBuilder<> b(divergent_);
  llvm::Type* i32 = b.getInt32Ty();
  const uint32_t count = static_cast<uint32_t>(regions.size());
  // The rank of each region's cut: non-uniform operations' first, then uniform ones', then the
  // rest (work-group barriers; the exit ranks last).
  std::vector<uint8_t> ranks(count, 2);
  for (uint32_t k = 0; k < count && k < subgroupCut_.size(); ++k)
    ranks[k] = subgroupCut_[k] == kNonUniformCut ? 0 : subgroupCut_[k] == kUniformCut ? 1 : 2;
  auto* table = new llvm::GlobalVariable(
      m, llvm::ArrayType::get(b.getInt8Ty(), count), true, llvm::GlobalValue::PrivateLinkage,
      llvm::ConstantDataArray::get(ctx, ranks), wg->getName() + ".cut_ranks");
  // The region to run: of the lowest rank some work-item waits at, the smallest (rank << 32 | id).
  llvm::Type* i64 = b.getInt64Ty();
  llvm::AllocaInst* best = minKey_;
  b.CreateStore(b.getInt64(~uint64_t{0}), best);
  loop(b, items_, "pick", [&](llvm::IRBuilder<>& lb, llvm::Value* i) {
    llvm::Value* v = lb.CreateLoad(i32, slot(lb, i));
    llvm::Value* inside = lb.CreateICmpULT(v, lb.getInt32(count));
    llvm::Value* index = lb.CreateZExt(lb.CreateSelect(inside, v, lb.getInt32(0)), i64);
    llvm::Value* rank = lb.CreateZExt(
        lb.CreateLoad(lb.getInt8Ty(), lb.CreateInBoundsGEP(lb.getInt8Ty(), table, index)), i64);
    rank = lb.CreateSelect(inside, rank, lb.getInt64(3));
    llvm::Value* key = lb.CreateOr(lb.CreateShl(rank, 32), lb.CreateZExt(v, i64));
    lb.CreateStore(lb.CreateBinaryIntrinsic(llvm::Intrinsic::umin, lb.CreateLoad(i64, best), key),
                   best);
  });
  llvm::Value* k = b.CreateTrunc(b.CreateLoad(i64, best), i32, "round.region");
  llvm::SwitchInst* sw = b.CreateSwitch(k, exit, count);

  // After a round: all agree (continue as usual) or another round.
  llvm::BasicBlock* converge = llvm::BasicBlock::Create(ctx, "converge", wg);
  {
    llvm::IRBuilder<> cb(converge);
    llvm::Value* first = cb.CreateLoad(i32, slot(cb, cb.getInt64(0)));
    llvm::AllocaInst* same = same_;
    cb.CreateStore(cb.getTrue(), same);
    loop(cb, items_, "agree", [&](llvm::IRBuilder<>& lb, llvm::Value* i) {
      llvm::Value* eq = lb.CreateICmpEQ(lb.CreateLoad(i32, slot(lb, i)), first);
      lb.CreateStore(lb.CreateAnd(lb.CreateLoad(lb.getInt1Ty(), same), eq), same);
    });
    cb.CreateStore(first, next);
    llvm::BasicBlock* agreed = llvm::BasicBlock::Create(ctx, "agreed", wg);
    cb.CreateCondBr(cb.CreateLoad(cb.getInt1Ty(), same), agreed, divergent_);
    // Every work-item runs the next region again: one run stamp for all.
    llvm::IRBuilder<> ab(agreed);
    resetStamps(ab);
    ab.CreateBr(dispatch);
  }

  // Region k for the work-items waiting at it, one at a time in linear order.
  for (uint32_t r = 0; r < count; ++r) {
    llvm::BasicBlock* round = llvm::BasicBlock::Create(ctx, "round" + llvm::Twine(r), wg);
    sw->addCase(b.getInt32(r), round);
    llvm::IRBuilder<> rb(round);
    llvm::Value* stamp = rb.CreateAdd(rb.CreateLoad(i32, round_), rb.getInt32(1));
    rb.CreateStore(stamp, round_);
    loop(rb, items_, "round.stamp", [&](llvm::IRBuilder<>& lb, llvm::Value* i) {
      llvm::Value* at = lb.CreateInBoundsGEP(i32, stamps_, i);
      llvm::Value* waits = lb.CreateICmpEQ(lb.CreateLoad(i32, slot(lb, i)), lb.getInt32(r));
      lb.CreateStore(lb.CreateSelect(waits, stamp, lb.CreateLoad(i32, at)), at);
    });
    loop(rb, items_, "round.wi", [&](llvm::IRBuilder<>& lb, llvm::Value* i) {
      llvm::Value* at = slot(lb, i);
      llvm::BasicBlock* run = llvm::BasicBlock::Create(ctx, "round.run", wg);
      llvm::BasicBlock* skip = llvm::BasicBlock::Create(ctx, "round.skip", wg);
      lb.CreateCondBr(lb.CreateICmpEQ(lb.CreateLoad(i32, at), lb.getInt32(r)), run, skip);
      lb.SetInsertPoint(run);
      std::vector<llvm::Value*> callArgs = args;
      llvm::Value* xy = lb.CreateMul(ls_[0], ls_[1]);
      callArgs[idIndex + 0] = lb.CreateURem(i, ls_[0]);
      callArgs[idIndex + 1] = lb.CreateURem(lb.CreateUDiv(i, ls_[0]), ls_[1]);
      callArgs[idIndex + 2] = lb.CreateUDiv(i, xy);
      callArgs[linearIndex] = i;
      llvm::CallInst* call = lb.CreateCall(regions[r], callArgs);
      calls->push_back(call);
      lb.CreateStore(call, at);
      lb.CreateBr(skip);
      lb.SetInsertPoint(skip);
    });
    rb.CreateBr(converge);
  }
}

}  // namespace tessera::backends::cpu::jit
