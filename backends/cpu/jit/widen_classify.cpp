// The widening (widener.h): which values vary across the lanes, which branches are predicated or
// checked at run time, and what refuses a region.
#include "backends/cpu/jit/widener.h"

#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Operator.h>

#include "backends/cpu/runtime/builtin_runtime.h"

namespace tessera::backends::cpu::jit::widening {

bool Widener::classify(std::string* why) {
  varying_.insert(f_.getArg(first_ + kLocalIdX));
  varying_.insert(f_.getArg(first_ + kLocalLinearId));
  // Validity first (independent of uniformity).
  for (llvm::BasicBlock* bb : order_) {
    refusedAt_ = bb;  // where a refusal below is (cutToBail)
    for (llvm::Instruction& i : *bb) {
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i)) {
        llvm::Function* callee = call->getCalledFunction();
        if (callee == nullptr || call->isInlineAsm()) {
          *why = "indirect call";
          return false;
        }
        llvm::StringRef name = callee->getName();
        if (name == kPrintfSymbol || name == kAsyncCopySymbol || name == kCurrentPuSymbol ||
            name.startswith("__spirv")) {
          *why = ("call of " + name).str();
          return false;
        }
        if (callee->isIntrinsic() && (callee->getIntrinsicID() == llvm::Intrinsic::lifetime_start ||
                                      callee->getIntrinsicID() == llvm::Intrinsic::lifetime_end))
          continue;
        // A prefetch (prefetch.cpp) is a hint: lane 0's address stands for the chunk's (the
        // lanes of a contiguous access share its cache lines); never a side effect.
        if (isPrefetch(i)) continue;
        if (sideEffects(call)) perLane_.insert(&i);
      } else if (i.isAtomic() || llvm::isa<llvm::FenceInst>(i)) {
        if (llvm::isa<llvm::FenceInst>(i)) continue;  // one fence orders all lanes' accesses
        // Work-items between barriers run one after the other, and the work-group collectives
        // (workgroup_collectives.cpp) count on it: an atomic load then store of an accumulator
        // must not see the lanes' loads all happen before their stores. A read-modify-write
        // is one step per lane and runs lane by lane.
        if (llvm::isa<llvm::LoadInst>(i) || llvm::isa<llvm::StoreInst>(i)) {
          *why = "atomic load or store (work-items must run in order)";
          return false;
        }
        perLane_.insert(&i);
      } else if (auto* l = llvm::dyn_cast<llvm::LoadInst>(&i)) {
        if (l->isVolatile()) perLane_.insert(&i);
      } else if (auto* s = llvm::dyn_cast<llvm::StoreInst>(&i)) {
        if (s->isVolatile()) perLane_.insert(&i);
      } else if (llvm::isa<llvm::UnreachableInst>(i)) {
        // OpUnreachable must trap where it is reached (kernel_jit.cpp's TrapUnreachable); in
        // the widened loops' guarded form LLVM would take it as a promise the path is never
        // taken and fold it away.
        *why = "unreachable";
        return false;
      } else if (i.isTerminator() && !llvm::isa<llvm::BranchInst>(i) &&
                 !llvm::isa<llvm::SwitchInst>(i) && !llvm::isa<llvm::ReturnInst>(i)) {
        *why = "terminator " + std::string(i.getOpcodeName());
        return false;
      }
    }
  }
  for (llvm::Instruction* i : perLane_) varying_.insert(i);
  // Varying: what depends on a varying value (fixpoint over loops' phis), and the phis where a
  // predicated block (below) joins, whose lanes may have come either way.
  for (bool changed = true; changed;) {
    changed = false;
    for (llvm::BasicBlock* bb : order_) {
      for (llvm::Instruction& i : *bb) {
        if (varying_.count(&i) || (i.getType()->isVoidTy() && !llvm::isa<llvm::StoreInst>(i)))
          continue;
        // A slot every work-item holds the same value in (barrier_regions.cpp): lane 0's load
        // (the scalar instruction) is every lane's value.
        if (auto* l = llvm::dyn_cast<llvm::LoadInst>(&i); l && uniformSlot(l->getPointerOperand()))
          continue;
        for (llvm::Value* op : i.operands()) {
          if (varying_.count(op)) {
            varying_.insert(&i);
            changed = true;
            break;
          }
        }
      }
      if (auto* br = llvm::dyn_cast<llvm::BranchInst>(bb->getTerminator());
          br && br->isConditional() && varying_.count(br->getCondition()) &&
          !predicated_.count(bb)) {
        if (std::optional<Predicated> p = predicable(br)) {
          predicated_[bb] = *p;
          for (llvm::BasicBlock* in : p->blocks) thenBlocks_[in] = bb;
          for (llvm::PHINode& phi : p->merge->phis()) changed |= varying_.insert(&phi).second;
          changed = true;
        }
      }
    }
  }
  // What the fixpoint made varying after a block was found predicable may disqualify it (a
  // store's value): such a branch is checked at run time like any other.
  for (auto it = predicated_.begin(); it != predicated_.end();) {
    auto cur = it++;
    if (!predicable(llvm::cast<llvm::BranchInst>(cur->first->getTerminator()))) {
      for (llvm::BasicBlock* in : cur->second.blocks) thenBlocks_.erase(in);
      predicated_.erase(cur);
    }
  }
  for (llvm::BasicBlock* bb : order_) {
    refusedAt_ = bb;
    for (llvm::Instruction& i : *bb) {
      if (auto* br = llvm::dyn_cast<llvm::BranchInst>(&i)) {
        if (br->isConditional() && varying_.count(br->getCondition()) && !predicated_.count(bb)) {
          if (afterSideEffect(bb)) {
            *why = "divergent branch after a side effect";
            return false;
          }
          divergent_.push_back(br);
        }
      } else if (auto* sw = llvm::dyn_cast<llvm::SwitchInst>(&i)) {
        if (varying_.count(sw->getCondition())) {
          *why = "divergent switch";
          return false;
        }
      } else if (auto* ret = llvm::dyn_cast<llvm::ReturnInst>(&i)) {
        if (ret->getReturnValue() && varying_.count(ret->getReturnValue())) {
          *why = "divergent return value";
          return false;
        }
      }
      if (!varying_.count(&i)) continue;
      // An OpenCL vector of irregular elements (<3 x i48>) is loaded and stored by the lanes one
      // vector each with masked loads and stores, which LLVM scalarizes at the elements'
      // allocation size, not their packed places in the vector (widener.h, irregularElement).
      if (llvm::isa<llvm::LoadInst>(i) || llvm::isa<llvm::StoreInst>(i)) {
        llvm::Type* t = llvm::isa<llvm::LoadInst>(i)
                            ? i.getType()
                            : llvm::cast<llvm::StoreInst>(i).getValueOperand()->getType();
        if (vectorElements(t) && irregularElement(dl_, t)) {
          *why = "varying " + std::string(i.getOpcodeName()) + " of " + typeName(t) +
                 ", whose elements are allocated more bytes than they store";
          return false;
        }
      }
      if (auto* st = llvm::dyn_cast<llvm::StoreInst>(&i)) {
        if (!widenable(st->getValueOperand()->getType())) {
          *why = "varying store of type " + typeName(st->getValueOperand()->getType());
          return false;
        }
        continue;
      }
      if (perLane_.count(&i)) {
        // Scalars, or the small vectors of a call such as the image runtime's texel loads.
        if (!i.getType()->isVoidTy() && !widenable(i.getType())) {
          *why = "per-lane " + std::string(i.getOpcodeName()) + " of type " + typeName(i.getType());
          return false;
        }
        continue;
      }
      if (vectorElements(i.getType()) &&
          dl_.getTypeSizeInBits(i.getType()).getFixedSize() * vf_ > kMaxWideBits) {
        *why = "vectors of " + typeName(i.getType()) + " too wide for " + std::to_string(vf_) +
               " work-items";
        return false;
      }
      if (i.isIntDivRem() && !llvm::isa<llvm::Constant>(i.getOperand(1)) &&
          std::max(vectorElements(i.getType()), 1u) * vf_ > kMaxWideDivisions) {
        *why = "integer " + std::string(i.getOpcodeName()) + " of " + typeName(i.getType()) +
               " by " + std::to_string(vf_) + " work-items (one scalar division per element)";
        return false;
      }
      if (!widenable(i.getType())) {
        *why = "varying value of type " + typeName(i.getType()) + " (" +
               std::string(i.getOpcodeName()) + ", " + std::to_string(i.getNumUses()) + " uses)";
        return false;
      }
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i)) {
        // Vector arguments only in an intrinsic that has a vector form (fma, fmuladd, sqrt,
        // ...): the lanes' elements then go through it side by side.
        bool vectors = vectorElements(call->getType()) != 0;
        for (llvm::Value* a : call->args()) {
          if (!widenable(a->getType())) {
            *why = "varying call with a non-scalar argument";
            return false;
          }
          vectors |= vectorElements(a->getType()) != 0;
        }
        llvm::Intrinsic::ID id = call->getCalledFunction()->getIntrinsicID();
        if (vectors && (id == llvm::Intrinsic::not_intrinsic ||
                        (!llvm::isTriviallyVectorizable(id) && !isElementReduction(id)))) {
          *why = "varying call of " + call->getCalledFunction()->getName().str() + " on vectors";
          return false;
        }
        continue;
      }
      if (!(llvm::isa<llvm::BinaryOperator>(i) || llvm::isa<llvm::CastInst>(i) ||
            llvm::isa<llvm::CmpInst>(i) || llvm::isa<llvm::SelectInst>(i) ||
            llvm::isa<llvm::PHINode>(i) || llvm::isa<llvm::GetElementPtrInst>(i) ||
            llvm::isa<llvm::UnaryOperator>(i) || llvm::isa<llvm::FreezeInst>(i) ||
            llvm::isa<llvm::LoadInst>(i) || llvm::isa<llvm::ExtractElementInst>(i) ||
            llvm::isa<llvm::InsertElementInst>(i) || llvm::isa<llvm::ShuffleVectorInst>(i))) {
        *why = "varying " + std::string(i.getOpcodeName());
        return false;
      }
      for (llvm::Value* op : i.operands())
        if (!widenable(op->getType()) && !llvm::isa<llvm::BasicBlock>(op)) {
          *why = "varying " + std::string(i.getOpcodeName()) + " of a non-scalar";
          return false;
        }
      if (!vectorShapeOk(i, why)) return false;
    }
  }
  for (llvm::BasicBlock* bb : order_) {
    refusedAt_ = bb;
    for (llvm::Instruction& i : *bb)
      if (perLane_.count(&i)) {
        for (llvm::Value* op : i.operands())
          if (varying_.count(op) && !scalarType(op->getType())) {
            *why = "per-lane operation on a non-scalar";
            return false;
          }
      }
  }
  refusedAt_ = nullptr;
  return true;
}

