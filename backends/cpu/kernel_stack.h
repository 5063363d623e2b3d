// The stacks kernel code runs on.
//
// A kernel's private variables live in its work-group function's frame, whose size the JIT
// measures (CompiledKernel::stackBytes, jit/stack_sizes.cpp) and which may be many MiB. Kernels
// run on whatever thread launches them: pool helpers, a queue's executor, and the application's
// own threads (worker 0 of every parallel launch, synchronous immediate lists, tiny launches
// inline), whose stacks Tessera does not size and whose remaining depth it cannot know. So kernel
// code never runs on the thread's stack: runOnKernelStack() switches to a stack of this thread's
// own, mapped for at least the size asked, with an inaccessible guard region below it, and
// switches back when the callee returns (or a fault inside it has been caught: the recovery point
// of fault_guard.h is then inside the callee, on the same stack).
//
// Each thread keeps its kernel stack (thread_local) and replaces it by a larger one when a kernel
// needs more; pages are committed only as they are touched (MAP_NORESERVE) and freed with the
// thread. The JIT gives every function stack probes, so a frame larger than what remains touches
// the guard region first, and the fault is contained like any other kernel fault.
//
// Threading: per thread; not reentrant from the callee (kernel code never launches).
#pragma once

#include <cstddef>
#include <cstdint>

namespace tessera::backends::cpu {

// Stack kept beyond a kernel's measured need, for the host functions its code calls (libm,
// printf's runtime, asynchronous copies) and the fault handler's recovery frames.
inline constexpr uint64_t kKernelStackReserve = 256 * 1024;
// Inaccessible bytes below each kernel stack (a multiple of the page size).
inline constexpr uint64_t kKernelStackGuard = 64 * 1024;
// The largest kernel stack a thread maps (its need plus the reserve): what the device reports as
// the most private memory a work-item may have (core/device/limits.h) plus the reserve.
inline constexpr uint64_t kMaxKernelStackNeed = uint64_t{256} << 20;

// Runs fn(arg) on this thread's kernel stack, grown first to hold `need` + kKernelStackReserve
// bytes. Throws std::bad_alloc when no such stack can be mapped, std::length_error when `need`
// exceeds kMaxKernelStackNeed (callers refuse such kernels before they launch).
void runOnKernelStack(uint64_t need, void (*fn)(void*), void* arg);

template <typename F>
void runOnKernelStackFn(uint64_t need, F& f) {
  runOnKernelStack(
      need, [](void* p) { (*static_cast<F*>(p))(); }, &f);
}

// For tests: the usable size of this thread's kernel stack (0 before its first use).
uint64_t kernelStackSize();

}  // namespace tessera::backends::cpu
