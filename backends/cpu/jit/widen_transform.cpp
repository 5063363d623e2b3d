// The widening (widener.h): the varying instructions rewritten into their vector form, the phis
// joined, predicated and checked branches, calls and element operations.
#include "backends/cpu/jit/widener.h"

#include <llvm/Analysis/VectorUtils.h>

namespace tessera::backends::cpu::jit::widening {

// VF clones of `i` in lane order; the result vector (or null for void).
llvm::Value* Widener::perLane(llvm::IRBuilder<>& b, llvm::Instruction& i) {
  llvm::Value* r = i.getType()->isVoidTy() ? nullptr : llvm::PoisonValue::get(vecOf(i.getType()));
  for (unsigned l = 0; l < vf_; ++l) {
    llvm::Instruction* c = i.clone();
    for (unsigned o = 0; o < c->getNumOperands(); ++o)
      c->setOperand(o, lane(b, i.getOperand(o), l));
    b.Insert(c);
    if (unsigned n = r ? vectorElements(i.getType()) : 0) {
      // Lane l's elements at l * n + k (the lane-major layout).
      for (unsigned k = 0; k < n; ++k)
        r = b.CreateInsertElement(r, b.CreateExtractElement(c, uint64_t{k}), l * n + k);
    } else if (r) {
      r = b.CreateInsertElement(r, c, l);
    }
  }
  ++stats_->perLane;
  return r;
}

void Widener::transform() {
  llvm::IRBuilder<> b(&*f_.getEntryBlock().getFirstInsertionPt());
  llvm::Value* step = b.CreateStepVector(vecOf(b.getInt64Ty()));
  for (unsigned p : {kLocalIdX, kLocalLinearId}) {
    llvm::Value* a = f_.getArg(first_ + p);
    wide_[a] = b.CreateAdd(b.CreateVectorSplat(vf_, a), step, a->getName() + ".lanes");
  }
  std::vector<llvm::Instruction*> erase;
  std::vector<llvm::PHINode*> phis;
  std::vector<llvm::LoadInst*> maskedScalarLoads;
  for (llvm::BasicBlock* bb : order_) {
    mask_ = nullptr;
    if (auto t = thenBlocks_.find(bb); t != thenBlocks_.end()) mask_ = maskOf(t->second);
    for (llvm::Instruction& i : *bb) {
      if (!varying_.count(&i) && !perLane_.count(&i)) {
        if (auto* s = llvm::dyn_cast<llvm::StoreInst>(&i)) {
          if (!varying_.count(s->getValueOperand()) && !varying_.count(s->getPointerOperand()))
            continue;
        } else {
          continue;
        }
      }
      if (auto* phi = llvm::dyn_cast<llvm::PHINode>(&i)) {
        b.SetInsertPoint(phi);
        wide_[phi] = b.CreatePHI(vecOf(phi->getType()), phi->getNumIncomingValues(),
                                 phi->getName() + ".wide");
        phis.push_back(phi);
        continue;
      }
      b.SetInsertPoint(&i);
      llvm::Value* w = nullptr;
      if (perLane_.count(&i)) {
        w = perLane(b, i);
        erase.push_back(&i);
      } else if (auto* l = llvm::dyn_cast<llvm::LoadInst>(&i)) {
        w = widenLoad(b, l);
        // Lane 0 may be one of the lanes that skip the block: its scalar load must not run.
        if (mask_ && varying_.count(l->getPointerOperand())) maskedScalarLoads.push_back(l);
      } else if (auto* s = llvm::dyn_cast<llvm::StoreInst>(&i)) {
        widenStore(b, s);
        erase.push_back(&i);
      } else if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i)) {
        w = widenCall(b, call);
      } else if (llvm::isa<llvm::ExtractElementInst>(i) || llvm::isa<llvm::InsertElementInst>(i) ||
                 llvm::isa<llvm::ShuffleVectorInst>(i)) {
        w = widenElements(b, i);
      } else {
        llvm::Instruction* c = i.clone();
        c->mutateType(vecOf(i.getType()));
        for (unsigned o = 0; o < c->getNumOperands(); ++o) {
          llvm::Value* op = i.getOperand(o);
          bool keepScalar = false;
          if (auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&i)) {
            // Struct field indices stay constants; uniform indices broadcast implicitly.
            keepScalar = o > 0 && !varying_.count(op);
            (void)gep;
          }
          llvm::Value* w = nullptr;
          if (auto* sel = llvm::dyn_cast<llvm::SelectInst>(&i); sel && o == 0) {
            keepScalar = !varying_.count(sel->getCondition());
            if (!keepScalar && !vectorElements(op->getType()))
              w = spreadLanes(b, wide(b, op), vectorElements(sel->getType()));
          }
          c->setOperand(o, keepScalar ? op : w ? w : wide(b, op));
        }
        if (auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(c)) {
          // A vector GEP needs a vector base; its type is the vector of pointers.
          (void)gep;
        }
        b.Insert(c, i.getName() + ".wide");
        w = c;
      }
      if (w) wide_[&i] = w;
    }
  }
  mask_ = nullptr;
  for (llvm::PHINode* phi : phis) {
    auto* w = llvm::cast<llvm::PHINode>(wide_[phi]);
    for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k) {
      llvm::BasicBlock* from = phi->getIncomingBlock(k);
      llvm::IRBuilder<> pb(from->getTerminator());
      llvm::Value* in = wide(pb, phi->getIncomingValue(k));
      if (auto t = thenBlocks_.find(from);
          t != thenBlocks_.end() && predicated_[t->second].merge == phi->getParent()) {
        llvm::BasicBlock* branching = t->second;
        // Out of a predicated block: its lanes bring its value, the others the one they had
        // before the branch; lane 0's scalar phi takes lane 0's.
        llvm::Value* before = wide(pb, phi->getIncomingValueForBlock(branching));
        in = pb.CreateSelect(spreadLanes(pb, maskOf(branching), vectorElements(phi->getType())), in,
                             before, phi->getName() + ".join");
        phi->setIncomingValue(k, laneZero(pb, in, phi->getType()));
      }
      w->addIncoming(in, from);
    }
  }
  // Predicated blocks run when any lane takes them.
  for (auto& [bb, p] : predicated_) {
    auto* br = llvm::cast<llvm::BranchInst>(bb->getTerminator());
    b.SetInsertPoint(br);
    llvm::Value* any = b.CreateOrReduce(maskOf(bb));
    br->setCondition(p.negate ? b.CreateNot(any) : any);
    ++stats_->predicatedBranches;
  }
  // Varying branches: taken when every lane agrees, else the region gives up (kWidenBail) and
  // the work-group function runs these work-items with the scalar region instead.
  llvm::BasicBlock* bail = nullptr;
  for (llvm::BranchInst* br : divergent_) {
    if (bail == nullptr) {
      bail = llvm::BasicBlock::Create(f_.getContext(), "widen.bail", &f_);
      llvm::ReturnInst::Create(f_.getContext(),
                               llvm::ConstantInt::get(f_.getReturnType(), kWidenBail), bail);
    }
    llvm::BasicBlock* bb = br->getParent();
    b.SetInsertPoint(br);
    llvm::Value *any, *all;
    if (auto ends = endLanes(b, br->getCondition())) {
      any = b.CreateOr(ends->first, ends->second);
      all = b.CreateAnd(ends->first, ends->second);
    } else {
      llvm::Value* w = wide_.lookup(br->getCondition());
      any = b.CreateOrReduce(w);
      all = b.CreateAndReduce(w);
    }
    llvm::Value* mixed = b.CreateXor(any, all, "lanes.disagree");
    llvm::BasicBlock* agreed = bb->splitBasicBlock(br, bb->getName() + ".agreed");
    bb->getTerminator()->eraseFromParent();
    llvm::BranchInst::Create(bail, agreed, mixed, bb);
    br->setCondition(any);
    ++stats_->checkedBranches;
  }
  for (llvm::LoadInst* l : maskedScalarLoads) erase.push_back(l);
  // Originals with side effects go; lane 0's scalar chain takes lane 0 of their results.
  for (llvm::Instruction* i : erase) {
    if (!i->getType()->isVoidTy() && !i->use_empty()) {
      llvm::IRBuilder<> eb(i);
      i->replaceAllUsesWith(laneZero(eb, wide_.lookup(i), i->getType()));
    }
    i->eraseFromParent();
  }
  versionLoads();
}

