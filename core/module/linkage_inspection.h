// zeModuleInspectLinkageExt (ZE_extension_linkage_inspection): the function imports and exports of
// a set of modules, as the log the application reads with zeModuleBuildLogGetString.
#pragma once

#include <level_zero/ze_api.h>

#include <string>
#include <vector>

namespace tessera::core {

class Module;

// The sections `flags` asks for (ze_linkage_inspection_ext_flags_t), each a title line and one
// indented line per symbol, in module order, each symbol once:
//   Imports:                 functions a module imports from another module
//   Unresolvable Imports:    those that no module of the set exports
//   Exports:                 functions a module exports
// Imports are those zeModuleDynamicLink resolves: functions, less the ones the JIT's runtime
// provides. An empty section lists nothing under its title.
std::string inspectLinkage(const std::vector<const Module*>& modules,
                           ze_linkage_inspection_ext_flags_t flags);

}  // namespace tessera::core
