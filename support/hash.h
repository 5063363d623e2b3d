// Stable, non-cryptographic hashing for identifiers that must not change between runs (uuids,
// the compiler cache's keys).
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace tessera::support {

inline uint64_t fnv1a64(std::string_view text, uint64_t seed = 0xcbf29ce484222325ull) {
  uint64_t h = seed;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

// splitmix64's finalizer: spreads a small difference in the input over every output bit.
inline uint64_t mix64(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// 16 bytes from two differently seeded hashes of `text`, with the RFC 4122 version 8 and variant
// bits set so the value reads as a well-formed uuid.
inline void stableUuid(std::string_view text, uint8_t out[16]) {
  uint64_t a = mix64(fnv1a64(text)), b = mix64(fnv1a64(text, a ^ 0x9e3779b97f4a7c15ull));
  std::memcpy(out, &a, 8);
  std::memcpy(out + 8, &b, 8);
  out[6] = static_cast<uint8_t>((out[6] & 0x0f) | 0x80);
  out[8] = static_cast<uint8_t>((out[8] & 0x3f) | 0x80);
}

}  // namespace tessera::support
