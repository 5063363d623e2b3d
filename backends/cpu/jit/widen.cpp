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
//    and a varying one whose lanes all coincide (`in[tid / 8]`) is one load for all lanes;
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
// vector's element count, a widened value above 1 KiB, private memory that does not promote to
// registers, printf or async copies. The stride analysis (lane_strides.h) assumes that 32-bit
// index arithmetic does not wrap between consecutive work-items (clang's nsw for int).
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/Analysis/InstructionSimplify.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

#include <optional>

#include <llvm/Support/raw_ostream.h>

#include "backends/cpu/jit/builtin_runtime.h"
#include "backends/cpu/jit/jit_passes.h"
#include "backends/cpu/jit/lane_strides.h"
#include "backends/cpu/jit/widen_prepare.h"

namespace tessera::backends::cpu::jit {
namespace {

bool scalarType(llvm::Type* t) {
  return t->isIntegerTy() || t->isFloatingPointTy() || t->isPointerTy();
}

// An OpenCL vector value (float4, int2, ...): widened lane-major, lane l's element k at l * n + k
// of a <VF * n> vector, which is how VF consecutive float4s lie in memory.
unsigned vectorElements(llvm::Type* t) {
  auto* v = llvm::dyn_cast<llvm::FixedVectorType>(t);
  return v && (v->getElementType()->isIntegerTy() || v->getElementType()->isFloatingPointTy())
             ? static_cast<unsigned>(v->getNumElements())
             : 0;
}

bool widenable(llvm::Type* t) {
  return scalarType(t) || vectorElements(t) != 0;
}

// A reduction of an OpenCL vector's elements to a scalar (any() and all() become or/and
// reductions of a compare): widened column by column (Widener::widenReduction).
bool isElementReduction(llvm::Intrinsic::ID id) {
  switch (id) {
    case llvm::Intrinsic::vector_reduce_and:
    case llvm::Intrinsic::vector_reduce_or:
    case llvm::Intrinsic::vector_reduce_xor:
    case llvm::Intrinsic::vector_reduce_add:
    case llvm::Intrinsic::vector_reduce_mul:
    case llvm::Intrinsic::vector_reduce_smax:
    case llvm::Intrinsic::vector_reduce_smin:
    case llvm::Intrinsic::vector_reduce_umax:
    case llvm::Intrinsic::vector_reduce_umin:
    case llvm::Intrinsic::vector_reduce_fmax:
    case llvm::Intrinsic::vector_reduce_fmin:
      return true;
    default:
      return false;
  }
}

// At most this many bits in one widened vector value (16 AVX-512 registers): clpeak's float8
// kernel widened 64 work-items at a time (32 registers a value) ran at a quarter of its float4
// one, its double4 one at a fifth of double2; at this bound both run at the FMA peak.
constexpr uint64_t kMaxWideBits = 8192;

class Widener {
 public:
  Widener(llvm::Function& f, unsigned first, unsigned vf, WidenStats* stats)
      : f_(f), first_(first), vf_(vf), stats_(stats), dl_(f.getParent()->getDataLayout()) {}

