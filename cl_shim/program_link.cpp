// clLinkProgram's units (program.h: linkUnits).
#include <algorithm>
#include <cstring>

#include "cl_shim/program.h"
#include "spirv/link.h"
#include "spirv/opencl_c.h"

namespace tessera::cl {
namespace {

// One unit made of linked `module` bytes, with what its inputs say of the whole: the sources
// (CL_KERNEL_ATTRIBUTES), argument info only when every input has it, uniform work-groups when any
// input needs them ("If the program was created using clLinkProgram and any of the linked
// programs were compiled in a way that only supports uniform work-group sizes, the linked program
// only supports uniform work group sizes").
// False, with the reason in `log`, when the unit is SPIR-V that does not reflect.
bool addMergedUnit(std::vector<uint8_t> module, const std::vector<Program::Unit>& inputs,
                   LinkedUnits& out) {
  std::string error;
  Program::Unit u = makeUnit(std::move(module), &error);
  appendLog(out.log, error);
  u.argInfo = true;
  for (const Program::Unit& in : inputs) {
    u.sources.insert(u.sources.end(), in.sources.begin(), in.sources.end());
    u.argInfo = u.argInfo && in.argInfo;
    u.uniformGroups = u.uniformGroups || in.uniformGroups;
  }
  out.units.push_back(std::move(u));
  return error.empty();
}

std::vector<uint8_t> bytesOf(const std::string& s) { return {s.begin(), s.end()}; }

// The units' Tessera IR, as linkTesseraIR takes it.
std::vector<std::string> bitcodeOf(const std::vector<Program::Unit>& units) {
  std::vector<std::string> modules;
  for (const Program::Unit& u : units) modules.emplace_back(u.module.begin(), u.module.end());
  return modules;
}

std::vector<uint8_t> bytesOf(const std::vector<uint32_t>& words) {
  std::vector<uint8_t> bytes(words.size() * sizeof(uint32_t));
  if (!bytes.empty()) std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}

}  // namespace

LinkedUnits linkUnits(std::vector<Program::Unit> inputs, bool createLibrary) {
  std::vector<Program::Unit> ir, spirvUnits;
  for (Program::Unit& u : inputs) (u.ir ? ir : spirvUnits).push_back(std::move(u));
  std::vector<std::vector<uint32_t>> words;
  for (const Program::Unit& u : spirvUnits) words.push_back(spirv::toWords(u.module));
  LinkedUnits out;

  if (spirvUnits.empty()) {
    spirv::CompileResult linked = spirv::linkTesseraIR(bitcodeOf(ir), createLibrary);
    out.log = linked.log;
    if (!linked.ok) return out;
    out.ok = addMergedUnit(bytesOf(linked.ir), ir, out);
    return out;
  }

  const bool oneVersion = ir.empty() && std::all_of(words.begin(), words.end(), [&](const auto& m) {
                            return m.size() > 1 && m[1] == words.front()[1];
                          });
  if (oneVersion) {
    spirv::CompileResult linked = spirv::linkSpirv(words, createLibrary);
    out.log = linked.log;
    if (!linked.ok) return out;
    out.ok = addMergedUnit(bytesOf(linked.spirv), spirvUnits, out);
    return out;
  }

  // Apart: only a name two inputs define is a failure now; imports are zeModuleDynamicLink's.
  out.log = spirv::duplicateDefinitions(words);
  if (!out.log.empty()) return out;
  out.units = std::move(spirvUnits);
  if (!ir.empty()) {
    // The Tessera IR units become one, which may import from the SPIR-V units (a library link)
    // and must not define again what they define.
    std::vector<std::string> definedElsewhere;
    for (const Program::Unit& u : out.units)
      for (const spirv::LinkageEntry& e : u.info.linkage)
        if (e.kind == spirv::LinkageKind::Export) definedElsewhere.push_back(e.name);
    spirv::CompileResult linked =
        spirv::linkTesseraIR(bitcodeOf(ir), /*createLibrary=*/true, definedElsewhere);
    out.log = linked.log;
    if (!linked.ok) return out;
    out.ok = addMergedUnit(bytesOf(linked.ir), ir, out);
    return out;
  }
  out.ok = true;
  return out;
}

}  // namespace tessera::cl
