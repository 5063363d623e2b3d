// Pass: software prefetch of the next iteration's global loads in loops that contain a barrier.
// Such a loop is cut into regions (barrier_regions.cpp): in the 16x16 tiled SGEMM, the region that
// copies a tile of A and B into __local memory runs for the whole group, then the region that
// multiplies. Out-of-order execution cannot overlap the next tile's loads with this tile's
// arithmetic (a barrier and a whole group's work lie between them), and B's rows are 4 KiB apart,
// farther than the hardware prefetchers follow: the loads wait on the cache (perf: a third of the
// kernel's time). So each such load gets a prefetch of the address it will read one iteration
// later, computed from how the address moves per iteration of the loop:
//   d(address) = d(base) + sum d(index) * element size,   d(phi) = its step,
//   d(a + b) = d(a) + d(b),  d(a * c) = d(a) * c (c loop-invariant),  d(invariant) = 0,
// through casts assuming, like widen.cpp's stride analysis, that 32-bit index arithmetic does
// not wrap between iterations. Loads whose address moves less than a cache line per iteration
// are left to the hardware prefetchers, and so are loops without a barrier (their iterations are
// short, and out-of-order execution runs ahead on its own). A line per iteration is not: the
// SGEMM's A tile (each of the group's 16 rows moves 64 bytes per tile, a whole group's work apart)
// still waited on its loads with only B prefetched, and prefetching A too took SGEMM 1024 from
// 163-166 to 175-176 GFLOP/s on a 2-vCPU Zen 5 VM (alternating runs; at n = 256, whose matrices
// fit in L2, 158 against 160-162). A prefetch never faults, so one past the end of a buffer is
// harmless. TESSERA_PREFETCH=0 turns the pass off.
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>

#include <cstdlib>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

// Byte movements below this are the hardware prefetchers' (the same line again, or the next).
constexpr int64_t kMinStrideBytes = 64;

// How a value changes from one iteration of `loop` to the next, as an i64 value built before
// `at`, or null when that is not known.
class Derivative {
 public:
  Derivative(llvm::Loop& loop, llvm::Instruction* at, const llvm::DataLayout& dl)
      : loop_(loop), b_(at), dl_(dl) {}

  llvm::Value* of(llvm::Value* v, int depth = 0) {
    if (!isInLoop(v)) return b_.getInt64(0);
    // The depth limit alone leaves 2^24 steps (and as many instructions) for an address that
    // uses a value twice at every level; a budget per load bounds the walk.
    if (depth > 24 || budget_ == 0) return nullptr;
    --budget_;
    auto* i = llvm::cast<llvm::Instruction>(v);
    if (auto* phi = llvm::dyn_cast<llvm::PHINode>(i)) return ofPhi(phi);
    if (auto* bo = llvm::dyn_cast<llvm::BinaryOperator>(i)) {
      llvm::Value* a = bo->getOperand(0);
      llvm::Value* c = bo->getOperand(1);
      switch (bo->getOpcode()) {
        case llvm::Instruction::Or:
          // An add whose operands share no bit (InstCombine's form of `kg + kwg` with kg < KWG
          // and kwg a multiple of it: CLBlast's Xgemm and XgemmDirect tile loads).
          if (!llvm::haveNoCommonBitsSet(a, c, dl_)) return nullptr;
          [[fallthrough]];
        case llvm::Instruction::Add:
        case llvm::Instruction::Sub: {
          llvm::Value* da = of(a, depth + 1);
          llvm::Value* dc = da ? of(c, depth + 1) : nullptr;
          if (!dc) return nullptr;
          return bo->getOpcode() == llvm::Instruction::Sub ? b_.CreateSub(da, dc)
                                                           : b_.CreateAdd(da, dc);
        }
        case llvm::Instruction::Mul:
          if (!isInLoop(c)) {
            llvm::Value* da = of(a, depth + 1);
            return da ? b_.CreateMul(da, widen(c)) : nullptr;
          }
          if (!isInLoop(a)) {
            llvm::Value* dc = of(c, depth + 1);
            return dc ? b_.CreateMul(dc, widen(a)) : nullptr;
          }
          return nullptr;
        case llvm::Instruction::Shl:
          if (auto* k = llvm::dyn_cast<llvm::ConstantInt>(c); k && k->getZExtValue() < 32) {
            llvm::Value* da = of(a, depth + 1);
            return da ? b_.CreateShl(da, k->getZExtValue()) : nullptr;
          }
          return nullptr;
        default:
          return nullptr;
      }
    }
    if (auto* cast = llvm::dyn_cast<llvm::CastInst>(i)) {
      switch (cast->getOpcode()) {
        case llvm::Instruction::SExt:
        case llvm::Instruction::ZExt:
        case llvm::Instruction::Trunc:
        case llvm::Instruction::BitCast:
        case llvm::Instruction::AddrSpaceCast:
          return of(cast->getOperand(0), depth + 1);
        default:
          return nullptr;
      }
    }
    if (auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(i)) {
      llvm::Value* d = of(gep->getPointerOperand(), depth + 1);
      for (auto t = llvm::gep_type_begin(gep); d && t != llvm::gep_type_end(gep); ++t) {
        if (t.isStruct()) continue;
        llvm::Value* di = of(t.getOperand(), depth + 1);
        if (!di) return nullptr;
        uint64_t size = dl_.getTypeAllocSize(t.getIndexedType()).getFixedSize();
        d = b_.CreateAdd(d, b_.CreateMul(di, b_.getInt64(size)));
      }
      return d;
    }
    return nullptr;
  }

