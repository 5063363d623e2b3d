// Private memory and recursion through OpenCL (docs/reliability.md, "Kernel stacks"; issue 16
// items 1 and 2): CL_KERNEL_PRIVATE_MEM_SIZE reports the kernel's measured frame; a kernel with
// 4 MiB of private memory computes; one beyond the device's limit is refused with
// CL_OUT_OF_RESOURCES; a recursive program fails clBuildProgram with a log naming the cycle. The
// cases that hung or killed the process before run in a copy of this binary under a watchdog.
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>
#include <vector>

#include "cl_program_support.h"

using namespace tessera::cltest;

namespace {

constexpr const char* kChildVar = "TESSERA_TEST_WATCHED_CHILD";
constexpr unsigned kWatchdogSeconds = 120;

bool inChild() {
  return std::getenv(kChildVar) != nullptr;
}

// Runs the hidden test case `name` in a copy of this binary (which arms a watchdog) and checks
// that it passed.
void runInChild(const std::string& name) {
  char self[4096] = {};
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  REQUIRE(n > 0);
  setenv(kChildVar, "1", 1);
  std::string command = std::string("'") + self + "' '" + name + "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  unsetenv(kChildVar);
  REQUIRE(pipe != nullptr);
  std::string output;
  char buffer[4096];
  for (size_t got; (got = fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, got);
  int status = pclose(pipe);
  INFO("child " << name << " status " << status << "\n" << output);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(output.find("All tests passed") != std::string::npos);
}

cl_program buildSource(ClFixture& fx, const char* source, cl_int* result) {
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(fx.ctx, 1, &source, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  *result = clBuildProgram(p, 1, &fx.dev, "", nullptr, nullptr);
  return p;
}

const char* kPrivateSource = R"(
#define BIG (1024 * 1024)
kernel void private_big(global const uint* idx, uint n, global int* out) {
  int a[BIG];
  uint gid = get_global_id(0);
  for (uint i = 0; i < BIG; ++i) a[i] = (int)(i ^ gid);
  int s = 0;
  for (uint k = 0; k < n; ++k) s += a[idx[k] % BIG];
  out[gid] = s;
}
#define HUGE (128 * 1024 * 1024)
kernel void private_huge(global const uint* idx, uint n, global int* out) {
  int a[HUGE];
  uint gid = get_global_id(0);
  for (uint i = 0; i < HUGE; ++i) a[i] = (int)(i ^ gid);
  int s = 0;
  for (uint k = 0; k < n; ++k) s += a[idx[k] % HUGE];
  out[gid] = s;
}
)";

cl_ulong privateMemSize(cl_kernel k, cl_device_id d) {
  cl_ulong size = 0;
  REQUIRE(clGetKernelWorkGroupInfo(k, d, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof size, &size, nullptr) ==
          CL_SUCCESS);
  return size;
}

}  // namespace

TEST_CASE("watched child: OpenCL private memory", "[cl][private_memory][.]") {
  if (!inChild()) return;
  alarm(kWatchdogSeconds);
  ClFixture fx;
  cl_int built = CL_SUCCESS;
  cl_program p = buildSource(fx, kPrivateSource, &built);
  INFO(buildLog(p, fx.dev));
  REQUIRE(built == CL_SUCCESS);
  cl_kernel big = makeKernel(p, "private_big");
  cl_kernel huge = makeKernel(p, "private_huge");
  // "CL_KERNEL_PRIVATE_MEM_SIZE: Returns the minimum amount of private memory, in bytes, used by
  // each work-item in the kernel."
  CHECK(privateMemSize(big, fx.dev) >= 4u * 1024 * 1024);
  CHECK(privateMemSize(huge, fx.dev) >= 512u * 1024 * 1024);

  std::vector<cl_uint> idx = {0, 9, 4095, 1u << 19, (1u << 20) - 1, 555555555};
  cl_uint n = cl_uint(idx.size());
  std::vector<cl_int> out(32, 0);
  for (cl_kernel k : {big, huge}) {
    REQUIRE(clSetKernelArgSVMPointer(k, 0, idx.data()) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof n, &n) == CL_SUCCESS);
    REQUIRE(clSetKernelArgSVMPointer(k, 2, out.data()) == CL_SUCCESS);
  }
  size_t global = out.size(), local = 4;
  runKernel(fx.queue, big, 1, &global, &local);
  for (cl_uint i = 0; i < out.size(); ++i) {
    cl_int s = 0;
    for (cl_uint k : idx) s += cl_int((k % (1024 * 1024)) ^ i);
    CHECK(out[i] == s);
  }
  // clEnqueueNDRangeKernel: "CL_OUT_OF_RESOURCES if there is a failure to queue the execution
  // instance of kernel on the command-queue because of insufficient resources needed to execute
  // the kernel."
  CHECK(clEnqueueNDRangeKernel(fx.queue, huge, 1, nullptr, &global, &local, 0, nullptr, nullptr) ==
        CL_OUT_OF_RESOURCES);
  // Nothing was lost.
  CHECK(clFinish(fx.queue) == CL_SUCCESS);
  runKernel(fx.queue, big, 1, &global, &local);
  clReleaseKernel(big);
  clReleaseKernel(huge);
  clReleaseProgram(p);
}

TEST_CASE("OpenCL private memory: reported, 4 MiB runs, beyond the limit CL_OUT_OF_RESOURCES",
          "[cl][private_memory]") {
  runInChild("watched child: OpenCL private memory");
}

TEST_CASE("watched child: OpenCL recursive programs", "[cl][recursion][.]") {
  if (!inChild()) return;
  alarm(kWatchdogSeconds);
  ClFixture fx;
  struct Case {
    const char* source;
    std::vector<std::string> cycles;  // one of these is named
  };
  const Case cases[] = {
      {"int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\n"
       "kernel void k(global int* out) { out[get_global_id(0)] = fib(get_global_id(0)); }\n",
       {"fib -> fib"}},
      {"int pong(int n);\n"
       "int ping(int n) { return n <= 0 ? 1 : pong(n - 1) + pong(n - 2); }\n"
       "int pong(int n) { return n <= 0 ? 0 : ping(n - 1) * 2 + ping(n - 3); }\n"
       "kernel void k(global int* out) { out[get_global_id(0)] = ping(get_global_id(0)); }\n",
       {"ping -> pong -> ping", "pong -> ping -> pong"}},
  };
  for (const Case& c : cases) {
    cl_int built = CL_SUCCESS;
    cl_program p = buildSource(fx, c.source, &built);
    // The kernel is compiled when first needed: its launch fails, and the reason joins the build
    // log (docs/conformance.md).
    CHECK(built == CL_SUCCESS);
    std::string log = failedKernelLog(fx, p, "k");
    INFO(log);
    CHECK(log.find("recursion is not supported") != std::string::npos);
    bool named = false;
    for (const std::string& cycle : c.cycles) named |= log.find(cycle) != std::string::npos;
    CHECK(named);
    clReleaseProgram(p);
  }
}

TEST_CASE("OpenCL recursion: clBuildProgram fails with a log naming the cycle", "[cl][recursion]") {
  runInChild("watched child: OpenCL recursive programs");
}
