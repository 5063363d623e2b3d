#include "backends/cpu/runtime/launcher.h"

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

#include "backends/cpu/kernel_stack.h"
#include "backends/cpu/memory_spaces.h"
#include "backends/cpu/runtime/builtin_runtime.h"
#include "host/fault_guard.h"
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
  // `space`: what the buffer holds for OpenCL C's generic address space (memory_spaces.h).
  explicit ThreadBuffer(MemorySpace space) : space_(space) {}
  ~ThreadBuffer() {
    if (data_) removeSpaceRange(data_.get());
  }
  uint8_t* get(size_t bytes) {
    if (bytes > capacity_) {
      uint64_t rounded;
      if (!support::checkedAlignUp(bytes, 4096, rounded)) throw std::bad_alloc();
      void* p = std::aligned_alloc(kMaxTypeAlignment, rounded);
      if (p == nullptr) throw std::bad_alloc();
      if (data_) removeSpaceRange(data_.get());
      data_.reset(static_cast<uint8_t*>(p));
      capacity_ = rounded;
      addSpaceRange(data_.get(), capacity_, space_);
    }
    return data_.get();
  }

 private:
  MemorySpace space_;
  std::unique_ptr<uint8_t, Free> data_;
  size_t capacity_ = 0;
};

thread_local ThreadBuffer tlsLocal(MemorySpace::Local);
// Private values that live across a barrier.
thread_local ThreadBuffer tlsScratch(MemorySpace::Private);

}  // namespace

bool streamsStores(const CompiledKernel& kernel, const LaunchDims& dims, uint64_t streamAbove) {
  if (streamAbove == 0 || kernel.streamBytesPerItem == 0) return false;
  uint64_t written = 0;
  return !dims.items(written) ||
         !support::checkedMul(written, uint64_t{kernel.streamBytesPerItem}, written) ||
         written > streamAbove;
}

