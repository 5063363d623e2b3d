// Widening is exact (docs/architecture.md, "Widening across work-items"): a widened load or store
// touches only bytes that one of its active work-items touches. The kernels of
// tests/kernels_jit/widen_exact.cl run on buffers whose last byte is followed by an inaccessible
// region (and whose first is preceded by an inaccessible page), scalar and widened at 4, 8 and 16
// work-items per iteration; a byte read or written past a buffer faults, and the widened results
// must equal the scalar ones bit for bit (and the host's reference where one is written here).
#include <catch2/catch.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

// `bytes` bytes ending flush against `tail` inaccessible bytes (at least a page), after an
// inaccessible page. A large tail reserves address space only (PROT_NONE, MAP_NORESERVE).
class Guarded {
 public:
  explicit Guarded(size_t bytes, size_t tail = 0) : bytes_(bytes) {
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    const size_t body = (bytes + page - 1) / page * page;
    tail = std::max(page, (tail + page - 1) / page * page);
    total_ = page + body + tail;
    void* m = mmap(nullptr, total_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    REQUIRE(m != MAP_FAILED);
    base_ = static_cast<uint8_t*>(m);
    if (body) REQUIRE(mprotect(base_ + page, body, PROT_READ | PROT_WRITE) == 0);
    data_ = base_ + page + body - bytes;
  }
  ~Guarded() { munmap(base_, total_); }
  Guarded(const Guarded&) = delete;
  Guarded& operator=(const Guarded&) = delete;

  uint8_t* data() { return data_; }
  template <typename T>
  T* as() {
    return reinterpret_cast<T*>(data_);
  }
  std::vector<uint8_t> bytes() const { return {data_, data_ + bytes_}; }
  void fill(uint32_t seed) {
    for (size_t i = 0; i < bytes_; ++i) {
      seed = seed * 1664525u + 1013904223u;
      data_[i] = static_cast<uint8_t>(seed >> 24);
    }
  }

 private:
  uint8_t* base_ = nullptr;
  uint8_t* data_ = nullptr;
  size_t bytes_ = 0;
  size_t total_ = 0;
};

const CompiledKernel& exactKernel(const std::string& name, int width) {
  static std::map<int, std::shared_ptr<const CompiledModule>> modules;
  auto& m = modules[width];
  if (!m) {
    CompileOptions options;
    options.widen = width;
    m = readAndCompile("widen_exact", options);
  }
  const CompiledKernel* k = m->find(name);
  REQUIRE(k != nullptr);
  const WidenStats& w = k->widen;
  UNSCOPED_INFO(name << " width " << w.width << ": regions " << w.widenedRegions << ", contiguous "
                     << w.contiguous << ", gathers " << w.gathers << ", scatters " << w.scatters
                     << ", vector gathers " << w.vectorGathers << ", vector scatters "
                     << w.vectorScatters << ", checked " << w.checkedBranches << ", predicated "
                     << w.predicatedBranches << ", refused: " << w.refused);
  return *k;
}

constexpr int kWidths[] = {0, 4, 8, 16};

// Whether the JIT, which compiles for this host, takes spaced lanes as masked spans
// (jit_pipeline.cpp, maskedSpans).
bool hostMasksSpans() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl");
}

}  // namespace

TEST_CASE("Given OpenCV's vload4 of 3-byte pixels, when widened, then nothing past the last pixel "
          "is read and every width agrees with the scalar kernel",
          "[jit][widen][exact]") {
  // Rows of `cols` pixels, global x rounded up past cols (the guard), sizes that leave partial
  // chunks at every width.
  for (int cols : {5, 17, 33, 64}) {
    const int rows = 3;
    const size_t bytes = size_t(rows) * cols * 3;
    std::vector<uint8_t> scalar;
    for (int width : kWidths) {
      INFO("cols " << cols << " width " << width);
      const CompiledKernel& k = exactKernel("rgb_vload4", width);
      // The uchar4 narrowed to the used x, y, z (demanded_loads.cpp): a contiguous <3 VF x i8>.
      if (width) CHECK(k.widen.vectorGathers == 0);
      Guarded src(bytes), dst(bytes);
      src.fill(7);
      std::memset(dst.data(), 0, bytes);
      ArgBuffer args(k);
      args.set(0, src.data()).set(1, cols * 3).set(2, dst.data()).set(3, cols * 3).set(4, rows);
      args.set(5, cols);
      launch(k, args.data(), dims2((cols + 15) / 16, rows, 16, 1), pool());
      const uint8_t* s = src.data();
      for (int p = 0; p < rows * cols; ++p) {
        int b = s[3 * p], g = s[3 * p + 1], r = s[3 * p + 2];
        int v = std::max(std::max(b, g), r), m = std::min(std::min(b, g), r);
        REQUIRE(dst.data()[3 * p] == uint8_t(v - m));
        REQUIRE(dst.data()[3 * p + 1] == uint8_t(b + 2 * g));
        REQUIRE(dst.data()[3 * p + 2] == uint8_t(r ^ v));
      }
      if (width == 0) scalar = dst.bytes();
      REQUIRE(dst.bytes() == scalar);
    }
  }
}

