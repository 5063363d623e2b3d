// SPIR-V 1.4's pointer comparisons as comparisons of addresses (legalize.h). The installed
// translator (15.0.0) has no OpPtrEqual, OpPtrNotEqual or OpPtrDiff; compilers for SYCL and the
// OpenCL C of oneAPI's tests emit them (`while (p->next != NULL)`). In the Physical addressing
// models of a Kernel module a pointer is an address:
//   OpPtrEqual / OpPtrNotEqual: "Result is true if Operand 1 and Operand 2 have the same value /
//     different values" -> OpConvertPtrToU of both, OpIEqual / OpINotEqual;
//   OpPtrDiff: "Element-number subtraction: the number of elements to add to Operand 2 to get to
//     Operand 1", whose "Result Type must be an integer type scalar" -> the addresses' difference
//     divided (exactly, OpSDiv) by the size of the pointed-to type, then converted to the result
//     type (OpSConvert, a signed count).
// Sizes follow OpenCL C's layout: scalars by width, 3-element vectors as 4, arrays by their
// length, structs with natural alignment (or none when CPacked). A pointed-to type of any other
// kind (an opaque type, a runtime array) leaves OpPtrDiff as written, and translator_guard.h
// refuses it with its own message. Logical addressing (no addresses) is left alone likewise.
#include "spirv/pointer_compare.h"

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "spirv/instructions.h"

namespace tessera::spirv {
namespace {

struct Layout {
  uint64_t size = 0;  // 0: unknown
  uint64_t align = 1;
};

class Module {
 public:
  explicit Module(std::span<const uint32_t> words) {
    for (const Instruction& i : Instructions(words)) {
      const uint32_t op = i.opcode();
      if (op == spv::OpMemoryModel && i.wordCount() > 1) addressing_ = i[1];
      if (op == spv::OpCapability && i.wordCount() > 1) capabilities_.insert(i[1]);
      if (op == spv::OpDecorate && i.wordCount() > 2 && i[2] == spv::DecorationCPacked)
        packed_.insert(i[1]);
      if (op == spv::OpConstant && i.wordCount() == 4) constants_[i[2]] = i[3];
      if (op == spv::OpTypeInt && i.wordCount() == 4 && i[3] == 0) unsignedInts_[i[2]] = i[1];
      if (op >= spv::OpTypeVoid && op <= spv::OpTypeForwardPointer && i.wordCount() > 1)
        types_[i[1]] = std::vector<uint32_t>(i.words.begin(), i.words.end());
      bool hasResult = false, hasType = false;
      spv::HasResultAndType(static_cast<spv::Op>(op), &hasResult, &hasType);
      if (hasResult && hasType && i.wordCount() > 2) typeOf_[i[2]] = i[1];
    }
  }

  bool physical() const {
    return addressing_ == spv::AddressingModelPhysical32 ||
           addressing_ == spv::AddressingModelPhysical64;
  }
  uint32_t addressBits() const { return addressing_ == spv::AddressingModelPhysical64 ? 64 : 32; }
  bool hasCapability(uint32_t c) const { return capabilities_.count(c) != 0; }
  // The id of `OpTypeInt bits 0`, or 0.
  uint32_t unsignedInt(uint32_t bits) const {
    for (const auto& [id, width] : unsignedInts_)
      if (width == bits) return id;
    return 0;
  }
  uint32_t typeOf(uint32_t value) const {
    auto t = typeOf_.find(value);
    return t == typeOf_.end() ? 0 : t->second;
  }
  uint32_t integerWidth(uint32_t type) const {
    auto t = types_.find(type);
    return t != types_.end() && t->second[0] % 65536 == spv::OpTypeInt ? t->second[2] : 0;
  }
  // The layout of what a pointer of type `pointer` points to.
  Layout pointee(uint32_t pointer) const {
    auto t = types_.find(pointer);
    if (t == types_.end() || (t->second[0] & 0xffff) != spv::OpTypePointer) return {};
    return layout(t->second[3], 0);
  }

 private:
  Layout layout(uint32_t type, int depth) const {
    auto t = types_.find(type);
    if (t == types_.end() || depth > 64) return {};
    const std::vector<uint32_t>& w = t->second;
    switch (w[0] & 0xffff) {
      case spv::OpTypeInt:
      case spv::OpTypeFloat:
        if (w.size() < 3 || w[2] % 8 != 0) return {};
        return {w[2] / 8, w[2] / 8};
      case spv::OpTypePointer:
        return {addressBits() / 8, addressBits() / 8};
      case spv::OpTypeVector: {
        Layout e = layout(w[2], depth + 1);
        uint64_t n = w[3] == 3 ? 4 : w[3];
        return e.size ? Layout{e.size * n, e.size * n} : Layout{};
      }
      case spv::OpTypeArray: {
        Layout e = layout(w[2], depth + 1);
        auto n = constants_.find(w[3]);
        if (!e.size || n == constants_.end()) return {};
        return {e.size * n->second, e.align};
      }
      case spv::OpTypeStruct: {
        const bool packed = packed_.count(type) != 0;
        Layout s{0, 1};
        for (size_t m = 2; m < w.size(); ++m) {
          Layout e = layout(w[m], depth + 1);
          if (!e.size) return {};
          const uint64_t a = packed ? 1 : e.align;
          s.size = (s.size + a - 1) / a * a + e.size;
          s.align = std::max(s.align, a);
        }
        s.size = (s.size + s.align - 1) / s.align * s.align;
        return s.size ? s : Layout{};
      }
      default:
        return {};
    }
  }

