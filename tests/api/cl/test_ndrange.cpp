// clEnqueueNDRangeKernel and clEnqueueTask against host references: 1D/2D/3D ranges with offsets,
// chosen local sizes, __local arguments, by-value structs, argument snapshots, sub-devices, and
// every error the launch checks.
#include <cstring>
#include <numeric>

#include "cl_program_support.h"
#include "group_size_cases.h"

using namespace tessera::cltest;

TEST_CASE("Given vector_add and saxpy, when launched with a NULL local size, then results match the host",
          "[cl][ndrange]") {
  ClFixture fx;
  cl_program p = ilProgram(fx.ctx, "vector_add");
  cl_kernel k = makeKernel(p, "vector_add");
  for (size_t n : {1, 7, 1000, 4099}) {  // 4099 is prime: the chosen local size must divide it
    std::vector<float> a(n), b(n), c(n, 0.0f);
    for (size_t i = 0; i < n; ++i) a[i] = float(i) * 0.5f, b[i] = float(n - i);
    REQUIRE(clSetKernelArgSVMPointer(k, 0, a.data()) == CL_SUCCESS);
    REQUIRE(clSetKernelArgSVMPointer(k, 1, b.data()) == CL_SUCCESS);
    REQUIRE(clSetKernelArgSVMPointer(k, 2, c.data()) == CL_SUCCESS);
    cl_event e = nullptr;
    REQUIRE(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &n, nullptr, 0, nullptr, &e) ==
            CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &e) == CL_SUCCESS);
    cl_command_type type = 0;
    REQUIRE(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
    CHECK(type == CL_COMMAND_NDRANGE_KERNEL);
    clReleaseEvent(e);
    for (size_t i = 0; i < n; ++i) REQUIRE(c[i] == a[i] + b[i]);
  }
  clReleaseKernel(k);
  clReleaseProgram(p);

  p = ilProgram(fx.ctx, "saxpy");
  k = makeKernel(p, "saxpy");
  size_t n = 256;
  std::vector<float> x(n), y(n), ref(n);
  for (size_t i = 0; i < n; ++i) x[i] = float(i), y[i] = 1.0f, ref[i] = 3.0f * x[i] + y[i];
  float alpha = 3.0f;
  REQUIRE(clSetKernelArg(k, 0, sizeof alpha, &alpha) == CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(k, 1, x.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(k, 2, y.data()) == CL_SUCCESS);
  size_t local = 32;
  runKernel(fx.queue, k, 1, &n, &local);
  CHECK(y == ref);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_CASE(
    "Given a NULL local size, then a launch runs in the group size Level Zero suggests for the "
    "same kernel: up to 4,096 work-items without barriers, 256 with",
    "[cl][ndrange][groupsize]") {
  // The same cases tests/api/ze/test_launch_modes.cpp asks zeKernelSuggestGroupSize (one rule,
  // core/command/launch_policy.cpp, for both APIs).
  KernelFixture fx("group_size_probe", "local_size_plain");
  cl_kernel barriers = makeKernel(fx.program, "local_size_barrier");
  std::vector<cl_uint> out(3, 0);
  REQUIRE(clSetKernelArgSVMPointer(fx.kernel, 0, out.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(barriers, 0, out.data()) == CL_SUCCESS);
  for (const tessera::test::GroupSizeCase& c : tessera::test::kGroupSizeCases) {
    size_t global[3] = {c.global[0], c.global[1], c.global[2]};
    INFO((c.barriers ? "barriers, " : "no barriers, ")
         << "global " << global[0] << " x " << global[1] << " x " << global[2]);
    std::fill(out.begin(), out.end(), 0u);
    runKernel(fx.queue, c.barriers ? barriers : fx.kernel, 3, global, nullptr);
    CHECK(out == std::vector<cl_uint>{c.local[0], c.local[1], c.local[2]});
  }
  // A range whose chosen groups do not fit Level Zero's 32-bit counts: 4,096 * (2^32 + 1)
  // work-items.
  size_t tooMany = 4096 * ((size_t(1) << 32) + 1);
  for (cl_kernel k : {fx.kernel, barriers})
    CHECK(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &tooMany, nullptr, 0, nullptr, nullptr) ==
          CL_INVALID_GLOBAL_WORK_SIZE);
  // The OpenCL layer remembers the driver's last choice per thread (cl_shim/ndrange.cpp): the same
  // range on the other kernel, back again, and on a kernel made after one was released (which may
  // take its address) must each get their own kernel's choice.
  size_t same[3] = {1u << 20, 1, 1};
  for (int round = 0; round < 2; ++round) {
    for (cl_kernel k : {fx.kernel, barriers, fx.kernel}) {
      std::fill(out.begin(), out.end(), 0u);
      runKernel(fx.queue, k, 3, same, nullptr);
      CHECK(out == std::vector<cl_uint>{k == barriers ? 256u : 1024u, 1, 1});
    }
    clReleaseKernel(barriers);
    barriers = makeKernel(fx.program, "local_size_barrier");
    REQUIRE(clSetKernelArgSVMPointer(barriers, 0, out.data()) == CL_SUCCESS);
  }
  clReleaseKernel(barriers);
}

TEST_CASE("Given 1D, 2D and 3D ranges with offsets, then every work-item writes its global id",
          "[cl][ndrange]") {
  KernelFixture fx("corpus_ranges", "range1d");
  cl_program p = fx.program;

  SECTION("1D with an offset") {
    std::vector<int> out(100, -1);
    cl_uint n = 100;
    REQUIRE(clSetKernelArgSVMPointer(fx.kernel, 0, out.data()) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(fx.kernel, 1, sizeof n, &n) == CL_SUCCESS);
    size_t global = 60, offset = 40, local = 20;
    runKernel(fx.queue, fx.kernel, 1, &global, &local, &offset);
    for (int i = 0; i < 100; ++i) CHECK(out[i] == (i < 40 ? -1 : 2 * i + 1));
  }
  SECTION("2D with an offset and a NULL local size") {
    cl_kernel k = makeKernel(p, "range2d");
    cl_uint w = 24, h = 10;
    std::vector<int> out(w * h, -1);
    REQUIRE(clSetKernelArgSVMPointer(k, 0, out.data()) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof w, &w) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, sizeof h, &h) == CL_SUCCESS);
    size_t global[2] = {20, 7}, offset[2] = {4, 3};
    runKernel(fx.queue, k, 2, global, nullptr, offset);
    for (cl_uint y = 0; y < h; ++y)
      for (cl_uint x = 0; x < w; ++x) {
        bool inside = x >= 4 && y >= 3;
        REQUIRE(out[y * w + x] == (inside ? int(y * 1000 + x) : -1));
      }
    clReleaseKernel(k);
  }
  SECTION("3D with an offset and an explicit local size") {
    cl_kernel k = makeKernel(p, "range3d");
    cl_uint w = 8, h = 6, d = 4;
    std::vector<int> out(w * h * d, -1);
    REQUIRE(clSetKernelArgSVMPointer(k, 0, out.data()) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof w, &w) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, sizeof h, &h) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 3, sizeof d, &d) == CL_SUCCESS);
    size_t global[3] = {8, 4, 2}, offset[3] = {0, 2, 2}, local[3] = {4, 2, 2};
    runKernel(fx.queue, k, 3, global, local, offset);
    for (cl_uint z = 0; z < d; ++z)
      for (cl_uint y = 0; y < h; ++y)
        for (cl_uint x = 0; x < w; ++x) {
          bool inside = y >= 2 && z >= 2;
          REQUIRE(out[(z * h + y) * w + x] == (inside ? int(z * 10000 + y * 100 + x) : -1));
        }
    clReleaseKernel(k);
  }
  SECTION("the work-item functions see the launch's sizes and offsets") {
    cl_kernel k = makeKernel(p, "range_info");
    std::vector<cl_uint> info(13, 0);
    REQUIRE(clSetKernelArgSVMPointer(k, 0, info.data()) == CL_SUCCESS);
    size_t global[3] = {12, 6, 4}, offset[3] = {1, 2, 3}, local[3] = {3, 2, 4};
    runKernel(fx.queue, k, 3, global, local, offset);
    CHECK(info[0] == 3);
    for (int dim = 0; dim < 3; ++dim) {
      CHECK(info[1 + 4 * dim] == global[dim]);
      CHECK(info[2 + 4 * dim] == local[dim]);
      CHECK(info[3 + 4 * dim] == global[dim] / local[dim]);
      CHECK(info[4 + 4 * dim] == offset[dim]);
    }
    clReleaseKernel(k);
  }
}