TEST_CASE("Given OpenCV's vload4 of 12-byte float pixels, when widened, then nothing past the "
          "last pixel is read and every width agrees with the scalar kernel",
          "[jit][widen][exact]") {
  for (int cols : {7, 24, 41}) {
    const int rows = 2;
    const size_t bytes = size_t(rows) * cols * 12;
    std::vector<uint8_t> scalar;
    for (int width : kWidths) {
      INFO("cols " << cols << " width " << width);
      const CompiledKernel& k = exactKernel("rgbf_vload4", width);
      Guarded src(bytes), dst(bytes);
      for (size_t i = 0; i < bytes / 4; ++i) src.as<float>()[i] = float(i % 29) * 0.25f - 3.0f;
      std::memset(dst.data(), 0, bytes);
      ArgBuffer args(k);
      args.set(0, src.data()).set(1, cols * 12).set(2, dst.data()).set(3, cols * 12);
      args.set(4, rows).set(5, cols);
      launch(k, args.data(), dims2((cols + 15) / 16, rows, 16, 1), pool());
      const float* s = src.as<float>();
      const float* d = dst.as<float>();
      for (int p = 0; p < rows * cols; ++p) {
        REQUIRE(d[3 * p] == std::max(s[3 * p], s[3 * p + 1]) - s[3 * p + 2]);
        REQUIRE(d[3 * p + 2] == s[3 * p + 2]);
      }
      if (width == 0) scalar = dst.bytes();
      REQUIRE(dst.bytes() == scalar);
    }
  }
}

TEST_CASE("Given vload3 and vstore3 of 3-byte pixels, when widened, then the lanes' pixels are "
          "read and written exactly, the last one flush with the buffer's end",
          "[jit][widen][exact]") {
  for (uint32_t n : {16u, 24u, 40u, 13u}) {  // one group of n work-items
    std::vector<uint8_t> scalar;
    for (int width : kWidths) {
      INFO("n " << n << " width " << width);
      const CompiledKernel& k = exactKernel("rgb_vload3", width);
      if (width) {
        CHECK(k.widen.widenedRegions == 1);
        CHECK(k.widen.contiguous == 2);  // the lanes' pixels back to back: one <3 VF x i8> each way
        CHECK(k.widen.vectorGathers == 0);
        CHECK(k.widen.vectorScatters == 0);
      }
      Guarded src(3 * n), dst(3 * n);
      src.fill(n);
      std::memset(dst.data(), 0xee, 3 * n);
      ArgBuffer args(k);
      args.set(0, src.data()).set(1, dst.data());
      launch(k, args.data(), dims1(1, n), pool());
      const uint8_t* s = src.data();
      for (uint32_t i = 0; i < n; ++i) {
        REQUIRE(dst.data()[3 * i] == s[3 * i + 2]);
        REQUIRE(dst.data()[3 * i + 1] == uint8_t(s[3 * i] + s[3 * i + 1]));
        REQUIRE(dst.data()[3 * i + 2] == uint8_t(s[3 * i + 1] ^ uint8_t(i)));
      }
      if (width == 0) scalar = dst.bytes();
      REQUIRE(dst.bytes() == scalar);
    }
  }
}

