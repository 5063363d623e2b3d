// Runtime requirements (Level Zero 1.16 zeDeviceGetRuntimeRequirements, ...Key,
// zeDeviceValidateRuntimeRequirements): "null-terminated plain text representation of runtime
// requirements" of a module or a graph, which an application keeps beside a cached native binary
// and later validates on a device. What Tessera's code needs is what its native binaries carry and
// are loaded only under (compiler/native_binary.h): the host CPU's name and LLVM feature string and
// the toolchain, all three equal. Every module and graph of a driver has one code target, so their
// requirements are the same text:
//
//   TESSERA.L0.CPU
//   cpu=<name>
//   features=<LLVM feature string>
//   toolchain=<LLVM version>
//
// Validation: text whose first line is not the key, or that lacks one of the three, is
// NOT_APPLICABLE ("Provided requirements are not applicable to underlying device"); all three equal
// to this process's target is REQUIREMENTS_MET; anything else REQUIREMENTS_NOT_MET (a native
// binary made under it would be refused; never MET_RECOMPILATION_ADVISABLE, since Tessera loads
// no code made for another target).
#pragma once

#include <level_zero/ze_api.h>

#include <string>
#include <string_view>

namespace tessera::core {

class Driver;

// zeDeviceGetRuntimeRequirementsKey: "the producer of requirements (Example string:
// 'INTEL.L0.GPU')".
constexpr const char* kRuntimeRequirementsKey = "TESSERA.L0.CPU";

// ze_validate_runtime_requirements_result_t's values.
enum class RequirementsCheck : uint32_t { NotApplicable = 0, Met = 1, NotMet = 3 };

// The requirements text of the driver's code (DEPENDENCY_UNAVAILABLE when no code can be made
// here, with the reason in `text`).
ze_result_t runtimeRequirements(Driver& driver, std::string& text);
RequirementsCheck checkRuntimeRequirements(Driver& driver, std::string_view text);

}  // namespace tessera::core