// The lanes that run the code a predicated branch guards, built before that branch.
llvm::Value* Widener::maskOf(llvm::BasicBlock* branching) {
  auto m = masks_.find(branching);
  if (m != masks_.end()) return m->second;
  auto* br = llvm::cast<llvm::BranchInst>(branching->getTerminator());
  llvm::IRBuilder<> b(br);
  llvm::Value* cond = wide(b, br->getCondition());
  return masks_[branching] = predicated_[branching].negate ? b.CreateNot(cond, "lanes.else") : cond;
}

// A comparison of a value whose lanes step by a known stride with a uniform value is monotonic
// across the lanes (they do not wrap: the stride analysis's assumption), so the lanes agree when
// the first and the last do: lane 0's result is the scalar compare, the last lane's compares
// x + (VF - 1) * stride. A grid-stride loop's `i < n` then needs no vector of i64 indices. The
// stride must hold for every lane (an exact one, lane_strides.h), and an unsigned comparison
// needs x not negative in any lane: `(uint)(lid - 2) < len` wraps around between lanes 1 and 2,
// where lanes 0 and 15 may agree and the lanes between them not.
std::optional<std::pair<llvm::Value*, llvm::Value*>> Widener::endLanes(llvm::IRBuilder<>& b,
                                                                       llvm::Value* cond) {
  auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(cond);
  if (cmp == nullptr || cmp->isEquality() || perLane_.count(cmp)) return std::nullopt;
  unsigned v = varying_.count(cmp->getOperand(0)) ? 0 : 1;
  llvm::Value* x = cmp->getOperand(v);
  if (varying_.count(cmp->getOperand(1 - v)) || !x->getType()->isIntegerTy()) return std::nullopt;
  auto s = exactStride(x);
  if (!s || *s == 0) return std::nullopt;
  if (cmp->isUnsigned() && !exact_.nonNegative(x)) return std::nullopt;
  llvm::Instruction* last = cmp->clone();
  last->setOperand(v, b.CreateAdd(x, llvm::ConstantInt::get(x->getType(), (vf_ - 1) * *s)));
  b.Insert(last, "last.lane");
  return std::make_pair(static_cast<llvm::Value*>(cmp), static_cast<llvm::Value*>(last));
}

