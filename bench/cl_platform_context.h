// One OpenCL platform's context, in-order profiling queue and program built from source, with what
// the OpenCL benches time kernels with (cl_pattern_bench's cases, cl_copy_offsets).
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <string>

namespace tessera::bench {

class PlatformContext {
 public:
  PlatformContext(cl_device_id device, const std::string& source);
  ~PlatformContext();
  PlatformContext(const PlatformContext&) = delete;
  PlatformContext& operator=(const PlatformContext&) = delete;

  cl_mem buffer(size_t bytes, const void* init = nullptr);
  // A buffer over `host` used in place (CL_MEM_USE_HOST_PTR).
  cl_mem wrap(size_t bytes, void* host);
  cl_kernel kernel(const char* name);
  // Median kernel time in ms over `reps` runs, after one untimed run.
  double time(cl_kernel k, cl_uint dims, const size_t* global, const size_t* local, int reps);
  void read(cl_mem b, size_t bytes, void* out);

 private:
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  cl_program program_ = nullptr;
};

}  // namespace tessera::bench
