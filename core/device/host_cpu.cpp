#include "core/device/host_cpu.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace tessera::core::host_cpu {
namespace {

std::string cpuinfoField(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size(), key) != 0) continue;
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    size_t start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? "" : line.substr(start);
  }
  return "";
}

}  // namespace

uint32_t maxClockMhz() {
  std::ifstream freq("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  uint64_t khz = 0;
  if (freq >> khz && khz > 0) return static_cast<uint32_t>(khz / 1000);
  std::string mhz = cpuinfoField("cpu MHz");
  return mhz.empty() ? 0 : static_cast<uint32_t>(std::stod(mhz));
}

uint32_t simdWidth32() {
#if defined(__x86_64__) || defined(__i386__)
  if (__builtin_cpu_supports("avx512f")) return 16;
  if (__builtin_cpu_supports("avx")) return 8;
#endif
  return 4;
}

std::string modelName() { return cpuinfoField("model name"); }

std::string featureString() {
  std::string s;
#if defined(__x86_64__) || defined(__i386__)
  // __builtin_cpu_supports takes only string literals.
#define TESSERA_FEATURE(f) \
  if (__builtin_cpu_supports(f)) s += (s.empty() ? "" : " ") + std::string(f);
  TESSERA_FEATURE("sse4.2") TESSERA_FEATURE("avx") TESSERA_FEATURE("avx2") TESSERA_FEATURE("fma")
  TESSERA_FEATURE("avx512f") TESSERA_FEATURE("avx512bw") TESSERA_FEATURE("avx512vl")
#undef TESSERA_FEATURE
#endif
  return s;
}

uint32_t memoryBusWidthBits() {
  constexpr uint32_t kDdrChannelBits = 64;
  uint32_t widest = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/sys/firmware/dmi/entries", ec)) {
    if (entry.path().filename().string().rfind("17-", 0) != 0) continue;  // memory devices
    std::ifstream in(entry.path() / "raw", std::ios::binary);
    std::vector<unsigned char> r((std::istreambuf_iterator<char>(in)), {});
    // Offsets of SMBIOS's Memory Device structure: 0x01 length, 0x0A data width (bits), 0x0C size
    // (0: no device installed, 0xFFFF: unknown). A width of 0xFFFF is unknown.
    if (r.size() < 0x0E || r[1] < 0x0E) continue;
    uint32_t width = r[0x0A] | r[0x0B] << 8, size = r[0x0C] | r[0x0D] << 8;
    if (size == 0 || width == 0 || width == 0xFFFF) continue;
    widest = std::max(widest, width);
  }
  return widest ? widest : kDdrChannelBits;
}

}  // namespace tessera::core::host_cpu
