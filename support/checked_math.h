// Overflow-checked arithmetic on sizes and counts a client gives (group sizes and counts, __local
// sizes, copy regions): each helper answers false instead of wrapping, so a caller refuses the
// input rather than computing with a wrapped value. Header-only; for every layer.
#pragma once

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <limits>

namespace tessera::support {

// a + b and a * b into `out`; false (and `out` unspecified) when the result does not fit.
template <std::unsigned_integral T>
[[nodiscard]] constexpr bool checkedAdd(T a, T b, T& out) {
  return !__builtin_add_overflow(a, b, &out);
}
template <std::unsigned_integral T>
[[nodiscard]] constexpr bool checkedMul(T a, T b, T& out) {
  return !__builtin_mul_overflow(a, b, &out);
}

// The product of every factor as uint64_t; false when it does not fit.
[[nodiscard]] constexpr bool checkedProduct(std::initializer_list<uint64_t> factors,
                                            uint64_t& out) {
  uint64_t p = 1;
  for (uint64_t f : factors)
    if (!checkedMul(p, f, p)) return false;
  out = p;
  return true;
}

// `value` rounded up to a multiple of `alignment` (a power of two); false when that does not fit.
[[nodiscard]] constexpr bool checkedAlignUp(uint64_t value, uint64_t alignment, uint64_t& out) {
  uint64_t bumped;
  if (!checkedAdd(value, alignment - 1, bumped)) return false;
  out = bumped & ~(alignment - 1);
  return true;
}

// a + b, or the largest value when the sum does not fit (for reports such as a kernel's local
// memory size, where "more than can be represented" is the honest answer).
constexpr uint64_t saturatingAdd(uint64_t a, uint64_t b) {
  uint64_t s;
  return checkedAdd(a, b, s) ? s : std::numeric_limits<uint64_t>::max();
}

}  // namespace tessera::support
