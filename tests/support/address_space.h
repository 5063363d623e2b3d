// Lowering the test process's own address-space limit (RLIMIT_AS), for the exhaustion tests of
// both APIs: a child copy of the test binary sets it on itself, so allocations fail for real.
#pragma once

#include <sys/resource.h>

#include <catch2/catch.hpp>
#include <cstddef>
#include <fstream>
#include <string>

namespace tessera::test {

// The process's mapped address space now (VmSize), in bytes.
inline size_t vmSizeBytes() {
  std::ifstream in("/proc/self/status");
  std::string key;
  while (in >> key) {
    if (key == "VmSize:") {
      size_t kb = 0;
      in >> kb;
      return kb * 1024;
    }
    std::string rest;
    std::getline(in, rest);
  }
  return 0;
}

// Leaves `headroom` bytes of address space beyond what is mapped now.
inline void limitAddressSpace(size_t headroom) {
  rlimit r{};
  getrlimit(RLIMIT_AS, &r);
  r.rlim_cur = vmSizeBytes() + headroom;
  REQUIRE(setrlimit(RLIMIT_AS, &r) == 0);
}

inline void unlimitAddressSpace() {
  rlimit r{};
  getrlimit(RLIMIT_AS, &r);
  r.rlim_cur = r.rlim_max;
  REQUIRE(setrlimit(RLIMIT_AS, &r) == 0);
}

}  // namespace tessera::test