TEST_CASE("Given vload3 and vstore3 under a guard that ends inside a chunk, when widened, then "
          "the masked lanes touch nothing",
          "[jit][widen][exact]") {
  for (uint32_t n : {1u, 13u, 29u, 47u}) {
    std::vector<uint8_t> scalar;
    for (int width : kWidths) {
      INFO("n " << n << " width " << width);
      const CompiledKernel& k = exactKernel("rgb_vload3_guarded", width);
      if (width) {
        CHECK(k.widen.predicatedBranches == 1);
        CHECK(k.widen.contiguous == 2);
        CHECK(k.widen.activeBases == 0);  // i = gid is exact in every lane: lane 0's address
      }
      Guarded src(3 * n), dst(3 * n);
      src.fill(n + 1);
      std::memset(dst.data(), 0, 3 * n);
      ArgBuffer args(k);
      args.set(0, src.data()).set(1, dst.data()).set(2, n);
      launch(k, args.data(), dims1(2, 32), pool());  // 64 work-items, n of them inside
      for (uint32_t i = 0; i < n; ++i)
        for (uint32_t c = 0; c < 3; ++c)
          REQUIRE(dst.data()[3 * i + c] == uint8_t(src.data()[3 * i + 2 - c] + c + 1));
      if (width == 0) scalar = dst.bytes();
      REQUIRE(dst.bytes() == scalar);
    }
  }
}

TEST_CASE("Given float3 rows of odd length, when widened, then vload3/vstore3 stay inside each "
          "pixel and the last row ends the buffer",
          "[jit][widen][exact]") {
  for (int cols : {9, 19, 35}) {
    const int rows = 3, step = 3 * cols;
    const size_t bytes = size_t(rows) * step * 4;
    std::vector<uint8_t> scalar;
    for (int width : kWidths) {
      INFO("cols " << cols << " width " << width);
      const CompiledKernel& k = exactKernel("float3_rows", width);
      Guarded src(bytes), dst(bytes);
      for (int i = 0; i < rows * step; ++i) src.as<float>()[i] = float(i) * 0.5f - 7.0f;
      std::memset(dst.data(), 0, bytes);
      ArgBuffer args(k);
      args.set(0, src.data()).set(1, dst.data()).set(2, step).set(3, cols);
      launch(k, args.data(), dims2((cols + 7) / 8, rows, 8, 1), pool());
      const float* s = src.as<float>();
      const float* d = dst.as<float>();
      for (int p = 0; p < rows * cols; ++p) {
        REQUIRE(d[3 * p] == s[3 * p + 2] * 0.5f + 1.0f);
        REQUIRE(d[3 * p + 1] == s[3 * p] * 0.5f + 2.0f);
        REQUIRE(d[3 * p + 2] == s[3 * p + 1] * 0.5f + 3.0f);
      }
      if (width == 0) scalar = dst.bytes();
      REQUIRE(dst.bytes() == scalar);
    }
  }
}

TEST_CASE("Given uchar3 pointers, when widened, then each 4-byte element is read and written as "
          "the scalar kernel does",
          "[jit][widen][exact]") {
  for (uint32_t n : {16u, 21u}) {
    for (int width : kWidths) {
      INFO("n " << n << " width " << width);
      const CompiledKernel& k = exactKernel("uchar3_ptr", width);
      Guarded src(4 * n), dst(4 * n);
      src.fill(3);
      std::memset(dst.data(), 0, 4 * n);
      ArgBuffer args(k);
      args.set(0, src.data()).set(1, dst.data());
      launch(k, args.data(), dims1(1, n), pool());
      for (uint32_t i = 0; i < n; ++i)
        for (uint32_t c = 0; c < 3; ++c)
          REQUIRE(dst.data()[4 * i + c] == uint8_t(src.data()[4 * i + (c + 1) % 3] + i));
      // The fourth byte of each element is padding, which the store may write with anything
      // (clang stores a uchar3 as a uchar4 whose fourth element is undefined).
    }
  }
}

