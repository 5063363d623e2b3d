// Linking SPIR-V modules, for clLinkProgram: SPIRV-Tools' linker resolves Import linkage against
// Export linkage of the other modules (clang + the translator give functions declared `extern` in
// one compile unit Import linkage, and non-static functions Export linkage), then spirv/validate
// checks the result.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spirv/opencl_c.h"

namespace tessera::spirv {

// Links `modules` (host-order words, all of the same SPIR-V version) into one. With
// `createLibrary` (-create-library) the result keeps its exports and may leave imports unresolved;
// without it every imported function must be defined by one of the modules (built-in variables,
// which the translator also marks Import, need no definition). Failures, such as an unresolved or
// twice-defined symbol, give ok == false and the linker's messages in `log`.
CompileResult linkSpirv(const std::vector<std::vector<uint32_t>>& modules, bool createLibrary);

// One "error: ..." line per name (function or variable) that more than one of `modules` defines
// (Export linkage), empty when there is none: the multiple-definition check linkSpirv makes, for
// modules of different versions that stay apart.
std::string duplicateDefinitions(const std::vector<std::vector<uint32_t>>& modules);

// The same with clLinkProgram's options (opencl_options.h: parseLinkOptions): invalid options give
// invalidOptions == true. The math options are accepted; they change nothing in the SPIR-V.
// (A name of its own: a string literal would otherwise pick the bool overload.)
CompileResult linkSpirvWithOptions(const std::vector<std::vector<uint32_t>>& modules,
                                   std::string_view options);

}  // namespace tessera::spirv
