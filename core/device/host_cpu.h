// Facts about the CPU this process runs on that hwloc does not give: clock rate, SIMD width, the
// memory bus width, and the model name when the topology is synthetic.
#pragma once

#include <cstdint>
#include <string>

namespace tessera::core::host_cpu {

uint32_t maxClockMhz();      // 0 when unknown
uint32_t simdWidth32();      // 32-bit lanes of the widest vector unit: 16 (AVX-512), 8, 4
std::string modelName();     // /proc/cpuinfo's "model name", or ""
std::string featureString(); // the vector ISA levels this CPU supports, e.g. "sse4.2 avx2 avx512f"
// The data width of one memory channel, in bits: the widest installed memory device's "Data Width"
// in the firmware's SMBIOS tables (type 17, /sys/firmware/dmi/entries; hwloc does not give it),
// else 64, the width of a DDR channel.
uint32_t memoryBusWidthBits();

}  // namespace tessera::core::host_cpu
