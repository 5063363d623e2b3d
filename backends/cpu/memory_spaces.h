// Which named address space an address lies in, for OpenCL C's generic address space (to_global,
// to_local, to_private, get_fence; runtime/builtin_runtime.h). A CPU has one flat address space, so
// the answer is where the memory came from: every thread's work-group __local memory and its
// private memory (its kernel stack, kernel_stack.h, and the scratch where private values live
// across a barrier) are recorded here while they exist; any other address is global memory.
//
// Process-wide, not per thread: a generic pointer stored in global memory by a work-item of one
// work-group and read by another (OpenCL-CTS generic_address_space language_struct) still names
// local or private memory. Threading: any thread; ranges are added when a thread's buffers grow
// (rare) and looked up under a shared lock.
#pragma once

#include <cstdint>

namespace tessera::backends::cpu {

enum class MemorySpace : uint32_t { Private = 0, Global = 1, Local = 3 };

// [base, base + bytes) is `space` until removeSpaceRange(base).
void addSpaceRange(const void* base, uint64_t bytes, MemorySpace space);
void removeSpaceRange(const void* base);
// The space of the range holding `p`; Global when none does.
MemorySpace spaceOf(const void* p);

}  // namespace tessera::backends::cpu
