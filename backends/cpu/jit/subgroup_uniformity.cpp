// Pass: sub-group operations (but the non-uniform ones, kNonUniformCutMetadata) run where whole
// sub-groups reach them (subgroup_collectives.cpp cuts
// the kernel there; the work-group function follows each sub-group's path, workgroup_dispatch.h).
// A cut under control flow that may differ between the work-items of one sub-group (a branch on
// the local id, on loaded data, a loop whose trip count varies per work-item) would have a
// sub-group's lanes wait at different cuts and compute a wrong answer; such a kernel fails to
// build instead, with a log line that says so. Then the sub-group id builtins become arithmetic
// (subgroup_builtins.cpp; kept as calls until here so that they count as sub-group uniform).
//
// Which values and blocks are uniform: uniformity.h.
#include <llvm/IR/Instructions.h>

#include "backends/cpu/jit/jit_passes.h"
#include "backends/cpu/jit/uniformity.h"

namespace tessera::backends::cpu::jit {
namespace {

bool checkCuts(llvm::Function& kernel, std::string* error) {
  std::vector<llvm::Instruction*> cuts;
  for (llvm::BasicBlock& bb : kernel)
    for (llvm::Instruction& i : bb)
      if (i.getMetadata(kSubgroupCutMetadata)) cuts.push_back(&i);
  if (cuts.empty()) return true;
  Uniformity u(kernel, Uniformity::Scope::SubGroup);
  for (llvm::Instruction* cut : cuts) {
    if (u.divergent(cut->getParent())) {
      *error = "kernel " + kernel.getName().str() +
               ": a sub-group operation or sub_group_barrier under control flow that may differ "
               "between the work-items of a sub-group is not supported (Tessera runs sub-group "
               "operations where whole sub-groups reach them)";
      return false;
    }
  }
  return true;
}

}  // namespace

bool checkSubgroupUniformity(llvm::Function& kernel, std::string* error) {
  if (!checkCuts(kernel, error)) return false;
  uint64_t size = kDefaultSubgroupSize;
  if (kernel.getFnAttribute(kSubgroupSizeAttribute).getValueAsString().getAsInteger(10, size))
    size = kDefaultSubgroupSize;
  lowerSubgroupLocalBuiltins(kernel, size, SubgroupBuiltins::Ids);
  return true;
}

}  // namespace tessera::backends::cpu::jit
