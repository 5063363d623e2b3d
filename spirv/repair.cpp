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

}  // namespace

Repaired repairProducerMistakes(std::span<const uint32_t> w) {
  Repaired out;
  out.words.assign(w.begin(), w.end());
  if (w.size() < kHeaderWords) return out;
  const std::vector<Inst> insts = instructions(w);
  // Per instruction: its replacement (empty vector: dropped); instructions not in it stay.
  std::vector<std::vector<uint32_t>> replaced(insts.size());
  std::vector<bool> touched(insts.size(), false);
  std::set<std::string> kinds;

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
    // Used (an odd-width OpTypeInt) without its extension: the extension is declared, as for the
    // table's capabilities.
    if (w[i.at + 1] == spv::CapabilityArbitraryPrecisionIntegersINTEL && !arbitraryExtension &&
        oddIntegers)
      missing.insert("SPV_INTEL_arbitrary_precision_integers");
    if (w[i.at + 1] == spv::CapabilityArbitraryPrecisionIntegersINTEL && !arbitraryExtension &&
        !oddIntegers) {
      replaced[n].clear();
      touched[n] = true;
      kinds.insert(
          "capability ArbitraryPrecisionIntegersINTEL, declared without its extension and used by "
          "no type, was dropped");
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
