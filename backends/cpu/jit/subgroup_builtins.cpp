// Pass (part of lowerSubgroups): the sub-group builtins that need no other work-item's value become
// arithmetic on the work-item's position (subgroup_lanes.h): the sizes and ids, the ballot masks
// (get_sub_group_eq_mask & co.), the functions of a ballot value (inverse_ballot,
// bit_extract, bit_count and its scans, find_lsb/msb), and cl_intel_subgroups' block reads and
// writes, where "lane i gets p[i] of each chunk" of the sub-group's size.
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include "backends/cpu/jit/jit_passes.h"
#include "backends/cpu/jit/subgroup_lanes.h"

namespace tessera::backends::cpu::jit {
namespace {

llvm::Type* i128(llvm::IRBuilder<>& b) {
  return b.getIntNTy(128);
}

// A ballot value (uint4, lanes 0..127 from .x's lowest bit) as an i128 and back.
llvm::Value* fromBallot(llvm::IRBuilder<>& b, llvm::Value* v) {
  if (v->getType()->isIntegerTy()) return b.CreateZExtOrTrunc(v, i128(b));
  return b.CreateBitCast(v, i128(b));
}
llvm::Value* toType(llvm::IRBuilder<>& b, llvm::Value* v, llvm::Type* t) {
  if (t->isIntegerTy()) return b.CreateZExtOrTrunc(v, t);
  return b.CreateBitCast(v, t);
}

// Bits [0, n) set, n <= 128.
llvm::Value* lowBits(llvm::IRBuilder<>& b, llvm::Value* n) {
  llvm::Value* n128 = b.CreateZExtOrTrunc(n, i128(b));
  llvm::Value* all = llvm::ConstantInt::getAllOnesValue(i128(b));
  // (1 << 128) is poison: n == 128 gives every bit.
  return b.CreateSelect(b.CreateICmpUGE(n128, llvm::ConstantInt::get(i128(b), 128)), all,
                        b.CreateSub(b.CreateShl(llvm::ConstantInt::get(i128(b), 1), n128),
                                    llvm::ConstantInt::get(i128(b), 1)));
}

}  // namespace

void lowerSubgroupLocalBuiltins(llvm::Function& kernel, uint64_t S, SubgroupBuiltins which) {
  const bool ids = which == SubgroupBuiltins::Ids;
  llvm::Module& m = *kernel.getParent();
  std::vector<llvm::CallInst*> calls;
  for (llvm::BasicBlock& bb : kernel)
    for (llvm::Instruction& i : bb)
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i))
        if (call->getCalledFunction()) calls.push_back(call);
  for (llvm::CallInst* call : calls) {
    llvm::StringRef name = spirvBaseName(call->getCalledFunction()->getName());
    llvm::IRBuilder<> b(call);
    llvm::Type* t = call->getType();
    auto arg = [&](unsigned i) { return call->getArgOperand(i); };
    auto isScope3 = [&]() {
      auto* c = llvm::dyn_cast<llvm::ConstantInt>(arg(0));
      return c && c->getZExtValue() == 3;
    };
    llvm::Value* r = nullptr;
    if (name.startswith("__spirv_BuiltIn") != ids) continue;
    if (name.consume_front("__spirv_BuiltIn")) {
      if (name == "SubgroupMaxSize") {
        r = b.getInt64(S);
      } else if (name == "SubgroupSize") {
        r = subgroupLanes(b, m, S).size;
      } else if (name == "NumSubgroups" || name == "NumEnqueuedSubgroups") {
        llvm::Value* n = workGroupItems(b, m, name == "NumEnqueuedSubgroups");
        r = b.CreateUDiv(b.CreateAdd(n, b.getInt64(S - 1)), b.getInt64(S));
      } else if (name == "SubgroupId") {
        SubgroupLanes l = subgroupLanes(b, m, S);
        r = b.CreateUDiv(l.base, b.getInt64(S));
      } else if (name == "SubgroupLocalInvocationId") {
        r = subgroupLanes(b, m, S).lane;
      } else if (name.startswith("SubgroupEqMask") || name.startswith("SubgroupGeMask") ||
                 name.startswith("SubgroupGtMask") || name.startswith("SubgroupLeMask") ||
                 name.startswith("SubgroupLtMask")) {
        // cl_khr_subgroup_ballot: bits set for the work-items of the sub-group whose sub-group
        // local id is equal to (greater or equal, ...) the current one's.
        SubgroupLanes l = subgroupLanes(b, m, S);
        llvm::Value* lane = b.CreateAdd(l.lane, b.getInt64(1));
        llvm::Value* upToMe = lowBits(b, lane);     // ids <= mine
        llvm::Value* belowMe = lowBits(b, l.lane);  // ids < mine
        llvm::Value* inGroup = lowBits(b, l.size);  // every id of the sub-group
        llvm::StringRef which = name.substr(8, 2);
        llvm::Value* mask = which == "Eq"   ? b.CreateXor(upToMe, belowMe)
                            : which == "Ge" ? b.CreateAnd(inGroup, b.CreateNot(belowMe))
                            : which == "Gt" ? b.CreateAnd(inGroup, b.CreateNot(upToMe))
                            : which == "Le" ? upToMe
                                            : belowMe;
        r = toType(b, mask, t);
      } else {
        continue;
      }
      r = t->isIntegerTy() ? b.CreateZExtOrTrunc(r, t) : r;
    } else if (name == "__spirv_GroupNonUniformInverseBallot" && isScope3()) {
      llvm::Value* mask = fromBallot(b, arg(1));
      r = b.CreateTrunc(b.CreateLShr(mask, b.CreateZExt(subgroupLanes(b, m, S).lane, i128(b))),
                        b.getInt1Ty());
    } else if (name == "__spirv_GroupNonUniformBallotBitExtract" && isScope3()) {
      llvm::Value* mask = fromBallot(b, arg(1));
      llvm::Value* index = b.CreateZExtOrTrunc(arg(2), i128(b));
      // An index beyond the mask reads 0 (the spec leaves it undefined).
      llvm::Value* bit = b.CreateTrunc(b.CreateLShr(mask, index), b.getInt1Ty());
      r = b.CreateAnd(bit, b.CreateICmpULT(index, llvm::ConstantInt::get(i128(b), 128)));
    } else if (name == "__spirv_GroupNonUniformBallotBitCount" && isScope3()) {
      // Reduce: the first maximum-sub-group-size bits; InclusiveScan: those up to the current
      // work-item; ExclusiveScan: those before it. OpenCL C 3.0.9 (OpenCL-Docs#626/#689):
      // sub_group_ballot_bit_count and find_lsb/msb consider the bits of the maximum sub-group
      // size, also in a partial last sub-group (where get_sub_group_size() is smaller), as
      // OpenCL-CTS's ballot tests check in non-uniform work-groups.
      SubgroupLanes l = subgroupLanes(b, m, S);
      auto* op = llvm::dyn_cast<llvm::ConstantInt>(arg(1));
      uint64_t kind = op ? op->getZExtValue() : 0;
      llvm::Value* range = kind == 1   ? lowBits(b, b.CreateAdd(l.lane, b.getInt64(1)))
                           : kind == 2 ? lowBits(b, l.lane)
                                       : lowBits(b, b.getInt64(S));
      llvm::Value* bits = b.CreateAnd(fromBallot(b, arg(2)), range);
      r = b.CreateZExtOrTrunc(b.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, bits), t);
    } else if ((name == "__spirv_GroupNonUniformBallotFindLSB" ||
                name == "__spirv_GroupNonUniformBallotFindMSB") &&
               isScope3()) {
      // The first maximum-sub-group-size bits (as BitCount's reduce above).
      llvm::Value* bits = b.CreateAnd(fromBallot(b, arg(1)), lowBits(b, b.getInt64(S)));
      if (name.endswith("LSB")) {
        r = b.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, bits, b.getFalse());
      } else {
        llvm::Value* lz = b.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, bits, b.getFalse());
        r = b.CreateSub(llvm::ConstantInt::get(i128(b), 127), lz);
      }
      r = b.CreateZExtOrTrunc(r, t);  // no bit set: undefined (the spec's), here 128 or -1
    } else if (name.startswith("__spirv_SubgroupBlockReadINTEL") ||
               name == "__spirv_SubgroupBlockWriteINTEL") {
      // cl_intel_subgroups: "the data is read from p[sub_group_local_id] for the first value,
      // p[sub_group_local_id + max_sub_group_size] for the second, ...".
      bool read = name.startswith("__spirv_SubgroupBlockReadINTEL");
      llvm::Type* vt = read ? t : arg(1)->getType();
      auto* vec = llvm::dyn_cast<llvm::FixedVectorType>(vt);
      llvm::Type* et = vec ? vec->getElementType() : vt;
      unsigned count = vec ? vec->getNumElements() : 1;
      llvm::Value* lane = subgroupLanes(b, m, S).lane;
      llvm::Align align(m.getDataLayout().getTypeStoreSize(et).getFixedSize());
      llvm::Value* result = llvm::UndefValue::get(vt);
      for (unsigned k = 0; k < count; ++k) {
        llvm::Value* p = b.CreateInBoundsGEP(et, arg(0), b.CreateAdd(lane, b.getInt64(k * S)));
        if (read) {
          llvm::Value* e = b.CreateAlignedLoad(et, p, align);
          result = vec ? b.CreateInsertElement(result, e, k) : e;
        } else {
          b.CreateAlignedStore(vec ? b.CreateExtractElement(arg(1), k) : arg(1), p, align);
        }
      }
      if (!read) {
        call->eraseFromParent();
        continue;
      }
      r = result;
    } else {
      continue;
    }
    call->replaceAllUsesWith(r);
    call->eraseFromParent();
  }
}

}  // namespace tessera::backends::cpu::jit
