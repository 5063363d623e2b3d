// A single pass over the instruction stream records what reflection needs (names, decorations,
// types, constants, functions, entry points, execution modes, module-scope variables); a second
// step turns the records into ModuleInfo. Every read goes through Operands, a checked view of an
// instruction (spirv/instructions.h) that knows its length.
#include "spirv/reflect.h"

#include <spirv/unified1/OpenCL.std.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <spirv/unified1/spirv.hpp>
#include <unordered_map>
#include <unordered_set>

#include "spirv/instructions.h"

namespace tessera::spirv {
namespace {

// A module can name at most `bound` ids; this cap keeps hostile bounds from sizing our tables.
constexpr uint32_t kMaxTypeDepth = 32;
constexpr uint64_t kMaxLayoutSize = uint64_t{1} << 40;

uint32_t byteSwap(uint32_t v) {
  return __builtin_bswap32(v);
}

class ParseError {
 public:
  explicit ParseError(std::string message) : message_(std::move(message)) {}
  const std::string& message() const { return message_; }

 private:
  std::string message_;
};

// One instruction (instructions.h) whose operand reads are checked: a missing operand is a
// ParseError naming the instruction.
class Operands {
 public:
  explicit Operands(const spirv::Instruction& i)
      : words_(i.words.data()), count_(i.wordCount()), offset_(i.offset) {}
  uint32_t opcode() const { return words_[0] & 0xffff; }
  uint32_t count() const { return count_; }
  size_t offset() const { return offset_; }
  uint32_t word(uint32_t i) const {
    if (i >= count_) fail("operand " + std::to_string(i) + " missing");
    return words_[i];
  }
  // A nul-terminated literal string starting at word `first`; `next` receives the word after it.
  std::string string(uint32_t first, uint32_t* next = nullptr) const {
    if (first >= count_) fail("string operand missing");
    const char* bytes = reinterpret_cast<const char*>(words_ + first);
    size_t available = size_t{count_ - first} * 4;
    const void* nul = std::memchr(bytes, 0, available);
    if (nul == nullptr) fail("string operand is not nul-terminated within the instruction");
    size_t length = static_cast<const char*>(nul) - bytes;
    if (next != nullptr) *next = first + static_cast<uint32_t>(length / 4 + 1);
    return std::string(bytes, length);
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw ParseError("instruction at word " + std::to_string(offset_) + " (opcode " +
                     std::to_string(opcode()) + "): " + what);
  }

 private:
  const uint32_t* words_;
  uint32_t count_;
  size_t offset_;
};

struct TypeRecord {
  uint32_t opcode = 0;
  std::vector<uint32_t> operands;  // the words after the result id
};

struct ConstantRecord {
  uint32_t opcode = 0;
  uint32_t typeId = 0;
  std::vector<uint32_t> value;  // literal words (empty for true/false)
};

struct Decoration {
  uint32_t target = 0;
  uint32_t decoration = 0;
  std::vector<uint32_t> literals;
  std::string text;  // LinkageAttributes' name
};

struct FunctionRecord {
  std::vector<std::pair<uint32_t, uint32_t>> params;  // (type, id)
};

struct EntryRecord {
  uint32_t model = 0;
  uint32_t function = 0;
  std::string name;
  std::vector<uint32_t> interface;
};

struct ModeRecord {
  uint32_t function = 0;
  uint32_t mode = 0;
  bool usesIds = false;
  std::vector<uint32_t> operands;
};

struct Layout {
  uint64_t size = 0;
  uint64_t alignment = 1;
};

class Reflector {
 public:
  explicit Reflector(std::span<const uint32_t> words) : words_(words) {}

