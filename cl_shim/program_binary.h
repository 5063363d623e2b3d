// Program binaries that are not one native module: compiled objects and libraries
// (clCompileProgram, clLinkProgram with -create-library), and executables linked from units of
// different SPIR-V versions (one Level Zero module per unit). CL_PROGRAM_BINARIES hands them out
// and clCreateProgramWithBinary takes them back with their CL_PROGRAM_BINARY_TYPE. They hold the
// program's units, SPIR-V or Tessera IR (what clCompileProgram makes of OpenCL C); an executable
// made of one module has the module's native binary instead (zeModuleGetNativeBinary). Tessera IR
// from a binary is read only in the compiler process (linking, zeModuleCreate's check).
//
// Layout (little-endian): the 8 bytes "TSRCLOBJ", u32 format version (1), u32 binary type
// (CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, _LIBRARY or _EXECUTABLE), u32 options length, u32 unit
// count, the options (the compile or link options, no terminator), then per unit a u32 length
// (bytes, a multiple of 4: LLVM bitcode is written in 32-bit words too) and the unit.
#pragma once

#include <CL/cl.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tessera::cl {

struct ObjectBinary {
  cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
  std::string options;
  std::vector<std::vector<uint8_t>> units;  // SPIR-V or Tessera IR, at least one
};

std::vector<uint8_t> encodeObjectBinary(const ObjectBinary& binary);

// Whether `bytes` start like an object binary (then decodeObjectBinary decides whether it is one).
bool looksLikeObjectBinary(std::span<const uint8_t> bytes);

// The binary, or nothing when `bytes` are not a well-formed object binary.
std::optional<ObjectBinary> decodeObjectBinary(std::span<const uint8_t> bytes);

}  // namespace tessera::cl
