// Widening across work-items (backends/cpu/jit/widen.cpp): each kernel of
// tests/kernels_jit/widen.cl compiled widened (8 and 16 work-items per iteration, and the host's
// width) and scalar; both must agree with the host reference, with local sizes that are and are not
// multiples of the width.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <vector>

#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

template <typename T>
void* ptr(std::vector<T>& v) {
  return v.data();
}

const CompiledKernel& widened(const std::string& name, int width) {
  static std::map<int, std::shared_ptr<const CompiledModule>> modules;
  auto& m = modules[width];
  if (!m) {
    CompileOptions options;
    options.widen = width;
    options.prefetch = 1;  // what the tests count does not depend on TESSERA_PREFETCH
    m = readAndCompile("widen", options);
  }
  const CompiledKernel* k = m->find(name);
  REQUIRE(k != nullptr);
  const WidenStats& w = k->widen;
  UNSCOPED_INFO(name << " width " << w.width << ": regions " << w.widenedRegions << ", contiguous "
                     << w.contiguous << ", gathers " << w.gathers << ", scatters " << w.scatters
                     << ", vector gathers " << w.vectorGathers << ", vector scatters "
                     << w.vectorScatters << ", per lane " << w.perLane << ", vector calls "
                     << w.vectorCalls << ", refused: " << w.refused);
  return *k;
}

// Operands for the tiled products' tests (small integers: every sum is exact), and the check of
// c = a * b, n x n.
void productOperands(int n, std::vector<float>& a, std::vector<float>& b) {
  a.resize(n * n);
  b.resize(n * n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = float(i % 7) - 3;
    b[i] = float(i % 5) - 2;
  }
}
void checkProduct(int n, const std::vector<float>& a, const std::vector<float>& b,
                  const std::vector<float>& c) {
  for (int r = 0; r < n; ++r)
    for (int col = 0; col < n; ++col) {
      float want = 0;
      for (int i = 0; i < n; ++i) want += a[r * n + i] * b[i * n + col];
      REQUIRE(c[r * n + col] == want);
    }
}

}  // namespace

TEST_CASE("Given sgemm_naive, when widened, then its uniform k loop runs 8 or 16 columns at once",
          "[jit][widen]") {
  const int n = 40;
  std::vector<float> a(n * n), b(n * n), ref(n * n);
  for (int i = 0; i < n * n; ++i) a[i] = float(i % 7) - 3, b[i] = float(i % 5) * 0.5f;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      float acc = 0;
      for (int k = 0; k < n; ++k) acc += a[r * n + k] * b[k * n + c];
      ref[r * n + c] = acc;
    }
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = widened("sgemm_naive", width);
    if (width == 0) {
      CHECK(k.widen.width == 0);
      CHECK(k.widen.widenedRegions == 0);
    } else {
      CHECK(k.widen.width == uint32_t(width));
      CHECK(k.widen.widenedRegions == 1);
      CHECK(k.widen.contiguous == 2);  // B's load, C's store; A's load is uniform and stays scalar
      CHECK(k.widen.gathers == 0);
      CHECK(k.widen.scatters == 0);
    }
    // Local size 20 leaves a remainder of 4 for both widths, 40 = 2 x 16 + 8 = 5 x 8, 5 is all
    // remainder.
    for (uint32_t sx : {20u, 40u, 8u, 5u}) {
      INFO("width " << width << " local size " << sx);
      std::vector<float> c(n * n, -1);
      ArgBuffer args(k);
      args.set(0, ptr(a)).set(1, ptr(b)).set(2, ptr(c)).set(3, n);
      launch(k, args.data(), dims2(n / sx, n / 2, sx, 2), pool());
      for (int i = 0; i < n * n; ++i) REQUIRE(c[i] == ref[i]);
    }
  }
}

TEST_CASE(
    "Given strided, when widened, then strided loads gather (or load per lane) and the "
    "indirect store scatters",
    "[jit][widen]") {
  const uint32_t n = 36 * 3;
  std::vector<float> in(3 * n + 3);
  std::vector<int> perm(n);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = float(i) * 0.25f;
  for (uint32_t i = 0; i < n; ++i) perm[i] = int((i * 37) % n);
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = widened("strided", width);
    if (width) {
      CHECK(k.widen.widenedRegions == 1);
      // in[3i+1]: a gather, or on a host whose gathers are slow (no "fast-gather" tuning: AMD's)
      // a load per lane at 12-byte steps.
      CHECK(k.widen.gathers + k.widen.stridedLoads == 1);
      CHECK(k.widen.scatters == 1);    // out[perm[i]]
      CHECK(k.widen.contiguous == 1);  // perm[i]
      CHECK(k.widen.perLane == 0);     // groups[...] = uniform: one scalar store
    }
    std::vector<float> out(n, -1);
    std::vector<int> groups(3, 0);
    ArgBuffer args(k);
    args.set(0, ptr(in)).set(1, ptr(perm)).set(2, ptr(out)).set(3, ptr(groups));
    launch(k, args.data(), dims1(3, 36), pool());  // 36 = 32 + 4 (width 8, 16): a remainder
    for (uint32_t i = 0; i < n; ++i) REQUIRE(out[perm[i]] == in[3 * i + 1] * 2.0f + 36.0f);
    for (int g : groups) CHECK(g == 3036);
  }
}

TEST_CASE("Given guarded, when its guard is varying, then the guarded store is masked per lane",
          "[jit][widen]") {
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = widened("guarded", width);
    if (width) {
      CHECK(k.widen.widenedRegions == 1);
      CHECK(k.widen.predicatedBranches == 1);
      CHECK(k.widen.checkedBranches == 0);
      CHECK(k.widen.contiguous == 1);
    }
    for (uint32_t n : {50u, 64u, 0u, 3u}) {
      INFO("width " << width << " n " << n);
      std::vector<float> out(72, -1);
      ArgBuffer args(k);
      args.set(0, ptr(out)).set(1, n);
      launch(k, args.data(), dims1(2, 36), pool());
      for (uint32_t i = 0; i < 72; ++i) REQUIRE(out[i] == (i < n ? float(i) * 0.5f : -1.0f));
    }
  }
}

TEST_CASE(
    "Given guarded_uniform, when a varying guard surrounds uniform branches of its own, "
    "then the guarded code is masked as a whole and matches the host",
    "[jit][widen]") {
  std::vector<float> in(72);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = float(i) * 0.25f;
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = widened("guarded_uniform", width);
    if (width) {
      CHECK(k.widen.widenedRegions == 1);
      CHECK(k.widen.predicatedBranches == 1);
      CHECK(k.widen.checkedBranches == 0);
    }
    for (float beta : {0.0f, 0.5f})
      for (uint32_t n : {50u, 64u, 0u, 3u}) {
        INFO("width " << width << " n " << n << " beta " << beta);
        std::vector<float> out(72);
        for (uint32_t i = 0; i < 72; ++i) out[i] = float(i % 5);
        std::vector<int> counter(1, 0);
        ArgBuffer args(k);
        args.set(0, ptr(in)).set(1, ptr(out)).set(2, ptr(counter)).set(3, n).set(4, beta);
        launch(k, args.data(), dims1(2, 36), pool());
        CHECK(counter[0] == 72);
        for (uint32_t i = 0; i < 72; ++i) {
          float old = float(i % 5);
          REQUIRE(out[i] == (i < n ? in[i] * 2.0f + beta * old : old));
        }
      }
  }
}

TEST_CASE(
    "Given after_effect, when a varying branch that cannot be masked follows an atomic, "
    "then widening refuses and the scalar loop runs it",
    "[jit][widen]") {
  const CompiledKernel& k = widened("after_effect", 8);
  CHECK(k.widen.widenedRegions == 0);
  CHECK(k.widen.refused.find("divergent branch after a side effect") != std::string::npos);
  std::vector<float> out(64, -1);
  std::vector<int> counter(2, 0);
  ArgBuffer args(k);
  args.set(0, ptr(out)).set(1, ptr(counter)).set(2, 50u);
  launch(k, args.data(), dims1(2, 32), pool());
  CHECK(counter[0] == 64);
  CHECK(counter[1] == 50);
  for (uint32_t i = 0; i < 64; ++i) REQUIRE(out[i] == (i < 50 ? float(i) * 0.5f : -1.0f));
}

TEST_CASE(
    "Given edge_path, when a refused part follows a varying branch before any store, then "
    "that part is cut off: full chunks run widened, the others scalar",
    "[jit][widen]") {
  for (int width : {8, 16}) {
    const CompiledKernel& k = widened("edge_path", width);
    INFO("width " << width);
    CHECK(k.widen.widenedRegions == 1);
    CHECK(k.widen.cutPaths == 1);
    std::vector<float> in(96), out(96, -1);
    for (uint32_t i = 0; i < 96; ++i) in[i] = float(i % 9) + 0.25f;
    // 40 full: the chunks below 40 are widened, the one across 40 has lanes on both paths.
    ArgBuffer args(k);
    args.set(0, ptr(in)).set(1, ptr(out)).set(2, 40u);
    launch(k, args.data(), dims1(3, 32), pool());
    for (uint32_t i = 0; i < 96; ++i) {
      float expect = in[i] * 2.0f;
      if (i >= 40) {
        expect = 0.0f;
        for (uint32_t j = 40; j <= i; ++j) expect += in[j];
      }
      REQUIRE(out[i] == expect);
    }
  }
}

