#include "compiler/kernel_module.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <unordered_set>
#include <vector>

namespace tessera::compiler {
namespace {

// Every function and variable `roots` reach through their instructions, initializers and constant
// expressions, roots included.
std::unordered_set<const llvm::GlobalValue*> reachedFrom(
    const std::vector<const llvm::Function*>& roots) {
  std::unordered_set<const llvm::GlobalValue*> reached(roots.begin(), roots.end());
  std::unordered_set<const llvm::Constant*> seen;
  std::vector<const llvm::GlobalValue*> work(roots.begin(), roots.end());
  auto visit = [&](const llvm::Value* v, auto& self) -> void {
    if (const auto* g = llvm::dyn_cast<llvm::GlobalValue>(v)) {
      if (reached.insert(g).second) work.push_back(g);
      return;
    }
    const auto* c = llvm::dyn_cast<llvm::Constant>(v);
    if (!c || !seen.insert(c).second) return;
    for (const llvm::Use& op : c->operands()) self(op.get(), self);
  };
  while (!work.empty()) {
    const llvm::GlobalValue* g = work.back();
    work.pop_back();
    if (const auto* f = llvm::dyn_cast<llvm::Function>(g)) {
      for (const llvm::BasicBlock& bb : *f)
        for (const llvm::Instruction& i : bb)
          for (const llvm::Use& op : i.operands()) visit(op.get(), visit);
    } else if (const auto* v = llvm::dyn_cast<llvm::GlobalVariable>(g)) {
      if (v->hasInitializer()) visit(v->getInitializer(), visit);
    } else if (const auto* a = llvm::dyn_cast<llvm::GlobalAlias>(g)) {
      visit(a->getAliasee(), visit);
    }
  }
  return reached;
}

}  // namespace

std::string programBitcode(const llvm::Module& module) {
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  llvm::WriteBitcodeToFile(module, os);
  os.flush();
  return bytes;
}

std::unique_ptr<llvm::Module> kernelModule(llvm::LLVMContext& context, std::string_view bitcode,
                                           const std::vector<std::string>& roots,
                                           std::string& error) {
  auto parsed = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(llvm::StringRef(bitcode.data(), bitcode.size()), "program"), context);
  if (!parsed) {
    error =
        "internal error: the program's IR does not parse: " + llvm::toString(parsed.takeError());
    return nullptr;
  }
  std::unique_ptr<llvm::Module> m = std::move(*parsed);
  std::vector<const llvm::Function*> rootFunctions;
  for (const std::string& name : roots) {
    const llvm::Function* f = m->getFunction(name);
    if (!f || f->isDeclaration()) {
      error = "internal error: the program's IR has no function " + name;
      return nullptr;
    }
    rootFunctions.push_back(f);
  }
  const std::unordered_set<const llvm::GlobalValue*> reached = reachedFrom(rootFunctions);
  auto isRoot = [&](const llvm::Function& f) {
    return std::find(rootFunctions.begin(), rootFunctions.end(), &f) != rootFunctions.end();
  };
  // Another kernel a root calls is an ordinary function here ("a kernel calling another kernel
  // behaves like a call to a function"): the JIT inlines it and makes no work-group function of it.
  for (llvm::Function& f : *m) {
    if (isRoot(f) || f.getCallingConv() != llvm::CallingConv::SPIR_KERNEL || !reached.count(&f))
      continue;
    f.setCallingConv(llvm::CallingConv::SPIR_FUNC);
    for (llvm::User* u : f.users())
      if (auto* call = llvm::dyn_cast<llvm::CallBase>(u); call && call->getCalledOperand() == &f)
        call->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  }
  // What the kernel does not reach: references dropped first (the unreached may refer to each
  // other, never the reached to them), then erased.
  std::vector<llvm::GlobalValue*> dead;
  for (llvm::Function& f : *m)
    if (!reached.count(&f)) dead.push_back(&f);
  for (llvm::GlobalVariable& g : m->globals())
    if (!reached.count(&g)) dead.push_back(&g);
  for (llvm::GlobalAlias& a : m->aliases())
    if (!reached.count(&a)) dead.push_back(&a);
  for (llvm::GlobalValue* g : dead) {
    if (auto* f = llvm::dyn_cast<llvm::Function>(g))
      f->dropAllReferences();  // the body too
    else if (auto* v = llvm::dyn_cast<llvm::GlobalVariable>(g))
      v->dropAllReferences();
    else
      g->dropAllReferences();
  }
  for (llvm::GlobalValue* g : dead) {
    g->removeDeadConstantUsers();
    if (!g->use_empty()) g->replaceAllUsesWith(llvm::PoisonValue::get(g->getType()));
    g->eraseFromParent();
  }
  return m;
}

}  // namespace tessera::compiler
