// Validation with SPIRV-Tools (spirv-val's library) before anything else reads a binary: the
// translator trusts its input and can abort or exit() on malformed modules.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace tessera::spirv {

struct ValidationResult {
  bool ok = false;
  // The SPIRV-Tools target environment used, e.g. "SPIR-V 1.0 (under OpenCL 2.1 semantics)".
  std::string environment;
  std::string log;  // empty when ok; else what failed, one diagnostic per line
};

// Chooses the environment from the header's version: SPIR-V 1.0 is checked under OpenCL 2.1 rules,
// 1.1 and 1.2 under OpenCL 2.2 rules (the OpenCL environments SPIRV-Tools has for them), 1.3 to 1.6
// under the universal rules of that version. Anything else fails. A module that declares a
// capability which Tessera's extensions add to the OpenCL environment (Int64Atomics:
// cl_khr_int64_base_atomics) has its capabilities, addressing and memory model checked under the
// OpenCL environment and the whole module under the universal rules of its version.
ValidationResult validate(std::span<const uint8_t> binary);

}  // namespace tessera::spirv