TEST_CASE(
    "Given masked_far, when lanes that skip a masked block have addresses far outside the "
    "buffer, then none of them is read and the others' results are right",
    "[jit][widen]") {
  for (int width : {8, 16}) {
    const CompiledKernel& k = widened("masked_far", width);
    CHECK(k.widen.widenedRegions == 1);
    CHECK(k.widen.predicatedBranches == 1);
    INFO("width " << width);
    std::vector<float> in(64), out(64, -1);
    for (uint32_t i = 0; i < 64; ++i) in[i] = float(i) + 0.5f;
    std::vector<int> counter(1, 0);
    ArgBuffer args(k);
    args.set(0, ptr(in)).set(1, ptr(out)).set(2, ptr(counter));
    launch(k, args.data(), dims1(2, 32), pool());  // a read of a skipped lane's address faults
    CHECK(counter[0] == 64);
    for (uint32_t i = 0; i < 64; ++i) REQUIRE(out[i] == (i & 1 ? in[i] * 2 : -1.0f));
  }
}

TEST_CASE("Given grid_stride, when lanes run equal or unequal trip counts, then sums match",
          "[jit][widen]") {
  std::vector<float> in(1000);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = float(i % 13) * 0.5f;
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = widened("grid_stride", width);
    if (width) {
      CHECK(k.widen.widenedRegions == 1);
      // i starts at the lanes' ids and steps by a uniform amount: the lanes stay consecutive, so
      // in[i] is a vector load, not a gather (jit/widen.cpp, phiStride).
      CHECK(k.widen.contiguous == 2);
      CHECK(k.widen.gathers == 0);
    }
    // Global size 64: n = 640 gives every lane 10 iterations; n = 1000 gives 15 or 16; 20 leaves
    // most lanes without any.
    for (uint32_t n : {640u, 1000u, 20u}) {
      INFO("width " << width << " n " << n);
      std::vector<float> out(64, -1);
      ArgBuffer args(k);
      args.set(0, ptr(in)).set(1, ptr(out)).set(2, n);
      launch(k, args.data(), dims1(2, 32), pool());
      for (uint32_t g = 0; g < 64; ++g) {
        float sum = 0;
        for (uint32_t i = g; i < n; i += 64) sum += in[i];
        REQUIRE(out[g] == sum);
      }
    }
  }
}

TEST_CASE(
    "Given lanes, when widened, then atomics run per lane and the results match the "
    "scalar loop within the math bounds",
    "[jit][widen]") {
  const uint32_t n = 2 * 44;
  std::vector<float> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = 0.1f * float(i);
  std::vector<float> scalar;
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = widened("lanes", width);
    if (width) {
      CHECK(k.widen.widenedRegions == 1);
      CHECK(k.widen.perLane >= 1);      // atomic_inc
      CHECK(k.widen.vectorCalls >= 2);  // sqrt, sin, fmuladd, fabs
    }
    std::vector<float> out(n, -1);
    std::vector<int> counter(1, 0);
    ArgBuffer args(k);
    args.set(0, ptr(in)).set(1, ptr(out)).set(2, ptr(counter)).set(3, 5);
    launch(k, args.data(), dims1(2, 44), pool());
    CHECK(counter[0] == int(n));
    if (width == 0) {
      scalar = out;
      for (uint32_t i = 0; i < n; ++i) {
        float x = in[i], s = 0;
        for (int j = 0; j < 5; ++j) s = s * 0.5f + std::sqrt(x + float(j)) + std::sin(x * float(j));
        REQUIRE(out[i] == Approx(s + std::fabs(x)).epsilon(1e-5));
      }
    } else {
      // Widened, sin runs as libmvec's vector sin (vector_math.cpp), scalar as libm's sinf: each
      // within OpenCL's 4 ulp, not always the same bits.
      for (uint32_t i = 0; i < n; ++i) REQUIRE(out[i] == Approx(scalar[i]).epsilon(4e-6));
    }
  }
}

TEST_CASE("Given local2d, when widened in 2D with a private array, then linear ids are per lane",
          "[jit][widen]") {
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = widened("local2d", width);
    if (width) CHECK(k.widen.widenedRegions == 1);
    for (uint32_t sx : {16u, 24u, 5u}) {
      INFO("width " << width << " local size " << sx);
      const uint32_t gx = 2, gy = 2, sy = 3;
      std::vector<int> out(gx * sx * gy * sy, -1);
      ArgBuffer args(k);
      args.set(0, ptr(out)).set(1, 7);
      launch(k, args.data(), dims2(gx, gy, sx, sy), pool());
      for (uint32_t y = 0; y < gy * sy; ++y)
        for (uint32_t x = 0; x < gx * sx; ++x) {
          int linear = int((y % sy) * sx + x % sx);
          REQUIRE(out[y * gx * sx + x] == linear * 6 + 28 + int(y % sy));
        }
    }
  }
}

// Runs `regions` (or regions_reqd) on `groups` groups of `sx` work-items against the host.
void checkRegions(const CompiledKernel& k, uint32_t sx, uint32_t groups) {
  std::vector<float> in(groups * sx), out(groups * sx, -1);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = float(i) + 0.5f;
  ArgBuffer args(k);
  args.set(0, ptr(in)).set(1, ptr(out)).local(2, sx * sizeof(float));
  launch(k, args.data(), dims1(groups, sx), pool());
  for (uint32_t i = 0; i < in.size(); ++i) {
    uint32_t g = i / sx, l = i % sx;
    REQUIRE(out[i] == in[g * sx + (sx - 1 - l)] * 3.0f + in[i] * 3.0f);
  }
}

TEST_CASE("Given regions, when a kernel has a barrier, then each region widens on its own",
          "[jit][widen]") {
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = widened("regions", width);
    if (width) CHECK(k.widen.widenedRegions == 2);
    for (uint32_t sx : {32u, 36u, 7u}) {
      INFO("width " << width << " local size " << sx);
      checkRegions(k, sx, 3);
    }
  }
}

TEST_CASE(
    "Given a required work-group size that the width divides, when the kernel is widened, "
    "then it has no half-width level and a partial group still runs right",
    "[jit][widen]") {
  for (int width : {8, 16}) {
    INFO("width " << width);
    CHECK(widened("regions", width).widen.halfWidth == uint32_t(width / 2));
    const CompiledKernel& k = widened("regions_reqd", width);
    CHECK(k.widen.widenedRegions == 2);
    CHECK(k.widen.halfWidth == 0);
    // 64: whole groups; the others are what the last group of a non-uniform range has (the
    // scalar loop runs what the width leaves).
    for (uint32_t sx : {64u, 61u, 13u, 3u}) {
      INFO("local size " << sx);
      checkRegions(k, sx, 2);
    }
  }
}

TEST_CASE("Given the host, when widening is left to the JIT, then it picks 8 or 16 work-items",
          "[jit][widen]") {
  const CompiledKernel& k = widened("sgemm_naive", 1);
  CHECK((k.widen.width == 8 || k.widen.width == 16 || k.widen.width == 4));
}

// Runs rows_jam (or rows_jam_reqd8) on 2 x 3 groups of sx x sy work-items against the host.
void checkRowsJam(const CompiledKernel& k, int sx, int sy) {
  const int gx = 2, gy = 3;  // groups
  const int w = gx * sx, h = gy * sy;
  std::vector<float> in(w * h), out(w * h, -1), ref(w * h);
  for (int i = 0; i < w * h; ++i) in[i] = float(i % 13) - 6;
  for (int n : {1, 3}) {
    // The host: the same three phases over each group's tile.
    for (int g = 0; g < gx * gy; ++g) {
      const int ox = (g % gx) * sx, oy = (g / gx) * sy;
      std::vector<float> own(sx * sy), s(sx * sy), tile(sx * sy);
      for (int y = 0; y < sy; ++y)
        for (int x = 0; x < sx; ++x)
          tile[y * sx + x] = own[y * sx + x] = in[(oy + y) * w + ox + x] * float(y + 1);
      for (int y = 0; y < sy; ++y)
        for (int x = 0; x < sx; ++x) {
          float v = tile[y * sx + x] + 2.0f * tile[(y + 1) % sy * sx + x] +
                    3.0f * tile[(y + 2) % sy * sx + x];
          s[y * sx + x] = n > 2 ? v + own[y * sx + x] : v - own[y * sx + x];
        }
      for (int y = 0; y < sy; y += 2)
        for (int x = 0; x < sx; ++x) tile[y * sx + x] = s[y * sx + x];
      for (int y = 0; y < sy; ++y)
        for (int x = 0; x < sx; ++x)
          ref[(oy + y) * w + ox + x] = tile[(y + 1) % sy * sx + x] + s[y * sx + x];
    }
    ArgBuffer args(k);
    args.set(0, ptr(in)).set(1, ptr(out)).set(2, n);
    launch(k, args.data(), dims2(gx, gy, sx, sy), pool());
    INFO("group " << sx << "x" << sy << ", n " << n);
    for (int i = 0; i < w * h; ++i) REQUIRE(out[i] == ref[i]);
  }
}

