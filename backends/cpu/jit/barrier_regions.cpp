// Pass: continuation-based synchronization. The kernel's CFG is cut at every work-group barrier;
// region 0 is what runs from the entry, region j what runs after barrier j, each up to the next
// barrier it meets or the return. A region becomes a function of one work-item; the work-group
// function runs it for every work-item in a loop, then continues with the region of the barrier
// they reached (the same for all: OpenCL requires barriers in work-group-uniform control flow).
//
// Values: every SSA value used outside its block and every phi is first demoted to an alloca
// (without needless slot-to-slot copies: see forwardSingleValuePhis, the critical edges split
// before the phis' demotion, and reloadFromPhiSlot). An
// alloca all of whose users lie in blocks that belong to one region only stays private to that
// region (the def dominates its uses, so no value can flow from one run of the region to the next
// through it); mem2reg in O3 promotes it again. Every other alloca (and every alloca the kernel
// itself made, e.g. private arrays, whose stores need not dominate its loads) gets a per-work-item
// slot in scratch memory, laid out structure-of-arrays: slot offset * work-items + id * size.
//
// Before that, cheap values computed only from kernel arguments, constants and the work-item
// builtins (ids, sizes: `row = get_global_id(1)`, `&A[row * N]`) are recomputed in each block
// that uses them instead of crossing in a slot: a region then sees them as expressions of its own
// ids, which LLVM's vectorizer and the widening (widen.cpp) read as uniform or consecutive across
// work-items, where a value reloaded from a slot is opaque (a gather). Group-uniform values that
// are not cheap (a remapped group id) may be the leaves of such expressions (Leaves).
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/CFG.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>

#include <map>
#include <set>

#include "backends/cpu/jit/jit_passes.h"
#include "backends/cpu/jit/slot_sharing.h"
#include "backends/cpu/jit/uniformity.h"

