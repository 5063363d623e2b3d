// What the environment decides about compiling, as plain values: the compiler facade
// (compiler.h) takes them from its creator (the driver, once, at its creation) and never reads
// the environment itself.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spirv/clc/client.h"
#include "support/disk_cache.h"

namespace tessera::compiler {

// The switches that change the code compiled from the same SPIR-V: part of every cache key.
struct CodeSettings {
  // TESSERA_WIDEN: 0 no widening across work-items; 1 (default) at the host's preferred width, in
  // the regions with a loop of their own; n > 1 (a power of two up to 64) n work-items, in every
  // region the widening accepts. Anything else: 1.
  int widen = 1;
  // TESSERA_PREFETCH: prefetches across barriers, off when the value starts with 0.
  bool prefetch = true;
  // TESSERA_ROW_JAM: rows of 2-D work-groups four at once (row_jam.cpp), off when it starts with 0.
  bool rowJam = true;
  // TESSERA_GROUP_COPY: a copy of the work-group function for one group size
  // (fixed_group_size.cpp), off when it starts with 0.
  bool groupCopy = true;
};

// The on-disk tier of the cache (support/disk_cache.h).
using DiskCacheSettings = support::DiskCacheSettings;

struct CompilerConfig {
  CodeSettings code;
  // TESSERA_JIT_DUMP=1: what the widening did and each module before O3, on stderr.
  bool dumpModule = false;
  // TESSERA_JIT_DUMP=passes: the JIT's pipeline, one pass a line, once, on stderr.
  bool dumpPasses = false;
  // TESSERA_JIT_DUMP=times: the time each pass took on each module, on stderr.
  bool dumpTimes = false;
  // TESSERA_PERF_JIT=1: a jitdump file for `perf inject --jit`.
  bool perfJit = false;
  DiskCacheSettings cache;
  // TESSERA_CLC, TESSERA_COMPILE_TIMEOUT_S: the compiler process that translates SPIR-V.
  spirv::clc::Settings process;
};

// Every variable above, read by the rules of config/settings.def (CompilerSettings' rows) and
// nowhere else; a value a rule refuses adds a line to `warnings` and keeps the default.
CompilerConfig configFromEnvironment(std::vector<std::string>& warnings);

}  // namespace tessera::compiler
