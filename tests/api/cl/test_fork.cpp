// fork() after initialization, through OpenCL (issue 28; docs/reliability.md, "fork()"): a child
// of a process that had run kernels has none of Tessera's threads, and a large range enqueued
// there waited forever. Tessera refuses instead: the enqueue and clFinish answer
// CL_OUT_OF_RESOURCES (the Level Zero layer's DEVICE_LOST) at once. The child runs under an alarm
// (runForkedChild), so without the refusal it ends by SIGALRM and the test fails rather than hangs.
#include <algorithm>
#include <vector>

#include "cl_program_support.h"

using namespace tessera::cltest;

namespace {

constexpr unsigned kChildSeconds = 60;
// A large range: one of at most 4,096 work-items runs on the enqueuing thread alone (kTinyItems),
// which needs no worker thread; 16,384 groups of 64 need them.
constexpr size_t kItems = size_t(1) << 20, kLocal = 64;

enum ChildExit : int { kOk = 0, kEnqueueNotRefused = 10, kFinishNotRefused, kReleaseFailed };

}  // namespace

TEST_CASE("Given a child forked after OpenCL ran a large range, when the child enqueues one, then "
          "it gets CL_OUT_OF_RESOURCES at once, never a hang",
          "[cl][fork]") {
  KernelFixture fx("vector_add", "vector_add");
  std::vector<float> a(kItems, 1.0f), b(kItems, 2.0f), c(kItems, 0.0f);
  cl_int err = CL_SUCCESS;
  cl_mem bufA = clCreateBuffer(fx.ctx, CL_MEM_USE_HOST_PTR, kItems * sizeof(float), a.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem bufB = clCreateBuffer(fx.ctx, CL_MEM_USE_HOST_PTR, kItems * sizeof(float), b.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  cl_mem bufC = clCreateBuffer(fx.ctx, CL_MEM_USE_HOST_PTR, kItems * sizeof(float), c.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  setKernelArgs(fx.kernel, {{sizeof bufA, &bufA}, {sizeof bufB, &bufB}, {sizeof bufC, &bufC}});
  // The parent has run the range: its worker threads exist.
  runKernel(fx.queue, fx.kernel, 1, &kItems, &kLocal);
  std::vector<float> out(kItems, 0.0f);
  REQUIRE(clEnqueueReadBuffer(fx.queue, bufC, CL_TRUE, 0, kItems * sizeof(float), out.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(size_t(std::count(out.begin(), out.end(), 3.0f)) == kItems);

  int code = tessera::test::runForkedChild(kChildSeconds, [&]() -> int {
    cl_int r = clEnqueueNDRangeKernel(fx.queue, fx.kernel, 1, nullptr, &kItems, &kLocal, 0,
                                      nullptr, nullptr);
    cl_int finished = clFinish(fx.queue);  // without the refusal: never returned
    if (r != CL_OUT_OF_RESOURCES) return kEnqueueNotRefused;
    if (finished != CL_OUT_OF_RESOURCES) return kFinishNotRefused;
    // Releasing the parent's queue does not wait for its threads.
    if (clReleaseCommandQueue(fx.queue) != CL_SUCCESS) return kReleaseFailed;
    return kOk;
  });
  INFO("child exit " << code << " (128 + 14: SIGALRM, it hung)");
  CHECK(code == kOk);

  // The parent is untouched.
  std::fill(c.begin(), c.end(), 0.0f);
  runKernel(fx.queue, fx.kernel, 1, &kItems, &kLocal);
  REQUIRE(clEnqueueReadBuffer(fx.queue, bufC, CL_TRUE, 0, kItems * sizeof(float), out.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
  CHECK(size_t(std::count(out.begin(), out.end(), 3.0f)) == kItems);
  clReleaseMemObject(bufA);
  clReleaseMemObject(bufB);
  clReleaseMemObject(bufC);
}