namespace tessera::backends::cpu::jit {
namespace {

// How many (distinct) instructions an expression may have to be recomputed where it is used.
constexpr unsigned kRematerializeLimit = 24;

bool isWorkItemBuiltin(const llvm::Instruction& i) {
  auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
  return call && call->getCalledFunction() &&
         spirvBaseName(call->getCalledFunction()->getName()).startswith("__spirv_BuiltIn");
}

// The values an expression to recompute may use as they are, without recomputing them: those the
// same for every work-item of the group (a group id remapped through a branch, a loaded tile
// origin). Such a value crosses a barrier in a slot every work-item reads alike (one copy a group,
// see step 4 of formRegions), so `bx * 16 + lid` recomputed after the barrier is still
// consecutive across work-items, where the sum in a per-work-item slot would be a gather.
struct Leaves {
  std::set<llvm::Value*> uniform;  // candidates (uniformity.h, blocks that are not divergent)
  std::set<llvm::Value*> taken;    // those some recomputed expression uses as they are
};

bool rematerializable(llvm::Value* v, unsigned& budget,
                      llvm::SmallPtrSetImpl<llvm::Value*>& counted, Leaves& leaves);

// Whether `v` is such a cheap value; `budget` counts down the distinct instructions of its
// expression (what rematerialize copies into a block: a subexpression used twice, like the
// dividend and divisor of a guarded division (trap_free_arithmetic.cpp) or `row` in
// `row * n + (g - row * n)`, is copied once).
bool cheapExpression(llvm::Value* v, unsigned& budget, llvm::SmallPtrSetImpl<llvm::Value*>& counted,
                     Leaves& leaves) {
  auto* i = llvm::dyn_cast<llvm::Instruction>(v);
  if (i == nullptr) return llvm::isa<llvm::Argument>(v) || llvm::isa<llvm::Constant>(v);
  if (llvm::isa<llvm::AllocaInst>(i)) return i->getParent()->isEntryBlock();
  if (!counted.insert(v).second) return true;  // checked already (no cycles without phis)
  if (budget == 0) return false;
  --budget;
  bool cheap = llvm::isa<llvm::BinaryOperator>(i) || llvm::isa<llvm::CastInst>(i) ||
               llvm::isa<llvm::GetElementPtrInst>(i) || llvm::isa<llvm::CmpInst>(i) ||
               llvm::isa<llvm::SelectInst>(i) || llvm::isa<llvm::ExtractElementInst>(i) ||
               llvm::isa<llvm::InsertElementInst>(i) || llvm::isa<llvm::UnaryOperator>(i) ||
               llvm::isa<llvm::FreezeInst>(i) ||  // trap_free_arithmetic.cpp's division guards
               isWorkItemBuiltin(*i);
  if (!cheap) return false;
  for (llvm::Value* op : i->operands())
    if (!rematerializable(op, budget, counted, leaves)) return false;
  return true;
}

// A cheap expression, or a uniform value taken as a leaf where it is not one (its own budget and
// marks are then given back: it is not copied).
bool rematerializable(llvm::Value* v, unsigned& budget,
                      llvm::SmallPtrSetImpl<llvm::Value*>& counted, Leaves& leaves) {
  if (leaves.taken.count(v)) return true;
  if (!leaves.uniform.count(v)) return cheapExpression(v, budget, counted, leaves);
  const unsigned before = budget;
  llvm::SmallPtrSet<llvm::Value*, 32> tried(counted.begin(), counted.end());
  if (cheapExpression(v, budget, tried, leaves)) {
    counted.insert(tried.begin(), tried.end());
    return true;
  }
  budget = before;
  leaves.taken.insert(v);
  return true;
}
// Whether `v` itself is a cheap expression to recompute (possibly of uniform leaves).
bool rematerializable(llvm::Value* v, Leaves& leaves) {
  unsigned budget = kRematerializeLimit;
  llvm::SmallPtrSet<llvm::Value*, 32> counted;
  return cheapExpression(v, budget, counted, leaves);
}

struct Copies {
  std::map<std::pair<llvm::Value*, llvm::BasicBlock*>, llvm::Value*> of;
  // Where copies go in each block: before what was its first instruction after the phis, so
  // that they stay in the order they were made (operands before users).
  std::map<llvm::BasicBlock*, llvm::Instruction*> anchor;
};

// A copy of the expression `v` at the start of `block` (one per block, shared by its uses).
llvm::Value* rematerialize(llvm::Value* v, llvm::BasicBlock* block, Copies& copies,
                           const Leaves& leaves) {
  auto* i = llvm::dyn_cast<llvm::Instruction>(v);
  if (i == nullptr || llvm::isa<llvm::AllocaInst>(i) || leaves.taken.count(v)) return v;
  if (auto it = copies.of.find({v, block}); it != copies.of.end()) return it->second;
  llvm::Instruction* copy = i->clone();
  for (llvm::Use& op : copy->operands()) op.set(rematerialize(op.get(), block, copies, leaves));
  auto [anchor, added] = copies.anchor.try_emplace(block, nullptr);
  if (added) anchor->second = &*block->getFirstInsertionPt();
  copy->insertBefore(anchor->second);
  copies.of[{v, block}] = copy;
  return copy;
}

// Whether `a` and `b` compute the same value: the same value, or the same operation on operands
// that compute the same values (only cheap, side-effect-free instructions, which
// rematerializable has checked; no phis, so no cycles). GVN's PRE merges `row * n` computed in a
// loop with its copy on the path that skips the loop in a phi of two such instructions.
bool sameExpression(llvm::Value* a, llvm::Value* b, unsigned depth = 0) {
  if (a == b) return true;
  auto* x = llvm::dyn_cast<llvm::Instruction>(a);
  auto* y = llvm::dyn_cast<llvm::Instruction>(b);
  if (x == nullptr || y == nullptr || depth > kRematerializeLimit || llvm::isa<llvm::PHINode>(x) ||
      llvm::isa<llvm::AllocaInst>(x) || !x->isSameOperationAs(y) ||
      x->getRawSubclassOptionalData() != y->getRawSubclassOptionalData())  // nsw, exact, fast-math
    return false;
  for (unsigned k = 0; k < x->getNumOperands(); ++k)
    if (!sameExpression(x->getOperand(k), y->getOperand(k), depth + 1)) return false;
  return true;
}

// Recomputes the cheap values used outside their block at each such use. A phi whose incoming
// values all compute one cheap value (LCSSA's, a merge of a hoisted row * n, GVN's PRE of it) is
// that value.
void rematerializeCrossingValues(llvm::Function& kernel) {
  Leaves leaves;
  {
    Uniformity analysis(kernel, Uniformity::Scope::WorkGroup);
    for (llvm::BasicBlock& bb : kernel)
      if (!analysis.divergent(&bb))
        for (llvm::Instruction& i : bb)
          if (analysis.uniform(&i) && !llvm::isa<llvm::AllocaInst>(i)) leaves.uniform.insert(&i);
  }
  // Without leaves here: the incoming expressions are alike in shape, but two of their leaves
  // (loads on different paths) may differ in value, and neither dominates the phi.
  Leaves none;
  std::vector<llvm::PHINode*> same;
  for (llvm::BasicBlock& bb : kernel)
    for (llvm::PHINode& phi : bb.phis()) {
      llvm::Value* v = phi.getIncomingValue(0);
      if (v != &phi &&
          llvm::all_of(phi.incoming_values(),
                       [&](llvm::Value* in) { return sameExpression(in, v); }) &&
          rematerializable(v, none))
        same.push_back(&phi);
    }
  Copies copies;
  for (llvm::PHINode* phi : same) {
    phi->replaceAllUsesWith(
        rematerialize(phi->getIncomingValue(0), phi->getParent(), copies, none));
    leaves.uniform.erase(phi);
    phi->eraseFromParent();
  }
  std::vector<llvm::Instruction*> cheap;
  for (llvm::BasicBlock& bb : kernel)
    for (llvm::Instruction& i : bb) {
      if (!llvm::isa<llvm::AllocaInst>(i) && i.isUsedOutsideOfBlock(&bb) &&
          rematerializable(&i, leaves))
        cheap.push_back(&i);
    }
  for (llvm::Instruction* i : cheap) {
    for (llvm::Use& use : llvm::make_early_inc_range(i->uses())) {
      auto* user = llvm::cast<llvm::Instruction>(use.getUser());
      llvm::BasicBlock* block = user->getParent();
      if (auto* phi = llvm::dyn_cast<llvm::PHINode>(user)) block = phi->getIncomingBlock(use);
      if (block != i->getParent()) use.set(rematerialize(i, block, copies, leaves));
    }
  }
}

// A phi whose incoming values are all one value that dominates it (LCSSA's exit phis: the value a
// loop leaves with) is that value: demoted, it would be a slot of its own, copied into at the end
// of every iteration.
void forwardSingleValuePhis(llvm::Function& kernel) {
  llvm::DominatorTree dt(kernel);
  std::vector<std::pair<llvm::PHINode*, llvm::Value*>> same;
  for (llvm::BasicBlock& bb : kernel)
    for (llvm::PHINode& phi : bb.phis()) {
      llvm::Value* v = phi.getIncomingValue(0);
      auto* def = llvm::dyn_cast<llvm::Instruction>(v);
      if (v != &phi && def &&
          llvm::all_of(phi.incoming_values(), [&](llvm::Value* in) { return in == v; }) &&
          dt.dominates(def, &bb))
        same.emplace_back(&phi, v);
    }
  for (auto& [phi, v] : same) {
    phi->replaceAllUsesWith(v);
    phi->eraseFromParent();
  }
}

// A demoted phi's reload (the load DemotePHIToStack put in the phi's block) used in other blocks:
// each such use reads the phi's slot again where it is, rather than the reload crossing blocks in
// a second slot (one more store per work-item, and a copy from slot to slot, for every value a
// loop carries across a barrier). Only where no store to the slot can come between: the slot is
// written only in the phi's predecessors (DemotePHIToStack's stores, before their terminators), so
// a use is moved when its block is not reachable from a storing block without passing the phi's
// block again (which reloads), and, in a storing block, when it comes before that block's store.
// Only in kernels whose control flow is uniform (formRegions): a region that reads a slot and then
// writes it cannot be run again from its start, which is what the widening does when the lanes of
// a chunk disagree on a branch (widen_classify.cpp, afterSideEffect), and with uniform control flow
// they never do. (The reduction's halving loop, `if (lid < s)`, read s from a copy the region never
// writes, and stays widened that way.)
void reloadFromPhiSlot(llvm::AllocaInst* slot, llvm::BasicBlock* header) {
  llvm::LoadInst* reload = nullptr;
  std::map<llvm::BasicBlock*, llvm::StoreInst*> firstStore;
  for (llvm::User* u : slot->users()) {
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(u); load && load->getParent() == header) {
      reload = load;
    } else if (auto* store = llvm::dyn_cast<llvm::StoreInst>(u);
               store && store->getPointerOperand() == slot) {
      llvm::StoreInst*& first = firstStore[store->getParent()];
      if (!first || store->comesBefore(first)) first = store;
    } else {
      return;  // not the shape DemotePHIToStack makes
    }
  }
  if (reload == nullptr) return;
  // What runs after a store without the reload in between: the storing blocks' successors and
  // what follows them, up to the phi's block (which may be a storing block itself: a loop of one
  // block leaves it after its store).
  std::set<llvm::BasicBlock*> after;
  std::vector<llvm::BasicBlock*> work;
  for (auto& [bb, store] : firstStore)
    for (llvm::BasicBlock* succ : llvm::successors(bb)) work.push_back(succ);
  while (!work.empty()) {
    llvm::BasicBlock* bb = work.back();
    work.pop_back();
    if (bb == header || !after.insert(bb).second) continue;
    for (llvm::BasicBlock* succ : llvm::successors(bb)) work.push_back(succ);
  }
  for (llvm::Use& use : llvm::make_early_inc_range(reload->uses())) {
    auto* at = llvm::cast<llvm::Instruction>(use.getUser());
    llvm::BasicBlock* bb = at->getParent();
    if (llvm::isa<llvm::PHINode>(at) || bb == header || after.count(bb)) continue;
    if (auto it = firstStore.find(bb); it != firstStore.end() && !at->comesBefore(it->second))
      continue;
    use.set(new llvm::LoadInst(reload->getType(), slot, reload->getName() + ".again", at));
  }
}

// __tessera_lane_slot(slot, lane, bytes) (subgroup_collectives.cpp): `slot` is this work-item's
// copy of a scratch slot, laid out structure of arrays (slot offset * work-items + id * bytes),
// so work-item `lane`'s copy lies (lane - id) * bytes away.
// __tessera_subgroup_active(lane): work-item `lane`'s run stamp equals this one's.
void resolveLaneSlots(llvm::Function& region, llvm::Value* wiLinear, llvm::Value* stamps) {
  std::vector<llvm::CallInst*> calls;
  for (llvm::BasicBlock& bb : region)
    for (llvm::Instruction& i : bb)
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i))
        if (call->getCalledFunction() &&
            (call->getCalledFunction()->getName() == kLaneSlotFunction ||
             call->getCalledFunction()->getName() == kSubgroupActiveFunction))
          calls.push_back(call);
  for (llvm::CallInst* call : calls) {
    llvm::IRBuilder<> b(call);
    if (call->getCalledFunction()->getName() == kSubgroupActiveFunction) {
      llvm::Type* i32 = b.getInt32Ty();
      llvm::Value* theirs =
          b.CreateLoad(i32, b.CreateInBoundsGEP(i32, stamps, call->getArgOperand(0)));
      llvm::Value* mine = b.CreateLoad(i32, b.CreateInBoundsGEP(i32, stamps, wiLinear));
      call->replaceAllUsesWith(b.CreateICmpEQ(theirs, mine));
      call->eraseFromParent();
      continue;
    }
    llvm::Value* delta =
        b.CreateMul(b.CreateSub(call->getArgOperand(1), wiLinear), call->getArgOperand(2));
    call->replaceAllUsesWith(b.CreateGEP(b.getInt8Ty(), call->getArgOperand(0), delta));
    call->eraseFromParent();
  }
}

}  // namespace