  bool run(std::string* why) {
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
  bool cutToBail() {
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

 private:
  // Private memory is per work-item: promoted to registers (then varying or uniform like any
  // value), else the region is refused.
  bool promotePrivates(std::string* why) {
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

  static bool isPrefetch(const llvm::Instruction& i) {
    auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&i);
    return call != nullptr && call->getIntrinsicID() == llvm::Intrinsic::prefetch;
  }

  // Calls that must run once per work-item even with uniform arguments.
  static bool sideEffects(llvm::CallInst* call) {
    return !call->doesNotAccessMemory() || call->mayHaveSideEffects();
  }

  bool classify(std::string* why) {
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
          if (callee->isIntrinsic() &&
              (callee->getIntrinsicID() == llvm::Intrinsic::lifetime_start ||
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
          if (auto* l = llvm::dyn_cast<llvm::LoadInst>(&i);
              l && uniformSlot(l->getPointerOperand()))
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
        if (auto* st = llvm::dyn_cast<llvm::StoreInst>(&i)) {
          if (!widenable(st->getValueOperand()->getType())) {
            *why = "varying store of type " + typeName(st->getValueOperand()->getType());
            return false;
          }
          continue;
        }
        if (perLane_.count(&i)) {
          if (!i.getType()->isVoidTy() && !scalarType(i.getType())) {
            *why =
                "per-lane " + std::string(i.getOpcodeName()) + " of type " + typeName(i.getType());
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
  bool vectorShapeOk(llvm::Instruction& i, std::string* why) {
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
      bool packsLane = c->getOpcode() == llvm::Instruction::BitCast &&
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

  // A varying branch around plain code, `if (lid < s) scratch[lid] += ...`: the code runs for the
  // chunk when any lane takes the branch, its loads and stores masked by the lanes that do (the
  // others keep memory as it was), and the join's phis pick per lane. No bail, so it may follow
  // stores. The code is one block, or blocks whose own branches are uniform (CLBlast's
  // StoreResultsChecked: `if (idm < m && idn < n) { if (beta == 0) ... else ...; store }`), with
  // one entry and every exit to the join; what it holds must not act per lane or trap on another
  // lane's operands: no atomics, volatile accesses or calls with side effects, no integer
  // division that may trap (trap_free_arithmetic.cpp guards them all), no store of a varying
  // value to one address.
  struct Predicated {
    llvm::BasicBlock* then;
    llvm::BasicBlock* merge;
    bool negate;                            // the code runs where the condition is false
    std::vector<llvm::BasicBlock*> blocks;  // `then` first
  };
  std::optional<Predicated> predicable(llvm::BranchInst* br) {
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
            ok = st->isSimple() && (varying_.count(st->getPointerOperand()) ||
                                    !varying_.count(st->getValueOperand()));
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

  // The lanes that run the code a predicated branch guards, built before that branch.
  llvm::Value* maskOf(llvm::BasicBlock* branching) {
    auto m = masks_.find(branching);
    if (m != masks_.end()) return m->second;
    auto* br = llvm::cast<llvm::BranchInst>(branching->getTerminator());
    llvm::IRBuilder<> b(br);
    llvm::Value* cond = wide(b, br->getCondition());
    return masks_[branching] =
               predicated_[branching].negate ? b.CreateNot(cond, "lanes.else") : cond;
  }

  // True when a store, atomic or call with side effects may run before `bb`'s terminator: in `bb`
  // itself or in a block that reaches it. A varying branch is checked at run time (below); when
  // its lanes disagree, the widened region gives up and the scalar loop runs these work-items
  // from the region's start, which is exact only if nothing was written yet.
  bool afterSideEffect(llvm::BasicBlock* target) {
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
            if (llvm::Value* slot = slotBase(st->getPointerOperand()))
              slotStores[slot].push_back(st);
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

  bool uniformSlot(llvm::Value* p) {
    auto* slot = llvm::dyn_cast_or_null<llvm::Instruction>(slotBase(p));
    return slot != nullptr && slot->getMetadata(kUniformSlotMetadata) != nullptr;
  }

  // The scratch slot `p` points into (the GEP off the scratch argument that starts it), or null.
  llvm::Value* slotBase(llvm::Value* p) {
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

  static std::string typeName(llvm::Type* t) {
    std::string s;
    llvm::raw_string_ostream os(s);
    t->print(os);
    return os.str();
  }

  std::optional<int64_t> stride(llvm::Value* v) { return strides_.of(v); }

  llvm::Value* splat(llvm::IRBuilder<>& b, llvm::Value* v) {
    if (unsigned n = vectorElements(v->getType())) {
      llvm::SmallVector<int, 64> idx;
      for (unsigned l = 0; l < vf_; ++l)
        for (unsigned k = 0; k < n; ++k) idx.push_back(static_cast<int>(k));
      return b.CreateShuffleVector(v, idx);
    }
    if (auto* c = llvm::dyn_cast<llvm::Constant>(v))
      return llvm::ConstantVector::getSplat(llvm::ElementCount::getFixed(vf_), c);
    return b.CreateVectorSplat(vf_, v);
  }

  // The vector of v's lanes, at b's position.
  llvm::Value* wide(llvm::IRBuilder<>& b, llvm::Value* v) {
    if (varying_.count(v)) return wide_.lookup(v);
    return splat(b, v);
  }

  llvm::Value* lane(llvm::IRBuilder<>& b, llvm::Value* v, unsigned l) {
    if (!varying_.count(v)) return v;
    return b.CreateExtractElement(wide_.lookup(v), l);
  }

  llvm::Type* vecOf(llvm::Type* t) {
    if (unsigned n = vectorElements(t))
      return llvm::FixedVectorType::get(llvm::cast<llvm::FixedVectorType>(t)->getElementType(),
                                        vf_ * n);
    return llvm::FixedVectorType::get(t, vf_);
  }

  // Lane 0's value of type t out of its widened twin.
  llvm::Value* laneZero(llvm::IRBuilder<>& b, llvm::Value* w, llvm::Type* t) {
    unsigned n = vectorElements(t);
    if (n == 0) return b.CreateExtractElement(w, uint64_t{0});
    llvm::SmallVector<int, 16> idx;
    for (unsigned k = 0; k < n; ++k) idx.push_back(static_cast<int>(k));
    return b.CreateShuffleVector(w, idx);
  }

  // Each lane's mask bit repeated for the n elements of its vector (lane-major layout).
  llvm::Value* spreadLanes(llvm::IRBuilder<>& b, llvm::Value* perLane, unsigned n) {
    if (n <= 1) return perLane;
    llvm::SmallVector<int, 64> idx;
    for (unsigned l = 0; l < vf_; ++l)
      for (unsigned k = 0; k < n; ++k) idx.push_back(static_cast<int>(l));
    return b.CreateShuffleVector(perLane, idx);
  }

  // VF clones of `i` in lane order; the result vector (or null for void).
  llvm::Value* perLane(llvm::IRBuilder<>& b, llvm::Instruction& i) {
    llvm::Value* r = i.getType()->isVoidTy() ? nullptr : llvm::PoisonValue::get(vecOf(i.getType()));
    for (unsigned l = 0; l < vf_; ++l) {
      llvm::Instruction* c = i.clone();
      for (unsigned o = 0; o < c->getNumOperands(); ++o)
        c->setOperand(o, lane(b, i.getOperand(o), l));
      b.Insert(c);
      if (r) r = b.CreateInsertElement(r, c, l);
    }
    ++stats_->perLane;
    return r;
  }

  void transform() {
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
        } else if (llvm::isa<llvm::ExtractElementInst>(i) ||
                   llvm::isa<llvm::InsertElementInst>(i) || llvm::isa<llvm::ShuffleVectorInst>(i)) {
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
          in = pb.CreateSelect(spreadLanes(pb, maskOf(branching), vectorElements(phi->getType())),
                               in, before, phi->getName() + ".join");
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
  }

  // A vector of `t` lies in memory as consecutive scalars of `t` (not so for i1: <8 x i1> is one
  // byte, eight i1 are eight).
  bool packed(llvm::Type* t) {
    uint64_t size = dl_.getTypeAllocSize(t).getFixedSize();
    return dl_.getTypeSizeInBits(t).getFixedSize() == 8 * size &&
           dl_.getTypeAllocSize(vecOf(t)).getFixedSize() == vf_ * size;
  }

  // A comparison of a value whose lanes step by a known stride with a uniform value is monotonic
  // across the lanes (they do not wrap: the stride analysis's assumption), so the lanes agree when
  // the first and the last do: lane 0's result is the scalar compare, the last lane's compares
  // x + (VF - 1) * stride. A grid-stride loop's `i < n` then needs no vector of i64 indices.
  std::optional<std::pair<llvm::Value*, llvm::Value*>> endLanes(llvm::IRBuilder<>& b,
                                                                llvm::Value* cond) {
    auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(cond);
    if (cmp == nullptr || cmp->isEquality() || perLane_.count(cmp)) return std::nullopt;
    unsigned v = varying_.count(cmp->getOperand(0)) ? 0 : 1;
    llvm::Value* x = cmp->getOperand(v);
    if (varying_.count(cmp->getOperand(1 - v)) || !x->getType()->isIntegerTy()) return std::nullopt;
    auto s = stride(x);
    if (!s || *s == 0) return std::nullopt;
    llvm::Instruction* last = cmp->clone();
    last->setOperand(v, b.CreateAdd(x, llvm::ConstantInt::get(x->getType(), (vf_ - 1) * *s)));
    b.Insert(last, "last.lane");
    return std::make_pair(static_cast<llvm::Value*>(cmp), static_cast<llvm::Value*>(last));
  }

  // The lanes a memory access runs for: the predicated block's, else all.
  llvm::Value* lanes(llvm::IRBuilder<>& b) {
    return mask_ ? mask_ : llvm::Constant::getAllOnesValue(vecOf(b.getInt1Ty()));
  }

  llvm::Value* widenLoad(llvm::IRBuilder<>& b, llvm::LoadInst* l) {
    llvm::Type* t = l->getType();
    llvm::Value* p = l->getPointerOperand();
    auto s = stride(p);
    uint64_t size = dl_.getTypeAllocSize(t).getFixedSize();
    if (s && *s == static_cast<int64_t>(size) && packed(t)) {
      ++stats_->contiguous;
      if (mask_)
        return b.CreateMaskedLoad(vecOf(t), p, l->getAlign(),
                                  spreadLanes(b, mask_, vectorElements(t)), nullptr,
                                  l->getName() + ".wide");
      return b.CreateAlignedLoad(vecOf(t), p, l->getAlign(), l->getName() + ".wide");
    }
    if (s && *s == 0) {
      // Every lane's address is lane 0's (`in[tid / 8]`, lane_strides.h): one load for all.
      ++stats_->contiguous;
      return splat(b, b.CreateAlignedLoad(t, p, l->getAlign(), l->getName() + ".one"));
    }
    if (vectorElements(t)) return loadLaneVectors(b, l);
    ++stats_->gathers;
    return b.CreateMaskedGather(vecOf(t), wide(b, p), l->getAlign(), lanes(b), nullptr,
                                l->getName() + ".wide");
  }

  // An OpenCL vector whose lanes' vectors are not consecutive in memory (CLBlast's tile loads,
  // `alm[kg * 8 + tid % 8]`, a float4 per lane at a stride the analysis does not know): a lane's
  // vector as wide as an int or a long (float2, char4, ...) is one integer of a gather; a wider
  // one is loaded lane by lane from each lane's address, and the VF vectors are concatenated
  // lane-major. In a predicated block each lane's load is masked by its own bit (a masked load
  // does not touch memory where its mask is off).
  llvm::Value* loadLaneVectors(llvm::IRBuilder<>& b, llvm::LoadInst* l) {
    llvm::Type* t = l->getType();
    llvm::Value* p = l->getPointerOperand();
    ++stats_->vectorGathers;
    if (llvm::Type* whole = laneInteger(t)) {
      llvm::Value* g = b.CreateMaskedGather(vecOf(whole), wide(b, p), l->getAlign(), lanes(b));
      return b.CreateBitCast(g, vecOf(t), l->getName() + ".wide");
    }
    std::vector<llvm::Value*> parts;
    for (unsigned k = 0; k < vf_; ++k) {
      llvm::Value* at = laneAddress(b, p, k);
      if (mask_)
        parts.push_back(
            b.CreateMaskedLoad(t, at, l->getAlign(), laneMask(b, k, vectorElements(t))));
      else
        parts.push_back(b.CreateAlignedLoad(t, at, l->getAlign()));
    }
    return concatLanes(b, parts, l->getName() + ".wide");
  }

  // The store of an OpenCL vector whose lanes' vectors are not consecutive, or all at one address:
  // each lane's vector stored at its address in lane order (the scalar order, so the last lane's
  // is the one left where addresses coincide), masked by its lane's bit in a predicated block;
  // an int- or long-sized one as one scatter of integers (ordered the same way).
  void storeLaneVectors(llvm::IRBuilder<>& b, llvm::StoreInst* st) {
    llvm::Value* v = st->getValueOperand();
    llvm::Value* p = st->getPointerOperand();
    llvm::Type* t = v->getType();
    const unsigned n = vectorElements(t);
    ++stats_->vectorScatters;
    llvm::Value* w = wide(b, v);
    if (llvm::Type* whole = laneInteger(t); whole && varying_.count(p)) {
      b.CreateMaskedScatter(b.CreateBitCast(w, vecOf(whole)), wide(b, p), st->getAlign(), lanes(b));
      return;
    }
    for (unsigned k = 0; k < vf_; ++k) {
      llvm::SmallVector<int, 16> idx;
      for (unsigned e = 0; e < n; ++e) idx.push_back(static_cast<int>(k * n + e));
      llvm::Value* part = b.CreateShuffleVector(w, idx);
      llvm::Value* at = laneAddress(b, p, k);
      if (mask_)
        b.CreateMaskedStore(part, at, st->getAlign(), laneMask(b, k, n));
      else
        b.CreateAlignedStore(part, at, st->getAlign());
    }
  }

  // The integer type a lane's vector of type t is, bit for bit, when the target gathers such
  // integers (4 or 8 bytes), else null.
  llvm::Type* laneInteger(llvm::Type* t) {
    uint64_t bits = dl_.getTypeSizeInBits(t).getFixedSize();
    if (!packed(t) || (bits != 32 && bits != 64)) return nullptr;
    return llvm::IntegerType::get(t->getContext(), static_cast<unsigned>(bits));
  }

  // Lane k's address: lane 0's (the scalar instruction's value) plus k strides when the stride is
  // known, else element k of the widened address.
  llvm::Value* laneAddress(llvm::IRBuilder<>& b, llvm::Value* p, unsigned k) {
    if (!varying_.count(p)) return p;
    if (auto s = stride(p)) {
      if (k == 0) return p;
      return b.CreateGEP(b.getInt8Ty(), p, b.getInt64(static_cast<uint64_t>(*s * k)));
    }
    return b.CreateExtractElement(wide_.lookup(p), k);
  }

  // Lane k's bit of the block's mask, for the n elements of its vector.
  llvm::Value* laneMask(llvm::IRBuilder<>& b, unsigned k, unsigned n) {
    return b.CreateVectorSplat(n, b.CreateExtractElement(mask_, k));
  }

  // The lanes' vectors (all of one type, lane order) as one lane-major vector: pairs concatenated
  // level by level (LLVM's concat_vectors, which x86 does with subvector inserts).
  llvm::Value* concatLanes(llvm::IRBuilder<>& b, std::vector<llvm::Value*> parts,
                           const llvm::Twine& name) {
    auto count = [](llvm::Value* v) {
      return static_cast<unsigned>(
          llvm::cast<llvm::FixedVectorType>(v->getType())->getNumElements());
    };
    const unsigned total = count(parts[0]) * static_cast<unsigned>(parts.size());
    while (parts.size() > 1) {
      if (parts.size() % 2) parts.push_back(llvm::PoisonValue::get(parts[0]->getType()));
      std::vector<llvm::Value*> next;
      for (size_t k = 0; k < parts.size(); k += 2) {
        llvm::SmallVector<int, 64> idx;
        for (unsigned e = 0; e < 2 * count(parts[k]); ++e) idx.push_back(static_cast<int>(e));
        next.push_back(b.CreateShuffleVector(parts[k], parts[k + 1], idx));
      }
      parts = std::move(next);
    }
    if (count(parts[0]) == total) {
      parts[0]->setName(name);
      return parts[0];
    }
    llvm::SmallVector<int, 64> idx;
    for (unsigned e = 0; e < total; ++e) idx.push_back(static_cast<int>(e));
    return b.CreateShuffleVector(parts[0], idx, name);
  }

  void widenStore(llvm::IRBuilder<>& b, llvm::StoreInst* st) {
    llvm::Value* v = st->getValueOperand();
    llvm::Value* p = st->getPointerOperand();
    llvm::Type* t = v->getType();
    if (!varying_.count(p) && !vectorElements(t)) {
      // A varying value to one address: lane by lane, the last lane's store is the one left.
      perLane(b, *st);
      return;
    }
    auto s = stride(p);
    uint64_t size = dl_.getTypeAllocSize(t).getFixedSize();
    if (varying_.count(p) && s && *s == static_cast<int64_t>(size) && packed(t)) {
      ++stats_->contiguous;
      if (mask_)
        b.CreateMaskedStore(wide(b, v), p, st->getAlign(),
                            spreadLanes(b, mask_, vectorElements(t)));
      else
        b.CreateAlignedStore(wide(b, v), p, st->getAlign());
      return;
    }
    if (vectorElements(t)) {
      storeLaneVectors(b, st);
      return;
    }
    ++stats_->scatters;
    b.CreateMaskedScatter(wide(b, v), wide(b, p), st->getAlign(), lanes(b));
  }

  // Element operations on lane-major vectors: lane l's element k is at l * n + k.
  llvm::Value* widenElements(llvm::IRBuilder<>& b, llvm::Instruction& i) {
    llvm::SmallVector<int, 64> idx;
    if (auto* e = llvm::dyn_cast<llvm::ExtractElementInst>(&i)) {
      unsigned n = vectorElements(e->getVectorOperandType());
      unsigned k = static_cast<unsigned>(
          llvm::cast<llvm::ConstantInt>(e->getIndexOperand())->getZExtValue());
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
  llvm::Value* widenReduction(llvm::IRBuilder<>& b, llvm::CallInst* call) {
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

  llvm::Value* widenCall(llvm::IRBuilder<>& b, llvm::CallInst* call) {
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

  llvm::Function& f_;
  unsigned first_;
  unsigned vf_;
  WidenStats* stats_;
  const llvm::DataLayout& dl_;
  std::vector<llvm::BasicBlock*> order_;
  llvm::DenseSet<llvm::Value*> varying_;
  llvm::DenseSet<llvm::Instruction*> perLane_;
  llvm::DenseMap<llvm::Value*, llvm::Value*> wide_;
  LaneStrides strides_{f_, first_, vf_, varying_, dl_};  // asked once varying_ is complete
  std::vector<llvm::BranchInst*> divergent_;
  llvm::DenseMap<llvm::BasicBlock*, Predicated> predicated_;         // by the branching block
  llvm::DenseMap<llvm::BasicBlock*, llvm::BasicBlock*> thenBlocks_;  // predicated -> branching
  llvm::DenseMap<llvm::BasicBlock*, llvm::Value*> masks_;  // branching block -> its code's lanes
  llvm::Value* mask_ = nullptr;  // the lanes of the block being widened (null: all)
  bool effectsComputed_ = false;
  llvm::DenseSet<llvm::BasicBlock*> effects_, reached_;
  llvm::BasicBlock* refusedAt_ = nullptr;  // the block classify() refused the region for
};

}  // namespace

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
    Widener widener(*w, first, vf, &local);
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
    stats->scatters += local.scatters;
    stats->vectorGathers += local.vectorGathers;
    stats->vectorScatters += local.vectorScatters;
    stats->perLane += local.perLane;
    stats->vectorCalls += local.vectorCalls;
    stats->checkedBranches += local.checkedBranches;
    stats->predicatedBranches += local.predicatedBranches;
    stats->cutPaths += local.cutPaths;
  }
  return w;
}

}  // namespace tessera::backends::cpu::jit