bool launch(const CompiledKernel& kernel, const uint8_t* args, const LaunchDims& dims,
            WorkerPool* pool, const void* tag, uint64_t serialNs, uint64_t streamAbove) {
  for (int d = 0; d < 3; ++d) {
    if (dims.groupCount[d] == 0 || dims.groupSize[d] == 0) {
      throw std::invalid_argument("launch: group counts and sizes must be at least 1");
    }
    if (dims.lastGroupSize[d] > dims.groupSize[d])
      throw std::invalid_argument("launch: a last group larger than the group size");
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
  // Non-uniform work-groups: ctxs[e] is the context of the groups that are last in the dimensions
  // of bit set e (bit d: x, y, z) where that dimension is partial; only the local sizes differ.
  // Which context a group takes is decided per group below, so edge groups are handed out with
  // the others (no serial tail of partial groups).
  const bool stream = streamsStores(kernel, dims, streamAbove);
  WorkGroupContext ctxs[8]{};
  uint32_t partialMask = 0;
  for (int d = 0; d < 3; ++d)
    if (dims.lastGroupSize[d] != 0 && dims.lastGroupSize[d] != dims.groupSize[d])
      partialMask |= 1u << d;
  for (uint32_t e = 0; e < 8; ++e) {
    if ((e & partialMask) != e) continue;
    WorkGroupContext& ctx = ctxs[e];
    ctx.args = argCopy;
    for (int d = 0; d < 3; ++d) {
      ctx.localSize[d] = (e >> d) & 1 ? dims.lastGroupSize[d] : dims.groupSize[d];
      ctx.enqueuedSize[d] = dims.groupSize[d];
      ctx.groupCount[d] = dims.groupCount[d];
      ctx.globalOffset[d] = dims.globalOffset[d];
      const uint64_t last = partialMask >> d & 1 ? dims.lastGroupSize[d] : dims.groupSize[d];
      ctx.globalSize[d] = (uint64_t(dims.groupCount[d]) - 1) * dims.groupSize[d] + last;
    }
    ctx.workDim = dims.workDim;
    ctx.streamStores = stream;
  }
  uint64_t workItems = 0, scratchBytes = 0, groups = 0;
  if (!support::checkedProduct({dims.groupSize[0], dims.groupSize[1], dims.groupSize[2]},
                               workItems) ||
      !support::checkedMul(workItems, uint64_t{kernel.scratchBytesPerWorkItem}, scratchBytes))
    throw std::invalid_argument("launch: the group size's scratch memory overflows 64 bits");
  if (!support::checkedProduct({dims.groupCount[0], dims.groupCount[1], dims.groupCount[2]},
                               groups))
    throw std::invalid_argument("launch: the number of work-groups overflows 64 bits");
  const uint64_t gx = dims.groupCount[0], gy = dims.groupCount[1];
  // The last group's index per dimension, or ~0 where the dimension is uniform (no group is then
  // partial in it): a full-range launch compares and never matches.
  const uint64_t lastX = partialMask & 1 ? gx - 1 : ~uint64_t{0};
  const uint64_t lastY = partialMask & 2 ? gy - 1 : ~uint64_t{0};
  const uint64_t lastZ = partialMask & 4 ? dims.groupCount[2] - 1 : ~uint64_t{0};
  WorkGroupFn fn = kernel.fn;

  // A work-group that faults (fault_guard.h) ends there; the launch's other groups stop at their
  // next call's boundary (those already running finish), and the launch throws KernelFault once
  // every worker has left it.
  host::ensureFaultHandlers();
  std::atomic<bool> faulted{false};
  host::FaultInfo first;
  std::once_flag firstOnce;
  // Work-groups are handed out in runs of consecutive units from one shared counter, guided (as
  // OpenMP's schedule(guided)): each take is an eighth per worker of what remains, at most 64 units
  // and at least one. Large runs while much remains keep the counter cold (a vector add of 65,536
  // groups of 256 work-items spent more time taking groups than adding with one group per take);
  // single units at the end let the workers finish within a unit of each other (fixed runs of 64
  // groups left hashcat's 2,048 groups of 4 us up to a run apart, a sixteenth of its launch on 2
  // PUs). No more threads than units: a launch of one group runs on the calling thread alone,
  // without waking a pool whose other threads would find nothing to do.
  uint64_t threads = pool ? std::min<uint64_t>(pool->size(), groups) : 1;
  // A unit is one group, or for a kernel that runs rows across groups (kernel_abi.h,
  // rowsAcrossGroups) up to `band` consecutive full groups of a row of groups in one call (the
  // partial last group in x, with its own context, is a unit of its own). The band is a 64th of a
  // worker's share of the launch, at most a row: the workers still end within one unit, about
  // 1.5% of the launch, of each other, at any count of them. A 5-point stencil over 4096^2 in
  // 16 x 16 groups then streams whole rows of its images (4,096 floats a call) on 2 PUs, 1,024
  // floats on 16 and 128 on 128.
  const uint64_t fullX = partialMask & 1 ? gx - 1 : gx;
  const uint64_t band = rowsAcrossGroups(kernel) && fullX > 1
                            ? std::clamp<uint64_t>(groups / (threads * 64), 1, fullX)
                            : 1;
  const uint64_t bandsPerRow = (fullX + band - 1) / band;
  const uint64_t unitsPerRow = bandsPerRow + (gx - fullX);
  const uint64_t units = unitsPerRow * gy * dims.groupCount[2];  // at most `groups`
  threads = std::min(threads, units);
  if (threads <= 1) pool = nullptr;
  std::atomic<uint64_t> nextUnit{0};
  auto take = [&](uint64_t& begin, uint64_t& end) {
    uint64_t cur = nextUnit.load(std::memory_order_relaxed);
    for (;;) {
      if (cur >= units) return false;
      const uint64_t n = std::clamp<uint64_t>((units - cur) / (threads * 8), 1, 64);
      if (nextUnit.compare_exchange_weak(cur, cur + n, std::memory_order_relaxed)) {
        begin = cur;
        end = cur + n;
        return true;
      }
    }
  };
  // Runs of groups while `more()` says so and groups remain: one guarded call (fault_guard.h), one
  // switch to the thread's kernel stack (kernel_stack.h, sized for the kernel's frame; a caught
  // fault's recovery point is there too) and one lookup of the thread's buffers per call.
  auto runWhile = [&](auto&& more) {
    if (faulted.load(std::memory_order_relaxed)) return;
    uint8_t* local = tlsLocal.get(localBytes == 0 ? 64 : localBytes);
    uint8_t* scratch = tlsScratch.get(scratchBytes == 0 ? 64 : scratchBytes);
    auto run = [&] {
      uint64_t u, end;
      while (!faulted.load(std::memory_order_relaxed) && more() && take(u, end)) {
        // The run's first unit by division, the next ones by counting (two 64-bit divisions per
        // group were a tenth of a 256-work-item vector add's group).
        uint64_t k = u % unitsPerRow, y = (u / unitsPerRow) % gy, z = u / (unitsPerRow * gy);
        for (; u < end && !faulted.load(std::memory_order_relaxed); ++u) {
          const uint64_t x = k < bandsPerRow ? k * band : fullX;
          const uint64_t count = k < bandsPerRow ? std::min(band, fullX - x) : 1;
          const unsigned edge = (x == lastX) | (y == lastY) << 1 | (z == lastZ) << 2;
          fn(&ctxs[edge], x, y, z, local, scratch, count);
          if (++k == unitsPerRow) {
            k = 0;
            if (++y == gy) y = 0, ++z;
          }
        }
      }
    };
    auto guarded = [&] {
      host::FaultInfo info;
      if (!host::runGuardedFn(run, &info, tag)) {
        std::call_once(firstOnce, [&] { first = info; });
        faulted.store(true, std::memory_order_relaxed);
      }
    };
    runOnKernelStackFn(kernel.stackBytes, guarded);
  };
  if (!pool || serialNs) {
    // Alone first: the clock is read once per take (tens of nanoseconds against its groups).
    const auto start = std::chrono::steady_clock::now();
    const auto budget = std::chrono::nanoseconds(serialNs);
    runWhile([&] { return !pool || std::chrono::steady_clock::now() - start <= budget; });
  }
  const bool parallel = pool && !faulted.load() && nextUnit.load() < units;
  if (parallel) {
    auto everyone = [&](uint64_t) { runWhile([] { return true; }); };
    pool->parallelFor(threads, everyone);
  }
  // Kernels' printf output (builtin_runtime.h) is complete when the launch is.
  jit::flushPrintfOutput();
  if (faulted.load()) throw host::KernelFault(first);
  return parallel;
}

}  // namespace tessera::backends::cpu
