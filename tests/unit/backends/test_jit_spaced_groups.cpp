// Spaced accesses joined (backends/cpu/jit/spaced_groups.cpp): a work-item's vector read or
// written component by component is, widened, k masked accesses every k-th element apart; after
// O3 those that cover whole vectors together are one plain access. The results must be the
// kernel's, with the data ending at a page boundary (TESSERA_GUARD_PAGES=1 runs these against
// guard pages) and whatever the widening (TESSERA_WIDEN).
#include <catch2/catch.hpp>

#include <cstdint>

#include "aligned_vector.h"
#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

using tessera::test::AlignedVector;

// Whether the kernel's widened code has spaced accesses to join: only on hosts that mask per
// element (AVX-512BW; elsewhere the widening gathers), and only when it widens at all.
bool spaced(const CompiledKernel& k) { return k.widen.stridedStores > 0; }

TEST_CASE("Given three-byte pixels read and written component by component, when the widened "
          "accesses are joined, then red and blue are swapped in every pixel",
          "[jit][spaced_groups]") {
  // Signed and unsigned indices (sign- and zero-extended to the address).
  const char* name = GENERATE("swap_rb", "swap_rb_uint");
  INFO(name);
  const CompiledKernel& k = kernel("spaced_groups", name);
  if (spaced(k)) CHECK(k.joinedSpacedAccesses >= 6);  // three loads, three stores
  for (int width : {64, 40, 13}) {
    const int rows = 5;
    const size_t n = size_t(3) * width * rows;
    AlignedVector<uint8_t> in(n), out(n, 0);
    for (size_t i = 0; i < n; ++i) in[i] = static_cast<uint8_t>(i * 7 + 3);
    ArgBuffer args(k);
    args.set(0, static_cast<const void*>(in.data()));
    args.set(1, static_cast<void*>(out.data()));
    args.set(2, width);
    LaunchDims d = dims2(1, rows, width, 1);  // a group a row
    d.workDim = 2;
    launch(k, args.data(), d, &pool(), nullptr);
    INFO("width " << width);
    for (size_t p = 0; p < n; p += 3) {
      REQUIRE(out[p] == in[p + 2]);
      REQUIRE(out[p + 1] == in[p + 1]);
      REQUIRE(out[p + 2] == in[p]);
    }
  }
}

TEST_CASE("Given float2 values copied into a local tile component by component, when the "
          "widened accesses are joined, then every work-item reads back its neighbours' values",
          "[jit][spaced_groups]") {
  const CompiledKernel& k = kernel("spaced_groups", "tile_pairs");
  if (spaced(k)) CHECK(k.joinedSpacedAccesses > 0);
  const int width = 24, height = 16;  // float2s a row: 3 x 2 groups of 8 x 8
  AlignedVector<float> in(size_t(2) * width * height), out(in.size(), -1.0f);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i) * 0.5f - 11.0f;
  ArgBuffer args(k);
  args.set(0, static_cast<const void*>(in.data()));
  args.set(1, static_cast<void*>(out.data()));
  args.set(2, width);
  LaunchDims d = dims2(width / 8, height / 8, 8, 8);
  d.workDim = 2;
  launch(k, args.data(), d, &pool(), nullptr);
  for (int gy = 0; gy < height; ++gy)
    for (int gx = 0; gx < width; ++gx) {
      const int ly = gy % 8, lx = gx % 8;
      const int i = 2 * (gy * width + gx);
      const int above = 2 * ((gy - ly + 7 - ly) * width + gx);      // (lx, 7 - ly)'s float2
      const int across = 2 * (gy * width + (gx - lx + 7 - lx));     // (7 - lx, ly)'s float2
      INFO("work-item " << gx << ", " << gy);
      REQUIRE(out[i] == in[above + 1]);
      REQUIRE(out[i + 1] == in[across]);
    }
}

TEST_CASE("Given a component read back after the work-item wrote it through another pointer to "
          "the same buffer, when the widened accesses are joined, then the read sees the write",
          "[jit][spaced_groups]") {
  const CompiledKernel& k = kernel("spaced_groups", "pair_through");
  CHECK(k.joinedSpacedAccesses == 0);  // neither pair may move past the other pointer's access
  for (int width : {48, 29}) {
    const int rows = 3;
    AlignedVector<float> buf(size_t(2) * width * rows);
    for (size_t i = 0; i < buf.size(); ++i) buf[i] = float(i % 97) - 40.0f;
    const AlignedVector<float> before = buf;
    ArgBuffer args(k);
    args.set(0, static_cast<const void*>(buf.data()));
    args.set(1, static_cast<void*>(buf.data()));
    args.set(2, width);
    LaunchDims d = dims2(1, rows, width, 1);
    d.workDim = 2;
    launch(k, args.data(), d, &pool(), nullptr);
    INFO("width " << width);
    for (size_t i = 0; i < buf.size(); i += 2) {
      REQUIRE(buf[i + 1] == before[i] * 2.0f);
      REQUIRE(buf[i] == before[i] * 2.0f + 1.0f);
    }
  }
}

}  // namespace
}  // namespace tessera::backends::cpu::test
