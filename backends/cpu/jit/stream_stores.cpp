// Pass: after O3, the widened stores of a work-group function go past the caches (non-temporal
// stores) in launches that write more than the device's caches hold (the launcher's choice:
// WorkGroupContext::streamStores).
//
// A plain store of a cache line the core does not hold first reads the line from memory (a read
// for ownership), so a kernel that streams its output through memory moves half as much again as
// it needs: on a Zen 4 EPYC VM (2 threads), a C copy of 256 MiB took 19.5-23 ms with plain 16-byte
// stores against 8-14 ms with 64-byte non-temporal ones, and a 4096^2 float 5-point stencil 5.4-7.4
// ms against 4.2-5.2 (medians of ten, three processes each; PoCL's copy ran at the faster speed in
// half its processes). Non-temporal stores are only worth it when nothing reads
// the data back from the caches soon: for a launch that writes less than the caches hold, the next
// kernel would find its input in memory instead. So the choice is per launch: each such store
// becomes a branch on the context's field (read once, at the entry) between a non-temporal and a
// plain store. The branches cost build time where there are many such stores (the bench kernels
// built in 1.8-2.0 s against 1.45, most of it an unrolled widened float4 copy of about 1,500
// 16-byte stores); a clone of the whole function for streaming launches, the first version, cost
// more (+0.8-1.0 s in a loaded run).
//
// Which stores: those the widening tagged (kLaneBytesMetadata: unmasked, contiguous lanes, global
// memory) of 16, 32 or 64 bytes; x86 has non-temporal stores of those sizes at an address aligned
// to them, so a store not known aligned also checks its address and stores plainly when it is not.
// Non-temporal stores are ordered weakly against other threads' view, so a kernel with atomics or
// fences (or calls that may write memory, which could hide them) is left alone; a streaming call
// ends with an sfence, so that the launcher's completion (and any later launch) sees every store.
#include <llvm/ADT/Triple.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <algorithm>
#include <vector>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

// The lane bytes of a store that may go past the caches (0: not such a store).
uint64_t streamable(const llvm::StoreInst& st, const llvm::DataLayout& dl) {
  llvm::MDNode* tag = st.getMetadata(kLaneBytesMetadata);
  if (tag == nullptr || !st.isSimple() || st.getPointerAddressSpace() != kGlobalAddressSpace ||
      !st.getValueOperand()->getType()->isVectorTy())
    return 0;
  const uint64_t bytes = dl.getTypeStoreSize(st.getValueOperand()->getType()).getFixedSize();
  if (bytes != 16 && bytes != 32 && bytes != 64) return 0;
  return llvm::mdconst::extract<llvm::ConstantInt>(tag->getOperand(0))->getZExtValue();
}

// Whether another thread could be told of the kernel's stores other than by the launch's end.
bool publishes(const llvm::Function& f) {
  for (const llvm::BasicBlock& bb : f)
    for (const llvm::Instruction& i : bb) {
      if (i.isAtomic() || llvm::isa<llvm::FenceInst>(i)) return true;
      if (const auto* call = llvm::dyn_cast<llvm::CallBase>(&i)) {
        const llvm::Function* callee = call->getCalledFunction();
        if (callee != nullptr && callee->isIntrinsic()) continue;
        if (call->mayWriteToMemory()) return true;
      }
    }
  return false;
}

// `st` as a non-temporal store when `on` and its address is aligned to its size, a plain one
// otherwise.
void streamWhen(llvm::Value* on, llvm::StoreInst* st, const llvm::DataLayout& dl) {
  llvm::LLVMContext& ctx = st->getContext();
  llvm::MDNode* nt = llvm::MDNode::get(
      ctx, {llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), 1))});
  const uint64_t bytes = dl.getTypeStoreSize(st->getValueOperand()->getType()).getFixedSize();
  llvm::IRBuilder<> b(st);
  llvm::Value* when = on;
  if (st->getAlign().value() < bytes) {
    llvm::Value* address = b.CreatePtrToInt(st->getPointerOperand(), b.getInt64Ty());
    when = b.CreateAnd(on, b.CreateICmpEQ(b.CreateAnd(address, bytes - 1), b.getInt64(0)));
  }
  llvm::Instruction* then = nullptr;
  llvm::Instruction* otherwise = nullptr;
  llvm::SplitBlockAndInsertIfThenElse(when, st, &then, &otherwise);
  auto* streamed = llvm::cast<llvm::StoreInst>(st->clone());
  streamed->insertBefore(then);
  streamed->setAlignment(llvm::Align(bytes));
  streamed->setMetadata(llvm::LLVMContext::MD_nontemporal, nt);
  st->moveBefore(otherwise);
}

}  // namespace

uint32_t streamStores(llvm::Function& wg) {
  // (x86's stores and sfence; another host keeps plain stores.)
  if (!wg.getName().startswith("__tessera_wg.") ||
      !llvm::Triple(wg.getParent()->getTargetTriple()).isX86())
    return 0;
  const llvm::DataLayout& dl = wg.getParent()->getDataLayout();
  uint64_t laneBytes = 0;
  std::vector<llvm::StoreInst*> stores;
  std::vector<llvm::ReturnInst*> returns;
  for (llvm::BasicBlock& bb : wg)
    for (llvm::Instruction& i : bb) {
      if (auto* st = llvm::dyn_cast<llvm::StoreInst>(&i))
        if (const uint64_t lane = streamable(*st, dl)) {
          laneBytes = std::max(laneBytes, lane);
          stores.push_back(st);
        }
      if (auto* ret = llvm::dyn_cast<llvm::ReturnInst>(&i)) returns.push_back(ret);
    }
  if (laneBytes == 0 || publishes(wg)) return 0;

  // The context's streamStores field (kernel_abi.h), read after the entry's allocas (which stay
  // static, at the entry's start).
  llvm::BasicBlock::iterator first = wg.getEntryBlock().begin();
  while (llvm::isa<llvm::AllocaInst>(*first)) ++first;
  llvm::IRBuilder<> b(&*first);
  llvm::Value* field = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), wg.getArg(kWgContext),
                                                    8 * kStreamStoresContextField);
  llvm::Value* on =
      b.CreateICmpNE(b.CreateLoad(b.getInt64Ty(), field, "stream.stores"), b.getInt64(0));
  for (llvm::StoreInst* st : stores) streamWhen(on, st, dl);
  llvm::Function* sfence =
      llvm::Intrinsic::getDeclaration(wg.getParent(), llvm::Intrinsic::x86_sse_sfence);
  for (llvm::ReturnInst* ret : returns) {
    llvm::Instruction* then = llvm::SplitBlockAndInsertIfThen(on, ret, false);
    llvm::CallInst::Create(sfence, "", then);
  }
  return static_cast<uint32_t>(laneBytes);
}

}  // namespace tessera::backends::cpu::jit
