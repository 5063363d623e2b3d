// Pass: calling conventions to C, then every call in a kernel to a defined function is inlined.
// Why first: later passes (builtins, barrier regions) reason about one function per kernel; a
// barrier inside a helper function must be visible to the region formation.
//
// Recursion: OpenCL C, "Restrictions": "Recursion is not supported." Inlining a call graph with a
// cycle never ends (each round inlines the callee's call to itself again), so the module's call
// graph is checked for cycles first and a cycle fails the build, naming its functions. With the
// graph acyclic, round r of the inliner leaves only calls r + 1 levels deep, so there are at most
// as many rounds as functions; a budget on the kernel's size also bounds what a deep, wide call
// tree (each level calling the next twice) would grow into.
#include <llvm/IR/Instructions.h>

#include <llvm/Transforms/Utils/Cloning.h>
#include <algorithm>
#include <map>
#include <set>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {

std::vector<llvm::Function*> possibleCallees(llvm::Function& f,
                                             const std::vector<llvm::Function*>& addressTaken) {
  std::set<llvm::Function*> out;
  bool indirect = false;
  for (llvm::BasicBlock& bb : f)
    for (llvm::Instruction& i : bb) {
      if (auto* call = llvm::dyn_cast<llvm::CallBase>(&i);
          call && !call->isInlineAsm() &&
          !llvm::isa<llvm::Function>(call->getCalledOperand()->stripPointerCasts()))
        indirect = true;
      for (llvm::Value* op : i.operands())
        if (auto* g = llvm::dyn_cast<llvm::Function>(op->stripPointerCasts());
            g && !g->isDeclaration())
          out.insert(g);
    }
  if (indirect) out.insert(addressTaken.begin(), addressTaken.end());
  return {out.begin(), out.end()};
}

bool findRecursion(llvm::Module& m, std::string* error) {
  std::vector<llvm::Function*> addressTaken;
  for (llvm::Function& f : m)
    if (!f.isDeclaration() && f.hasAddressTaken()) addressTaken.push_back(&f);
  std::map<llvm::Function*, std::vector<llvm::Function*>> graph;
  for (llvm::Function& f : m)
    if (!f.isDeclaration()) graph[&f] = possibleCallees(f, addressTaken);
  // Depth-first search without recursion (a call chain may be as deep as the module is long):
  // a callee still on the path closes a cycle.
  enum class State { New, OnPath, Done };
  std::map<llvm::Function*, State> state;
  struct Frame {
    llvm::Function* f;
    size_t next;
  };
  for (auto& [root, unused] : graph) {
    if (state[root] != State::New) continue;
    std::vector<Frame> path{{root, 0}};
    state[root] = State::OnPath;
    while (!path.empty()) {
      Frame& top = path.back();
      const std::vector<llvm::Function*>& next = graph[top.f];
      if (top.next == next.size()) {
        state[top.f] = State::Done;
        path.pop_back();
        continue;
      }
      llvm::Function* callee = next[top.next++];
      State& s = state[callee];
      if (s == State::Done) continue;
      if (s == State::OnPath) {
        std::string cycle;
        auto from =
            std::find_if(path.begin(), path.end(), [&](const Frame& fr) { return fr.f == callee; });
        for (auto it = from; it != path.end(); ++it)
          cycle += spirvBaseName(it->f->getName()).str() + " -> ";
        cycle += spirvBaseName(callee->getName()).str();
        *error =
            "recursion is not supported (OpenCL C: \"Recursion is not supported\"); "
            "call cycle: " +
            cycle;
        return true;
      }
      s = State::OnPath;
      path.push_back({callee, 0});
    }
  }
  return false;
}

llvm::StringRef spirvBaseName(llvm::StringRef name) {
  if (!name.startswith("_Z")) return name;
  llvm::StringRef rest = name.drop_front(2);
  size_t length = 0;
  while (!rest.empty() && rest.front() >= '0' && rest.front() <= '9') {
    length = length * 10 + (rest.front() - '0');
    if (length > rest.size()) return name;
    rest = rest.drop_front();
  }
  if (length == 0 || length > rest.size()) return name;
  return rest.take_front(length);
}

bool inlineIntoKernels(llvm::Module& m, std::vector<llvm::Function*>* kernelsOut,
                       std::string* error) {
  std::vector<llvm::Function*>& kernels = *kernelsOut;
  kernels.clear();
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
  if (findRecursion(m, error)) return false;
  size_t functions = 0;
  for (llvm::Function& f : m) functions += !f.isDeclaration();
  for (llvm::Function* kernel : kernels) {
    // Acyclic: at most one round per level of the call graph, plus the one that finds nothing.
    // The size is checked before each call is inlined (the callees do not change meanwhile), so
    // a round never grows the kernel far past the budget.
    std::map<llvm::Function*, size_t> sizes;
    auto sizeOf = [&](llvm::Function* f) {
      auto [it, added] = sizes.try_emplace(f, 0);
      if (added)
        for (llvm::BasicBlock& bb : *f) it->second += bb.size();
      return it->second;
    };
    size_t rounds = 0;
    for (bool changed = true; changed; ++rounds) {
      if (rounds > functions) {
        *error =
            "internal error: inlining into kernel " + kernel->getName().str() + " did not finish";
        return false;
      }
      changed = false;
      std::vector<llvm::CallBase*> calls;
      size_t instructions = 0;
      for (llvm::BasicBlock& bb : *kernel) {
        instructions += bb.size();
        for (llvm::Instruction& i : bb) {
          auto* call = llvm::dyn_cast<llvm::CallBase>(&i);
          if (call && call->getCalledFunction() && !call->getCalledFunction()->isDeclaration() &&
              call->getCalledFunction() != kernel) {
            calls.push_back(call);
          }
        }
      }
      for (llvm::CallBase* call : calls) {
        instructions += sizeOf(call->getCalledFunction());
        if (instructions > kMaxInlinedInstructions) {
          *error = "kernel " + spirvBaseName(kernel->getName()).str() + " has more than " +
                   std::to_string(kMaxInlinedInstructions) +
                   " instructions once its calls are inlined";
          return false;
        }
        llvm::InlineFunctionInfo ifi;
        changed |= llvm::InlineFunction(*call, ifi).isSuccess();
      }
    }
  }
  // (Both loops below only grow a set of functions or erase one per round: bounded by the number
  // of functions.)
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
  return true;
}

}  // namespace tessera::backends::cpu::jit
