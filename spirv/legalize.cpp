#include "spirv/legalize.h"

#include <map>
#include <set>
#include <spirv/unified1/spirv.hpp>

#include "spirv/instructions.h"
#include "spirv/pointer_compare.h"

namespace tessera::spirv {
namespace {

bool isPowerOfTwo(uint32_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

// One instruction as the rewrite sees it: its words, to keep, change or drop.
using Inst = std::vector<uint32_t>;

// Memory operands: "Aligned: ... Literal Number ... must be a power of two" (SPIR-V 3.26). Earlier
// producers wrote `Aligned 0` for "no alignment known" (the OpenCL-CTS v2023 spirv_new binaries);
// the translator would abort on it. The operand is a promise the module makes; dropping it promises
// nothing, which keeps the meaning. Aligned is the lowest mask bit that takes a literal, so its
// literal comes right after the mask. Returns whether it changed `inst`.
bool dropBadAligned(Inst& inst, size_t maskAt) {
  if (maskAt + 1 >= inst.size()) return false;
  if ((inst[maskAt] & spv::MemoryAccessAlignedMask) == 0 || isPowerOfTwo(inst[maskAt + 1]))
    return false;
  inst[maskAt] &= ~uint32_t(spv::MemoryAccessAlignedMask);
  inst.erase(inst.begin() + static_cast<std::ptrdiff_t>(maskAt) + 1);
  return true;
}

// Literal strings: SPIR-V requires the string's nul and pads the last word "with 0x00"; the
// translator asserts on other padding bytes, SPIRV-Tools does not check them. They carry nothing.
bool zeroStringPadding(Inst& inst, size_t first) {
  for (size_t w = first; w < inst.size(); ++w) {
    for (int b = 0; b < 4; ++b) {
      if (((inst[w] >> (8 * b)) & 0xff) != 0) continue;
      // The string ends in this word; words after it are other operands (OpEntryPoint's
      // interface ids).
      uint32_t keep = b == 0 ? 0 : (inst[w] & ((1u << (8 * b)) - 1));
      bool changed = keep != inst[w];
      inst[w] = keep;
      return changed;
    }
  }
  return false;
}

size_t stringOperand(const Inst& inst) {
  switch (inst[0] & 0xffff) {
    case spv::OpSourceExtension:
    case spv::OpExtension:
    case spv::OpModuleProcessed:
      return 1;
    case spv::OpName:
    case spv::OpString:
    case spv::OpExtInstImport:
      return 2;
    case spv::OpMemberName:
    case spv::OpEntryPoint:
      return 3;
    default:
      return 0;
  }
}

}  // namespace

Legalized legalizeForTranslator(std::span<const uint32_t> input) {
  Legalized out;
  std::set<std::string> kinds;  // one warning per kind of rewrite
  std::optional<std::vector<uint32_t>> lowered = lowerPointerComparisons(input);
  if (lowered)
    kinds.insert(
        "OpPtrEqual, OpPtrNotEqual or OpPtrDiff (SPIR-V 1.4) was written as a comparison or "
        "difference of the pointers' addresses");
  const std::span<const uint32_t> words = lowered ? std::span<const uint32_t>(*lowered) : input;
  if (words.size() < kHeaderWords) {
    out.words.assign(words.begin(), words.end());
    return out;
  }
  // Integer constants (not specialization constants): LocalSizeId operands that are plain
  // constants can be written as LocalSize literals.
  std::map<uint32_t, uint32_t> constants;
  const Instructions instructions(words);
  for (const Instruction& i : instructions)
    if (i.opcode() == spv::OpConstant && i.wordCount() == 4) constants[i[2]] = i[3];
  out.words.assign(words.begin(), words.begin() + kHeaderWords);
  for (const Instruction& i : instructions) {
    Inst inst(i.words.begin(), i.words.end());
    bool keep = true;
    switch (inst[0] & 0xffff) {
      case spv::OpLoad:
      case spv::OpCopyMemorySized:
        if (dropBadAligned(inst, 4)) kinds.insert("an Aligned memory operand that is not a power of two (such as Aligned 0) was dropped");
        break;
      case spv::OpStore:
      case spv::OpCopyMemory:
        if (dropBadAligned(inst, 3)) kinds.insert("an Aligned memory operand that is not a power of two (such as Aligned 0) was dropped");
        break;
      case spv::OpDecorate:
        // "Alignment ... must be a power of two" is a promise as well; FuncParamAttr values
        // beyond NoWrite (NoReadWrite) and VecTypeHint are optimization hints.
        if (inst.size() > 3 && inst[2] == spv::DecorationAlignment && !isPowerOfTwo(inst[3])) {
          keep = false;
          kinds.insert("an Alignment decoration that is not a power of two was dropped");
        } else if (inst.size() > 3 && inst[2] == spv::DecorationFuncParamAttr && inst[3] > 6) {
          keep = false;
          kinds.insert("a FuncParamAttr the translator does not know (NoReadWrite) was dropped");
        }
        break;
      case spv::OpExecutionMode:
        if (inst.size() > 3 && inst[2] == spv::ExecutionModeVecTypeHint) {
          uint32_t scalar = inst[3] & 0xffff, width = inst[3] >> 16;
          if (scalar > 6 || !(width <= 4 || width == 8 || width == 16)) {
            keep = false;
            kinds.insert("a VecTypeHint that names no type was dropped");
          }
        }
        break;
      case spv::OpExecutionModeId:
        // The translator has no OpExecutionModeId; LocalSizeId with constants is LocalSize.
        if (inst.size() == 6 && inst[2] == spv::ExecutionModeLocalSizeId &&
            constants.count(inst[3]) && constants.count(inst[4]) && constants.count(inst[5])) {
          inst = {(6u << 16) | spv::OpExecutionMode, inst[1], spv::ExecutionModeLocalSize,
                  constants[inst[3]], constants[inst[4]], constants[inst[5]]};
          kinds.insert("LocalSizeId of constants was read as LocalSize");
        }
        break;
      default:
        break;
    }
    if (size_t first = stringOperand(inst); first != 0 && zeroStringPadding(inst, first)) {
      kinds.insert("a literal string padded with bytes other than nul was padded with nul");
    }
    if (!keep) continue;
    inst[0] = (static_cast<uint32_t>(inst.size()) << 16) | (inst[0] & 0xffff);
    out.words.insert(out.words.end(), inst.begin(), inst.end());
  }
  // A malformed tail (validation would have refused it) is kept as it is.
  if (std::optional<Malformed> bad = instructions.malformed())
    out.words.insert(out.words.end(), words.begin() + static_cast<std::ptrdiff_t>(bad->offset),
                     words.end());
  for (const std::string& k : kinds) out.warnings += "warning: " + k + "\n";
  return out;
}

}  // namespace tessera::spirv
