// Pass: element-by-element arithmetic on OpenCL vectors made one vector operation again.
//
// Code written for GPUs often spells vector arithmetic out per element: CLBlast's
// MultiplyAddVector (unless USE_VECTOR_MAD) is
//     c.x = mad(a.x, b, c.x); c.y = mad(a.y, b, c.y); c.z = ...; c.w = ...;
// which reaches the JIT as four extracts from `a` and `c`, four scalar fmuladds and a chain of
// inserts rebuilding `c`. The widening then had two bad choices: widened lane-major (widen.cpp),
// every extract of a float4 from eight work-items' float4s is a shuffle of four registers and
// every insert another, a dozen shuffles per element-wise step; kept per element (a vector phi
// read element by element is split), the accumulators are 4 x the registers. CLBlast's Xgemm on
// an AVX2 host spent most of its time in those shuffles and in spills (about 12 GFLOP/s).
//
// Here, before regions and the widening: a vector built by inserting, at every index i of its
// type, the i-th of n instructions of one kind (the same binary or unary operator, cast, compare,
// select or element-wise intrinsic) whose operands are, position by position, the i-th element
// of one vector (an extract at index i, or at any constant indices: then a shuffle), one value
// for all i (a splat), constants, or again n such instructions, becomes that instruction on
// vectors. The result is the same per element (the same operations on the same values, flags
// kept only where all n had them); integer division and remainder are left alone (widen.cpp
// bounds how many of those a widened block may hold). The scalar instructions are left to die.
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/Local.h>

#include <vector>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

constexpr unsigned kMaxDepth = 8;

bool sameKind(const llvm::Instruction* a, const llvm::Instruction* b) {
  if (a->getOpcode() != b->getOpcode() || a->getType() != b->getType() ||
      a->getNumOperands() != b->getNumOperands())
    return false;
  // (Operands of one type position by position: compares and casts of different source types
  // would otherwise make a column of mixed types.)
  for (unsigned k = 0; k < a->getNumOperands(); ++k)
    if (a->getOperand(k)->getType() != b->getOperand(k)->getType()) return false;
  if (auto* ca = llvm::dyn_cast<llvm::CmpInst>(a))
    return ca->getPredicate() == llvm::cast<llvm::CmpInst>(b)->getPredicate();
  if (auto* ia = llvm::dyn_cast<llvm::IntrinsicInst>(a)) {
    auto* ib = llvm::dyn_cast<llvm::IntrinsicInst>(b);
    return ib && ia->getIntrinsicID() == ib->getIntrinsicID();
  }
  return true;
}

// Whether `i` is an instruction of a kind this pass makes a vector one of.
bool elementwise(const llvm::Instruction* i) {
  if (i->isIntDivRem()) return false;
  if (llvm::isa<llvm::BinaryOperator>(i) || llvm::isa<llvm::UnaryOperator>(i) ||
      llvm::isa<llvm::CastInst>(i) || llvm::isa<llvm::CmpInst>(i) || llvm::isa<llvm::SelectInst>(i))
    return !i->getType()->isVectorTy() && !i->getOperand(0)->getType()->isVectorTy();
  // Intrinsics overloaded on one type, their result's and every argument's (fma, fmuladd, fabs,
  // minnum, smax, sqrt, ...).
  auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(i);
  if (call == nullptr || call->getType()->isVectorTy() ||
      !llvm::isTriviallyVectorizable(call->getIntrinsicID()))
    return false;
  for (unsigned k = 0; k < call->arg_size(); ++k)
    if (call->getArgOperand(k)->getType() != call->getType() ||
        llvm::isVectorIntrinsicWithScalarOpAtArg(call->getIntrinsicID(), k))
      return false;
  return true;
}

class Recombiner {
 public:
  explicit Recombiner(llvm::Instruction* at)
      : b_(at->getContext(), llvm::ConstantFolder(),
           llvm::IRBuilderCallbackInserter([this](llvm::Instruction* i) { made_.push_back(i); })),
        block_(at->getParent()) {
    b_.SetInsertPoint(at);
  }

