// Half-precision min/max computed in float, after O3.
//
// LLVM 15's x86 backend cannot select minnum/maxnum (or minimum/maximum) of half vectors on a
// host without AVX-512 FP16: the DAG lowers them to X86ISD::FMAX/FMIN of v16f16 or v32f16, for
// which no pattern exists ("LLVM ERROR: Cannot select", which ends the process). OpenCL C's
// fmax/fmin/clamp/max on halves and sub-group or work-group min/max reductions of halves all make
// them once the widening runs them across lanes. Before O3 a float form does not survive:
// InstCombine narrows fptrunc(maxnum(fpext x, fpext y)) back to half. So after O3 every such call
// on halves (scalar or vector) becomes the same intrinsic on float between fpext and fptrunc:
// exact, since min and max return one of their operands and every half is a float.
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include <vector>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

bool isMinMax(llvm::Intrinsic::ID id) {
  return id == llvm::Intrinsic::minnum || id == llvm::Intrinsic::maxnum ||
         id == llvm::Intrinsic::minimum || id == llvm::Intrinsic::maximum;
}

}  // namespace

void computeHalfMinMaxInFloat(llvm::Module& m) {
  std::vector<llvm::IntrinsicInst*> calls;
  for (llvm::Function& f : m)
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb)
        if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&i))
          if (isMinMax(call->getIntrinsicID()) && call->getType()->getScalarType()->isHalfTy())
            calls.push_back(call);
  for (llvm::IntrinsicInst* call : calls) {
    llvm::IRBuilder<> b(call);
    llvm::Type* half = call->getType();
    llvm::Type* wide = b.getFloatTy();
    if (auto* v = llvm::dyn_cast<llvm::VectorType>(half))
      wide = llvm::VectorType::get(wide, v->getElementCount());
    llvm::Value* r = b.CreateBinaryIntrinsic(call->getIntrinsicID(),
                                             b.CreateFPExt(call->getArgOperand(0), wide),
                                             b.CreateFPExt(call->getArgOperand(1), wide));
    llvm::Value* narrow = b.CreateFPTrunc(r, half);
    narrow->takeName(call);
    call->replaceAllUsesWith(narrow);
    call->eraseFromParent();
  }
}

}  // namespace tessera::backends::cpu::jit