TEST_CASE("Given a block that the low lanes skip, when their addresses lie far past the buffer, "
          "then the widened loads start from an active lane's address",
          "[jit][widen][exact]") {
  // 64 GiB of inaccessible address space after each buffer: lane 0's unused address (j = -skip,
  // zero-extended) lands in it.
  const size_t far = size_t{80} << 30;
  for (uint32_t skip : {1u, 2u, 5u}) {
    std::vector<uint8_t> scalar;
    for (int width : kWidths) {
      INFO("skip " << skip << " width " << width);
      const CompiledKernel& k = exactKernel("guarded_low_lanes", width);
      if (width) {
        CHECK(k.widen.predicatedBranches == 1);
        CHECK(k.widen.activeBases >= 1);  // in[j], j zero-extended under the guard
      }
      const uint32_t groups = 2, size = 32, n = groups * size;
      Guarded in(16 * n, far), out(4 * n);
      for (uint32_t i = 0; i < 4 * n; ++i) in.as<float>()[i] = float(i) * 0.25f;
      for (uint32_t i = 0; i < n; ++i) out.as<float>()[i] = -1.0f;
      ArgBuffer args(k);
      args.set(0, in.data()).set(1, out.data()).set(2, skip);
      launch(k, args.data(), dims1(groups, size), pool());
      for (uint32_t g = 0; g < groups; ++g)
        for (uint32_t l = 0; l < size; ++l) {
          const uint32_t i = g * size + l;
          const float expect =
              l < skip ? -1.0f : in.as<float>()[i - skip] + in.as<float>()[4 * (i - skip) + 3];
          REQUIRE(out.as<float>()[i] == expect);
        }
      if (width == 0) scalar = out.bytes();
      REQUIRE(out.bytes() == scalar);
    }
  }
  for (uint32_t skip : {1u, 3u}) {
    std::vector<uint8_t> scalar;
    for (int width : kWidths) {
      INFO("uchar3, skip " << skip << " width " << width);
      const CompiledKernel& k = exactKernel("guarded_low_lanes3", width);
      const uint32_t groups = 2, size = 24, n = groups * size;
      Guarded in(3 * n, far), out(3 * n, far);
      in.fill(skip);
      std::memset(out.data(), 0, 3 * n);
      ArgBuffer args(k);
      args.set(0, in.data()).set(1, out.data()).set(2, skip);
      launch(k, args.data(), dims1(groups, size), pool());
      for (uint32_t g = 0; g < groups; ++g)
        for (uint32_t l = skip; l < size; ++l)
          for (uint32_t c = 0; c < 3; ++c) {
            const uint32_t e = 3 * (g * size + l - skip) + c;
            REQUIRE(out.data()[e] == uint8_t(in.data()[e] + 1));
          }
      if (width == 0) scalar = out.bytes();
      REQUIRE(out.bytes() == scalar);
    }
  }
}

TEST_CASE("Given a guarded read of a left neighbour in local memory, when the index is masked to "
          "32 bits, then the widened load starts from an active lane's address",
          "[jit][widen][exact]") {
  // OpenCV 4.6's filter2D lost its context here: the masked load took lane 0's address, whose
  // index (lid + 0xffffffff) & 0xffffffff is 2^32 - 1, taken for exact because the sum is not
  // negative as 64 bits (lane_strides.h: a 32-bit mask needs the low 32 bits not negative).
  for (uint32_t back : {1u, 3u}) {
    std::vector<uint8_t> scalar;
    for (int width : kWidths) {
      INFO("lid - " << back << ", width " << width);
      const CompiledKernel& k =
          exactKernel(back == 1 ? "guarded_left_neighbour" : "guarded_left_neighbour3", width);
      if (width) CHECK(k.widen.activeBases >= 1);  // the masked load of l[lid - back]
      const uint32_t size = 128, rows = 4;
      Guarded out(4 * size * rows);
      for (uint32_t i = 0; i < size * rows; ++i) out.as<float>()[i] = -1.0f;
      ArgBuffer args(k);
      args.set(0, out.data());
      launch(k, args.data(), dims2(1, rows, size, 1), pool());
      for (uint32_t y = 0; y < rows; ++y)
        for (uint32_t x = 0; x < size; ++x)
          REQUIRE(out.as<float>()[y * size + x] == (x >= back ? float(x - back) : 0.0f));
      if (width == 0) scalar = out.bytes();
      REQUIRE(out.bytes() == scalar);
    }
  }
}

TEST_CASE("Given an unsigned range check on ids that wrap around, when the branch is checked at "
          "run time, then lanes between a first and last that agree are not taken for agreeing",
          "[jit][widen][exact]") {
  for (uint32_t lo : {2u, 3u}) {
    for (uint32_t len : {4u, 9u}) {
      for (int width : kWidths) {
        INFO("lo " << lo << " len " << len << " width " << width);
        const CompiledKernel& k = exactKernel("unsigned_range", width);
        const uint32_t size = 32;
        std::vector<int> out(size, -1);
        ArgBuffer args(k);
        args.set(0, out.data()).set(1, lo).set(2, len);
        launch(k, args.data(), dims1(1, size), pool());
        for (uint32_t l = 0; l < size; ++l) {
          int expect = 0;
          if (l - lo < len)
            for (uint32_t q = 0; q <= l; ++q) expect = (expect << 1) ^ (expect >> 3) ^ int(q);
          REQUIRE(out[l] == expect);
        }
      }
    }
  }
}

