// The kernel-pattern bench's cases (bench/cl_pattern_bench.cpp): for each pattern of issue 29's
// table, its inputs, its launch, its check against the host and the work one run does (bytes of
// necessary traffic for memory-bound patterns, FLOPs for the SGEMM).
#pragma once

#include <vector>

#include "cl_platform_context.h"

namespace tessera::bench::patterns {

struct Outcome {
  double ms = 0;     // kernel time, median of the repetitions (event profiling)
  bool ok = false;   // the result matched the host's
  double work = 0;   // bytes (Limit::Bandwidth) or FLOPs (Limit::Flops) of one run
};

using tessera::bench::PlatformContext;

enum class Limit { None, Bandwidth, Flops };

struct Pattern {
  const char* key;
  const char* label;
  Limit limit;
  Outcome (*run)(PlatformContext&, bool quick);
};

const std::vector<Pattern>& patterns();

}  // namespace tessera::bench::patterns
