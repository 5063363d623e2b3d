// Pass: row jamming. A widened region runs VF work-items of one row (widen.cpp); in a work-group
// of several rows (16x16 tiles) the work-group function calls it once per row, so each row's
// dependent chains (a tiled SGEMM's acc += As[ly][k] * Bs[k][lx], k = 0..15: one chain of 16
// fused multiply-adds per row) run one after the other, at the latency of one FMA per step, and
// the out-of-order window overlaps only the few rows it holds. The jammed copy runs `rows`
// consecutive rows (local id y = the argument + 0..rows-1) with their instructions alternating
// (each instruction of the widened region, then its copy for the next row, ...), so that the rows'
// chains are independent instructions side by side in program order, and loads the rows share
// (the B tile's row k) are one load after CSE. SGEMM 1024 in 16x16 tiles on a 2-vCPU AVX2 EPYC:
// 95-122 ms row by row, 34-44 ms jammed (bench/cl_pattern_bench, alternating runs).
//
// Work-items between two barriers may run in any order and interleaved (OpenCL C 3.0, 3.3.5:
// without a barrier their accesses are unordered with respect to each other), so running several
// rows' work-items interleaved is one of the executions the program allows; each copy keeps its
// own row's ids (y, the local linear id) and so its own private scratch slots. Its memory accesses
// say which row they are (kJamRowMetadata), so that scratch_scope.cpp can tell LLVM that one row's
// accumulators are not another's: CLBlast's XgemmDirect keeps four per work-item in scratch across
// its k loop, and with the rows' slots possibly overlapping LICM stored and reloaded all sixteen
// of a jam around every four k steps.
//
// A widened region qualifies when every branch condition and the returned region are the same for
// all rows (built from the group's uniform values: arguments other than the row's ids, constants,
// loads of group-uniform scratch slots, pure arithmetic on them, phis of such values): the jammed
// copy then keeps one copy of the control flow, and each block holds the rows' instructions
// interleaved. That includes loops whose trip count is the same in every row: CLBlast's Xgemm
// (8 x 16 groups, each work-item two float4 accumulators updated once per step of its k loop) ran
// its loop at one FMA chain per accumulator, at half the FMA pipes' rate, a row at a time. It must
// never bail to the scalar region (the work-group function checks that), and be small enough that
// `rows` copies stay cheap to compile (kMaxJamInstructions).

#include <llvm/Analysis/CFG.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include "backends/cpu/jit/jit_passes.h"

#include <map>
#include <set>
#include <vector>

namespace tessera::backends::cpu::jit {
namespace {

// The values of `wide` that may differ between rows: the row's ids, what is computed from them,
// loads other than simple ones from group-uniform slots or from addresses the same in every row,
// and every other instruction that touches memory. Found as a fixpoint from "the same in every
// row" (optimistic), so that a loop's counter, a phi of its start and its increment, stays the
// same in every row where nothing else makes it differ. The row's ids are in the set themselves.
std::set<llvm::Value*> differInRows(llvm::Function& wide, unsigned firstRegionParam) {
  std::set<llvm::Value*> differs{wide.getArg(firstRegionParam + kLocalIdY),
                                 wide.getArg(firstRegionParam + kLocalLinearId)};
  auto operandDiffers = [&](llvm::Value* v) { return differs.count(v) != 0; };
  for (bool changed = true; changed;) {
    changed = false;
    for (llvm::BasicBlock& bb : wide)
      for (llvm::Instruction& i : bb) {
        if (i.isTerminator() || differs.count(&i)) continue;
        bool d;
        if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&i)) {
          auto* slot =
              llvm::dyn_cast<llvm::Instruction>(load->getPointerOperand()->stripPointerCasts());
          d = !load->isSimple() || (!(slot && slot->getMetadata(kUniformSlotMetadata)) &&
                                    operandDiffers(load->getPointerOperand()));
        } else if (i.mayReadOrWriteMemory() || llvm::isa<llvm::AllocaInst>(i)) {
          d = true;
        } else {
          d = llvm::any_of(i.operands(), [&](llvm::Value* op) { return operandDiffers(op); });
        }
        if (d) changed = differs.insert(&i).second || changed;
      }
  }
  return differs;
}

bool jammable(llvm::Function& wide, const std::set<llvm::Value*>& differs) {
  size_t count = 0;
  for (llvm::BasicBlock& bb : wide) {
    count += bb.size();
    for (llvm::Instruction& i : bb)
      if (llvm::isa<llvm::AllocaInst>(i)) return false;
    llvm::Instruction* t = bb.getTerminator();
    llvm::Value* decides = nullptr;
    if (auto* br = llvm::dyn_cast<llvm::BranchInst>(t)) {
      if (br->isConditional()) decides = br->getCondition();
    } else if (auto* sw = llvm::dyn_cast<llvm::SwitchInst>(t)) {
      decides = sw->getCondition();
    } else if (auto* ret = llvm::dyn_cast<llvm::ReturnInst>(t)) {
      decides = ret->getReturnValue();
    } else if (!llvm::isa<llvm::UnreachableInst>(t)) {
      return false;
    }
    if (decides && differs.count(decides)) return false;
  }
  return count <= kMaxJamInstructions;
}

}  // namespace

