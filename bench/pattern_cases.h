// The kernel-pattern bench's cases (bench/cl_pattern_bench.cpp): for each pattern of issue 29's
// table, its inputs, its launch, its check against the host and the work one run does (bytes of
// necessary traffic for memory-bound patterns, FLOPs for the SGEMM).
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <string>
#include <vector>

namespace tessera::bench::patterns {

struct Outcome {
  double ms = 0;     // kernel time, median of the repetitions (event profiling)
  bool ok = false;   // the result matched the host's
  double work = 0;   // bytes (Limit::Bandwidth) or FLOPs (Limit::Flops) of one run
};

// One platform's context, queue (with profiling) and program.
class PlatformContext {
 public:
  PlatformContext(cl_device_id device, const std::string& source);
  ~PlatformContext();
  PlatformContext(const PlatformContext&) = delete;
  PlatformContext& operator=(const PlatformContext&) = delete;

  cl_mem buffer(size_t bytes, const void* init = nullptr);
  cl_kernel kernel(const char* name);
  // Median kernel time in ms over `reps` runs, after one untimed run.
  double time(cl_kernel k, cl_uint dims, const size_t* global, const size_t* local, int reps);
  void read(cl_mem b, size_t bytes, void* out);

 private:
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  cl_program program_ = nullptr;
};

enum class Limit { None, Bandwidth, Flops };

struct Pattern {
  const char* key;
  const char* label;
  Limit limit;
  Outcome (*run)(PlatformContext&, bool quick);
};

const std::vector<Pattern>& patterns();

}  // namespace tessera::bench::patterns
