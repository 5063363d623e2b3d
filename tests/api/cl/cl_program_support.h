// What the program, kernel and ND-range tests share: corpus SPIR-V (TESSERA_TEST_KERNELS), programs
// built from it, and reading strings out of clGet*Info. Kernels reach host memory through
// clSetKernelArgSVMPointer (the device has fine-grain system SVM), so these tests need no buffers.
#pragma once

#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "cl_test_support.h"

namespace tessera::cltest {

inline std::vector<unsigned char> corpusSpirv(const std::string& name) {
  std::ifstream in(std::string(TESSERA_TEST_KERNELS) + "/" + name + ".spv", std::ios::binary);
  REQUIRE(in.good());
  return {std::istreambuf_iterator<char>(in), {}};
}

inline std::string buildLog(cl_program p, cl_device_id d) {
  size_t n = 0;
  REQUIRE(clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n) == CL_SUCCESS);
  std::string s(n, '\0');
  REQUIRE(clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, n, s.data(), nullptr) == CL_SUCCESS);
  return std::string(s.c_str());
}

// A program built from OpenCL C `source` for the fixture's device (its build log shown on failure).
// With TESSERA_TEST_COMPILE_LINK=1 (ctest api.cl.compile_link) it is compiled by clCompileProgram
// and linked alone by clLinkProgram instead: the objects' path must build every program
// clBuildProgram builds, and run it the same.
inline cl_program builtProgram(ClFixture& fx, const char* source, const char* options = nullptr) {
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(fx.ctx, 1, &source, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  const char* compileLink = std::getenv("TESSERA_TEST_COMPILE_LINK");
  if (compileLink && std::string(compileLink) == "1") {
    cl_int r = clCompileProgram(p, 1, &fx.dev, options, 0, nullptr, nullptr, nullptr, nullptr);
    INFO("compile log: " << buildLog(p, fx.dev));
    REQUIRE(r == CL_SUCCESS);
    cl_program linked = clLinkProgram(fx.ctx, 1, &fx.dev, "", 1, &p, nullptr, nullptr, &err);
    REQUIRE(clReleaseProgram(p) == CL_SUCCESS);
    INFO("link log: " << (linked ? buildLog(linked, fx.dev) : std::string()));
    REQUIRE(err == CL_SUCCESS);
    return linked;
  }
  cl_int r = clBuildProgram(p, 1, &fx.dev, options, nullptr, nullptr);
  INFO(buildLog(p, fx.dev));
  REQUIRE(r == CL_SUCCESS);
  return p;
}

// Kernel `name` of `p`, whose code generation fails: Tessera generates a kernel's code at its
// first launch, as PoCL does (docs/conformance.md), so clCreateKernel succeeds and each launch
// answers CL_INVALID_PROGRAM_EXECUTABLE ("if there is no successfully built program executable
// available for device"), the work-group queries CL_OUT_OF_RESOURCES. Returns the program's
// build log then, which the reason has joined.
inline std::string failedKernelLog(ClFixture& fx, cl_program p, const char* name) {
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(p, name, &err);
  REQUIRE(err == CL_SUCCESS);
  size_t one = 1;
  for (int i = 0; i < 2; ++i)
    CHECK(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr) ==
          CL_INVALID_PROGRAM_EXECUTABLE);
  size_t size = 0;
  CHECK(clGetKernelWorkGroupInfo(k, fx.dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof size, &size,
                                 nullptr) == CL_OUT_OF_RESOURCES);
  REQUIRE(clReleaseKernel(k) == CL_SUCCESS);
  return buildLog(p, fx.dev);
}

// Sets a kernel's arguments from the first: (size, value) pairs.
inline void setKernelArgs(cl_kernel k, std::initializer_list<std::pair<size_t, const void*>> args) {
  cl_uint i = 0;
  for (const auto& [size, value] : args) {
    INFO("argument " << i);
    REQUIRE(clSetKernelArg(k, i++, size, value) == CL_SUCCESS);
  }
}

inline std::string programString(cl_program p, cl_program_info what) {
  size_t n = 0;
  REQUIRE(clGetProgramInfo(p, what, 0, nullptr, &n) == CL_SUCCESS);
  std::string s(n, '\0');
  REQUIRE(clGetProgramInfo(p, what, n, s.data(), nullptr) == CL_SUCCESS);
  return std::string(s.c_str());
}

// A program from a corpus file, created and (unless told not to) built for the context's devices.
inline cl_program ilProgram(cl_context ctx, const std::string& name, bool build = true,
                            const char* options = nullptr) {
  auto spv = corpusSpirv(name);
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithIL(ctx, spv.data(), spv.size(), &err);
  REQUIRE(err == CL_SUCCESS);
  if (build) {
    cl_int r = clBuildProgram(p, 0, nullptr, options, nullptr, nullptr);
    if (r != CL_SUCCESS) {
      cl_device_id d = nullptr;
      clGetProgramInfo(p, CL_PROGRAM_DEVICES, sizeof d, &d, nullptr);
      INFO("build log: " << buildLog(p, d));
      REQUIRE(r == CL_SUCCESS);
    }
  }
  return p;
}

inline cl_kernel makeKernel(cl_program p, const char* name) {
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(p, name, &err);
  INFO("kernel " << name);
  REQUIRE(err == CL_SUCCESS);
  return k;
}

// A context, queue, program and kernel, released in order.
struct KernelFixture : ClFixture {
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  KernelFixture(const std::string& file, const char* name, cl_device_id d = nullptr)
      : ClFixture(d) {
    program = ilProgram(ctx, file);
    kernel = makeKernel(program, name);
  }
  ~KernelFixture() {
    if (kernel) clReleaseKernel(kernel);
    if (program) clReleaseProgram(program);
  }
};

// Runs `k` over `global` (and `local`, may be null) and waits.
inline void runKernel(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t* global,
                      const size_t* local = nullptr, const size_t* offset = nullptr) {
  REQUIRE(clEnqueueNDRangeKernel(q, k, dims, offset, global, local, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clFinish(q) == CL_SUCCESS);
}

}  // namespace tessera::cltest
