// Stress through OpenCL (docs/reliability.md, "Stress"): host threads enqueueing at once to
// two shared in-order queues, each chain crossing queues through wait lists (fill on one queue, copy
// on the other waiting for it, a blocking read back on the first waiting for the copy), checked
// every round; bounded in time (TESSERA_STRESS_SECONDS, default 1.5 s).
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

#include "cl_test_support.h"

using namespace tessera::cltest;

TEST_CASE("OpenCL stress: threads enqueue to shared queues with cross-queue wait lists",
          "[stress]") {
  ClFixture fx;
  cl_int err = CL_SUCCESS;
  cl_command_queue second = clCreateCommandQueue(fx.ctx, fx.dev, 0, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_command_queue queues[2] = {fx.queue, second};
  constexpr int kThreads = 4;
  constexpr size_t kBytes = 4096;
  const char* s = std::getenv("TESSERA_STRESS_SECONDS");
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration<double>(s ? std::atof(s) : 1.5);
  std::atomic<uint64_t> rounds{0}, failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      cl_int e = CL_SUCCESS;
      cl_mem a = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, kBytes, nullptr, &e);
      cl_mem b = clCreateBuffer(fx.ctx, CL_MEM_READ_WRITE, kBytes, nullptr, &e);
      if (!a || !b) {
        failures.fetch_add(1);
        return;
      }
      std::vector<unsigned char> back(kBytes);
      for (uint32_t round = 1; std::chrono::steady_clock::now() < deadline; ++round) {
        unsigned char v = static_cast<unsigned char>(round * 13 + t);
        cl_command_queue first = queues[(round + t) % 2], other = queues[(round + t + 1) % 2];
        cl_event filled = nullptr, copied = nullptr;
        bool ok =
            clEnqueueFillBuffer(first, a, &v, 1, 0, kBytes, 0, nullptr, &filled) == CL_SUCCESS &&
            clEnqueueCopyBuffer(other, a, b, 0, 0, kBytes, 1, &filled, &copied) == CL_SUCCESS &&
            clEnqueueReadBuffer(first, b, CL_TRUE, 0, kBytes, back.data(), 1, &copied, nullptr) ==
                CL_SUCCESS;
        ok = ok && back[0] == v && back[kBytes - 1] == v;
        if (round % 16 == 0) ok = ok && clFinish(other) == CL_SUCCESS;
        if (filled) clReleaseEvent(filled);
        if (copied) clReleaseEvent(copied);
        if (!ok) failures.fetch_add(1);
        rounds.fetch_add(1);
      }
      clReleaseMemObject(a);
      clReleaseMemObject(b);
    });
  }
  for (auto& th : threads) th.join();
  INFO("rounds: " << rounds.load());
  CHECK(failures.load() == 0);
  CHECK(rounds.load() >= kThreads);
  CHECK(clFinish(fx.queue) == CL_SUCCESS);
  CHECK(clFinish(second) == CL_SUCCESS);
  clReleaseCommandQueue(second);
}