TEST_CASE("Given a 3x3 median of clamped neighbours, when widened, then the clamped columns are "
          "vector loads where no lane is clamped and gathers at the edges, nothing past the image "
          "is read and every width agrees with the scalar kernel",
          "[jit][widen][exact]") {
  // Widths that put the image's edges inside chunks, at the chunks' ends and in the scalar
  // remainder; one group per row, so that the global x is the local x.
  for (int w : {5, 16, 17, 37, 64, 67}) {
    const int h = 3;
    std::vector<uint8_t> scalar;
    for (int width : kWidths) {
      INFO("image width " << w << ", widened at " << width);
      const CompiledKernel& k = exactKernel("median3_clamped", width);
      if (width) {
        CHECK(k.widen.widenedRegions == 1);
        CHECK(k.widen.versionedLoads == 6);  // the columns x - 1 and x + 1 of three rows
        CHECK(k.widen.gathers == 0);
        CHECK(k.widen.contiguous == 4);  // the column x of three rows, the store
      }
      Guarded in(size_t(w) * h), out(size_t(w) * h);
      in.fill(uint32_t(w));
      std::memset(out.data(), 0, size_t(w) * h);
      ArgBuffer args(k);
      args.set(0, in.data()).set(1, out.data()).set(2, w).set(3, h);
      launch(k, args.data(), dims2(1, h, uint32_t(w), 1), pool());
      const uint8_t* s = in.data();
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          uint8_t v[9];
          int n = 0;
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
              v[n++] = s[std::clamp(y + dy, 0, h - 1) * w + std::clamp(x + dx, 0, w - 1)];
          std::nth_element(v, v + 4, v + 9);
          INFO("x " << x << " y " << y);
          REQUIRE(out.data()[y * w + x] == v[4]);
        }
      if (width == 0) scalar = out.bytes();
      REQUIRE(out.bytes() == scalar);
    }
  }
}

TEST_CASE("Given unsigned clamps of a row's indices, when widened, then the loads of indices "
          "clamped in the same step are versioned, a clamp behind a loop's phi is not, and "
          "every width agrees with the scalar kernel and the host",
          "[jit][widen][exact]") {
  for (uint32_t n : {16u, 29u, 40u}) {
    for (uint32_t lo : {0u, 5u, 13u}) {  // lo < n: max(x + 2, lo) stays inside
      std::vector<uint8_t> scalar;
      for (int width : kWidths) {
        INFO("n " << n << " lo " << lo << " width " << width);
        const CompiledKernel& k = exactKernel("clamped_row", width);
        if (width) {
          // clamp(x, lo, n - 1), min(x + 3, n - 1), the guarded max(x + 2, lo); in[j] of the
          // loop, clamped behind its phi, gathers.
          CHECK(k.widen.versionedLoads == 3);
          CHECK(k.widen.gathers == 1);
        }
        const uint32_t steps = 4;
        Guarded in(4 * n), out(4 * n);
        for (uint32_t i = 0; i < n; ++i) in.as<float>()[i] = float(i * 7 % 13) - 6.0f;
        for (uint32_t i = 0; i < n; ++i) out.as<float>()[i] = -1.0f;
        ArgBuffer args(k);
        args.set(0, in.data()).set(1, out.data()).set(2, n).set(3, lo).set(4, steps);
        launch(k, args.data(), dims1(1, n), pool());
        const float* s = in.as<float>();
        for (uint32_t x = 0; x < n; ++x) {
          float acc = s[std::clamp(x, lo, n - 1)] + 2.0f * s[std::min(x + 3, n - 1)];
          if (x + 2 < n) acc += 4.0f * s[std::max(x + 2, lo)];
          uint32_t j = x;
          for (uint32_t q = 0; q < steps; ++q) {
            j = std::min(j + 1, n - 1);
            acc += 8.0f * s[j];
          }
          INFO("x " << x);
          REQUIRE(out.as<float>()[x] == acc);
        }
        if (width == 0) scalar = out.bytes();
        REQUIRE(out.bytes() == scalar);
      }
    }
  }
}

}  // namespace tessera::backends::cpu::test

