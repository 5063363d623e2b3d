// Pass: a by-value struct argument the kernel may write gets a private copy made on entry. The
// work-group function hands every work-item a pointer into the launch's one argument buffer, so
// writes would otherwise be seen by the other work-items (and groups); a copy in an alloca of the
// kernel is private to the work-item and, like any kernel alloca, kept per work-item across
// barriers by formRegions. Arguments that are only read keep pointing at the shared buffer.
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

#include <llvm/ADT/SmallPtrSet.h>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

// True unless every use of `p` (through GEPs and casts) only loads from it.
bool mayBeWritten(llvm::Value* p) {
  std::vector<llvm::Value*> work{p};
  llvm::SmallPtrSet<llvm::Value*, 16> seen{p};  // each user once (a GEP may use p twice)
  while (!work.empty()) {
    llvm::Value* v = work.back();
    work.pop_back();
    for (llvm::User* u : v->users()) {
      if (llvm::isa<llvm::LoadInst>(u)) continue;
      if (llvm::isa<llvm::GetElementPtrInst>(u) || llvm::isa<llvm::CastInst>(u)) {
        if (seen.insert(u).second) work.push_back(u);
        continue;
      }
      if (auto* copy = llvm::dyn_cast<llvm::MemTransferInst>(u);
          copy && copy->getSource() == v && copy->getDest() != v) {
        continue;
      }
      return true;  // stores, calls, pointers that escape: assume written
    }
  }
  return false;
}

}  // namespace

void copyWrittenByValArgs(llvm::Function& kernel) {
  const llvm::DataLayout& dl = kernel.getParent()->getDataLayout();
  llvm::IRBuilder<> b(&kernel.getEntryBlock(), kernel.getEntryBlock().getFirstInsertionPt());
  for (llvm::Argument& a : kernel.args()) {
    if (!a.hasByValAttr() || !mayBeWritten(&a)) continue;
    llvm::Type* t = a.getParamByValType();
    llvm::Align align = std::max(a.getParamAlign().valueOrOne(), dl.getABITypeAlign(t));
    llvm::AllocaInst* copy = b.CreateAlloca(t, dl.getAllocaAddrSpace(), nullptr, a.getName());
    copy->setAlignment(align);
    llvm::Value* replacement = b.CreatePointerBitCastOrAddrSpaceCast(copy, a.getType());
    a.replaceAllUsesWith(replacement);
    b.CreateMemCpy(copy, align, &a, align, dl.getTypeAllocSize(t).getFixedSize());
  }
}

}  // namespace tessera::backends::cpu::jit