TEST_CASE(
    "Given rows_jam, when a group's rows are one widened chunk, then regions whose branches "
    "are the same in every row run four rows at once and agree with the host",
    "[jit][widen][rows]") {
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = widened("rows_jam", width);
    // Regions 0, 1 and 3 (region 2 branches on the row); none without the widening.
    CHECK(k.widen.jammedRegions == (width == 0 ? 0u : 3u));
    // Rows of one chunk (jammed: all rows, or four then the rest row by row), of two chunks and of
    // a chunk and a half (row by row).
    for (auto [sx, sy] :
         {std::pair{width ? width : 16, 8}, {width ? width : 16, 6}, {16, 5}, {12, 7}}) {
      INFO("width " << width);
      checkRowsJam(k, sx, sy);
    }
  }
  // TESSERA_ROW_JAM=0: row by row.
  CompileOptions options;
  options.widen = 16;
  options.rowJam = 0;
  CHECK(readAndCompile("widen", options)->find("rows_jam")->widen.jammedRegions == 0);
}

TEST_CASE(
    "Given rows_jam_counter, whose loop counter crosses its barriers in a group-uniform slot, when "
    "its rows are jammed, then they agree with the host",
    "[jit][widen][rows]") {
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = widened("rows_jam_counter", width);
    if (width != 0) CHECK(k.widen.jammedRegions > 0);
    for (auto [sx, sy] : {std::pair{width ? width : 16, 8}, {width ? width : 16, 6}, {12, 7}}) {
      const int gx = 2, gy = 3, w = gx * sx, h = gy * sy, n = 5;
      std::vector<float> in(w * h + 3 * n), out(w * h, -1), ref(w * h);
      for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 13) - 6;
      for (int g = 0; g < gx * gy; ++g) {
        const int ox = (g % gx) * sx, oy = (g / gx) * sy;
        std::vector<float> acc(sx * sy, 0.0f), tile(sx * sy);
        for (int t = 0; t < n; ++t) {
          for (int y = 0; y < sy; ++y)
            for (int x = 0; x < sx; ++x)
              tile[y * sx + x] = in[(oy + y) * w + ox + x + t * 3] + in[y];
          for (int y = 0; y < sy; ++y)
            for (int x = 0; x < sx; ++x)
              acc[y * sx + x] += tile[(y + t) % sy * sx + (x + t) % sx] * float(t + 1);
        }
        for (int y = 0; y < sy; ++y)
          for (int x = 0; x < sx; ++x) ref[(oy + y) * w + ox + x] = acc[y * sx + x];
      }
      ArgBuffer args(k);
      args.set(0, ptr(in)).set(1, ptr(out)).set(2, n);
      launch(k, args.data(), dims2(gx, gy, sx, sy), pool());
      INFO("width " << width << ", group " << sx << "x" << sy);
      for (int i = 0; i < w * h; ++i) REQUIRE(out[i] == ref[i]);
    }
  }
}

TEST_CASE(
    "Given a loop whose trip count is the same in every row, when widened, then rows are jammed "
    "through it, a loop whose trip count depends on the row is not, and both agree with the host",
    "[jit][widen][rows]") {
  for (int width : {0, 16}) {
    const CompiledKernel& same = widened("rows_jam_loop", width);
    const CompiledKernel& byRow = widened("rows_loop_by_row", width);
    CHECK(same.widen.jammedRegions == (width == 0 ? 0u : 1u));
    CHECK(byRow.widen.jammedRegions == 0);
    const int n = 5;
    for (auto [sx, sy] : {std::pair{16, 8}, {16, 6}, {12, 7}}) {
      const int gx = 2, gy = 3, w = gx * sx, h = gy * sy;
      std::vector<float> in(w * (h + n));
      for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 17) - 8;
      for (const CompiledKernel* k : {&same, &byRow}) {
        std::vector<float> out(w * h, -1);
        ArgBuffer args(*k);
        args.set(0, ptr(in)).set(1, ptr(out)).set(2, n);
        launch(*k, args.data(), dims2(gx, gy, sx, sy), pool());
        INFO("width " << width << ", group " << sx << "x" << sy << ", by row " << (k == &byRow));
        for (int y = 0; y < h; ++y)
          for (int x = 0; x < w; ++x) {
            float acc = 0;
            const int trips = k == &byRow ? n - y % 3 : n;
            for (int t = 0; t < trips; ++t) acc = std::fma(in[(y + t) * w + x], float(t + 1), acc);
            REQUIRE(out[y * w + x] == acc);
          }
      }
    }
  }
}

TEST_CASE(
    "Given a required size of 8 x 8, when the width is 16, then only the 8-wide level is "
    "built, its rows are jammed, and whole and partial groups agree with the host",
    "[jit][widen][rows]") {
  const CompiledKernel& at16 = widened("rows_jam_reqd8", 16);
  CHECK(at16.widen.width == 8);
  CHECK(at16.widen.halfWidth == 0);
  CHECK(at16.widen.widenedRegions == 4);
  // A row is one chunk of the 8-wide level (CLBlast's Xgemm, 8 x 16 groups, on AVX-512).
  CHECK(at16.widen.jammedRegions == 3);
  // At 8 a row is one chunk: jammed as rows_jam is.
  const CompiledKernel& at8 = widened("rows_jam_reqd8", 8);
  CHECK(at8.widen.width == 8);
  CHECK(at8.widen.jammedRegions == 3);
  // 8 x 8: whole groups; 5 x 8 and 8 x 3: what the last group of a non-uniform range has.
  for (const CompiledKernel* k : {&at16, &at8})
    for (auto [sx, sy] : {std::pair{8, 8}, {5, 8}, {8, 3}}) {
      INFO("width " << k->widen.width << ", jammed " << k->widen.jammedRegions);
      checkRowsJam(*k, sx, sy);
    }
}
}  // namespace tessera::backends::cpu::test

namespace tessera::backends::cpu::test {

TEST_CASE(
    "Given the JIT's own plan, when a region has a loop, then a level of four times the "
    "width runs first and every level agrees with the host",
    "[jit][widen]") {
  std::vector<float> in(4000);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = float(i % 13) * 0.5f;
  const CompiledKernel& k = widened("grid_stride", 1);
  REQUIRE(k.widen.width >= 8);
  CHECK(k.widen.loopWidth == 4 * k.widen.width);
  CHECK(k.widen.gathers == 0);
  // Local sizes that run the 4 x VF level only, it and the VF level, it, VF/2 and the scalar
  // loop, and none of it (smaller than 4 x VF).
  const uint32_t w = k.widen.width;
  for (uint32_t local : {4 * w, 4 * w + w, 4 * w + w / 2 + 3, 2 * w + 1}) {
    for (uint32_t n : {local * 3 * 5, local * 3 * 5 + 7}) {
      INFO("local " << local << " n " << n);
      std::vector<float> out(local * 3, -1);
      ArgBuffer args(k);
      args.set(0, ptr(in)).set(1, ptr(out)).set(2, n);
      launch(k, args.data(), dims1(3, local), pool());
      for (uint32_t g = 0; g < local * 3; ++g) {
        float sum = 0;
        for (uint32_t i = g; i < n; i += local * 3) sum += in[i];
        REQUIRE(out[g] == sum);
      }
    }
  }
  // A region without a loop gets no such level.
  CHECK(widened("guarded", 1).widen.loopWidth == 0);
}

TEST_CASE(
    "Given drifting, when a loop variable's lanes do not keep their stride, then its load "
    "gathers and sums match",
    "[jit][widen]") {
  std::vector<float> in(64 * 5);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = float(i % 11) + 0.25f;
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = widened("drifting", width);
    if (width) {
      CHECK(k.widen.widenedRegions == 1);
      CHECK(k.widen.gathers == 1);     // in[i]: i = gid * (k + 1)
      CHECK(k.widen.contiguous == 1);  // out[gid]
    }
    INFO("width " << width);
    std::vector<float> out(64, -1);
    ArgBuffer args(k);
    args.set(0, ptr(in)).set(1, ptr(out)).set(2, 4u);
    launch(k, args.data(), dims1(2, 32), pool());
    for (uint32_t g = 0; g < 64; ++g) {
      float sum = 0;
      for (uint32_t s = 1; s <= 4; ++s) sum += in[g * s];
      REQUIRE(out[g] == sum);
    }
  }
}

