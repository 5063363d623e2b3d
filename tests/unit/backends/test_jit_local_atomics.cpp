// Atomics on local memory become plain accesses (backends/cpu/jit/local_atomics.cpp): a
// work-group's local memory is its worker thread's alone. Atomics on global memory and through
// generic pointers, which other threads may reach, stay atomic. (That the widening keeps the lanes'
// atomics in order before this runs is test_jit_kernels.cpp's histogram test: bins shared by
// lanes of a chunk.)
#include <catch2/catch.hpp>

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/SourceMgr.h>

#include <memory>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::test {
namespace {

constexpr const char* kModule = R"(
define i32 @k(ptr addrspace(3) %bins, ptr addrspace(1) %global, ptr addrspace(4) %generic, i64 %i) {
entry:
  %bin = getelementptr inbounds i32, ptr addrspace(3) %bins, i64 %i
  %old = atomicrmw add ptr addrspace(3) %bin, i32 1 seq_cst, align 4
  %min = atomicrmw min ptr addrspace(3) %bins, i32 %old seq_cst, align 4
  %pair = cmpxchg ptr addrspace(3) %bin, i32 0, i32 %min seq_cst seq_cst, align 4
  %seen = extractvalue { i32, i1 } %pair, 0
  %read = load atomic i32, ptr addrspace(3) %bins seq_cst, align 4
  store atomic i32 %read, ptr addrspace(3) %bin seq_cst, align 4
  %kept = atomicrmw volatile add ptr addrspace(3) %bin, i32 1 seq_cst, align 4
  %fsum = atomicrmw fadd ptr addrspace(3) %bin, float 1.0 seq_cst, align 4
  %fmin = atomicrmw fmin ptr addrspace(3) %bin, float %fsum seq_cst, align 4
  %fmax = atomicrmw fmax ptr addrspace(3) %bin, float %fmin seq_cst, align 4
  %g = atomicrmw add ptr addrspace(1) %global, i32 %seen seq_cst, align 4
  %p = atomicrmw add ptr addrspace(4) %generic, i32 %g seq_cst, align 4
  %gl = load atomic i32, ptr addrspace(1) %global seq_cst, align 4
  %sum = add i32 %p, %gl
  ret i32 %sum
}
)";

TEST_CASE(
    "Given atomics on local, global and generic pointers, then those on local memory become "
    "plain loads and stores and the others stay atomic",
    "[jit][atomics]") {
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> m = llvm::parseAssemblyString(kModule, error, context);
  REQUIRE(m);
  llvm::Function* k = m->getFunction("k");
  CHECK(jit::lowerLocalAtomics(*k) == 8);
  REQUIRE_FALSE(llvm::verifyFunction(*k, &llvm::errs()));

  unsigned localAtomic = 0, volatileLocal = 0, globalAtomic = 0, genericAtomic = 0;
  unsigned localLoads = 0, localStores = 0;
  for (llvm::Instruction& i : llvm::instructions(k)) {
    unsigned space = ~0u;
    bool atomic = i.isAtomic();
    if (auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&i)) {
      space = rmw->getPointerAddressSpace();
      if (rmw->isVolatile()) ++volatileLocal;
    } else if (auto* cx = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&i)) {
      space = cx->getPointerAddressSpace();
    } else if (auto* l = llvm::dyn_cast<llvm::LoadInst>(&i)) {
      space = l->getPointerAddressSpace();
      if (space == 3) ++localLoads;
    } else if (auto* s = llvm::dyn_cast<llvm::StoreInst>(&i)) {
      space = s->getPointerAddressSpace();
      if (space == 3) ++localStores;
    }
    if (!atomic) continue;
    if (space == 3) ++localAtomic;
    if (space == 1) ++globalAtomic;
    if (space == 4) ++genericAtomic;
  }
  CHECK(localAtomic == 1);  // only the volatile one
  CHECK(volatileLocal == 1);
  CHECK(globalAtomic == 2);  // the add and the load
  CHECK(genericAtomic == 1);
  // add, min, cmpxchg, fadd, fmin and fmax each a load and a store (the cmpxchg's store behind a
  // select), the atomic load and store one each.
  CHECK(localLoads == 7);
  CHECK(localStores == 7);
}

}  // namespace
}  // namespace tessera::backends::cpu::test