// Element operations on lane-major vectors: lane l's element k is at l * n + k.
llvm::Value* Widener::widenElements(llvm::IRBuilder<>& b, llvm::Instruction& i) {
  llvm::SmallVector<int, 64> idx;
  if (auto* e = llvm::dyn_cast<llvm::ExtractElementInst>(&i)) {
    unsigned n = vectorElements(e->getVectorOperandType());
    unsigned k =
        static_cast<unsigned>(llvm::cast<llvm::ConstantInt>(e->getIndexOperand())->getZExtValue());
    for (unsigned l = 0; l < vf_; ++l) idx.push_back(static_cast<int>(l * n + k));
    return b.CreateShuffleVector(wide(b, e->getVectorOperand()), idx, i.getName() + ".wide");
  }
  if (auto* ins = llvm::dyn_cast<llvm::InsertElementInst>(&i)) {
    unsigned n = vectorElements(ins->getType());
    unsigned k =
        static_cast<unsigned>(llvm::cast<llvm::ConstantInt>(ins->getOperand(2))->getZExtValue());
    // The lanes' scalars spread to their element k, then merged into the lanes' vectors.
    llvm::SmallVector<int, 64> spread(vf_ * n, -1), merge(vf_ * n);
    for (unsigned l = 0; l < vf_; ++l) spread[l * n + k] = static_cast<int>(l);
    for (unsigned p = 0; p < vf_ * n; ++p)
      merge[p] = static_cast<int>(p % n == k ? vf_ * n + p : p);
    llvm::Value* scalars = b.CreateShuffleVector(wide(b, ins->getOperand(1)), spread);
    return b.CreateShuffleVector(wide(b, ins->getOperand(0)), scalars, merge,
                                 i.getName() + ".wide");
  }
  auto* sv = llvm::cast<llvm::ShuffleVectorInst>(&i);
  unsigned n = vectorElements(sv->getOperand(0)->getType());
  unsigned m = vectorElements(sv->getType());
  llvm::ArrayRef<int> mask = sv->getShuffleMask();
  for (unsigned l = 0; l < vf_; ++l)
    for (unsigned j = 0; j < m; ++j) {
      int k = mask[j];
      idx.push_back(k < 0 ? -1
                          : static_cast<int>(static_cast<unsigned>(k) < n
                                                 ? l * n + k
                                                 : vf_ * n + l * n + (k - n)));
    }
  return b.CreateShuffleVector(wide(b, sv->getOperand(0)), wide(b, sv->getOperand(1)), idx,
                               i.getName() + ".wide");
}

