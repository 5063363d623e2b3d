// Keeping a sum's constant where the optimizer put it.
//
// LLVM's Reassociate ranks a sum's operands and adds the lowest-ranked first: constants and values
// defined early, then values computed late, so `a + K + f(b, c, d)` becomes `(a + K) + f`, with
// `a + K` ready before f. x86's instruction selection undoes that for a constant splat:
// DAGCombiner rewrites `(x + C) + y` as `(x + y) + C` to fold C into the instruction as a
// broadcast memory operand, which puts the constant's add on the critical path after y. In a
// chain of such steps (hashcat's MD5: b' = b + rotl(a + K + F(b, c, d), s), 64 steps per hash,
// each loop iteration of the kernel one hash per lane) every step waits one more cycle: llvm-mca's
// Skylake model of the MD5 loop 101,694 cycles against 60,846 with the constant add first.
//
// The pass hides such a constant from the combiner: the splat is loaded from a private constant
// global (the broadcast load the backend would have used anyway), so the sum keeps the order
// Reassociate gave it. Only integer vector adds whose one user is another add of the same type
// (the pattern DAGCombiner rewrites), after the O3 pipeline (which would fold the load back).
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <map>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

// The splat value of an integer vector constant of at most 64-bit lanes (the key of its global
// below), or null.
llvm::ConstantInt* splatOf(llvm::Value* v) {
  auto* c = llvm::dyn_cast<llvm::Constant>(v);
  if (c == nullptr || !llvm::isa<llvm::FixedVectorType>(c->getType())) return nullptr;
  auto* k = llvm::dyn_cast_or_null<llvm::ConstantInt>(c->getSplatValue());
  return k != nullptr && k->getBitWidth() <= 64 ? k : nullptr;
}

bool isAdd(const llvm::Value* v) {
  const auto* b = llvm::dyn_cast<llvm::BinaryOperator>(v);
  return b != nullptr && b->getOpcode() == llvm::Instruction::Add;
}

}  // namespace

unsigned keepSumConstantsFirst(llvm::Module& m) {
  std::map<std::pair<llvm::Type*, uint64_t>, llvm::GlobalVariable*> scalars;
  auto scalarGlobal = [&](llvm::ConstantInt* k) {
    llvm::GlobalVariable*& g = scalars[{k->getType(), k->getZExtValue()}];
    if (g == nullptr) {
      g = new llvm::GlobalVariable(m, k->getType(), /*isConstant=*/true,
                                   llvm::GlobalValue::PrivateLinkage, k, "__tessera_sum_constant");
      g->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    }
    return g;
  };
  unsigned rewritten = 0;
  for (llvm::Function& f : m) {
    for (llvm::BasicBlock& bb : f) {
      for (llvm::Instruction& i : bb) {
        if (!isAdd(&i) || !i.getType()->isIntOrIntVectorTy() || !i.hasOneUse()) continue;
        auto* user = llvm::dyn_cast<llvm::Instruction>(*i.user_begin());
        if (!isAdd(user) || user->getParent() != &bb) continue;
        for (unsigned op = 0; op < 2; ++op) {
          llvm::ConstantInt* k = splatOf(i.getOperand(op));
          // A splat of 0 or one whose other operand is constant too folds away anyway.
          if (k == nullptr || k->isZero() || llvm::isa<llvm::Constant>(i.getOperand(1 - op)))
            continue;
          auto* type = llvm::cast<llvm::FixedVectorType>(i.getType());
          llvm::IRBuilder<> b(&i);
          llvm::Value* scalar = b.CreateLoad(k->getType(), scalarGlobal(k));
          i.setOperand(op, b.CreateVectorSplat(type->getNumElements(), scalar));
          ++rewritten;
          break;
        }
      }
    }
  }
  return rewritten;
}

}  // namespace tessera::backends::cpu::jit
