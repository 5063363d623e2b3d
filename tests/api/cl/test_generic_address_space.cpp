// OpenCL C 2.0's generic address space: a pointer without an address space may point to global,
// local or private memory, and to_global / to_local / to_private (OpGenericCastToPtrExplicit) give
// it back when it points into that space, else NULL (OpenCL C 2.0, 6.5.5 "Explicit conversions"),
// and get_fence names the fence its space needs (6.13.9: CLK_GLOBAL_MEM_FENCE, CLK_LOCAL_MEM_FENCE;
// none for private memory).
// The kernel's private array lives across a barrier (so in the work-group's scratch memory, not on
// the kernel stack) and its local array is the work-group's; every work-item checks all three
// casts and get_fence on a pointer of each kind and reads through the casts that succeed.
#include <vector>

#include "cl_program_support.h"

using namespace tessera::cltest;

TEST_CASE("Given generic pointers to global, local and private memory, then to_global, to_local "
          "and to_private each give back exactly the pointers into their space",
          "[cl][program][source][generic]") {
  ClFixture fx;
  const char* source = R"(
int space(int* p) {
  return (to_global(p) != 0) + 2 * (to_local(p) != 0) + 4 * (to_private(p) != 0);
}
kernel void k(global int* out, global int* in) {
  local int l[16];
  int lid = get_local_id(0), gid = get_global_id(0);
  int priv[2];
  priv[0] = gid; priv[1] = -gid;
  int* pp = &priv[gid & 1];
  l[lid] = gid;
  barrier(CLK_LOCAL_MEM_FENCE);
  int* g = &in[gid];
  int* lp = &l[(lid + 1) % 16];
  out[4 * gid + 0] = space(g);
  out[4 * gid + 1] = space(lp);
  out[4 * gid + 2] = space(pp);
  out[4 * gid + 3] = *to_global(g) + *to_local(lp) + *to_private(pp);
  out[4 * 64 + gid] = get_fence(g) == CLK_GLOBAL_MEM_FENCE &&
                      get_fence(lp) == CLK_LOCAL_MEM_FENCE && get_fence(pp) == 0;
})";
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(fx.ctx, 1, &source, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  // OpenCL C 2.0 has the generic address space; 3.0 with __opencl_c_generic_address_space, which
  // the device declares.
  const char* std = GENERATE("-cl-std=CL2.0", "-cl-std=CL3.0");
  INFO(std);
  cl_int built = clBuildProgram(p, 1, &fx.dev, std, nullptr, nullptr);
  INFO(buildLog(p, fx.dev));
  REQUIRE(built == CL_SUCCESS);
  cl_kernel k = makeKernel(p, "k");
  constexpr int n = 64;
  std::vector<int> in(n), out(5 * n, 0);
  for (int i = 0; i < n; ++i) in[i] = 1000 * i;
  cl_mem inBuf = clCreateBuffer(fx.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(int) * n,
                                in.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem outBuf = clCreateBuffer(fx.ctx, CL_MEM_WRITE_ONLY, sizeof(int) * 5 * n, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  setKernelArgs(k, {{sizeof outBuf, &outBuf}, {sizeof inBuf, &inBuf}});
  size_t global = n, local = 16;
  runKernel(fx.queue, k, 1, &global, &local);
  REQUIRE(clEnqueueReadBuffer(fx.queue, outBuf, CL_TRUE, 0, sizeof(int) * 5 * n, out.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
  for (int gid = 0; gid < n; ++gid) {
    INFO("work-item " << gid);
    CHECK(out[4 * gid + 0] == 1);  // global only
    CHECK(out[4 * gid + 1] == 2);  // local only
    CHECK(out[4 * gid + 2] == 4);  // private only
    const int neighbour = gid / 16 * 16 + (gid % 16 + 1) % 16;
    CHECK(out[4 * gid + 3] == in[gid] + neighbour + (gid & 1 ? -gid : gid));
    CHECK(out[4 * n + gid] == 1);  // get_fence
  }
  clReleaseMemObject(inBuf);
  clReleaseMemObject(outBuf);
  clReleaseKernel(k);
  clReleaseProgram(p);
}
