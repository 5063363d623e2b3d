#include "cl_platform_context.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench_stats.h"
#include "cl_check.h"

namespace tessera::bench {

PlatformContext::PlatformContext(cl_device_id device, const std::string& source) {
  cl_int err = CL_SUCCESS;
  context_ = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  CL_CHECK(err);
  queue_ = clCreateCommandQueue(context_, device, CL_QUEUE_PROFILING_ENABLE, &err);
  CL_CHECK(err);
  const char* s = source.c_str();
  program_ = clCreateProgramWithSource(context_, 1, &s, nullptr, &err);
  CL_CHECK(err);
  if (clBuildProgram(program_, 1, &device, "", nullptr, nullptr) != CL_SUCCESS) {
    std::vector<char> log(1 << 16);
    clGetProgramBuildInfo(program_, device, CL_PROGRAM_BUILD_LOG, log.size(), log.data(), nullptr);
    std::fprintf(stderr, "clBuildProgram failed: %s\n", log.data());
    std::exit(1);
  }
}

PlatformContext::~PlatformContext() {
  clReleaseProgram(program_);
  clReleaseCommandQueue(queue_);
  clReleaseContext(context_);
}

cl_mem PlatformContext::buffer(size_t bytes, const void* init) {
  cl_int err = CL_SUCCESS;
  cl_mem_flags flags = CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0);
  cl_mem b = clCreateBuffer(context_, flags, bytes, const_cast<void*>(init), &err);
  CL_CHECK(err);
  return b;
}

cl_mem PlatformContext::wrap(size_t bytes, void* host) {
  cl_int err = CL_SUCCESS;
  cl_mem b = clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, host, &err);
  CL_CHECK(err);
  return b;
}

cl_kernel PlatformContext::kernel(const char* name) {
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(program_, name, &err);
  CL_CHECK(err);
  return k;
}

double PlatformContext::time(cl_kernel k, cl_uint dims, const size_t* global, const size_t* local,
                             int reps) {
  CL_CHECK(clEnqueueNDRangeKernel(queue_, k, dims, nullptr, global, local, 0, nullptr, nullptr));
  CL_CHECK(clFinish(queue_));
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    cl_event e = nullptr;
    CL_CHECK(clEnqueueNDRangeKernel(queue_, k, dims, nullptr, global, local, 0, nullptr, &e));
    CL_CHECK(clWaitForEvents(1, &e));
    cl_ulong start = 0, end = 0;
    clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr);
    clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr);
    ms.push_back(double(end - start) / 1e6);
    clReleaseEvent(e);
  }
  return tessera::bench::stats(ms).median;
}

void PlatformContext::read(cl_mem b, size_t bytes, void* out) {
  CL_CHECK(clEnqueueReadBuffer(queue_, b, CL_TRUE, 0, bytes, out, 0, nullptr, nullptr));
}

}  // namespace tessera::bench
