// Pass: the exported work-group function. Its entry loads the launch context and the arguments
// once (through noalias pointers, so nothing reloads them); then for each region a z/y/x loop nest
// over the work-items calls the region, and a dispatcher picks the next region from what the last
// work-item returned (with sub-group cuts, from what each returned: workgroup_dispatch.h). The
// innermost loop is marked parallel (llvm.loop.parallel_accesses over the region's memory
// accesses): work-items between two barriers are independent by the OpenCL execution model, which
// the vectorizer could not prove on its own. Accesses to private (alloca) memory and atomics are
// left out of the access group, since work-items share those allocas' addresses across iterations
// and atomics do depend on each other.
#include <llvm/Analysis/CFG.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include "backends/cpu/jit/jit_passes.h"
#include "backends/cpu/jit/slot_sharing.h"
#include "backends/cpu/jit/workgroup_dispatch.h"

#include <algorithm>
#include <memory>
#include <optional>

namespace tessera::backends::cpu::jit {
namespace {

bool hasLoop(const llvm::Function& f) {
  llvm::SmallVector<std::pair<const llvm::BasicBlock*, const llvm::BasicBlock*>, 4> backEdges;
  llvm::FindFunctionBackedges(f, backEdges);
  return !backEdges.empty();
}

// An atomic read-modify-write in a loop of `f` (a local histogram's atomic_inc on the bin its
// value picks). The widening runs it lane by lane, unrolled VF (or 4 x VF) times, so the chunk's
// increments are that many load-add-store sequences at addresses only known at run time; the
// scalar loop over work-items runs the same sequence once per iteration. bench/cl_pattern_bench's
// histogram (16M values, 256 bins, groups of 256) on an AVX-512 Zen 4 EPYC: 62-80 ms widened
// at 16 or 64 lanes, 9-13 unwidened, PoCL 26 (session 37; on the Zen 5 host of session 36 14-15
// ms either way).
bool atomicsInLoop(const llvm::Function& f) {
  if (!hasLoop(f)) return false;
  llvm::DominatorTree dt(const_cast<llvm::Function&>(f));
  llvm::LoopInfo loops(dt);
  for (const llvm::BasicBlock& bb : f)
    if (loops.getLoopFor(&bb) != nullptr)
      for (const llvm::Instruction& i : bb)
        if (llvm::isa<llvm::AtomicRMWInst, llvm::AtomicCmpXchgInst>(i)) return true;
  return false;
}

// Arithmetic or memory on OpenCL vector values (float4, int16, ...): LLVM's loop vectorizer leaves
// such a work-item loop scalar, so the widening takes the region even without a loop of its own.
// A vector that is only loaded and stored again counts too: a float4 copy left to that vectorizer
// stays one 16-byte load and store per work-item, and streamed at two thirds of the widened copy's
// whole-register accesses (bench/cl_pattern_bench's copy4 on an AVX-512 EPYC, both kernels in one
// process alternating on the same buffers: 12.4-14.6 ms against 9.5-9.9; session 34). Session 23
// had measured the opposite on another host (17.3 widened, 14.2 not), across separate processes.
bool hasVectorValues(const llvm::Function& f) {
  for (const llvm::BasicBlock& bb : f)
    for (const llvm::Instruction& i : bb) {
      const llvm::Value* v = &i;
      if (auto* st = llvm::dyn_cast<llvm::StoreInst>(&i)) v = st->getValueOperand();
      if (!v->getType()->isVectorTy()) continue;
      if (llvm::isa<llvm::LoadInst>(i) || llvm::isa<llvm::StoreInst>(i) ||
          llvm::isa<llvm::BinaryOperator>(i) || llvm::isa<llvm::CallInst>(i))
        return true;
    }
  return false;
}

// Image reads or writes (builtin_image.cpp): their switch on the image's format and the calls of
// its generic case keep LLVM's loop vectorizer off the work-item loop, so the widening takes the
// region even without a loop of its own.
bool callsImageFunctions(const llvm::Function& f) {
  for (const llvm::BasicBlock& bb : f)
    for (const llvm::Instruction& i : bb)
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i))
        if (const llvm::Function* callee = call->getCalledFunction())
          if (accessesImages(*callee)) return true;
  return false;
}

// What makes a widened straight-line region worth keeping over LLVM's loop vectorizer (the
// widening's own findings, at the VF level): branches that differ between work-items, which that
// vectorizer must if-convert and does not when they guard loads or stores (it cannot prove them
// safe for every lane), and accesses that are not consecutive between work-items (clamped or
// computed indices, strided rows), where it gives up or gathers less well (the widening loads
// clamped ones as vectors in the chunks where no lane is clamped: versionedLoads). A 4096^2 5-point
// stencil whose boundary is a branch ran 55.9 ms left to LLVM and 16.0 ms widened (PoCL 10.8), a
// 3x3 median of clamped neighbours 164 and 120 (PoCL 108): bench/cl_pattern_bench, one loaded
// run. Straight-line code on consecutive elements (a copy, Black-Scholes, a math mix) stays with
// LLVM, whose vector libm calls beat the widening's per-lane ones.
const char* worthWidening(const WidenStats& before, const WidenStats& after) {
  if (after.predicatedBranches + after.checkedBranches + after.cutPaths >
      before.predicatedBranches + before.checkedBranches + before.cutPaths)
    return "branches that differ between work-items";
  if (after.gathers + after.versionedLoads + after.stridedLoads + after.stridedStores +
          after.scatters + after.vectorGathers + after.vectorScatters >
      before.gathers + before.versionedLoads + before.stridedLoads + before.stridedStores +
          before.scatters + before.vectorGathers + before.vectorScatters)
    return "accesses not consecutive between work-items";
  return nullptr;
}

