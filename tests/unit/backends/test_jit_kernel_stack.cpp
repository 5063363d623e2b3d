// Kernel stacks (backends/cpu/kernel_stack.h, jit/stack_sizes.cpp): the JIT measures a kernel's
// frame; the launcher runs it on a stack of that size whatever thread launches it (here one whose
// own stack is 256 KiB, far less than the kernel's 4 MiB of private memory); a frame larger than
// the stack it runs on (a need understated on purpose) hits the guard page through the stack
// probes and faults, contained, instead of writing into the memory below.
#include <pthread.h>
#include <signal.h>

#include <catch2/catch.hpp>
#include <functional>
#include <vector>

#include "host/fault_guard.h"
#include "backends/cpu/kernel_stack.h"
#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

int expected(const std::vector<uint32_t>& idx, uint32_t gid) {
  int s = 0;
  for (uint32_t k : idx) s += int((k % (1024 * 1024)) ^ gid);
  return s;
}

// Runs `body` on a new thread whose own stack is `stackBytes`.
void onThreadWithStack(size_t stackBytes, std::function<void()> body) {
  pthread_attr_t attr;
  REQUIRE(pthread_attr_init(&attr) == 0);
  REQUIRE(pthread_attr_setstacksize(&attr, stackBytes) == 0);
  pthread_t t;
  auto run = [](void* p) -> void* {
    (*static_cast<std::function<void()>*>(p))();
    return nullptr;
  };
  REQUIRE(pthread_create(&t, &attr, run, &body) == 0);
  pthread_attr_destroy(&attr);
  pthread_join(t, nullptr);
}

}  // namespace

TEST_CASE("Kernel stacks: the JIT measures a kernel's frame", "[jit][kernel_stack]") {
  const CompiledKernel& k = kernel("private_stack", "private_big");
  CHECK(k.stackBytes >= 4u * 1024 * 1024);
  CHECK(k.stackBytes < 4u * 1024 * 1024 + 64 * 1024);
  CHECK(kernel("basic", "vadd").stackBytes < 4096);
}

TEST_CASE("Kernel stacks: 4 MiB of private memory runs on a thread with a 256 KiB stack",
          "[jit][kernel_stack]") {
  const CompiledKernel& k = kernel("private_stack", "private_big");
  std::vector<uint32_t> idx = {0, 5, 4095, 1u << 19, (1u << 20) - 1, 987654321};
  uint32_t n = uint32_t(idx.size());
  std::vector<int> out(8, 0);
  ArgBuffer args(k);
  args.set(0, static_cast<void*>(idx.data())).set(1, n).set(2, static_cast<void*>(out.data()));
  bool faulted = false;
  uint64_t stack = 0;
  onThreadWithStack(256 * 1024, [&] {
    try {
      launch(k, args.data(), dims1(2, 4), nullptr);  // every group on this thread
    } catch (const host::KernelFault&) {
      faulted = true;
    }
    stack = kernelStackSize();
  });
  CHECK_FALSE(faulted);
  CHECK(stack >= k.stackBytes);
  for (uint32_t i = 0; i < out.size(); ++i) CHECK(out[i] == expected(idx, i));
  // And on the pool, whose helpers and caller get their kernel stacks the same way.
  std::fill(out.begin(), out.end(), 0);
  launch(k, args.data(), dims1(8, 1), pool());
  for (uint32_t i = 0; i < out.size(); ++i) CHECK(out[i] == expected(idx, i));
}

TEST_CASE("Kernel stacks: a frame larger than its stack faults on the guard page, contained",
          "[jit][kernel_stack]") {
  if (!host::faultGuardEnabled()) return;
  CompiledKernel understated = kernel("private_stack", "private_big");
  understated.stackBytes = 0;  // the stack gets only the reserve for host calls
  std::vector<uint32_t> idx = {1, 2, 3};
  uint32_t n = 3;
  std::vector<int> out(4, 0);
  ArgBuffer args(understated);
  args.set(0, static_cast<void*>(idx.data())).set(1, n).set(2, static_cast<void*>(out.data()));
  int signal = 0;
  // A fresh thread: its kernel stack is only as large as this launch asks.
  onThreadWithStack(1024 * 1024, [&] {
    try {
      launch(understated, args.data(), dims1(1, 4), nullptr);
    } catch (const host::KernelFault& f) {
      signal = f.info.signal;
    }
  });
  CHECK(signal == SIGSEGV);
  // The thread's neighbours are intact: the same kernel, measured, runs.
  const CompiledKernel& k = kernel("private_stack", "private_big");
  launch(k, args.data(), dims1(1, 4), pool());
  for (uint32_t i = 0; i < 4; ++i) CHECK(out[i] == expected(idx, i));
}

}  // namespace tessera::backends::cpu::test
