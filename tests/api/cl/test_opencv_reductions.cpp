// Kernels reduced from OpenCV 4.6's OpenCL kernels that Tessera ran wrong (docs/conformance.md,
// "OpenCV"), kept as regressions. PoCL runs them right.
#include <catch2/catch.hpp>
#include <vector>

#include "cl_program_support.h"

using namespace tessera::cltest;

// From filter2D.cl (cv::filter2D, cv::Laplacian with ksize 3): after a barrier, work-item `lid`
// reads its left neighbour's slot of local memory under a guard that excludes work-item 0. The
// optimizer writes the index as (lid + 0xffffffff) & 0xffffffff; the widening's exact strides
// took that mask for harmless because the sum is not negative as 64 bits, so the masked load
// started from lane 0's address, index 2^32 - 1: a fault at the array's base plus 0x3fffffffc
// (lane_strides.cpp judges a mask of k bits by the sign of those k bits now). Right with
// TESSERA_WIDEN=0 and on PoCL.
TEST_CASE("OpenCV filter2D reduced: a guarded local load of lid - 1 after a barrier",
          "[opencv-reduced]") {
  ClFixture fx;
  const char* source = R"(
    kernel void left(global float* out) {
      __local float l[128];
      int lid = get_local_id(0);
      float total = 0;
      l[lid] = lid;
      barrier(CLK_LOCAL_MEM_FENCE);
      if (lid >= 1) total += l[lid - 1];
      out[get_global_id(1) * 128 + lid] = total;
    })";
  cl_program p = builtProgram(fx, source);
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(p, "left", &err);
  REQUIRE(err == CL_SUCCESS);
  std::vector<float> out(128 * 4, -1.0f);
  cl_mem buf = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, out.size() * sizeof(float), nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 0, sizeof buf, &buf) == CL_SUCCESS);
  size_t global[2] = {128, 4}, local[2] = {128, 1};
  REQUIRE(clEnqueueNDRangeKernel(fx.queue, k, 2, nullptr, global, local, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  CHECK(clEnqueueReadBuffer(fx.queue, buf, CL_TRUE, 0, out.size() * sizeof(float), out.data(), 0,
                            nullptr, nullptr) == CL_SUCCESS);
  for (size_t y = 0; y < 4; ++y)
    for (size_t x = 0; x < 128; ++x) CHECK(out[y * 128 + x] == (x == 0 ? 0.0f : float(x - 1)));
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(p);
}
