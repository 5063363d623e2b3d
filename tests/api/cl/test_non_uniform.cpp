// Non-uniform work-groups through clEnqueueNDRangeKernel
// (CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT): a global size the local size does not divide runs a
// partial last group per dimension for programs of OpenCL C 2.0 and later; OpenCL C 1.x,
// -cl-uniform-work-group-size (also on IL) and links with such an input keep
// CL_INVALID_WORK_GROUP_SIZE. The kernels' values are checked in
// tests/unit/backends/test_jit_non_uniform.cpp; here what the API decides.
#include <CL/cl_ext_qcom.h>

#include <vector>

#include "cl_program_support.h"

using namespace tessera::cltest;

namespace {

// Also built as OpenCL C 1.x, which has neither get_enqueued_local_size nor get_global_linear_id
// (those builds only check that the launch is refused).
const char* kIds = R"(
#if __OPENCL_C_VERSION__ < 200
#define get_enqueued_local_size get_local_size
#define LINEAR (get_global_id(1) * get_global_size(0) + get_global_id(0))
#else
#define LINEAR get_global_linear_id()
#endif
kernel void ids(global ulong* out) {
  size_t i = LINEAR;
  global ulong* o = out + 6 * i;
  o[0] = get_global_id(0);
  o[1] = get_global_id(1);
  o[2] = get_local_size(0) * 1000 + get_local_size(1);
  o[3] = get_enqueued_local_size(0) * 1000 + get_enqueued_local_size(1);
  o[4] = get_num_groups(0) * 1000 + get_num_groups(1);
  o[5] = get_global_size(0) * 1000 + get_global_size(1);
}
kernel __attribute__((reqd_work_group_size(8, 1, 1))) void fixed(global ulong* out) {
  out[get_global_id(0)] = get_local_size(0) * 1000 + get_enqueued_local_size(0);
}
)";

struct Run {
  ClFixture& fx;
  cl_kernel k;
  std::vector<cl_ulong> out;
  cl_mem buffer = nullptr;
  Run(ClFixture& f, cl_kernel kernel, size_t values) : fx(f), k(kernel), out(values, 0) {
    cl_int err = CL_SUCCESS;
    buffer = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, values * sizeof(cl_ulong), nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 0, sizeof buffer, &buffer) == CL_SUCCESS);
  }
  ~Run() { clReleaseMemObject(buffer); }
  cl_int enqueue(cl_uint dims, const size_t* global, const size_t* local,
                 const size_t* offset = nullptr) {
    cl_int r =
        clEnqueueNDRangeKernel(fx.queue, k, dims, offset, global, local, 0, nullptr, nullptr);
    if (r == CL_SUCCESS)
      REQUIRE(clEnqueueReadBuffer(fx.queue, buffer, CL_TRUE, 0, out.size() * sizeof(cl_ulong),
                                  out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    return r;
  }
};

// What `options` allows: whether a 37 x 5 range in groups of 16 x 4 launches.
cl_int nonUniformLaunch(ClFixture& fx, cl_program p) {
  cl_kernel k = makeKernel(p, "ids");
  Run run(fx, k, 6 * 37 * 5);
  const size_t global[2] = {37, 5}, local[2] = {16, 4};
  cl_int r = run.enqueue(2, global, local);
  clReleaseKernel(k);
  return r;
}

}  // namespace

TEST_CASE("Given the device, then it reports non-uniform work-groups and work-group collectives",
          "[cl][non_uniform]") {
  ClFixture fx;
  CHECK(deviceInfo<cl_bool>(fx.dev, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT) == CL_TRUE);
  CHECK(deviceInfo<cl_bool>(fx.dev, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT) == CL_TRUE);
}