TEST_CASE("Given __local and by-value struct arguments, then the kernels compute the host's answer",
          "[cl][ndrange]") {
  ClFixture fx;
  cl_program p = ilProgram(fx.ctx, "local_reduce");
  cl_kernel k = makeKernel(p, "local_reduce");
  const size_t n = 512, local = 64;
  std::vector<int> in(n), out(n / local, 0);
  std::iota(in.begin(), in.end(), 1);
  REQUIRE(clSetKernelArgSVMPointer(k, 0, in.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(k, 1, out.data()) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 2, local * sizeof(int), nullptr) == CL_SUCCESS);
  runKernel(fx.queue, k, 1, &n, &local);
  for (size_t g = 0; g < n / local; ++g) {
    int sum = 0;
    for (size_t i = 0; i < local; ++i) sum += in[g * local + i];
    CHECK(out[g] == sum);
  }
  // More __local memory than the device has cannot run.
  cl_ulong deviceLocal = deviceInfo<cl_ulong>(fx.dev, CL_DEVICE_LOCAL_MEM_SIZE);
  REQUIRE(clSetKernelArg(k, 2, size_t(deviceLocal) + 4, nullptr) == CL_SUCCESS);
  CHECK(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &n, &local, 0, nullptr, nullptr) ==
        CL_OUT_OF_RESOURCES);
  // All of it can (one L2 cache's worth, 64 KiB at least: CLBlast's double-precision batched GEMM
  // tiles need more than 64 KiB).
  CHECK(deviceLocal >= 64 * 1024);
  REQUIRE(clSetKernelArg(k, 2, size_t(deviceLocal), nullptr) == CL_SUCCESS);
  std::fill(out.begin(), out.end(), 0);
  runKernel(fx.queue, k, 1, &n, &local);
  CHECK(out[0] == int(local * (local + 1) / 2));
  clReleaseKernel(k);
  clReleaseProgram(p);

  struct Params {
    float scale;
    cl_int offset;
    cl_long big;
    cl_char tag[4];
  };
  static_assert(sizeof(Params) == 24);
  p = ilProgram(fx.ctx, "struct_by_value");
  k = makeKernel(p, "struct_by_value");
  Params prm{2.0f, 3, 1000, {1, 2, 3, 4}};
  cl_float4 v{{0.5f, 0.0f, 0.0f, 0.25f}};
  cl_char c = 7;
  std::vector<float> res(16, 0.0f);
  REQUIRE(clSetKernelArg(k, 0, sizeof prm, &prm) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof v, &v) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 2, sizeof c, &c) == CL_SUCCESS);
  REQUIRE(clSetKernelArgSVMPointer(k, 3, res.data()) == CL_SUCCESS);
  size_t m = res.size();
  runKernel(fx.queue, k, 1, &m);
  for (size_t i = 0; i < m; ++i)
    CHECK(res[i] == 2.0f * float(i) + 3.0f + 1000.0f + 0.5f + 0.25f + 7.0f + 2.0f);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_CASE("watched child: __local sizes past the device or wrapping 64 bits", "[.cl_local_child]") {
  if (!inWatchedChild()) return;
  armWatchdog(240);
  ClFixture fx;
  // three_locals(__global int* out, __local int* a, __local short* b), 64 bytes of static __local.
  cl_program p = ilProgram(fx.ctx, "corpus_locals");
  cl_kernel k = makeKernel(p, "three_locals");
  std::vector<int> out(16, -1);
  REQUIRE(clSetKernelArgSVMPointer(k, 0, out.data()) == CL_SUCCESS);
  const size_t n = 16, local = 16;
  const cl_ulong deviceLocal = deviceInfo<cl_ulong>(fx.dev, CL_DEVICE_LOCAL_MEM_SIZE);
  // clSetKernelArg names no error for a large __local size; the enqueue answers
  // CL_OUT_OF_RESOURCES. 1 TiB; then 2^63 twice, whose sum wrapped to 0 and passed the check.
  for (size_t bytes : {size_t{1} << 40, size_t{1} << 63}) {
    INFO("__local bytes " << bytes);
    REQUIRE(clSetKernelArg(k, 1, bytes, nullptr) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, bytes, nullptr) == CL_SUCCESS);
    CHECK(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &n, &local, 0, nullptr, nullptr) ==
          CL_OUT_OF_RESOURCES);
    cl_ulong reported = 0;
    REQUIRE(clGetKernelWorkGroupInfo(k, fx.dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof reported,
                                     &reported, nullptr) == CL_SUCCESS);
    CHECK(reported > deviceLocal);
  }
  // Two halves that fit alone but not with the static 64 bytes.
  REQUIRE(clSetKernelArg(k, 1, size_t(deviceLocal / 2), nullptr) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 2, size_t(deviceLocal / 2), nullptr) == CL_SUCCESS);
  CHECK(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &n, &local, 0, nullptr, nullptr) ==
        CL_OUT_OF_RESOURCES);
  // What fits runs and computes.
  REQUIRE(clSetKernelArg(k, 1, 16 * sizeof(cl_int), nullptr) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 2, 16 * sizeof(cl_short), nullptr) == CL_SUCCESS);
  runKernel(fx.queue, k, 1, &n, &local);
  for (int lid = 0; lid < 16; ++lid) CHECK(out[lid] == 3 * (15 - lid) + 1000 + lid);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

