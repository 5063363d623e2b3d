// Non-uniform work-groups (OpenCL 2.0+): launches with a partial last group per dimension
// (LaunchDims::lastGroupSize). The work-item functions, a barrier over __local memory, work-group
// collectives and sub-groups in those groups, against what the OpenCL C spec says each returns.
// Tagged [builtins]: ctest runs them scalar, widened at 16 and at 4 (local sizes that are not
// multiples of those widths), and under guard pages.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <vector>

#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

using Dim3 = std::array<uint32_t, 3>;

// A launch of `global` work-items in groups of `local`: ceil(global / local) groups, the last one
// global % local (0: none partial).
LaunchDims nonUniform(const Dim3& global, const Dim3& local, uint32_t workDim) {
  LaunchDims d;
  d.workDim = workDim;
  for (int i = 0; i < 3; ++i) {
    d.groupSize[i] = local[i];
    d.groupCount[i] = (global[i] + local[i] - 1) / local[i];
    d.lastGroupSize[i] = global[i] % local[i];
  }
  return d;
}

// The size of the group `g` of `count` groups in one dimension.
uint32_t sizeOf(uint32_t g, uint32_t global, uint32_t local) {
  return g + 1 == (global + local - 1) / local && global % local ? global % local : local;
}

TEST_CASE(
    "Given nu_ids, when the range has partial groups, then each work-item sees the OpenCL "
    "C values: its group's own local size, the enqueued size, ids from the enqueued size",
    "[jit][builtins][non_uniform]") {
  const CompiledKernel& k = kernel("non_uniform", "nu_ids");
  struct Shape {
    Dim3 global, local;
    uint32_t dims;
  };
  for (const Shape& s : {Shape{{37, 1, 1}, {16, 1, 1}, 1}, Shape{{7, 1, 1}, {8, 1, 1}, 1},
                         Shape{{21, 10, 1}, {8, 4, 1}, 2}, Shape{{9, 5, 7}, {4, 3, 2}, 3},
                         Shape{{64, 6, 1}, {16, 6, 1}, 2}}) {
    const uint64_t n = uint64_t(s.global[0]) * s.global[1] * s.global[2];
    std::vector<uint64_t> out(16 * n, ~uint64_t{0});
    ArgBuffer args(k);
    args.set(0, static_cast<void*>(out.data()));
    launch(k, args.data(), nonUniform(s.global, s.local, s.dims), pool());
    for (uint32_t z = 0; z < s.global[2]; ++z)
      for (uint32_t y = 0; y < s.global[1]; ++y)
        for (uint32_t x = 0; x < s.global[0]; ++x) {
          const Dim3 gid{x, y, z};
          const uint64_t* o = &out[16 * ((uint64_t(z) * s.global[1] + y) * s.global[0] + x)];
          INFO("global " << s.global[0] << "x" << s.global[1] << "x" << s.global[2] << " local "
                         << s.local[0] << "x" << s.local[1] << "x" << s.local[2] << " item " << x
                         << "," << y << "," << z);
          Dim3 group, lid, size;
          for (int d = 0; d < 3; ++d) {
            group[d] = gid[d] / s.local[d];
            lid[d] = gid[d] % s.local[d];
            size[d] = sizeOf(group[d], s.global[d], s.local[d]);
            REQUIRE(o[d] == gid[d]);
            REQUIRE(o[3 + d] == size[d]);
            REQUIRE(o[6 + d] == s.local[d]);
            REQUIRE(o[9 + d] == (s.global[d] + s.local[d] - 1) / s.local[d]);
          }
          REQUIRE(o[12] == uint64_t(s.global[0]) * 1000000 + s.global[1] * 1000 + s.global[2]);
          REQUIRE(o[13] == (uint64_t(lid[2]) * size[1] + lid[1]) * size[0] + lid[0]);
          REQUIRE(o[14] == group[0] + 100 * group[1] + 10000 * group[2]);
          REQUIRE(o[15] == lid[0] + 100 * lid[1] + 10000 * lid[2]);
        }
  }
}

TEST_CASE(
    "Given nu_mirror, when a partial group meets at a barrier, then __local memory holds "
    "exactly its own work-items' values",
    "[jit][builtins][non_uniform][barrier]") {
  const CompiledKernel& k = kernel("non_uniform", "nu_mirror");
  const Dim3 global{23, 6, 1}, local{8, 4, 1};
  const uint32_t n = global[0] * global[1];
  std::vector<int> x(n), out(n, -1);
  for (uint32_t i = 0; i < n; ++i) x[i] = int(i * 7 + 3);
  ArgBuffer args(k);
  args.set(0, static_cast<const void*>(x.data())).set(1, static_cast<void*>(out.data()));
  args.local(2, sizeof(int) * local[0] * local[1]);
  launch(k, args.data(), nonUniform(global, local, 2), pool());
  for (uint32_t y = 0; y < global[1]; ++y)
    for (uint32_t xx = 0; xx < global[0]; ++xx) {
      const uint32_t gx = xx / local[0], gy = y / local[1];
      const uint32_t sx = sizeOf(gx, global[0], local[0]), sy = sizeOf(gy, global[1], local[1]);
      const uint32_t l = (y % local[1]) * sx + xx % local[0], m = sx * sy - 1 - l;
      const uint32_t my = gy * local[1] + m / sx, mx = gx * local[0] + m % sx;
      INFO("item " << xx << "," << y);
      REQUIRE(out[y * global[0] + xx] == x[my * global[0] + mx]);
    }
}

