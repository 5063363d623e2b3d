// Pass: sub-groups (OpenCL's cl_khr_subgroups and cl_khr_subgroup_*, cl_intel_subgroups; SPIR-V's
// Subgroup scope). A kernel runs with one sub-group size S (kernel_abi.h): the size it requires
// (intel_reqd_sub_group_size, SPIR-V's SubgroupSize execution mode: the translator's
// !intel_reqd_sub_group_size), which must be one of kSubgroupSizes, else kDefaultSubgroupSize.
//
// Operations that need other work-items' values (reductions, scans, broadcasts, votes, ballots,
// shuffles, elect) exchange them through scratch: each call site gets an exchange slot per
// work-item (a kernel alloca, which the region pass keeps per work-item in scratch, structure of
// arrays), and a cut after the stores (a barrier: barrier_regions.cpp cuts there). The work-items
// of a sub-group that reach the cut together have all stored their values when the region after it
// runs, so each reads the slots of its sub-group (__tessera_lane_slot, which the region pass turns
// into the address of another work-item's copy of the slot) and computes its result: a fold over
// the lanes in lane order (reduce; a scan keeps lanes up to its own, a clustered reduction those
// of its cluster), or one lane's value (broadcast, shuffles). A call site that can be reached
// again from its own cut without another cut in between (a loop around it alone) has its slot
// double-buffered by a per-work-item phase that flips at each arrival: a work-item that comes back
// within the region after the cut writes the other buffer, not the one its sub-group is reading.
//
// The work-group function follows each work-item's path (workgroup_dispatch.h), so
// `if (get_sub_group_id() == 0) sub_group_reduce_add(...)` runs the region after the cut for
// sub-group 0 alone. Uniform operations (OpGroup*, the Intel shuffles, sub_group_barrier) under
// control flow that may differ between the lanes of a sub-group fail the build
// (subgroup_uniformity.cpp) rather than compute a wrong answer. Non-uniform ones (OpGroupNonUniform*)
// may be reached by some lanes only: those that run the region after the cut together take part
// (equal run stamps, __tessera_subgroup_active); elect() picks the first of them.
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <functional>
#include <set>

#include "backends/cpu/jit/collective_ops.h"
#include "backends/cpu/jit/jit_passes.h"
#include "backends/cpu/jit/subgroup_lanes.h"