// What the lane-major layout of vector values can express: element indices that are constants
// (extract, insert, shuffle), casts that keep the element count, selects whose condition has
// the operands' shape, GEPs on scalars only.
bool Widener::vectorShapeOk(llvm::Instruction& i, std::string* why) {
  auto constIndex = [](llvm::Value* v, unsigned n) {
    auto* c = llvm::dyn_cast<llvm::ConstantInt>(v);
    return c != nullptr && c->getZExtValue() < n;
  };
  bool ok = true;
  if (auto* e = llvm::dyn_cast<llvm::ExtractElementInst>(&i)) {
    ok = vectorElements(e->getVectorOperandType()) &&
         constIndex(e->getIndexOperand(), vectorElements(e->getVectorOperandType()));
  } else if (auto* ins = llvm::dyn_cast<llvm::InsertElementInst>(&i)) {
    ok = vectorElements(ins->getType()) &&
         constIndex(ins->getOperand(2), vectorElements(ins->getType()));
  } else if (auto* sv = llvm::dyn_cast<llvm::ShuffleVectorInst>(&i)) {
    ok = vectorElements(sv->getType()) && vectorElements(sv->getOperand(0)->getType());
  } else if (auto* c = llvm::dyn_cast<llvm::CastInst>(&i)) {
    // A bitcast between a vector and an integer of its size (InstCombine's any()/all():
    // `bitcast <4 x i1> to i4`) keeps the layout: lane l's n elements are bits l*n.. of the
    // wide vector, and element l of the widened integers.
    bool packsLane =
        c->getOpcode() == llvm::Instruction::BitCast &&
        (vectorElements(c->getSrcTy()) == 0) != (vectorElements(c->getDestTy()) == 0) &&
        c->getSrcTy()->getScalarType()->isIntegerTy() &&
        c->getDestTy()->getScalarType()->isIntegerTy();
    ok = packsLane || vectorElements(c->getSrcTy()) == vectorElements(c->getDestTy());
  } else if (auto* sel = llvm::dyn_cast<llvm::SelectInst>(&i)) {
    // A scalar condition picks whole vectors (its lane's bit spread over the elements).
    ok = !vectorElements(sel->getCondition()->getType()) ||
         vectorElements(sel->getCondition()->getType()) == vectorElements(sel->getType());
  } else if (llvm::isa<llvm::GetElementPtrInst>(i)) {
    for (llvm::Value* op : i.operands()) ok = ok && !vectorElements(op->getType());
  }
  if (!ok) *why = "varying " + std::string(i.getOpcodeName()) + " of vectors in another shape";
  return ok;
}

