// Rows of work-items across a call's groups (backends/cpu/runtime/kernel_abi.h,
// rowsAcrossGroups; backends/cpu/jit/group_rows.cpp; the runs of groups in
// backends/cpu/runtime/launcher.cpp): the order the work-items run in, seen through tickets from a
// global counter on the calling thread alone, and that every work-item runs once. Where the
// widening jams rows (jit/row_jam.cpp: kJamRows rows of a group at once, their work-items
// interleaved), the order holds between blocks of jammed rows; the groups have 8 rows, two such
// blocks, so that rows across groups still differ from groups one by one (TESSERA_WIDEN=16 jams
// these kernels).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "backends/cpu/jit/jit_passes.h"
#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

constexpr uint32_t kLocalX = 16, kLocalY = 8;

// The rows of a group that run together: kJamRows where the kernel's region is jammed, else 1.
uint32_t rowsAtOnce(const CompiledKernel& k) {
  return k.widen.jammedRegions > 0 ? uint32_t(jit::kJamRows) : 1u;
}

struct Tickets {
  uint32_t width, height;
  std::vector<uint32_t> at;
  // The tickets of the work-items x in [x0, x1) of rows [y, y + rows).
  std::pair<uint32_t, uint32_t> range(uint32_t y, uint32_t x0, uint32_t x1,
                                      uint32_t rows = 1) const {
    uint32_t lo = ~0u, hi = 0;
    for (uint32_t r = y; r < y + rows; ++r) {
      auto first = at.begin() + r * width;
      auto [l, h] = std::minmax_element(first + x0, first + x1);
      lo = std::min(lo, *l);
      hi = std::max(hi, *h);
    }
    return {lo, hi};
  }
};

// `kernel` over width x height work-items in kLocalX x kLocalY groups (the last group in x
// partial when kLocalX does not divide width), every group on the calling thread.
Tickets run(const CompiledKernel& k, uint32_t width, uint32_t height, bool local) {
  Tickets t{width, height, std::vector<uint32_t>(size_t(width) * height, ~0u)};
  uint32_t counter = 0;
  ArgBuffer args(k);
  args.set(0, static_cast<void*>(&counter));
  args.set(1, static_cast<void*>(t.at.data()));
  if (local) args.local(2, kLocalX * kLocalY * sizeof(uint32_t));
  LaunchDims d = dims2((width + kLocalX - 1) / kLocalX, height / kLocalY, kLocalX, kLocalY);
  d.workDim = 2;
  d.lastGroupSize[0] = width % kLocalX;
  launch(k, args.data(), d, static_cast<WorkerPool*>(nullptr));
  // Each work-item once.
  std::vector<uint32_t> sorted = t.at;
  std::sort(sorted.begin(), sorted.end());
  std::vector<uint32_t> all(sorted.size());
  std::iota(all.begin(), all.end(), 0u);
  REQUIRE(sorted == all);
  return t;
}

TEST_CASE(
    "Given a kernel without barriers or __local memory, when a row of groups runs, then each "
    "row of work-items (or block of jammed rows) runs across the groups before the next one",
    "[jit][group_rows]") {
  const CompiledKernel& k = kernel("group_rows", "rows_ticket");
  REQUIRE(rowsAcrossGroups(k));
  const uint32_t step = rowsAtOnce(k);
  // 4 groups in x, 64 rows of groups: 256 groups, a 64th of them a run of 4 (a whole row).
  const Tickets t = run(k, 64, 64 * kLocalY, false);
  for (uint32_t by = 0; by < 64; ++by)
    for (uint32_t ly = 0; ly + step < kLocalY; ly += step) {
      INFO("group row " << by << ", row " << ly << ", rows at once " << step);
      const uint32_t y = by * kLocalY + ly;
      REQUIRE(t.range(y, 0, 64, step).second < t.range(y + step, 0, 64, step).first);
    }
}

TEST_CASE(
    "Given a partial last group in x, when rows run across groups, then it runs alone after "
    "the full groups of its row",
    "[jit][group_rows]") {
  const CompiledKernel& k = kernel("group_rows", "rows_ticket");
  const uint32_t step = rowsAtOnce(k);
  // 4 full groups and one of 8 work-items in x.
  const Tickets t = run(k, 72, 64 * kLocalY, false);
  for (uint32_t by = 0; by < 64; ++by) {
    INFO("group row " << by << ", rows at once " << step);
    const uint32_t y0 = by * kLocalY;
    uint32_t fullLast = 0, edgeFirst = ~0u, edgeLast = 0;
    for (uint32_t ly = 0; ly < kLocalY; ly += step) {
      fullLast = std::max(fullLast, t.range(y0 + ly, 0, 64, step).second);
      edgeFirst = std::min(edgeFirst, t.range(y0 + ly, 64, 72, step).first);
      edgeLast = std::max(edgeLast, t.range(y0 + ly, 64, 72, step).second);
      if (ly + step < kLocalY)
        REQUIRE(t.range(y0 + ly, 0, 64, step).second < t.range(y0 + ly + step, 0, 64, step).first);
    }
    REQUIRE(fullLast < edgeFirst);
    REQUIRE(edgeLast - edgeFirst == 8 * kLocalY - 1);  // the edge group's work-items together
  }
}

TEST_CASE("Given a kernel with __local memory, when groups run, then they run one by one",
          "[jit][group_rows]") {
  const CompiledKernel& k = kernel("group_rows", "rows_ticket_local");
  REQUIRE_FALSE(rowsAcrossGroups(k));
  const Tickets t = run(k, 64, 64 * kLocalY, true);
  for (uint32_t by = 0; by < 64; ++by)
    for (uint32_t bx = 0; bx < 4; ++bx) {
      INFO("group " << bx << "," << by);
      uint32_t lo = ~0u, hi = 0;
      for (uint32_t ly = 0; ly < kLocalY; ++ly) {
        auto [a, b] = t.range(by * kLocalY + ly, bx * kLocalX, (bx + 1) * kLocalX);
        lo = std::min(lo, a);
        hi = std::max(hi, b);
      }
      REQUIRE(hi - lo == kLocalX * kLocalY - 1);
      REQUIRE(lo == (by * 4 + bx) * kLocalX * kLocalY);
    }
}

TEST_CASE(
    "Given a stencil with a boundary branch in 16 x 16 groups, when the pool runs rows across "
    "groups, then every value is the host's",
    "[jit][group_rows]") {
  const CompiledKernel& k = kernel("group_rows", "rows_stencil");
  for (auto [w, h] : {std::pair<int, int>{512, 256}, {400, 48}}) {
    std::vector<float> in(size_t(w) * h), out(in.size(), -1.0f);
    for (size_t i = 0; i < in.size(); ++i) in[i] = float((i * 7919) % 1000) / 64.0f;
    ArgBuffer args(k);
    args.set(0, static_cast<void*>(in.data()));
    args.set(1, static_cast<void*>(out.data()));
    args.set(2, w);
    args.set(3, h);
    LaunchDims d = dims2((w + 15) / 16, h / 16, 16, 16);
    d.workDim = 2;
    d.lastGroupSize[0] = w % 16;
    launch(k, args.data(), d, pool());
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const size_t i = size_t(y) * w + x;
        const float want =
            x == 0 || y == 0 || x == w - 1 || y == h - 1
                ? in[i]
                : 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
        INFO(w << "x" << h << " at " << x << "," << y);
        REQUIRE(out[i] == Approx(want).epsilon(1e-6));
      }
  }
}

}  // namespace
}  // namespace tessera::backends::cpu::test
