// How much stack a kernel's work-group function needs, measured at JIT time.
//
// Why code generation's own numbers: what a function's frame holds (private arrays, spills of the
// widened loops' vectors, callee-saved registers, alignment padding) is only known once registers
// are allocated; a sum of the IR's allocas misses the spills and the padding. LLVM writes each
// function's frame size into a `.stack_sizes` section when TargetOptions::EmitStackSizeSection is
// set (kernel_jit.cpp sets it): one entry per function, the function's address (a relocation in
// the object ORC compiles) and the size as ULEB128. Functions with variable-sized frames get no
// entry; for those the static allocas of the IR stand in (the variable part is what the stack
// probes, addStackProbes, keep from jumping the guard page).
//
// A work-group function calls no function of its module after inlining (inline_calls.cpp), but an
// exported helper may remain and be called; the need of a function is therefore its frame plus
// the largest need among the defined functions it may call (the call graph has no cycle:
// findRecursion refused the module otherwise). Calls into the host (libm, printf's runtime) are
// not in the figure: the launcher keeps a fixed reserve for them (kernel_stack.h).
#include <llvm/ADT/Triple.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Object/ELFObjectFile.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/LEB128.h>
#include <llvm/Support/MemoryBuffer.h>

#include <optional>
#include <set>

#include "backends/cpu/jit/jit_passes.h"

namespace tessera::backends::cpu::jit {
namespace {

// Bytes of the static allocas of `f` (those of constant size); `dynamic` set when it has others.
uint64_t staticAllocaBytes(const llvm::Function& f, bool* dynamic) {
  const llvm::DataLayout& dl = f.getParent()->getDataLayout();
  uint64_t bytes = 0;
  for (const llvm::BasicBlock& bb : f)
    for (const llvm::Instruction& i : bb)
      if (auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i)) {
        llvm::Optional<llvm::TypeSize> size = a->getAllocationSizeInBits(dl);
        if (!size || size->isScalable()) {
          *dynamic = true;
          continue;
        }
        uint64_t b = size->getFixedSize() / 8, align = a->getAlign().value();
        bytes += (b + align - 1) / align * align;
      }
  return bytes;
}

}  // namespace

void addStackProbes(llvm::Module& m) {
  // "probe-stack"="inline-asm": the prologue (and a dynamic alloca) touches every page of the
  // frame from the top down, so a frame larger than the stack left faults on the guard page below
  // it instead of landing in whatever memory lies further down. x86 only in LLVM 15.
  llvm::Triple triple(m.getTargetTriple());
  if (!triple.isX86()) return;
  for (llvm::Function& f : m)
    if (!f.isDeclaration()) f.addFnAttr("probe-stack", "inline-asm");
}

bool planStacks(llvm::Module& m, StackPlan* plan, std::string* error) {
  std::vector<llvm::Function*> addressTaken;
  for (llvm::Function& f : m)
    if (!f.isDeclaration() && f.hasAddressTaken()) addressTaken.push_back(&f);
  for (llvm::Function& f : m) {
    if (f.isDeclaration()) continue;
    bool dynamic = false;
    uint64_t bytes = staticAllocaBytes(f, &dynamic);
    // x86's frame offsets are signed 32-bit displacements: code generation cannot address a
    // frame past 2 GiB, so a function near that is refused here, before LLVM is asked to.
    if (bytes > kMaxFrameBytes) {
      *error = "function " + spirvBaseName(f.getName()).str() + " needs " + std::to_string(bytes) +
               " bytes of private memory; the JIT compiles at most " +
               std::to_string(kMaxFrameBytes) + " per work-item";
      return false;
    }
    std::string name = f.getName().str();
    plan->allocaBytes[name] = bytes;
    std::vector<std::string>& callees = plan->callees[name];
    for (llvm::Function* g : possibleCallees(f, addressTaken))
      callees.push_back(g->getName().str());
  }
  return true;
}