 private:
  bool isInLoop(llvm::Value* v) {
    auto* i = llvm::dyn_cast<llvm::Instruction>(v);
    return i != nullptr && loop_.contains(i);
  }

  // A loop-invariant integer as i64 (sign-extended: a step may be negative).
  llvm::Value* widen(llvm::Value* v) {
    if (v->getType()->isIntegerTy(64)) return v;
    // (Defined outside the loop and used in it, so it dominates the loop's blocks.)
    return b_.CreateSExtOrTrunc(v, b_.getInt64Ty());
  }

  // The header's induction variables: phi = [start, preheader], [phi +/- step, latch].
  llvm::Value* ofPhi(llvm::PHINode* phi) {
    if (phi->getParent() != loop_.getHeader() || phi->getNumIncomingValues() != 2) return nullptr;
    llvm::BasicBlock* latch = loop_.getLoopLatch();
    if (latch == nullptr) return nullptr;
    auto* next = llvm::dyn_cast<llvm::BinaryOperator>(phi->getIncomingValueForBlock(latch));
    if (next == nullptr) return nullptr;
    bool add = next->getOpcode() == llvm::Instruction::Add;
    if (!add && next->getOpcode() != llvm::Instruction::Sub) return nullptr;
    llvm::Value* step = nullptr;
    if (next->getOperand(0) == phi && !isInLoop(next->getOperand(1))) step = next->getOperand(1);
    if (add && next->getOperand(1) == phi && !isInLoop(next->getOperand(0)))
      step = next->getOperand(0);
    if (step == nullptr) return nullptr;
    llvm::Value* s = widen(step);
    return add ? s : b_.CreateNeg(s);
  }

  llvm::Loop& loop_;
  unsigned budget_ = 4096;
  llvm::IRBuilder<> b_;
  const llvm::DataLayout& dl_;
};

bool containsBarrier(const llvm::Loop& loop) {
  for (llvm::BasicBlock* bb : loop.blocks())
    for (llvm::Instruction& i : *bb)
      if (isWorkGroupBarrier(i)) return true;
  return false;
}

}  // namespace

unsigned prefetchAcrossBarriers(llvm::Function& kernel) {
  llvm::DominatorTree dt(kernel);
  llvm::LoopInfo loops(dt);
  const llvm::DataLayout& dl = kernel.getParent()->getDataLayout();
  unsigned inserted = 0;
  for (llvm::Loop* loop : loops.getLoopsInPreorder()) {
    if (!containsBarrier(*loop)) continue;
    std::vector<llvm::LoadInst*> loads;
    for (llvm::BasicBlock* bb : loop->blocks()) {
      // A load in an inner loop moves with that loop's variables too: not this loop's business.
      if (loops.getLoopFor(bb) != loop) continue;
      for (llvm::Instruction& i : *bb)
        if (auto* l = llvm::dyn_cast<llvm::LoadInst>(&i);
            l && l->isSimple() && l->getPointerAddressSpace() == kGlobalAddressSpace)
          loads.push_back(l);
    }
    for (llvm::LoadInst* l : loads) {
      llvm::Instruction* mark = l->getPrevNode();
      Derivative d(*loop, l, dl);
      llvm::Value* step = d.of(l->getPointerOperand());
      auto* k = llvm::dyn_cast_or_null<llvm::ConstantInt>(step);
      if (step == nullptr || (k && std::abs(k->getSExtValue()) < kMinStrideBytes)) {
        // No prefetch: the arithmetic built for the derivative goes (unused, but a value it
        // reads from an earlier region would otherwise cross the barrier in a slot).
        while (l->getPrevNode() != mark) l->getPrevNode()->eraseFromParent();
        continue;
      }
      llvm::IRBuilder<> b(l);
      llvm::Type* bytePtr = b.getInt8PtrTy(kGlobalAddressSpace);
      llvm::Value* next =
          b.CreateGEP(b.getInt8Ty(), b.CreatePointerCast(l->getPointerOperand(), bytePtr), step);
      // Read, high temporal locality (the next tile is reused at once), data cache.
      llvm::Function* prefetch =
          llvm::Intrinsic::getDeclaration(kernel.getParent(), llvm::Intrinsic::prefetch, {bytePtr});
      b.CreateCall(prefetch, {next, b.getInt32(0), b.getInt32(3), b.getInt32(1)});
      ++inserted;
    }
  }
  return inserted;
}

}  // namespace tessera::backends::cpu::jit