  ModuleInfo run() {
    readHeader();
    std::vector<bool> seen(65536, false);
    const Instructions instructions(words_);
    for (const spirv::Instruction& i : instructions) {
      Operands inst(i);
      seen[inst.opcode()] = true;
      // OpSpecConstantOp names the operation it stands for; consumers that check opcodes need it.
      if (inst.opcode() == spv::OpSpecConstantOp && inst.count() > 3)
        seen[inst.word(3) & 0xffff] = true;
      record(inst);
    }
    if (std::optional<Malformed> bad = instructions.malformed()) {
      if (bad->wordCount == 0) {
        throw ParseError("instruction at word " + std::to_string(bad->offset) +
                         " has a word count of 0");
      }
      throw ParseError("instruction at word " + std::to_string(bad->offset) + " claims " +
                       std::to_string(bad->wordCount) + " words but only " +
                       std::to_string(words_.size() - bad->offset) + " remain");
    }
    for (uint32_t op = 0; op < seen.size(); ++op) {
      if (seen[op]) info_.opcodesUsed.push_back(op);
    }
    applyGroupDecorations();
    for (size_t i = 0; i < decorations_.size(); ++i) {
      decorationIndex_.emplace(decorations_[i].target, i);
    }
    build();
    return std::move(info_);
  }

 private:
  void readHeader() {
    if (words_.size() < 5) throw ParseError("shorter than the 5-word SPIR-V header");
    info_.version = words_[1];
    info_.generator = words_[2];
    info_.bound = words_[3];
    if (words_[4] != 0) throw ParseError("header schema word is not 0");
    if (info_.bound == 0) throw ParseError("header id bound is 0");
  }

  uint32_t id(const Operands& inst, uint32_t i) const {
    uint32_t value = inst.word(i);
    if (value == 0 || value >= info_.bound) {
      inst.fail("id " + std::to_string(value) + " is outside the bound " +
                std::to_string(info_.bound));
    }
    return value;
  }

  std::vector<uint32_t> rest(const Operands& inst, uint32_t first) const {
    std::vector<uint32_t> out;
    for (uint32_t i = first; i < inst.count(); ++i) out.push_back(inst.word(i));
    return out;
  }

  void record(const Operands& inst) {
    switch (inst.opcode()) {
      case spv::OpCapability:
        info_.capabilities.push_back(inst.word(1));
        break;
      case spv::OpExtension:
        info_.extensions.push_back(inst.string(1));
        break;
      case spv::OpExtInstImport: {
        std::string name = inst.string(2);
        if (name == "OpenCL.std") openclStd_ = id(inst, 1);
        info_.extInstImports.push_back(std::move(name));
        break;
      }
      case spv::OpMemoryModel:
        info_.addressingModel = inst.word(1);
        info_.memoryModel = inst.word(2);
        break;
      case spv::OpEntryPoint: {
        EntryRecord entry;
        entry.model = inst.word(1);
        entry.function = id(inst, 2);
        uint32_t next = 0;
        entry.name = inst.string(3, &next);
        for (uint32_t i = next; i < inst.count(); ++i) entry.interface.push_back(id(inst, i));
        entries_.push_back(std::move(entry));
        break;
      }
      case spv::OpExecutionMode:
      case spv::OpExecutionModeId:
        modes_.push_back(
            {id(inst, 1), inst.word(2), inst.opcode() == spv::OpExecutionModeId, rest(inst, 3)});
        break;
      case spv::OpName:
        names_[id(inst, 1)] = inst.string(2);
        break;
      case spv::OpDecorate: {
        Decoration d{id(inst, 1), inst.word(2), {}, {}};
        if (d.decoration == spv::DecorationLinkageAttributes) {
          uint32_t next = 0;
          d.text = inst.string(3, &next);
          d.literals.push_back(inst.word(next));
        } else {
          d.literals = rest(inst, 3);
        }
        decorations_.push_back(std::move(d));
        break;
      }
      case spv::OpGroupDecorate: {
        uint32_t group = id(inst, 1);
        for (uint32_t i = 2; i < inst.count(); ++i) groupTargets_.push_back({group, id(inst, i)});
        break;
      }
      case spv::OpTypeVoid:
      case spv::OpTypeBool:
      case spv::OpTypeInt:
      case spv::OpTypeFloat:
      case spv::OpTypeVector:
      case spv::OpTypeArray:
      case spv::OpTypeRuntimeArray:
      case spv::OpTypeStruct:
      case spv::OpTypePointer:
      case spv::OpTypeSampler:
      case spv::OpTypeImage:
      case spv::OpTypeSampledImage:
      case spv::OpTypePipe:
      case spv::OpTypeEvent:
      case spv::OpTypeDeviceEvent:
      case spv::OpTypeQueue:
      case spv::OpTypeReserveId:
      case spv::OpTypeOpaque:
      case spv::OpTypeFunction:
        types_[id(inst, 1)] = TypeRecord{inst.opcode(), rest(inst, 2)};
        break;
      case spv::OpConstant:
      case spv::OpSpecConstant:
        constants_[id(inst, 2)] = ConstantRecord{inst.opcode(), id(inst, 1), rest(inst, 3)};
        break;
      case spv::OpConstantTrue:
      case spv::OpConstantFalse:
      case spv::OpSpecConstantTrue:
      case spv::OpSpecConstantFalse:
        constants_[id(inst, 2)] = ConstantRecord{inst.opcode(), id(inst, 1), {}};
        break;
      case spv::OpFunction:
        current_ = id(inst, 2);
        functions_[current_];
        break;
      case spv::OpFunctionParameter:
        if (current_ == 0) inst.fail("OpFunctionParameter outside a function");
        functions_[current_].params.push_back({id(inst, 1), id(inst, 2)});
        break;
      case spv::OpFunctionEnd:
        current_ = 0;
        break;
      case spv::OpVariable:
        if (current_ == 0 && inst.word(3) == spv::StorageClassWorkgroup) {
          workgroupVariables_.push_back({id(inst, 2), id(inst, 1)});
        } else if (current_ == 0 && inst.word(3) == spv::StorageClassCrossWorkgroup) {
          globalVariables_.push_back({id(inst, 2), id(inst, 1)});
        }
        break;
      case spv::OpExtInst:
        if (openclStd_ != 0 && inst.word(3) == openclStd_ && inst.word(4) == OpenCLLIB::Printf) {
          info_.usesPrintf = true;
        }
        break;
      default:
        break;
    }
  }