  // Erases what vectorOf built (when it failed).
  void discard() {
    for (auto i = made_.rbegin(); i != made_.rend(); ++i) (*i)->eraseFromParent();
    made_.clear();
  }

  // The vector whose element i is lanes[i], or null (nothing built then is used).
  llvm::Value* vectorOf(const std::vector<llvm::Value*>& lanes, unsigned depth) {
    const unsigned n = static_cast<unsigned>(lanes.size());
    if (llvm::all_of(lanes, [&](llvm::Value* v) { return v == lanes[0]; }))
      return llvm::isa<llvm::Constant>(lanes[0]) || depth > 0 ? b_.CreateVectorSplat(n, lanes[0])
                                                              : nullptr;
    if (llvm::all_of(lanes, [](llvm::Value* v) { return llvm::isa<llvm::Constant>(v); })) {
      std::vector<llvm::Constant*> c;
      for (llvm::Value* v : lanes) c.push_back(llvm::cast<llvm::Constant>(v));
      return llvm::ConstantVector::get(c);
    }
    if (llvm::Value* v = fromExtracts(lanes)) return v;
    if (depth >= kMaxDepth) return nullptr;
    auto* first = llvm::dyn_cast<llvm::Instruction>(lanes[0]);
    if (first == nullptr || !elementwise(first)) return nullptr;
    for (llvm::Value* v : lanes) {
      auto* i = llvm::dyn_cast<llvm::Instruction>(v);
      // Each lane's instruction used once (by the vector being rebuilt), so nothing else keeps
      // it, and in the block the vector is rebuilt in, so the vector one runs where they did.
      if (i == nullptr || !sameKind(first, i) || !i->hasOneUse() || i->getParent() != block_)
        return nullptr;
    }
    const unsigned operands =
        llvm::isa<llvm::CallInst>(first)
            ? static_cast<unsigned>(llvm::cast<llvm::CallInst>(first)->arg_size())
            : first->getNumOperands();
    std::vector<llvm::Value*> vectors;
    for (unsigned k = 0; k < operands; ++k) {
      std::vector<llvm::Value*> column;
      for (llvm::Value* v : lanes)
        column.push_back(llvm::cast<llvm::Instruction>(v)->getOperand(k));
      llvm::Value* vec = vectorOf(column, depth + 1);
      if (vec == nullptr) return nullptr;
      vectors.push_back(vec);
    }
    llvm::Value* made = build(first, vectors, n);
    if (auto* i = llvm::dyn_cast<llvm::Instruction>(made)) {
      i->copyIRFlags(first);
      for (llvm::Value* v : lanes) i->andIRFlags(v);
    }
    return made;
  }

 private:
  // Every lane an extract of one vector at a constant index: that vector (indices 0..n-1 of a
  // vector of n elements) or a shuffle of it.
  llvm::Value* fromExtracts(const std::vector<llvm::Value*>& lanes) {
    llvm::Value* source = nullptr;
    std::vector<int> mask;
    for (llvm::Value* v : lanes) {
      auto* e = llvm::dyn_cast<llvm::ExtractElementInst>(v);
      auto* k = e ? llvm::dyn_cast<llvm::ConstantInt>(e->getIndexOperand()) : nullptr;
      if (k == nullptr || (source && e->getVectorOperand() != source)) return nullptr;
      source = e->getVectorOperand();
      auto* type = llvm::cast<llvm::FixedVectorType>(source->getType());
      if (k->getZExtValue() >= type->getNumElements()) return nullptr;
      mask.push_back(static_cast<int>(k->getZExtValue()));
    }
    auto* type = llvm::cast<llvm::FixedVectorType>(source->getType());
    bool identity = type->getNumElements() == lanes.size();
    for (unsigned i = 0; i < mask.size(); ++i)
      identity = identity && mask[i] == static_cast<int>(i);
    return identity ? source : b_.CreateShuffleVector(source, mask);
  }