namespace tessera::backends::cpu::jit {
namespace {

constexpr uint64_t kSubgroupScope = 3;
enum GroupOp : uint64_t { kReduce = 0, kInclusiveScan = 1, kExclusiveScan = 2, kClustered = 3 };

uint64_t constantOf(llvm::Value* v, uint64_t otherwise = ~uint64_t{0}) {
  auto* c = llvm::dyn_cast<llvm::ConstantInt>(v);
  return c ? c->getZExtValue() : otherwise;
}

// What a call needs from the other lanes.
enum class Kind { None, Fold, Vote, AllEqual, Ballot, Lane, IntelDown, IntelUp, Elect };

struct Op {
  llvm::CallInst* call;
  Kind kind = Kind::None;
  llvm::StringRef
      combine;  // Fold: "IAdd", "FMin", "BitwiseAnd", "LogicalOr", ... ; Vote: "All"/"Any"
  uint64_t group = kReduce;       // Fold: GroupOp
  llvm::Value* value = nullptr;   // this lane's value
  llvm::Value* value2 = nullptr;  // IntelDown/Up's second value
  llvm::Value* index = nullptr;   // Lane: the operand (id, xor mask, delta)
  llvm::StringRef laneOf;         // Lane: "Broadcast", "Xor", "Up", "Down", "First"
  uint64_t cluster = 0;
  // A GroupNonUniform* operation: it may be reached by some lanes of a sub-group only, and those
  // that arrive together take part.
  bool nonUniform = false;
};

// The operation a call is, or Kind::None.
Op classify(llvm::CallInst* call) {
  Op op;
  op.call = call;
  llvm::StringRef name = spirvBaseName(call->getCalledFunction()->getName());
  auto arg = [&](unsigned i) { return call->getArgOperand(i); };
  auto scoped = [&]() { return call->arg_size() > 0 && constantOf(arg(0)) == kSubgroupScope; };
  static const std::set<llvm::StringRef> arithmetic = {
      "IAdd",       "FAdd",       "IMul",      "FMul",       "SMin",       "UMin",
      "FMin",       "SMax",       "UMax",      "FMax",       "BitwiseAnd", "BitwiseOr",
      "BitwiseXor", "LogicalAnd", "LogicalOr", "LogicalXor", "IMulKHR",    "FMulKHR"};
  if (name.consume_front("__spirv_GroupNonUniform")) {
    if (!scoped()) return op;
    op.nonUniform = true;
    if (arithmetic.count(name) && call->arg_size() >= 3) {
      op.kind = Kind::Fold;
      op.combine = name;
      op.group = constantOf(arg(1));
      op.value = arg(2);
      if (op.group == kClustered) op.cluster = call->arg_size() > 3 ? constantOf(arg(3), 0) : 0;
    } else if (name == "All" || name == "Any") {
      op.kind = Kind::Vote, op.combine = name, op.value = arg(1);
    } else if (name == "AllEqual") {
      op.kind = Kind::AllEqual, op.value = arg(1);
    } else if (name == "Ballot") {
      op.kind = Kind::Ballot, op.value = arg(1);
    } else if (name == "Broadcast" || name == "Shuffle") {
      op.kind = Kind::Lane, op.laneOf = "Broadcast", op.value = arg(1), op.index = arg(2);
    } else if (name == "Elect") {
      op.kind = Kind::Elect,
      op.value = llvm::ConstantInt::get(llvm::Type::getInt8Ty(call->getContext()), 0);
    } else if (name == "BroadcastFirst") {
      op.kind = Kind::Lane, op.laneOf = "First", op.value = arg(1);
    } else if (name == "ShuffleXor" || name == "ShuffleUp" || name == "ShuffleDown") {
      op.kind = Kind::Lane, op.laneOf = name.drop_front(7), op.value = arg(1), op.index = arg(2);
    }
    return op;
  }
  if (name.consume_front("__spirv_Group")) {
    if (!scoped()) return op;
    if (arithmetic.count(name) && call->arg_size() == 3) {
      op.kind = Kind::Fold, op.combine = name, op.group = constantOf(arg(1)), op.value = arg(2);
    } else if (name == "All" || name == "Any") {
      op.kind = Kind::Vote, op.combine = name, op.value = arg(1);
    } else if (name == "Broadcast") {
      op.kind = Kind::Lane, op.laneOf = "Broadcast", op.value = arg(1), op.index = arg(2);
    }
    return op;
  }
  if (name == "__spirv_SubgroupShuffleINTEL") {
    op.kind = Kind::Lane, op.laneOf = "Broadcast", op.value = arg(0), op.index = arg(1);
  } else if (name == "__spirv_SubgroupShuffleXorINTEL") {
    op.kind = Kind::Lane, op.laneOf = "Xor", op.value = arg(0), op.index = arg(1);
  } else if (name == "__spirv_SubgroupShuffleDownINTEL") {
    op.kind = Kind::IntelDown, op.value = arg(0), op.value2 = arg(1), op.index = arg(2);
  } else if (name == "__spirv_SubgroupShuffleUpINTEL") {
    op.kind = Kind::IntelUp, op.value = arg(0), op.value2 = arg(1), op.index = arg(2);
  }
  return op;
}

class Lowering {
 public:
  Lowering(llvm::Function& kernel, uint64_t S)
      : kernel_(kernel), m_(*kernel.getParent()), ctx_(kernel.getContext()), S_(S) {}

