#include "pattern_cases.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "cl_check.h"

namespace tessera::bench::patterns {

namespace {

int repsFor(bool quick) { return quick ? 2 : 5; }

template <typename... A>
void setArgs(cl_kernel k, const A&... a) {
  cl_uint i = 0;
  auto one = [&](const void* value, size_t size) { CL_CHECK(clSetKernelArg(k, i++, size, value)); };
  (one(&a, sizeof(A)), ...);
}

template <typename T>
std::vector<T> randoms(size_t n, double lo, double hi, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<T> v(n);
  for (T& x : v) x = static_cast<T>(d(g));
  return v;
}

bool close(double got, double want, double rel, double abs) {
  return std::fabs(got - want) <= abs + rel * std::fabs(want);
}

// Runs `name` over `dims` with arguments set by `bind`, releases the kernel; the time in ms.
template <typename Bind>
double launch(PlatformContext& c, const char* name, cl_uint dims, const size_t* global,
              const size_t* local, bool quick, Bind bind) {
  cl_kernel k = c.kernel(name);
  bind(k);
  double ms = c.time(k, dims, global, local, repsFor(quick));
  clReleaseKernel(k);
  return ms;
}

Outcome copy(PlatformContext& c, bool quick) {
  size_t n = quick ? (1u << 20) : (64u << 20);
  std::vector<float> in = randoms<float>(n, -1, 1, 1), out(n);
  cl_mem a = c.buffer(n * 4, in.data()), b = c.buffer(n * 4);
  size_t global = n / 4;
  Outcome o;
  o.ms = launch(c, "copy4", 1, &global, nullptr, quick, [&](cl_kernel k) { setArgs(k, a, b); });
  c.read(b, n * 4, out.data());
  o.ok = out == in;
  o.work = 2.0 * n * 4;
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  return o;
}

Outcome blackScholes(PlatformContext& c, bool quick) {
  size_t n = quick ? (1u << 16) : (4u << 20);
  std::vector<float> s = randoms<float>(n, 10, 50, 2), x = randoms<float>(n, 10, 50, 3),
                     t = randoms<float>(n, 0.2, 2, 4), call(n), put(n);
  const float r = 0.02f, v = 0.3f;
  cl_mem bs = c.buffer(n * 4, s.data()), bx = c.buffer(n * 4, x.data()),
         bt = c.buffer(n * 4, t.data()), bc = c.buffer(n * 4), bp = c.buffer(n * 4);
  Outcome o;
  o.ms = launch(c, "black_scholes", 1, &n, nullptr, quick,
                [&](cl_kernel k) { setArgs(k, bs, bx, bt, bc, bp, r, v); });
  c.read(bc, n * 4, call.data());
  c.read(bp, n * 4, put.data());
  o.ok = true;
  for (size_t i = 0; i < n && o.ok; i += 97) {
    double sq = std::sqrt(double(t[i]));
    double d1 = (std::log(double(s[i]) / x[i]) + (r + 0.5 * v * v) * t[i]) / (v * sq);
    double d2 = d1 - v * sq;
    double n1 = 0.5 * std::erfc(-d1 / std::sqrt(2.0)), n2 = 0.5 * std::erfc(-d2 / std::sqrt(2.0));
    double e = x[i] * std::exp(-r * double(t[i]));
    o.ok = close(call[i], s[i] * n1 - e * n2, 1e-3, 1e-3) &&
           close(put[i], e * (1 - n2) - s[i] * (1 - n1), 1e-3, 1e-3);
  }
  for (cl_mem m : {bs, bx, bt, bc, bp}) clReleaseMemObject(m);
  return o;
}

Outcome mathMix(PlatformContext& c, bool quick) {
  size_t n = quick ? (1u << 16) : (4u << 20);
  std::vector<float> in = randoms<float>(n, -3, 3, 5), out(n);
  cl_mem a = c.buffer(n * 4, in.data()), b = c.buffer(n * 4);
  Outcome o;
  o.ms = launch(c, "math_mix", 1, &n, nullptr, quick, [&](cl_kernel k) { setArgs(k, a, b); });
  c.read(b, n * 4, out.data());
  o.ok = true;
  for (size_t i = 0; i < n && o.ok; i += 31) {
    double xv = in[i];
    o.ok = close(out[i], std::sin(xv) * std::cos(xv) + std::tanh(xv) + std::pow(std::fabs(xv) + 1, 1.5),
                 1e-4, 1e-4);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  return o;
}

Outcome mandelbrot(PlatformContext& c, bool quick) {
  int w = quick ? 256 : 2048, h = w, iters = quick ? 64 : 256;
  std::vector<int> out(size_t(w) * h);
  cl_mem b = c.buffer(out.size() * 4);
  size_t global[2] = {size_t(w), size_t(h)}, local[2] = {16, 16};
  Outcome o;
  o.ms = launch(c, "mandelbrot", 2, global, local, quick,
                [&](cl_kernel k) { setArgs(k, b, w, h, iters); });
  c.read(b, out.size() * 4, out.data());
  // The same float arithmetic on the host; contraction into FMAs may move a point on the set's
  // edge, so up to 1% of the pixels may differ.
  size_t differ = 0;
  for (int py = 0; py < h; ++py)
    for (int px = 0; px < w; ++px) {
      float cx = -2.0f + 3.0f * px / w, cy = -1.5f + 3.0f * py / h, x = 0, y = 0;
      int k = 0;
      while (k < iters && x * x + y * y <= 4.0f) {
        float t = x * x - y * y + cx;
        y = 2.0f * x * y + cy;
        x = t;
        ++k;
      }
      differ += out[size_t(py) * w + px] != k;
    }
  o.ok = differ * 100 <= out.size();
  clReleaseMemObject(b);
  return o;
}

Outcome sgemmTiled(PlatformContext& c, bool quick) {
  int n = quick ? 128 : 1024;
  size_t elems = size_t(n) * n;
  std::vector<float> a = randoms<float>(elems, -1, 1, 6), b = randoms<float>(elems, -1, 1, 7), out(elems);
  cl_mem ba = c.buffer(elems * 4, a.data()), bb = c.buffer(elems * 4, b.data()), bc = c.buffer(elems * 4);
  size_t global[2] = {size_t(n), size_t(n)}, local[2] = {16, 16};
  Outcome o;
  o.ms = launch(c, "sgemm_tiled", 2, global, local, quick,
                [&](cl_kernel k) { setArgs(k, ba, bb, bc, n); });
  c.read(bc, elems * 4, out.data());
  o.ok = true;
  std::mt19937 g(8);
  for (int s = 0; s < 64 && o.ok; ++s) {
    int row = int(g() % n), col = int(g() % n);
    double want = 0;
    for (int k = 0; k < n; ++k) want += double(a[size_t(row) * n + k]) * b[size_t(k) * n + col];
    o.ok = close(out[size_t(row) * n + col], want, 1e-3, 1e-3);
  }
  o.work = 2.0 * n * n * n;
  for (cl_mem m : {ba, bb, bc}) clReleaseMemObject(m);
  return o;
}

Outcome histogram(PlatformContext& c, bool quick) {
  const int per = 16, group = 256;
  size_t n = quick ? (1u << 20) : (16u << 20);
  std::vector<cl_uint> data(n), bins(256, 0), want(256, 0);
  std::mt19937 g(9);
  for (cl_uint& d : data) d = g();
  for (cl_uint d : data) ++want[d & 255];
  cl_mem bd = c.buffer(n * 4, data.data()), bb = c.buffer(256 * 4, bins.data());
  size_t global = n / per, local = group;
  Outcome o;
  o.ms = launch(c, "histogram256", 1, &global, &local, quick,
                [&](cl_kernel k) { setArgs(k, bd, bb, per); });
  c.read(bb, 256 * 4, bins.data());
  // Every run (the untimed one and the repetitions) added the whole histogram.
  const cl_uint runs = cl_uint(repsFor(quick) + 1);
  o.ok = true;
  for (int i = 0; i < 256; ++i) o.ok &= bins[i] == want[i] * runs;
  o.work = double(n) * 4;
  clReleaseMemObject(bd);
  clReleaseMemObject(bb);
  return o;
}

Outcome stencil(PlatformContext& c, bool quick) {
  int w = quick ? 512 : 4096, h = w;
  size_t px = size_t(w) * h;
  std::vector<float> in = randoms<float>(px, 0, 1, 10), out(px);
  cl_mem a = c.buffer(px * 4, in.data()), b = c.buffer(px * 4);
  size_t global[2] = {size_t(w), size_t(h)}, local[2] = {16, 16};
  Outcome o;
  o.ms = launch(c, "stencil5", 2, global, local, quick, [&](cl_kernel k) { setArgs(k, a, b, w, h); });
  c.read(b, px * 4, out.data());
  o.ok = true;
  for (int y = 0; y < h && o.ok; y += 7)
    for (int x = 0; x < w && o.ok; ++x) {
      size_t i = size_t(y) * w + x;
      double want = (x == 0 || y == 0 || x == w - 1 || y == h - 1)
                        ? in[i]
                        : 0.5 * in[i] + 0.125 * (double(in[i - 1]) + in[i + 1] + in[i - w] + in[i + w]);
      o.ok = close(out[i], want, 1e-5, 1e-6);
    }
  o.work = double(px) * 8;
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  return o;
}

Outcome softmax(PlatformContext& c, bool quick) {
  int rows = quick ? 1024 : 16384, cols = quick ? 256 : 1024;
  size_t elems = size_t(rows) * cols;
  std::vector<float> in = randoms<float>(elems, -4, 4, 11), out(elems);
  cl_mem a = c.buffer(elems * 4, in.data()), b = c.buffer(elems * 4);
  size_t global = size_t(rows);
  Outcome o;
  o.ms = launch(c, "softmax_rows", 1, &global, nullptr, quick,
                [&](cl_kernel k) { setArgs(k, a, b, cols); });
  c.read(b, elems * 4, out.data());
  o.ok = true;
  for (int r = 0; r < rows && o.ok; r += rows / 16) {
    const float* row = &in[size_t(r) * cols];
    double m = *std::max_element(row, row + cols), sum = 0;
    for (int k = 0; k < cols; ++k) sum += std::exp(row[k] - m);
    for (int k = 0; k < cols && o.ok; ++k)
      o.ok = close(out[size_t(r) * cols + k], std::exp(row[k] - m) / sum, 1e-4, 1e-7);
  }
  o.work = double(elems) * 8;
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  return o;
}

// The 8-bit image patterns share their input and their check's shape.
template <typename Reference>
Outcome image8(PlatformContext& c, bool quick, const char* name, Reference reference) {
  int w = quick ? 512 : 4096, h = w;
  size_t px = size_t(w) * h;
  std::vector<unsigned char> in(px), out(px);
  std::mt19937 g(12);
  for (unsigned char& v : in) v = static_cast<unsigned char>(g());
  cl_mem a = c.buffer(px, in.data()), b = c.buffer(px);
  size_t global[2] = {size_t(w), size_t(h)}, local[2] = {16, 16};
  Outcome o;
  o.ms = launch(c, name, 2, global, local, quick, [&](cl_kernel k) { setArgs(k, a, b, w, h); });
  c.read(b, px, out.data());
  auto at = [&](int x, int y) {
    return in[size_t(std::clamp(y, 0, h - 1)) * w + std::clamp(x, 0, w - 1)];
  };
  o.ok = true;
  for (int y = 0; y < h && o.ok; y += 5)
    for (int x = 0; x < w && o.ok; ++x) o.ok = out[size_t(y) * w + x] == reference(at, x, y);
  o.work = double(px) * 2;
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  return o;
}

Outcome erode(PlatformContext& c, bool quick) {
  return image8(c, quick, "erode7", [](auto at, int x, int y) {
    int m = 255;
    for (int dy = -3; dy <= 3; ++dy)
      for (int dx = -3; dx <= 3; ++dx)
        if (dx * dx + dy * dy <= 10) m = std::min<int>(m, at(x + dx, y + dy));
    return static_cast<unsigned char>(m);
  });
}

Outcome median(PlatformContext& c, bool quick) {
  return image8(c, quick, "median3", [](auto at, int x, int y) {
    unsigned char v[9];
    int i = 0;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) v[i++] = at(x + dx, y + dy);
    std::nth_element(v, v + 4, v + 9);
    return v[4];
  });
}

Outcome gauss(PlatformContext& c, bool quick) {
  static const float kWeights[7] = {0.0702f, 0.1311f, 0.1907f, 0.2160f, 0.1907f, 0.1311f, 0.0702f};
  int w = quick ? 512 : 2048, h = w;
  size_t px = size_t(w) * h;
  std::vector<float> in = randoms<float>(px, 0, 1, 13), out(px);
  cl_mem a = c.buffer(px * 4, in.data()), b = c.buffer(px * 4);
  size_t global[2] = {size_t(w), size_t(h)}, local[2] = {16, 16};
  Outcome o;
  o.ms = launch(c, "gauss7", 2, global, local, quick, [&](cl_kernel k) { setArgs(k, a, b, w, h); });
  c.read(b, px * 4, out.data());
  o.ok = true;
  for (int y = 0; y < h && o.ok; y += 11)
    for (int x = 0; x < w && o.ok; ++x) {
      double acc = 0;
      for (int dy = -3; dy <= 3; ++dy) {
        double row = 0;
        for (int dx = -3; dx <= 3; ++dx)
          row += kWeights[dx + 3] * double(in[size_t(std::clamp(y + dy, 0, h - 1)) * w +
                                              std::clamp(x + dx, 0, w - 1)]);
        acc += kWeights[dy + 3] * row;
      }
      o.ok = close(out[size_t(y) * w + x], acc, 1e-5, 1e-6);
    }
  o.work = double(px) * 8;
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  return o;
}

}  // namespace

const std::vector<Pattern>& patterns() {
  static const std::vector<Pattern> all = {
      {"copy", "copy, float4 (the bandwidth reference)", Limit::Bandwidth, copy},
      {"black_scholes", "Black-Scholes, 4M options", Limit::None, blackScholes},
      {"math_mix", "sin/cos/tanh/pow mix, 4M", Limit::None, mathMix},
      {"mandelbrot", "Mandelbrot 2048^2, 16x16 groups", Limit::None, mandelbrot},
      {"sgemm_tiled", "16x16 local-memory SGEMM 1024", Limit::Flops, sgemmTiled},
      {"histogram", "histogram, 256 local bins, atomic_inc, 16M", Limit::Bandwidth, histogram},
      {"stencil", "5-point stencil 4096^2, boundary branch", Limit::Bandwidth, stencil},
      {"softmax", "row softmax 16k x 1k, one work-item per row", Limit::Bandwidth, softmax},
      {"erode", "erosion 7x7 disc, local tile, 8-bit 4096^2", Limit::Bandwidth, erode},
      {"median", "median 3x3, sorting network, 8-bit 4096^2", Limit::Bandwidth, median},
      {"gauss", "Gaussian 7x7, one 2-D pass, float 2048^2", Limit::Bandwidth, gauss},
  };
  return all;
}

}  // namespace tessera::bench::patterns
