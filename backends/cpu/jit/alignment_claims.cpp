// Pass: the alignment a memory access claims is one the memory it reaches has. SPIR-V's "Aligned"
// memory operand is the producer's promise ("the memory operand is guaranteed to be aligned to
// Literal"), and LLVM takes an `align` on a load, a store or a memcpy as a fact: x86 code
// generation then uses instructions that fault on a smaller alignment (vmovaps for a 32- or
// 64-byte vector; a general-protection fault, reported as SIGSEGV at address 0). Producers break
// the promise for memory whose placement the driver decides: AdaptiveCpp's SSCP kernels declare a
// private `vec<float, 16>` with `Alignment 8` and copy into it with `Aligned 64`, which killed the
// context on a GPU-friendly claim a GPU never checks. So, before anything optimizes on the claims,
// for memory the module itself lays out (private variables, module-scope variables) and the
// argument buffer's by-value slots:
//  - a private or module-scope variable gets the largest alignment any access at a multiple of
//    that alignment from its start claims (a layout choice, which changes no value);
//  - an access whose object is one of those, or a by-value argument (its slot in the argument
//    buffer is 8-byte aligned at most), claims no more than what is then known of its address.
// Accesses through pointers the application passed keep their claims: the buffer is the
// application's, and the claim its promise.
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>
#include <llvm/Transforms/Utils/Local.h>

#include <algorithm>
#include <vector>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

// The largest alignment raised for a variable: beyond it a claim is not worth stack realignment.
constexpr uint64_t kMaxRaise = 256;

// Each access's pointer operands with the alignment claimed for them.
template <typename Visit>
void forEachClaim(llvm::Instruction& i, Visit visit) {
  if (auto* l = llvm::dyn_cast<llvm::LoadInst>(&i)) {
    visit(l->getPointerOperand(), l->getAlign(), [l](llvm::Align a) { l->setAlignment(a); });
  } else if (auto* s = llvm::dyn_cast<llvm::StoreInst>(&i)) {
    visit(s->getPointerOperand(), s->getAlign(), [s](llvm::Align a) { s->setAlignment(a); });
  } else if (auto* t = llvm::dyn_cast<llvm::MemTransferInst>(&i)) {
    if (auto a = t->getDestAlign())
      visit(t->getRawDest(), *a, [t](llvm::Align n) { t->setDestAlignment(n); });
    if (auto a = t->getSourceAlign())
      visit(t->getRawSource(), *a, [t](llvm::Align n) { t->setSourceAlignment(n); });
  } else if (auto* m = llvm::dyn_cast<llvm::MemSetInst>(&i)) {
    if (auto a = m->getDestAlign())
      visit(m->getRawDest(), *a, [m](llvm::Align n) { m->setDestAlignment(n); });
  }
}

// The alignment a variable needs for the claims of accesses at constant offsets from its start
// (through casts and constant-offset GEPs, instructions or constant expressions).
uint64_t claimedAlignment(llvm::Value* object, const llvm::DataLayout& dl) {
  uint64_t need = 1;
  std::vector<std::pair<llvm::Value*, int64_t>> work{{object, 0}};
  std::vector<llvm::Value*> seen;
  while (!work.empty()) {
    llvm::Value* v = work.back().first;
    const int64_t offset = work.back().second;  // (named, not bound: lambdas below use them)
    work.pop_back();
    if (std::find(seen.begin(), seen.end(), v) != seen.end()) continue;
    seen.push_back(v);
    for (llvm::User* u : v->users()) {
      if (auto* gep = llvm::dyn_cast<llvm::GEPOperator>(u)) {
        llvm::APInt delta(dl.getIndexTypeSizeInBits(gep->getType()), 0);
        if (gep->getPointerOperand() == v && gep->accumulateConstantOffset(dl, delta))
          work.push_back({gep, offset + delta.getSExtValue()});
        continue;
      }
      if (llvm::isa<llvm::BitCastOperator>(u) || llvm::isa<llvm::AddrSpaceCastOperator>(u)) {
        work.push_back({u, offset});
        continue;
      }
      if (auto* i = llvm::dyn_cast<llvm::Instruction>(u))
        forEachClaim(*i, [&](llvm::Value* ptr, llvm::Align a, auto) {
          if (ptr == v && offset % int64_t(a.value()) == 0)
            need = std::max(need, std::min<uint64_t>(a.value(), kMaxRaise));
        });
    }
  }
  return need;
}

bool laidOutHere(const llvm::Value* object) {
  if (llvm::isa<llvm::AllocaInst>(object)) return true;
  if (auto* g = llvm::dyn_cast<llvm::GlobalVariable>(object)) return !g->isDeclaration();
  if (auto* a = llvm::dyn_cast<llvm::Argument>(object)) return a->hasByValAttr();
  return false;
}

}  // namespace

void honourAlignmentClaims(llvm::Module& m) {
  const llvm::DataLayout& dl = m.getDataLayout();
  for (llvm::GlobalVariable& g : m.globals()) {
    if (g.isDeclaration()) continue;
    const uint64_t need = claimedAlignment(&g, dl);
    if (need > g.getPointerAlignment(dl).value()) g.setAlignment(llvm::Align(need));
  }
  for (llvm::Function& f : m) {
    if (f.isDeclaration()) continue;
    for (llvm::Instruction& i : llvm::instructions(f))
      if (auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i)) {
        const uint64_t need = claimedAlignment(a, dl);
        if (need > a->getAlign().value()) a->setAlignment(llvm::Align(need));
      }
    for (llvm::Instruction& i : llvm::instructions(f))
      forEachClaim(i, [&](llvm::Value* ptr, llvm::Align claimed, auto set) {
        if (claimed.value() == 1 || !laidOutHere(llvm::getUnderlyingObject(ptr))) return;
        const llvm::Align known = llvm::getKnownAlignment(ptr, dl, &i);
        if (known < claimed) set(known);
      });
  }
}

}  // namespace tessera::backends::cpu::jit