  // OpGroupDecorate applies a decoration group's decorations to each target.
  void applyGroupDecorations() {
    if (groupTargets_.empty()) return;
    std::unordered_multimap<uint32_t, size_t> byTarget;
    for (size_t i = 0; i < decorations_.size(); ++i) byTarget.emplace(decorations_[i].target, i);
    std::vector<Decoration> added;
    for (auto [group, target] : groupTargets_) {
      auto [begin, end] = byTarget.equal_range(group);
      for (auto it = begin; it != end; ++it) {
        if (added.size() >= (size_t{1} << 20)) throw ParseError("too many group decorations");
        Decoration d = decorations_[it->second];
        d.target = target;
        added.push_back(std::move(d));
      }
    }
    decorations_.insert(decorations_.end(), added.begin(), added.end());
  }

  // The decorations of one target (an index, so hostile modules with many decorations and many
  // targets stay linear).
  std::vector<const Decoration*> decorationsOf(uint32_t target) const {
    std::vector<const Decoration*> out;
    auto [begin, end] = decorationIndex_.equal_range(target);
    for (auto it = begin; it != end; ++it) out.push_back(&decorations_[it->second]);
    return out;
  }

  bool hasDecoration(uint32_t target, uint32_t decoration, int64_t literal = -1) const {
    for (const Decoration* p : decorationsOf(target)) {
      const Decoration& d = *p;
      if (d.decoration != decoration) continue;
      if (literal < 0) return true;
      if (!d.literals.empty() && d.literals[0] == static_cast<uint64_t>(literal)) return true;
    }
    return false;
  }

  std::string nameOf(uint32_t target) const {
    auto it = names_.find(target);
    return it == names_.end() ? std::string() : it->second;
  }

  const TypeRecord* type(uint32_t typeId) const {
    auto it = types_.find(typeId);
    return it == types_.end() ? nullptr : &it->second;
  }

  // The value of a scalar integer constant (plain or specialization default), if it is one.
  std::optional<uint64_t> integerConstant(uint32_t constantId) const {
    auto it = constants_.find(constantId);
    if (it == constants_.end()) return std::nullopt;
    const ConstantRecord& c = it->second;
    if (c.opcode != spv::OpConstant && c.opcode != spv::OpSpecConstant) return std::nullopt;
    const TypeRecord* t = type(c.typeId);
    if (t == nullptr || t->opcode != spv::OpTypeInt || c.value.empty()) return std::nullopt;
    uint64_t value = c.value[0];
    if (c.value.size() > 1) value |= uint64_t{c.value[1]} << 32;
    return value;
  }

