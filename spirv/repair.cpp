#include "spirv/repair.h"

#include <map>
#include <cstring>
#include <set>
#include <spirv/unified1/spirv.hpp>

#include "spirv/instructions.h"
#include "spirv/merge_types.h"

namespace tessera::spirv {
namespace {

constexpr uint32_t kVersion14 = 0x00010400;

struct Inst {
  size_t at;       // word offset in the module
  uint32_t count;  // words, opcode word included
  uint32_t opcode;
};

// The instructions, in order; stops at the first malformed one (validation reports it).
std::vector<Inst> instructions(std::span<const uint32_t> w) {
  std::vector<Inst> out;
  for (const Instruction& i : Instructions(w)) out.push_back({i.offset, i.wordCount(), i.opcode()});
  return out;
}

// Words of the literal string starting at word `first` of an instruction (nul included).
size_t stringWords(std::span<const uint32_t> w, size_t first, size_t end) {
  for (size_t i = first; i < end; ++i)
    if ((w[i] & 0xff000000u) == 0 || (w[i] & 0xff0000u) == 0 || (w[i] & 0xff00u) == 0 ||
        (w[i] & 0xffu) == 0)
      return i - first + 1;
  return end - first;
}

// Entry points' interfaces completed with the global variables their call trees reference.
bool completeInterfaces(std::span<const uint32_t> w, const std::vector<Inst>& insts,
                        std::vector<std::vector<uint32_t>>& replaced) {
  std::set<uint32_t> globals;
  std::map<uint32_t, std::set<uint32_t>> uses, calls;  // by function id
  uint32_t function = 0;
  for (const Inst& i : insts) {
    if (i.opcode == spv::OpFunction && i.count > 2) {
      function = w[i.at + 2];
      continue;
    }
    if (i.opcode == spv::OpFunctionEnd) {
      function = 0;
      continue;
    }
    if (function == 0) {
      if (i.opcode == spv::OpVariable && i.count > 3 && w[i.at + 3] != spv::StorageClassFunction)
        globals.insert(w[i.at + 2]);
      continue;
    }
    if (i.opcode == spv::OpFunctionCall && i.count > 3) calls[function].insert(w[i.at + 3]);
    // Any operand word naming a global variable (a literal that happens to equal one only adds a
    // variable the entry point may list anyway).
    for (uint32_t k = 1; k < i.count; ++k)
      if (globals.count(w[i.at + k])) uses[function].insert(w[i.at + k]);
  }
  bool changed = false;
  for (size_t n = 0; n < insts.size(); ++n) {
    const Inst& i = insts[n];
    if (i.opcode != spv::OpEntryPoint || i.count < 4) continue;
    size_t end = i.at + i.count;
    size_t firstId = i.at + 3 + stringWords(w, i.at + 3, end);
    std::set<uint32_t> listed(w.begin() + static_cast<std::ptrdiff_t>(firstId),
                              w.begin() + static_cast<std::ptrdiff_t>(end));
    // The static call tree, each function once.
    std::set<uint32_t> seen{w[i.at + 2]};
    std::vector<uint32_t> work{w[i.at + 2]};
    std::set<uint32_t> needed;
    while (!work.empty()) {
      uint32_t f = work.back();
      work.pop_back();
      needed.insert(uses[f].begin(), uses[f].end());
      for (uint32_t callee : calls[f])
        if (seen.insert(callee).second) work.push_back(callee);
    }
    std::vector<uint32_t> inst(w.begin() + static_cast<std::ptrdiff_t>(i.at),
                               w.begin() + static_cast<std::ptrdiff_t>(end));
    for (uint32_t v : needed)
      if (!listed.count(v)) inst.push_back(v);
    if (inst.size() == i.count) continue;
    inst[0] = (static_cast<uint32_t>(inst.size()) << 16) | spv::OpEntryPoint;
    replaced[n] = std::move(inst);
    changed = true;
  }
  return changed;
}

// Capabilities producers declare, and use, without the extension that allows them, with that
// extension; the JIT reads each. SPIRV-LLVM-Translator (llvm_release_150, as AdaptiveCpp drives
// it) adds FPFastMathModeINTEL for `contract`/`reassoc` flags but never SPV_INTEL_fp_fast_math_mode.
struct CapabilityExtension {
  uint32_t capability;
  const char* extension;
};
constexpr CapabilityExtension kCapabilityExtensions[] = {
    {spv::CapabilityFPFastMathModeINTEL, "SPV_INTEL_fp_fast_math_mode"},
    {spv::CapabilityExpectAssumeKHR, "SPV_KHR_expect_assume"},
    {spv::CapabilitySubgroupShuffleINTEL, "SPV_INTEL_subgroups"},
    {spv::CapabilitySubgroupBufferBlockIOINTEL, "SPV_INTEL_subgroups"},
    {spv::CapabilityAtomicFloat32AddEXT, "SPV_EXT_shader_atomic_float_add"},
    {spv::CapabilityAtomicFloat64AddEXT, "SPV_EXT_shader_atomic_float_add"},
    {spv::CapabilityAtomicFloat32MinMaxEXT, "SPV_EXT_shader_atomic_float_min_max"},
    {spv::CapabilityAtomicFloat64MinMaxEXT, "SPV_EXT_shader_atomic_float_min_max"},
};

// An OpExtension instruction naming `name`.
std::vector<uint32_t> extensionInstruction(const std::string& name) {
  std::vector<uint32_t> words(1 + name.size() / 4 + 1, 0);
  std::memcpy(&words[1], name.data(), name.size());
  words[0] = (static_cast<uint32_t>(words.size()) << 16) | spv::OpExtension;
  return words;
}


// SPV_INTEL_memory_access_aliasing: alias domains, scopes and scope lists, referenced by the
// AliasScopeINTEL/NoAliasINTEL memory operands of loads, stores and copies and by decorations of
// calls. They are hints for optimization: "AliasScopeINTEL ... NoAliasINTEL ... Alias analysis
// information" that a module means the same without. SPIRV-Tools in Debian 12 (v2023.1) refuses
// the declarations where SPIRV-LLVM-Translator writes them, at module scope ("AliasDomainDeclINTEL
// must appear in a block"; AdaptiveCpp's vector and math kernels), so the hints are dropped:
// the declarations, the memory operands naming them, the decorations, the capability and the
// extension. `out` is the module without them; false when it has none.
constexpr uint32_t kAliasMasks = uint32_t(spv::MemoryAccessAliasScopeINTELMaskMask) |
                                  uint32_t(spv::MemoryAccessNoAliasINTELMaskMask);

// Memory operands at word `at` of `inst` (a mask and the operands its bits take, in the order of
// the bits) copied to `out` without the aliasing ones; the word after them, or 0 when a bit is one
// this does not know (the instruction is then left as it is).
size_t copyMemoryOperands(std::span<const uint32_t> inst, size_t at, std::vector<uint32_t>& out) {
  const uint32_t mask = inst[at];
  constexpr uint32_t kOneOperand = uint32_t(spv::MemoryAccessAlignedMask) |
                                   uint32_t(spv::MemoryAccessMakePointerAvailableMask) |
                                   uint32_t(spv::MemoryAccessMakePointerVisibleMask) | kAliasMasks;
  constexpr uint32_t kNoOperand = uint32_t(spv::MemoryAccessVolatileMask) |
                                  uint32_t(spv::MemoryAccessNontemporalMask) |
                                  uint32_t(spv::MemoryAccessNonPrivatePointerMask);
  if (mask & ~(kOneOperand | kNoOperand)) return 0;
  out.push_back(mask & ~kAliasMasks);
  size_t next = at + 1;
  for (uint32_t bit = 1; bit != 0; bit <<= 1) {
    if (!(mask & bit & kOneOperand)) continue;
    if (next >= inst.size()) return 0;
    if (!(bit & kAliasMasks)) out.push_back(inst[next]);
    ++next;
  }
  return next;
}

bool dropAliasingHints(std::span<const uint32_t> w, std::vector<uint32_t>& out) {
  bool any = false;
  for (const Instruction& i : Instructions(w)) {
    const uint32_t op = i.opcode();
    if (op == spv::OpCapability && i.wordCount() > 1 &&
        i[1] == spv::CapabilityMemoryAccessAliasingINTEL)
      any = true;
  }
  if (!any) return false;
  out.assign(w.begin(), w.begin() + kHeaderWords);
  for (const Instruction& i : Instructions(w)) {
    const uint32_t op = i.opcode(), n = i.wordCount();
    if (op == spv::OpAliasDomainDeclINTEL || op == spv::OpAliasScopeDeclINTEL ||
        op == spv::OpAliasScopeListDeclINTEL)
      continue;
    if (op == spv::OpCapability && n > 1 && i[1] == spv::CapabilityMemoryAccessAliasingINTEL)
      continue;
    if (op == spv::OpExtension &&
        std::string(reinterpret_cast<const char*>(&i.words[1]),
                    strnlen(reinterpret_cast<const char*>(&i.words[1]), (n - 1) * 4)) ==
            "SPV_INTEL_memory_access_aliasing")
      continue;
    if ((op == spv::OpDecorate || op == spv::OpDecorateId) && n > 2 &&
        (i[2] == spv::DecorationAliasScopeINTEL || i[2] == spv::DecorationNoAliasINTEL))
      continue;
    // Where the memory operands start: OpLoad (type, result, pointer), OpStore (pointer, object),
    // OpCopyMemory (target, source; two sets since 1.4), OpCopyMemorySized (target, source, size).
    size_t first = 0;
    if (op == spv::OpLoad) first = 4;
    if (op == spv::OpStore || op == spv::OpCopyMemory) first = 3;
    if (op == spv::OpCopyMemorySized) first = 4;
    const size_t at = out.size();
    if (first == 0 || n <= first) {
      out.insert(out.end(), i.words.begin(), i.words.end());
      continue;
    }
    out.insert(out.end(), i.words.begin(), i.words.begin() + static_cast<std::ptrdiff_t>(first));
    size_t next = first;
    while (next < n && next != 0) next = copyMemoryOperands(i.words, next, out);
    if (next == 0) {  // an operand this does not know: the instruction as it was
      out.resize(at);
      out.insert(out.end(), i.words.begin(), i.words.end());
      continue;
    }
    out[at] = (static_cast<uint32_t>(out.size() - at) << 16) | op;
  }
  return true;
}

}  // namespace

Repaired repairProducerMistakes(std::span<const uint32_t> given) {
  Repaired out;
  out.words.assign(given.begin(), given.end());
  if (given.size() < kHeaderWords) return out;
  std::set<std::string> kinds;
  // The other repairs read the module without the hints.
  std::vector<uint32_t> withoutHints;
  std::span<const uint32_t> w = given;
  if (dropAliasingHints(given, withoutHints)) {
    w = withoutHints;
    out.words = withoutHints;
    kinds.insert(
        "alias analysis hints (SPV_INTEL_memory_access_aliasing), declared where SPIRV-Tools "
        "refuses them, were dropped");
  }
  const std::vector<Inst> insts = instructions(w);
  // Per instruction: its replacement (empty vector: dropped); instructions not in it stay.
  std::vector<std::vector<uint32_t>> replaced(insts.size());
  std::vector<bool> touched(insts.size(), false);

  if (w[1] >= kVersion14) {
    std::vector<std::vector<uint32_t>> interfaces(insts.size());
    if (completeInterfaces(w, insts, interfaces)) {
      for (size_t n = 0; n < insts.size(); ++n)
        if (!interfaces[n].empty()) replaced[n] = std::move(interfaces[n]), touched[n] = true;
      kinds.insert(
          "an entry point's interface lacked global variables its functions use (required since "
          "SPIR-V 1.4); they were added");
    }
  }

  bool oddIntegers = false, linkage = false, entryPoint = false;
  std::set<std::string> extensions;
  for (const Inst& i : insts) {
    if (i.opcode == spv::OpTypeInt && i.count > 2) {
      uint32_t width = w[i.at + 2];
      oddIntegers |= width != 8 && width != 16 && width != 32 && width != 64;
    } else if (i.opcode == spv::OpExtension) {
      const char* name = reinterpret_cast<const char*>(&w[i.at + 1]);
      size_t bytes = (i.count - 1) * 4;
      extensions.insert(std::string(name, strnlen(name, bytes)));
    } else if (i.opcode == spv::OpCapability && i.count > 1) {
      linkage |= w[i.at + 1] == spv::CapabilityLinkage;
    } else if (i.opcode == spv::OpEntryPoint) {
      entryPoint = true;
    }
  }
  const bool arbitraryExtension = extensions.count("SPV_INTEL_arbitrary_precision_integers") > 0;
  size_t firstCapability = insts.size(), lastCapability = insts.size();
  std::set<std::string> missing;  // extensions of declared capabilities, not declared
  for (size_t n = 0; n < insts.size(); ++n) {
    const Inst& i = insts[n];
    if (i.opcode != spv::OpCapability || i.count < 2) continue;
    if (firstCapability == insts.size()) firstCapability = n;
    lastCapability = n;
    for (const CapabilityExtension& e : kCapabilityExtensions)
      if (w[i.at + 1] == e.capability && !extensions.count(e.extension)) missing.insert(e.extension);
    // ArbitraryPrecisionIntegersINTEL without its extension: declared when an odd-width OpTypeInt
    // uses it, as for the table's capabilities; dropped when nothing does.
    if (w[i.at + 1] == spv::CapabilityArbitraryPrecisionIntegersINTEL && !arbitraryExtension) {
      if (oddIntegers) {
        missing.insert("SPV_INTEL_arbitrary_precision_integers");
      } else {
        replaced[n].clear();
        touched[n] = true;
        kinds.insert(
            "capability ArbitraryPrecisionIntegersINTEL, declared without its extension and used "
            "by no type, was dropped");
      }
    }
  }
  // OpExtension follows the last OpCapability (the logical layout: "all OpCapability
  // instructions", then "optional OpExtension instructions").
  if (!missing.empty() && !touched[lastCapability]) {
    const Inst& i = insts[lastCapability];
    replaced[lastCapability].assign(w.begin() + static_cast<std::ptrdiff_t>(i.at),
                                    w.begin() + static_cast<std::ptrdiff_t>(i.at + i.count));
    for (const std::string& e : missing) {
      std::vector<uint32_t> ext = extensionInstruction(e);
      replaced[lastCapability].insert(replaced[lastCapability].end(), ext.begin(), ext.end());
      kinds.insert("capabilities were declared without their extension " + e +
                   ", which was declared");
    }
    touched[lastCapability] = true;
  }
  if (!entryPoint && !linkage && firstCapability < insts.size() && !touched[firstCapability]) {
    const Inst& i = insts[firstCapability];
    replaced[firstCapability].assign(w.begin() + static_cast<std::ptrdiff_t>(i.at),
                                     w.begin() + static_cast<std::ptrdiff_t>(i.at + i.count));
    replaced[firstCapability].insert(replaced[firstCapability].end(),
                                     {(2u << 16) | spv::OpCapability, spv::CapabilityLinkage});
    touched[firstCapability] = true;
    kinds.insert("a module without entry points was given the Linkage capability (no kernels)");
  }

  if (!kinds.empty()) {
    out.words.assign(w.begin(), w.begin() + kHeaderWords);
    size_t end = kHeaderWords;
    for (size_t n = 0; n < insts.size(); ++n) {
      const Inst& i = insts[n];
      if (touched[n])
        out.words.insert(out.words.end(), replaced[n].begin(), replaced[n].end());
      else
        out.words.insert(out.words.end(), w.begin() + static_cast<std::ptrdiff_t>(i.at),
                         w.begin() + static_cast<std::ptrdiff_t>(i.at + i.count));
      end = i.at + i.count;
    }
    out.words.insert(out.words.end(), w.begin() + static_cast<std::ptrdiff_t>(end), w.end());
  }
  std::vector<uint32_t> merged;
  if (mergeDuplicateTypes(out.words, merged)) {
    out.words = std::move(merged);
    kinds.insert("a non-aggregate type declared more than once was merged into its first declaration");
  }
  for (const std::string& k : kinds) out.warnings += "warning: " + k + "\n";
  return out;
}

}  // namespace tessera::spirv
