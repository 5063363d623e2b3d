// Builtins beyond the basics against host references: vloadn/vstoren and the half conversions,
// math with a result through a pointer, printf (stdout captured), async work-group copies,
// sub-group functions (sub-groups of one work-item), by-value arguments the kernel writes,
// work-group collectives.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "jit_test_support.h"

namespace tessera::backends::cpu::test {
namespace {

template <typename T>
void* ptr(std::vector<T>& v) {
  return v.data();
}

template <typename T>
void checkRoundTrip(const std::string& name, int n) {
  INFO(name);
  const CompiledKernel& k = kernel("vectors", name);
  const int items = 12;
  std::vector<T> in(items * n + 5), out(items * n + 5, T(0));
  for (size_t i = 0; i < in.size(); ++i) in[i] = T(i * 3 % 101);
  ArgBuffer args(k);
  args.set(0, ptr(in)).set(1, ptr(out));
  launch(k, args.data(), dims1(3, 4), pool());
  for (int i = 0; i < items * n; ++i) REQUIRE(out[i] == T(in[i] + T(1)));
  for (size_t i = items * n; i < out.size(); ++i) REQUIRE(out[i] == T(0));  // nothing past the end
}

TEST_CASE("Given vloadn/vstoren kernels, when run, then n consecutive elements move per work-item",
          "[jit][builtins][vload]") {
  checkRoundTrip<float>("copy_float2", 2);
  checkRoundTrip<float>("copy_float3", 3);
  checkRoundTrip<float>("copy_float4", 4);
  checkRoundTrip<float>("copy_float8", 8);
  checkRoundTrip<float>("copy_float16", 16);
  checkRoundTrip<int>("copy_int3", 3);
  checkRoundTrip<uint8_t>("copy_uchar16", 16);
  checkRoundTrip<int16_t>("copy_short8", 8);
  checkRoundTrip<double>("copy_double3", 3);
  checkRoundTrip<int64_t>("copy_long2", 2);
}

TEST_CASE("Given local_vload3, when vload3/vstore3 go through __local, then neighbours swap",
          "[jit][builtins][vload][barrier]") {
  const CompiledKernel& k = kernel("vectors", "local_vload3");
  const uint32_t size = 5, groups = 3;
  std::vector<float> in(3 * size * groups), out(in.size());
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i) + 0.5f;
  ArgBuffer args(k);
  args.set(0, ptr(in)).set(1, ptr(out)).local(2, 3 * size * sizeof(float));
  launch(k, args.data(), dims1(groups, size), pool());
  for (uint32_t g = 0; g < groups; ++g) {
    for (uint32_t l = 0; l < size; ++l) {
      for (int c = 0; c < 3; ++c) {
        uint32_t other = g * size + (l + 1) % size;
        REQUIRE(out[3 * (g * size + l) + c] == in[3 * other + c] * 2.0f);
      }
    }
  }
}

// Host half <-> float by the bits (IEEE binary16), independent of the code under test.
float halfToFloat(uint16_t h) {
  int exponent = (h >> 10) & 0x1F;
  float mantissa = float(h & 0x3FF);
  float v = exponent == 0    ? std::ldexp(mantissa, -24)
            : exponent == 31 ? (mantissa == 0 ? INFINITY : NAN)
                             : std::ldexp(1024 + mantissa, exponent - 25);
  return (h & 0x8000) ? -v : v;
}

// The half that `mode` (0 RTE, 1 RTZ, 2 RTP, 3 RTN) picks for a finite `x`, by search.
uint16_t floatToHalf(float x, int mode) {
  double best_down = -INFINITY, best_up = INFINITY;
  uint16_t down = 0xFC00, up = 0x7C00;
  for (uint32_t b = 0; b < 0x10000; ++b) {
    float h = halfToFloat(uint16_t(b));
    if (std::isnan(h) || (h == 0 && (b == 0x8000) != std::signbit(x))) continue;
    if (h <= x && h > best_down) best_down = h, down = uint16_t(b);
    if (h >= x && h < best_up) best_up = h, up = uint16_t(b);
  }
  if (down == up || mode == 3) return down;
  if (mode == 2) return up;
  if (mode == 1) return x > 0 ? down : up;
  if (std::fabs(x) >= 65520.0f) return x > 0 ? 0x7C00 : 0xFC00;  // rounds to infinity
  double dd = x - best_down, du = best_up - x;
  if (dd != du) return dd < du ? down : up;
  return (down & 1) == 0 ? down : up;
}

TEST_CASE("Given halves, when half data is loaded and stored, then values convert exactly",
          "[jit][builtins][half]") {
  const CompiledKernel& k = kernel("vectors", "halves");
  const int n = 8;
  std::vector<uint16_t> h(4 * n + 8), out(64 + 4 * n, 0);
  for (size_t i = 0; i < h.size(); ++i) {
    h[i] = uint16_t(((i * 0x1234 + 0x0401) & 0x7BFF) | ((i & 1) << 15));  // finite halves
  }
  std::vector<float> f(128 + 3 * n, 0);
  ArgBuffer args(k);
  args.set(0, ptr(h)).set(1, ptr(f)).set(2, ptr(out));
  launch(k, args.data(), dims1(2, n / 2), pool());
  for (int i = 0; i < n; ++i) {
    REQUIRE(f[i] == halfToFloat(h[i]));
    for (int c = 0; c < 4; ++c) {
      REQUIRE(f[64 + 4 * i + c] == halfToFloat(h[4 * i + c]));
      REQUIRE(out[64 + 4 * i + c] == floatToHalf(halfToFloat(h[4 * i + c]) + 1.0f, 0));
    }
    for (int c = 0; c < 3; ++c) REQUIRE(f[128 + 3 * i + c] == halfToFloat(h[4 * i + c]));
    REQUIRE(out[i] == floatToHalf(halfToFloat(h[i]) * 2.0f, 0));
  }
}

TEST_CASE("Given half_rounding, when floats are stored as half, then each rounding mode is exact",
          "[jit][builtins][half]") {
  const CompiledKernel& k = kernel("vectors", "half_rounding");
  std::vector<float> x = {1.0f,     1.0001f,   -1.0001f, 0.1f,     -0.1f,    65504.0f, 65519.0f,
                          70000.0f, -70000.0f, 1e-7f,    -1e-7f,   3e-8f,    -3e-8f,   0.0f,
                          -0.0f,    2049.0f,   2051.0f,  -2051.0f, 1.0f / 3, 5.96e-8f};
  std::vector<uint16_t> out(4 * x.size());
  ArgBuffer args(k);
  args.set(0, ptr(x)).set(1, ptr(out));
  launch(k, args.data(), dims1(1, uint32_t(x.size())), pool());
  for (size_t i = 0; i < x.size(); ++i) {
    for (int mode = 0; mode < 4; ++mode) {
      INFO("x = " << x[i] << " mode " << mode);
      REQUIRE(out[4 * i + mode] == floatToHalf(x[i], mode));
    }
  }
  // NaN stays NaN, infinities stay infinite.
  std::vector<float> special = {NAN, INFINITY, -INFINITY, NAN};
  std::vector<uint16_t> s(16);
  ArgBuffer a2(k);
  a2.set(0, ptr(special)).set(1, ptr(s));
  launch(k, a2.data(), dims1(1, 4), pool());
  for (int m = 0; m < 4; ++m) {
    REQUIRE(std::isnan(halfToFloat(s[m])));
    REQUIRE(s[4 + m] == 0x7C00);
    REQUIRE(s[8 + m] == 0xFC00);
  }
}

TEST_CASE("Given half_vector_rounding, when vstore_half4_rtz and vstorea_half4_rtp, then exact",
          "[jit][builtins][half]") {
  const CompiledKernel& k = kernel("vectors", "half_vector_rounding");
  std::vector<float> x(16);
  for (int i = 0; i < 16; ++i) x[i] = (i - 8) * 0.3337f + 1e-4f;
  std::vector<uint16_t> out(32);
  ArgBuffer args(k);
  args.set(0, ptr(x)).set(1, ptr(out));
  launch(k, args.data(), dims1(1, 4), pool());
  for (int i = 0; i < 4; ++i) {
    for (int c = 0; c < 4; ++c) {
      REQUIRE(out[8 * i + c] == floatToHalf(x[4 * i + c], 1));
      REQUIRE(out[8 * i + 4 + c] == floatToHalf(x[4 * i + c], 2));
    }
  }
}

TEST_CASE("Given pointer_math, when evaluated, then both results match the host",
          "[jit][builtins][math]") {
  const CompiledKernel& k = kernel("pointer_math", "pointer_math");
  std::vector<float> x = {-3.75f, -1.0f, -0.0f, 0.0f, 0.3f,     1.0f,  2.5f,    7.0f,
                          1e-3f,  12.0f, -0.5f, 0.5f, 3.14159f, -7.3f, 100.25f, NAN};
  std::vector<float> out(8 * x.size());
  std::vector<int> iout(4 * x.size());
  ArgBuffer args(k);
  args.set(0, ptr(x)).set(1, ptr(out)).set(2, ptr(iout));
  launch(k, args.data(), dims1(2, 8), pool());
  auto same = [](float got, float ref) {
    if (std::isnan(ref)) return std::isnan(got);
    return got == Approx(ref).epsilon(1e-6).margin(1e-7);
  };
  for (size_t i = 0; i < x.size(); ++i) {
    float v = x[i];
    INFO("x = " << v);
    const float* o = &out[8 * i];
    const int* io = &iout[4 * i];
    CHECK(same(o[0], std::sin(v)));
    CHECK(same(o[1], std::cos(v)));
    int e = 0;
    CHECK(same(o[2], std::frexp(v, &e)));
    if (!std::isnan(v)) CHECK(io[0] == e);
    float ip = 0;
    CHECK(same(o[3], std::modf(v, &ip)));
    CHECK(same(o[4], ip));
    float fl = std::floor(v);
    CHECK(same(o[5], std::isnan(v) ? v : std::fmin(v - fl, 0x1.fffffep-1f)));
    if (!std::isnan(v)) CHECK(o[6] == fl);
    int q = 0;
    CHECK(same(o[7], std::remquo(v, 1.25f, &q)));
    if (!std::isnan(v)) CHECK((io[1] & 7) == (q & 7));  // OpenCL: at least the 3 low bits
    int sign = 0;
    float lg = lgammaf_r(v, &sign);
    if (std::isfinite(lg)) {
      CHECK(io[2] == sign);
      CHECK(std::abs(io[3] - int(lg * 1000.0f)) <= 1);
    }
  }
}

TEST_CASE("Given pointer_math_vec, when sincos and frexp take vectors, then lanes match the host",
          "[jit][builtins][math]") {
  const CompiledKernel& k = kernel("pointer_math", "pointer_math_vec");
  const int n = 4;
  std::vector<float> x(4 * n), s(4 * n), c(4 * n);
  std::vector<int> e(4 * n);
  std::vector<double> d(2 * n);
  for (int i = 0; i < 4 * n; ++i) x[i] = (i - 7) * 1.37f;
  ArgBuffer args(k);
  args.set(0, ptr(x)).set(1, ptr(s)).set(2, ptr(c)).set(3, ptr(e)).set(4, ptr(d));
  launch(k, args.data(), dims1(1, n), pool());
  for (int i = 0; i < 4 * n; ++i) {
    int ex = 0;
    float m = std::frexp(x[i], &ex);
    REQUIRE(s[i] == Approx(std::sin(x[i]) + m).epsilon(1e-6).margin(1e-6));
    REQUIRE(c[i] == Approx(std::cos(x[i])).epsilon(1e-6).margin(1e-6));
    REQUIRE(e[i] == ex);
  }
  for (int i = 0; i < n; ++i) {
    double ip = 0;
    REQUIRE(d[2 * i] == std::modf(double(x[4 * i]), &ip));
    REQUIRE(d[2 * i + 1] == ip);
  }
}

std::vector<std::string> sortedLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

TEST_CASE("Given print_values, when launched, then every work-item's line is on stdout",
          "[jit][builtins][printf]") {
  const CompiledKernel& k = kernel("printf", "print_values");
  std::vector<float> x = {0.5f, -1.25f, 3.0f, 100.0f, 2.125f, -0.0625f};
  ArgBuffer args(k);
  args.set(0, ptr(x));
  std::string text = captureFd(1, [&] { launch(k, args.data(), dims1(3, 2), pool()); });
  std::vector<std::string> ref;
  for (int i = 0; i < 6; ++i) {
    char line[512];
    std::snprintf(line, sizeof line, "wi %d: %.2f %f,%f,%f,%f %d,%d %s %c %5.1e %x %hhd %ld%%", i,
                  x[i], x[i], 1.5, -2.0, 0.25, i, -i, "ok", 'A', x[i] * 1000.0f, 255 + i,
                  static_cast<signed char>(300), 1L << 40);
    ref.push_back(line);
  }
  std::sort(ref.begin(), ref.end());
  CHECK(sortedLines(text) == ref);
}

TEST_CASE("Given print_after_barrier, when one work-item per group prints, then one line each",
          "[jit][builtins][printf][barrier]") {
  const CompiledKernel& k = kernel("printf", "print_after_barrier");
  ArgBuffer args(k);
  args.local(0, 4 * sizeof(int));
  std::string text = captureFd(1, [&] { launch(k, args.data(), dims1(5, 4), pool()); });
  std::vector<std::string> ref;
  for (int g = 0; g < 5; ++g) ref.push_back("group " + std::to_string(g) + " sum 30");
  std::sort(ref.begin(), ref.end());
  CHECK(sortedLines(text) == ref);
}

TEST_CASE("Given print_result, when a format does not match its arguments, then printf returns -1",
          "[jit][builtins][printf]") {
  const CompiledKernel& k = kernel("printf", "print_result");
  std::vector<int> out(2, 7);
  ArgBuffer args(k);
  args.set(0, ptr(out));
  std::string text = captureFd(1, [&] { launch(k, args.data(), dims1(1, 1), pool()); });
  CHECK(text == "42\n");
  CHECK(out[0] == 0);
  CHECK(out[1] == -1);
}

TEST_CASE("Given async_roundtrip, when copies go global -> local -> global (strided), then exact",
          "[jit][builtins][async][barrier]") {
  const CompiledKernel& k = kernel("async_copy", "async_roundtrip");
  for (uint32_t size : {1u, 7u, 32u}) {
    const uint32_t groups = 6;
    std::vector<float> in(size * groups), out(size * groups, -1);
    for (size_t i = 0; i < in.size(); ++i) in[i] = float(i) * 0.5f;
    ArgBuffer args(k);
    args.set(0, ptr(in)).set(1, ptr(out)).local(2, size * sizeof(float));
    launch(k, args.data(), dims1(groups, size), pool());
    for (uint32_t g = 0; g < groups; ++g) {
      for (uint32_t l = 0; l < size; ++l) {
        REQUIRE(out[l * groups + g] == in[g * size + (l + 1) % size] * 2.0f);
      }
    }
  }
}

TEST_CASE("Given async_strided_gather, when float2 elements are gathered with stride 3, then exact",
          "[jit][builtins][async]") {
  const CompiledKernel& k = kernel("async_copy", "async_strided_gather");
  const uint32_t size = 8, groups = 3;
  std::vector<float> in(2 * (3 * size + groups)), out(2 * size * groups, -1);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i);
  ArgBuffer args(k);
  args.set(0, ptr(in)).set(1, ptr(out)).local(2, size * 2 * sizeof(float));
  launch(k, args.data(), dims1(groups, size), pool());
  for (uint32_t g = 0; g < groups; ++g) {
    for (uint32_t l = 0; l < size; ++l) {
      uint32_t src = g + 3 * (size - 1 - l);
      REQUIRE(out[2 * (g * size + l)] == in[2 * src]);
      REQUIRE(out[2 * (g * size + l) + 1] == in[2 * src + 1]);
    }
  }
}

