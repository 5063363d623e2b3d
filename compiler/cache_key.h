// The one key of the compiler's cache (code_cache.h): everything that decides a module's code, so
// that equal keys mean interchangeable code and any change that matters misses.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "backends/code_generator.h"
#include "compiler/build_options.h"
#include "compiler/compiler_config.h"
#include "spirv/specialize.h"

namespace tessera::compiler {

struct CacheKey {
  uint64_t high = 0, low = 0;
  bool operator==(const CacheKey&) const = default;
  auto operator<=>(const CacheKey&) const = default;
  // 32 hex digits: the on-disk entry's name without its extension.
  std::string hex() const;
};

// Where the code runs and what made it (the code generator's target: for the CPU the host CPU's
// name and feature string and the LLVM version); the key adds the driver build (Tessera's version
// and the size and modification time of the library holding this code, so that a rebuilt driver
// never loads another build's code).
using backends::CodeTarget;

// A 128-bit content hash of the SPIR-V, the parsed build options, the specialization constants
// (as assigned, in order), the code switches and the target.
CacheKey cacheKey(std::span<const uint8_t> spirv, const BuildOptions& options,
                  std::span<const spirv::SpecAssignment> specs, const CodeSettings& code,
                  const CodeTarget& target);

// The key of one kernel of `program`'s, compiled alone (lazy_code.h).
CacheKey kernelKey(const CacheKey& program, const std::string& kernel);
// The key of the note that `program`'s translation to LLVM IR succeeded (CodeCache::findNote).
CacheKey translationKey(const CacheKey& program);

// The key of an importer's code linked with its providers' (zeModuleDynamicLink), in link order.
CacheKey linkedKey(const CacheKey& importer, std::span<const CacheKey> providers);

}  // namespace tessera::compiler