// Gathers, strided loads and stores and scatters the widening made between two snapshots of its
// statistics.
uint32_t scatteredAccesses(const WidenStats& before, const WidenStats& after) {
  return (after.gathers - before.gathers) + (after.stridedLoads - before.stridedLoads) +
         (after.stridedStores - before.stridedStores) + (after.scatters - before.scatters) +
         (after.vectorGathers - before.vectorGathers) +
         (after.vectorScatters - before.vectorScatters);
}

// A region with a loop of its own, in a kernel without barriers, whose widened accesses are none
// of them consecutive between work-items: each work-item walks memory of its own (a softmax of one
// row per work-item), so the widening makes every access of the loop a gather or a scatter, while
// LLVM's loop vectorizer, given the region unwidened, vectorizes each work-item's own loop along
// its row. bench/cl_pattern_bench's row softmax (16k rows of 1k): 111 ms widened, 49 unwidened,
// PoCL 3.1 61-77, one run 2026-11-30.
bool onlyScattered(const WidenStats& before, const WidenStats& after) {
  return scatteredAccesses(before, after) > 0 && after.contiguous == before.contiguous &&
         after.versionedLoads == before.versionedLoads;
}

// Whether a region of `regions` may be followed by itself or an earlier one: a barrier in a loop,
// which the work-group function's dispatch then steps through once per iteration (a tiled GEMM's
// tiles). Regions return the index of the next one (exit: -1).
bool barrierInLoop(const Regions& regions) {
  for (size_t k = 0; k < regions.functions.size(); ++k)
    for (const llvm::BasicBlock& bb : *regions.functions[k])
      if (auto* ret = llvm::dyn_cast<llvm::ReturnInst>(bb.getTerminator()))
        if (auto* next = llvm::dyn_cast_or_null<llvm::ConstantInt>(ret->getReturnValue()))
          if (!next->isNegative() && next->getZExtValue() <= k) return true;
  return false;
}

// Dimension d of the kernel's reqd_work_group_size, if it has one.
std::optional<uint32_t> requiredSize(const llvm::Function& kernel, unsigned d) {
  const llvm::MDNode* node = kernel.getMetadata("reqd_work_group_size");
  if (node == nullptr || node->getNumOperands() != 3) return std::nullopt;
  auto* n = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node->getOperand(d));
  if (n == nullptr || n->getValue().getActiveBits() > 32 || n->isZero()) return std::nullopt;
  return static_cast<uint32_t>(n->getZExtValue());
}

// Marks which of `widths` (widest first) a row of `left` work-items runs: each level takes what the
// wider ones left, rounded down to a multiple of its width.
void markRun(const std::vector<unsigned>& widths, uint32_t left, std::vector<bool>* run) {
  for (size_t i = 0; i < widths.size(); ++i)
    if (left >= widths[i]) {
      (*run)[i] = true;
      left %= widths[i];
    }
}

// Marks the loop whose back edge is `back` not to be vectorized or unrolled by LLVM, keeping its
// other loop metadata: for a trip count below any vector width, LLVM's vectorizer would only add a
// vector body (and a remainder of its own) that the loop never enters, another copy of its body for
// the code generator (40% of clFFT's JIT time).
void keepScalar(llvm::Instruction& back) {
  llvm::LLVMContext& ctx = back.getContext();
  std::vector<llvm::Metadata*> ops{nullptr};
  if (llvm::MDNode* old = back.getMetadata(llvm::LLVMContext::MD_loop))
    for (unsigned i = 1; i < old->getNumOperands(); ++i) ops.push_back(old->getOperand(i));
  ops.push_back(
      llvm::MDNode::get(ctx, {llvm::MDString::get(ctx, "llvm.loop.vectorize.enable"),
                              llvm::ConstantAsMetadata::get(llvm::ConstantInt::getFalse(ctx))}));
  ops.push_back(llvm::MDNode::get(ctx, {llvm::MDString::get(ctx, "llvm.loop.unroll.disable")}));
  llvm::MDNode* loop = llvm::MDNode::getDistinct(ctx, ops);
  loop->replaceOperandWith(0, loop);
  back.setMetadata(llvm::LLVMContext::MD_loop, loop);
}

bool isPrivateOrAtomic(llvm::Instruction& i) {
  if (i.isAtomic()) return true;
  llvm::Value* ptr = nullptr;
  if (auto* l = llvm::dyn_cast<llvm::LoadInst>(&i)) ptr = l->getPointerOperand();
  if (auto* s = llvm::dyn_cast<llvm::StoreInst>(&i)) ptr = s->getPointerOperand();
  if (ptr == nullptr) return llvm::isa<llvm::CallBase>(i);  // memcpy & co: be conservative
  return llvm::isa<llvm::AllocaInst>(llvm::getUnderlyingObject(ptr, 0));
}

llvm::MDNode* tagAccesses(llvm::Function& region) {
  llvm::LLVMContext& ctx = region.getContext();
  llvm::MDNode* group = llvm::MDNode::getDistinct(ctx, {});
  for (llvm::BasicBlock& bb : region) {
    for (llvm::Instruction& i : bb) {
      if (i.mayReadOrWriteMemory() && !isPrivateOrAtomic(i)) {
        i.setMetadata(llvm::LLVMContext::MD_access_group, group);
      }
    }
  }
  return group;
}

}  // namespace

