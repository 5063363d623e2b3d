// Pass: work-item functions become arithmetic on a region's parameters (the loop variables of the
// work-group function once the region is inlined), so nothing is called per work-item and the
// work-item loop vectorizes. Sub-groups have one work-item each.
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

struct Dims {
  llvm::Value* v[3];
};

// v[dim]; an out-of-range dimension gives `outside` (OpenCL: 0 for ids and offsets, 1 for sizes).
llvm::Value* pick(llvm::IRBuilder<>& b, const Dims& d, llvm::Value* dim, uint64_t outside) {
  if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(dim)) {
    uint64_t i = c->getZExtValue();
    return i < 3 ? d.v[i] : b.getInt64(outside);
  }
  llvm::Value* dim64 = b.CreateZExtOrTrunc(dim, b.getInt64Ty());
  llvm::Value* r = b.getInt64(outside);
  for (int i = 2; i >= 0; --i) r = b.CreateSelect(b.CreateICmpEQ(dim64, b.getInt64(i)), d.v[i], r);
  return r;
}

}  // namespace

void replaceWorkItemBuiltins(llvm::Function& region, unsigned first) {
  auto arg = [&](unsigned p) -> llvm::Value* { return region.getArg(first + p); };
  std::vector<llvm::CallInst*> calls;
  for (llvm::BasicBlock& bb : region) {
    for (llvm::Instruction& i : bb) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
      if (call && call->getCalledFunction() &&
          spirvBaseName(call->getCalledFunction()->getName()).startswith("__spirv_BuiltIn")) {
        calls.push_back(call);
      }
    }
  }
  for (llvm::CallInst* call : calls) {
    llvm::StringRef name = spirvBaseName(call->getCalledFunction()->getName());
    name.consume_front("__spirv_BuiltIn");
    llvm::IRBuilder<> b(call);
    Dims lid{{arg(kLocalIdX), arg(kLocalIdY), arg(kLocalIdZ)}};
    Dims gid{{arg(kGroupIdX), arg(kGroupIdY), arg(kGroupIdZ)}};
    Dims ls{{arg(kLocalSizeX), arg(kLocalSizeY), arg(kLocalSizeZ)}};
    Dims gc{{arg(kGroupCountX), arg(kGroupCountY), arg(kGroupCountZ)}};
    Dims enq{{arg(kEnqueuedSizeX), arg(kEnqueuedSizeY), arg(kEnqueuedSizeZ)}};
    Dims gs{{arg(kGlobalSizeX), arg(kGlobalSizeY), arg(kGlobalSizeZ)}};
    Dims off{{arg(kOffsetX), arg(kOffsetY), arg(kOffsetZ)}};
    auto dimArg = [&]() -> llvm::Value* {
      return call->arg_size() > 0 ? call->getArgOperand(0) : b.getInt32(0);
    };
    // OpenCL C: get_global_id(d) = get_group_id(d) * get_enqueued_local_size(d) +
    // get_local_id(d) + get_global_offset(d); get_local_size(d) is the calling group's size
    // (smaller in the last group of a non-uniform range), get_enqueued_local_size(d) the size
    // the launch was enqueued with (kernel_abi.h, WorkGroupContext).
    auto globalIdNoOffset = [&](int d) {
      return b.CreateAdd(b.CreateMul(gid.v[d], enq.v[d]), lid.v[d]);
    };
    llvm::Value* r = nullptr;
    if (name == "LocalInvocationId") {
      r = pick(b, lid, dimArg(), 0);
    } else if (name == "GlobalInvocationId") {
      llvm::Value* d = dimArg();
      r = b.CreateAdd(
          b.CreateAdd(b.CreateMul(pick(b, gid, d, 0), pick(b, enq, d, 1)), pick(b, lid, d, 0)),
          pick(b, off, d, 0));
    } else if (name == "WorkgroupId") {
      r = pick(b, gid, dimArg(), 0);
    } else if (name == "WorkgroupSize") {
      r = pick(b, ls, dimArg(), 1);
    } else if (name == "EnqueuedWorkgroupSize") {
      r = pick(b, enq, dimArg(), 1);
    } else if (name == "NumWorkgroups") {
      r = pick(b, gc, dimArg(), 1);
    } else if (name == "GlobalSize") {
      r = pick(b, gs, dimArg(), 1);
    } else if (name == "GlobalOffset") {
      r = pick(b, off, dimArg(), 0);
    } else if (name == "LocalInvocationIndex") {
      r = arg(kLocalLinearId);
    } else if (name == "GlobalLinearId") {
      r = b.CreateAdd(
          b.CreateMul(b.CreateAdd(b.CreateMul(globalIdNoOffset(2), gs.v[1]), globalIdNoOffset(1)),
                      gs.v[0]),
          globalIdNoOffset(0));
    } else if (name == "WorkDim") {
      r = arg(kWorkDim);
    } else {
      continue;  // left for the unknown-builtin check
    }
    r = b.CreateZExtOrTrunc(r, call->getType());
    call->replaceAllUsesWith(r);
    call->eraseFromParent();
  }
}

}  // namespace tessera::backends::cpu::jit