TEST_CASE(
    "Given reduce, when widened, then the grid-stride and halving regions agree with the "
    "host",
    "[jit][widen]") {
  std::vector<float> in(4096 + 100);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = float(i % 17);
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = widened("reduce", width);
    // The grid-stride region keeps lid and the scratch pointer in their slots before its varying
    // loop branch: slot stores whose values the region itself reloads do not stop it widening
    // (n = 4196 makes its lanes disagree, so the bail to the scalar loop runs too).
    // The halving's `if (lid < s)` and the final `if (lid == 0)` are masked blocks, so every
    // region widens (the loop counter's slot is stored before them: a run-time check could not
    // fall back to the scalar loop there).
    if (width) {
      CHECK(k.widen.widenedRegions == 3);
      CHECK(k.widen.predicatedBranches >= 2);
    }
    CHECK(k.prefetches == 0);  // the grid-stride loop has no barrier; the halving reads __local
    for (uint32_t n : {4096u, 4196u}) {
      INFO("width " << width << " n " << n);
      std::vector<float> out(4, -1);
      ArgBuffer args(k);
      args.set(0, ptr(in)).set(1, ptr(out)).local(2, 64 * sizeof(float)).set(3, n);
      launch(k, args.data(), dims1(4, 64), pool());
      for (uint32_t g = 0; g < 4; ++g) {
        std::vector<float> s(64, 0);
        for (uint32_t l = 0; l < 64; ++l)
          for (uint32_t i = g * 64 + l; i < n; i += 256) s[l] += in[i];
        for (uint32_t h = 32; h > 0; h >>= 1)
          for (uint32_t l = 0; l < h; ++l) s[l] += s[l + h];
        REQUIRE(out[g] == s[0]);
      }
    }
  }
}

}  // namespace tessera::backends::cpu::test

namespace tessera::backends::cpu::test {

TEST_CASE(
    "Given vec_ops, when OpenCL vector values are widened lane-major, then every element "
    "agrees with the scalar loop",
    "[jit][widen]") {
  const uint32_t n = 96;  // local size 48: a VF level, a VF/2 level and the scalar rest
  std::vector<float> in(4 * n);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = float((i * 7) % 23) * 0.25f - 2.0f;
  std::vector<float> ref;
  std::vector<int> refFlags;
  for (int width : {0, 8, 16, 1}) {
    const CompiledKernel& k = widened("vec_ops", width);
    INFO("width " << width);
    if (width) {
      CHECK(k.widen.widenedRegions == 1);
      CHECK(k.widen.gathers == 0);
      CHECK(k.widen.perLane == 0);
      CHECK(k.widen.contiguous == 3);  // in[i], out[i], flags[i]
    }
    std::vector<float> out(4 * n, -1);
    std::vector<int> flags(2 * n, 0);
    ArgBuffer args(k);
    args.set(0, ptr(in)).set(1, ptr(out)).set(2, ptr(flags)).set(3, 3);
    launch(k, args.data(), dims1(2, n / 2), pool());
    if (width == 0) {
      // The scalar loop against the host (mad may fuse or not: a tolerance), then it is the
      // reference the widened runs must match exactly.
      for (uint32_t i = 0; i < n; ++i) {
        const float* v = &in[4 * i];
        float acc[4], base[4] = {0.5f, 1.0f, 1.5f, 2.0f};
        for (int c = 0; c < 4; ++c) acc[c] = base[c] * float(i % 5);
        for (int it = 0; it < 3; ++it)
          for (int c = 0; c < 4; ++c) acc[c] = acc[c] * 0.9f + v[3 - c];
        float sx = acc[0], sy = v[0] + float(i);
        float add[4] = {sy, sx, sx * 2.0f, float(acc[0] > v[0] ? 1 : 0)};
        for (int c = 0; c < 4; ++c) {
          float want = (acc[c] > v[c] ? acc[c] : v[c]) + add[c];
          REQUIRE(out[4 * i + c] == Approx(want).epsilon(1e-4).margin(1e-4));
        }
      }
      ref = out, refFlags = flags;
      continue;
    }
    for (uint32_t i = 0; i < 4 * n; ++i) REQUIRE(out[i] == ref[i]);
    for (uint32_t i = 0; i < 2 * n; ++i) REQUIRE(flags[i] == refFlags[i]);
  }
}

TEST_CASE(
    "Given vec_masked, when vector values meet predicated blocks, then stores are masked "
    "per lane and the join picks each lane's vector",
    "[jit][widen]") {
  const uint32_t n = 80;
  std::vector<float> in(4 * n);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = float(i) * 0.5f;
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = widened("vec_masked", width);
    INFO("width " << width);
    if (width) {
      CHECK(k.widen.widenedRegions == 1);
      CHECK(k.widen.predicatedBranches == 2);
    }
    std::vector<float> out(4 * n, -1), odd(4 * n, -1), flip(n, -1);
    ArgBuffer args(k);
    args.set(0, ptr(in)).set(1, ptr(out)).set(2, ptr(odd)).set(3, ptr(flip)).set(4, 3.0f);
    launch(k, args.data(), dims1(2, n / 2), pool());
    for (uint32_t i = 0; i < n; ++i) {
      REQUIRE(flip[i] == (i & 1 ? in[4 * i + 3] * 2.0f : -1.0f));
      for (uint32_t c = 0; c < 4; ++c) {
        float v = i & 1 ? in[4 * i + 3 - c] * 2.0f : in[4 * i + c];
        REQUIRE(out[4 * i + c] == (i & 2 ? v : v * 3.0f));
        REQUIRE(odd[4 * i + c] == (i % 3 == 0 ? v + 1.0f : -1.0f));
      }
    }
  }
}

TEST_CASE(
    "Given loop_gather, when a loop's widened accesses include gathers, then it has no 4 x "
    "VF level and agrees with the host",
    "[jit][widen]") {
  const CompiledKernel& k = widened("loop_gather", 1);
  REQUIRE(k.widen.width >= 8);
  CHECK(k.widen.widenedRegions == 1);
  CHECK(k.widen.contiguous > 0);
  CHECK(k.widen.gathers + k.widen.stridedLoads > 0);
  CHECK(k.widen.loopWidth == 0);
  // A group that a 4 x VF level would have run, then the VF, VF/2 and scalar levels.
  const uint32_t local = 4 * k.widen.width + k.widen.width + k.widen.width / 2 + 3, n = 2 * local;
  std::vector<float> a(n * n), b(n * n), out(n, -1);
  for (uint32_t i = 0; i < n * n; ++i) {
    a[i] = float(i % 7) - 3;
    b[i] = float(i % 5) * 0.5f;
  }
  ArgBuffer args(k);
  args.set(0, ptr(a)).set(1, ptr(b)).set(2, ptr(out)).set(3, int(n));
  launch(k, args.data(), dims1(2, local), pool());
  for (uint32_t i = 0; i < n; ++i) {
    float s = 0.0f;
    for (uint32_t j = 0; j < n; ++j) s += a[j * n + i] * b[i * n + j];
    INFO("work-item " << i);
    REQUIRE(out[i] == Approx(s));
  }
}

TEST_CASE(
    "Given vec16_loop, when the plan's widest level would hold too much, then a narrower "
    "level widens the region and the results match the scalar loop",
    "[jit][widen]") {
  const uint32_t n = 128;
  // float16 buffers are 64-byte aligned, as OpenCL requires of a float16 pointer.
  struct Free {
    void operator()(float* p) const { std::free(p); }
  };
  auto buffer = [](size_t floats) {
    return std::unique_ptr<float[], Free>(
        static_cast<float*>(std::aligned_alloc(64, floats * sizeof(float))));
  };
  auto in = buffer(16 * n);
  for (uint32_t i = 0; i < 16 * n; ++i) in[i] = float(i % 9) * 0.0625f;
  std::vector<float> ref;
  for (int width : {0, 1}) {
    const CompiledKernel& k = widened("vec16_loop", width);
    auto out = buffer(16 * n);
    std::fill(out.get(), out.get() + 16 * n, -1.0f);
    ArgBuffer args(k);
    args.set(0, in.get()).set(1, out.get()).set(2, 4);
    launch(k, args.data(), dims1(2, n / 2), pool());
    if (width == 0) {
      ref.assign(out.get(), out.get() + 16 * n);
      continue;
    }
    CHECK(k.widen.widenedRegions == 1);
    CHECK(k.widen.loopWidth == 0);
    CHECK(k.widen.refused.find("too wide") != std::string::npos);
    for (uint32_t i = 0; i < 16 * n; ++i) REQUIRE(out[i] == ref[i]);
  }
}

TEST_CASE(
    "Given copy4, when float4s are copied, then the widening loads and stores the lanes' "
    "vectors contiguously",
    "[jit][widen]") {
  const CompiledKernel& copy = widened("copy4", 8);
  CHECK(copy.widen.widenedRegions == 1);
  CHECK(copy.widen.contiguous == 2);
  std::vector<float> in(4 * 64), out(4 * 64, -1);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = float(i);
  ArgBuffer args(copy);
  args.set(0, ptr(in)).set(1, ptr(out));
  launch(copy, args.data(), dims1(2, 32), pool());
  CHECK(out == in);
}

