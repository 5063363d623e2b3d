// The copy of a work-group function for one group size (backends/cpu/jit/fixed_group_size.cpp):
// which kernels get one and for which size, and that groups of that size, of other sizes, and the
// partial groups of a non-uniform launch (whose size may equal the copy's while their enqueued size
// does not) all compute what the host computes (tests/kernels_jit/fixed_group_size.cl).
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <vector>

#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

constexpr int kSteps = 5;

// mirrored_sums over width x height work-items in groups of sx x sy, the last group in each
// dimension partial when the size does not divide: compared with the host's sums.
void check(const CompiledKernel& k, uint32_t width, uint32_t height, uint32_t sx, uint32_t sy) {
  INFO(width << " x " << height << " in groups of " << sx << " x " << sy);
  std::vector<float> in(size_t(width) * height * kSteps), out(size_t(width) * height, -1.0f);
  for (size_t j = 0; j < in.size(); ++j) in[j] = float(j % 97) * 0.25f - 7.0f;
  ArgBuffer args(k);
  args.set(0, static_cast<const void*>(in.data()));
  args.set(1, static_cast<void*>(out.data()));
  args.set(2, kSteps);
  args.local(3, uint64_t{sx} * sy * sizeof(float));
  LaunchDims d = dims2((width + sx - 1) / sx, (height + sy - 1) / sy, sx, sy);
  d.workDim = 2;
  d.lastGroupSize = {width % sx, height % sy, 0};
  launch(k, args.data(), d, &pool());
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      // The group's own size: the partial groups' is what is left.
      const uint32_t gx = x / sx, gy = y / sy;
      const uint32_t ox = gx * sx, oy = gy * sy;
      const uint32_t lsx = std::min(sx, width - ox), lsy = std::min(sy, height - oy);
      const uint32_t mx = ox + (lsx - 1 - (x - ox)), my = oy + (lsy - 1 - (y - oy));
      const size_t m = size_t(my) * width + mx;
      float expected = 0.0f;
      for (int s = 0; s < kSteps; ++s) expected += in[m * kSteps + s] * float(s + 1);
      expected += float(gx * 1000 + gy * 100000);
      INFO("work-item " << x << ", " << y);
      REQUIRE(out[size_t(y) * width + x] == Approx(expected).epsilon(1e-6));
    }
}

TEST_CASE(
    "Given a kernel of rows with a barrier in a loop, when it is compiled, then it has a copy for "
    "square groups of one widened row, and groups of that size, of others and partial groups all "
    "compute the host's sums",
    "[jit][fixed_group_size]") {
  const CompiledKernel& k = kernel("fixed_group_size", "mirrored_sums");
  const std::array<uint32_t, 3> size{k.fixedGroupSize[0], k.fixedGroupSize[1], k.fixedGroupSize[2]};
  const uint32_t side = k.widen.width > 1 && k.widen.width <= 16 ? k.widen.width : 16;
  REQUIRE(size == std::array<uint32_t, 3>{side, side, 1});
  CHECK_FALSE(k.fixedGroupSizeRequired);     // a guess: other sizes keep the widened general code
  check(k, 3 * side, 2 * side, side, side);  // the copy's size
  check(k, 3 * side, 2 * side, side / 2, side / 2);  // another
  check(k, 2 * side, 2 * side, side, 4);
  // Non-uniform: full groups of the copy's size, partial ones in x, in y and in both.
  check(k, 2 * side + 5, 2 * side + 3, side, side);
  // Partial groups of exactly the copy's size, whose enqueued size is not: their global ids step
  // by the enqueued size.
  check(k, 3 * side, 2 * side, 2 * side, side);
  check(k, 2 * side, 3 * side, side, 2 * side);
}

TEST_CASE(
    "Given a kernel with a required group size and a barrier in a loop, when it is compiled, "
    "then its copy is for that size and both it and partial groups (the general code, left "
    "scalar) compute the host's sums",
    "[jit][fixed_group_size]") {
  const CompiledKernel& k = kernel("fixed_group_size", "mirrored_sums_8x4");
  REQUIRE(std::array<uint32_t, 3>{k.fixedGroupSize[0], k.fixedGroupSize[1], k.fixedGroupSize[2]} ==
          std::array<uint32_t, 3>{8, 4, 1});
  CHECK(k.fixedGroupSizeRequired);
  check(k, 32, 16, 8, 4);
  // Partial groups in x, in y and in both; groups partial in y have whole rows.
  check(k, 37, 18, 8, 4);
  check(k, 32, 19, 8, 4);
}

TEST_CASE(
    "Given a required group size whose rows the jammed rows do not divide, when it is compiled, "
    "then its copy runs the rows left over one by one and computes the host's sums",
    "[jit][fixed_group_size]") {
  // The copy makes every row's jam check true only where the rows a jam takes divide the group's
  // (fixed_group_size.cpp): here 6 rows are a jam of four and two single rows.
  const CompiledKernel& k = kernel("fixed_group_size", "mirrored_sums_8x6");
  REQUIRE(std::array<uint32_t, 3>{k.fixedGroupSize[0], k.fixedGroupSize[1], k.fixedGroupSize[2]} ==
          std::array<uint32_t, 3>{8, 6, 1});
  check(k, 32, 18, 8, 6);
  check(k, 37, 20, 8, 6);
}

TEST_CASE("Given a kernel whose barrier is not in a loop, then it has no copy",
          "[jit][fixed_group_size]") {
  const CompiledKernel& k = kernel("fixed_group_size", "mirrored_once");
  CHECK(k.fixedGroupSize[0] == 0);
}

TEST_CASE("Given TESSERA_GROUP_COPY=0, then no kernel has a copy", "[jit][fixed_group_size]") {
  CompileOptions options = defaultOptions();
  options.groupCopy = 0;
  auto module = readAndCompile("fixed_group_size", options);
  for (const CompiledKernel& k : module->kernels) CHECK(k.fixedGroupSize[0] == 0);
}

}  // namespace
}  // namespace tessera::backends::cpu::test
