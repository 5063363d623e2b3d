// Tessera's configuration: the variables of settings.def as plain structs, one per reader. Each
// reader reads the environment once, at its own entry (settings.def says when), and hands the
// values down as plain values; nothing below it calls getenv.
//
// The bottom layer: it includes nothing of Tessera, so every layer may take these structs.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "config/kinds.h"

namespace tessera::config {

// ZE_FLAT_DEVICE_HIERARCHY's models (core/device/hierarchy.h has the guide's words for each).
enum class HierarchyMode { Composite, Flat, Combined };
inline constexpr const char* kHierarchyModeWords[] = {"COMPOSITE", "FLAT", "COMBINED"};
constexpr std::span<const char* const> choiceWords(HierarchyMode) {
  return kHierarchyModeWords;
}

// TESSERA_ROOT_DEVICE: one root device for the machine, or one per package.
enum class RootMode { Machine, Package };
inline constexpr const char* kRootModeWords[] = {"machine", "package"};
constexpr std::span<const char* const> choiceWords(RootMode) {
  return kRootModeWords;
}

// TESSERA_JIT_DUMP: nothing, each module (what the widening did, then its IR before O3), the
// JIT's pipeline (the pass list, once), or the time each pass took on each module.
enum class JitDump { Off, Module, Passes, Times };
inline constexpr const char* kJitDumpWords[] = {"0", "1", "passes", "times"};
constexpr std::span<const char* const> choiceWords(JitDump) {
  return kJitDumpWords;
}

// One constant per variable: config::var::spinUs.read(value, warnings) reads a value by the
// table's rule, config::var::spinUs.name is "TESSERA_SPIN_US".
namespace var {
#define TESSERA_OPTION(field, name, kind, usedBy, effect) \
  inline constexpr Variable<decltype(kind)> field{name, kind};
#include "config/settings.def"
}  // namespace var

// One plain struct per reader section of settings.def, each member holding its row's default:
//   DriverSettings    read by the Level Zero driver when it is created (core/driver);
//   TraceSettings     read by the timeline trace when the driver library is loaded (trace/);
//   OpenClSettings    read by the OpenCL library when its platform is made (cl_shim/);
//   CompilerSettings  read by the Level Zero driver when it is created, for its compiler
//                     (compiler/compiler_config.cpp), and by the OpenCL library's OpenCL C builds
//                     (TESSERA_CLC, TESSERA_COMPILE_TIMEOUT_S: spirv/clc, at each build).
// Struct::fromEnvironment reads the section's rows; a value a row's rule does not accept adds a
// line to `warnings` (and the member keeps its default).
#define TESSERA_READER(Struct, when) struct Struct {
#define TESSERA_OPTION(field, name, kind, usedBy, effect) \
  std::remove_cvref_t<decltype(var::field)>::Value field = var::field.fallback();
#define TESSERA_READER_END(Struct)                                   \
  static Struct fromEnvironment(std::vector<std::string>& warnings); \
  }                                                                  \
  ;
#include "config/settings.def"

}  // namespace tessera::config
