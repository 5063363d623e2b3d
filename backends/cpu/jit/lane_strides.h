// The widening's stride analysis (widen.cpp): how a varying value differs between consecutive
// lanes (work-items consecutive in x), when that is a known constant. The local id x and the local
// linear id step by 1; add/sub/mul and shl by constants, sign and zero extensions, truncations,
// and-masks of 32 bits or more, and GEP scaling carry a stride through; a loop phi keeps the
// stride its incoming values share (assumed for the back edge, then checked: `i = gid; i +=
// stride` stays consecutive). Uniform values have stride 0. Assumes 32-bit index arithmetic does
// not wrap between consecutive work-items (clang's `nsw` for `int`); narrower types are never
// taken as consecutive.
#pragma once

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace tessera::backends::cpu::jit {

class LaneStrides {
 public:
  // `varying`: the region's varying values (widen.cpp's classification), complete before the
  // first question; `first`: the index of the region's first RegionParam.
  LaneStrides(llvm::Function& f, unsigned first, const llvm::DenseSet<llvm::Value*>& varying,
              const llvm::DataLayout& dl)
      : f_(f), first_(first), varying_(varying), dl_(dl) {}

  // Difference between consecutive lanes (in the value's units; bytes for pointers), if known.
  std::optional<int64_t> of(llvm::Value* v) { return of(v, 0); }

 private:
  std::optional<int64_t> of(llvm::Value* v, int depth);
  std::optional<int64_t> ofPhi(llvm::PHINode* phi, int depth);

  llvm::Function& f_;
  unsigned first_;
  const llvm::DenseSet<llvm::Value*>& varying_;
  const llvm::DataLayout& dl_;
  llvm::DenseMap<llvm::Value*, std::optional<int64_t>> strides_;
  llvm::DenseMap<llvm::PHINode*, std::optional<int64_t>> assumed_;  // phis under assumption
  std::vector<llvm::Value*> assumedLog_;  // strides computed while assumptions were open
};

}  // namespace tessera::backends::cpu::jit