llvm::Function* buildWorkGroupFunction(llvm::Function& kernel, const Regions& regions,
                                       CompiledKernel* info, WidenPlan widen) {
  // With sub-group cuts and sub-groups narrower than the width, a widened chunk would span several
  // sub-groups and read their exchange slots by gathers: the width is then the sub-group size
  // (at least 4), so that a chunk lies in one sub-group.
  const bool hasCuts = std::find_if(regions.subgroupCut.begin(), regions.subgroupCut.end(),
                                    [](uint8_t kind) { return kind != kNotSubgroupCut; }) !=
                       regions.subgroupCut.end();
  const unsigned widenVF = hasCuts && widen.width > info->subgroupSize && info->subgroupSize >= 4
                               ? info->subgroupSize
                               : widen.width;
  llvm::LLVMContext& ctx = kernel.getContext();
  llvm::Module& m = *kernel.getParent();
  const llvm::DataLayout& dl = m.getDataLayout();
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  llvm::Type* i8 = llvm::Type::getInt8Ty(ctx);
  llvm::PointerType* ptr = llvm::PointerType::get(ctx, 0);
  llvm::Type* params[kWgParamCount];
  params[kWgContext] = params[kWgLocalMem] = params[kWgScratch] = ptr;
  params[kWgGroupX] = params[kWgGroupY] = params[kWgGroupZ] = params[kWgGroupsX] = i64;
  auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), params, false);
  llvm::Function* wg = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                              "__tessera_wg." + kernel.getName(), m);
  for (unsigned a : {kWgContext, kWgLocalMem, kWgScratch})
    wg->addParamAttr(a, llvm::Attribute::NoAlias);
  wg->addParamAttr(kWgContext, llvm::Attribute::ReadOnly);
  wg->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::Argument* ctxArg = wg->getArg(kWgContext);
  llvm::Argument* const groupId[3] = {wg->getArg(kWgGroupX), wg->getArg(kWgGroupY),
                                      wg->getArg(kWgGroupZ)};
  llvm::Argument* localMem = wg->getArg(kWgLocalMem);
  llvm::Argument* scratchArg = wg->getArg(kWgScratch);

  llvm::BasicBlock* entry = llvm::BasicBlock::Create(ctx, "entry", wg);
  llvm::IRBuilder<> b(entry);
  // WorkGroupContext: args, localSize[3], groupCount[3], globalOffset[3], workDim,
  // enqueuedSize[3], globalSize[3].
  auto field = [&](unsigned index, const char* name) {
    return b.CreateLoad(i64, b.CreateConstInBoundsGEP1_64(i8, ctxArg, 8 * index), name);
  };
  llvm::LoadInst* args = b.CreateLoad(ptr, ctxArg, "args");
  llvm::Value* ls[3] = {field(kLocalSizeContextField, "ls.x"),
                        field(kLocalSizeContextField + 1, "ls.y"),
                        field(kLocalSizeContextField + 2, "ls.z")};
  llvm::Value* gc[3] = {field(4, "gc.x"), field(5, "gc.y"), field(6, "gc.z")};
  llvm::Value* off[3] = {field(7, "off.x"), field(8, "off.y"), field(9, "off.z")};
  llvm::Value* workDim = field(10, "work.dim");
  llvm::Value* enq[3] = {field(kEnqueuedSizeContextField, "enq.x"),
                         field(kEnqueuedSizeContextField + 1, "enq.y"),
                         field(kEnqueuedSizeContextField + 2, "enq.z")};
  llvm::Value* gs[3] = {field(14, "gs.x"), field(15, "gs.y"), field(16, "gs.z")};

  // Arguments, each in a slot aligned to its type.
  std::vector<llvm::Value*> kernelArgs;
  uint64_t offset = 0;
  for (llvm::Argument& a : kernel.args()) {
    KernelArgInfo arg{};
    llvm::Type* t = a.getType();
    llvm::Value* v;
    if (a.hasByValAttr()) {
      llvm::Type* value = a.getParamByValType();
      uint64_t align = std::max<uint64_t>(a.getParamAlign().valueOrOne().value(),
                                          dl.getABITypeAlign(value).value());
      // The buffer is aligned to kMaxTypeAlignment (launcher.cpp), and so is at most a slot.
      offset = llvm::alignTo(offset, std::min<uint64_t>(align, kMaxTypeAlignment));
      arg = {ArgKind::ByValue, static_cast<uint32_t>(dl.getTypeAllocSize(value)),
             static_cast<uint32_t>(offset)};
      v = b.CreatePointerCast(b.CreateConstInBoundsGEP1_64(i8, args, offset), t);
    } else if (t->isPointerTy()) {
      offset = llvm::alignTo(offset, 8);
      unsigned as = t->getPointerAddressSpace();
      // An image's slot holds its ImageView's address, a sampler's its value (image_abi.h).
      ArgKind kind = imageArgumentKind(kernel, a.getArgNo())
                         .value_or(as == 3   ? ArgKind::LocalPointer
                                   : as == 2 ? ArgKind::ConstantPointer
                                             : ArgKind::GlobalPointer);
      arg = {kind, 8, static_cast<uint32_t>(offset)};
      llvm::Value* slot = b.CreateConstInBoundsGEP1_64(i8, args, offset);
      if (kind == ArgKind::LocalPointer) {
        llvm::Value* localOffset = b.CreateLoad(i64, slot, "local.offset");
        v = b.CreateAddrSpaceCast(b.CreateInBoundsGEP(i8, localMem, localOffset), t);
      } else {
        v = b.CreateLoad(t, slot, a.getName());
      }
    } else {
      offset = llvm::alignTo(offset,
                             std::min<uint64_t>(dl.getABITypeAlign(t).value(), kMaxTypeAlignment));
      // The allocation size is OpenCL C's sizeof: a 3-element vector takes four elements.
      arg = {ArgKind::ByValue, static_cast<uint32_t>(dl.getTypeAllocSize(t)),
             static_cast<uint32_t>(offset)};
      v = b.CreateLoad(t, b.CreateConstInBoundsGEP1_64(i8, args, offset), a.getName());
    }
    offset += arg.size;
    info->args.push_back(arg);
    kernelArgs.push_back(v);
  }
  info->argBufferSize = static_cast<uint32_t>(llvm::alignTo(offset, 8));
  info->scratchBytesPerWorkItem = regions.scratchBytesPerWorkItem;
  info->barrierCount = static_cast<uint32_t>(regions.functions.size() - 1);

  const bool single = regions.functions.size() == 1;
  const bool loopedBarrier = barrierInLoop(regions);
  // Sub-group cuts: follow each work-item's next region (workgroup_dispatch.h).
  std::unique_ptr<FollowEach> each;
  if (hasCuts) {
    each = std::make_unique<FollowEach>(b, ls, scratchArg, regions.scratchBytesPerWorkItem,
                                        regions.subgroupCut);
    info->scratchBytesPerWorkItem = static_cast<uint32_t>(each->scratchBytesPerWorkItem());
  }
  llvm::Value* stamps = each ? each->stamps() : llvm::ConstantPointerNull::get(ptr);
  llvm::AllocaInst* next = b.CreateAlloca(b.getInt32Ty(), nullptr, "next.region");
  b.CreateStore(b.getInt32(0), next);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(ctx, "exit", wg);
  llvm::IRBuilder<>(exit).CreateRetVoid();
  llvm::BasicBlock* dispatch = single ? nullptr : llvm::BasicBlock::Create(ctx, "dispatch", wg);
  llvm::SwitchInst* sw = nullptr;
  if (!single) {
    llvm::IRBuilder<> db(dispatch);
    sw = db.CreateSwitch(db.CreateLoad(db.getInt32Ty(), next), exit,
                         static_cast<unsigned>(regions.functions.size()));
  }

  std::vector<llvm::Function*> widened;
  const unsigned firstRegionParam = static_cast<unsigned>(kernel.arg_size());
  // Widening levels: VF work-items per iteration, then (when VF >= 8) VF/2 for what is left of a
  // row, then the scalar loop. Level i covers x in [end(i-1), end(i)), end(i) = ls.x rounded down
  // to a multiple of its width (end(-1) = 0).
  // With a required work-group size (reqd_work_group_size: CLBlast's Xgemm, clFFT's kernels) a
  // whole group's rows are known, and only the levels such a row runs are built: a level of width
  // w runs when the row has w work-items left after the wider levels. Xgemm with MDIMC 8 on an
  // AVX2 host (VF 16) ran its 8-wide level only, yet carried the 64- and 16-wide copies (and the
  // rows jammed at 16): 3-4 times the code for the code generator, 20-35 s of JIT per program.
  // The partial last group of a non-uniform range, if any, leaves its rest to the scalar loop.
  const std::optional<uint32_t> requiredX = requiredSize(kernel, 0);
  const std::optional<uint32_t> requiredY = requiredSize(kernel, 1);
  std::vector<unsigned> widths;
  const unsigned narrowest = widenVF >= 8 ? widenVF / 2 : widenVF;
  for (unsigned w = widenVF; w >= narrowest && w > 1; w /= 2) widths.push_back(w);
  // A region with a loop of its own first runs 4 x VF work-items per iteration while that many
  // remain in the row: each iteration of a loop that strides through memory (a grid-stride
  // loop; naive SGEMM's walk down B's columns) then reads four consecutive cache lines of a
  // page instead of one, which the hardware prefetchers follow (naive SGEMM with OpenCL's NULL
  // local size 18 -> 38 GFLOP/s, the reduction 30 -> 37 GB/s in one run). Not when the width is
  // forced (TESSERA_WIDEN=n), nor for regions without a loop (tiled SGEMM's tile steps lost a
  // sixth when the bigger work-group function carried a level they never use).
  // Nor with sub-group cuts: 4 x VF lanes would span several sub-groups (gathers of their slots).
  unsigned loopVF = !widen.everyRegion && widenVF >= 8 && !each ? 4 * widenVF : 0;
  if (requiredX) {
    if (*requiredX < loopVF) loopVF = 0;
    std::vector<bool> run(widths.size());
    markRun(widths, *requiredX, &run);                       // regions without the loop level
    if (loopVF) markRun(widths, *requiredX % loopVF, &run);  // what the loop level leaves
    for (size_t i = widths.size(); i-- > 0;)
      if (!run[i]) widths.erase(widths.begin() + static_cast<long>(i));
  }
  std::vector<llvm::Value*> levelEnd;
  for (unsigned w : widths)
    levelEnd.push_back(b.CreateAnd(ls[0], b.getInt64(~uint64_t{w - 1}), "ls.x.wide"));
  llvm::Value* loopLevelEnd =
      loopVF ? b.CreateAnd(ls[0], b.getInt64(~uint64_t{loopVF - 1}), "ls.x.loop") : nullptr;
  // The statistics describe the widest level built below the loop level (VF unless the required
  // size rules it out).
  const unsigned statsWidth = widths.empty() ? 0 : widths.front();
  if (statsWidth > 1) info->widen.width = statsWidth;
  if (widths.size() > 1) info->widen.halfWidth = widths[1];
  if (each) each->resetStamps(b);
  if (!single) b.CreateBr(dispatch);
  // Whether the kernel reads its local or global id y: if not, it is launched in one dimension,
  // and a jammed copy of its regions (row_jam.cpp) would only cost compile time.
  const bool rowsUsed =
      std::any_of(regions.functions.begin(), regions.functions.end(), [&](llvm::Function* region) {
        return !region->getArg(firstRegionParam + kLocalIdY)->use_empty();
      });
  std::vector<llvm::CallInst*> calls;
  for (unsigned k = 0; k < regions.functions.size(); ++k) {
    llvm::Function* region = regions.functions[k];
    if (requiredX) region->addFnAttr(kRequiredSizeXAttribute, std::to_string(*requiredX));
    struct Level {
      unsigned width;
      llvm::Value* end;
      llvm::Function* fn;
      bool mayBail;
    };
    std::vector<Level> levels;
    // A region without a loop of its own, in a kernel without barriers, is left to LLVM's loop
    // vectorizer, which vectorizes the work-item x loop around it as well and costs less JIT time
    // than a widened copy (unless it computes on OpenCL vectors, which that vectorizer leaves,
    // accesses images, or where the widening finds what that vectorizer does badly:
    // worthWidening). The decision and its reason are in WidenStats::decision (TESSERA_JIT_DUMP=1
    // prints it).
    // Between barriers the widening does better (tiled SGEMM's unrolled tile product: 15-20%
    // faster widened in one loaded run).
    const bool loop = hasLoop(*region);
    const char* reason = widen.everyRegion              ? "forced (TESSERA_WIDEN=n)"
                         : regions.functions.size() > 1 ? "between barriers"
                         : loop                         ? "a loop of its own"
                         : hasVectorValues(*region)     ? "OpenCL vector values"
                         : callsImageFunctions(*region) ? "image accesses"
                                                        : nullptr;
    // Otherwise the region is widened on trial and kept only when worthWidening says so.
    const WidenStats before = info->widen;
    const size_t widenedBefore = widened.size();
    if (!widths.empty()) {
      std::vector<std::pair<unsigned, llvm::Value*>> regionLevels;
      for (size_t l = 0; l < widths.size(); ++l) regionLevels.push_back({widths[l], levelEnd[l]});
      // The 4 x VF loop level is built last and runs first, and only when the VF level's
      // accesses are all consecutive between work-items: what it is for (consecutive cache lines
      // the prefetchers follow) does not apply to gathers and scatters, while each costs a load or
      // store per lane on most hosts (CLBlast's Xgemv: 72 gathers at 64 lanes, 10-19 s of code
      // generation per program on an AVX2 host).
      if (loop && loopVF) regionLevels.push_back({loopVF, loopLevelEnd});
      for (size_t l = 0; l < regionLevels.size(); ++l) {
        const bool loopLevel = regionLevels[l].first == loopVF;
        if (loopLevel && scatteredAccesses(before, info->widen) > 0) continue;
        // The statistics describe one level; the others are the same code, wider or narrower.
        WidenStats scratch;
        WidenStats* stats = regionLevels[l].first == statsWidth ? &info->widen : &scratch;
        std::string why;
        uint32_t checked = stats->checkedBranches;
        if (each) region->addFnAttr(kLinearAlignedAttribute);
        llvm::Function* fn =
            widenRegion(*region, firstRegionParam, regionLevels[l].first, stats, &why);
        if (fn == nullptr) {
          if ((l == 0 || loopLevel) && info->widen.refused.empty())
            info->widen.refused = "region " + std::to_string(k) + ": " + why;
          continue;  // a narrower level may still take it (vector values too wide for this one)
        }
        if (loopLevel) info->widen.loopWidth = loopVF;
        widened.push_back(fn);
        const Level level{regionLevels[l].first, regionLevels[l].second, fn,
                          stats->checkedBranches != checked};
        levels.insert(loopLevel ? levels.begin() : levels.end(), level);
      }
      const char* found = reason ? reason : worthWidening(before, info->widen);
      const bool scatteredLoop = !widen.everyRegion && regions.functions.size() == 1 && loop &&
                                 onlyScattered(before, info->widen);
      const bool atomicLoop = !widen.everyRegion && atomicsInLoop(*region);
      if (scatteredLoop || atomicLoop) found = nullptr;
      if (found == nullptr && !levels.empty()) {
        for (size_t i = widenedBefore; i < widened.size(); ++i) widened[i]->eraseFromParent();
        widened.resize(widenedBefore);
        levels.clear();
        info->widen = before;
      }
      if (k == 0)
        info->widen.decision = found        ? std::string("widened: ") + found
                               : atomicLoop ? "not widened (atomics in a loop, lane by lane)"
                               : scatteredLoop
                                   ? "left to LLVM's loop vectorizer (a loop of its own, no access "
                                     "consecutive between work-items)"
                                   : "left to LLVM's loop vectorizer (straight-line, consecutive "
                                     "accesses, no branch that differs between work-items)";
      if (!levels.empty()) ++info->widen.widenedRegions;
    }
    llvm::MDNode* group = tagAccesses(*region);
    const char* axis[3] = {"x", "y", "z"};
    llvm::BasicBlock* header[3];
    llvm::BasicBlock* latch[3];
    llvm::PHINode* id[3];
    llvm::BasicBlock* pre = llvm::BasicBlock::Create(ctx, "region" + llvm::Twine(k), wg);
    if (each) {
      llvm::IRBuilder<> pb(pre);
      each->begin(pb);
    }
    if (single) {
      b.CreateBr(pre);
    } else {
      sw->addCase(llvm::ConstantInt::get(b.getInt32Ty(), k), pre);
    }
    llvm::BasicBlock* from = pre;
    for (int d = 2; d >= 0; --d) {
      header[d] = llvm::BasicBlock::Create(ctx, "wi." + llvm::Twine(axis[d]), wg);
      llvm::BranchInst::Create(header[d], from);
      id[d] = llvm::PHINode::Create(i64, 2, "l" + llvm::Twine(axis[d]), header[d]);
      id[d]->addIncoming(llvm::ConstantInt::get(i64, 0), from);
      from = header[d];
    }
    // Body: in the x header.
    llvm::IRBuilder<> lb(header[0]);
    llvm::Value* linear =
        lb.CreateAdd(lb.CreateMul(lb.CreateAdd(lb.CreateMul(id[2], ls[1]), id[1]), ls[0]), id[0]);
    std::vector<llvm::Value*> callArgs = kernelArgs;
    llvm::Value* extra[kRegionParamCount] = {
        id[0],  id[1],  id[2],  groupId[0], groupId[1], groupId[2], ls[0],      ls[1], ls[2],
        gc[0],  gc[1],  gc[2],  enq[0],     enq[1],     enq[2],     gs[0],      gs[1], gs[2],
        off[0], off[1], off[2], linear,     workDim,    localMem,   scratchArg, stamps};
    callArgs.insert(callArgs.end(), std::begin(extra), std::end(extra));
    llvm::CallInst* call = lb.CreateCall(region, callArgs);
    calls.push_back(call);
    if (each) {
      each->record(lb, call, linear, 1);
    } else if (!single) {
      lb.CreateStore(call, next);
    }
    // Latches, innermost first.
    llvm::BasicBlock* after =
        llvm::BasicBlock::Create(ctx, "region" + llvm::Twine(k) + ".done", wg);
    for (int d = 0; d < 3; ++d) {
      latch[d] = llvm::BasicBlock::Create(ctx, "wi." + llvm::Twine(axis[d]) + ".latch", wg);
    }
    lb.CreateBr(latch[0]);
    for (int d = 0; d < 3; ++d) {
      llvm::IRBuilder<> xb(latch[d]);
      llvm::Value* inc = xb.CreateAdd(id[d], xb.getInt64(1), "", true, true);
      id[d]->addIncoming(inc, latch[d]);
      llvm::BranchInst* back =
          xb.CreateCondBr(xb.CreateICmpULT(inc, ls[d]), header[d], d == 2 ? after : latch[d + 1]);
      if (d == 0) {
        llvm::MDNode* parallel = llvm::MDNode::get(
            ctx, {llvm::MDString::get(ctx, "llvm.loop.parallel_accesses"), group});
        llvm::MDNode* loop = llvm::MDNode::getDistinct(ctx, {nullptr, parallel});
        loop->replaceOperandWith(0, loop);
        back->setMetadata(llvm::LLVMContext::MD_loop, loop);
      }
    }
    if (each) {
      llvm::IRBuilder<> ab(after);
      each->end(ab, next, dispatch);
    } else {
      if (k < regions.writesShared.size() && regions.writesShared[k]) {
        // The copy this region wrote becomes the current one (slot_sharing.h, SharedSlots).
        llvm::IRBuilder<> ab(after);
        llvm::Value* word =
            scratchSlotAddress(ab, scratchArg, regions.parityOffset,
                               ab.CreateMul(ab.CreateMul(ls[0], ls[1]), ls[2]), nullptr);
        ab.CreateStore(ab.CreateXor(ab.CreateLoad(ab.getInt32Ty(), word), ab.getInt32(1)), word);
      }
      llvm::BranchInst::Create(single ? exit : dispatch, after);
    }
    if (!levels.empty()) {
      // y header -> each level's widened x loop -> the scalar x loop over [last end, ls.x).
      llvm::BasicBlock* yHeader = header[1];
      yHeader->getTerminator()->eraseFromParent();
      auto* scheck = llvm::BasicBlock::Create(ctx, "wi.xs.check", wg, header[0]);
      llvm::Value* row = nullptr;
      llvm::BasicBlock* enter = yHeader;  // where the next level's check is reached from
      llvm::Value* start = llvm::ConstantInt::get(i64, 0);
      // Rows jammed (row_jam.cpp): kJamRows rows per call while that many rows remain and a row is
      // one VF-wide chunk (no x loop around the call: LICM would hoist the rows' row-invariant
      // loads, the SGEMM's 64 A broadcasts, out of it and spill them); the other rows take the
      // levels below.
      llvm::Function* jam = nullptr;
      llvm::BasicBlock* jammedRows = nullptr;
      llvm::MDNode* levelTag = llvm::MDNode::get(ctx, {});
      // A row is one chunk of the VF level or, with a required size, of the level of that width
      // (CLBlast's Xgemm: rows of 8 where VF is 16). Not when the required size rules the jammed
      // rows out (rows no level covers in one chunk, fewer rows than kJamRows).
      const unsigned rowWidth = requiredX ? *requiredX : widenVF;
      const auto rowLevel = std::find_if(levels.begin(), levels.end(),
                                         [&](const Level& l) { return l.width == rowWidth; });
      const bool jamRuns = !requiredY || *requiredY >= kJamRows;
      if (widen.rowJam && !each && rowsUsed && jamRuns && rowLevel != levels.end() &&
          !rowLevel->mayBail)
        jam = jamRows(*rowLevel->fn, firstRegionParam, kJamRows);
      if (jam) {
        widened.push_back(jam);
        auto* jcheck = llvm::BasicBlock::Create(ctx, "wi.rows.check", wg, header[0]);
        auto* jbody = llvm::BasicBlock::Create(ctx, "wi.rows", wg, header[0]);
        llvm::BranchInst::Create(jcheck, enter);
        llvm::IRBuilder<> rb(yHeader->getFirstNonPHI());
        row = rb.CreateMul(rb.CreateAdd(rb.CreateMul(id[2], ls[1]), id[1]), ls[0]);
        llvm::IRBuilder<> jb(jcheck);
        llvm::Value* fits =
            jb.CreateAnd(jb.CreateICmpULE(jb.CreateAdd(id[1], jb.getInt64(kJamRows)), ls[1]),
                         jb.CreateICmpEQ(ls[0], jb.getInt64(rowWidth)));
        enter = llvm::BasicBlock::Create(ctx, "wi.rows.no", wg, header[0]);
        llvm::BranchInst* jumps = jb.CreateCondBr(fits, jbody, enter);
        jumps->setMetadata(kWidenedLevelMetadata, levelTag);
        jumps->setMetadata(
            kJammedRowsMetadata,
            llvm::MDNode::get(ctx, {llvm::ConstantAsMetadata::get(jb.getInt64(kJamRows)),
                                    llvm::ConstantAsMetadata::get(jb.getInt64(rowWidth))}));
        jb.SetInsertPoint(jbody);
        std::vector<llvm::Value*> jargs = callArgs;
        jargs[firstRegionParam + kLocalIdX] = jb.getInt64(0);
        jargs[firstRegionParam + kLocalLinearId] = row;
        llvm::CallInst* jcall = jb.CreateCall(jam, jargs);
        calls.push_back(jcall);
        if (!single) jb.CreateStore(jcall, next);
        jb.CreateBr(latch[1]);
        jammedRows = jbody;
        ++info->widen.jammedRegions;
      }
      for (size_t l = 0; l < levels.size(); ++l) {
        const Level& level = levels[l];
        auto* vcheck = llvm::BasicBlock::Create(ctx, "wi.xv.check", wg, header[0]);
        auto* vbody = llvm::BasicBlock::Create(ctx, "wi.xv", wg, header[0]);
        auto* vlatch = llvm::BasicBlock::Create(ctx, "wi.xv.latch", wg, header[0]);
        llvm::BranchInst::Create(vcheck, enter);
        llvm::BasicBlock* nextCheck = l + 1 < levels.size() ? nullptr : scheck;
        auto* vdone = llvm::BasicBlock::Create(ctx, "wi.xv.done", wg, header[0]);
        llvm::IRBuilder<> cb(vcheck);
        if (row == nullptr) {
          llvm::IRBuilder<> rb(yHeader->getFirstNonPHI());
          row = rb.CreateMul(rb.CreateAdd(rb.CreateMul(id[2], ls[1]), id[1]), ls[0]);
        }
        llvm::Value* run = cb.CreateICmpULT(start, level.end);
        // With sub-group cuts, the widened regions count on lane 0's linear id being a multiple
        // of the width (kLinearAlignedAttribute): rows that do not start at one run scalar.
        if (each)
          run = cb.CreateAnd(run, cb.CreateICmpEQ(cb.CreateAnd(row, cb.getInt64(level.width - 1)),
                                                  cb.getInt64(0)));
        cb.CreateCondBr(run, vbody, vdone)->setMetadata(kWidenedLevelMetadata, levelTag);
        llvm::IRBuilder<> vb(vbody);
        llvm::PHINode* lxv = vb.CreatePHI(i64, 2, "lxv");
        lxv->addIncoming(start, vcheck);
        std::vector<llvm::Value*> vargs = callArgs;
        vargs[firstRegionParam + kLocalIdX] = lxv;
        vargs[firstRegionParam + kLocalLinearId] = vb.CreateAdd(row, lxv);
        llvm::CallInst* vcall = vb.CreateCall(level.fn, vargs);
        calls.push_back(vcall);
        if (level.mayBail) {
          // The lanes disagreed on a branch before anything was written: the scalar region runs
          // these work-items.
          auto* vok = llvm::BasicBlock::Create(ctx, "wi.xv.ok", wg, header[0]);
          auto* vbail = llvm::BasicBlock::Create(ctx, "wi.xv.bail", wg, header[0]);
          vb.CreateCondBr(vb.CreateICmpEQ(vcall, vb.getInt32(kWidenBail)), vbail, vok);
          vb.SetInsertPoint(vok);
          if (each) {
            each->record(vb, vcall, vb.CreateAdd(row, lxv), level.width);
          } else if (!single) {
            vb.CreateStore(vcall, next);
          }
          vb.CreateBr(vlatch);
          llvm::IRBuilder<> bb(vbail);
          llvm::PHINode* lxs = bb.CreatePHI(i64, 2, "lxs");
          lxs->addIncoming(lxv, vbody);
          std::vector<llvm::Value*> sargs = callArgs;
          sargs[firstRegionParam + kLocalIdX] = lxs;
          sargs[firstRegionParam + kLocalLinearId] = bb.CreateAdd(row, lxs);
          llvm::CallInst* scall = bb.CreateCall(region, sargs);
          calls.push_back(scall);
          if (each) {
            each->record(bb, scall, bb.CreateAdd(row, lxs), 1);
          } else if (!single) {
            bb.CreateStore(scall, next);
          }
          llvm::Value* snext = bb.CreateAdd(lxs, bb.getInt64(1), "", true, true);
          lxs->addIncoming(snext, vbail);
          bb.CreateCondBr(bb.CreateICmpULT(snext, bb.CreateAdd(lxv, bb.getInt64(level.width))),
                          vbail, vlatch);
        } else {
          if (each) {
            each->record(vb, vcall, vb.CreateAdd(row, lxv), level.width);
          } else if (!single) {
            vb.CreateStore(vcall, next);
          }
          vb.CreateBr(vlatch);
        }
        vb.SetInsertPoint(vlatch);
        llvm::Value* vnext = vb.CreateAdd(lxv, vb.getInt64(level.width), "", true, true);
        lxv->addIncoming(vnext, vlatch);
        vb.CreateCondBr(vb.CreateICmpULT(vnext, level.end), vbody, vdone);
        // The next level starts where this one ended (or where the previous one did, when this
        // one ran nothing: its end is then at most the start).
        llvm::IRBuilder<> db(vdone);
        llvm::PHINode* reached = db.CreatePHI(i64, 2, "wi.xv.end");
        reached->addIncoming(start, vcheck);
        reached->addIncoming(vnext, vlatch);
        start = reached;
        enter = vdone;
        if (nextCheck) llvm::BranchInst::Create(nextCheck, vdone);
      }
      llvm::IRBuilder<> sb(scheck);
      sb.CreateCondBr(sb.CreateICmpULT(start, ls[0]), header[0], latch[1]);
      // What the widened levels leave of a row is fewer work-items than the narrowest level's
      // width. Unless sub-group cuts send whole unaligned rows here.
      if (!each) keepScalar(*latch[0]->getTerminator());
      if (jammedRows) {
        // The y loop steps over the jammed rows.
        auto* incY = llvm::cast<llvm::Instruction>(id[1]->getIncomingValueForBlock(latch[1]));
        llvm::PHINode* step = llvm::PHINode::Create(i64, 3, "wi.y.step", &latch[1]->front());
        for (llvm::BasicBlock* p : llvm::predecessors(latch[1]))
          step->addIncoming(llvm::ConstantInt::get(i64, p == jammedRows ? kJamRows : 1), p);
        incY->setOperand(1, step);
      }
      id[0]->setIncomingBlock(0, scheck);
      id[0]->setIncomingValue(0, start);
    }
    if (single && rowsAcrossGroups(*info)) loopGroupsInRows(*wg, header[1], latch[1]);
  }
  if (each) {
    std::vector<llvm::Value*> args = kernelArgs;
    llvm::Value* extra[kRegionParamCount] = {
        nullptr, nullptr, nullptr, groupId[0], groupId[1], groupId[2], ls[0],      ls[1], ls[2],
        gc[0],   gc[1],   gc[2],   enq[0],     enq[1],     enq[2],     gs[0],      gs[1], gs[2],
        off[0],  off[1],  off[2],  nullptr,    workDim,    localMem,   scratchArg, stamps};
    args.insert(args.end(), std::begin(extra), std::end(extra));
    each->buildRounds(wg, regions.functions, args, firstRegionParam + kLocalIdX,
                      firstRegionParam + kLocalLinearId, next, dispatch, exit, &calls);
  }
  for (llvm::CallInst* call : calls) {
    llvm::InlineFunctionInfo ifi;
    llvm::InlineFunction(*call, ifi);
  }
  for (llvm::Function* region : regions.functions) region->eraseFromParent();
  for (llvm::Function* region : widened) region->eraseFromParent();
  // The group size launches most likely use, which fixed_group_size.cpp makes a copy of the
  // function for, in kernels with a barrier in a loop (the rows' loops and checks cost at every
  // step): the required size, else in a kernel of rows (local id y used) square groups of rows
  // one chunk wide (16 x 16 where VF is 16). Not with sub-group cuts, whose rounds follow each
  // work-item (workgroup_dispatch.h).
  if (!single && !each && loopedBarrier) {
    const std::optional<uint32_t> requiredZ = requiredSize(kernel, 2);
    // (A forced width above 16 would make groups larger than launches use: 16 then.)
    const uint32_t side = widenVF > 1 && widenVF <= 16 ? widenVF : 16;
    if (requiredX && requiredY && requiredZ) {
      info->fixedGroupSize[0] = *requiredX;
      info->fixedGroupSize[1] = *requiredY;
      info->fixedGroupSize[2] = *requiredZ;
      info->fixedGroupSizeRequired = true;
    } else if (rowsUsed && !requiredX && !requiredY && !requiredZ) {
      info->fixedGroupSize[0] = info->fixedGroupSize[1] = side;
      info->fixedGroupSize[2] = 1;
    }
  }
  return wg;
}

}  // namespace tessera::backends::cpu::jit
