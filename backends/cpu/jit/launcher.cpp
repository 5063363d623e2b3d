#include "backends/cpu/jit/launcher.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <vector>

#include "backends/cpu/fault_guard.h"
#include "backends/cpu/jit/builtin_runtime.h"
#include "backends/cpu/kernel_stack.h"
#include "support/checked_math.h"

namespace tessera::backends::cpu {
namespace {

struct Free {
  void operator()(uint8_t* p) const { std::free(p); }
};

// A per-thread buffer that only grows; aligned to the largest alignment of an OpenCL type
// (kMaxTypeAlignment, which also keeps vector code on local memory and scratch from being split
// across cache lines by the buffer itself): a __local long16 at a 128-byte offset is then at a
// 128-byte address.
class ThreadBuffer {
 public:
  uint8_t* get(size_t bytes) {
    if (bytes > capacity_) {
      uint64_t rounded;
      if (!support::checkedAlignUp(bytes, 4096, rounded)) throw std::bad_alloc();
      void* p = std::aligned_alloc(kMaxTypeAlignment, rounded);
      if (p == nullptr) throw std::bad_alloc();
      data_.reset(static_cast<uint8_t*>(p));
      capacity_ = rounded;
    }
    return data_.get();
  }

 private:
  std::unique_ptr<uint8_t, Free> data_;
  size_t capacity_ = 0;
};

thread_local ThreadBuffer tlsLocal;
thread_local ThreadBuffer tlsScratch;

}  // namespace

bool launch(const CompiledKernel& kernel, const uint8_t* args, const LaunchDims& dims,
            WorkerPool* pool, const void* tag, uint64_t serialNs) {
  for (int d = 0; d < 3; ++d) {
    if (dims.groupCount[d] == 0 || dims.groupSize[d] == 0) {
      throw std::invalid_argument("launch: group counts and sizes must be at least 1");
    }
  }
  // Callers refuse such kernels before they launch (core/module/kernel.h, privateMemSize); no
  // thread gets a stack this large.
  if (kernel.stackBytes > kMaxKernelStackNeed)
    throw std::length_error("launch: the kernel needs more stack than a work-item may have");
  // The launch's own copy of the arguments, with __local sizes turned into offsets; on the stack
  // for the usual few arguments, so a launch allocates nothing. Aligned like the slots in it: the
  // work-group function loads an int16 with its alignment of 64, as an aligned AVX-512 move that
  // faults on less (kernels taking an int16 by value faulted with a 16-byte aligned copy).
  alignas(kMaxTypeAlignment) uint8_t small[256];
  std::unique_ptr<uint8_t, Free> large;
  uint8_t* argCopy = small;
  if (kernel.argBufferSize > sizeof small) {
    size_t rounded =
        (kernel.argBufferSize + kMaxTypeAlignment - 1) & ~size_t{kMaxTypeAlignment - 1};
    large.reset(static_cast<uint8_t*>(std::aligned_alloc(kMaxTypeAlignment, rounded)));
    if (!large) throw std::bad_alloc();
    argCopy = large.get();
  }
  if (kernel.argBufferSize) std::memcpy(argCopy, args, kernel.argBufferSize);
  // Every size below comes from the client (local argument sizes, group sizes and counts): summed
  // and multiplied with overflow checks, so a wrapped total can never place one buffer inside or
  // before another. The layers above refuse such launches first; this is the last line.
  uint64_t localBytes = 0;
  if (!localMemoryLayout(kernel, argCopy, localBytes, argCopy))
    throw std::invalid_argument("launch: the __local argument sizes overflow 64 bits");
  WorkGroupContext ctx{};
  ctx.args = argCopy;
  for (int d = 0; d < 3; ++d) {
    ctx.localSize[d] = dims.groupSize[d];
    ctx.groupCount[d] = dims.groupCount[d];
    ctx.globalOffset[d] = dims.globalOffset[d];
  }
  ctx.workDim = dims.workDim;
  uint64_t workItems = 0, scratchBytes = 0, groups = 0;
  if (!support::checkedProduct({dims.groupSize[0], dims.groupSize[1], dims.groupSize[2]},
                               workItems) ||
      !support::checkedMul(workItems, uint64_t{kernel.scratchBytesPerWorkItem}, scratchBytes))
    throw std::invalid_argument("launch: the group size's scratch memory overflows 64 bits");
  if (!support::checkedProduct({dims.groupCount[0], dims.groupCount[1], dims.groupCount[2]},
                               groups))
    throw std::invalid_argument("launch: the number of work-groups overflows 64 bits");
  const uint64_t gx = dims.groupCount[0], gy = dims.groupCount[1];
  WorkGroupFn fn = kernel.fn;

  // A work-group that faults (fault_guard.h) ends there; the launch's other groups stop at their
  // next group boundary (those already running finish), and the launch throws KernelFault once
  // every worker has left it.
  ensureFaultHandlers();
  std::atomic<bool> faulted{false};
  FaultInfo first;
  std::once_flag firstOnce;
  // Work-groups are handed out in chunks of consecutive groups: one increment of the shared
  // counter, one guarded call and one lookup of the thread's buffers for up to 64 groups (a vector
  // add of 65,536 groups of 256 work-items spent more time taking groups than adding), while
  // leaving each worker 16 chunks or more to balance with.
  const uint64_t threads = pool ? pool->size() : 1;
  const uint64_t chunk = std::clamp<uint64_t>(groups / (threads * 16), 1, 64);
  const uint64_t chunks = (groups + chunk - 1) / chunk;
  auto runChunk = [&](uint64_t c) {
    if (faulted.load(std::memory_order_relaxed)) return;
    uint8_t* local = tlsLocal.get(localBytes == 0 ? 64 : localBytes);
    uint8_t* scratch = tlsScratch.get(scratchBytes == 0 ? 64 : scratchBytes);
    const uint64_t end = std::min(groups, (c + 1) * chunk);
    auto run = [&] {
      // The chunk's first group id by division, the next ones by counting (two 64-bit divisions
      // per group were a tenth of a 256-work-item vector add's group).
      uint64_t g = c * chunk;
      uint64_t x = g % gx, y = (g / gx) % gy, z = g / (gx * gy);
      for (; g < end && !faulted.load(std::memory_order_relaxed); ++g) {
        fn(&ctx, x, y, z, local, scratch);
        if (++x == gx) {
          x = 0;
          if (++y == gy) y = 0, ++z;
        }
      }
    };
    // On this thread's kernel stack (kernel_stack.h), sized for the kernel's frame; the recovery
    // point of a fault is set there too, so a caught fault returns through the stack switch.
    auto guarded = [&] {
      FaultInfo info;
      if (!runGuardedFn(run, &info, tag)) {
        std::call_once(firstOnce, [&] { first = info; });
        faulted.store(true, std::memory_order_relaxed);
      }
    };
    runOnKernelStackFn(kernel.stackBytes, guarded);
  };
  uint64_t c = 0;
  if (!pool || serialNs) {
    // Alone first: the clock is read once per chunk (tens of nanoseconds against a chunk's groups).
    const auto start = std::chrono::steady_clock::now();
    const auto budget = std::chrono::nanoseconds(serialNs);
    while (c < chunks) {
      runChunk(c++);
      if (pool && std::chrono::steady_clock::now() - start > budget) break;
    }
  }
  const bool parallel = pool && c < chunks;
  if (parallel) {
    const uint64_t first = c;
    auto rest = [&](uint64_t i) { runChunk(first + i); };
    pool->parallelFor(chunks - first, rest);
  }
  // Kernels' printf output (builtin_runtime.h) is complete when the launch is.
  jit::flushPrintfOutput();
  if (faulted.load()) throw KernelFault(first);
  return parallel;
}

}  // namespace tessera::backends::cpu
