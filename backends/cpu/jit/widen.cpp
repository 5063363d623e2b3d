// Pass: widening across work-items. A region function runs one work-item; its widened copy runs VF
// consecutive work-items in x at once (lanes: local id x = the argument + 0..VF-1), so that a
// kernel whose own loop sits inside the work-item x loop (naive SGEMM's k loop, clpeak's MAD
// loops) still computes VF work-items per SIMD instruction; LLVM 15 only vectorizes innermost
// loops and cannot do this itself.
//
// Values are uniform (the same for every lane: kernel arguments, group ids, sizes, values computed
// from them only, loop counters of uniform loops) or varying (they depend on the local id x or the
// local linear id). The original scalar instructions are kept and compute lane 0 (their local id
// x is lane 0's); each varying value gets a <VF x T> twin next to it; an OpenCL vector <n x T>
// gets a lane-major <VF * n x T> one (lane l's element k at l * n + k, as consecutive float4s lie
// in memory), on which elementwise operations and vector intrinsics run unchanged and
// constant-index extracts, inserts and shuffles become shuffles (widen_prepare.h first turns a
// vector that a loop only updates element by element into one phi per element, so that it needs
// none). Memory:
//  - a varying address whose lanes are consecutive (lane_strides.h: base + lane * sizeof(T)) is a
//    vector load/store at lane 0's address; another varying address a gather/scatter, or for an
//    OpenCL vector VF loads/stores of the lanes' vectors (an int- or long-sized one: a gather or
//    scatter of integers); a uniform address of a load stays a scalar load (its value is uniform),
//    and a varying one whose lanes all coincide (`in[tid / 8]`) is one load for all lanes; a load
//    at a clamped index (`in[min(x + 1, w - 1)]`) is a vector load in the chunks where a run-time
//    check finds no lane clamped, else the gather (widen_memory.cpp, unclampedCheck);
//  - stores of a varying value to a uniform address (OpenCL vectors too), atomics, volatile
//    accesses and calls with side effects run lane by lane, in lane order (the scalar order of
//    those work-items);
//  - calls of trivially vectorizable intrinsics become their vector form, reductions of an OpenCL
//    vector's elements (any(), all()) one shuffle per element; other calls without side effects
//    (libm) run lane by lane.
// Control flow stays scalar. A varying branch around plain code (`if (gid < n) out[gid] = ...`, a
// reduction's `if (lid < s) scratch[lid] += scratch[lid + s]`; one block, or blocks whose own
// branches are uniform) is predicated: the code runs when any lane takes the branch, its loads
// and stores masked by those lanes, and the phis where it joins select per lane. Any other
// varying branch condition is checked at run time: when all lanes agree the widened code takes
// that branch, else the region returns kWidenBail and the work-group function runs these VF
// work-items with the scalar region from the region's start; so such a branch must not follow (in
// the region's CFG) anything that writes memory. This covers loops whose trip count is varying
// but the same for the lanes of a chunk (a grid-stride loop when the global size divides n).
// Masking nested varying branches is not implemented.
// The widening refuses a region (the scalar loop then runs it) with such a branch after a side
// effect, a varying switch condition or return value, a varying value that is not an integer,
// float or pointer scalar or a vector of them, a variable element index, a cast that changes a
// vector's element count, a widened value above 1 KiB or an integer division by a varying
// divisor of more than 16 elements (a narrower level may take those two), private memory that
// does not promote to registers, printf or async copies. The stride analysis (lane_strides.h)
// assumes that 32-bit index arithmetic does not wrap between consecutive work-items (clang's nsw
// for int).
//
// The Widener (widener.h) is split by concept: this file runs it (and widenRegion, the entry),
// widen_classify.cpp decides what varies and what can be widened, widen_transform.cpp rewrites the
// instructions, widen_memory.cpp the loads and stores.

#include "backends/cpu/jit/widener.h"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/Analysis/InstructionSimplify.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

#include "backends/cpu/jit/widen_prepare.h"