  // `reentrant`: the call site can be reached again from its own cut without passing another cut
  // (a loop around this operation alone); its slot is then double-buffered.
  void lower(const Op& op, bool reentrant) {
    llvm::CallInst* call = op.call;
    llvm::Type* t = op.value->getType();
    // i1 values are kept as i8 in memory.
    llvm::Type* st = t->isIntOrIntVectorTy(1) ? llvm::Type::getInt8Ty(ctx_) : t;
    const unsigned values = op.value2 ? 2 : 1;
    llvm::Type* slotType =
        llvm::ArrayType::get(llvm::ArrayType::get(st, values), reentrant ? 2 : 1);
    llvm::IRBuilder<> eb(&*kernel_.getEntryBlock().getFirstInsertionPt());
    llvm::AllocaInst* slot = eb.CreateAlloca(slotType, nullptr, "sg.exchange");
    llvm::AllocaInst* phase = nullptr;
    if (reentrant) {
      phase = eb.CreateAlloca(eb.getInt32Ty(), nullptr, "sg.phase");
      eb.CreateStore(eb.getInt32(0), phase);
    }

    // Arrival: this work-item's values in its buffer of the current phase, then the cut.
    llvm::IRBuilder<> b(call);
    llvm::Value* p =
        phase ? static_cast<llvm::Value*>(b.CreateLoad(b.getInt32Ty(), phase)) : b.getInt32(0);
    auto toSlot = [&](llvm::Value* v) { return st == t ? v : b.CreateZExt(v, st); };
    b.CreateStore(toSlot(op.value),
                  b.CreateInBoundsGEP(slotType, slot, {b.getInt32(0), p, b.getInt32(0)}));
    if (op.value2)
      b.CreateStore(toSlot(op.value2),
                    b.CreateInBoundsGEP(slotType, slot, {b.getInt32(0), p, b.getInt32(1)}));
    // The operands read after the cut are kept across it by the region pass like any value.
    barrier(b, op.nonUniform);
    if (phase) b.CreateStore(b.CreateXor(p, b.getInt32(1)), phase);
    SubgroupLanes l = subgroupLanes(b, m_, S_);
    const uint64_t slotBytes = m_.getDataLayout().getTypeAllocSize(slotType);
    // Lane j's (sub-group local id) value k.
    auto peer = [&](llvm::IRBuilder<>& pb, llvm::Value* j, unsigned k = 0) -> llvm::Value* {
      llvm::Value* lane = pb.CreateAdd(l.base, j);
      llvm::Value* at = pb.CreateCall(laneSlot(), {slot, lane, pb.getInt64(slotBytes)});
      llvm::Value* v = pb.CreateLoad(
          st, pb.CreateInBoundsGEP(slotType, at, {pb.getInt32(0), p, pb.getInt32(k)}));
      return st == t ? v : pb.CreateTrunc(v, t);
    };
    // Whether lane j takes part: always for uniform operations (whole sub-groups arrive); for
    // non-uniform ones, the lanes that run the region after the cut together (equal run stamps,
    // workgroup_dispatch.h).
    auto active = [&](llvm::IRBuilder<>& ab, llvm::Value* j) -> llvm::Value* {
      if (!op.nonUniform) return ab.getTrue();
      llvm::FunctionCallee f =
          m_.getOrInsertFunction(kSubgroupActiveFunction,
                                 llvm::FunctionType::get(ab.getInt1Ty(), {ab.getInt64Ty()}, false));
      return ab.CreateCall(f, {ab.CreateAdd(l.base, j)});
    };
    // The first lane that takes part (this one at the latest).
    auto firstActive = [&]() {
      return foldLanes(
          b, l.size, l.lane, [&](llvm::IRBuilder<>& fb, llvm::Value* j, llvm::Value* acc) {
            return fb.CreateSelect(active(fb, j),
                                   fb.CreateBinaryIntrinsic(llvm::Intrinsic::umin, acc, j), acc);
          });
    };
    llvm::Value* r = nullptr;
    switch (op.kind) {
      case Kind::Elect:
        r = b.CreateICmpEQ(l.lane, op.nonUniform ? firstActive() : b.getInt64(0));
        break;
      case Kind::Fold:
      case Kind::Vote: {
        llvm::StringRef c = op.combine;
        r = foldLanes(b, l.size, identity(t, c),
                      [&](llvm::IRBuilder<>& fb, llvm::Value* j, llvm::Value* acc) {
                        llvm::Value* next = combine(fb, c, acc, peer(fb, j));
                        llvm::Value* keep = op.nonUniform ? active(fb, j) : nullptr;
                        auto also = [&](llvm::Value* k) {
                          keep = keep ? fb.CreateAnd(keep, k) : k;
                        };
                        if (op.group == kInclusiveScan) also(fb.CreateICmpULE(j, l.lane));
                        if (op.group == kExclusiveScan) also(fb.CreateICmpULT(j, l.lane));
                        if (op.group == kClustered && op.cluster > 0)
                          also(fb.CreateICmpEQ(fb.CreateUDiv(j, fb.getInt64(op.cluster)),
                                               fb.CreateUDiv(l.lane, fb.getInt64(op.cluster))));
                        return keep ? fb.CreateSelect(keep, next, acc) : next;
                      });
        break;
      }
      case Kind::AllEqual: {
        llvm::Value* first = peer(b, op.nonUniform ? firstActive() : b.getInt64(0));
        r = foldLanes(
            b, l.size, b.getTrue(), [&](llvm::IRBuilder<>& fb, llvm::Value* j, llvm::Value* acc) {
              llvm::Value* v = peer(fb, j);
              llvm::Value* same =
                  t->isFPOrFPVectorTy() ? fb.CreateFCmpOEQ(v, first) : fb.CreateICmpEQ(v, first);
              same = fb.CreateOr(same, fb.CreateNot(active(fb, j)));
              return fb.CreateAnd(acc, same);
            });
        break;
      }
      case Kind::Ballot: {
        llvm::Type* i128 = b.getIntNTy(128);
        llvm::Value* mask = foldLanes(b, l.size, llvm::ConstantInt::get(i128, 0),
                                      [&](llvm::IRBuilder<>& fb, llvm::Value* j, llvm::Value* acc) {
                                        llvm::Value* on = fb.CreateAnd(peer(fb, j), active(fb, j));
                                        llvm::Value* bit = fb.CreateShl(fb.CreateZExt(on, i128),
                                                                        fb.CreateZExt(j, i128));
                                        return fb.CreateOr(acc, bit);
                                      });
        r = call->getType()->isIntegerTy() ? b.CreateZExtOrTrunc(mask, call->getType())
                                           : b.CreateBitCast(mask, call->getType());
        break;
      }
      case Kind::Lane: {
        // An index outside the sub-group gives the work-item's own value (the spec leaves it
        // undefined; no read outside the sub-group's slots).
        llvm::Value* index = op.index ? b.CreateZExtOrTrunc(op.index, b.getInt64Ty()) : nullptr;
        llvm::Value* j = op.laneOf == "First" ? (op.nonUniform ? firstActive() : b.getInt64(0))
                         : op.laneOf == "Broadcast" ? index
                         : op.laneOf == "Xor"       ? b.CreateXor(l.lane, index)
                         : op.laneOf == "Up"        ? b.CreateSub(l.lane, index)
                                                    : b.CreateAdd(l.lane, index);
        llvm::Value* valid = b.CreateICmpULT(j, l.size);
        r = b.CreateSelect(valid, peer(b, b.CreateSelect(valid, j, l.lane)), op.value);
        break;
      }
      case Kind::IntelDown:
      case Kind::IntelUp: {
        // cl_intel_subgroups: shuffle_down(current, next, delta) reads current of lane
        // (id + delta) when that is below the maximum sub-group size, else next of lane
        // (id + delta - max size); shuffle_up(previous, current, delta) reads current of lane
        // (id - delta) when that is not negative, else previous of lane (id - delta + max size).
        llvm::Value* delta = b.CreateZExtOrTrunc(op.index, b.getInt64Ty());
        llvm::Value* j;
        llvm::Value* second;  // read the operand of index 1 (next) / 0 (previous)
        unsigned within, beyond;
        if (op.kind == Kind::IntelDown) {
          llvm::Value* at = b.CreateAdd(l.lane, delta);
          second = b.CreateICmpUGE(at, b.getInt64(S_));
          j = b.CreateSelect(second, b.CreateSub(at, b.getInt64(S_)), at);
          within = 0, beyond = 1;
        } else {
          llvm::Value* at = b.CreateSub(l.lane, delta);
          second = b.CreateICmpSLT(at, b.getInt64(0));
          j = b.CreateSelect(second, b.CreateAdd(at, b.getInt64(S_)), at);
          within = 1, beyond = 0;
        }
        llvm::Value* valid = b.CreateICmpULT(j, l.size);
        llvm::Value* jj = b.CreateSelect(valid, j, l.lane);
        llvm::Value* v = b.CreateSelect(second, peer(b, jj, beyond), peer(b, jj, within));
        r = b.CreateSelect(valid, v, op.kind == Kind::IntelDown ? op.value : op.value2);
        break;
      }
      case Kind::None:
        return;
    }
    if (r->getType() != call->getType()) r = b.CreateZExtOrTrunc(r, call->getType());
    call->replaceAllUsesWith(r);
    call->eraseFromParent();
  }