TEST_CASE(
    "Given vec_strided, when float4s and float2s lie two or three vectors apart, then each "
    "lane's vector is loaded and stored at its own address and the results match the host",
    "[jit][widen]") {
  const uint32_t n = 80;  // two groups of 40: the VF level, the VF/2 level (width 16) and the rest
  std::vector<float> in(4 * (3 * n + 3)), in2(2 * 3 * n);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = float((i * 7) % 29) * 0.5f - 3.0f;
  for (uint32_t i = 0; i < in2.size(); ++i) in2[i] = float((i * 5) % 17) * 0.25f;
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = widened("vec_strided", width);
    INFO("width " << width);
    if (width) {
      CHECK(k.widen.widenedRegions == 1);
      CHECK(k.widen.vectorGathers == 3);   // in[2i], in[3i+1]; in2[3i] as 64-bit integers
      CHECK(k.widen.vectorScatters == 4);  // out[3i], out[3i+2], out2[3i+1], last[group]
      CHECK(k.widen.contiguous == 0);
      CHECK(k.widen.gathers == 0);
      CHECK(k.widen.scatters == 0);
    }
    std::vector<float> out(4 * 3 * n, -1), out2(2 * (3 * n + 2), -1), last(4 * 2, -1);
    ArgBuffer args(k);
    args.set(0, ptr(in)).set(1, ptr(out)).set(2, ptr(in2)).set(3, ptr(out2)).set(4, ptr(last));
    launch(k, args.data(), dims1(2, n / 2), pool());
    for (uint32_t i = 0; i < n; ++i) {
      const float* a = &in[4 * 2 * i];
      const float* b = &in[4 * (3 * i + 1)];
      for (uint32_t e = 0; e < 4; ++e) {
        REQUIRE(out[4 * 3 * i + e] == a[e] + b[e]);
        REQUIRE(out[4 * (3 * i + 1) + e] == -1.0f);
        REQUIRE(out[4 * (3 * i + 2) + e] == a[e] * b[3 - e]);
      }
      REQUIRE(out2[2 * (3 * i + 1)] == in2[2 * 3 * i] * 2.0f + float(i));
      REQUIRE(out2[2 * (3 * i + 1) + 1] == in2[2 * 3 * i + 1] * 2.0f + 1.0f);
      REQUIRE(out2[2 * 3 * i] == -1.0f);
    }
    for (uint32_t g = 0; g < 2; ++g) {
      const uint32_t i = g * (n / 2) + n / 2 - 1;  // the group's last work-item
      for (uint32_t e = 0; e < 4; ++e) REQUIRE(last[4 * g + e] == in[4 * 2 * i + e] + float(i));
    }
  }
}

TEST_CASE(
    "Given vec_strided_masked, when such vectors are loaded and stored in predicated "
    "blocks, then only the lanes that take a block touch memory",
    "[jit][widen]") {
  const uint32_t n = 80;
  std::vector<float> in(4 * (3 * n + 3)), in2(2 * 2 * n);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = float((i * 11) % 31) * 0.25f - 1.0f;
  for (uint32_t i = 0; i < in2.size(); ++i) in2[i] = float((i * 3) % 13) + 0.5f;
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = widened("vec_strided_masked", width);
    INFO("width " << width);
    if (width) {
      CHECK(k.widen.widenedRegions == 1);
      CHECK(k.widen.predicatedBranches == 2);
      CHECK(k.widen.vectorGathers == 3);   // in[3j], in2[2j], in[3i+2]
      CHECK(k.widen.vectorScatters == 3);  // out[2j], out2[3j+1], out[2i+1]
    }
    // A lane that touched its address in the first block would fault (gigabytes past these).
    std::vector<float> out(4 * 2 * n, -1), out2(2 * (3 * n + 2), -1);
    ArgBuffer args(k);
    args.set(0, ptr(in)).set(1, ptr(out)).set(2, ptr(in2)).set(3, ptr(out2));
    launch(k, args.data(), dims1(2, n / 2), pool());
    for (uint32_t i = 0; i < n; ++i) {
      for (uint32_t e = 0; e < 4; ++e) {
        REQUIRE(out[4 * 2 * i + e] == (i & 1 ? in[4 * 3 * i + e] * 2.0f : -1.0f));
        REQUIRE(out[4 * (2 * i + 1) + e] == (i % 3 ? in[4 * (3 * i + 2) + e] + 1.0f : -1.0f));
      }
      REQUIRE(out2[2 * (3 * i + 1)] == (i & 1 ? in2[2 * 2 * i + 1] : -1.0f));
      REQUIRE(out2[2 * (3 * i + 1) + 1] == (i & 1 ? in2[2 * 2 * i] : -1.0f));
    }
  }
}

TEST_CASE(
    "Given tiles4, when CLBlast's shape of tiled GEMM is widened, then every region widens "
    "and the product matches the host",
    "[jit][widen]") {
  const int m = 64, n = 16, kk = 24;  // 2 x 2 groups of 8 x 4, three tiles of k
  std::vector<float> a(kk * m), b(kk * n), ref(n * m, 0.0f);
  // Small integers: every product and sum is exact, whatever the order or fusion.
  for (int i = 0; i < kk * m; ++i) a[i] = float(i % 7) - 3.0f;
  for (int i = 0; i < kk * n; ++i) b[i] = float(i % 5) - 2.0f;
  for (int c = 0; c < n; ++c)
    for (int r = 0; r < m; ++r)
      for (int k = 0; k < kk; ++k) ref[c * m + r] += a[k * m + r] * b[k * n + c];
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = widened("tiles4", width);
    INFO("width " << width);
    CHECK(k.barrierCount == 2);
    if (width) CHECK(k.widen.widenedRegions == 3);
    // tid is a plain value (private memory is never volatile, simplify_kernels.cpp), so the loads
    // of the tile loop get prefetches, and in a chunk of 8 lanes tid % 8 steps with the lanes and
    // tid / 8 is the same for all: A's tile loads and stores are contiguous; B's (tid % 4 wraps
    // within 8 lanes) are 64-bit gathers and scatters, in regions 0 and 2.
    // From Tessera IR too: clang's `convergent` on get_group_id kept it in the loop, and the
    // addresses built from it had no step, until friendly_ir.cpp dropped it from such builtins.
    CHECK(k.prefetches == 3);
    if (width == 8) {
      CHECK(k.widen.perLane == 0);
      CHECK(k.widen.gathers == 0);
      CHECK(k.widen.vectorGathers == 2);
      CHECK(k.widen.vectorScatters == 2);
    }
    std::vector<float> c(n * m, -1);
    ArgBuffer args(k);
    args.set(0, ptr(a)).set(1, ptr(b)).set(2, ptr(c)).set(3, m).set(4, n).set(5, kk).set(6, 8);
    launch(k, args.data(), dims2(m / 32, n / 8, 8, 4), pool());
    for (int i = 0; i < n * m; ++i) REQUIRE(c[i] == ref[i]);
  }
}

TEST_CASE(
    "Given a local histogram whose atomic_inc is in a loop between barriers, when widened at the "
    "host's width, then that region stays scalar, the others are widened, and the bins are exact",
    "[jit][widen]") {
  const int groups = 3, ls = 64, per = 5;
  std::vector<uint32_t> data(groups * per * ls), ref(groups * 64, 0);
  for (size_t i = 0; i < data.size(); ++i) data[i] = uint32_t(i * 2654435761u >> 7);
  for (int g = 0; g < groups; ++g)
    for (int i = 0; i < per * ls; ++i) ++ref[g * 64 + (data[g * per * ls + i] & 63)];
  // 1: the host's width as TESSERA_WIDEN leaves it; 16: forced, in every region.
  for (auto [width, regions] : {std::pair{0, 0u}, {1, 2u}, {16, 3u}}) {
    const CompiledKernel& k = widened("hist_loop", width);
    INFO("width " << width);
    CHECK(k.widen.widenedRegions == regions);
    std::vector<uint32_t> bins(ref.size(), 7);
    ArgBuffer args(k);
    args.set(0, ptr(data)).set(1, ptr(bins)).set(2, per);
    launch(k, args.data(), dims1(groups, ls), pool());
    CHECK(bins == ref);
  }
}

TEST_CASE(
    "Given a tile loop whose row index is an or of the tile start and the row, when compiled, "
    "then its global load gets a prefetch of the next tile and the result matches the host",
    "[jit][widen]") {
  const int gx = 2, gy = 2, n = gx * 16, tiles = 3;
  std::vector<float> a(tiles * 16 * n);
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(i % 11) - 5.0f;
  std::vector<float> ref(n * gy * 16, 0.0f);
  for (int y = 0; y < gy * 16; ++y)
    for (int x = 0; x < n; ++x)
      for (int kwg = 0; kwg < tiles * 16; kwg += 16) {
        // Work-item (x, y) reads t[lx][ly]: the row kwg + lx of column ly of its group.
        const int lx = x % 16, ly = y % 16, gxo = x - lx;
        ref[y * n + x] += a[(kwg + lx) * n + gxo + ly] * float(kwg + 1);
      }
  for (int width : {0, 16}) {
    const CompiledKernel& k = widened("tile_or", width);
    INFO("width " << width);
    CHECK(k.prefetches == 1);
    std::vector<float> out(ref.size(), -1);
    ArgBuffer args(k);
    args.set(0, ptr(a)).set(1, ptr(out)).set(2, n).set(3, tiles);
    launch(k, args.data(), dims2(gx, gy, 16, 16), pool());
    for (size_t i = 0; i < ref.size(); ++i) REQUIRE(out[i] == ref[i]);
  }
}

