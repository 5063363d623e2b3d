// The machine's limits beside the kernels: plain C++ loops on every hardware thread (vector add,
// sum, memcpy) and the FP32 FMA throughput peak. Shared by the suite's Level Zero and OpenCL parts.
#pragma once

#include <immintrin.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

namespace tessera::bench::host {

inline double nowSec() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

inline unsigned threads() { return std::max(1u, std::thread::hardware_concurrency()); }

// The CPUs this process may run on, in order.
inline std::vector<int> allowedCpus() {
  cpu_set_t set;
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

// Runs body(begin, end) on `threads()` threads over [0, n), thread i pinned to the i-th allowed
// CPU; returns seconds. (Unpinned, a new thread often starts on its parent's CPU and shares it for
// the few milliseconds a 64 MiB loop takes: the plain sum moved between 15-20 and 36-50 GB/s from
// run to run.)
inline double parallelFor(size_t n, const std::function<void(size_t, size_t)>& body) {
  static const std::vector<int> cpus = allowedCpus();
  unsigned t = threads();
  std::vector<std::thread> ts;
  double t0 = nowSec();
  for (unsigned i = 0; i < t; ++i)
    ts.emplace_back([&, i] {
      if (!cpus.empty()) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpus[i % cpus.size()], &one);
        sched_setaffinity(0, sizeof one, &one);
      }
      body(n * i / t, n * (i + 1) / t);
    });
  for (auto& th : ts) th.join();
  return nowSec() - t0;
}

inline double vectorAdd(const float* a, const float* b, float* c, size_t n) {
  return parallelFor(n, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i) c[i] = a[i] + b[i];
  });
}

inline double copy(char* dst, const char* src, size_t bytes) {
  return parallelFor(bytes, [&](size_t lo, size_t hi) { std::memcpy(dst + lo, src + lo, hi - lo); });
}

inline double sum(const float* in, size_t n, float* result) {
  std::vector<double> parts(threads() * 16, 0.0);
  std::atomic<unsigned> next{0};
  double s = parallelFor(n, [&](size_t lo, size_t hi) {
    float acc[16] = {};
    size_t i = lo;
    for (; i + 16 <= hi; i += 16)
      for (int j = 0; j < 16; ++j) acc[j] += in[i + j];
    for (; i < hi; ++i) acc[0] += in[i];
    float t = 0;
    for (float v : acc) t += v;
    parts[16 * next.fetch_add(1)] = t;
  });
  double total = 0;
  for (double p : parts) total += p;
  *result = float(total);
  return s;
}

// FP32 FMA throughput: independent FMA chains in registers on every hardware thread; GFLOP/s.
__attribute__((target("avx512f"))) inline double fmaLoop512(long iters) {
  __m512 a[12], m = _mm512_set1_ps(0.999999f), x = _mm512_set1_ps(1e-7f);
  for (int i = 0; i < 12; ++i) a[i] = _mm512_set1_ps(float(i));
  for (long k = 0; k < iters; ++k)
    for (int i = 0; i < 12; ++i) a[i] = _mm512_fmadd_ps(a[i], m, x);
  alignas(64) float v[16];
  float out = 0;
  for (int i = 0; i < 12; ++i) {
    _mm512_store_ps(v, a[i]);
    for (float f : v) out += f;
  }
  return out;
}
__attribute__((target("avx2,fma"))) inline double fmaLoop256(long iters) {
  __m256 a[12], m = _mm256_set1_ps(0.999999f), x = _mm256_set1_ps(1e-7f);
  for (int i = 0; i < 12; ++i) a[i] = _mm256_set1_ps(float(i));
  for (long k = 0; k < iters; ++k)
    for (int i = 0; i < 12; ++i) a[i] = _mm256_fmadd_ps(a[i], m, x);
  alignas(32) float v[8];
  float out = 0;
  for (int i = 0; i < 12; ++i) {
    _mm256_store_ps(v, a[i]);
    for (float f : v) out += f;
  }
  return out;
}

// {GFLOP/s, lanes}: the peak over all hardware threads.
inline std::pair<double, int> fmaPeak(long iters = 20'000'000) {
  bool avx512 = __builtin_cpu_supports("avx512f");
  int lanes = avx512 ? 16 : 8;
  unsigned t = threads();
  std::vector<std::thread> ts;
  std::atomic<double> sink{0};
  double t0 = nowSec();
  for (unsigned i = 0; i < t; ++i)
    ts.emplace_back([&] {
      double r = avx512 ? fmaLoop512(iters) : fmaLoop256(iters);
      sink.store(r, std::memory_order_relaxed);
    });
  for (auto& th : ts) th.join();
  double s = nowSec() - t0;
  double flops = double(t) * double(iters) * 12 * lanes * 2;
  return {flops / s / 1e9, lanes};
}

}  // namespace tessera::bench::host
