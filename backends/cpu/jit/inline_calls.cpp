// Pass: calling conventions to C, then every call in a kernel to a defined function is inlined.
// Why first: later passes (builtins, barrier regions) reason about one function per kernel; a
// barrier inside a helper function must be visible to the region formation.
#include <llvm/IR/Instructions.h>

#include <algorithm>
#include <set>
#include <llvm/Transforms/Utils/Cloning.h>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {

llvm::StringRef spirvBaseName(llvm::StringRef name) {
  if (!name.startswith("_Z")) return name;
  llvm::StringRef rest = name.drop_front(2);
  size_t length = 0;
  while (!rest.empty() && rest.front() >= '0' && rest.front() <= '9') {
    length = length * 10 + (rest.front() - '0');
    rest = rest.drop_front();
  }
  if (length == 0 || length > rest.size()) return name;
  return rest.take_front(length);
}

std::vector<llvm::Function*> inlineIntoKernels(llvm::Module& m) {
  std::vector<llvm::Function*> kernels;
  for (llvm::Function& f : m) {
    if (f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL) kernels.push_back(&f);
    f.setCallingConv(llvm::CallingConv::C);
    for (llvm::BasicBlock& bb : f) {
      for (llvm::Instruction& i : bb) {
        if (auto* call = llvm::dyn_cast<llvm::CallBase>(&i)) {
          call->setCallingConv(llvm::CallingConv::C);
        }
      }
    }
  }
  for (llvm::Function* kernel : kernels) {
    for (bool changed = true; changed;) {
      changed = false;
      std::vector<llvm::CallBase*> calls;
      for (llvm::BasicBlock& bb : *kernel) {
        for (llvm::Instruction& i : bb) {
          auto* call = llvm::dyn_cast<llvm::CallBase>(&i);
          if (call && call->getCalledFunction() && !call->getCalledFunction()->isDeclaration() &&
              call->getCalledFunction() != kernel) {
            calls.push_back(call);
          }
        }
      }
      for (llvm::CallBase* call : calls) {
        llvm::InlineFunctionInfo ifi;
        changed |= llvm::InlineFunction(*call, ifi).isSuccess();
      }
    }
  }
  // A helper that calls a barrier or a work-item builtin, directly or through other helpers, only
  // means something inside a kernel's work-group function; once inlined everywhere it is called
  // from, its own definition cannot be compiled (nothing would lower those calls), so it goes, and
  // so do the helpers only it called (unoptimized OpenCL C keeps every level of helper). Other
  // helpers stay: an exported one may be asked for with zeModuleGetFunctionPointer.
  std::set<llvm::Function*> needsWorkGroup;
  for (bool grew = true; grew;) {
    grew = false;
    for (llvm::Function& f : m) {
      if (f.isDeclaration() || needsWorkGroup.count(&f)) continue;
      bool needs = false;
      for (llvm::BasicBlock& bb : f)
        for (llvm::Instruction& i : bb)
          if (auto* call = llvm::dyn_cast<llvm::CallBase>(&i))
            if (llvm::Function* callee = call->getCalledFunction()) {
              llvm::StringRef base = spirvBaseName(callee->getName());
              needs |= base.startswith("__spirv_BuiltIn") || base == "__spirv_ControlBarrier" ||
                       needsWorkGroup.count(callee) != 0;
            }
      if (needs) grew = needsWorkGroup.insert(&f).second;
    }
  }
  for (bool erased = true; erased;) {
    erased = false;
    for (auto it = m.begin(); it != m.end();) {
      llvm::Function& f = *it++;
      bool isKernel = std::find(kernels.begin(), kernels.end(), &f) != kernels.end();
      if (!isKernel && f.use_empty() && needsWorkGroup.count(&f)) {
        needsWorkGroup.erase(&f);
        f.eraseFromParent();
        erased = true;
      }
    }
  }
  return kernels;
}

}  // namespace tessera::backends::cpu::jit