TEST_CASE(
    "Given tile_ids, when a 2D tile id is split by remainders and quotients, then the "
    "lanes of a chunk that stay between two multiples are contiguous and the rest gathers",
    "[jit][widen]") {
  std::vector<float> in(80), in4(4 * 64);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = float(i) * 0.5f;
  for (uint32_t i = 0; i < in4.size(); ++i) in4[i] = float(i) + 0.25f;
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = widened("tile_ids", width);
    INFO("width " << width);
    if (width) CHECK(k.widen.widenedRegions == 1);
    if (width == 8) {
      CHECK(k.widen.contiguous == 5);     // in[...] twice, out[] twice, out4[]
      CHECK(k.widen.vectorGathers == 1);  // in4[(tid % 8) * 4 + tid / 8]
      CHECK(k.widen.gathers == 1);        // in[8 + neg % 8 + ...]
    }
    std::vector<float> out(128, -1), out4(4 * 64, -1);
    ArgBuffer args(k);
    args.set(0, ptr(in)).set(1, ptr(out)).set(2, ptr(in4)).set(3, ptr(out4));
    launch(k, args.data(), dims2(2, 1, 8, 4), pool());
    for (int g = 0; g < 2; ++g)
      for (int tid = 0; tid < 32; ++tid) {
        const int base = g * 32, lx = tid % 8;
        REQUIRE(out[base + tid] ==
                in[base + tid / 8 * 9 + lx] + in[base + tid / 8 * 10 + lx] * 2.0f);
        for (int e = 0; e < 4; ++e)
          REQUIRE(out4[4 * (base + tid) + e] == in4[4 * (base + lx * 4 + tid / 8) + e]);
        const int neg = lx - 8;
        REQUIRE(out[64 + base + tid] == in[base + 8 + neg % 8 + tid / 8 * 8]);
      }
  }
}

TEST_CASE(
    "Given cas_unused, when a compare-exchange's result is unused, then it still runs per "
    "lane in id order",
    "[jit][widen]") {
  const CompiledKernel& cas = widened("cas_unused", 8);
  std::vector<int> flags(4, 0);
  ArgBuffer cargs(cas);
  cargs.set(0, ptr(flags));
  launch(cas, cargs.data(), dims1(1, 32), pool());  // one group: work-items in id order
  for (int f = 0; f < 4; ++f) CHECK(flags[f] == f + 1);
}

}  // namespace tessera::backends::cpu::test

namespace tessera::backends::cpu::test {

TEST_CASE(
    "Given tiled, when regions are formed, then ids and addresses are recomputed per region "
    "and only acc and t cross the barriers in slots",
    "[jit][widen][regions]") {
  const int n = 48;
  std::vector<float> a(n * n), b(n * n), ref(n * n);
  for (int i = 0; i < n * n; ++i) a[i] = float(i % 11) - 5, b[i] = float(i % 7) * 0.25f;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      float acc = 0;
      for (int k = 0; k < n; ++k) acc += a[r * n + k] * b[k * n + c];
      ref[r * n + c] = acc;
    }
  for (int width : {0, 1, 8, 16}) {
    const CompiledKernel& k = widened("tiled", width);
    CHECK(k.barrierCount == 2);
    // acc and t (with the phis of the rotated loop; the JIT's simplification widens t to an i64
    // induction variable); no id, index or address crosses a barrier in a slot (they took 320
    // bytes per work-item before rematerialization).
    CHECK(k.scratchBytesPerWorkItem <= 40);
    // The tile counter crosses the barriers in a slot every work-item holds the same value in
    // (group-uniform control flow), so the tile loads are contiguous, not gathers.
    if (width >= 8) CHECK(k.widen.gathers == 0);
    // The tile loop holds barriers: B's load, n floats further down per tile, gets a prefetch of
    // the next tile's row (jit/prefetch.cpp), and so does A's, 64 bytes (a line) further per tile.
    CHECK(k.prefetches == 2);
    // Every region runs four rows at once when a row is one chunk (row_jam.cpp): the tile copy's
    // branch on t is the same in every row.
    if (width >= 8) CHECK(k.widen.jammedRegions == 3);
    std::vector<float> c(n * n, -1);
    ArgBuffer args(k);
    args.set(0, ptr(a)).set(1, ptr(b)).set(2, ptr(c)).set(3, n);
    launch(k, args.data(), dims2(n / 16, n / 16, 16, 16), pool());
    for (int i = 0; i < n * n; ++i) REQUIRE(c[i] == ref[i]);
  }
}

// The counter and the conditional sum are slots every work-item holds the same value in: one copy
// per group, two in fact (barrier_regions.cpp, SharedSlots), which copy is current flipping after
// each region that writes them. Wrong copies show as wrong sums or tiles read at the wrong t;
// group sizes that are one work-item, not a multiple of the width, and 2-D.
TEST_CASE(
    "Given carried, when uniform and per-work-item values cross barriers in a loop, then "
    "every group of every shape computes them right",
    "[jit][widen][regions]") {
  const int n = 20;
  std::vector<float> in(97);
  for (int i = 0; i < 97; ++i) in[i] = float(i % 13) * 0.75f - 3.0f;
  int sum = 0;
  for (int t = 0; t < n; t += 3)
    if (t % 2 == 0) sum += t;
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = widened("carried", width);
    CHECK(k.barrierCount == 2);
    for (auto [sx, sy] :
         {std::pair{1u, 1u}, {7u, 1u}, {16u, 1u}, {36u, 1u}, {16u, 16u}, {5u, 3u}, {24u, 4u}}) {
      INFO("width " << width << " local size " << sx << " x " << sy);
      const uint32_t gx = 3, gy = 2, w = gx * sx, items = sx * sy;
      const size_t total = size_t(w) * gy * sy;
      std::vector<float> out(2 * total, -1);
      std::vector<int> sums(total, -1);
      ArgBuffer args(k);
      args.set(0, ptr(in)).set(1, ptr(out)).set(2, ptr(sums)).set(3, n);
      launch(k, args.data(), dims2(gx, gy, sx, sy), pool());
      for (uint32_t g = 0; g < total; ++g) {
        const uint32_t x = g % w, y = g / w, lid = x % sx + (y % sy) * sx;
        const uint32_t base = (y / sy) * sy * w + (x / sx) * sx;  // the group's first id
        float acc = 0, drift = 0;
        for (int t = 0; t < n; t += 3) {
          const uint32_t other = (lid + t) % items;  // whose tile entry this one reads
          const uint32_t ogid = base + other / sx * w + other % sx;
          const float prev = acc;
          acc = acc * 0.5f + in[(ogid + t) % 97];
          drift += prev - acc;
        }
        REQUIRE(out[2 * g] == acc);
        REQUIRE(out[2 * g + 1] == drift);
        REQUIRE(sums[g] == sum);
      }
    }
  }
}

// Element-by-element mads into float4 accumulators (vector_recombine.cpp makes them vector
// fmuladds, which widen lane-major): each element must get its own product, with the A value and
// B's .x or .y each belongs to. Small integers, so fused and unfused multiply-adds agree.
TEST_CASE(
    "Given tile_mad, when float4 accumulators are updated element by element across "
    "barriers, then every element of every work-item of every group shape is right",
    "[jit][widen][regions]") {
  const int tiles = 3;
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = widened("tile_mad", width);
    CHECK(k.barrierCount == 2);
    for (auto [sx, sy] : {std::pair{8u, 8u}, {16u, 8u}, {8u, 16u}, {12u, 9u}, {16u, 16u}}) {
      INFO("width " << width << " local size " << sx << " x " << sy);
      const uint32_t w = 2 * sx, h = 2 * sy;
      std::vector<float> a(size_t(tiles) * 8 * w * 4), b(size_t(tiles) * 8 * h * 2);
      for (size_t i = 0; i < a.size(); ++i) a[i] = float(int(i * 7 % 11) - 5);
      for (size_t i = 0; i < b.size(); ++i) b[i] = float(int(i * 5 % 7) - 3);
      std::vector<float> c(size_t(w) * h * 8, -1);
      ArgBuffer args(k);
      args.set(0, ptr(a)).set(1, ptr(b)).set(2, ptr(c)).set(3, tiles);
      launch(k, args.data(), dims2(2, 2, sx, sy), pool());
      for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x)
          for (int half = 0; half < 2; ++half)
            for (int e = 0; e < 4; ++e) {
              float want = 0;
              for (int kk = 0; kk < tiles * 8; ++kk)
                want += a[(size_t(kk) * w + x) * 4 + e] * b[(size_t(kk) * h + y) * 2 + half];
              REQUIRE(c[((size_t(y) * w + x) * 2 + half) * 4 + e] == want);
            }
    }
  }
}
}  // namespace tessera::backends::cpu::test

