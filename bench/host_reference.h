// The machine's limits beside the kernels: plain C++ loops on every PU the process may use (vector
// add, sum, copy) and the FP32 FMA throughput peak. Shared by the suite's Level Zero and OpenCL
// parts and api_ratio_bench.
//
// What makes them the machine's limits on many cores too (issue 20, item 5): the loops run on a
// team of threads made once, one pinned to each allowed PU (as Tessera's workers are), asleep
// between runs; a run is timed from the moment every thread has started to the moment the last one
// finished, so neither thread creation (hundreds of microseconds at 16 threads, against a 1 ms
// loop) nor wake-ups count. Vector add and copy are measured with plain stores and with streaming
// (non-temporal) stores, and the better of the two is the reference: streaming stores save the
// read of each written line where the arrays do not fit in the caches, and cost where they do.
#pragma once

#include <immintrin.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tessera::bench::host {

inline double nowSec() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

// The CPUs this process may run on, in order.
inline std::vector<int> allowedCpus() {
  cpu_set_t set;
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

// One thread pinned to each allowed CPU, made at the first use and asleep between runs.
class Team {
 public:
  static Team& get() {
    static Team team;
    return team;
  }
  unsigned size() const { return unsigned(threads_.size()); }
  // Runs body(i) on every thread i at once; seconds from the moment all have started to the
  // moment the last one finished.
  double run(const std::function<void(unsigned)>& body) {
    std::unique_lock lock(mutex_);
    body_ = &body;
    arrived_ = 0, finished_ = 0, go_ = false, done_ = false;
    ++generation_;
    wake_.notify_all();
    idle_.wait(lock, [&] { return done_; });
    return end_ - start_;
  }
  ~Team() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
  }

 private:
  Team() {
    std::vector<int> cpus = allowedCpus();
    unsigned n =
        cpus.empty() ? std::max(1u, std::thread::hardware_concurrency()) : unsigned(cpus.size());
    for (unsigned i = 0; i < n; ++i)
      threads_.emplace_back([this, i, n, cpu = cpus.empty() ? -1 : cpus[i]] { main(i, n, cpu); });
  }
  void main(unsigned i, unsigned n, int cpu) {
    if (cpu >= 0) {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(cpu, &one);
      sched_setaffinity(0, sizeof one, &one);
    }
    uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return generation_ != seen || stop_; });
        if (stop_) return;
        seen = generation_;
      }
      // Everyone started: the last to arrive starts the clock.
      if (arrived_.fetch_add(1) + 1 == n) {
        start_ = nowSec();
        go_.store(true);
      }
      while (!go_.load()) _mm_pause();
      (*body_)(i);
      if (finished_.fetch_add(1) + 1 == n) {
        end_ = nowSec();
        std::lock_guard lock(mutex_);
        done_ = true;
        idle_.notify_one();
      }
    }
  }

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_, idle_;
  uint64_t generation_ = 0;
  bool stop_ = false, done_ = false;
  const std::function<void(unsigned)>* body_ = nullptr;
  std::atomic<unsigned> arrived_{0}, finished_{0};
  std::atomic<bool> go_{false};
  double start_ = 0, end_ = 0;
};

inline unsigned threads() {
  return Team::get().size();
}

// Runs body(begin, end) over [0, n) cut in equal parts, one per thread of the team; seconds.
inline double parallelFor(size_t n, const std::function<void(size_t, size_t)>& body) {
  const unsigned t = threads();
  return Team::get().run([&](unsigned i) { body(n * i / t, n * (i + 1) / t); });
}

// `bytes` of page-aligned memory (free with std::free), zeroed by every thread of the team, each its
// own part: the pages are first touched, so placed, as a kernel's workers will use them, not all on
// the node of the thread that initializes the data afterwards.
inline void* pageArray(size_t bytes) {
  const size_t rounded = (bytes + 4095) / 4096 * 4096;
  auto* p = static_cast<char*>(std::aligned_alloc(4096, rounded));
  if (p) parallelFor(rounded, [&](size_t lo, size_t hi) { std::memset(p + lo, 0, hi - lo); });
  return p;
}

