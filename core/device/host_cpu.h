// Facts about the CPU this process runs on that hwloc does not give: clock rate, SIMD width, and the
// model name when the topology is synthetic.
#pragma once

#include <cstdint>
#include <string>

namespace tessera::core::host_cpu {

uint32_t maxClockMhz();      // 0 when unknown
uint32_t simdWidth32();      // 32-bit lanes of the widest vector unit: 16 (AVX-512), 8, 4
std::string modelName();     // /proc/cpuinfo's "model name", or ""
std::string featureString(); // the vector ISA levels this CPU supports, e.g. "sse4.2 avx2 avx512f"

}  // namespace tessera::core::host_cpu