  // OpenCL C layout of a value of type `typeId`, memoized: hostile modules can nest structs of
  // many members of structs, which would be exponential without it.
  std::optional<Layout> layout(uint32_t typeId, uint32_t depth = 0) const {
    if (depth > kMaxTypeDepth) return std::nullopt;
    if (auto it = layoutCache_.find(typeId); it != layoutCache_.end()) return it->second;
    std::optional<Layout> result = computeLayout(typeId, depth);
    layoutCache_[typeId] = result;
    return result;
  }

  std::optional<Layout> computeLayout(uint32_t typeId, uint32_t depth) const {
    const TypeRecord* t = type(typeId);
    if (t == nullptr) return std::nullopt;
    const auto& ops = t->operands;
    switch (t->opcode) {
      case spv::OpTypeBool:
        return Layout{1, 1};
      case spv::OpTypeInt:
      case spv::OpTypeFloat: {
        if (ops.empty()) return std::nullopt;
        uint32_t width = ops[0];
        // An integer of another width (SPV_INTEL_arbitrary_precision_integers, up to 64 bits:
        // odd_integers.h) is laid out as LLVM lays out iN for spir64 and x86-64, the translator's
        // and the JIT's targets: size and alignment of the next standard width up (an i48 takes
        // 8 bytes, an i24 4; loads and stores of it touch only its ceil(N / 8) bytes).
        if (t->opcode == spv::OpTypeInt && width >= 1 && width < 64 && width != 8 &&
            width != 16 && width != 32) {
          uint32_t bytes = width <= 8 ? 1 : width <= 16 ? 2 : width <= 32 ? 4 : 8;
          return Layout{bytes, bytes};
        }
        if (width != 8 && width != 16 && width != 32 && width != 64) return std::nullopt;
        return Layout{width / 8, width / 8};
      }
      case spv::OpTypeVector: {
        if (ops.size() < 2) return std::nullopt;
        auto element = layout(ops[0], depth + 1);
        uint32_t n = ops[1];
        if (!element || (n != 2 && n != 3 && n != 4 && n != 8 && n != 16)) return std::nullopt;
        uint64_t size = element->size * (n == 3 ? 4 : n);  // OpenCL: a 3-vector is sized as 4
        return Layout{size, size};
      }
      case spv::OpTypeArray: {
        if (ops.size() < 2) return std::nullopt;
        auto element = layout(ops[0], depth + 1);
        auto length = integerConstant(ops[1]);
        if (!element || !length || *length > kMaxLayoutSize) return std::nullopt;
        uint64_t stride = alignUp(element->size, element->alignment);
        if (stride != 0 && *length > kMaxLayoutSize / stride) return std::nullopt;
        return Layout{stride * *length, element->alignment};
      }
      case spv::OpTypeStruct: {
        bool packed = hasDecoration(typeId, spv::DecorationCPacked);
        Layout result{0, 1};
        for (uint32_t member : ops) {
          auto m = layout(member, depth + 1);
          if (!m) return std::nullopt;
          uint64_t alignment = packed ? 1 : m->alignment;
          result.size = alignUp(result.size, alignment) + m->size;
          result.alignment = std::max(result.alignment, alignment);
          if (result.size > kMaxLayoutSize) return std::nullopt;
        }
        result.size = alignUp(result.size, result.alignment);
        return result;
      }
      case spv::OpTypePointer:
        return Layout{info_.pointerSize, info_.pointerSize};
      default:
        return std::nullopt;
    }
  }

  static uint64_t alignUp(uint64_t value, uint64_t alignment) {
    if (alignment <= 1) return value;
    return (value + alignment - 1) / alignment * alignment;
  }

