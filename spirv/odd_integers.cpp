#include "spirv/odd_integers.h"

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp>

#include <cstring>
#include <map>
#include <set>

#include "spirv/instructions.h"

namespace tessera::spirv {
namespace {

constexpr const char* kExtension = "SPV_INTEL_arbitrary_precision_integers";
// SPIRV-Tools' own extension that turns off "Duplicate non-aggregate type declarations are not
// allowed", for the shadow only (a widened i48 is a type apart from the module's i64).
constexpr const char* kDistinctTypes = "SPV_VALIDATOR_ignore_type_decl_unique";

bool standard(uint32_t width) { return width == 8 || width == 16 || width == 32 || width == 64; }

uint32_t widened(uint32_t width) {
  for (uint32_t w : {8u, 16u, 32u, 64u})
    if (width <= w) return w;
  return width;
}

std::vector<uint32_t> extensionInstruction(const char* name) {
  size_t length = std::strlen(name);
  std::vector<uint32_t> words(1 + length / 4 + 1, 0);
  std::memcpy(&words[1], name, length);
  words[0] = (static_cast<uint32_t>(words.size()) << 16) | spv::OpExtension;
  return words;
}

// The scalar and vector types, which is all a width rule looks at.
struct Type {
  uint32_t opcode = 0;
  uint32_t width = 0;      // OpTypeInt, OpTypeFloat
  uint32_t component = 0;  // OpTypeVector: the component type's id
  uint32_t count = 0;      // OpTypeVector
};

class Module {
 public:
  explicit Module(std::span<const uint32_t> words) {
    for (const Instruction& i : Instructions(words)) {
      const uint32_t op = i.opcode();
      if (op == spv::OpCapability && i.wordCount() > 1) capabilities_.insert(i[1]);
      if (op == spv::OpExtension && i.wordCount() > 1) {
        const char* name = reinterpret_cast<const char*>(&i.words[1]);
        extensions_.insert(std::string(name, strnlen(name, (i.wordCount() - 1) * 4)));
      }
      if ((op == spv::OpTypeInt || op == spv::OpTypeFloat) && i.wordCount() > 2)
        types_[i[1]] = {op, i[2], 0, 0};
      if (op == spv::OpTypeVector && i.wordCount() > 3) types_[i[1]] = {op, 0, i[2], i[3]};
      if (op == spv::OpTypeInt && i.wordCount() > 2 && !standard(i[2]))
        odd_.push_back({i[1], i[2]});
      bool hasResult = false, hasType = false;
      spv::HasResultAndType(static_cast<spv::Op>(op), &hasResult, &hasType);
      if (hasResult && hasType && i.wordCount() > 2) typeOf_[i[2]] = i[1];
    }
  }

  struct Odd {
    uint32_t id, width;
  };
  const std::vector<Odd>& odd() const { return odd_; }
  bool hasCapability(uint32_t c) const { return capabilities_.count(c) != 0; }
  bool hasExtension(const std::string& e) const { return extensions_.count(e) != 0; }
  uint32_t typeOf(uint32_t value) const {
    auto t = typeOf_.find(value);
    return t == typeOf_.end() ? 0 : t->second;
  }

  // The width of a scalar or of a vector's components, as declared or as widened; 0 for any
  // other type.
  uint32_t componentWidth(uint32_t type, bool shadow) const {
    const Type* t = find(type);
    if (t != nullptr && t->opcode == spv::OpTypeVector) t = find(t->component);
    if (t == nullptr || t->opcode == spv::OpTypeVector) return 0;
    return shadow && t->opcode == spv::OpTypeInt ? widened(t->width) : t->width;
  }
  uint32_t totalWidth(uint32_t type, bool shadow) const {
    const Type* t = find(type);
    if (t == nullptr) return 0;
    return componentWidth(type, shadow) * (t->opcode == spv::OpTypeVector ? t->count : 1);
  }
  // An odd-width integer scalar, or a vector of them.
  bool odd(uint32_t type) const {
    uint32_t w = componentWidth(type, false);
    const Type* t = find(type);
    if (t != nullptr && t->opcode == spv::OpTypeVector) t = find(t->component);
    return t != nullptr && t->opcode == spv::OpTypeInt && w != 0 && !standard(w);
  }