llvm::Function* jamRows(llvm::Function& wide, unsigned firstRegionParam, unsigned rows) {
  // Merge blocks joined by an unconditional edge (the widening's entry and body blocks).
  for (auto it = wide.begin(); it != wide.end();) {
    llvm::BasicBlock& bb = *it++;
    if (&bb != &wide.getEntryBlock()) llvm::MergeBlockIntoPredecessor(&bb);
  }
  const std::set<llvm::Value*> differs = differInRows(wide, firstRegionParam);
  if (!jammable(wide, differs)) return nullptr;

  llvm::LLVMContext& ctx = wide.getContext();
  llvm::Function* jam = llvm::Function::Create(wide.getFunctionType(), wide.getLinkage(),
                                               wide.getName() + ".rows", wide.getParent());
  jam->copyAttributesFrom(&wide);
  llvm::BasicBlock* entry = llvm::BasicBlock::Create(ctx, "rows", jam);
  llvm::IRBuilder<> b(entry);
  llvm::Value* ly = jam->getArg(firstRegionParam + kLocalIdY);
  llvm::Value* linear = jam->getArg(firstRegionParam + kLocalLinearId);
  llvm::Value* lsx = jam->getArg(firstRegionParam + kLocalSizeX);
  std::vector<llvm::ValueToValueMapTy> maps(rows);
  for (unsigned r = 0; r < rows; ++r) {
    for (unsigned a = 0; a < wide.arg_size(); ++a) {
      llvm::Value* v = jam->getArg(a);
      if (r > 0 && a == firstRegionParam + kLocalIdY)
        v = b.CreateAdd(ly, b.getInt64(r), "ly.row", true, true);
      if (r > 0 && a == firstRegionParam + kLocalLinearId)
        v = b.CreateAdd(linear, b.CreateMul(lsx, b.getInt64(r)), "linear.row", true, true);
      maps[r][wide.getArg(a)] = v;
    }
  }
  for (llvm::BasicBlock& bb : wide) {
    llvm::BasicBlock* copy = llvm::BasicBlock::Create(ctx, bb.getName(), jam);
    for (unsigned r = 0; r < rows; ++r) maps[r][&bb] = copy;
  }
  b.CreateBr(llvm::cast<llvm::BasicBlock>(maps[0][&wide.getEntryBlock()]));
  // Each instruction, then its copies for the next rows; the terminator once (its condition is the
  // same in every row), the returned value the last row's. What is the same in every row once too,
  // row 0's: LLVM cannot merge the rows' loads of a group-uniform slot (CLBlast's XgemmDirect: its
  // k loop counter), each at its own work-item's address, nor so the addresses computed from them.
  // Operands are remapped once every copy exists, as a phi may name a value of a later block.
  std::vector<std::pair<llvm::Instruction*, unsigned>> copies;
  llvm::MDNode* jamNode = llvm::MDNode::getDistinct(ctx, {});
  std::vector<llvm::MDNode*> rowTags;
  for (unsigned r = 0; r < rows; ++r)
    rowTags.push_back(
        llvm::MDNode::get(ctx, {llvm::ConstantAsMetadata::get(b.getInt64(r)), jamNode}));
  for (llvm::BasicBlock& bb : wide) {
    auto* to = llvm::cast<llvm::BasicBlock>(maps[0][&bb]);
    for (llvm::Instruction& i : bb) {
      const bool once = i.isTerminator() || !differs.count(&i);
      for (unsigned k = 0; k < (once ? 1 : rows); ++k) {
        const unsigned r = i.isTerminator() ? rows - 1 : k;
        llvm::Instruction* copy = i.clone();
        if (i.hasName()) copy->setName(i.getName() + (once ? "" : ".r" + llvm::Twine(r)));
        to->getInstList().push_back(copy);
        if (!once && copy->mayReadOrWriteMemory()) copy->setMetadata(kJamRowMetadata, rowTags[r]);
        if (once)
          for (unsigned other = 0; other < rows; ++other) maps[other][&i] = copy;
        else
          maps[r][&i] = copy;
        copies.push_back({copy, r});
      }
    }
  }
  for (auto [copy, r] : copies)
    llvm::RemapInstruction(copy, maps[r], llvm::RF_NoModuleLevelChanges);
  return jam;
}

}  // namespace tessera::backends::cpu::jit