// A reduction of each lane's vector (lane-major, n elements a lane): the lanes' element k is
// one shuffle (a column), and the n columns combine elementwise into the lanes' results.
llvm::Value* Widener::widenReduction(llvm::IRBuilder<>& b, llvm::CallInst* call) {
  llvm::Intrinsic::ID id = call->getCalledFunction()->getIntrinsicID();
  llvm::Value* v = call->getArgOperand(0);
  const unsigned n = vectorElements(v->getType());
  llvm::Value* w = wide(b, v);
  llvm::Value* acc = nullptr;
  for (unsigned k = 0; k < n; ++k) {
    llvm::SmallVector<int, 64> idx;
    for (unsigned l = 0; l < vf_; ++l) idx.push_back(static_cast<int>(l * n + k));
    llvm::Value* column = b.CreateShuffleVector(w, idx);
    if (acc == nullptr) {
      acc = column;
      continue;
    }
    switch (id) {
      case llvm::Intrinsic::vector_reduce_and:
        acc = b.CreateAnd(acc, column);
        break;
      case llvm::Intrinsic::vector_reduce_or:
        acc = b.CreateOr(acc, column);
        break;
      case llvm::Intrinsic::vector_reduce_xor:
        acc = b.CreateXor(acc, column);
        break;
      case llvm::Intrinsic::vector_reduce_add:
        acc = b.CreateAdd(acc, column);
        break;
      case llvm::Intrinsic::vector_reduce_mul:
        acc = b.CreateMul(acc, column);
        break;
      case llvm::Intrinsic::vector_reduce_smax:
        acc = b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, acc, column);
        break;
      case llvm::Intrinsic::vector_reduce_smin:
        acc = b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, acc, column);
        break;
      case llvm::Intrinsic::vector_reduce_umax:
        acc = b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, acc, column);
        break;
      case llvm::Intrinsic::vector_reduce_umin:
        acc = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, acc, column);
        break;
      case llvm::Intrinsic::vector_reduce_fmax:
        acc = b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, acc, column, call);
        break;
      default:  // vector_reduce_fmin
        acc = b.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, acc, column, call);
        break;
    }
  }
  ++stats_->vectorCalls;
  acc->setName(call->getName() + ".wide");
  return acc;
}

llvm::Value* Widener::widenCall(llvm::IRBuilder<>& b, llvm::CallInst* call) {
  llvm::Intrinsic::ID id = call->getCalledFunction()->getIntrinsicID();
  if (isElementReduction(id) && vectorElements(call->getArgOperand(0)->getType()))
    return widenReduction(b, call);
  if (id != llvm::Intrinsic::not_intrinsic && llvm::isTriviallyVectorizable(id)) {
    llvm::SmallVector<llvm::Type*, 2> types{vecOf(call->getType())};
    llvm::SmallVector<llvm::Value*, 4> args;
    bool ok = true;
    for (unsigned a = 0; a < call->arg_size(); ++a) {
      llvm::Value* v = call->getArgOperand(a);
      if (llvm::isVectorIntrinsicWithScalarOpAtArg(id, a)) {
        if (varying_.count(v)) ok = false;
        args.push_back(v);
      } else {
        args.push_back(wide(b, v));
      }
      if (llvm::isVectorIntrinsicWithOverloadTypeAtArg(id, a))
        types.push_back(args.back()->getType());
    }
    if (ok) {
      ++stats_->vectorCalls;
      llvm::Function* fn = llvm::Intrinsic::getDeclaration(f_.getParent(), id, types);
      return b.CreateCall(fn, args, call->getName() + ".wide");
    }
  }
  return perLane(b, *call);
}

}  // namespace tessera::backends::cpu::jit::widening