  KernelArg describeArg(uint32_t typeId, uint32_t paramId) const {
    KernelArg arg;
    arg.name = nameOf(paramId);
    arg.typeId = typeId;
    const TypeRecord* t = type(typeId);
    if (t == nullptr) return arg;
    uint32_t pointerSize = info_.pointerSize;
    switch (t->opcode) {
      case spv::OpTypePointer: {
        if (t->operands.size() < 2) return arg;
        uint32_t storage = t->operands[0];
        arg.size = arg.alignment = pointerSize;
        if (storage == spv::StorageClassCrossWorkgroup) {
          arg.kind = ArgKind::GlobalPointer;
        } else if (storage == spv::StorageClassUniformConstant) {
          arg.kind = ArgKind::ConstantPointer;
        } else if (storage == spv::StorageClassWorkgroup) {
          arg.kind = ArgKind::LocalPointer;
        } else if (storage == spv::StorageClassGeneric) {
          arg.kind = ArgKind::GenericPointer;
        } else if (storage == spv::StorageClassFunction &&
                   hasDecoration(paramId, spv::DecorationFuncParamAttr,
                                 spv::FunctionParameterAttributeByVal)) {
          // A struct (or other aggregate) passed by value: the caller's bytes are the pointee's.
          arg.kind = ArgKind::ByValue;
          arg.typeId = t->operands[1];
          auto l = layout(t->operands[1]);
          arg.size = l ? static_cast<uint32_t>(l->size) : 0;
          arg.alignment = l ? static_cast<uint32_t>(l->alignment) : 0;
        } else {
          arg.size = arg.alignment = 0;
        }
        return arg;
      }
      case spv::OpTypeSampler:
        arg.kind = ArgKind::Sampler;
        arg.size = arg.alignment = pointerSize;
        return arg;
      case spv::OpTypeImage:
        arg.kind = ArgKind::Image;
        arg.size = arg.alignment = pointerSize;
        // Operands after the result id: sampled type, dim, depth, arrayed, MS, sampled, format,
        // [access qualifier].
        if (t->operands.size() >= 8) arg.imageAccess = static_cast<int>(t->operands[7]);
        return arg;
      case spv::OpTypeBool:
      case spv::OpTypeInt:
      case spv::OpTypeFloat:
      case spv::OpTypeVector:
      case spv::OpTypeArray:
      case spv::OpTypeStruct: {
        auto l = layout(typeId);
        if (!l) return arg;
        arg.kind = ArgKind::ByValue;
        arg.size = static_cast<uint32_t>(l->size);
        arg.alignment = static_cast<uint32_t>(l->alignment);
        return arg;
      }
      default:
        return arg;
    }
  }

  // A LocalSizeId / LocalSizeHintId operand: an integer constant, maybe a specialization constant.
  WorkGroupSize sizeFromIds(const ModeRecord& mode) const {
    if (mode.operands.size() < 3) throw ParseError("execution mode with fewer than 3 sizes");
    WorkGroupSize size;
    for (int i = 0; i < 3; ++i) {
      auto value = integerConstant(mode.operands[i]);
      if (!value) throw ParseError("LocalSizeId operand is not an integer constant");
      size.size[i] = static_cast<uint32_t>(*value);
      for (const Decoration* d : decorationsOf(mode.operands[i])) {
        if (d->decoration == spv::DecorationSpecId && !d->literals.empty()) {
          size.specIds[i] = d->literals[0];
        }
      }
    }
    return size;
  }

  static WorkGroupSize sizeFromLiterals(const ModeRecord& mode) {
    if (mode.operands.size() < 3) throw ParseError("execution mode with fewer than 3 sizes");
    WorkGroupSize size;
    for (int i = 0; i < 3; ++i) size.size[i] = mode.operands[i];
    return size;
  }