  uint32_t addressing_ = spv::AddressingModelLogical;
  std::set<uint32_t> capabilities_;
  std::set<uint32_t> packed_;
  std::map<uint32_t, uint32_t> constants_;     // OpConstant of one word: id -> value
  std::map<uint32_t, uint32_t> unsignedInts_;  // OpTypeInt N 0: id -> N
  std::map<uint32_t, std::vector<uint32_t>> types_;
  std::map<uint32_t, uint32_t> typeOf_;  // result id -> result type id
};

uint32_t word(uint32_t count, spv::Op op) { return (count << 16) | op; }

}  // namespace

std::optional<std::vector<uint32_t>> lowerPointerComparisons(std::span<const uint32_t> words) {
  if (words.size() < kHeaderWords) return std::nullopt;
  const Instructions instructions(words);
  bool found = false;
  for (const Instruction& i : instructions)
    found |= i.opcode() == spv::OpPtrEqual || i.opcode() == spv::OpPtrNotEqual ||
             i.opcode() == spv::OpPtrDiff;
  if (!found) return std::nullopt;
  const Module module(words);
  if (!module.physical()) return std::nullopt;

  uint32_t bound = words[3];
  const uint32_t bits = module.addressBits();
  uint32_t address = module.unsignedInt(bits);  // the integer type addresses convert to
  const bool newType = address == 0;
  if (newType) address = bound++;
  std::map<uint64_t, uint32_t> sizes;  // OpPtrDiff's divisors: size -> new constant id
  std::vector<uint32_t> body;          // the functions, rewritten
  std::vector<uint32_t> head;          // everything before the first OpFunction
  bool inFunctions = false;
  bool changed = false;
  for (const Instruction& i : instructions) {
    inFunctions |= i.opcode() == spv::OpFunction;
    std::vector<uint32_t>& out = inFunctions ? body : head;
    const uint32_t op = i.opcode();
    if ((op != spv::OpPtrEqual && op != spv::OpPtrNotEqual && op != spv::OpPtrDiff) ||
        i.wordCount() != 5) {
      out.insert(out.end(), i.words.begin(), i.words.end());
      continue;
    }
    const uint32_t type = i[1], result = i[2], a = i[3], b = i[4];
    uint64_t elementSize = 0;
    if (op == spv::OpPtrDiff) {
      elementSize = module.pointee(module.typeOf(a)).size;
      if (elementSize == 0 || module.integerWidth(type) == 0) {
        out.insert(out.end(), i.words.begin(), i.words.end());  // left to translator_guard
        continue;
      }
    }
    const uint32_t ua = bound++, ub = bound++;
    out.insert(out.end(), {word(4, spv::OpConvertPtrToU), address, ua, a});
    out.insert(out.end(), {word(4, spv::OpConvertPtrToU), address, ub, b});
    if (op != spv::OpPtrDiff) {
      out.insert(out.end(), {word(5, op == spv::OpPtrEqual ? spv::OpIEqual : spv::OpINotEqual),
                             type, result, ua, ub});
    } else {
      const bool same = type == address;
      uint32_t count = same && elementSize == 1 ? result : bound++;
      out.insert(out.end(), {word(5, spv::OpISub), address, count, ua, ub});
      if (elementSize != 1) {
        auto [at, added] = sizes.try_emplace(elementSize, 0);
        if (added) at->second = bound++;
        const uint32_t quotient = same ? result : bound++;
        out.insert(out.end(), {word(5, spv::OpSDiv), address, quotient, count, at->second});
        count = quotient;
      }
      if (!same) out.insert(out.end(), {word(4, spv::OpSConvert), type, result, count});
    }
    changed = true;
  }
  if (!changed) return std::nullopt;

  std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
  out[3] = bound;
  // A 64-bit integer type needs Int64 (SPIR-V 2.16.1, "Universal Validation Rules").
  const bool needInt64 = newType && bits == 64 && !module.hasCapability(spv::CapabilityInt64);
  bool placed = !needInt64;
  // The new declarations go right before the first function: after every type they use, still
  // in the section of types, constants and global variables.
  for (size_t pos = 0; pos < head.size();) {
    const uint32_t count = head[pos] >> 16;  // whole instructions, copied above
    out.insert(out.end(), head.begin() + pos, head.begin() + pos + count);
    if (!placed && (head[pos] & 0xffff) == spv::OpCapability) {
      out.insert(out.end(), {word(2, spv::OpCapability), spv::CapabilityInt64});
      placed = true;
    }
    pos += count;
  }
  if (newType) out.insert(out.end(), {word(4, spv::OpTypeInt), address, bits, 0});
  for (const auto& [size, id] : sizes) {
    if (bits == 64)
      out.insert(out.end(), {word(5, spv::OpConstant), address, id, uint32_t(size),
                             uint32_t(size >> 32)});
    else
      out.insert(out.end(), {word(4, spv::OpConstant), address, id, uint32_t(size)});
  }
  out.insert(out.end(), body.begin(), body.end());
  // A malformed tail (validation would have refused it) is kept as it is.
  if (std::optional<Malformed> bad = instructions.malformed())
    out.insert(out.end(), words.begin() + static_cast<std::ptrdiff_t>(bad->offset), words.end());
  return out;
}

}  // namespace tessera::spirv