std::map<std::string, uint64_t> readStackSizes(llvm::StringRef object) {
  std::map<std::string, uint64_t> out;
  auto file = llvm::object::ObjectFile::createObjectFile(llvm::MemoryBufferRef(object, "jit"));
  if (!file) {
    llvm::consumeError(file.takeError());
    return out;
  }
  auto* elf = llvm::dyn_cast<llvm::object::ELFObjectFileBase>(file->get());
  if (elf == nullptr) return out;
  // Function symbols by (section, offset): a relocation may name the function or its section
  // plus an addend (local functions).
  std::map<std::pair<uint64_t, uint64_t>, std::string> functions;
  for (const llvm::object::ELFSymbolRef& sym : elf->symbols()) {
    if (sym.getELFType() != llvm::ELF::STT_FUNC) continue;
    auto name = sym.getName();
    auto address = sym.getAddress();
    auto section = sym.getSection();
    if (!name || !address || !section || *section == elf->section_end()) {
      if (!name) llvm::consumeError(name.takeError());
      if (!address) llvm::consumeError(address.takeError());
      if (!section) llvm::consumeError(section.takeError());
      continue;
    }
    functions[{(*section)->getIndex(), *address}] = name->str();
  }
  const unsigned addressBytes = elf->getBytesInAddress();
  for (const llvm::object::SectionRef& relocations : elf->sections()) {
    auto target = relocations.getRelocatedSection();
    if (!target) {
      llvm::consumeError(target.takeError());
      continue;
    }
    if (*target == elf->section_end()) continue;
    auto targetName = (*target)->getName();
    if (!targetName) {
      llvm::consumeError(targetName.takeError());
      continue;
    }
    if (*targetName != ".stack_sizes") continue;
    auto contents = (*target)->getContents();
    if (!contents) {
      llvm::consumeError(contents.takeError());
      continue;
    }
    const auto* data = reinterpret_cast<const uint8_t*>(contents->data());
    const uint64_t size = contents->size();
    for (const llvm::object::RelocationRef& r : relocations.relocations()) {
      uint64_t at = r.getOffset();
      if (at > size || size - at <= addressBytes) continue;
      auto sym = r.getSymbol();
      if (sym == elf->symbol_end()) continue;
      auto section = sym->getSection();
      auto address = sym->getAddress();
      auto addend = llvm::object::ELFRelocationRef(r).getAddend();
      if (!section || !address || !addend || *section == elf->section_end()) {
        if (!section) llvm::consumeError(section.takeError());
        if (!address) llvm::consumeError(address.takeError());
        if (!addend) llvm::consumeError(addend.takeError());
        continue;
      }
      auto fn = functions.find({(*section)->getIndex(), *address + uint64_t(*addend)});
      if (fn == functions.end()) continue;
      unsigned n = 0;
      const char* why = nullptr;
      uint64_t bytes = llvm::decodeULEB128(data + at + addressBytes, &n, data + size, &why);
      if (why == nullptr) out[fn->second] = bytes;
    }
  }
  return out;
}

uint64_t stackNeed(const std::string& function, const StackPlan& plan,
                   const std::map<std::string, uint64_t>& frames) {
  // Longest path from `function` in the (acyclic) call graph, weighted by frames; iterative, and
  // memoized so that shared callees are counted once per caller.
  std::map<std::string, uint64_t> need;
  std::set<std::string> open;
  std::vector<std::pair<std::string, bool>> work{{function, false}};
  // LLVM's figure leaves out the return address the call pushes and, in a leaf function, the 128
  // bytes below the stack pointer the x86-64 ABI lets it use without allocating (the red zone).
  constexpr uint64_t kCallOverhead = 8 + 128;
  auto frame = [&](const std::string& f) {
    auto it = frames.find(f);
    if (it != frames.end()) return it->second + kCallOverhead;
    auto a = plan.allocaBytes.find(f);
    return (a == plan.allocaBytes.end() ? uint64_t{0} : a->second) + kCallOverhead;
  };
  while (!work.empty()) {
    auto [f, expanded] = work.back();
    work.pop_back();
    if (need.count(f)) continue;
    auto callees = plan.callees.find(f);
    if (expanded) {
      uint64_t deepest = 0;
      if (callees != plan.callees.end())
        for (const std::string& g : callees->second) {
          auto it = need.find(g);
          if (it != need.end()) deepest = std::max(deepest, it->second);
        }
      need[f] = frame(f) + deepest;
      open.erase(f);
      continue;
    }
    if (!open.insert(f).second) continue;  // a cycle (refused earlier): not followed again
    work.push_back({f, true});
    if (callees != plan.callees.end())
      for (const std::string& g : callees->second)
        if (!need.count(g) && !open.count(g)) work.push_back({g, false});
  }
  return need[function];
}

}  // namespace tessera::backends::cpu::jit
