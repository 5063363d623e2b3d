// A unit of the CPU's code in a native binary (compiler/native_binary.h gives the frame: header,
// SPIR-V, units, checksum). What the JIT compiled at once, as bytes:
//
//   u32 kernels | kernel* | u32 globals | (name, u64 size)* | u32 functions | name* | object
//   kernel: name | symbol | u32 args | (u8 kind, u32 size, u32 offset)* | u32 argBufferSize |
//           u32 staticLocalBytes | u32 scratchBytesPerWorkItem | u32 stackBytes |
//           u32 barrierCount | u32 subgroupSize | u32 requiredSubgroupSize
//
// Strings and byte arrays are u32 length + bytes; integers little-endian (the host's: the binary is
// only for a CPU like this one anyway). Addresses are not kept: KernelJit::load finds them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "backends/cpu/runtime/compiled_module.h"

namespace tessera::backends::cpu {

void writeUnit(const CompiledModule& unit, std::vector<uint8_t>& out);
// The unit at the front of `in`; `used` the bytes it took. False with `error` (what is wrong,
// "truncated kernels", "bad sub-group size", ...) for a unit that is truncated or whose tables are
// not what the JIT writes (every argument slot inside the argument buffer, ...).
bool readUnit(std::span<const uint8_t> in, size_t& used, CompiledModule& unit, std::string& error);

}  // namespace tessera::backends::cpu