TEST_CASE(
    "Given subgroup_ops, when a work-group of 6 is one partial sub-group (default size 16), "
    "then each op covers its work-group",
    "[jit][builtins][subgroup]") {
  const CompiledKernel& k = kernel("subgroups", "subgroup_ops");
  REQUIRE(k.subgroupSize == kDefaultSubgroupSize);
  const uint32_t size = 6, groups = 2;
  std::vector<int> x(size * groups), out(12 * x.size());
  std::vector<float> f(x.size()), fout(2 * x.size());
  for (size_t i = 0; i < x.size(); ++i) x[i] = int(i * 7) - 20, f[i] = float(i) - 3.5f;
  ArgBuffer args(k);
  args.set(0, ptr(x)).set(1, ptr(f)).set(2, ptr(out)).set(3, ptr(fout));
  launch(k, args.data(), dims1(groups, size), pool());
  for (size_t i = 0; i < x.size(); ++i) {
    const size_t first = i / size * size, lane = i % size;
    int sum = 0, before = 0, maxUpTo = INT32_MIN, minBefore = INT32_MAX;
    unsigned umaxBefore = 0;
    bool all = true, any = false;
    float fmax = -INFINITY, fbefore = 0, fminBefore = INFINITY;
    for (size_t j = first; j < first + size; ++j) {
      sum += x[j];
      all = all && x[j] > 0;
      any = any || x[j] > 0;
      fmax = std::max(fmax, f[j]);
      if (j <= i) maxUpTo = std::max(maxUpTo, x[j]);
      if (j < i) {
        before += x[j];
        minBefore = std::min(minBefore, x[j]);
        umaxBefore = std::max(umaxBefore, unsigned(x[j]));
        fbefore += f[j];
        fminBefore = std::min(fminBefore, f[j]);
      }
    }
    int ref[12] = {int(size), int(kDefaultSubgroupSize),
                   1,         0,
                   int(lane), sum,
                   before,    maxUpTo,
                   x[first],  int(all) + 2 * int(any),
                   minBefore, int(umaxBefore)};
    for (int j = 0; j < 12; ++j) {
      INFO("work-item " << i << " op #" << j);
      REQUIRE(out[12 * i + j] == ref[j]);
    }
    REQUIRE(fout[2 * i] == fmax + fbefore);
    REQUIRE(fout[2 * i + 1] == fminBefore);
  }
}

