// zeModuleGetNativeBinary's format: what loads a module again without compiling it.
//
//   "TESSNAT1" | u32 version | cpu | features | spirv | u32 optLevel | specs | u8 hasCode
//   [ u32 units | units ] | u64 FNV-1a of everything before it
// A unit is what the kind's code generator compiled at once: the whole program, or (a program
// compiled kernel by kernel when first needed, compiler/lazy_code.h) one kernel; its bytes are the
// generator's (CodeGenerator::writeUnit; the CPU's: backends/cpu/jit/native_unit.h). The disk
// cache's entries for one kernel are native binaries too, with that kernel's unit and no SPIR-V
// (the key names it). Strings and byte arrays are u32 length + bytes; integers little-endian (the
// host's). The module (`spirv`: SPIR-V or Tessera IR, compiler/program.h) is kept for reflection (and for linking a module that still has imports:
// such a module has no code yet). `cpu` and `features` are the generator's target (CodeTarget);
// a binary is loaded only where both match.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backends/code_generator.h"
#include "spirv/reflect.h"
#include "spirv/specialize.h"

namespace tessera::compiler {

struct NativeImage {
  std::string cpu;
  std::string features;
  std::vector<uint8_t> spirv;
  uint32_t optLevel = 2;
  std::vector<spirv::SpecAssignment> specs;
  bool hasCode = false;
  // When hasCode: at least one unit, each saveable; read ones not loaded (addresses unset).
  std::vector<std::shared_ptr<const backends::ModuleCode>> units;
};

// Units as `generator` writes them (CodeGenerator::writeUnit, readUnit); it may be null when the
// image has no code.
std::vector<uint8_t> writeNativeBinary(const NativeImage& image,
                                       const backends::CodeGenerator* generator);
// False with `error` for a binary that is truncated, corrupt or of another format version, or
// whose units the generator refuses (tables not what it writes: every argument slot inside the
// argument buffer, ...).
bool readNativeBinary(std::span<const uint8_t> bytes, const backends::CodeGenerator& generator,
                      NativeImage& out, std::string& error);

// False with `error` when a kernel of `unit` is not a kernel of `kernels` (the binary's SPIR-V,
// reflected) with the same arguments: as many, of the kind the SPIR-V gives each, a value of the
// size it gives. The layers above read a kernel's arguments from the SPIR-V and its slots from the
// table, by the same index.
bool matchesReflection(const backends::ModuleCode& unit,
                       const std::vector<spirv::KernelInfo>& kernels, std::string& error);

}  // namespace tessera::compiler
