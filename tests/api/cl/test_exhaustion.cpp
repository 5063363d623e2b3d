// Exhaustion through OpenCL (docs/reliability.md, "Exhaustion"): a child copy of this test
// binary lowers its own RLIMIT_AS; buffer creation then fails with CL_MEM_OBJECT_ALLOCATION_FAILURE
// or CL_OUT_OF_HOST_MEMORY, and a buffer made before keeps its contents.
#include <sys/resource.h>
#include <sys/wait.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "address_space.h"
#include "cl_test_support.h"

using namespace tessera::cltest;

namespace {

bool outOfMemory(cl_int e) {
  return e == CL_MEM_OBJECT_ALLOCATION_FAILURE || e == CL_OUT_OF_HOST_MEMORY;
}

}  // namespace

TEST_CASE("cl exhaustion child: buffers under RLIMIT_AS", "[.cl_exhaustion_child]") {
  if (!std::getenv("TESSERA_TEST_CL_EXHAUSTION_CHILD")) return;
  ClFixture fx;
  constexpr size_t kKeep = 1 << 20, kStep = 2 << 20;
  cl_int err = CL_SUCCESS;
  cl_mem keep = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, kKeep, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  std::vector<unsigned char> pattern(kKeep), back(kKeep);
  for (size_t i = 0; i < kKeep; ++i) pattern[i] = static_cast<unsigned char>(i * 13);
  REQUIRE(clEnqueueWriteBuffer(fx.queue, keep, CL_TRUE, 0, kKeep, pattern.data(), 0, nullptr,
                               nullptr) == CL_SUCCESS);
  // Room for the reads below, made before the limit.
  tessera::test::limitAddressSpace(64u << 20);

  cl_mem huge = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, size_t(512) << 20, nullptr, &err);
  INFO("huge buffer: " << err);
  CHECK(huge == nullptr);
  CHECK(outOfMemory(err));
  std::vector<cl_mem> got;
  err = CL_SUCCESS;
  for (int i = 0; i < 200 && err == CL_SUCCESS; ++i) {
    unsigned char v = static_cast<unsigned char>(i);
    cl_mem m = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, kStep, nullptr, &err);
    if (m) {
      got.push_back(m);
      cl_int fe = clEnqueueFillBuffer(fx.queue, m, &v, 1, 0, kStep, 0, nullptr, nullptr);
      if (fe != CL_SUCCESS) err = fe;
    }
  }
  INFO("buffers before the failure: " << got.size() << ", error " << err);
  CHECK(outOfMemory(err));
  clFinish(fx.queue);
  REQUIRE(clEnqueueReadBuffer(fx.queue, keep, CL_TRUE, 0, kKeep, back.data(), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  CHECK(back == pattern);
  for (cl_mem m : got) CHECK(clReleaseMemObject(m) == CL_SUCCESS);
  // Released memory is usable again under the same limit.
  cl_mem again = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, kStep, nullptr, &err);
  CHECK(err == CL_SUCCESS);
  if (again) clReleaseMemObject(again);
  tessera::test::unlimitAddressSpace();
  CHECK(clReleaseMemObject(keep) == CL_SUCCESS);
}

TEST_CASE("OpenCL exhaustion: buffers fail with CL_MEM_OBJECT_ALLOCATION_FAILURE / "
          "CL_OUT_OF_HOST_MEMORY under RLIMIT_AS and existing buffers stay intact",
          "[exhaustion]") {
  if (std::getenv("ASAN_OPTIONS") || std::getenv("TSAN_OPTIONS")) return;  // shadow memory
  // One malloc arena (as the containment child of tests/api/ze): a thread's first malloc under
  // the limit would otherwise reserve an arena of 64 MiB, the whole headroom, when the mapping
  // happens to fall aligned, and every buffer after it failed (a flaky CI run).
  std::string cmd =
      "GLIBC_TUNABLES=glibc.malloc.arena_max=1 TESSERA_TEST_CL_EXHAUSTION_CHILD=1 /proc/" +
      std::to_string(getpid()) +
      "/exe 'cl exhaustion child: buffers under RLIMIT_AS' 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  int status = pclose(p);
  INFO("child output:\n" << out);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(out.find("All tests passed") != std::string::npos);
}