struct alignas(16) Params {
  float scale;
  int bias;
  float pad[2];
  float weights[4];
};

TEST_CASE(
    "Given struct_written, when work-items write their struct argument, then each has its own",
    "[jit][builtins][byval]") {
  const CompiledKernel& k = kernel("byval", "struct_written");
  Params p{};
  p.scale = 1.5f, p.bias = 7, p.weights[1] = 3.0f;
  std::vector<float> out(64);
  ArgBuffer args(k);
  args.set(0, p).set(1, ptr(out));
  launch(k, args.data(), dims1(4, 16), pool());
  for (int i = 0; i < 64; ++i) REQUIRE(out[i] == (1.5f + i) * 10.0f + 7 + (3.0f * 2.0f + i));
  // The caller's argument buffer is unchanged: a second launch sees the same values.
  launch(k, args.data(), dims1(4, 16), pool());
  for (int i = 0; i < 64; ++i) REQUIRE(out[i] == (1.5f + i) * 10.0f + 7 + (3.0f * 2.0f + i));
}

TEST_CASE(
    "Given struct_across_barrier, when a written struct lives across a barrier, then per item",
    "[jit][builtins][byval][barrier]") {
  const CompiledKernel& k = kernel("byval", "struct_across_barrier");
  Params p{};
  p.scale = 2.0f;
  const uint32_t size = 8, groups = 5;
  std::vector<float> out(size * groups);
  ArgBuffer args(k);
  args.set(0, p).set(1, ptr(out)).local(2, size * sizeof(float));
  launch(k, args.data(), dims1(groups, size), pool());
  for (uint32_t g = 0; g < groups; ++g) {
    for (uint32_t l = 0; l < size; ++l) {
      REQUIRE(out[g * size + l] == 2.0f * (l + 1) + 2.0f * ((l + 1) % size + 1));
    }
  }
}

