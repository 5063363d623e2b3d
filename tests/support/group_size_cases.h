// The group sizes the driver chooses when the application leaves it to it, by the one rule of
// core/command/launch_policy.cpp: per dimension from x, the largest divisor of the global size
// within 1,024 work-items in all, or 256 for a kernel with barriers; smaller for ranges too small
// to give every PU four groups. The cases here are large enough (at least 4 x 128 groups at the
// cap) that they do not depend on the device's PU count up to 128; tests/api/ze/test_launch_modes.cpp
// checks the small-range rule against the device's PUs. Both APIs must give these:
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
    {false, {1u << 20, 1, 1}, {1024, 1, 1}},  {false, {786432, 1, 1}, {1024, 1, 1}},
    {false, {600000, 1, 1}, {1000, 1, 1}},    {false, {4099, 1, 1}, {1, 1, 1}},  // a prime
    {false, {1000, 1000, 1}, {1000, 1, 1}},   {false, {100, 100, 100}, {100, 10, 1}},
    {true, {3000, 100, 1}, {250, 1, 1}},      {true, {1u << 20, 1, 1}, {256, 1, 1}},
    {true, {4099, 1, 1}, {1, 1, 1}},          {true, {64, 64, 64}, {64, 4, 1}},
    {true, {16, 16, 1024}, {16, 16, 1}},
};

}  // namespace tessera::test