  // `like` on vectors of n elements (constant operands may fold: then a constant).
  llvm::Value* build(llvm::Instruction* like, const std::vector<llvm::Value*>& ops, unsigned n) {
    auto* type = llvm::FixedVectorType::get(like->getType(), n);
    if (auto* bin = llvm::dyn_cast<llvm::BinaryOperator>(like))
      return b_.CreateBinOp(bin->getOpcode(), ops[0], ops[1]);
    if (auto* un = llvm::dyn_cast<llvm::UnaryOperator>(like))
      return b_.CreateUnOp(un->getOpcode(), ops[0]);
    if (auto* cast = llvm::dyn_cast<llvm::CastInst>(like))
      return b_.CreateCast(cast->getOpcode(), ops[0], type);
    if (auto* cmp = llvm::dyn_cast<llvm::CmpInst>(like))
      return b_.CreateCmp(cmp->getPredicate(), ops[0], ops[1]);
    if (llvm::isa<llvm::SelectInst>(like)) return b_.CreateSelect(ops[0], ops[1], ops[2]);
    return b_.CreateIntrinsic(llvm::cast<llvm::IntrinsicInst>(like)->getIntrinsicID(), {type}, ops);
  }

  llvm::IRBuilder<llvm::ConstantFolder, llvm::IRBuilderCallbackInserter> b_;
  llvm::BasicBlock* block_;
  std::vector<llvm::Instruction*> made_;
};

// The elements of the vector `last` completes (the last of a chain of inserts at constant
// indices), when every index is written; else empty.
std::vector<llvm::Value*> insertedElements(llvm::InsertElementInst* last) {
  auto* type = llvm::cast<llvm::FixedVectorType>(last->getType());
  std::vector<llvm::Value*> lanes(type->getNumElements(), nullptr);
  unsigned written = 0;
  for (llvm::Value* v = last; auto* ins = llvm::dyn_cast<llvm::InsertElementInst>(v);
       v = ins->getOperand(0)) {
    auto* k = llvm::dyn_cast<llvm::ConstantInt>(ins->getOperand(2));
    if (k == nullptr || k->getZExtValue() >= lanes.size()) return {};
    if (lanes[k->getZExtValue()] == nullptr) {
      lanes[k->getZExtValue()] = ins->getOperand(1);
      ++written;
    }
    if (written == lanes.size()) return lanes;
    // An insert that feeds another use than the next insert is a vector of its own.
    if (ins != last && !ins->hasOneUse()) return {};
  }
  return {};
}

}  // namespace

unsigned recombineVectorOps(llvm::Function& f) {
  std::vector<llvm::InsertElementInst*> roots;
  for (llvm::BasicBlock& bb : f)
    for (llvm::Instruction& i : bb)
      if (auto* ins = llvm::dyn_cast<llvm::InsertElementInst>(&i)) {
        const bool chained = llvm::any_of(ins->users(), [&](llvm::User* u) {
          auto* next = llvm::dyn_cast<llvm::InsertElementInst>(u);
          return next && next->getOperand(0) == ins;
        });
        if (!chained) roots.push_back(ins);
      }
  unsigned made = 0;
  for (llvm::InsertElementInst* root : roots) {
    std::vector<llvm::Value*> lanes = insertedElements(root);
    if (lanes.empty()) continue;
    // Only instructions: a vector of constants or of one value is InstCombine's to fold.
    if (!llvm::all_of(lanes, [](llvm::Value* v) { return llvm::isa<llvm::Instruction>(v); }))
      continue;
    Recombiner r(root);
    llvm::Value* v = r.vectorOf(lanes, 0);
    // (Lanes that are only extracts, a shuffle: InstCombine's to fold.)
    if (v == nullptr || llvm::isa<llvm::ShuffleVectorInst>(v) || !llvm::isa<llvm::Instruction>(v)) {
      r.discard();
      continue;
    }
    root->replaceAllUsesWith(v);
    llvm::RecursivelyDeleteTriviallyDeadInstructions(root);
    ++made;
  }
  return made;
}

}  // namespace tessera::backends::cpu::jit