TEST_CASE(
    "Given __local sizes past the device's local memory or whose sum wraps 64 bits, then "
    "clEnqueueNDRangeKernel answers CL_OUT_OF_RESOURCES",
    "[cl][ndrange][local]") {
  // The wrapped sum passed the check and corrupted the heap: run in a copy of the binary.
  runWatchedChild("watched child: __local sizes past the device or wrapping 64 bits");
}

TEST_CASE(
    "Given a kernel with 64 MiB of static __local memory, then its launch (where Tessera "
    "compiles it) fails with a log line naming it",
    "[cl][program][local]") {
  ClFixture fx;
  cl_program p = ilProgram(fx.ctx, "static_local_huge", false);
  // The program is built; the kernel is compiled when first needed (docs/conformance.md).
  REQUIRE(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
  std::string log = failedKernelLog(fx, p, "huge_static_local");
  INFO("log: " << log);
  CHECK(log.find("kernel huge_static_local uses 67108864 bytes of static __local memory") !=
        std::string::npos);
  clReleaseProgram(p);
}

TEST_CASE("Given launches enqueued back to back, then each keeps the arguments it was enqueued with",
          "[cl][ndrange]") {
  KernelFixture fx("corpus_ranges", "add_value");
  std::vector<int> data(1024, 0);
  REQUIRE(clSetKernelArgSVMPointer(fx.kernel, 0, data.data()) == CL_SUCCESS);
  size_t n = data.size();
  // A user event holds every launch back until all are enqueued.
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(fx.ctx, &err);
  REQUIRE(err == CL_SUCCESS);
  for (int v = 1; v <= 4; ++v) {
    REQUIRE(clSetKernelArg(fx.kernel, 1, sizeof v, &v) == CL_SUCCESS);
    REQUIRE(clEnqueueNDRangeKernel(fx.queue, fx.kernel, 1, nullptr, &n, nullptr, v == 1 ? 1 : 0,
                                   v == 1 ? &gate : nullptr, nullptr) == CL_SUCCESS);
  }
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  for (int x : data) REQUIRE(x == 1 + 2 + 3 + 4);
  clReleaseEvent(gate);

  // clEnqueueTask runs one work-item.
  int v = 10;
  REQUIRE(clSetKernelArg(fx.kernel, 1, sizeof v, &v) == CL_SUCCESS);
  cl_event e = nullptr;
  REQUIRE(clEnqueueTask(fx.queue, fx.kernel, 0, nullptr, &e) == CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &e) == CL_SUCCESS);
  cl_command_type type = 0;
  REQUIRE(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
  CHECK(type == CL_COMMAND_TASK);
  clReleaseEvent(e);
  CHECK(data[0] == 20);
  CHECK(data[1] == 10);

  // A global size of 0 runs nothing and completes (OpenCL 2.1 and later).
  size_t zero = 0;
  REQUIRE(clEnqueueNDRangeKernel(fx.queue, fx.kernel, 1, nullptr, &zero, nullptr, 0, nullptr, &e) ==
          CL_SUCCESS);
  REQUIRE(clWaitForEvents(1, &e) == CL_SUCCESS);
  clReleaseEvent(e);
  CHECK(data[1] == 10);
}

TEST_CASE("Given bad launches, then clEnqueueNDRangeKernel answers the spec's error codes",
          "[cl][ndrange][errors]") {
  KernelFixture fx("corpus_ranges", "add_value");
  std::vector<int> data(64, 0);
  size_t n = 64, local = 8;
  // "CL_INVALID_KERNEL_ARGS if the kernel argument values have not been specified."
  CHECK(clEnqueueNDRangeKernel(fx.queue, fx.kernel, 1, nullptr, &n, nullptr, 0, nullptr,
                               nullptr) == CL_INVALID_KERNEL_ARGS);
  REQUIRE(clSetKernelArgSVMPointer(fx.kernel, 0, data.data()) == CL_SUCCESS);
  int v = 1;
  REQUIRE(clSetKernelArg(fx.kernel, 1, sizeof v, &v) == CL_SUCCESS);
  CHECK(clEnqueueNDRangeKernel(nullptr, fx.kernel, 1, nullptr, &n, nullptr, 0, nullptr,
                               nullptr) == CL_INVALID_COMMAND_QUEUE);
  CHECK(clEnqueueNDRangeKernel(fx.queue, nullptr, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) ==
        CL_INVALID_KERNEL);
  CHECK(clEnqueueNDRangeKernel(fx.queue, fx.kernel, 0, nullptr, &n, nullptr, 0, nullptr,
                               nullptr) == CL_INVALID_WORK_DIMENSION);
  CHECK(clEnqueueNDRangeKernel(fx.queue, fx.kernel, 4, nullptr, &n, nullptr, 0, nullptr,
                               nullptr) == CL_INVALID_WORK_DIMENSION);
  // A local size that does not divide the global size: non-uniform work-groups, except for
  // programs that need uniform ones (OpenCL C 1.x, -cl-uniform-work-group-size; the rest in
  // test_non_uniform.cpp).
  size_t seven = 7;
  {
    cl_program up = ilProgram(fx.ctx, "corpus_ranges", true, "-cl-uniform-work-group-size");
    cl_kernel uk = makeKernel(up, "add_value");
    REQUIRE(clSetKernelArgSVMPointer(uk, 0, data.data()) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(uk, 1, sizeof v, &v) == CL_SUCCESS);
    CHECK(clEnqueueNDRangeKernel(fx.queue, uk, 1, nullptr, &n, &seven, 0, nullptr, nullptr) ==
          CL_INVALID_WORK_GROUP_SIZE);
    clReleaseKernel(uk);
    clReleaseProgram(up);
  }
  size_t zero = 0;
  CHECK(clEnqueueNDRangeKernel(fx.queue, fx.kernel, 1, nullptr, &n, &zero, 0, nullptr,
                               nullptr) == CL_INVALID_WORK_GROUP_SIZE);
  size_t maxItems[3] = {};
  REQUIRE(clGetDeviceInfo(fx.dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof maxItems, maxItems,
                          nullptr) == CL_SUCCESS);
  size_t tooBig = maxItems[0] * 2, bigGlobal = tooBig * 2;
  CHECK(clEnqueueNDRangeKernel(fx.queue, fx.kernel, 1, nullptr, &bigGlobal, &tooBig, 0, nullptr,
                               nullptr) == CL_INVALID_WORK_ITEM_SIZE);
  size_t hugeOffset = size_t(1) << 40;
  CHECK(clEnqueueNDRangeKernel(fx.queue, fx.kernel, 1, &hugeOffset, &n, &local, 0, nullptr,
                               nullptr) == CL_INVALID_GLOBAL_OFFSET);
  size_t nearMax = ~size_t(0) - 4;
  CHECK(clEnqueueNDRangeKernel(fx.queue, fx.kernel, 1, &local, &nearMax, nullptr, 0, nullptr,
                               nullptr) == CL_INVALID_GLOBAL_OFFSET);
  cl_event e = nullptr;
  CHECK(clEnqueueNDRangeKernel(fx.queue, fx.kernel, 1, nullptr, &n, &local, 1, nullptr, nullptr) ==
        CL_INVALID_EVENT_WAIT_LIST);
  CHECK(clEnqueueNDRangeKernel(fx.queue, fx.kernel, 1, nullptr, &n, &local, 0, &e, nullptr) ==
        CL_INVALID_EVENT_WAIT_LIST);
  CHECK(clFinish(fx.queue) == CL_SUCCESS);
  for (int x : data) REQUIRE(x == 0);

  // A kernel with a required work-group size takes only that one.
  cl_program p = ilProgram(fx.ctx, "reqd_size");
  cl_kernel k = makeKernel(p, "reqd_size");
  std::vector<int> out(16 * 8 * 4, -1);
  REQUIRE(clSetKernelArgSVMPointer(k, 0, out.data()) == CL_SUCCESS);
  size_t global[3] = {16, 8, 4}, wrong[3] = {4, 4, 2}, right[3] = {8, 4, 2};
  CHECK(clEnqueueNDRangeKernel(fx.queue, k, 3, nullptr, global, wrong, 0, nullptr, nullptr) ==
        CL_INVALID_WORK_GROUP_SIZE);
  runKernel(fx.queue, k, 3, global, right);
  // get_local_linear_id() of each work-item.
  for (size_t z = 0; z < 4; ++z)
    for (size_t y = 0; y < 8; ++y)
      for (size_t x = 0; x < 16; ++x)
        REQUIRE(out[(z * 8 + y) * 16 + x] == int(((z % 2) * 4 + (y % 4)) * 8 + (x % 8)));
  // With no local size, the required one is used.
  std::fill(out.begin(), out.end(), -1);
  runKernel(fx.queue, k, 3, global, nullptr);
  CHECK(out[1] == 1);
  // A range the required size does not divide: the last groups in x are partial (4 wide), and
  // get_local_linear_id() counts with their own size; a program that needs uniform work-groups
  // refuses it.
  size_t odd[3] = {12, 8, 4};
  std::fill(out.begin(), out.end(), -1);
  runKernel(fx.queue, k, 3, odd, nullptr);
  for (size_t z = 0; z < 4; ++z)
    for (size_t y = 0; y < 8; ++y)
      for (size_t x = 0; x < 12; ++x) {
        const size_t width = x < 8 ? 8 : 4;
        REQUIRE(out[(z * 8 + y) * 12 + x] == int(((z % 2) * 4 + (y % 4)) * width + (x % 8)));
      }
  clReleaseKernel(k);
  clReleaseProgram(p);
  p = ilProgram(fx.ctx, "reqd_size", true, "-cl-uniform-work-group-size");
  k = makeKernel(p, "reqd_size");
  REQUIRE(clSetKernelArgSVMPointer(k, 0, out.data()) == CL_SUCCESS);
  CHECK(clEnqueueNDRangeKernel(fx.queue, k, 3, nullptr, odd, nullptr, 0, nullptr, nullptr) ==
        CL_INVALID_WORK_GROUP_SIZE);
  clReleaseKernel(k);
  clReleaseProgram(p);

  // A queue of another context.
  ClFixture other;
  CHECK(clEnqueueNDRangeKernel(other.queue, fx.kernel, 1, nullptr, &n, &local, 0, nullptr,
                               nullptr) == CL_INVALID_CONTEXT);
}

TEST_CASE("Given a program built for the root device, then a sub-device queue runs its kernels",
          "[cl][ndrange][fission]") {
  cl_device_id root = device();
  if (deviceInfo<cl_uint>(root, CL_DEVICE_MAX_COMPUTE_UNITS) < 2) {
    WARN("one PU: no sub-devices to test");
    return;
  }
  cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_uint count = 0;
  cl_int r = clCreateSubDevices(root, props, 0, nullptr, &count);
  std::vector<cl_device_id> subs(count);
  if (r == CL_SUCCESS) r = clCreateSubDevices(root, props, count, subs.data(), nullptr);
  if (r != CL_SUCCESS) {
    WARN("clCreateSubDevices answered " << r << ": sub-device launch not tested");
    return;
  }
  for (size_t i = 1; i < subs.size(); ++i) clReleaseDevice(subs[i]);
  cl_device_id sub = subs.at(0);
  {
    ClFixture fx(root);
    cl_program p = ilProgram(fx.ctx, "vector_add");
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueue(fx.ctx, sub, 0, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_kernel k = makeKernel(p, "vector_add");
    size_t n = 300;
    std::vector<float> a(n, 1.0f), b(n, 2.0f), c(n, 0.0f);
    REQUIRE(clSetKernelArgSVMPointer(k, 0, a.data()) == CL_SUCCESS);
    REQUIRE(clSetKernelArgSVMPointer(k, 1, b.data()) == CL_SUCCESS);
    REQUIRE(clSetKernelArgSVMPointer(k, 2, c.data()) == CL_SUCCESS);
    runKernel(q, k, 1, &n);
    for (float x : c) REQUIRE(x == 3.0f);
    // The build status of the sub-device is its ancestor's.
    cl_build_status status = 0;
    REQUIRE(clGetProgramBuildInfo(p, sub, CL_PROGRAM_BUILD_STATUS, sizeof status, &status,
                                  nullptr) == CL_SUCCESS);
    CHECK(status == CL_BUILD_SUCCESS);
    // Building for the sub-device too adds it to CL_PROGRAM_DEVICES (the fission union rule).
    clReleaseKernel(k);
    REQUIRE(clBuildProgram(p, 1, &sub, nullptr, nullptr, nullptr) == CL_SUCCESS);
    cl_uint numDevices = 0;
    REQUIRE(clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof numDevices, &numDevices, nullptr) ==
            CL_SUCCESS);
    CHECK(numDevices == 2);
    k = makeKernel(p, "vector_add");
    size_t wg = 0;
    CHECK(clGetKernelWorkGroupInfo(k, sub, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, nullptr) ==
          CL_SUCCESS);
    CHECK(clGetKernelWorkGroupInfo(k, nullptr, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg,
                                   nullptr) == CL_INVALID_DEVICE);
    clReleaseKernel(k);
    clReleaseCommandQueue(q);
    clReleaseProgram(p);
  }
  clReleaseDevice(sub);
}

TEST_CASE("Given buffer arguments, then the kernel reaches the buffers' storage and holds them",
          "[cl][ndrange][buffer]") {
  KernelFixture fx("vector_add", "vector_add");
  const size_t n = 128;
  std::vector<float> a(n), b(n), c(n, 0.0f);
  for (size_t i = 0; i < n; ++i) a[i] = float(i), b[i] = 1.0f;
  cl_int err = CL_SUCCESS;
  cl_mem ma = clCreateBuffer(fx.ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, n * sizeof(float),
                             a.data(), &err);
  if (!ma) {
    // Buffer entry points come from another part of cl_shim; without them, only SVM is tested.
    WARN("clCreateBuffer answered " << err << ": buffer arguments not tested");
    return;
  }
  cl_mem mb = clCreateBuffer(fx.ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, n * sizeof(float),
                             b.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem mc = clCreateBuffer(fx.ctx, CL_MEM_WRITE_ONLY | CL_MEM_USE_HOST_PTR, n * sizeof(float),
                             c.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clSetKernelArg(fx.kernel, 0, sizeof ma, &ma) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(fx.kernel, 1, sizeof mb, &mb) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(fx.kernel, 2, sizeof mc, &mc) == CL_SUCCESS);
  cl_int gateErr = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(fx.ctx, &gateErr);
  REQUIRE(gateErr == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(fx.queue, fx.kernel, 1, nullptr, &n, nullptr, 1, &gate,
                                 nullptr) == CL_SUCCESS);
  // The launch holds the buffers: releasing them (and the kernel's references, by resetting the
  // arguments) before it runs is safe.
  cl_mem none = nullptr;
  for (cl_uint i = 0; i < 3; ++i) REQUIRE(clSetKernelArg(fx.kernel, i, sizeof none, &none) == CL_SUCCESS);
  clReleaseMemObject(ma);
  clReleaseMemObject(mb);
  clReleaseMemObject(mc);
  REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
  REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
  clReleaseEvent(gate);
  for (size_t i = 0; i < n; ++i) REQUIRE(c[i] == float(i) + 1.0f);
}