bool isWorkGroupBarrier(const llvm::Instruction& i) {
  auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
  return call && call->getCalledFunction() &&
         spirvBaseName(call->getCalledFunction()->getName()) == "__spirv_ControlBarrier";
}

bool formRegions(llvm::Function& kernel, const StaticLocalLayout& locals, Regions* out,
                 std::string* error) {
  llvm::LLVMContext& ctx = kernel.getContext();
  const llvm::DataLayout& dl = kernel.getParent()->getDataLayout();

  // 1. Each barrier alone in a block of its own (then erased: the block stands for it).
  std::vector<llvm::Instruction*> barriers;
  for (llvm::BasicBlock& bb : kernel) {
    for (llvm::Instruction& i : bb) {
      if (isWorkGroupBarrier(i)) barriers.push_back(&i);
    }
  }
  std::vector<llvm::BasicBlock*> barrierBlocks;  // barrierBlocks[j-1] for region j
  std::vector<llvm::BasicBlock*> starts{&kernel.getEntryBlock()};
  out->subgroupCut.assign(1, kNotSubgroupCut);
  for (llvm::Instruction* barrier : barriers) {
    out->subgroupCut.push_back(barrier->getMetadata(kNonUniformCutMetadata) ? kNonUniformCut
                               : barrier->getMetadata(kSubgroupCutMetadata) ? kUniformCut
                                                                            : kNotSubgroupCut);
    llvm::BasicBlock* bar = barrier->getParent()->splitBasicBlock(barrier, "barrier");
    llvm::BasicBlock* next = bar->splitBasicBlock(barrier->getNextNode(), "after.barrier");
    barrier->eraseFromParent();
    barrierBlocks.push_back(bar);
    starts.push_back(next);
  }

  // 2. Demote values that cross blocks (only needed when there are several regions).
  std::set<llvm::AllocaInst*> kernelAllocas;
  std::set<llvm::AllocaInst*> uniformAllocas;  // slots every work-item stores the same value in
  bool uniformControl = true;  // no branch differs between the work-items of a group
  for (llvm::Instruction& i : kernel.getEntryBlock()) {
    if (auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i)) kernelAllocas.insert(a);
  }
  if (!barriers.empty()) {
    for (llvm::BasicBlock& bb : kernel) {
      for (llvm::Instruction& i : bb) {
        if (llvm::isa<llvm::AllocaInst>(i) && &bb != &kernel.getEntryBlock()) {
          *error = "kernel " + kernel.getName().str() +
                   ": a dynamic alloca together with barriers is not supported";
          return false;
        }
      }
    }
    rematerializeCrossingValues(kernel);
    forwardSingleValuePhis(kernel);
    // Which values are the same for all work-items of a group (widen.cpp loads their slots once):
    // those uniformity.h finds, in blocks that are not divergent (CLBlast's XgemmDirect: its k
    // loop counters, beside bounds checks on the local ids).
    std::set<llvm::Value*> uniform;
    {
      Uniformity analysis(kernel, Uniformity::Scope::WorkGroup);
      uniformControl = analysis.controlUniform();
      for (llvm::BasicBlock& bb : kernel)
        if (!analysis.divergent(&bb))
          for (llvm::Instruction& i : bb)
            if (analysis.uniform(&i)) uniform.insert(&i);
    }
    // Phis first: their reloads are new values that may cross blocks themselves.
    std::vector<llvm::PHINode*> phis;
    for (llvm::BasicBlock& bb : kernel) {
      for (llvm::PHINode& phi : bb.phis()) phis.push_back(&phi);
    }
    // A phi's demotion stores each incoming value at the end of its block: on a critical edge
    // that leaves a loop (an exiting latch into the exit's phi) that is every iteration; in a
    // block of the edge's own, only when the loop ends. (Other critical edges stay: a branch
    // inside one region keeps the shape the widening predicates.)
    {
      llvm::DominatorTree dt(kernel);
      llvm::LoopInfo loops(dt);
      std::vector<std::pair<llvm::Instruction*, unsigned>> exits;
      for (llvm::PHINode* phi : phis)
        for (llvm::BasicBlock* pred : llvm::predecessors(phi->getParent())) {
          llvm::Instruction* t = pred->getTerminator();
          for (unsigned n = 0; n < t->getNumSuccessors(); ++n)
            if (t->getSuccessor(n) == phi->getParent() && llvm::isCriticalEdge(t, n) &&
                loops.getLoopDepth(pred) > loops.getLoopDepth(phi->getParent()) &&
                std::find(exits.begin(), exits.end(), std::make_pair(t, n)) == exits.end())
              exits.emplace_back(t, n);
        }
      for (auto [t, n] : exits) llvm::SplitCriticalEdge(t, n);
    }
    std::vector<std::pair<llvm::AllocaInst*, llvm::BasicBlock*>> phiSlots;
    for (llvm::PHINode* phi : phis) {
      bool same = uniform.count(phi) != 0;
      llvm::BasicBlock* header = phi->getParent();
      llvm::AllocaInst* a = llvm::DemotePHIToStack(phi);
      if (a) phiSlots.emplace_back(a, header);
      if (!same || !a) continue;
      uniformAllocas.insert(a);
      // Its reloads are uniform values too (and may cross blocks themselves).
      for (llvm::User* u : a->users())
        if (llvm::isa<llvm::LoadInst>(u)) uniform.insert(u);
    }
    // (After every phi's demotion: a later one's stores into the predecessors are uses too.)
    if (uniformControl)
      for (auto& [a, header] : phiSlots) reloadFromPhiSlot(a, header);
    std::vector<llvm::Instruction*> crossing;
    for (llvm::BasicBlock& bb : kernel) {
      for (llvm::Instruction& i : bb) {
        if (!llvm::isa<llvm::AllocaInst>(i) && i.isUsedOutsideOfBlock(&bb)) crossing.push_back(&i);
      }
    }
    for (llvm::Instruction* i : crossing) {
      bool same = uniform.count(i) != 0;
      llvm::AllocaInst* a = llvm::DemoteRegToStack(*i);
      if (same && a) uniformAllocas.insert(a);
    }
    // Only slots the demotion made, and of one kind (both uniform or neither). Only with uniform
    // control flow, as reloadFromPhiSlot: the merged slot is read, then written by one region.
    for (auto& [a, header] : phiSlots) {
      if (!uniformControl) break;
      llvm::AllocaInst* phi = a;
      llvm::AllocaInst* merged = coalesceCarriedSlot(phi, [&](llvm::AllocaInst* carried) {
        return !kernelAllocas.count(carried) &&
               uniformAllocas.count(carried) == uniformAllocas.count(phi);
      });
      if (merged) uniformAllocas.erase(merged);
    }
  }

  // 3. Which regions each block belongs to.
  std::set<llvm::BasicBlock*> stop(barrierBlocks.begin(), barrierBlocks.end());
  std::map<llvm::BasicBlock*, std::set<unsigned>> membership;
  for (unsigned k = 0; k < starts.size(); ++k) {
    std::vector<llvm::BasicBlock*> work{starts[k]};
    while (!work.empty()) {
      llvm::BasicBlock* bb = work.back();
      work.pop_back();
      if (stop.count(bb) || !membership[bb].insert(k).second) continue;
      for (llvm::BasicBlock* succ : llvm::successors(bb)) work.push_back(succ);
    }
  }

  // 4. Private allocas and scratch slots. Without sub-group cuts every region runs for all the
  // group's work-items before the next one starts, and a slot every work-item stores the same
  // value in is one group copy (SharedSlots), at twice its size. Only with uniform control flow;
  // otherwise such a slot stays one per work-item, which the widening reads once a chunk.
  const bool shareUniform =
      uniformControl && std::all_of(out->subgroupCut.begin(), out->subgroupCut.end(),
                                    [](uint8_t kind) { return kind == kNotSubgroupCut; });
  std::map<llvm::AllocaInst*, uint64_t> slotOffset;
  std::set<llvm::AllocaInst*> uniformSlots, sharedSlots;
  uint64_t scratch = 0;
  for (llvm::Instruction& i : kernel.getEntryBlock()) {
    auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i);
    if (a == nullptr || barriers.empty()) continue;
    bool isPrivate = !kernelAllocas.count(a);
    std::set<unsigned> regionsOfUsers;
    for (llvm::User* user : a->users()) {
      auto& m = membership[llvm::cast<llvm::Instruction>(user)->getParent()];
      if (m.size() != 1) isPrivate = false;
      regionsOfUsers.insert(m.begin(), m.end());
    }
    if (isPrivate && regionsOfUsers.size() <= 1) continue;
    auto* count = llvm::dyn_cast<llvm::ConstantInt>(a->getArraySize());
    if (count == nullptr) {
      *error = "kernel " + kernel.getName().str() + ": variable-sized private array";
      return false;
    }
    uint64_t size = dl.getTypeAllocSize(a->getAllocatedType()) * count->getZExtValue();
    uint64_t align = a->getAlign().value();
    scratch = llvm::alignTo(scratch, align);
    slotOffset[a] = scratch;
    if (shareUniform && uniformAllocas.count(a)) {  // (only slots the demotion made)
      sharedSlots.insert(a);
      size = 2 * llvm::alignTo(size, align);  // the two copies (a group has 1 or more)
    } else if (uniformAllocas.count(a)) {
      uniformSlots.insert(a);
    }
    scratch += llvm::alignTo(size, align);
  }
  // Which copy of the shared slots is current: a 4-byte slot of its own.
  out->parityOffset = 0;
  if (!sharedSlots.empty()) {
    scratch = (scratch + 3) / 4 * 4;
    out->parityOffset = scratch;
    scratch += 4;
  }
  if (scratch > UINT32_MAX) {
    *error = "kernel " + kernel.getName().str() + ": too much private state across barriers";
    return false;
  }
  out->scratchBytesPerWorkItem = static_cast<uint32_t>(scratch);

  // 5. One function per region.
  std::vector<llvm::Type*> params;
  for (llvm::Argument& a : kernel.args()) params.push_back(a.getType());
  const unsigned first = static_cast<unsigned>(params.size());
  for (unsigned p = 0; p < kRegionParamCount; ++p) {
    params.push_back(p >= kLocalMem ? static_cast<llvm::Type*>(llvm::PointerType::get(ctx, 0))
                                    : llvm::Type::getInt64Ty(ctx));
  }
  auto* type = llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx), params, false);
  for (unsigned k = 0; k < starts.size(); ++k) {
    llvm::Function* region =
        llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage,
                               kernel.getName() + ".region" + llvm::Twine(k), kernel.getParent());
    llvm::ValueToValueMapTy vmap;
    for (unsigned a = 0; a < first; ++a) vmap[kernel.getArg(a)] = region->getArg(a);
    llvm::SmallVector<llvm::ReturnInst*, 4> returns;
    llvm::CloneFunctionInto(region, &kernel, vmap, llvm::CloneFunctionChangeType::LocalChangesOnly,
                            returns);
    region->setCallingConv(llvm::CallingConv::C);
    region->clearMetadata();
    region->setLinkage(llvm::GlobalValue::InternalLinkage);
    for (llvm::ReturnInst* ret : returns) {
      llvm::ReturnInst::Create(
          ctx, llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), kRegionExit), ret);
      ret->eraseFromParent();
    }
    for (unsigned j = 1; j < starts.size(); ++j) {
      auto* bar = llvm::cast<llvm::BasicBlock>(vmap[barrierBlocks[j - 1]]);
      bar->getTerminator()->eraseFromParent();
      llvm::ReturnInst::Create(ctx, llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), j), bar);
    }
    llvm::BasicBlock* oldEntry = &region->getEntryBlock();
    llvm::BasicBlock* entry = llvm::BasicBlock::Create(ctx, "region.entry", region, oldEntry);
    llvm::IRBuilder<> b(entry);
    llvm::Value* wiLinear = region->getArg(first + kLocalLinearId);
    llvm::Value* workItems = b.CreateMul(
        b.CreateMul(region->getArg(first + kLocalSizeX), region->getArg(first + kLocalSizeY)),
        region->getArg(first + kLocalSizeZ), "work.items");
    std::vector<llvm::AllocaInst*> allocas;
    for (llvm::Instruction& i : *oldEntry) {
      if (auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i)) allocas.push_back(a);
    }
    SharedSlots shared(b, region->getArg(first + kScratch), workItems, out->parityOffset);
    for (auto [original, offset] : slotOffset) {
      auto* a = llvm::cast<llvm::AllocaInst>(vmap[original]);
      if (sharedSlots.count(original)) {
        shared.add(a, offset,
                   llvm::alignTo(dl.getTypeAllocSize(a->getAllocatedType()), a->getAlign()));
        continue;  // stays an alloca of the region: SharedSlots::exchange
      }
      uint64_t size = dl.getTypeAllocSize(a->getAllocatedType()) *
                      llvm::cast<llvm::ConstantInt>(a->getArraySize())->getZExtValue();
      llvm::Value* p = scratchSlotAddress(b, region->getArg(first + kScratch), offset, workItems,
                                          b.CreateMul(wiLinear, b.getInt64(size)));
      if (auto* gep = llvm::dyn_cast<llvm::Instruction>(p); gep && uniformSlots.count(original))
        gep->setMetadata(kUniformSlotMetadata, llvm::MDNode::get(ctx, {}));
      p = b.CreatePointerCast(p, a->getType(), a->getName() + ".slot");
      a->replaceAllUsesWith(p);
      a->eraseFromParent();
      allocas.erase(std::find(allocas.begin(), allocas.end(), a));
    }
    llvm::BranchInst* br =
        b.CreateBr(k == 0 ? oldEntry : llvm::cast<llvm::BasicBlock>(vmap[starts[k]]));
    for (llvm::AllocaInst* a : allocas) a->moveBefore(br);
    llvm::removeUnreachableBlocks(*region);
    out->writesShared.push_back(shared.exchange(*region, br, allocas));
    for (llvm::AllocaInst* a : allocas) {
      if (a->use_empty()) a->eraseFromParent();
    }
    replaceStaticLocals(*region, locals, region->getArg(first + kLocalMem), br);
    resolveLaneSlots(*region, wiLinear, region->getArg(first + kRunStamps));
    replaceWorkItemBuiltins(*region, first);
    out->functions.push_back(region);
  }
  return true;
}

}  // namespace tessera::backends::cpu::jit