TEST_CASE(
    "Given struct_array_written, when an array in a struct argument is written, then per item",
    "[jit][builtins][byval]") {
  const CompiledKernel& k = kernel("byval", "struct_array_written");
  struct Array8 {
    int v[8];
  } a{};
  for (int j = 0; j < 8; ++j) a.v[j] = 100 * j;
  const int n = 256;
  std::vector<int> idx(n), out(n);
  for (int i = 0; i < n; ++i) idx[i] = (i * 5) % 11;
  ArgBuffer args(k);
  args.set(0, a).set(1, ptr(idx)).set(2, ptr(out));
  launch(k, args.data(), dims1(8, 32), pool());
  for (int i = 0; i < n; ++i) {
    Array8 mine = a;
    for (int j = 0; j < 8; ++j) mine.v[(j + idx[i]) & 7] += i * j;
    REQUIRE(out[i] == mine.v[idx[i] & 7] + mine.v[(idx[i] + 3) & 7]);
  }
}

TEST_CASE(
    "Given struct_array_barrier, when a struct argument written before a barrier is read "
    "after it, then the work-item's writes are kept",
    "[jit][builtins][byval][barrier]") {
  const CompiledKernel& k = kernel("byval", "struct_array_barrier");
  struct Array8 {
    int v[8];
  } a{};
  for (int j = 0; j < 8; ++j) a.v[j] = 100 * j;
  const int n = 64;
  std::vector<int> idx(n), out(n);
  for (int i = 0; i < n; ++i) idx[i] = (i * 3) % 8;
  ArgBuffer args(k);
  args.set(0, a).set(1, ptr(idx)).set(2, ptr(out));
  launch(k, args.data(), dims1(4, 16), pool());
  for (int i = 0; i < n; ++i) {
    Array8 mine = a;
    mine.v[idx[i] & 7] += i;
    REQUIRE(out[i] == mine.v[idx[i] & 7] + mine.v[(idx[i] + 1) & 7]);
  }
}