  void build() {
    info_.pointerSize = info_.addressingModel == spv::AddressingModelPhysical32 ? 4 : 8;

    for (const EntryRecord& entry : entries_) {
      if (entry.model != spv::ExecutionModelKernel) continue;
      auto fn = functions_.find(entry.function);
      if (fn == functions_.end()) {
        throw ParseError("entry point \"" + entry.name + "\" names id " +
                         std::to_string(entry.function) + ", which is not a function");
      }
      KernelInfo kernel;
      kernel.name = entry.name;
      kernel.functionId = entry.function;
      kernel.interfaceIds = entry.interface;
      for (auto [typeId, paramId] : fn->second.params) {
        kernel.args.push_back(describeArg(typeId, paramId));
      }
      for (const ModeRecord& mode : modes_) {
        if (mode.function != entry.function) continue;
        if (mode.mode == spv::ExecutionModeLocalSize && !mode.usesIds) {
          kernel.requiredSize = sizeFromLiterals(mode);
        } else if (mode.mode == spv::ExecutionModeLocalSizeId && mode.usesIds) {
          kernel.requiredSize = sizeFromIds(mode);
        } else if (mode.mode == spv::ExecutionModeLocalSizeHint && !mode.usesIds) {
          kernel.sizeHint = sizeFromLiterals(mode);
        } else if (mode.mode == spv::ExecutionModeLocalSizeHintId && mode.usesIds) {
          kernel.sizeHint = sizeFromIds(mode);
        } else if (mode.mode == spv::ExecutionModeVecTypeHint && !mode.operands.empty()) {
          kernel.vecTypeHint = mode.operands[0];
        }
      }
      info_.kernels.push_back(std::move(kernel));
    }

    for (const Decoration& d : decorations_) {
      if (d.decoration == spv::DecorationSpecId && !d.literals.empty()) {
        addSpecConstant(d.target, d.literals[0]);
      } else if (d.decoration == spv::DecorationLinkageAttributes && !d.literals.empty()) {
        LinkageEntry entry;
        entry.name = d.text;
        entry.targetId = d.target;
        entry.isFunction = functions_.count(d.target) != 0;
        entry.builtIn = hasDecoration(d.target, spv::DecorationBuiltIn);
        switch (d.literals[0]) {
          case spv::LinkageTypeExport:
            entry.kind = LinkageKind::Export;
            break;
          case spv::LinkageTypeImport:
            entry.kind = LinkageKind::Import;
            break;
          case spv::LinkageTypeLinkOnceODR:
            entry.kind = LinkageKind::LinkOnceODR;
            break;
          default:
            entry.kind = LinkageKind::Unknown;
            break;
        }
        info_.linkage.push_back(std::move(entry));
      }
    }
    std::sort(info_.specConstants.begin(), info_.specConstants.end(),
              [](const SpecConstant& a, const SpecConstant& b) { return a.specId < b.specId; });

    auto describe = [&](uint32_t varId, uint32_t typeId) {
      WorkgroupVariable var;
      var.id = varId;
      var.name = nameOf(varId);
      const TypeRecord* t = type(typeId);
      if (t != nullptr && t->opcode == spv::OpTypePointer && t->operands.size() >= 2) {
        if (auto l = layout(t->operands[1])) {
          var.size = l->size;
          var.alignment = static_cast<uint32_t>(l->alignment);
        }
      }
      for (const Decoration* d : decorationsOf(varId)) {
        if (d->decoration == spv::DecorationAlignment && !d->literals.empty()) {
          var.alignment = std::max(var.alignment, d->literals[0]);
        }
      }
      return var;
    };
    for (auto [varId, typeId] : workgroupVariables_) {
      info_.workgroupVariables.push_back(describe(varId, typeId));
    }
    for (const auto& global : globalVariables_) {
      const uint32_t varId = global.first;  // (clang 15 cannot capture a structured binding)
      bool imported = std::any_of(info_.linkage.begin(), info_.linkage.end(), [&](const auto& l) {
        return l.targetId == varId && l.kind == LinkageKind::Import;
      });
      if (!imported) info_.globalVariables.push_back(describe(varId, global.second));
    }
  }

