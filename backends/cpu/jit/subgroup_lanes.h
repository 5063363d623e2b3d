// Where a work-item sits in its sub-group (kernel_abi.h's mapping: sub-group k holds the local
// linear ids [k * S, min((k + 1) * S, n))), as IR on the work-item builtins, which the region pass
// turns into arithmetic on the work-item loop's variables. Shared by subgroup_builtins.cpp and
// subgroup_collectives.cpp.
#pragma once

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

namespace tessera::backends::cpu::jit {

struct SubgroupLanes {
  llvm::Value* linear;  // i64: the local linear id
  llvm::Value* base;    // i64: the local linear id of the sub-group's first work-item
  llvm::Value* lane;    // i64: get_sub_group_local_id()
  llvm::Value* size;    // i64: get_sub_group_size() (smaller in the last, partial sub-group)
};

// The number of work-items of the work-group (`enqueued`: of a work-group of the enqueued size).
inline llvm::Value* workGroupItems(llvm::IRBuilder<>& b, llvm::Module& m, bool enqueued = false) {
  llvm::FunctionCallee size = m.getOrInsertFunction(
      enqueued ? "__spirv_BuiltInEnqueuedWorkgroupSize" : "__spirv_BuiltInWorkgroupSize",
      llvm::FunctionType::get(b.getInt64Ty(), {b.getInt32Ty()}, false));
  llvm::Value* n = b.CreateCall(size, {b.getInt32(0)});
  for (unsigned d = 1; d < 3; ++d) n = b.CreateMul(n, b.CreateCall(size, {b.getInt32(d)}));
  return n;
}

inline SubgroupLanes subgroupLanes(llvm::IRBuilder<>& b, llvm::Module& m, uint64_t S) {
  llvm::FunctionCallee index = m.getOrInsertFunction(
      "__spirv_BuiltInLocalInvocationIndex", llvm::FunctionType::get(b.getInt64Ty(), {}, false));
  SubgroupLanes l;
  l.linear = b.CreateCall(index);
  l.lane = b.CreateURem(l.linear, b.getInt64(S));
  l.base = b.CreateSub(l.linear, l.lane);
  l.size = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b.getInt64(S),
                                   b.CreateSub(workGroupItems(b, m), l.base));
  return l;
}

}  // namespace tessera::backends::cpu::jit
