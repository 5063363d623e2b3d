// Min and max of halves (issue 19: fp16 with sub-groups and the widening). LLVM 15 cannot select
// minnum/maxnum of half vectors on x86 without AVX-512 FP16 ("LLVM ERROR: Cannot select: v16f16 =
// X86ISD::FMAX", which ended the process): the OpenCL-CTS's sub_group_reduce_max(half), and any
// widened fmax/fmin/clamp on halves, until the JIT computed them in float after O3
// (backends/cpu/jit/half_min_max.cpp).
#include <CL/cl_half.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "cl_program_support.h"

using namespace tessera::cltest;

namespace {

const char* kSource = R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void half_collectives(global const half* in, global half* out) {
  size_t i = get_global_id(0), n = get_global_size(0);
  half x = in[i];
  out[i] = sub_group_reduce_max(x);
  out[n + i] = sub_group_reduce_min(x);
  out[2 * n + i] = sub_group_reduce_add(x);
  out[3 * n + i] = sub_group_scan_inclusive_max(x);
  out[4 * n + i] = work_group_reduce_max(x);
  out[5 * n + i] = work_group_scan_exclusive_min(x);
}
)";

// Halves by the bits, through the OpenCL headers' own conversions (exact for the small integers
// used here).
uint16_t toHalf(float f) { return cl_half_from_float(f, CL_HALF_RTE); }
float fromHalf(uint16_t h) { return cl_half_to_float(h); }

}  // namespace

TEST_CASE("Given half values, when sub-group and work-group collectives reduce and scan them, "
          "then the process lives and the results are the host's",
          "[cl][subgroups][half]") {
  ClFixture fx;
  cl_program p = builtProgram(fx, kSource, "-cl-std=CL2.0");
  cl_kernel k = makeKernel(p, "half_collectives");
  size_t sg = 0;
  const size_t n = 64, local = 32;
  REQUIRE(clGetKernelSubGroupInfo(k, fx.dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                  sizeof local, &local, sizeof sg, &sg, nullptr) == CL_SUCCESS);
  REQUIRE(sg > 0);
  std::vector<float> in(n);
  std::vector<uint16_t> hin(n);
  for (size_t i = 0; i < n; ++i) hin[i] = toHalf(in[i] = float(int((i * 37) % 23) - 11));
  cl_int err = CL_SUCCESS;
  cl_mem a = clCreateBuffer(fx.ctx, CL_MEM_COPY_HOST_PTR, n * 2, hin.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem b = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, 6 * n * 2, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  setKernelArgs(k, {{sizeof a, &a}, {sizeof b, &b}});
  runKernel(fx.queue, k, 1, &n, &local);
  std::vector<uint16_t> out(6 * n);
  REQUIRE(clEnqueueReadBuffer(fx.queue, b, CL_TRUE, 0, out.size() * 2, out.data(), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  for (size_t i = 0; i < n; ++i) {
    // Sub-groups by local linear id (the kernel's size sg), within the work-group of i.
    size_t group = i / local * local, first = group + (i - group) / sg * sg;
    size_t last = std::min(first + sg, group + local);
    float mx = -INFINITY, mn = INFINITY, sum = 0, scan = -INFINITY, wmax = -INFINITY,
          wscan = INFINITY;
    for (size_t j = first; j < last; ++j) mx = std::max(mx, in[j]), mn = std::min(mn, in[j]), sum += in[j];
    for (size_t j = first; j <= i; ++j) scan = std::max(scan, in[j]);
    for (size_t j = group; j < group + local; ++j) wmax = std::max(wmax, in[j]);
    for (size_t j = group; j < i; ++j) wscan = std::min(wscan, in[j]);
    INFO("work-item " << i << ", sub-group size " << sg);
    CHECK(fromHalf(out[i]) == mx);
    CHECK(fromHalf(out[n + i]) == mn);
    CHECK(fromHalf(out[2 * n + i]) == sum);
    CHECK(fromHalf(out[3 * n + i]) == scan);
    CHECK(fromHalf(out[4 * n + i]) == wmax);
    if (i != group) CHECK(fromHalf(out[5 * n + i]) == wscan);  // the first: +inf in half
    else CHECK(out[5 * n + i] == 0x7c00);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_CASE("Given half16 values, when fmax, fmin and clamp widen across work-items, then the "
          "process lives and the results are the host's",
          "[cl][half]") {
  ClFixture fx;
  cl_program p = builtProgram(fx, R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void minmax(global const half16* a, global const half16* b, global half16* out) {
  size_t i = get_global_id(0);
  out[i] = fmax(a[i], b[i]) * (half)4 + fmin(a[i], b[i]) * (half)2 + clamp(a[i], (half16)-1, (half16)1);
}
)");
  cl_kernel k = makeKernel(p, "minmax");
  const size_t n = 64, lanes = 16 * n;
  std::vector<float> fa(lanes), fb(lanes);
  std::vector<uint16_t> ha(lanes), hb(lanes);
  for (size_t i = 0; i < lanes; ++i) {
    ha[i] = toHalf(fa[i] = float(int((i * 37) % 29) - 14));
    hb[i] = toHalf(fb[i] = float(int((i * 11) % 17) - 8));
  }
  cl_int err = CL_SUCCESS;
  cl_mem a = clCreateBuffer(fx.ctx, CL_MEM_COPY_HOST_PTR, lanes * 2, ha.data(), &err);
  cl_mem b = clCreateBuffer(fx.ctx, CL_MEM_COPY_HOST_PTR, lanes * 2, hb.data(), &err);
  cl_mem c = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, lanes * 2, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  setKernelArgs(k, {{sizeof a, &a}, {sizeof b, &b}, {sizeof c, &c}});
  runKernel(fx.queue, k, 1, &n);
  std::vector<uint16_t> out(lanes);
  REQUIRE(clEnqueueReadBuffer(fx.queue, c, CL_TRUE, 0, lanes * 2, out.data(), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  for (size_t i = 0; i < lanes; ++i) {
    INFO("element " << i);
    CHECK(fromHalf(out[i]) == std::max(fa[i], fb[i]) * 4 + std::min(fa[i], fb[i]) * 2 +
                                  std::clamp(fa[i], -1.0f, 1.0f));
  }
  for (cl_mem m : {a, b, c}) clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseProgram(p);
}
