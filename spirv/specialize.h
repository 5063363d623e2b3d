// Specialization constants: checks the values an application gives (Level Zero's
// ze_module_constants_t: ids and pointers to values whose size the module defines) against the
// module's constants and turns them into what the translator takes. SPIRV-LLVM-Translator applies
// them itself while it reads the module (SPIRV::TranslatorOpts::setSpecConst), so the binary is
// never rewritten.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "spirv/reflect.h"

namespace tessera::spirv {

struct SpecValue {
  uint32_t specId = 0;
  std::vector<uint8_t> bytes;  // exactly the constant's size; little-endian
};

struct SpecAssignment {
  uint32_t specId = 0;
  uint64_t value = 0;  // the bytes zero-extended, as setSpecConst takes them
};

struct SpecializationResult {
  bool ok = false;
  std::string error;
  std::vector<SpecAssignment> assignments;  // one per given value, last one wins per id
};

// Fails on an id the module does not declare or a value of the wrong size (booleans: 1 byte, any
// non-zero value is true; other sizes must match the constant's type exactly).
SpecializationResult resolveSpecialization(const ModuleInfo& module,
                                           std::span<const SpecValue> values);

// The module's required and hinted work-group sizes after specialization: LocalSizeId operands fed
// by specialization constants take the assigned values.
void applySpecializationToSizes(ModuleInfo& module, std::span<const SpecAssignment> assignments);

}  // namespace tessera::spirv
