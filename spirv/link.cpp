#include "spirv/link.h"

#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/linker.hpp>
#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <span>
#include <string>

#include "spirv/opencl_options.h"
#include "spirv/validate.h"

namespace tessera::spirv {

namespace {

std::span<const uint8_t> asBytes(const std::vector<uint32_t>& words) {
  return {reinterpret_cast<const uint8_t*>(words.data()), words.size() * 4};
}

const char* levelName(spv_message_level_t level) {
  switch (level) {
    case SPV_MSG_FATAL:
    case SPV_MSG_INTERNAL_ERROR:
    case SPV_MSG_ERROR:
      return "error";
    case SPV_MSG_WARNING:
      return "warning";
    default:
      return "note";
  }
}

// One instruction as spvBinaryParse describes it: its words and which of them are ids.
struct ParsedInstruction {
  std::vector<uint32_t> words;
  std::vector<uint32_t> idOperands;  // word offsets of operands that name ids
  uint32_t opcode = 0;
  uint32_t resultId = 0;
};

spv_result_t collectInstruction(void* user, const spv_parsed_instruction_t* inst) {
  auto* out = static_cast<std::vector<ParsedInstruction>*>(user);
  ParsedInstruction p;
  p.words.assign(inst->words, inst->words + inst->num_words);
  p.opcode = inst->opcode;
  p.resultId = inst->result_id;
  for (uint16_t i = 0; i < inst->num_operands; ++i) {
    const spv_parsed_operand_t& o = inst->operands[i];
    if (o.type == SPV_OPERAND_TYPE_ID || o.type == SPV_OPERAND_TYPE_TYPE_ID ||
        o.type == SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID || o.type == SPV_OPERAND_TYPE_SCOPE_ID)
      p.idOperands.push_back(o.offset);
  }
  out->push_back(std::move(p));
  return SPV_SUCCESS;
}

// SPIRV-Tools' linker keeps each input's built-in variables (the translator declares them with
// Import linkage in every unit; the linker needs no definition for them) and drops their linkage,
// so a linked module has several Input variables for one built-in, which the translator cannot
// read back ("Global is external, but doesn't have external or weak linkage"). One variable per
// built-in and type is kept; uses of the others are renamed to it and their declarations,
// names and decorations dropped. A module without duplicates comes back unchanged.
std::vector<uint32_t> mergeBuiltinVariables(const std::vector<uint32_t>& module) {
  std::vector<ParsedInstruction> insts;
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  spv_result_t parsed = spvBinaryParse(context, &insts, module.data(), module.size(), nullptr,
                                       collectInstruction, nullptr);
  spvContextDestroy(context);
  if (parsed != SPV_SUCCESS) return module;
  std::map<uint32_t, uint32_t> builtinOf;  // variable -> BuiltIn
  for (const ParsedInstruction& i : insts)
    if (i.opcode == spv::OpDecorate && i.words.size() >= 4 && i.words[2] == spv::DecorationBuiltIn)
      builtinOf[i.words[1]] = i.words[3];
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> keeper;  // (built-in, type) -> variable
  std::map<uint32_t, uint32_t> rename;                       // duplicate -> keeper
  bool inFunction = false;
  for (const ParsedInstruction& i : insts) {
    if (i.opcode == spv::OpFunction) inFunction = true;
    if (i.opcode == spv::OpFunctionEnd) inFunction = false;
    if (inFunction || i.opcode != spv::OpVariable || i.words.size() < 4 ||
        i.words[3] != spv::StorageClassInput)
      continue;
    auto b = builtinOf.find(i.resultId);
    if (b == builtinOf.end()) continue;
    auto [it, added] = keeper.emplace(std::make_pair(b->second, i.words[1]), i.resultId);
    if (!added) rename[i.resultId] = it->second;
  }
  if (rename.empty()) return module;
  std::vector<uint32_t> out(module.begin(), module.begin() + 5);
  for (ParsedInstruction& i : insts) {
    bool annotation = i.opcode == spv::OpName || i.opcode == spv::OpDecorate ||
                      i.opcode == spv::OpDecorateString || i.opcode == spv::OpDecorateId ||
                      i.opcode == spv::OpMemberName;
    if ((i.opcode == spv::OpVariable && rename.count(i.resultId)) ||
        (annotation && i.words.size() >= 2 && rename.count(i.words[1])))
      continue;
    for (uint32_t at : i.idOperands) {
      auto r = rename.find(i.words[at]);
      if (r != rename.end()) i.words[at] = r->second;
    }
    if (i.opcode == spv::OpEntryPoint && !i.idOperands.empty()) {
      // The interface (the ids after the name): each variable once.
      size_t first = i.idOperands.size() > 1 ? i.idOperands[1] : i.words.size();
      std::vector<uint32_t> interface;
      for (size_t w = first; w < i.words.size(); ++w)
        if (std::find(interface.begin(), interface.end(), i.words[w]) == interface.end())
          interface.push_back(i.words[w]);
      i.words.resize(first);
      i.words.insert(i.words.end(), interface.begin(), interface.end());
      i.words[0] = (uint32_t(i.words.size()) << 16) | spv::OpEntryPoint;
    }
    out.insert(out.end(), i.words.begin(), i.words.end());
  }
  return out;
}

// The names a module defines for other modules: LinkageAttributes decorations of type Export.
std::vector<std::string> exportedNames(const std::vector<uint32_t>& module) {
  std::vector<ParsedInstruction> insts;
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  spv_result_t parsed = spvBinaryParse(context, &insts, module.data(), module.size(), nullptr,
                                       collectInstruction, nullptr);
  spvContextDestroy(context);
  std::vector<std::string> names;
  if (parsed != SPV_SUCCESS) return names;
  for (const ParsedInstruction& i : insts) {
    // OpDecorate <target> LinkageAttributes "<name>" <type>: the name fills words 3 .. size-2.
    if (i.opcode != spv::OpDecorate || i.words.size() < 5 ||
        i.words[2] != spv::DecorationLinkageAttributes ||
        i.words.back() != spv::LinkageTypeExport)
      continue;
    const char* text = reinterpret_cast<const char*>(&i.words[3]);
    names.emplace_back(text, strnlen(text, (i.words.size() - 4) * sizeof(uint32_t)));
  }
  return names;
}

}  // namespace

// OpenCL 3.0, clLinkProgram: CL_LINK_PROGRAM_FAILURE "if there is a failure to link the compiled
// binaries and/or libraries". A function or variable defined by two inputs is such a failure, as
// a C linker's "multiple definition" (SPIRV-Tools' linker checks only that an import finds one
// definition, so a name two inputs define and neither imports would link, each caller keeping its
// own unit's definition). Empty when every exported name has one definition.
std::string duplicateDefinitions(const std::vector<std::vector<uint32_t>>& modules) {
  std::map<std::string, size_t> definedBy;
  std::string log;
  for (size_t m = 0; m < modules.size(); ++m) {
    for (const std::string& name : exportedNames(modules[m])) {
      auto [at, added] = definedBy.emplace(name, m);
      if (!added && at->second != m)
        log += "error: '" + name + "' is defined by two inputs (units " +
               std::to_string(at->second) + " and " + std::to_string(m) +
               "): multiple definition\n";
    }
  }
  return log;
}

CompileResult linkSpirv(const std::vector<std::vector<uint32_t>>& modules, bool createLibrary) {
  CompileResult result;
  if (modules.empty()) {
    result.log = "error: nothing to link\n";
    return result;
  }
  // The linker trusts its input as the translator does: check every module first.
  for (size_t i = 0; i < modules.size(); ++i) {
    ValidationResult validation = validate(asBytes(modules[i]));
    if (!validation.ok) {
      result.log = "error: input module " + std::to_string(i) +
                   " is not valid SPIR-V: " + validation.log + "\n";
      return result;
    }
  }

  result.log = duplicateDefinitions(modules);
  if (!result.log.empty()) return result;

  spvtools::Context context(SPV_ENV_UNIVERSAL_1_4);  // the newest version the translator reads
  context.SetMessageConsumer([&result](spv_message_level_t level, const char*,
                                       const spv_position_t&, const char* message) {
    result.log += std::string(levelName(level)) + ": " + message + "\n";
  });
  spvtools::LinkerOptions options;
  options.SetCreateLibrary(createLibrary);
  options.SetAllowPartialLinkage(createLibrary);
  options.SetVerifyIds(true);

  std::vector<uint32_t> linked;
  if (spvtools::Link(context, modules, &linked, options) != SPV_SUCCESS) {
    if (result.log.empty()) result.log = "error: linking failed\n";
    return result;
  }
  linked = mergeBuiltinVariables(linked);
  // The linker declares the newest version of its inputs; a module the compiler raised to 1.4
  // (validate.h) linked with 1.0 ones needs their entry points' interfaces completed as well.
  ValidationResult validation = validateAtNeededVersion(linked);
  if (!validation.ok) {
    result.log += "error: the linked module does not validate: " + validation.log + "\n";
    return result;
  }
  result.spirv = std::move(linked);
  result.ok = true;
  return result;
}

CompileResult linkSpirvWithOptions(const std::vector<std::vector<uint32_t>>& modules,
                                   std::string_view options) {
  LinkOptions parsed = parseLinkOptions(options);
  if (!parsed.ok) {
    CompileResult result;
    result.invalidOptions = true;
    result.log = "error: " + parsed.error + "\n";
    return result;
  }
  return linkSpirv(modules, parsed.createLibrary);
}

}  // namespace tessera::spirv