TEST_CASE(
    "Given nu_collectives, when the last group is partial, then reductions, scans, "
    "broadcasts and votes cover its work-items only",
    "[jit][builtins][non_uniform][collectives][barrier]") {
  const CompiledKernel& k = kernel("non_uniform", "nu_collectives");
  for (uint32_t global : {5u, 19u, 37u, 70u}) {
    const uint32_t local = 16;
    std::vector<int> x(global), out(8 * global, INT_MIN);
    for (uint32_t i = 0; i < global; ++i) x[i] = int((i * 37) % 101) - 45;
    ArgBuffer args(k);
    args.set(0, static_cast<const void*>(x.data())).set(1, static_cast<void*>(out.data()));
    launch(k, args.data(), nonUniform({global, 1, 1}, {local, 1, 1}, 1), pool());
    for (uint32_t g = 0; g * local < global; ++g) {
      const uint32_t size = sizeOf(g, global, local);
      const int* gx = &x[g * local];
      int sum = 0, mn = INT_MAX, mx = INT_MIN;
      bool all = true, any = false;
      for (uint32_t l = 0; l < size; ++l) {
        sum += gx[l], mn = std::min(mn, gx[l]), mx = std::max(mx, gx[l]);
        all = all && gx[l] > -50, any = any || gx[l] > 40;
      }
      int prefix = 0, prefixMax = INT_MIN;
      for (uint32_t l = 0; l < size; ++l) {
        const int* o = &out[8 * (g * local + l)];
        INFO("global " << global << " group " << g << " item " << l);
        REQUIRE(o[0] == sum);
        REQUIRE(o[1] == mn);
        REQUIRE(o[3] == prefixMax);
        REQUIRE(o[7] == prefix);
        prefix += gx[l], prefixMax = std::max(prefixMax, gx[l]);
        REQUIRE(o[2] == prefix);
        REQUIRE(o[4] == gx[size - 1]);
        REQUIRE(o[5] == int(all) + 2 * int(any));
        REQUIRE(o[6] == mx);
      }
    }
  }
}

TEST_CASE(
    "Given nu_subgroups, when a group is partial, then its last sub-group is smaller, the "
    "enqueued sub-group count is the full group's, and ballot bit counts still cover the maximum "
    "sub-group size",
    "[jit][builtins][non_uniform][subgroups]") {
  const CompiledKernel& k = kernel("non_uniform", "nu_subgroups");
  const uint32_t S = k.subgroupSize;
  // Enqueued groups of 3 S + 2 work-items: the full groups have 4 sub-groups, the last of 2; a
  // partial group of S + 3 has 2, the last of 3.
  const uint32_t local = 3 * S + 2, global = 2 * local + S + 3;
  std::vector<uint32_t> out(8 * global, ~0u);
  ArgBuffer args(k);
  args.set(0, static_cast<void*>(out.data()));
  launch(k, args.data(), nonUniform({global, 1, 1}, {local, 1, 1}, 1), pool());
  for (uint32_t i = 0; i < global; ++i) {
    const uint32_t g = i / local, l = i % local, n = sizeOf(g, global, local);
    const uint32_t sg = l / S, count = (n + S - 1) / S;
    const uint32_t sgSize = std::min(S, n - sg * S);
    const uint32_t* o = &out[8 * i];
    INFO("S " << S << " item " << i << " group " << g << " (" << n << " work-items)");
    REQUIRE(o[0] == sgSize);
    REQUIRE(o[1] == count);
    REQUIRE(o[2] == (local + S - 1) / S);
    REQUIRE(o[3] == sg);
    REQUIRE(o[4] == l % S);
    REQUIRE(o[5] == sgSize);
    REQUIRE(o[6] == S);
    REQUIRE(o[7] == S - 1);
  }
}

TEST_CASE("Given a last group size above the group size, when launched, then the launcher refuses",
          "[jit][non_uniform]") {
  const CompiledKernel& k = kernel("non_uniform", "nu_ids");
  std::vector<uint64_t> out(16 * 64);
  ArgBuffer args(k);
  args.set(0, static_cast<void*>(out.data()));
  LaunchDims d = dims1(2, 8);
  d.lastGroupSize[0] = 9;
  REQUIRE_THROWS_AS(launch(k, args.data(), d, pool()), std::invalid_argument);
}

}  // namespace
}  // namespace tessera::backends::cpu::test
