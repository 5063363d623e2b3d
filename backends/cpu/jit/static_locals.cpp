// Pass: static __local variables (module-scope Workgroup storage) become offsets in the local
// memory each work-group gets from the launcher, since one global would be shared by all groups.
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include <llvm/ADT/SmallPtrSet.h>

#include <set>
#include <vector>

#include "backends/cpu/jit/jit_passes.h"
#include "support/checked_math.h"

namespace tessera::backends::cpu::jit {
namespace {

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

namespace {

// Whether `user` (an instruction, or a constant expression over the variable) is used inside one
// of `functions`.
bool usedIn(const llvm::User* user, const std::set<const llvm::Function*>& functions,
            int depth = 0) {
  if (auto* i = llvm::dyn_cast<llvm::Instruction>(user))
    return functions.count(i->getFunction()) != 0;
  if (depth > 32 || !llvm::isa<llvm::Constant>(user)) return false;
  for (const llvm::User* u : user->users())
    if (usedIn(u, functions, depth + 1)) return true;
  return false;
}

// The kernel and every function it calls, directly or through other calls (after inlining usually
// the kernel alone).
std::set<const llvm::Function*> reachableFrom(const llvm::Function& kernel) {
  std::set<const llvm::Function*> seen{&kernel};
  std::vector<const llvm::Function*> work{&kernel};
  while (!work.empty()) {
    const llvm::Function* f = work.back();
    work.pop_back();
    for (const llvm::BasicBlock& bb : *f)
      for (const llvm::Instruction& i : bb)
        if (auto* call = llvm::dyn_cast<llvm::CallBase>(&i))
          if (const llvm::Function* callee = call->getCalledFunction();
              callee && !callee->isDeclaration() && seen.insert(callee).second)
            work.push_back(callee);
  }
  return seen;
}

}  // namespace

StaticLocalLayout layoutStaticLocals(llvm::Module& m, const llvm::Function& kernel) {
  StaticLocalLayout layout;
  const llvm::DataLayout& dl = m.getDataLayout();
  const std::set<const llvm::Function*> reached = reachableFrom(kernel);
  for (llvm::GlobalVariable& g : m.globals()) {
    if (g.getAddressSpace() != kLocalAddressSpace) continue;
    // Only what this kernel reaches: the other kernels' variables would overstate its
    // localMemSize and take memory from every one of its work-groups.
    bool used = false;
    for (const llvm::User* u : g.users()) used = used || usedIn(u, reached);
    if (!used) continue;
    // At least the type's ABI alignment (a long16 inside a struct: 128; the translator's own
    // alignment may be less), at most what the launcher aligns local memory to.
    uint64_t align = std::max<uint64_t>(
        {16, g.getAlign().valueOrOne().value(), dl.getABITypeAlign(g.getValueType()).value()});
    align = std::min<uint64_t>(align, kMaxTypeAlignment);
    uint64_t size = dl.getTypeAllocSize(g.getValueType());
    // Sizes come from the module: a sum past 64 bits is refused like any size past the device's
    // local memory (by the caller, which sees `overflow`).
    if (!support::checkedAlignUp(layout.bytes, align, layout.bytes) ||
        !support::checkedAdd(layout.bytes, size, layout.bytes)) {
      layout.overflow = true;
      return layout;
    }
    layout.offsets[&g] = layout.bytes - size;
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