TEST_CASE(
    "Given wg_int, when work-group collectives run over several group sizes, then each "
    "work-item gets the host's reduction, scan, broadcast and vote",
    "[jit][builtins][collectives][barrier]") {
  const CompiledKernel& k = kernel("collectives", "wg_int");
  for (uint32_t size : {1u, 5u, 64u}) {
    const uint32_t groups = 3, n = size * groups;
    std::vector<int> x(n), out(8 * n);
    for (uint32_t i = 0; i < n; ++i) x[i] = int((i * 37) % 101) - 45;
    ArgBuffer args(k);
    args.set(0, ptr(x)).set(1, ptr(out));
    launch(k, args.data(), dims1(groups, size), pool());
    for (uint32_t g = 0; g < groups; ++g) {
      const int* gx = &x[g * size];
      int sum = 0, mn = INT32_MAX, mx = INT32_MIN;
      bool all = true, any = false;
      for (uint32_t l = 0; l < size; ++l) {
        sum += gx[l], mn = std::min(mn, gx[l]), mx = std::max(mx, gx[l]);
        all = all && gx[l] > -50, any = any || gx[l] > 40;
      }
      int prefix = 0, prefixMax = INT32_MIN;
      for (uint32_t l = 0; l < size; ++l) {
        const int* o = &out[8 * (g * size + l)];
        INFO("size " << size << " group " << g << " item " << l);
        REQUIRE(o[0] == sum);
        REQUIRE(o[1] == mn);
        REQUIRE(o[2] == mx);
        REQUIRE(o[4] == prefix);
        REQUIRE(o[5] == prefixMax);
        prefix += gx[l], prefixMax = std::max(prefixMax, gx[l]);
        REQUIRE(o[3] == prefix);
        REQUIRE(o[6] == gx[size - 1]);
        REQUIRE(o[7] == int(all) + 2 * int(any));
      }
    }
  }
}