namespace tessera::backends::cpu::test {

// Global sizes that leave partial chunks at every width; the last lane's element is the buffer's
// last (pairs, triples) or three elements before it (quads): a load or store of the whole span
// would fault, and one that wrote the span would change the elements no work-item writes. On an
// AVX-512 host they are masked loads and stores of the span with only the lanes' elements enabled
// (widener.h, kMaskedSpansAttr); elsewhere strided loads and scatters.
TEST_CASE("Given lanes two, three and four elements apart, when widened, then exactly their "
          "elements are read and written and every width agrees with the scalar kernel",
          "[jit][widen][exact]") {
  for (uint32_t n : {7u, 16u, 29u, 64u}) {
    for (int width : kWidths) {
      INFO("n " << n << " width " << width);
      const CompiledKernel& pairs = exactKernel("interleaved_pairs", width);
      const CompiledKernel& triples = exactKernel("interleaved_triples", width);
      const CompiledKernel& quads = exactKernel("interleaved_quads", width);
      if (width && hostMasksSpans())
        for (const CompiledKernel* k : {&pairs, &triples, &quads}) {
          CHECK(k->widen.stridedStores > 0);
          CHECK(k->widen.scatters == 0);
          CHECK(k->widen.gathers == 0);
        }
      LaunchDims d = dims2(1, 1, n, 1);
      {
        Guarded in(n * 2 * sizeof(float)), out(n * 2 * sizeof(float));
        in.fill(3);
        for (uint32_t e = 0; e < 2 * n; ++e) in.as<float>()[e] = float(int(in.data()[e]) - 128);
        ArgBuffer args(pairs);
        args.set(0, in.data()).set(1, out.data());
        launch(pairs, args.data(), d, pool());
        for (uint32_t i = 0; i < n; ++i) {
          const float a = in.as<float>()[2 * i], b = in.as<float>()[2 * i + 1];
          REQUIRE(out.as<float>()[2 * i] == a + b);
          REQUIRE(out.as<float>()[2 * i + 1] == a - b);
        }
      }
      {
        Guarded in(n * 3 * sizeof(float)), out(n * 3 * sizeof(float));
        in.fill(5);
        out.fill(9);
        for (uint32_t e = 0; e < 3 * n; ++e) in.as<float>()[e] = float(int(in.data()[e]) - 128);
        const std::vector<uint8_t> before = out.bytes();
        ArgBuffer args(triples);
        args.set(0, in.data()).set(1, out.data()).set(2, 2u);
        launch(triples, args.data(), d, pool());
        for (uint32_t i = 0; i < n; ++i) {
          const float* o = out.as<float>() + 3 * i;
          const float* was = reinterpret_cast<const float*>(before.data()) + 3 * i;
          const bool ran = i % 5 != 2;
          if (ran) {
            REQUIRE(o[0] == in.as<float>()[3 * i + 2] * 2.0f);
            REQUIRE(o[2] == in.as<float>()[3 * i]);
          } else {
            REQUIRE(std::memcmp(&o[0], &was[0], 4) == 0);
            REQUIRE(std::memcmp(&o[2], &was[2], 4) == 0);
          }
          REQUIRE(std::memcmp(&o[1], &was[1], 4) == 0);
        }
      }
      {
        Guarded in(n * 4 * sizeof(int64_t)), out(n * 4 * sizeof(int64_t));
        in.fill(11);
        out.fill(13);
        const std::vector<uint8_t> before = out.bytes();
        ArgBuffer args(quads);
        args.set(0, in.data()).set(1, out.data());
        launch(quads, args.data(), d, pool());
        for (uint32_t i = 0; i < n; ++i) {
          const int64_t* q = in.as<int64_t>() + 4 * i;
          const int64_t* o = out.as<int64_t>() + 4 * i;
          const int64_t* was = reinterpret_cast<const int64_t*>(before.data()) + 4 * i;
          REQUIRE(o[1] == int64_t(uint64_t(q[3]) - uint64_t(q[0])));
          for (int e : {0, 2, 3}) REQUIRE(o[e] == was[e]);
        }
      }
    }
  }
}

}  // namespace tessera::backends::cpu::test
