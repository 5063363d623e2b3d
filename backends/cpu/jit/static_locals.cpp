// Pass: static __local variables (module-scope Workgroup storage) become offsets in the local
// memory each work-group gets from the launcher, since one global would be shared by all groups.
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include <llvm/ADT/SmallPtrSet.h>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

constexpr unsigned kLocalAddressSpace = 3;

// A walk over the constant's operands, each constant once: constant expressions share operands,
// and a recursive walk without that took exponential time (and stack) on a deep, shared one.
bool usesGlobal(const llvm::Constant* c, const llvm::GlobalVariable* g) {
  std::vector<const llvm::Constant*> work{c};
  llvm::SmallPtrSet<const llvm::Constant*, 16> seen{c};
  while (!work.empty()) {
    const llvm::Constant* k = work.back();
    work.pop_back();
    if (k == g) return true;
    for (const llvm::Use& op : k->operands())
      if (auto* oc = llvm::dyn_cast<llvm::Constant>(op.get()); oc && seen.insert(oc).second)
        work.push_back(oc);
  }
  return false;
}

// Constant expressions over `g` used in `f` become instructions, so the uses can be rewritten.
void expandConstantExprs(llvm::Function& f, const llvm::GlobalVariable* g) {
  std::vector<llvm::Instruction*> work;
  for (llvm::BasicBlock& bb : f) {
    for (llvm::Instruction& i : bb) work.push_back(&i);
  }
  while (!work.empty()) {
    llvm::Instruction* inst = work.back();
    work.pop_back();
    for (unsigned n = 0; n < inst->getNumOperands(); ++n) {
      auto* ce = llvm::dyn_cast<llvm::ConstantExpr>(inst->getOperand(n));
      if (ce == nullptr || !usesGlobal(ce, g)) continue;
      llvm::Instruction* at = inst;
      if (auto* phi = llvm::dyn_cast<llvm::PHINode>(inst)) {
        at = phi->getIncomingBlock(n)->getTerminator();
      }
      llvm::Instruction* expanded = ce->getAsInstruction(at);
      inst->setOperand(n, expanded);
      work.push_back(expanded);
    }
  }
}

}  // namespace

StaticLocalLayout layoutStaticLocals(llvm::Module& m) {
  StaticLocalLayout layout;
  const llvm::DataLayout& dl = m.getDataLayout();
  for (llvm::GlobalVariable& g : m.globals()) {
    if (g.getAddressSpace() != kLocalAddressSpace) continue;
    // At least the type's ABI alignment (a long16 inside a struct: 128; the translator's own
    // alignment may be less), at most what the launcher aligns local memory to.
    uint64_t align = std::max<uint64_t>(
        {16, g.getAlign().valueOrOne().value(), dl.getABITypeAlign(g.getValueType()).value()});
    align = std::min<uint64_t>(align, kMaxTypeAlignment);
    layout.bytes = (layout.bytes + align - 1) / align * align;
    layout.offsets[&g] = layout.bytes;
    layout.bytes += dl.getTypeAllocSize(g.getValueType());
  }
  return layout;
}

void replaceStaticLocals(llvm::Function& f, const StaticLocalLayout& layout, llvm::Value* localMem,
                         llvm::Instruction* at) {
  for (auto [global, offset] : layout.offsets) {
    auto* g = const_cast<llvm::GlobalVariable*>(global);
    expandConstantExprs(f, g);
    std::vector<llvm::Use*> uses;
    for (llvm::Use& use : g->uses()) {
      auto* user = llvm::dyn_cast<llvm::Instruction>(use.getUser());
      if (user != nullptr && user->getFunction() == &f) uses.push_back(&use);
    }
    if (uses.empty()) continue;
    llvm::IRBuilder<> b(at);
    llvm::Value* p = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), localMem, offset);
    p = b.CreateAddrSpaceCast(p, g->getType(), g->getName() + ".wg");
    for (llvm::Use* use : uses) use->set(p);
  }
}

}  // namespace tessera::backends::cpu::jit
