// What the OpenCL API tests share: the Tessera platform and device through ocl-icd, a context and
// queue fixture, and a check macro that prints the CL error code's value.
#pragma once

#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "watched_child.h"

namespace tessera::cltest {

inline cl_platform_id platform() {
  cl_platform_id p = nullptr;
  cl_uint n = 0;
  REQUIRE(clGetPlatformIDs(1, &p, &n) == CL_SUCCESS);
  REQUIRE(n == 1);
  return p;
}

inline cl_device_id device() {
  cl_device_id d = nullptr;
  REQUIRE(clGetDeviceIDs(platform(), CL_DEVICE_TYPE_ALL, 1, &d, nullptr) == CL_SUCCESS);
  return d;
}

inline std::string deviceString(cl_device_id d, cl_device_info what) {
  size_t n = 0;
  REQUIRE(clGetDeviceInfo(d, what, 0, nullptr, &n) == CL_SUCCESS);
  std::string s(n, '\0');
  REQUIRE(clGetDeviceInfo(d, what, n, s.data(), nullptr) == CL_SUCCESS);
  if (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

template <typename T>
T deviceInfo(cl_device_id d, cl_device_info what) {
  T v{};
  REQUIRE(clGetDeviceInfo(d, what, sizeof v, &v, nullptr) == CL_SUCCESS);
  return v;
}

// A context and an in-order queue on one device (the root device unless given).
struct ClFixture {
  cl_device_id dev = nullptr;
  cl_context ctx = nullptr;
  cl_command_queue queue = nullptr;

  explicit ClFixture(cl_device_id d = nullptr, cl_command_queue_properties props = 0) {
    dev = d ? d : device();
    cl_int err = CL_SUCCESS;
    ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    queue = clCreateCommandQueue(ctx, dev, props, &err);
    REQUIRE(err == CL_SUCCESS);
  }
  ~ClFixture() {
    if (queue) clReleaseCommandQueue(queue);
    if (ctx) clReleaseContext(ctx);
  }
  ClFixture(const ClFixture&) = delete;
  ClFixture& operator=(const ClFixture&) = delete;
};

// Scenarios that crashed or corrupted the process before their fix run in a copy of the test
// binary (tests/support/watched_child.h).
using tessera::test::armWatchdog;
using tessera::test::inWatchedChild;
using tessera::test::runWatchedChild;

}  // namespace tessera::cltest