  void addSpecConstant(uint32_t target, uint32_t specId) {
    auto it = constants_.find(target);
    if (it == constants_.end()) return;  // SpecId on something else (OpSpecConstantComposite)
    const ConstantRecord& c = it->second;
    SpecConstant spec;
    spec.specId = specId;
    spec.resultId = target;
    if (c.opcode == spv::OpSpecConstantTrue || c.opcode == spv::OpSpecConstantFalse) {
      spec.kind = SpecKind::Bool;
      spec.size = 1;
      spec.defaultValue = {static_cast<uint8_t>(c.opcode == spv::OpSpecConstantTrue ? 1 : 0)};
    } else if (c.opcode == spv::OpSpecConstant) {
      const TypeRecord* t = type(c.typeId);
      auto l = layout(c.typeId);
      if (t == nullptr || !l || l->size > 8) return;
      spec.kind = t->opcode == spv::OpTypeFloat ? SpecKind::Float : SpecKind::Int;
      spec.size = static_cast<uint32_t>(l->size);
      uint64_t value = c.value.empty() ? 0 : c.value[0];
      if (c.value.size() > 1) value |= uint64_t{c.value[1]} << 32;
      for (uint32_t i = 0; i < spec.size; ++i)
        spec.defaultValue.push_back((value >> (8 * i)) & 0xff);
    } else {
      return;
    }
    if (!specIdsSeen_.insert(specId).second) return;  // a repeated SpecId: the first one counts
    info_.specConstants.push_back(std::move(spec));
  }

  std::span<const uint32_t> words_;
  ModuleInfo info_;
  uint32_t openclStd_ = 0;
  uint32_t current_ = 0;
  std::unordered_map<uint32_t, std::string> names_;
  std::vector<Decoration> decorations_;
  std::unordered_multimap<uint32_t, size_t> decorationIndex_;
  std::unordered_set<uint32_t> specIdsSeen_;
  mutable std::unordered_map<uint32_t, std::optional<Layout>> layoutCache_;
  std::vector<std::pair<uint32_t, uint32_t>> groupTargets_;
  std::unordered_map<uint32_t, TypeRecord> types_;
  std::unordered_map<uint32_t, ConstantRecord> constants_;
  std::map<uint32_t, FunctionRecord> functions_;
  std::vector<EntryRecord> entries_;
  std::vector<ModeRecord> modes_;
  std::vector<std::pair<uint32_t, uint32_t>> workgroupVariables_;  // (variable, pointer type)
  std::vector<std::pair<uint32_t, uint32_t>> globalVariables_;     // the same, CrossWorkgroup
};

}  // namespace

const char* argKindName(ArgKind kind) {
  switch (kind) {
    case ArgKind::GlobalPointer:
      return "global pointer";
    case ArgKind::ConstantPointer:
      return "constant pointer";
    case ArgKind::LocalPointer:
      return "local pointer";
    case ArgKind::GenericPointer:
      return "generic pointer";
    case ArgKind::ByValue:
      return "by value";
    case ArgKind::Sampler:
      return "sampler";
    case ArgKind::Image:
      return "image";
    case ArgKind::Unsupported:
      return "unsupported";
  }
  return "unknown";
}

bool ModuleInfo::hasCapability(uint32_t capability) const {
  return std::find(capabilities.begin(), capabilities.end(), capability) != capabilities.end();
}

const KernelInfo* ModuleInfo::findKernel(std::string_view name) const {
  for (const KernelInfo& k : kernels) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

const SpecConstant* ModuleInfo::findSpecConstant(uint32_t specId) const {
  for (const SpecConstant& s : specConstants) {
    if (s.specId == specId) return &s;
  }
  return nullptr;
}

std::vector<uint32_t> toWords(std::span<const uint8_t> binary) {
  if (binary.size() % 4 != 0 || binary.size() < 4) return {};
  std::vector<uint32_t> words(binary.size() / 4);
  std::memcpy(words.data(), binary.data(), binary.size());
  if (words[0] == kMagic) return words;
  if (byteSwap(words[0]) != kMagic) return {};
  for (uint32_t& w : words) w = byteSwap(w);
  return words;
}

ReflectResult reflect(std::span<const uint8_t> binary) {
  ReflectResult result;
  if (binary.size() % 4 != 0) {
    result.error = "size " + std::to_string(binary.size()) + " is not a multiple of 4 bytes";
    return result;
  }
  std::vector<uint32_t> words = toWords(binary);
  if (words.empty()) {
    result.error = "not SPIR-V: the first word is not the magic number 0x07230203";
    return result;
  }
  try {
    result.module = Reflector(words).run();
    result.ok = true;
  } catch (const ParseError& e) {
    result.error = e.message();
  }
  return result;
}

}  // namespace tessera::spirv