namespace tessera::backends::cpu::test {

// any()/all() become reductions of a vector compare (llvm.vector.reduce.or/and); the widening
// reduces each lane's elements column by column. Written as IR, so that it does not depend on how
// the builtin library spells any() and all().
TEST_CASE(
    "Given element reductions of a varying vector, when widened, then each lane reduces its "
    "own elements",
    "[jit][widen]") {
  const char* ir = R"(
target triple = "spir64-unknown-unknown"
declare spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32)
declare i1 @llvm.vector.reduce.or.v4i1(<4 x i1>)
declare i1 @llvm.vector.reduce.and.v4i1(<4 x i1>)
declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)
declare i32 @llvm.vector.reduce.smax.v4i32(<4 x i32>)
declare float @llvm.vector.reduce.fmin.v4f32(<4 x float>)
define spir_kernel void @reductions(ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %gid = call spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32 0)
  %p = getelementptr inbounds <4 x i32>, ptr addrspace(1) %in, i64 %gid
  %v = load <4 x i32>, ptr addrspace(1) %p, align 16
  %neg = icmp slt <4 x i32> %v, zeroinitializer
  %any = call i1 @llvm.vector.reduce.or.v4i1(<4 x i1> %neg)
  %all = call i1 @llvm.vector.reduce.and.v4i1(<4 x i1> %neg)
  %sum = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %v)
  %max = call i32 @llvm.vector.reduce.smax.v4i32(<4 x i32> %v)
  %f = sitofp <4 x i32> %v to <4 x float>
  %min = call float @llvm.vector.reduce.fmin.v4f32(<4 x float> %f)
  %mini = fptosi float %min to i32
  %any32 = zext i1 %any to i32
  %all32 = zext i1 %all to i32
  %all2 = shl i32 %all32, 1
  %bits = or i32 %any32, %all2
  %o = mul i64 %gid, 4
  %q0 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %o
  store i32 %bits, ptr addrspace(1) %q0
  %o1 = add i64 %o, 1
  %q1 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %o1
  store i32 %sum, ptr addrspace(1) %q1
  %o2 = add i64 %o, 2
  %q2 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %o2
  store i32 %max, ptr addrspace(1) %q2
  %o3 = add i64 %o, 3
  %q3 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %o3
  store i32 %mini, ptr addrspace(1) %q3
  ret void
}
)";
  const uint32_t items = 48;  // a multiple of 16 and of 8: every work-item runs widened
  std::vector<int32_t> in(4 * items);
  for (uint32_t i = 0; i < 4 * items; ++i) in[i] = int32_t((i * 2654435761u) >> 20) - 2048;
  for (int width : {16, 8}) {
    INFO("width " << width);
    CompileOptions options;
    options.widen = width;
    auto compiled = compileIR(ir, options);
    const CompiledKernel& k = *compiled->find("reductions");
    INFO(k.widen.refused);
    CHECK(k.widen.refused.empty());
    CHECK(k.widen.widenedRegions == 1);
    std::vector<int32_t> out(4 * items, 7);
    ArgBuffer args(k);
    args.set(0, in.data()).set(1, out.data());
    launch(k, args.data(), dims1(items / 16, 16), pool());
    for (uint32_t i = 0; i < items; ++i) {
      const int32_t* v = &in[4 * i];
      bool any = false, all = true;
      int32_t sum = 0, max = v[0], min = v[0];
      for (int e = 0; e < 4; ++e) {
        any |= v[e] < 0, all &= v[e] < 0, sum += v[e];
        max = std::max(max, v[e]), min = std::min(min, v[e]);
      }
      INFO("work-item " << i);
      CHECK(out[4 * i] == int(any) + 2 * int(all));
      CHECK(out[4 * i + 1] == sum);
      CHECK(out[4 * i + 2] == max);
      CHECK(out[4 * i + 3] == min);
    }
  }
}

}  // namespace tessera::backends::cpu::test

namespace tessera::backends::cpu::test {

// The cost model for regions without a loop in kernels without barriers: widened only when the
// widening finds what LLVM's loop vectorizer does badly (workgroup_function.cpp, worthWidening),
// and the decision says why.
TEST_CASE(
    "Given the JIT's own plan, when a straight-line region branches per work-item or reads "
    "clamped neighbours, then it is widened, and plain consecutive code is not",
    "[jit][widen]") {
  const CompiledKernel& plain = widened("straight", 1);
  CHECK(plain.widen.widenedRegions == 0);
  CHECK(plain.widen.decision.find("left to LLVM's loop vectorizer") != std::string::npos);
  const CompiledKernel& branchy = widened("guarded", 1);
  CHECK(branchy.widen.widenedRegions == 1);
  CHECK(branchy.widen.decision == "widened: branches that differ between work-items");
  const CompiledKernel& k = widened("clamped", 1);
  CHECK(k.widen.widenedRegions == 1);
  CHECK(k.widen.decision == "widened: accesses not consecutive between work-items");
  // The two clamped neighbours: vector loads where no lane is clamped, else gathers.
  CHECK(k.widen.versionedLoads == 2);
  CHECK(k.widen.gathers == 0);
  // OpenCL vector values, even only copied: LLVM's loop vectorizer would leave them 16-byte
  // accesses per work-item.
  const CompiledKernel& copy = widened("copy4", 1);
  CHECK(copy.widen.widenedRegions == 1);
  CHECK(copy.widen.decision == "widened: OpenCL vector values");
  // Forced widths say so.
  CHECK(widened("straight", 8).widen.decision == "widened: forced (TESSERA_WIDEN=n)");
  for (uint32_t local : {64u, 37u}) {
    const int n = int(local * 3);
    std::vector<float> in(n), out(n, -1);
    for (int i = 0; i < n; ++i) in[i] = float(i % 11) - 4;
    ArgBuffer args(k);
    args.set(0, ptr(in)).set(1, ptr(out)).set(2, n);
    launch(k, args.data(), dims1(3, local), pool());
    for (int i = 0; i < n; ++i) {
      INFO("local " << local << " i " << i);
      REQUIRE(out[i] ==
              in[std::clamp(i - 1, 0, n - 1)] + 2.0f * in[i] + in[std::clamp(i + 1, 0, n - 1)]);
    }
  }
}

}  // namespace tessera::backends::cpu::test

namespace tessera::backends::cpu::test {

// The cost model for regions with a loop of their own: widened, unless no access of theirs is
// consecutive between work-items (onlyScattered, workgroup_function.cpp).
TEST_CASE(
    "Given the JIT's own plan, when a loop region walks one row per work-item, then it is "
    "left to LLVM's loop vectorizer, and a grid-stride loop is widened",
    "[jit][widen]") {
  const CompiledKernel& rows = widened("row_prefix", 1);
  CHECK(rows.widen.widenedRegions == 0);
  CHECK(rows.widen.decision ==
        "left to LLVM's loop vectorizer (a loop of its own, no access consecutive between "
        "work-items)");
  const CompiledKernel& stride = widened("grid_stride", 1);
  CHECK(stride.widen.widenedRegions == 1);
  CHECK(stride.widen.decision == "widened: a loop of its own");
  CHECK(widened("row_prefix", 8).widen.decision == "widened: forced (TESSERA_WIDEN=n)");
  constexpr int kRows = 40, kCols = 33;
  std::vector<float> in(kRows * kCols), out(kRows * kCols, -1);
  for (int i = 0; i < kRows * kCols; ++i) in[i] = float(i % 7 + 1);
  for (int width : {1, 8}) {
    INFO("width " << width);
    const CompiledKernel& k = widened("row_prefix", width);
    ArgBuffer args(k);
    args.set(0, ptr(in)).set(1, ptr(out)).set(2, kCols);
    launch(k, args.data(), dims1(5, 8), pool());
    for (int r = 0; r < kRows; ++r) {
      float s = 0;
      for (int c = 0; c < kCols; ++c) {
        s += in[r * kCols + c];
        INFO("row " << r << " col " << c);
        REQUIRE(out[r * kCols + c] == s);
      }
    }
  }
}

TEST_CASE(
    "Given tile_row_min, when a local tile is read at lx plus a loop's offset, then the "
    "reads are consecutive loads, not gathers, and the minima match the host",
    "[jit][widen]") {
  for (int width : {1, 16}) {
    const CompiledKernel& k = widened("tile_row_min", width);
    INFO("width " << width);
    // The clamped global read of the tile's tail is a vector load where no lane is clamped
    // (else a gather); the seven taps were six gathers more before lane_strides.h saw through
    // the shifts.
    CHECK(k.widen.versionedLoads == 1);
    CHECK(k.widen.gathers == 0);
    const int w = 96, h = 4;
    std::vector<uint8_t> in(w * h), out(w * h, 0);
    for (int i = 0; i < w * h; ++i) in[i] = uint8_t((i * 37 + 11) % 251);
    ArgBuffer args(k);
    args.set(0, ptr(in)).set(1, ptr(out));
    launch(k, args.data(), dims2(3, 2, 32, 2), pool());
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        uint8_t m = 255;
        for (int dx = 0; dx < 7; ++dx) m = std::min(m, in[y * w + std::min(x + dx, w - 1)]);
        INFO("x " << x << " y " << y);
        REQUIRE(out[y * w + x] == m);
      }
  }
}

}  // namespace tessera::backends::cpu::test

