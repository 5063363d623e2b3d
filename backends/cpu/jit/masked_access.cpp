// Pass: masked loads and stores run as plain ones, and masked gathers and scatters with a
// constant mask, when every lane is on. The widening predicates a branch that differs between the
// lanes of a chunk (widen.cpp): the block runs for the chunk under a mask, and its consecutive
// accesses become llvm.masked.load / llvm.masked.store. x86 before AVX-512 masks only 32- and
// 64-bit elements (vmaskmov), and LLVM lowers a masked access of bytes or halves one element at a
// time, each behind a branch of its own: OpenCV's morphology on uchar4 pixels, whose tile reads
// sit under an edge check, ran 11 times slower widened than not (1450 against 130 ms, 68 masked
// loads of 64 bytes a chunk). AMD's masked stores are slow at any width. Yet the mask is all on in
// every chunk but those at an edge, and a masked access whose mask is all on is the plain access
// (LangRef: "the result of this operation is equivalent to a regular vector load instruction if
// all the mask bits are set"). So each masked access is versioned: `if (all lanes on) plain else
// masked`, the test on the lanes the mask spreads (one `vector.reduce.and` shared by every access
// of the block under the same mask once CSE'd). Gathers and scatters keep their addresses; their
// all-on copy has a constant mask, which x86 without byte gathers or any scatter (AVX2) runs
// without a branch per element.
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <vector>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

// The mask a spread mask repeats: the widening's spreadLanes turns a chunk's <VF x i1> into one
// bit per element by a shuffle that names every lane of it; all bits of the spread are on exactly
// when all of the source's are. Otherwise the mask itself.
llvm::Value* maskSource(llvm::Value* mask) {
  auto* shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(mask);
  if (shuffle == nullptr) return mask;
  auto* source = llvm::dyn_cast<llvm::FixedVectorType>(shuffle->getOperand(0)->getType());
  if (source == nullptr) return mask;
  std::vector<bool> named(source->getNumElements(), false);
  for (int e : shuffle->getShuffleMask()) {
    if (e < 0 || e >= static_cast<int>(named.size())) return mask;  // undefined or the 2nd operand
    named[e] = true;
  }
  for (bool n : named)
    if (!n) return mask;
  return shuffle->getOperand(0);
}

}  // namespace

unsigned versionMaskedAccesses(llvm::Function& f) {
  std::vector<llvm::IntrinsicInst*> accesses;
  for (llvm::BasicBlock& bb : f)
    for (llvm::Instruction& i : bb)
      if (auto* ii = llvm::dyn_cast<llvm::IntrinsicInst>(&i)) switch (ii->getIntrinsicID()) {
          case llvm::Intrinsic::masked_load:
          case llvm::Intrinsic::masked_store:
          case llvm::Intrinsic::masked_gather:
          case llvm::Intrinsic::masked_scatter:
            accesses.push_back(ii);
            break;
          default:
            break;
        }
  unsigned versioned = 0;
  for (llvm::IntrinsicInst* access : accesses) {
    const llvm::Intrinsic::ID id = access->getIntrinsicID();
    // load/gather(ptr, align, mask, passthru); store/scatter(value, ptr, align, mask)
    const bool reads = id == llvm::Intrinsic::masked_load || id == llvm::Intrinsic::masked_gather;
    const unsigned maskOperand = reads ? 2 : 3;
    llvm::Value* mask = access->getArgOperand(maskOperand);
    if (llvm::isa<llvm::Constant>(mask)) continue;  // LLVM folds an all-on or all-off constant
    ++versioned;
    llvm::IRBuilder<> b(access);
    llvm::Value* allOn = b.CreateIntrinsic(llvm::Intrinsic::vector_reduce_and,
                                           {maskSource(mask)->getType()}, {maskSource(mask)});
    llvm::Instruction* thenTerm = nullptr;
    llvm::Instruction* elseTerm = nullptr;
    llvm::SplitBlockAndInsertIfThenElse(allOn, access, &thenTerm, &elseTerm);
    llvm::BasicBlock* join = access->getParent();
    llvm::Instruction* all;
    if (id == llvm::Intrinsic::masked_load || id == llvm::Intrinsic::masked_store) {
      // The plain access.
      b.SetInsertPoint(thenTerm);
      llvm::Value* ptr = access->getArgOperand(reads ? 0 : 1);
      llvm::Align align(
          llvm::cast<llvm::ConstantInt>(access->getArgOperand(reads ? 1 : 2))->getZExtValue());
      if (reads)
        all = b.CreateAlignedLoad(access->getType(), ptr, align, access->getName() + ".all");
      else
        all = b.CreateAlignedStore(access->getArgOperand(0), ptr, align);
      all->copyMetadata(*access);
    } else {
      // The same gather or scatter with its mask a constant: x86 has no byte or half gathers
      // and no scatters before AVX-512, and LLVM lowers an all-on one element by element
      // without the branch per element a variable mask takes.
      all = access->clone();
      all->setOperand(maskOperand, llvm::Constant::getAllOnesValue(mask->getType()));
      all->insertBefore(thenTerm);
      if (reads) all->setName(access->getName() + ".all");
    }
    access->moveBefore(elseTerm);
    if (reads) {
      b.SetInsertPoint(&join->front());
      llvm::PHINode* phi = b.CreatePHI(access->getType(), 2, access->getName() + ".v");
      access->replaceAllUsesWith(phi);
      phi->addIncoming(all, thenTerm->getParent());
      phi->addIncoming(access, elseTerm->getParent());
    }
  }
  return versioned;
}

}  // namespace tessera::backends::cpu::jit
