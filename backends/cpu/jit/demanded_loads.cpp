// Pass: vector loads narrowed to the elements the kernel uses, before the region passes.
//
// OpenCV reads a 3-byte pixel with `uchar4 p = vload4(0, src + 3 * x)` and uses p.x, p.y, p.z
// (color_hsv.cl, color_lab.cl, float pixels likewise): the fourth element of the last pixel lies
// past the image. In the scalar kernel LLVM's O3 (VectorCombine) turns the load into loads of the
// used elements, so nothing past the image is read; the widening (widen.cpp) runs before O3 and
// widened the whole <4 x i8> per lane (a gather of 32-bit integers), so the last lane read a byte
// past the buffer and faulted where the buffer ended on a page boundary (OpenCV's cvtColor
// BGR2HSV/BGR2Lab, "kernel RGB2HSV faulted"). Here, for every kernel whatever its widening, a
// vector load whose every use is a constant-index extract or a shuffle becomes loads of the used
// elements only, one per run of consecutive used elements (a run of n > 1 elements is one
// <n x T> load, so the three of a pixel are one <3 x T>, which the widening loads for all lanes as
// one contiguous vector); the unused elements are never read, by any path. Volatile and atomic
// loads are left whole, and so are loads aligned to their size (a vector pointer's element: its
// unused elements share an aligned block with the used ones, which a read cannot cross).
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <vector>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

// The elements of `l` its users read, or false when a use is not an extract or shuffle.
bool demandedElements(llvm::LoadInst* l, unsigned n, std::vector<bool>* used) {
  used->assign(n, false);
  for (llvm::User* u : l->users()) {
    if (auto* e = llvm::dyn_cast<llvm::ExtractElementInst>(u)) {
      auto* c = llvm::dyn_cast<llvm::ConstantInt>(e->getIndexOperand());
      if (c == nullptr) return false;
      if (c->getValue().ult(n)) (*used)[c->getZExtValue()] = true;
      continue;
    }
    if (auto* s = llvm::dyn_cast<llvm::ShuffleVectorInst>(u)) {
      for (int m : s->getShuffleMask()) {
        if (m < 0) continue;
        unsigned k = static_cast<unsigned>(m);
        if (s->getOperand(0) == l && k < n) (*used)[k] = true;
        if (s->getOperand(1) == l && k >= n && k < 2 * n) (*used)[k - n] = true;
      }
      continue;
    }
    return false;
  }
  return true;
}

void narrow(llvm::LoadInst* l, const std::vector<bool>& used) {
  auto* vt = llvm::cast<llvm::FixedVectorType>(l->getType());
  llvm::Type* et = vt->getElementType();
  const unsigned n = static_cast<unsigned>(vt->getNumElements());
  const llvm::DataLayout& dl = l->getModule()->getDataLayout();
  const uint64_t elementBytes = dl.getTypeStoreSize(et).getFixedSize();
  llvm::IRBuilder<> b(l);
  llvm::Value* p = l->getPointerOperand();
  std::vector<llvm::Value*> element(n, nullptr);
  for (unsigned a = 0; a < n;) {
    if (!used[a]) {
      ++a;
      continue;
    }
    unsigned e = a;
    while (e + 1 < n && used[e + 1]) ++e;
    const unsigned len = e - a + 1;
    llvm::Value* at = a == 0 ? p : b.CreateConstGEP1_64(et, p, a);
    const llvm::Align align = llvm::commonAlignment(l->getAlign(), a * elementBytes);
    llvm::Type* rt = len == 1 ? et : llvm::FixedVectorType::get(et, len);
    llvm::LoadInst* run = b.CreateAlignedLoad(rt, at, align, l->getName() + ".used");
    run->copyMetadata(*l, {llvm::LLVMContext::MD_alias_scope, llvm::LLVMContext::MD_noalias});
    for (unsigned k = a; k <= e; ++k)
      element[k] = len == 1 ? static_cast<llvm::Value*>(run) : b.CreateExtractElement(run, k - a);
    a = e + 1;
  }
  for (llvm::User* u : llvm::to_vector(l->users())) {
    if (auto* x = llvm::dyn_cast<llvm::ExtractElementInst>(u)) {
      uint64_t k = llvm::cast<llvm::ConstantInt>(x->getIndexOperand())->getZExtValue();
      x->replaceAllUsesWith(k < n ? element[k] : llvm::PoisonValue::get(et));
      x->eraseFromParent();
    }
  }
  if (!l->use_empty()) {
    // For the shuffles: the whole vector again, the used elements in place, the others poison
    // (nothing reads them).
    llvm::Value* whole = llvm::PoisonValue::get(vt);
    for (unsigned k = 0; k < n; ++k)
      if (element[k]) whole = b.CreateInsertElement(whole, element[k], k);
    l->replaceAllUsesWith(whole);
  }
  l->eraseFromParent();
}

}  // namespace

void narrowVectorLoads(llvm::Function& f) {
  std::vector<std::pair<llvm::LoadInst*, std::vector<bool>>> work;
  for (llvm::BasicBlock& bb : f)
    for (llvm::Instruction& i : bb) {
      auto* l = llvm::dyn_cast<llvm::LoadInst>(&i);
      if (l == nullptr || !l->isSimple()) continue;
      auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(l->getType());
      if (vt == nullptr || l->use_empty()) continue;
      llvm::Type* et = vt->getElementType();
      if (!et->isIntegerTy() && !et->isFloatingPointTy()) continue;
      // Elements that are whole bytes (not i1), so that element k lies at k * its size.
      const llvm::DataLayout& dl = f.getParent()->getDataLayout();
      if (dl.getTypeSizeInBits(et).getFixedSize() != 8 * dl.getTypeStoreSize(et).getFixedSize())
        continue;
      // A load aligned to its size (a float4 or uchar3 pointer's element) lies in one aligned
      // block with the elements used: it cannot reach another page or past an allocation's
      // end where they do not, and kept whole its lanes stay one contiguous vector when widened.
      // vloadn's alignment is its element's, which a vector may cross.
      if (l->getAlign().value() >= dl.getTypeStoreSize(vt).getFixedSize()) continue;
      std::vector<bool> used;
      const unsigned n = static_cast<unsigned>(vt->getNumElements());
      if (!demandedElements(l, n, &used)) continue;
      bool all = true, any = false;
      for (bool u : used) all &= u, any |= u;
      if (all || !any) continue;
      work.emplace_back(l, std::move(used));
    }
  for (auto& [l, used] : work) narrow(l, used);
}

}  // namespace tessera::backends::cpu::jit
