#include "spirv/merge_types.h"

#include <spirv-tools/libspirv.h>

#include <map>
#include <spirv/unified1/spirv.hpp>
#include <tuple>

namespace tessera::spirv {
namespace {

constexpr size_t kHeaderWords = 5;

struct Operand {
  uint16_t offset;  // word within the instruction
  bool id;          // a reference to an id (not the result id, not a literal)
};

struct Parsed {
  size_t at;  // word offset in the module
  uint16_t count;
  uint16_t opcode;
  uint32_t result;
  std::vector<Operand> operands;
};

bool isIdReference(spv_operand_type_t t) {
  return t == SPV_OPERAND_TYPE_ID || t == SPV_OPERAND_TYPE_TYPE_ID ||
         t == SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID || t == SPV_OPERAND_TYPE_SCOPE_ID;
}

// Types SPIR-V lets a module declare once: those without operands, and scalars by their
// literals (OpTypeInt width and signedness, OpTypeFloat width).
bool nonAggregate(uint32_t opcode) {
  switch (opcode) {
    case spv::OpTypeVoid:
    case spv::OpTypeBool:
    case spv::OpTypeInt:
    case spv::OpTypeFloat:
    case spv::OpTypeSampler:
    case spv::OpTypeEvent:
    case spv::OpTypeDeviceEvent:
    case spv::OpTypeReserveId:
    case spv::OpTypeQueue:
    case spv::OpTypePipeStorage:
    case spv::OpTypeNamedBarrier:
      return true;
    default:
      return false;
  }
}

struct Parse {
  size_t next = kHeaderWords;
  std::vector<Parsed> insts;
};

spv_result_t onInstruction(void* user, const spv_parsed_instruction_t* inst) {
  auto* p = static_cast<Parse*>(user);
  Parsed out{p->next, inst->num_words, inst->opcode, inst->result_id, {}};
  for (uint16_t i = 0; i < inst->num_operands; ++i)
    out.operands.push_back({inst->operands[i].offset, isIdReference(inst->operands[i].type)});
  p->next += inst->num_words;
  p->insts.push_back(std::move(out));
  return SPV_SUCCESS;
}

}  // namespace

bool mergeDuplicateTypes(std::span<const uint32_t> w, std::vector<uint32_t>& out) {
  if (w.size() < kHeaderWords) return false;
  Parse parse;
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  spv_result_t r = spvBinaryParse(context, &parse, w.data(), w.size(), nullptr, onInstruction,
                                  nullptr);
  spvContextDestroy(context);
  if (r != SPV_SUCCESS) return false;

  // The first declaration of each (opcode, literals) type; later ones renamed to it.
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> first;
  std::map<uint32_t, uint32_t> renamed;
  for (const Parsed& i : parse.insts) {
    if (!nonAggregate(i.opcode)) continue;
    uint32_t a = i.count > 2 ? w[i.at + 2] : 0, b = i.count > 3 ? w[i.at + 3] : 0;
    auto [it, inserted] = first.try_emplace({i.opcode, a, b}, i.result);
    if (!inserted) renamed[i.result] = it->second;
  }
  if (renamed.empty()) return false;

  out.assign(w.begin(), w.begin() + kHeaderWords);
  for (const Parsed& i : parse.insts) {
    if (nonAggregate(i.opcode) && renamed.count(i.result)) continue;
    // The names of the dropped copies go with them (the first keeps its own).
    if ((i.opcode == spv::OpName || i.opcode == spv::OpMemberName) &&
        renamed.count(w[i.at + 1]))
      continue;
    const size_t start = out.size();
    out.insert(out.end(), w.begin() + static_cast<std::ptrdiff_t>(i.at),
               w.begin() + static_cast<std::ptrdiff_t>(i.at + i.count));
    for (const Operand& o : i.operands) {
      if (!o.id) continue;
      auto it = renamed.find(out[start + o.offset]);
      if (it != renamed.end()) out[start + o.offset] = it->second;
    }
  }
  return true;
}

}  // namespace tessera::spirv
