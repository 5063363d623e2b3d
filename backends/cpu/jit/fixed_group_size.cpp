// Pass: a copy of the work-group function for one work-group size, called for groups of that size.
//
// The work-group function reads the group's size from its context, so its loops over work-items
// have trip counts known only at run time, every scratch slot's address is a product of that size,
// and each region keeps its levels for rows of any length (jammed rows, VF, VF/2, scalar). A kernel
// whose barriers sit in a loop (a tiled GEMM: two regions a tile, each called for four jammed rows
// at a time) pays for that at every step: the rows' loops, the checks of which level runs, and the
// values they keep live, which spill around its product. In the copy the sizes are constants: loop
// bounds fold, only the levels such rows run remain, and scratch addresses are constant offsets.
// The 16 x 16 tiled SGEMM at N = 1024 (pyopencl, medians of 15 calls, three alternating runs on a
// Zen 5 VM): 14.4-15.0 ms without the copy, 12.0-13.1 with it.
//
// Where the group's rows are a multiple of the rows a jam takes, every row runs jammed, but the y
// loop does not know it: after a jam it steps by kJamRows, after a single row by 1, a phi that
// keeps its trip count unknown and the single rows' levels in the code. The copy makes the check
// before each jam (tagged kJammedRowsMetadata) true, so that the loop steps by a constant and the
// levels go. The same SGEMM, four alternating pairs: 10.9-12.6 ms against 11.5-13.2 without.
//
// The copy is a function of its own, which the work-group function calls: inlined into it, the
// same SGEMM ran 12.7-14.0 ms (one function twice the size for the optimizer and the register
// allocator). It is made after scratch-scope (scratch_scope.cpp), which leaves a function whose
// scratch pointer escapes into a call unannotated; both copies keep the annotations.
//
// The copy runs only where the group's size and its enqueued size are both the copy's: the partial
// last group of a non-uniform launch (OpenCL 2.0), whose size is smaller but whose global ids step
// by the enqueued size, takes the general code.
//
// When the size is the kernel's required one, every full group runs the copy and the general code
// serves only those partial groups, which OpenCL 1.x and Level Zero never launch (PoCL refuses
// them). There it keeps only its scalar loops (the branches into its widened levels, tagged
// kWidenedLevelMetadata, are made false and O3 drops the levels): half the code for the
// optimizer and the code generator. CLBlast's Xgemm program (`clblast_sgemm.c`, TESSERA_JIT_DUMP=
// times, four alternating runs on a Zen 5 VM) took 220-237 ms of JIT against 405-437 with the
// widened general code and 257-270 without a copy at all. The price: a non-uniform launch's partial
// groups run scalar, and a 16 x 16-required tiled SGEMM over 1000^2 work-items (63 x 63 groups, the
// last row and column partial) took 24.1-25.5 ms against 22.3-23.2.
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Operator.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <vector>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

// Whether `load` reads field `index` (8 bytes each, kernel_abi.h) of the context `ctx`.
bool readsField(const llvm::LoadInst& load, const llvm::Argument* ctx, unsigned index) {
  const llvm::DataLayout& dl = load.getModule()->getDataLayout();
  auto* gep = llvm::dyn_cast<llvm::GEPOperator>(load.getPointerOperand());
  llvm::APInt offset(64, 0);
  return gep != nullptr && gep->getPointerOperand() == ctx &&
         gep->accumulateConstantOffset(dl, offset) && offset == 8 * index;
}

}  // namespace

void copyForGroupSize(llvm::Function& wg, const uint32_t size[3], bool required) {
  llvm::LLVMContext& ctx = wg.getContext();
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  llvm::ValueToValueMapTy map;
  llvm::Function* fixed = llvm::CloneFunction(&wg, map);
  fixed->setName(wg.getName() + ".fixed");
  fixed->setLinkage(llvm::GlobalValue::InternalLinkage);
  fixed->addFnAttr(llvm::Attribute::NoInline);
  llvm::Argument* context = fixed->getArg(kWgContext);
  for (llvm::BasicBlock& bb : *fixed)
    for (llvm::Instruction& i : llvm::make_early_inc_range(bb))
      if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&i))
        for (unsigned d = 0; d < 3; ++d)
          if (readsField(*load, context, kLocalSizeContextField + d) ||
              readsField(*load, context, kEnqueuedSizeContextField + d)) {
            load->replaceAllUsesWith(llvm::ConstantInt::get(i64, size[d]));
            load->eraseFromParent();
            break;
          }

  // Every row runs jammed where the rows a jam takes divide the group's and a row is the jam's
  // width: the check before each jam is true.
  for (llvm::BasicBlock& bb : *fixed)
    if (auto* br = llvm::dyn_cast<llvm::BranchInst>(bb.getTerminator()))
      if (llvm::MDNode* jam = br->getMetadata(kJammedRowsMetadata)) {
        auto field = [&](unsigned i) {
          return llvm::mdconst::extract<llvm::ConstantInt>(jam->getOperand(i))->getZExtValue();
        };
        if (size[0] == field(1) && size[1] % field(0) == 0)
          br->setCondition(llvm::ConstantInt::getTrue(ctx));
      }

  // The entry block's allocas stay first, in the block that runs every time; the rest of it, the
  // general code's start, follows the check.
  llvm::BasicBlock* entry = &wg.getEntryBlock();
  std::vector<llvm::AllocaInst*> allocas;
  for (llvm::Instruction& i : *entry)
    if (auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i)) allocas.push_back(a);
  for (llvm::AllocaInst* a : allocas) a->moveBefore(&*entry->getFirstInsertionPt());
  llvm::Instruction* firstOther = &*entry->getFirstInsertionPt();
  while (llvm::isa<llvm::AllocaInst>(firstOther)) firstOther = firstOther->getNextNode();
  llvm::BasicBlock* general = entry->splitBasicBlock(firstOther, "group.size.other");
  entry->getTerminator()->eraseFromParent();
  auto* call = llvm::BasicBlock::Create(ctx, "group.size.fixed", &wg, general);
  llvm::IRBuilder<> b(entry);
  llvm::Argument* wgContext = wg.getArg(kWgContext);
  llvm::Value* match = b.getTrue();
  for (unsigned d = 0; d < 3; ++d)
    for (unsigned field : {kLocalSizeContextField + d, kEnqueuedSizeContextField + d}) {
      llvm::Value* p = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), wgContext, 8 * field);
      match = b.CreateAnd(match, b.CreateICmpEQ(b.CreateLoad(i64, p), b.getInt64(size[d])));
    }
  b.CreateCondBr(match, call, general);
  b.SetInsertPoint(call);
  std::vector<llvm::Value*> args;
  for (llvm::Argument& a : wg.args()) args.push_back(&a);
  b.CreateCall(fixed, args)->setTailCall();
  b.CreateRetVoid();
  // With a required size, the general code runs only the partial groups of non-uniform launches
  // (OpenCL 2.0 and later; Level Zero has none): it keeps its scalar loops only.
  if (required)
    for (llvm::BasicBlock& bb : wg)
      if (auto* br = llvm::dyn_cast<llvm::BranchInst>(bb.getTerminator()))
        if (br->getMetadata(kWidenedLevelMetadata)) br->setCondition(b.getFalse());
}

}  // namespace tessera::backends::cpu::jit