namespace tessera::backends::cpu::test {

// A bit of a 128-bit mask picked per work-item (a sub-group ballot's bit extract): vectors of i128
// made LLVM 15's x86 instruction selection abort the process ("Cannot select: any_extend") on AVX2
// and AVX-512 hosts, so the widening refuses integers wider than 64 bits and the region runs
// scalar.
TEST_CASE(
    "Given a varying 128-bit integer, when the JIT widens, then it refuses the region and "
    "the kernel compiles and computes each work-item's bit",
    "[jit][widen]") {
  const char* ir = R"(
target triple = "spir64-unknown-unknown"
declare spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32)
define spir_kernel void @bit_of_mask(ptr addrspace(1) %masks, ptr addrspace(1) %out) {
entry:
  %gid = call spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32 0)
  %p = getelementptr inbounds i128, ptr addrspace(1) %masks, i64 %gid
  %m = load i128, ptr addrspace(1) %p, align 16
  %k = and i64 %gid, 127
  %k128 = zext i64 %k to i128
  %bit = shl i128 1, %k128
  %and = and i128 %m, %bit
  %set = icmp ne i128 %and, 0
  %v = zext i1 %set to i32
  %q = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %gid
  store i32 %v, ptr addrspace(1) %q
  ret void
}
)";
  const uint32_t items = 256;
  std::vector<uint64_t> masks(2 * items);
  for (uint32_t i = 0; i < 2 * items; ++i) masks[i] = uint64_t(i) * 0x9E3779B97F4A7C15ull;
  for (int width : {16, 8}) {
    INFO("width " << width);
    CompileOptions options;
    options.widen = width;
    auto compiled = compileIR(ir, options);
    const CompiledKernel& k = *compiled->find("bit_of_mask");
    CHECK(k.widen.widenedRegions == 0);
    CHECK(k.widen.refused.find("i128") != std::string::npos);
    std::vector<int32_t> out(items, 7);
    ArgBuffer args(k);
    args.set(0, masks.data()).set(1, out.data());
    launch(k, args.data(), dims1(items / 16, 16), pool());
    for (uint32_t i = 0; i < items; ++i) {
      const uint32_t b = i % 128;
      const uint64_t word = masks[2 * i + b / 64];
      INFO("work-item " << i);
      CHECK(out[i] == int32_t((word >> (b % 64)) & 1));
    }
  }
}

}  // namespace tessera::backends::cpu::test

namespace tessera::backends::cpu::test {

// The reshaped work-items' rows are the same for a row of work-items ((tid >> 2) & 30 drops what
// the lanes change), so each row's float4s are one consecutive load and store: no gather or
// scatter of float4s, and every element lands where the reversed rows say.
TEST_CASE(
    "Given CLBlast's reshaped tile load in a required 8 x 16 group, when widened, then a row "
    "of work-items loads consecutive float4s and every element is right",
    "[jit][widen][regions]") {
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = widened("reshaped_tile", width);
    if (width != 0) {
      CHECK(k.widen.widenedRegions == 2);
      CHECK(k.widen.vectorGathers == 0);
      CHECK(k.widen.vectorScatters == 0);
    }
    const int ld = 16, rows = 64;  // two groups across, two down
    std::vector<float> a(size_t(rows) * ld * 4), out(a.size(), -1);
    for (size_t i = 0; i < a.size(); ++i) a[i] = float(i);
    ArgBuffer args(k);
    args.set(0, ptr(a)).set(1, ptr(out)).set(2, ld);
    launch(k, args.data(), dims2(2, 2, 8, 16), pool());
    INFO("width " << width);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < ld; ++c)
        for (int e = 0; e < 4; ++e) {
          const int tr = r / 32 * 32 + 31 - r % 32, tc = c;
          REQUIRE(out[(size_t(r) * ld + c) * 4 + e] == a[(size_t(tr) * ld + tc) * 4 + e]);
        }
  }
}

}  // namespace tessera::backends::cpu::test

namespace tessera::backends::cpu::test {

// The value a loop leaves with is recomputed after the barrier when every path computes it the
// same way (barrier_regions.cpp, sameExpression), not carried in a per-work-item slot, so the
// store after the loop sees a row of consecutive addresses instead of a scatter.
TEST_CASE(
    "Given a tiled product whose row * n reaches the store after its barrier loop on two paths, "
    "when widened, then the store is consecutive and the product is right",
    "[jit][widen][regions]") {
  for (int width : {0, 16}) {
    const CompiledKernel& k = widened("tiled_product", width);
    if (width != 0) {
      CHECK(k.widen.scatters == 0);
      CHECK(k.widen.vectorScatters == 0);
      CHECK(k.widen.gathers == 0);
    }
    const int n = 32;
    std::vector<float> a, b, c(n * n, -1);
    productOperands(n, a, b);
    ArgBuffer args(k);
    args.set(0, ptr(a)).set(1, ptr(b)).set(2, ptr(c)).set(3, n);
    launch(k, args.data(), dims2(2, 2, 16, 16), pool());
    INFO("width " << width);
    checkProduct(n, a, b, c);
  }
}

}  // namespace tessera::backends::cpu::test

namespace tessera::backends::cpu::test {

// Addresses computed from a group-uniform value that is not itself recomputable (a remapped group
// id, a phi) are recomputed after the barrier from that value's slot, not carried in per-work-item
// slots: they stay consecutive (38 ms -> 15 ms for a 1024 SGEMM walked in bands on the AVX-512
// host, where every tile load had been a gather).
TEST_CASE(
    "Given a tiled product whose tile origin is a remapped group id, when widened, then its tile "
    "loads and its store are consecutive and the product is right in every group order",
    "[jit][widen][regions]") {
  for (int width : {0, 16}) {
    const CompiledKernel& k = widened("swizzled_product", width);
    if (width != 0) {
      CHECK(k.widen.gathers == 0);
      CHECK(k.widen.scatters == 0);
      CHECK(k.widen.vectorGathers == 0);
    }
    const int n = 64;  // 4 x 4 groups
    std::vector<float> a, b;
    productOperands(n, a, b);
    for (int band : {0, 1, 2, 4}) {
      // Bands of `band` group rows, walked column by column (band 0: the launch's own order).
      std::vector<int> order;
      for (int g = 0; g < 16; ++g)
        if (band) order.insert(order.end(), {g / band % 4, g / (4 * band) * band + g % band});
      order.resize(32, 0);
      std::vector<float> c(n * n, -1);
      ArgBuffer args(k);
      args.set(0, ptr(a)).set(1, ptr(b)).set(2, ptr(c)).set(3, n).set(4, ptr(order)).set(5, band);
      launch(k, args.data(), dims2(n / 16, n / 16, 16, 16), pool());
      INFO("width " << width << " band " << band);
      checkProduct(n, a, b, c);
    }
  }
}

}  // namespace tessera::backends::cpu::test

namespace tessera::backends::cpu::test {

// Chunks whose lanes are all inside the guard take the plain accesses, the one the guard splits
// the masked ones: every element below n is right and nothing at or past n is written.
TEST_CASE(
    "Given guarded_bytes, when a guard splits some chunks of uchar4 accesses, then the chunks "
    "inside it and the split one are right and nothing past the guard is written",
    "[jit][widen]") {
  std::vector<uint8_t> in(129 * 4);
  for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 7 + 3);
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = widened("guarded_bytes", width);
    if (width) CHECK(k.widen.predicatedBranches == 1);
    for (uint32_t n : {128u, 100u, 64u, 3u, 0u}) {
      INFO("width " << width << " n " << n);
      std::vector<uint8_t> out(128 * 4, 0xEE);
      ArgBuffer args(k);
      args.set(0, ptr(in)).set(1, ptr(out)).set(2, n);
      launch(k, args.data(), dims1(2, 64), pool());
      for (uint32_t g = 0; g < 128; ++g)
        for (int c = 0; c < 4; ++c)
          REQUIRE(out[g * 4 + c] ==
                  (g < n ? uint8_t(in[g * 4 + c] + in[(g + 1) * 4 + c]) : uint8_t(0xEE)));
    }
  }
}

TEST_CASE(
    "Given guarded_byte_permute, when a guard splits some chunks of a byte gather and scatter, "
    "then the permuted elements below the guard are right and no other is written",
    "[jit][widen]") {
  std::vector<uint8_t> in(128);
  std::vector<int32_t> perm(128);
  for (int i = 0; i < 128; ++i) {
    in[i] = uint8_t(i * 3 + 1);
    perm[i] = (i * 37 + 11) % 128;  // 37 is prime to 128: a permutation
  }
  for (int width : {0, 8, 16}) {
    const CompiledKernel& k = widened("guarded_byte_permute", width);
    if (width) CHECK(k.widen.predicatedBranches == 1);
    for (uint32_t n : {128u, 100u, 3u, 0u}) {
      INFO("width " << width << " n " << n);
      std::vector<uint8_t> out(128, 0xEE);
      ArgBuffer args(k);
      args.set(0, ptr(in)).set(1, ptr(perm)).set(2, ptr(out)).set(3, n);
      launch(k, args.data(), dims1(2, 64), pool());
      std::vector<uint8_t> want(128, 0xEE);
      for (uint32_t g = 0; g < n; ++g) want[perm[g]] = uint8_t(in[perm[g]] + 1);
      for (int i = 0; i < 128; ++i) REQUIRE(out[i] == want[i]);
    }
  }
}

}  // namespace tessera::backends::cpu::test
