// A module's kernels as the driver reflected them, as bytes (zeTesseraModuleGetKernels,
// tessera/ze_tessera.h): how the OpenCL layer learns a Tessera IR unit's kernels from the module
// the driver made of it, without reading the bitcode a second time. Tessera's own format, written
// and read by the same build (a version word; a reader refuses any other): per kernel its name,
// each argument's kind, size, alignment, name, source type spelling and qualifiers and image
// access, the required size and size hint, the vector type hint; then the program-scope __global
// variables (name, size, alignment: CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE). The reader never
// reads past its span and refuses a count the bytes cannot hold.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "spirv/reflect.h"

namespace tessera::spirv {

// `module`'s kernels and global variables.
std::vector<uint8_t> writeKernelTable(const ModuleInfo& module);
// Into `out`'s kernels and globalVariables (the rest untouched); false, with `out` untouched, for
// bytes that are not such a table (truncated, another version, a bad kind).
bool readKernelTable(std::span<const uint8_t> bytes, ModuleInfo& out);

}  // namespace tessera::spirv