namespace tessera::backends::cpu::jit {
namespace widening {

bool Widener::run(std::string* why) {
  localizeSlots(f_, first_);
  if (!promotePrivates(why)) return false;
  scalarizeVectorPhis(f_);
  // The translator's <3 x i64> id vectors (extractelement of insertelements) fold away, and dead
  // code needs no widening.
  const llvm::SimplifyQuery query(dl_);
  for (bool changed = true; changed;) {
    changed = false;
    for (llvm::BasicBlock& bb : f_)
      for (llvm::Instruction& i : llvm::make_early_inc_range(bb))
        if (auto* e = llvm::dyn_cast<llvm::ExtractElementInst>(&i)) {
          if (llvm::Value* v = llvm::simplifyInstruction(e, query)) {
            e->replaceAllUsesWith(v);
            e->eraseFromParent();
            changed = true;
          }
        } else if (llvm::isInstructionTriviallyDead(&i)) {
          i.eraseFromParent();
          changed = true;
        }
  }
  for (llvm::BasicBlock* bb : llvm::ReversePostOrderTraversal<llvm::Function*>(&f_))
    order_.push_back(bb);
  if (!classify(why)) return false;
  transform();
  return true;
}

// After run() refused the region for something in one block: makes the widened code give up
// (kWidenBail, as a lane disagreement does) on every edge into a block that dominates that one,
// where each such edge leaves a conditional branch that nothing written precedes, and drops what
// only those edges reached. The region is then widened without the refused part, and work-items
// that go there run scalar from the region's start (exact, since nothing was written yet):
// CLBlast's XgemmDirect has a bounds-checked path for the edge tiles, whose divergent branches
// after stores refused the whole region for the full tiles too. False when there is no such
// block. The function stays valid either way; run() must be called again on a new Widener.
bool Widener::cutToBail() {
  if (refusedAt_ == nullptr) return false;
  llvm::DominatorTree dt(f_);
  for (llvm::DomTreeNode* n = dt.getNode(refusedAt_); n && n->getIDom(); n = n->getIDom()) {
    llvm::BasicBlock* target = n->getBlock();
    bool cuttable = !llvm::pred_empty(target);
    for (llvm::BasicBlock* pred : llvm::predecessors(target)) {
      auto* br = llvm::dyn_cast<llvm::BranchInst>(pred->getTerminator());
      // A conditional branch whose other way stays (else the cut belongs higher up), not a
      // back edge of a loop `target` heads, nothing written before it.
      cuttable &= br != nullptr && br->isConditional() &&
                  br->getSuccessor(0) != br->getSuccessor(1) && !dt.dominates(target, pred) &&
                  !afterSideEffect(pred);
    }
    if (!cuttable) continue;
    llvm::BasicBlock* bail = llvm::BasicBlock::Create(f_.getContext(), "widen.cut", &f_);
    llvm::ReturnInst::Create(f_.getContext(),
                             llvm::ConstantInt::get(f_.getReturnType(), kWidenBail), bail);
    for (llvm::BasicBlock* pred : llvm::to_vector(llvm::predecessors(target))) {
      target->removePredecessor(pred);
      pred->getTerminator()->replaceSuccessorWith(target, bail);
    }
    llvm::removeUnreachableBlocks(f_);
    return true;
  }
  return false;
}

// Private memory is per work-item: promoted to registers (then varying or uniform like any
// value), else the region is refused.
bool Widener::promotePrivates(std::string* why) {
  std::vector<llvm::AllocaInst*> allocas;
  for (llvm::BasicBlock& bb : f_)
    for (llvm::Instruction& i : bb)
      if (auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i)) {
        if (!llvm::isAllocaPromotable(a)) {
          *why = "private memory that does not promote to registers";
          return false;
        }
        allocas.push_back(a);
      }
  if (!allocas.empty()) {
    llvm::DominatorTree dt(f_);
    llvm::PromoteMemToReg(allocas, dt);
  }
  return true;
}

}  // namespace widening
llvm::Function* widenRegion(llvm::Function& region, unsigned first, unsigned vf, WidenStats* stats,
                            std::string* why) {
  llvm::ValueToValueMapTy vmap;
  llvm::Function* w = llvm::CloneFunction(&region, vmap);
  w->setName(region.getName() + ".wide");
  WidenStats local;
  // A refusal in a part of the region that can be cut off (Widener::cutToBail) is retried without
  // that part; each cut removes at least one block, and a few cuts are all real kernels need.
  constexpr int kMaxCuts = 8;
  for (int cuts = 0;; ++cuts) {
    widening::Widener widener(*w, first, vf, &local);
    if (widener.run(why)) {
      local.checkedBranches += cuts;  // each cut gives up at run time like a checked branch
      local.cutPaths += cuts;
      break;
    }
    if (cuts == kMaxCuts || !widener.cutToBail()) {
      w->eraseFromParent();
      return nullptr;
    }
    local = WidenStats{};
  }
  // A widening bug must not become wrong code: what does not verify runs scalar.
  std::string broken;
  llvm::raw_string_ostream os(broken);
  if (llvm::verifyFunction(*w, &os)) {
    *why = "internal: the widened region does not verify: " + os.str();
    w->eraseFromParent();
    return nullptr;
  }
  if (stats) {
    stats->contiguous += local.contiguous;
    stats->gathers += local.gathers;
    stats->versionedLoads += local.versionedLoads;
    stats->stridedLoads += local.stridedLoads;
    stats->stridedStores += local.stridedStores;
    stats->scatters += local.scatters;
    stats->vectorGathers += local.vectorGathers;
    stats->vectorScatters += local.vectorScatters;
    stats->perLane += local.perLane;
    stats->vectorCalls += local.vectorCalls;
    stats->checkedBranches += local.checkedBranches;
    stats->predicatedBranches += local.predicatedBranches;
    stats->cutPaths += local.cutPaths;
    stats->activeBases += local.activeBases;
  }
  return w;
}

}  // namespace tessera::backends::cpu::jit