TEST_CASE("Given wg_float, when float collectives run, then they match a host fold in id order",
          "[jit][builtins][collectives][barrier]") {
  const CompiledKernel& k = kernel("collectives", "wg_float");
  const uint32_t size = 16, groups = 4, n = size * groups;
  std::vector<float> x(n), out(4 * n);
  for (uint32_t i = 0; i < n; ++i) x[i] = float((i * 13) % 29) * 0.25f - 3.0f;
  ArgBuffer args(k);
  args.set(0, ptr(x)).set(1, ptr(out));
  launch(k, args.data(), dims1(groups, size), pool());
  for (uint32_t g = 0; g < groups; ++g) {
    float sum = 0, mx = -INFINITY, mn = INFINITY;
    uint64_t ids = 0;
    for (uint32_t l = 0; l < size; ++l) sum += x[g * size + l], mx = std::max(mx, x[g * size + l]);
    for (uint32_t l = 0; l < size; ++l) ids += g * size + l;
    for (uint32_t l = 0; l < size; ++l) {
      uint32_t i = g * size + l;
      mn = std::min(mn, x[i]);
      REQUIRE(out[4 * i] == sum);
      REQUIRE(out[4 * i + 1] == mx);
      REQUIRE(out[4 * i + 2] == mn);
      REQUIRE(out[4 * i + 3] == float(ids));
    }
  }
}

