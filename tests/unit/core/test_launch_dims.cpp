// core::LaunchDims, the shape every launch command records: its group and work-item counts, which
// the inline policy and the per-launch cost record read, refuse to wrap; group count limits.
#include <catch2/catch.hpp>

#include <cstdint>

#include "core/command/launch_dims.h"

using tessera::core::groupCountWithin;
using tessera::core::LaunchDims;
using tessera::core::setGroupCount;

TEST_CASE("Given launch shapes, then groups and work-items are their products, or refused when "
          "they do not fit in 64 bits",
          "[launch]") {
  LaunchDims d;
  uint64_t n = 0;
  REQUIRE(d.groups(n));
  CHECK(n == 1);
  REQUIRE(d.items(n));
  CHECK(n == 1);
  setGroupCount(d, {3, 5, 7});
  d.groupSize = {16, 2, 1};
  REQUIRE(d.groups(n));
  CHECK(n == 105);
  REQUIRE(d.items(n));
  CHECK(n == 105 * 32);
  // An indirect launch's counts are the application's: 2^32 - 1 in each dimension, groups of
  // 4,096, are 2^108 work-items.
  setGroupCount(d, {UINT32_MAX, UINT32_MAX, UINT32_MAX});
  d.groupSize = {4096, 1, 1};
  CHECK_FALSE(d.groups(n));
  CHECK_FALSE(d.items(n));
  setGroupCount(d, {UINT32_MAX, UINT32_MAX, 1});
  REQUIRE(d.groups(n));
  CHECK(n == uint64_t(UINT32_MAX) * UINT32_MAX);
  CHECK_FALSE(d.items(n));
  setGroupCount(d, {0, 5, 5});
  REQUIRE(d.items(n));
  CHECK(n == 0);
}

TEST_CASE("Given group counts, then groupCountWithin compares their product without wrapping",
          "[launch]") {
  CHECK(groupCountWithin({1, 1, 1}, 1));
  CHECK_FALSE(groupCountWithin({2, 1, 1}, 1));
  CHECK(groupCountWithin({65536, 65535, 1}, UINT32_MAX));
  CHECK_FALSE(groupCountWithin({65536, 65536, 1}, UINT32_MAX));
  // 2^22 * 2^21 * 2^21 is 2^64, which wraps to 0 in 64 bits.
  CHECK_FALSE(groupCountWithin({1u << 22, 1u << 21, 1u << 21}, UINT32_MAX));
  CHECK(groupCountWithin({0, 7, 7}, 0));
}