 private:
  llvm::FunctionCallee laneSlot() {
    llvm::PointerType* ptr = llvm::PointerType::get(ctx_, 0);
    llvm::Type* i64 = llvm::Type::getInt64Ty(ctx_);
    return m_.getOrInsertFunction(kLaneSlotFunction,
                                  llvm::FunctionType::get(ptr, {ptr, i64, i64}, false));
  }

  // A cut: __spirv_ControlBarrier(Workgroup, Workgroup, None), where formRegions splits.
  void barrier(llvm::IRBuilder<>& b, bool nonUniform) {
    llvm::Type* i32 = b.getInt32Ty();
    llvm::FunctionCallee f = m_.getOrInsertFunction(
        "_Z22__spirv_ControlBarrieriii",
        llvm::FunctionType::get(llvm::Type::getVoidTy(ctx_), {i32, i32, i32}, false));
    llvm::CallInst* cut = b.CreateCall(f, {b.getInt32(2), b.getInt32(2), b.getInt32(0)});
    cut->setMetadata(nonUniform ? kNonUniformCutMetadata : kSubgroupCutMetadata,
                     llvm::MDNode::get(ctx_, {}));
  }

  // acc = init; for (j = 0; j < count; ++j) acc = body(j, acc); at b's insertion point, which
  // continues after the loop. count >= 1.
  llvm::Value* foldLanes(
      llvm::IRBuilder<>& b, llvm::Value* count, llvm::Value* init,
      const std::function<llvm::Value*(llvm::IRBuilder<>&, llvm::Value*, llvm::Value*)>& body) {
    llvm::BasicBlock* before = b.GetInsertBlock();
    llvm::BasicBlock* after = before->splitBasicBlock(b.GetInsertPoint(), "sg.fold.done");
    llvm::BasicBlock* loop = llvm::BasicBlock::Create(ctx_, "sg.fold", &kernel_, after);
    before->getTerminator()->setSuccessor(0, loop);
    llvm::IRBuilder<> lb(loop);
    llvm::PHINode* j = lb.CreatePHI(lb.getInt64Ty(), 2, "sg.lane");
    llvm::PHINode* acc = lb.CreatePHI(init->getType(), 2, "sg.acc");
    j->addIncoming(lb.getInt64(0), before);
    acc->addIncoming(init, before);
    llvm::Value* next = body(lb, j, acc);
    llvm::Value* j1 = lb.CreateAdd(j, lb.getInt64(1), "", true, true);
    j->addIncoming(j1, lb.GetInsertBlock());
    acc->addIncoming(next, lb.GetInsertBlock());
    lb.CreateCondBr(lb.CreateICmpULT(j1, count), loop, after);
    b.SetInsertPoint(&*after->getFirstInsertionPt());
    return next;
  }