// c = a + b over [lo, hi) with streaming stores (c's lines are not read first).
__attribute__((target("avx512f"))) inline void addStreaming512(const float* a, const float* b,
                                                               float* c, size_t lo, size_t hi) {
  size_t i = lo;
  for (; i < hi && (reinterpret_cast<uintptr_t>(c + i) & 63); ++i) c[i] = a[i] + b[i];
  for (; i + 16 <= hi; i += 16)
    _mm512_stream_ps(c + i, _mm512_add_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i)));
  for (; i < hi; ++i) c[i] = a[i] + b[i];
  _mm_sfence();
}
__attribute__((target("avx"))) inline void addStreaming256(const float* a, const float* b, float* c,
                                                           size_t lo, size_t hi) {
  size_t i = lo;
  for (; i < hi && (reinterpret_cast<uintptr_t>(c + i) & 31); ++i) c[i] = a[i] + b[i];
  for (; i + 8 <= hi; i += 8)
    _mm256_stream_ps(c + i, _mm256_add_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i)));
  for (; i < hi; ++i) c[i] = a[i] + b[i];
  _mm_sfence();
}

// Copies [lo, hi) of src to dst with streaming stores.
__attribute__((target("avx512f"))) inline void copyStreaming512(char* dst, const char* src,
                                                                size_t lo, size_t hi) {
  size_t i = lo;
  // Up to dst's next 64-byte boundary by memcpy (streaming stores need aligned addresses).
  size_t head = std::min(hi, lo + ((64 - reinterpret_cast<uintptr_t>(dst + lo) % 64) % 64));
  if (head > i) std::memcpy(dst + i, src + i, head - i), i = head;
  for (; i + 64 <= hi; i += 64)
    _mm512_stream_si512(reinterpret_cast<__m512i*>(dst + i),
                        _mm512_loadu_si512(reinterpret_cast<const void*>(src + i)));
  if (hi > i) std::memcpy(dst + i, src + i, hi - i);
  _mm_sfence();
}

// The better of plain and streaming stores (see the top of the file); seconds.
inline double vectorAdd(const float* a, const float* b, float* c, size_t n) {
  const bool avx512 = __builtin_cpu_supports("avx512f"), avx = __builtin_cpu_supports("avx");
  double plain = parallelFor(n, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i) c[i] = a[i] + b[i];
  });
  if (!avx) return plain;
  // Streaming chunks start on 64-byte boundaries, so no two threads share a line of c.
  const size_t lines = (n + 15) / 16;
  double streaming = parallelFor(lines, [&](size_t lo, size_t hi) {
    size_t from = lo * 16, to = std::min(n, hi * 16);
    avx512 ? addStreaming512(a, b, c, from, to) : addStreaming256(a, b, c, from, to);
  });
  return std::min(plain, streaming);
}

inline double copy(char* dst, const char* src, size_t bytes) {
  double plain =
      parallelFor(bytes, [&](size_t lo, size_t hi) { std::memcpy(dst + lo, src + lo, hi - lo); });
  if (!__builtin_cpu_supports("avx512f")) return plain;
  double streaming = parallelFor((bytes + 63) / 64, [&](size_t lo, size_t hi) {
    copyStreaming512(dst, src, lo * 64, std::min(bytes, hi * 64));
  });
  return std::min(plain, streaming);
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

// {GFLOP/s, lanes}: the peak over every thread of the team, the best of `rounds` runs of `iters`
// iterations each: a peak is what the machine can do, and a run that another process or a
// runtime's spinning thread interrupted understates it (on a shared 2-vCPU VM single runs gave
// 94 and 145 GFLOP/s where the best of several gives 180).
inline std::pair<double, int> fmaPeak(long iters = 20'000'000, int rounds = 5) {
  bool avx512 = __builtin_cpu_supports("avx512f");
  int lanes = avx512 ? 16 : 8;
  std::atomic<double> sink{0};
  double best = 0;
  for (int r = 0; r < rounds; ++r) {
    double s = Team::get().run([&](unsigned) {
      double v = avx512 ? fmaLoop512(iters) : fmaLoop256(iters);
      sink.store(v, std::memory_order_relaxed);
    });
    double flops = double(threads()) * double(iters) * 12 * lanes * 2;
    best = std::max(best, flops / s / 1e9);
  }
  return {best, lanes};
}

}  // namespace tessera::bench::host
