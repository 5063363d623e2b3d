// The group sizes the driver chooses when the application leaves it to it, by the one rule of
// core/command/launch_policy.cpp: per dimension from x, the largest divisor of the global size
// within 4,096 work-items in all, or 256 for a kernel with barriers. Both APIs must give these:
// tests/api/ze/test_launch_modes.cpp asks zeKernelSuggestGroupSize and
// zeTesseraKernelSuggestGroupSize, tests/api/cl/test_ndrange.cpp reads get_local_size() of launches
// with a NULL local size (the kernels of tests/kernels/group_size_probe.cl).
#pragma once

#include <cstdint>

namespace tessera::test {

struct GroupSizeCase {
  bool barriers;  // local_size_barrier rather than local_size_plain
  uint32_t global[3];
  uint32_t local[3];  // the chosen size
};

inline constexpr GroupSizeCase kGroupSizeCases[] = {
    {false, {3000, 1, 1}, {3000, 1, 1}},  {false, {1u << 20, 1, 1}, {4096, 1, 1}},
    {false, {4099, 1, 1}, {1, 1, 1}},  // a prime: only 1 divides it
    {false, {1000, 30, 1}, {1000, 3, 1}}, {false, {64, 64, 64}, {64, 64, 1}},
    {true, {3000, 1, 1}, {250, 1, 1}},    {true, {1u << 20, 1, 1}, {256, 1, 1}},
    {true, {4099, 1, 1}, {1, 1, 1}},      {true, {1000, 30, 1}, {250, 1, 1}},
    {true, {64, 64, 64}, {64, 4, 1}},     {true, {16, 16, 1}, {16, 16, 1}},
};

}  // namespace tessera::test
