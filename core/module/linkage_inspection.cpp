#include "core/module/linkage_inspection.h"

#include <algorithm>

#include "core/module/module.h"

namespace tessera::core {

namespace {

void addOnce(std::vector<std::string>& list, const std::string& name) {
  if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
}

void section(std::string& out, const char* title, const std::vector<std::string>& names) {
  out += title;
  out += ":\n";
  for (const std::string& n : names) out += "  " + n + "\n";
}

}  // namespace

std::string inspectLinkage(const std::vector<const Module*>& modules,
                           ze_linkage_inspection_ext_flags_t flags) {
  std::vector<std::string> imports, exports, unresolvable;
  for (const Module* m : modules) {
    // Functions and program-scope variables alike (not the builtins the translator imports).
    for (const std::string& name : m->program().imports) addOnce(imports, name);
    for (const std::string& name : m->program().variableImports) addOnce(imports, name);
    for (const std::string& name : m->program().exports) addOnce(exports, name);
    for (const std::string& name : m->program().variableExports) addOnce(exports, name);
  }
  for (const std::string& name : imports)
    if (std::find(exports.begin(), exports.end(), name) == exports.end())
      unresolvable.push_back(name);
  std::string out;
  if (flags & ZE_LINKAGE_INSPECTION_EXT_FLAG_IMPORTS) section(out, "Imports", imports);
  if (flags & ZE_LINKAGE_INSPECTION_EXT_FLAG_UNRESOLVABLE_IMPORTS)
    section(out, "Unresolvable Imports", unresolvable);
  if (flags & ZE_LINKAGE_INSPECTION_EXT_FLAG_EXPORTS) section(out, "Exports", exports);
  return out;
}

}  // namespace tessera::core
