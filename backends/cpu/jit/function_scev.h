// ScalarEvolution over one function as it stands, with the analyses it is built on: for the passes
// after O3 (strided_groups.cpp, spaced_groups.cpp) that ask which addresses lie a constant
// distance apart. Built for one question session; the function must not change meanwhile.
#pragma once

#include <llvm/ADT/Triple.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Module.h>

namespace tessera::backends::cpu::jit {

class FunctionScev {
 public:
  explicit FunctionScev(llvm::Function& f)
      : dt_(f),
        loops_(dt_),
        ac_(f),
        tlii_(llvm::Triple(f.getParent()->getTargetTriple())),
        tli_(tlii_),
        se_(f, tli_, ac_, dt_, loops_) {}
  llvm::ScalarEvolution& get() { return se_; }

 private:
  llvm::DominatorTree dt_;
  llvm::LoopInfo loops_;
  llvm::AssumptionCache ac_;
  llvm::TargetLibraryInfoImpl tlii_;
  llvm::TargetLibraryInfo tli_;
  llvm::ScalarEvolution se_;
};

}  // namespace tessera::backends::cpu::jit
