// Host functions that JIT-compiled kernels call: OpenCL printf and the work-group async copies. The
// kernels call them by name (kPrintfSymbol, kAsyncCopySymbol); every JITDylib defines those names as
// this process's addresses, so object code saved in a native binary and loaded into another process
// binds to that process's copies. No LLVM here.
//
// Threading contract: any number of work-groups may call these at once. printfRuntime writes each
// call's whole output to stdout under one lock; launch() flushes stdout before it returns.
#pragma once

#include <cstdint>
#include <string>

namespace tessera::backends::cpu::jit {

// One printf argument's type code in the `types` string builtin_library.cpp builds: a scalar is
// one of the letters below; a vector is 'v', its lane count as a letter ('a' + lanes), then the
// element's letter. Arguments lie in `args` in order, each at a 16-byte aligned offset.
namespace printf_type {
inline constexpr char kI8 = 'c', kI16 = 's', kI32 = 'i', kI64 = 'l', kHalf = 'h', kFloat = 'f',
                      kDouble = 'd', kPointer = 'p', kVector = 'v';
}

inline constexpr const char* kPrintfSymbol = "__tessera_rt_printf";
inline constexpr const char* kAsyncCopySymbol = "__tessera_rt_async_copy";

inline constexpr const char* kAddressSpaceSymbol = "__tessera_rt_address_space";

// The named address space a generic pointer points into (OpenCL C 2.0 to_global, to_local,
// to_private, get_fence; SPIR-V OpGenericCastToPtrExplicit, OpGenericPtrMemSemantics): a
// work-group's __local memory, a work-item's private memory, or global memory (anything else: a
// generic pointer cannot point to __constant); backends/cpu/memory_spaces.h keeps the ranges.
enum AddressSpace : uint32_t { kGlobalSpace = 1, kLocalSpace = 3, kPrivateSpace = 0 };
uint32_t addressSpaceRuntime(const void* p);

// Tessera's own OpenCL C builtins: functions a kernel declares and calls by these names, which the
// JIT provides (a module importing them needs no zeModuleDynamicLink).
//   uint tessera_current_pu(void);   the OS index of the PU the calling work-item runs on
inline constexpr const char* kCurrentPuSymbol = "tessera_current_pu";
inline bool isRuntimeFunction(const std::string& name) { return name == kCurrentPuSymbol; }
uint32_t currentPuRuntime();

// OpenCL C printf: `format` with its arguments described by `types`. Returns 0, or -1 when the
// format does not match the arguments (nothing is printed then).
int printfRuntime(const char* format, const char* types, const uint8_t* args);
// fflush(stdout) if a kernel printed since the last call: a launch's output is complete when it
// returns, and launches of kernels that do not print skip the stream's lock.
void flushPrintfOutput();

// async_work_group_(strided_)copy, done at once by one work-item (`active`): `count` elements of
// `elementSize` bytes, `dstStride` / `srcStride` elements apart.
void asyncCopyRuntime(uint8_t* dst, const uint8_t* src, uint64_t count, uint64_t elementSize,
                      uint64_t dstStride, uint64_t srcStride, uint64_t active);

}  // namespace tessera::backends::cpu::jit
