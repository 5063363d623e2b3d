// What the environment decides about compiling, as plain values: the compiler facade
// (compiler.h) takes them from its creator (the driver, once, at its creation) and never reads
// the environment itself.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spirv/clc/client.h"

namespace tessera::compiler {

// The switches that change the code compiled from the same SPIR-V: part of every cache key.
struct CodeSettings {
  // TESSERA_WIDEN: 0 no widening across work-items; 1 (default) at the host's preferred width, in
  // the regions with a loop of their own; n > 1 (a power of two up to 64) n work-items, in every
  // region the widening accepts. Anything else: 1.
  int widen = 1;
  // TESSERA_PREFETCH: prefetches across barriers, off when the value starts with 0.
  bool prefetch = true;
};

// The on-disk tier of the cache (disk_cache.h).
struct DiskCacheSettings {
  // TESSERA_CACHE=0 turns it off; it is off too when no folder can be named.
  bool enabled = false;
  // TESSERA_CACHE_DIR, else $XDG_CACHE_HOME/tessera, else $HOME/.cache/tessera.
  std::string folder;
  // TESSERA_CACHE_MAX_MB: bound on the folder's size (default 256 MiB, fractions allowed; 0 or
  // less: unbounded).
  uint64_t maxBytes = uint64_t{256} << 20;
  // TESSERA_CACHE_DEBUG (set and not 0): a line on stderr per lookup and store.
  bool debug = false;
};

struct CompilerSettings {
  CodeSettings code;
  // TESSERA_JIT_DUMP=1: what the widening did and each module before O3, on stderr.
  bool dumpModule = false;
  // TESSERA_JIT_DUMP=passes: the JIT's pipeline, one pass a line, once, on stderr.
  bool dumpPasses = false;
  // TESSERA_PERF_JIT=1: a jitdump file for `perf inject --jit`.
  bool perfJit = false;
  DiskCacheSettings cache;
  // TESSERA_CLC, TESSERA_COMPILE_TIMEOUT_S: the compiler process that translates SPIR-V.
  spirv::clc::Settings process;
};

// Every variable above, read by the rules of config/settings.def (CompilerSettings' rows) and
// nowhere else; a value a rule refuses adds a line to `warnings` and keeps the default.
CompilerSettings settingsFromEnvironment(std::vector<std::string>& warnings);

}  // namespace tessera::compiler
