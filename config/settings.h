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

// One constant per variable: config::var::spinUs.read(value, warnings) reads a value by the
// table's rule, config::var::spinUs.name is "TESSERA_SPIN_US".
namespace var {
#define TESSERA_CONFIG_VARIABLE(field, name, kind, readBy, effect) \
  inline constexpr Variable<decltype(kind)> field{name, kind};
#define TESSERA_DRIVER TESSERA_CONFIG_VARIABLE
#define TESSERA_TRACE TESSERA_CONFIG_VARIABLE
#define TESSERA_OPENCL TESSERA_CONFIG_VARIABLE
#define TESSERA_COMPILER TESSERA_CONFIG_VARIABLE
#include "config/settings.def"
}  // namespace var

#define TESSERA_CONFIG_FIELD(field, name, kind, readBy, effect) \
  std::remove_cvref_t<decltype(var::field)>::Value field = var::field.fallback();

// Read by the Level Zero driver when it is created (core/driver/driver.cpp).
struct DriverSettings {
#define TESSERA_DRIVER TESSERA_CONFIG_FIELD
#include "config/settings.def"
  // Reads the DRIVER rows; a value a row's rule does not accept adds a line to `warnings`.
  static DriverSettings fromEnvironment(std::vector<std::string>& warnings);
};

// Read by the timeline trace when the library that holds it is loaded (trace/trace.cpp).
struct TraceSettings {
#define TESSERA_TRACE TESSERA_CONFIG_FIELD
#include "config/settings.def"
  static TraceSettings fromEnvironment(std::vector<std::string>& warnings);
};

// Read by the OpenCL library when its platform is created (cl_shim/platform.cpp).
struct OpenClSettings {
#define TESSERA_OPENCL TESSERA_CONFIG_FIELD
#include "config/settings.def"
  static OpenClSettings fromEnvironment(std::vector<std::string>& warnings);
};

// What changes how kernels are compiled and cached. Declared here; the compiler still reads these
// variables where it uses them (settings.def) until it takes this struct.
struct CompilerSettings {
#define TESSERA_COMPILER TESSERA_CONFIG_FIELD
#include "config/settings.def"
  static CompilerSettings fromEnvironment(std::vector<std::string>& warnings);
};

#undef TESSERA_CONFIG_FIELD
#undef TESSERA_CONFIG_VARIABLE

}  // namespace tessera::config