TEST_CASE("Given wg_loop, when collectives repeat in a loop, then every round is right",
          "[jit][builtins][collectives][barrier]") {
  const CompiledKernel& k = kernel("collectives", "wg_loop");
  const uint32_t size = 8, groups = 5, n = size * groups;
  const int rounds = 4;
  std::vector<int> x(n), out(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = int(i % 7) + 1;
  ArgBuffer args(k);
  args.set(0, ptr(x)).set(1, ptr(out)).set(2, rounds);
  launch(k, args.data(), dims1(groups, size), pool());
  for (uint32_t g = 0; g < groups; ++g) {
    int sum = 0;
    for (uint32_t l = 0; l < size; ++l) sum += x[g * size + l];
    for (uint32_t l = 0; l < size; ++l) {
      int ref = 0;
      for (int r = 0; r < rounds; ++r) ref += sum * (r + 1) + r * int(l);
      REQUIRE(out[g * size + l] == ref);
    }
  }
}

TEST_CASE("Given wg_broadcast2d, when broadcasting from local id (1, 2), then each group has it",
          "[jit][builtins][collectives][barrier]") {
  const CompiledKernel& k = kernel("collectives", "wg_broadcast2d");
  LaunchDims dims;
  dims.workDim = 2;
  dims.groupCount[0] = 3, dims.groupCount[1] = 2;
  dims.groupSize[0] = 4, dims.groupSize[1] = 3;
  const uint32_t w = 12, h = 6;
  std::vector<float> x(w * h), out(w * h);
  for (uint32_t i = 0; i < w * h; ++i) x[i] = float(i) * 1.5f;
  ArgBuffer args(k);
  args.set(0, ptr(x)).set(1, ptr(out));
  launch(k, args.data(), dims, pool());
  for (uint32_t y = 0; y < h; ++y) {
    for (uint32_t xx = 0; xx < w; ++xx) {
      uint32_t sx = (xx / 4) * 4 + 1, sy = (y / 3) * 3 + 2;
      REQUIRE(out[y * w + xx] == x[sy * w + sx]);
    }
  }
}

TEST_CASE(
    "Given float_atomics, when floats are exchanged, stored and loaded atomically, then exact",
    "[jit][builtins][atomics]") {
  const CompiledKernel& k = kernel("float_atomics", "float_atomics");
  const int n = 32;
  std::vector<float> f(67, 0.0f), v(n);
  for (int i = 0; i < n; ++i) v[i] = float(i) * 0.75f, f[34 + i] = float(i) + 0.5f;
  ArgBuffer args(k);
  args.set(0, ptr(f)).set(1, ptr(v));
  launch(k, args.data(), dims1(4, 8), pool());
  CHECK(f[0] == 5.0f);
  CHECK(f[1] == 2.5f);
  for (int i = 0; i < n; ++i) {
    REQUIRE(f[2 + i] == 2.5f + float(i) + 0.5f);
    REQUIRE(f[34 + i] == v[i]);
  }
}

}  // namespace
}  // namespace tessera::backends::cpu::test
