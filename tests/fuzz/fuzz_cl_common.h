// What the OpenCL fuzzers share: the Tessera platform through ocl-icd and one context on its root
// device, made once.
#pragma once

#include <CL/cl.h>

#include <cstdlib>
#include <string>

namespace tessera::fuzz {

struct Cl {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
};

inline Cl& cl() {
  static Cl c = [] {
    setenv("OCL_ICD_VENDORS", TESSERA_ICD_DIR, 1);
    Cl c;
    cl_uint n = 0;
    if (clGetPlatformIDs(1, &c.platform, &n) != CL_SUCCESS || n == 0) std::abort();
    if (clGetDeviceIDs(c.platform, CL_DEVICE_TYPE_ALL, 1, &c.device, nullptr) != CL_SUCCESS)
      std::abort();
    cl_int err = CL_SUCCESS;
    c.context = clCreateContext(nullptr, 1, &c.device, nullptr, nullptr, &err);
    if (err != CL_SUCCESS) std::abort();
    return c;
  }();
  return c;
}

// Builds `p`, reads its log, creates every kernel it has and releases everything.
inline void buildAndRelease(cl_program p, const char* options) {
  Cl& c = cl();
  cl_int r = clBuildProgram(p, 1, &c.device, options, nullptr, nullptr);
  size_t n = 0;
  if (clGetProgramBuildInfo(p, c.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n) == CL_SUCCESS) {
    std::string log(n, '\0');
    clGetProgramBuildInfo(p, c.device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
  }
  if (r == CL_SUCCESS) {
    cl_uint count = 0;
    if (clCreateKernelsInProgram(p, 0, nullptr, &count) == CL_SUCCESS && count) {
      auto* kernels = new cl_kernel[count];
      if (clCreateKernelsInProgram(p, count, kernels, nullptr) == CL_SUCCESS) {
        for (cl_uint i = 0; i < count; ++i) {
          cl_uint args = 0;
          clGetKernelInfo(kernels[i], CL_KERNEL_NUM_ARGS, sizeof args, &args, nullptr);
          for (cl_uint a = 0; a < args && a < 64; ++a) {
            char name[256];
            clGetKernelArgInfo(kernels[i], a, CL_KERNEL_ARG_TYPE_NAME, sizeof name, name, nullptr);
          }
          clReleaseKernel(kernels[i]);
        }
      }
      delete[] kernels;
    }
  }
  clReleaseProgram(p);
}

}  // namespace tessera::fuzz