  llvm::Function& kernel_;
  llvm::Module& m_;
  llvm::LLVMContext& ctx_;
  uint64_t S_;
};

bool isSubgroupBarrier(const llvm::CallInst& call) {
  return isWorkGroupBarrier(call) && constantOf(call.getArgOperand(0)) == kSubgroupScope;
}

// Whether `call` can be reached again from right after it without passing another of `cuts`.
bool reachesItself(llvm::CallInst* call, const std::set<llvm::Instruction*>& cuts) {
  std::vector<llvm::BasicBlock*> work;
  std::set<llvm::BasicBlock*> seen;
  auto scan = [&](llvm::BasicBlock::iterator from, llvm::BasicBlock* bb) -> int {
    for (auto it = from; it != bb->end(); ++it)
      if (cuts.count(&*it)) return &*it == call ? 1 : 0;
    for (llvm::BasicBlock* succ : llvm::successors(bb)) work.push_back(succ);
    return -1;
  };
  if (int r = scan(std::next(call->getIterator()), call->getParent()); r >= 0) return false;
  while (!work.empty()) {
    llvm::BasicBlock* bb = work.back();
    work.pop_back();
    if (!seen.insert(bb).second) continue;
    if (scan(bb->begin(), bb) == 1) return true;
  }
  return false;
}

}  // namespace

bool lowerSubgroups(llvm::Function& kernel, std::string* error) {
  // The size: required, else the default.
  uint64_t S = kDefaultSubgroupSize, required = 0;
  if (llvm::MDNode* md = kernel.getMetadata("intel_reqd_sub_group_size")) {
    if (md->getNumOperands() > 0)
      if (auto* c = llvm::mdconst::dyn_extract<llvm::ConstantInt>(md->getOperand(0)))
        required = c->getZExtValue();
    if (std::find(std::begin(kSubgroupSizes), std::end(kSubgroupSizes), required) ==
        std::end(kSubgroupSizes)) {
      std::string sizes;
      for (uint32_t s : kSubgroupSizes) sizes += (sizes.empty() ? "" : ", ") + std::to_string(s);
      *error = "kernel " + kernel.getName().str() + ": the required sub-group size " +
               std::to_string(required) + " is not supported (the sizes are " + sizes + ")";
      return false;
    }
    S = required;
  }
  kernel.addFnAttr(kSubgroupSizeAttribute, std::to_string(S));
  kernel.addFnAttr(kRequiredSubgroupSizeAttribute, std::to_string(required));

  std::vector<Op> ops;
  std::vector<llvm::CallInst*> barriers;
  for (llvm::BasicBlock& bb : kernel)
    for (llvm::Instruction& i : bb)
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i)) {
        if (!call->getCalledFunction()) continue;
        Op op = classify(call);
        if (op.kind != Kind::None) ops.push_back(op);
        if (isSubgroupBarrier(*call)) barriers.push_back(call);
      }
  // subgroup_uniformity.cpp checks where they are once the kernel is simplified.
  for (llvm::CallInst* call : barriers)
    call->setMetadata(kSubgroupCutMetadata, llvm::MDNode::get(kernel.getContext(), {}));
  std::set<llvm::Instruction*> cuts;
  for (llvm::BasicBlock& bb : kernel)
    for (llvm::Instruction& i : bb)
      if (isWorkGroupBarrier(i)) cuts.insert(&i);
  for (const Op& op : ops) cuts.insert(op.call);
  std::vector<bool> reentrant;
  for (const Op& op : ops) reentrant.push_back(reachesItself(op.call, cuts));
  Lowering lowering(kernel, S);
  // Classified again when lowered: an operand may be an earlier operation's result, replaced since.
  for (size_t i = 0; i < ops.size(); ++i) lowering.lower(classify(ops[i].call), reentrant[i]);
  lowerSubgroupLocalBuiltins(kernel, S, SubgroupBuiltins::Operations);
  return true;
}

}  // namespace tessera::backends::cpu::jit