std::optional<Widener::Predicated> Widener::predicable(llvm::BranchInst* br) {
  llvm::BasicBlock* from = br->getParent();
  for (unsigned s = 0; s < 2; ++s) {
    llvm::BasicBlock* then = br->getSuccessor(s);
    llvm::BasicBlock* merge = br->getSuccessor(1 - s);
    if (then == merge || then->getSinglePredecessor() != from || !then->phis().empty() ||
        thenBlocks_.count(from))
      continue;
    // The blocks from `then` up to the join.
    std::vector<llvm::BasicBlock*> blocks;
    llvm::DenseSet<llvm::BasicBlock*> inside;
    std::vector<llvm::BasicBlock*> work{then};
    bool ok = true;
    while (ok && !work.empty()) {
      llvm::BasicBlock* bb = work.back();
      work.pop_back();
      if (bb == merge || !inside.insert(bb).second) continue;
      auto* jump = llvm::dyn_cast<llvm::BranchInst>(bb->getTerminator());
      auto owner = thenBlocks_.find(bb);
      ok = bb != from && blocks.size() < 64 && jump != nullptr &&
           !(jump->isConditional() && varying_.count(jump->getCondition())) &&
           (owner == thenBlocks_.end() || owner->second == from);
      blocks.push_back(bb);
      for (llvm::BasicBlock* succ : llvm::successors(bb)) work.push_back(succ);
    }
    for (llvm::BasicBlock* bb : blocks)
      for (llvm::BasicBlock* pred : llvm::predecessors(bb))
        ok = ok && (bb == then ? pred == from : inside.count(pred) != 0);
    for (llvm::BasicBlock* bb : blocks)
      for (llvm::Instruction& i : *bb) {
        if (!ok) break;
        if (perLane_.count(&i) || llvm::isa<llvm::AllocaInst>(i) ||
            (llvm::isa<llvm::LoadInst>(i) && !llvm::cast<llvm::LoadInst>(i).isSimple())) {
          ok = false;
        } else if (auto* st = llvm::dyn_cast<llvm::StoreInst>(&i)) {
          ok = st->isSimple() &&
               (varying_.count(st->getPointerOperand()) || !varying_.count(st->getValueOperand()));
        } else if (auto* bo = llvm::dyn_cast<llvm::BinaryOperator>(&i)) {
          ok = isTrapFreeDivision(*bo);
        } else if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i)) {
          ok = isPrefetch(i) || !sideEffects(call);
        }
      }
    if (ok) return Predicated{then, merge, s == 1, std::move(blocks)};
  }
  return std::nullopt;
}

