// One live object of each kind, and released ones, for the generated invalid-handle tests. Calls
// go straight to Tessera's dispatch table (the first field of every Tessera object), as the ICD
// loader forwards them.
#pragma once

#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#include <CL/cl_icd.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "cl_program_support.h"

struct ClNegativeFixture {
  cl_icd_dispatch* table = nullptr;
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_mem buffer = nullptr;
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  cl_event event = nullptr;
  cl_sampler sampler = nullptr;

  // Zeroed memory for any pointer argument, 64 KiB, aligned.
  void* scratch() {
    std::memset(scratch_.data(), 0, scratch_.size() * sizeof(uint64_t));
    return scratch_.data();
  }

  // A handle of `type` whose object the application has released.
  void* released(const std::string& type) { return released_.at(type); }

  static ClNegativeFixture& get() {
    static ClNegativeFixture* fx = new ClNegativeFixture;
    return *fx;
  }

 private:
  ClNegativeFixture() : scratch_(8192, 0) {
    using namespace tessera::cltest;
    platform = tessera::cltest::platform();
    table = *reinterpret_cast<cl_icd_dispatch**>(platform);
    device = tessera::cltest::device();
    cl_int err = 0;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    queue = clCreateCommandQueue(context, device, 0, &err);
    REQUIRE(err == CL_SUCCESS);
    buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, 4096, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    program = ilProgram(context, "vector_add");
    kernel = makeKernel(program, "vector_add");
    event = clCreateUserEvent(context, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clSetUserEventStatus(event, CL_COMPLETE) == CL_SUCCESS);
    sampler = clCreateSampler(context, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &err);
    REQUIRE(err == CL_SUCCESS);

    // Released objects of each kind (made from objects of their own, so the live ones stay).
    cl_context c = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    cl_command_queue q = clCreateCommandQueue(context, device, 0, &err);
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE, 64, nullptr, &err);
    cl_program p = ilProgram(context, "vector_add");
    cl_kernel k = makeKernel(program, "vector_add");
    cl_event e = clCreateUserEvent(context, &err);
    clSetUserEventStatus(e, CL_COMPLETE);
    cl_sampler s = clCreateSampler(context, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &err);
    cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id sub = nullptr;
    cl_uint n = 0;
    cl_device_id subs[64];
    if (clCreateSubDevices(device, props, 64, subs, &n) == CL_SUCCESS) {
      sub = subs[0];
      for (cl_uint i = 1; i < n; ++i) clReleaseDevice(subs[i]);
    }
    released_ = {{"cl_context", c}, {"cl_command_queue", q}, {"cl_mem", m},
                 {"cl_program", p}, {"cl_kernel", k}, {"cl_event", e},
                 {"cl_device_id", sub ? static_cast<void*>(sub) : static_cast<void*>(c)},
                 {"cl_platform_id", c}, {"cl_sampler", s}};
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseMemObject(m);
    clReleaseCommandQueue(q);
    clReleaseEvent(e);
    clReleaseSampler(s);
    if (sub) clReleaseDevice(sub);
    clReleaseContext(c);
  }

  std::vector<uint64_t> scratch_;
  std::map<std::string, void*> released_;
};