TEST_CASE(
    "Given OpenCL C 2.0 and 3.0, when the global size is not a multiple of the local size, "
    "then the last groups are partial and the ids follow the enqueued size",
    "[cl][non_uniform]") {
  ClFixture fx;
  for (const char* options : {"-cl-std=CL2.0", "-cl-std=CL3.0"}) {
    INFO(options);
    cl_program p = builtProgram(fx, kIds, options);
    cl_kernel k = makeKernel(p, "ids");
    const size_t global[2] = {37, 5}, local[2] = {16, 4}, offset[2] = {3, 10};
    Run run(fx, k, 6 * 37 * 5);
    REQUIRE(run.enqueue(2, global, local, offset) == CL_SUCCESS);
    for (size_t y = 0; y < 5; ++y)
      for (size_t x = 0; x < 37; ++x) {
        const cl_ulong* o = &run.out[6 * (y * 37 + x)];
        INFO("work-item " << x << "," << y);
        CHECK(o[0] == x + 3);
        CHECK(o[1] == y + 10);
        CHECK(o[2] == (x < 32 ? 16 : 5) * 1000 + (y < 4 ? 4 : 1));
        CHECK(o[3] == 16 * 1000 + 4);
        CHECK(o[4] == 3 * 1000 + 2);
        CHECK(o[5] == 37 * 1000 + 5);
      }
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
}

TEST_CASE(
    "Given OpenCL C 1.x or -cl-uniform-work-group-size, when the global size is not a "
    "multiple of the local size, then CL_INVALID_WORK_GROUP_SIZE",
    "[cl][non_uniform]") {
  ClFixture fx;
  // "non-uniform work-groups are enabled only if the program was compiled with the -cl-std=CL2.0
  // or -cl-std=CL3.0 flags and without the -cl-uniform-work-group-size flag".
  for (const char* options :
       {"", "-cl-std=CL1.2", "-cl-std=CL1.1", "-cl-std=CL2.0 -cl-uniform-work-group-size",
        "-cl-std=CL3.0 -cl-uniform-work-group-size"}) {
    INFO(options);
    cl_program p = builtProgram(fx, kIds, options);
    CHECK(nonUniformLaunch(fx, p) == CL_INVALID_WORK_GROUP_SIZE);
    clReleaseProgram(p);
  }
}

TEST_CASE(
    "Given programs from IL and links, then the uniform requirement follows the build "
    "option and the linked inputs",
    "[cl][non_uniform]") {
  ClFixture fx;
  cl_int err = CL_SUCCESS;
  SECTION("links") {
    for (const char* compiled : {"-cl-std=CL2.0", "-cl-std=CL1.2"}) {
      INFO(compiled);
      cl_program in = clCreateProgramWithSource(fx.ctx, 1, &kIds, nullptr, &err);
      REQUIRE(err == CL_SUCCESS);
      REQUIRE(clCompileProgram(in, 1, &fx.dev, compiled, 0, nullptr, nullptr, nullptr, nullptr) ==
              CL_SUCCESS);
      cl_program linked = clLinkProgram(fx.ctx, 1, &fx.dev, "", 1, &in, nullptr, nullptr, &err);
      REQUIRE(err == CL_SUCCESS);
      CHECK(nonUniformLaunch(fx, linked) ==
            (compiled[10] == '2' ? CL_SUCCESS : CL_INVALID_WORK_GROUP_SIZE));
      clReleaseProgram(linked);
      clReleaseProgram(in);
    }
  }
  SECTION("IL") {
    for (const char* options : {"", "-cl-uniform-work-group-size"}) {
      INFO(options);
      cl_program p = ilProgram(fx.ctx, "group_size_probe", true, options);
      cl_kernel k = makeKernel(p, "local_size_plain");
      cl_mem b = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, 4096, nullptr, &err);
      REQUIRE(err == CL_SUCCESS);
      REQUIRE(clSetKernelArg(k, 0, sizeof b, &b) == CL_SUCCESS);
      const size_t global = 10, local = 4;
      CHECK(clEnqueueNDRangeKernel(fx.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr) ==
            (*options ? CL_INVALID_WORK_GROUP_SIZE : CL_SUCCESS));
      REQUIRE(clFinish(fx.queue) == CL_SUCCESS);
      clReleaseMemObject(b);
      clReleaseKernel(k);
      clReleaseProgram(p);
    }
  }
}

TEST_CASE(
    "Given reqd_work_group_size(8, 1, 1) and a NULL local size, when the global size is not "
    "a multiple of 8, then OpenCL C 2.0 runs a partial group of the rest and 1.2 refuses",
    "[cl][non_uniform]") {
  ClFixture fx;
  const size_t global = 20;
  {
    cl_program p = builtProgram(fx, kIds, "-cl-std=CL2.0");
    cl_kernel k = makeKernel(p, "fixed");
    Run run(fx, k, global);
    REQUIRE(run.enqueue(1, &global, nullptr) == CL_SUCCESS);
    for (size_t i = 0; i < global; ++i) CHECK(run.out[i] == (i < 16 ? 8 : 4) * 1000 + 8);
    // "CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified and does not match the
    // required work-group size for kernel in the program source."
    const size_t four = 4;
    CHECK(run.enqueue(1, &global, &four) == CL_INVALID_WORK_GROUP_SIZE);
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
  {
    cl_program p = builtProgram(fx, kIds, "-cl-std=CL1.2");
    cl_kernel k = makeKernel(p, "fixed");
    Run run(fx, k, global);
    CHECK(run.enqueue(1, &global, nullptr) == CL_INVALID_WORK_GROUP_SIZE);
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
}

TEST_CASE(
    "Given a recordable queue, when a non-uniform range is recorded, then "
    "CL_INVALID_WORK_GROUP_SIZE (recorded launches are uniform) and a uniform one records",
    "[cl][non_uniform][recording]") {
  ClFixture fx;
  auto newRecording = reinterpret_cast<clNewRecordingQCOM_fn>(
      clGetExtensionFunctionAddressForPlatform(platform(), "clNewRecordingQCOM"));
  auto endRecording = reinterpret_cast<clEndRecordingQCOM_fn>(
      clGetExtensionFunctionAddressForPlatform(platform(), "clEndRecordingQCOM"));
  auto releaseRecording = reinterpret_cast<clReleaseRecordingQCOM_fn>(
      clGetExtensionFunctionAddressForPlatform(platform(), "clReleaseRecordingQCOM"));
  REQUIRE((newRecording && endRecording && releaseRecording));
  cl_int err = CL_SUCCESS;
  cl_command_queue rq = clCreateCommandQueue(fx.ctx, fx.dev, CL_QUEUE_RECORDABLE_QCOM, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_program p = builtProgram(fx, kIds, "-cl-std=CL2.0");
  cl_kernel k = makeKernel(p, "fixed");
  cl_mem b = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, 64 * sizeof(cl_ulong), nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 0, sizeof b, &b) == CL_SUCCESS);
  cl_recording_qcom r = newRecording(rq, &err);
  REQUIRE(err == CL_SUCCESS);
  const size_t odd = 20, even = 24, local = 8;
  CHECK(clEnqueueNDRangeKernel(rq, k, 1, nullptr, &odd, &local, 0, nullptr, nullptr) ==
        CL_INVALID_WORK_GROUP_SIZE);
  CHECK(clEnqueueNDRangeKernel(rq, k, 1, nullptr, &even, &local, 0, nullptr, nullptr) ==
        CL_SUCCESS);
  REQUIRE(endRecording(r) == CL_SUCCESS);
  releaseRecording(r);
  clReleaseMemObject(b);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(rq);
}
