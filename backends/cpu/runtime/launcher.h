// Runs a compiled kernel over a grid of work-groups on a WorkerPool.
//
// Threading contract: launch() may be called from any thread; the pool serializes launches. The
// argument buffer is copied before the work-groups start, so the caller may reuse it when launch()
// returns (launch() returns when every work-group has finished). Each worker thread keeps its own
// local-memory and scratch buffers (thread_local), grown on demand and reused across launches.
#pragma once

#include <cstdint>

#include "backends/cpu/runtime/kernel_abi.h"
#include "backends/cpu/worker_pool.h"
#include "backends/device_kind.h"

namespace tessera::backends::cpu {

// The launch shape is the interface's (backends/device_kind.h); workDim is 1 to 3 here.
using backends::LaunchDims;

// `args` holds kernel.argBufferSize bytes laid out as kernel.args says (a LocalPointer slot holds
// the size the caller wants). Group counts and sizes must be >= 1, last group sizes at most the
// group size. `pool` null: every work-group
// runs on the calling thread. `tag` (may be null): the work-groups run under it (fault_guard.h), so
// interruptGuarded(tag) ends the launch; it then throws KernelFault like a faulting launch.
// `serialNs` > 0 (with a pool): the calling thread runs work-groups alone for up to that long, and
// only a launch still unfinished then wakes the pool for the rest (a small launch costs no wake-up
// when it is also short, and one that is long still uses every PU).
// Output that will not stay in the caches goes past them (jit/stream_stores.cpp): whether a
// launch of `kernel` over `dims` writes, at its largest streaming store per work-item
// (CompiledKernel::streamBytesPerItem) over all its work-items, more than `streamAbove` bytes (0:
// never). The count is a floor: a work-item's other stores are not in it.
bool streamsStores(const CompiledKernel& kernel, const LaunchDims& dims, uint64_t streamAbove);

// `streamAbove` > 0: a launch of a kernel with streamable stores (CompiledKernel::
// streamBytesPerItem) whose work-items would write more than this many bytes has them go past
// the caches; 0: never.
// Returns true when the pool took part.
bool launch(const CompiledKernel& kernel, const uint8_t* args, const LaunchDims& dims,
            WorkerPool* pool, const void* tag = nullptr, uint64_t serialNs = 0,
            uint64_t streamAbove = 0);
inline void launch(const CompiledKernel& kernel, const uint8_t* args, const LaunchDims& dims,
                   WorkerPool& pool, const void* tag = nullptr) {
  launch(kernel, args, dims, &pool, tag, 0);
}

}  // namespace tessera::backends::cpu