// True when a store, atomic or call with side effects may run before `bb`'s terminator: in `bb`
// itself or in a block that reaches it. A varying branch is checked at run time (below); when
// its lanes disagree, the widened region gives up and the scalar loop runs these work-items
// from the region's start, which is exact only if nothing was written yet.
bool Widener::afterSideEffect(llvm::BasicBlock* target) {
  if (!effectsComputed_) {
    effectsComputed_ = true;
    std::vector<llvm::BasicBlock*> work;
    // A store into a scratch slot (a value kept across a barrier, barrier_regions.cpp) is redone
    // by the scalar run, so it is not a side effect here unless this region reads what the slot
    // held before the region: a load of the slot that no store of this region to it dominates.
    // (A value defined and used within the region goes through its slot too.)
    llvm::DominatorTree dt(f_);
    llvm::DenseMap<llvm::Value*, std::vector<llvm::StoreInst*>> slotStores;
    for (llvm::BasicBlock& bb : f_)
      for (llvm::Instruction& i : bb)
        if (auto* st = llvm::dyn_cast<llvm::StoreInst>(&i))
          if (llvm::Value* slot = slotBase(st->getPointerOperand())) slotStores[slot].push_back(st);
    llvm::DenseSet<llvm::Value*> loadedSlots;
    for (llvm::BasicBlock& bb : f_)
      for (llvm::Instruction& i : bb)
        if (auto* l = llvm::dyn_cast<llvm::LoadInst>(&i))
          if (llvm::Value* slot = slotBase(l->getPointerOperand())) {
            auto stores = slotStores.find(slot);
            bool ownValue =
                stores != slotStores.end() &&
                llvm::any_of(stores->second, [&](llvm::StoreInst* st) {
                  return st->getPointerOperand() == l->getPointerOperand() && dt.dominates(st, l);
                });
            if (!ownValue) loadedSlots.insert(slot);
          }
    auto harmless = [&](llvm::Instruction& i) {
      if (isPrefetch(i)) return true;
      auto* st = llvm::dyn_cast<llvm::StoreInst>(&i);
      if (st == nullptr || !st->isSimple()) return false;
      llvm::Value* slot = slotBase(st->getPointerOperand());
      return slot != nullptr && !loadedSlots.count(slot);
    };
    for (llvm::BasicBlock& bb : f_)
      for (llvm::Instruction& i : bb)
        if ((i.mayWriteToMemory() || i.mayHaveSideEffects()) && !harmless(i)) {
          if (!effects_.insert(&bb).second) break;
          for (llvm::BasicBlock* succ : llvm::successors(&bb)) work.push_back(succ);
          break;
        }
    while (!work.empty()) {
      llvm::BasicBlock* bb = work.back();
      work.pop_back();
      if (reached_.insert(bb).second)
        for (llvm::BasicBlock* succ : llvm::successors(bb)) work.push_back(succ);
    }
  }
  return effects_.count(target) || reached_.count(target);
}

bool Widener::uniformSlot(llvm::Value* p) {
  auto* slot = llvm::dyn_cast_or_null<llvm::Instruction>(slotBase(p));
  return slot != nullptr && slot->getMetadata(kUniformSlotMetadata) != nullptr;
}

// The scratch slot `p` points into (the GEP off the scratch argument that starts it), or null.
llvm::Value* Widener::slotBase(llvm::Value* p) {
  llvm::Value* scratch = f_.getArg(first_ + kScratch);
  for (int depth = 0; depth < 16; ++depth) {
    if (auto* g = llvm::dyn_cast<llvm::GEPOperator>(p)) {
      if (g->getPointerOperand() == scratch) return g;
      p = g->getPointerOperand();
    } else if (auto* c = llvm::dyn_cast<llvm::BitCastOperator>(p)) {
      p = c->getOperand(0);
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

}  // namespace tessera::backends::cpu::jit::widening