 private:
  const Type* find(uint32_t id) const {
    auto t = types_.find(id);
    return t == types_.end() ? nullptr : &t->second;
  }
  std::set<uint32_t> capabilities_;
  std::set<std::string> extensions_;
  std::map<uint32_t, Type> types_;
  std::map<uint32_t, uint32_t> typeOf_;
  std::vector<Odd> odd_;
};

}  // namespace

StandardWidthShadow standardWidthShadow(std::span<const uint32_t> w) {
  StandardWidthShadow out;
  if (w.size() < kHeaderWords || Instructions(w).malformed()) return out;
  // Most modules have none: one look at the declarations (types precede the first function).
  bool any = false;
  for (const Instruction& i : Instructions(w)) {
    if (i.opcode() == spv::OpFunction) break;
    any |= i.opcode() == spv::OpTypeInt && i.wordCount() > 2 && !standard(i[2]);
  }
  if (!any) return out;
  const Module module(w);
  if (module.odd().empty()) return out;
  out.needed = true;
  const Module::Odd& first = module.odd().front();
  const std::string named =
      "OpTypeInt %" + std::to_string(first.id) + " of width " + std::to_string(first.width);
  // The universal validation rules allow 8, 16, 32 and 64 bits only; the extension allows more.
  if (!module.hasCapability(spv::CapabilityArbitraryPrecisionIntegersINTEL)) {
    out.error = named +
                ": integer widths other than 8, 16, 32 and 64 need the capability "
                "ArbitraryPrecisionIntegersINTEL (extension " +
                kExtension + "), which the module does not declare";
    return out;
  }
  if (!module.hasExtension(kExtension)) {
    out.error = named + ": the capability ArbitraryPrecisionIntegersINTEL needs OpExtension \"" +
                kExtension + "\", which the module does not declare";
    return out;
  }
  std::set<uint32_t> capabilities;  // the standard widths' capabilities the shadow needs
  std::set<std::pair<uint32_t, uint32_t>> widths;
  for (const Module::Odd& o : module.odd()) {
    if (o.width == 0 || o.width > 64) {
      out.error = "OpTypeInt %" + std::to_string(o.id) + " of width " + std::to_string(o.width) +
                  ": arbitrary-precision integers are taken from 1 to 64 bits";
      return out;
    }
    widths.insert({o.width, widened(o.width)});
    uint32_t wide = widened(o.width);
    uint32_t capability = wide == 8    ? spv::CapabilityInt8
                          : wide == 16 ? spv::CapabilityInt16
                          : wide == 64 ? spv::CapabilityInt64
                                       : 0;
    if (capability != 0 && !module.hasCapability(capability)) capabilities.insert(capability);
  }

  out.words.assign(w.begin(), w.begin() + kHeaderWords);
  bool capabilitiesAdded = false, extensionAdded = false;
  for (const Instruction& i : Instructions(w)) {
    const uint32_t op = i.opcode();
    if (op == spv::OpCapability && !capabilitiesAdded) {
      for (uint32_t c : capabilities)
        out.words.insert(out.words.end(), {(2u << 16) | spv::OpCapability, c});
      capabilitiesAdded = true;
    }
    if (op == spv::OpExtension && !extensionAdded) {
      std::vector<uint32_t> e = extensionInstruction(kDistinctTypes);
      out.words.insert(out.words.end(), e.begin(), e.end());
      extensionAdded = true;
    }
    const size_t at = out.words.size();
    out.words.insert(out.words.end(), i.words.begin(), i.words.end());
    if (op == spv::OpTypeInt && i.wordCount() > 2 && !standard(i[2])) {
      out.words[at + 2] = widened(i[2]);
      continue;
    }
    // <result type> <result> <operand>
    if ((op != spv::OpUConvert && op != spv::OpSConvert && op != spv::OpBitcast) ||
        i.wordCount() != 4)
      continue;
    const uint32_t result = i[1], operand = module.typeOf(i[3]);
    if (!module.odd(result) && !module.odd(operand)) continue;
    bool keptByWidening;
    if (op == spv::OpBitcast) {
      // "The total number of bits in Result Type must equal the total number of bits in Operand"
      // (pointers, which have no width here, are left to the validator).
      const uint32_t to = module.totalWidth(result, false), from = module.totalWidth(operand, false);
      if (to == 0 || from == 0) continue;
      if (to != from) {
        out.words.clear();
        out.error = "OpBitcast %" + std::to_string(i[2]) + " of a " + std::to_string(from) +
                    "-bit operand to a " + std::to_string(to) +
                    "-bit type: the total number of bits must be the same";
        return out;
      }
      keptByWidening = module.totalWidth(result, true) == module.totalWidth(operand, true);
    } else {
      // "Result Type and <Unsigned|Signed> Value must have a different component width"
      // (an equal one is left in the shadow, where the validator reports it).
      keptByWidening =
          module.componentWidth(result, true) != module.componentWidth(operand, true) ||
          module.componentWidth(result, false) == module.componentWidth(operand, false);
    }
    if (!keptByWidening) {
      out.words.resize(at);
      out.words.insert(out.words.end(), {(3u << 16) | spv::OpUndef, i[1], i[2]});
    }
  }
  out.description = "integer widths";
  std::string as;
  for (const auto& [from, to] : widths) {
    out.description += (as.empty() ? " " : ", ") + std::to_string(from);
    as += (as.empty() ? "" : ", ") + std::to_string(to);
  }
  out.description += " (" + std::string(kExtension) + ") validated as " + as;
  return out;
}

}  // namespace tessera::spirv
