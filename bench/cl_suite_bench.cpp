// The benchmark suite's OpenCL part (issue 8): the same measurements on every OpenCL platform the
// ICD loader shows whose name matches --platform (all when absent), then a table side by side with
// the ratios Tessera / PoCL. Kernels: bench/kernels/suite.cl, built from source on each platform.
//
//   cl_suite_bench [--platform NAME]... [--quick] [--markdown FILE]
//
// To see Tessera and PoCL in one process, OCL_ICD_VENDORS names a folder holding both .icd files
// (scripts/bench.sh makes one). --quick: tiny sizes and counts (the ctest smoke run; no timing is
// asserted). Figures are medians with [p10, p90] over the repetitions.
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <unistd.h>
#include <vector>

#include "cl_check.h"
#include "cl_platforms.h"
#include "host_reference.h"
#include "launch_balance.h"

namespace {

using tessera::bench::platformMatches;
using tessera::bench::platformName;

using tessera::bench::host::nowSec;


struct Stats {
  double median = NAN, p10 = NAN, p90 = NAN, p99 = NAN;
  bool valid() const { return !std::isnan(median); }
};
Stats stats(std::vector<double> v) {
  Stats s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  auto at = [&](double q) { return v[size_t(q * double(v.size() - 1) + 0.5)]; };
  s.median = at(0.5);
  s.p10 = at(0.1);
  s.p90 = at(0.9);
  s.p99 = at(0.99);
  return s;
}

// One row of the table: what, unit, and whether more is better.
struct Measure {
  std::string key, label, unit;
  bool higherBetter;
};
const std::vector<Measure> kMeasures = {
    {"launch", "empty kernel, clEnqueueNDRangeKernel + clFinish each", "us", false},
    {"b2b", "back-to-back: N enqueues then one clFinish, per launch", "us", false},
    {"b2b_enqueue", "  of which the enqueue call alone", "us", false},
    {"vadd", "vector add 16M floats (12 B/element)", "GB/s", true},
    {"naive", "naive SGEMM 1024^3", "GFLOP/s", true},
    {"tiled", "16x16 tiled SGEMM 1024^3 (__local, barriers)", "GFLOP/s", true},
    {"reduce", "work-group reduction 16M floats (best of 16/64 per item)", "GB/s", true},
    {"build_cold", "clBuildProgram vector add from source, cold", "ms", false},
    {"first_launch", "  first launch after a cold build (create kernel + run)", "ms", false},
    {"build_warm", "clBuildProgram, same source again", "ms", false},
    {"iso_idle_p50", "isolation: small kernel on sub-device 0, sub 1 idle, p50", "us", false},
    {"iso_idle_p99", "  sub 1 idle, p99", "us", false},
    {"iso_load_p50", "  sub 1 running SGEMM, p50", "us", false},
    {"iso_load_p99", "  sub 1 running SGEMM, p99", "us", false},
};

struct Config {
  bool quick = false;
  size_t vaddN = 16u << 20, reduceN = 16u << 20;
  int gemmN = 1024;
  int launchReps = 2000, b2bLaunches = 10000, b2bReps = 7, vaddReps = 11, gemmReps = 3,
      reduceReps = 11, buildReps = 5, isoReps = 2000;
};

std::string kernelSource;
// Tessera's launch balance per kernel (launch_balance.h), for the report.
std::vector<std::pair<std::string, std::string>> tesseraBalance;



using tessera::bench::host::pageArray;

cl_program build(cl_context ctx, const std::string& src, cl_uint ndev, const cl_device_id* devs) {
  const char* s = src.c_str();
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &s, nullptr, &err);
  CL_CHECK(err);
  err = clBuildProgram(p, ndev, devs, "", nullptr, nullptr);
  if (err != CL_SUCCESS) {
    char log[8192] = {};
    clGetProgramBuildInfo(p, devs[0], CL_PROGRAM_BUILD_LOG, sizeof log, log, nullptr);
    std::fprintf(stderr, "clBuildProgram failed (%d): %s\n", err, log);
    std::exit(1);
  }
  return p;
}

cl_kernel kernel(cl_program p, const char* name) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  CL_CHECK(err);
  return k;
}

template <typename T>
void arg(cl_kernel k, cl_uint i, const T& v) {
  CL_CHECK(clSetKernelArg(k, i, sizeof v, &v));
}

class PlatformRun {
 public:
  PlatformRun(cl_platform_id platform, const Config& cfg) : cfg_(cfg) {
    CL_CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device_, nullptr));
    cl_int err;
    ctx_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err);
    CL_CHECK(err);
    queue_ = clCreateCommandQueueWithProperties(ctx_, device_, nullptr, &err);
    CL_CHECK(err);
    program_ = build(ctx_, kernelSource, 1, &device_);
    if (platformName(platform).find("Tessera") != std::string::npos)
      balance_ = tessera::bench::LaunchBalance::fromLoadedDriver();
  }
  ~PlatformRun() {
    clReleaseProgram(program_);
    clReleaseCommandQueue(queue_);
    clReleaseContext(ctx_);
  }

  std::map<std::string, Stats> run() {
    launch();
    backToBack();
    vectorAdd();
    sgemm();
    reduce();
    buildFromSource();
    isolation();
    for (auto [key, label, unit] :
         {std::tuple{"ref_vadd",
                     "(machine) plain C++ vector add, every PU (best of plain/streaming)", "GB/s"},
          {"ref_memcpy", "(machine) copy, every PU (read + write; best of memcpy/streaming)",
           "GB/s"},
          {"ref_reduce", "(machine) plain C++ sum, every PU", "GB/s"},
          {"ref_peak", "(machine) FP32 FMA peak, every PU", "GFLOP/s"}}) {
      const Stats& st = results_[key];
      std::printf("  %-62s %10.3f %-7s [p10 %.3f, p90 %.3f]\n", label, st.median, unit, st.p10,
                  st.p90);
    }
    return results_;
  }

 private:
  void put(const char* key, const Stats& s, const char* unitNote = "") {
    results_[key] = s;
    const Measure* m = nullptr;
    for (const auto& x : kMeasures)
      if (x.key == key) m = &x;
    std::printf("  %-62s %10.3f %-7s [p10 %.3f, p90 %.3f]%s\n", m->label.c_str(), s.median,
                m->unit.c_str(), s.p10, s.p90, unitNote);
    std::fflush(stdout);
  }

  // The workers' balance of the launches timed since the last call (Tessera only).
  void putBalance(const char* key) {
    if (!balance_.available()) return;
    std::string line = balance_.summary();
    std::printf("  %-62s %s\n", "  launch balance (medians)", line.c_str());
    tesseraBalance.emplace_back(key, line);
    balance_.clear();
  }

  cl_mem hostBuffer(void* p, size_t bytes, cl_mem_flags rw) {
    cl_int err;
    cl_mem m = clCreateBuffer(ctx_, rw | CL_MEM_USE_HOST_PTR, bytes, p, &err);
    CL_CHECK(err);
    return m;
  }

  void launch() {
    cl_kernel k = kernel(program_, "empty");
    int sink = 0;
    cl_mem out = hostBuffer(&sink, 4096, CL_MEM_READ_WRITE);
    arg(k, 0, out);
    size_t one = 1;
    for (int i = 0; i < 20; ++i) CL_CHECK(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
    CL_CHECK(clFinish(queue_));
    std::vector<double> t;
    for (int i = 0; i < cfg_.launchReps; ++i) {
      double t0 = nowSec();
      CL_CHECK(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
      CL_CHECK(clFinish(queue_));
      t.push_back((nowSec() - t0) * 1e6);
    }
    put("launch", stats(t));
    clReleaseMemObject(out);
    clReleaseKernel(k);
  }

  void backToBack() {
    cl_kernel k = kernel(program_, "empty");
    alignas(4096) static int sink[1024];
    cl_mem out = hostBuffer(sink, sizeof sink, CL_MEM_READ_WRITE);
    arg(k, 0, out);
    size_t one = 1;
    std::vector<double> total, enqueue;
    for (int r = 0; r < cfg_.b2bReps; ++r) {
      double t0 = nowSec();
      for (int i = 0; i < cfg_.b2bLaunches; ++i)
        CL_CHECK(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
      double t1 = nowSec();
      CL_CHECK(clFinish(queue_));
      double t2 = nowSec();
      total.push_back((t2 - t0) * 1e6 / cfg_.b2bLaunches);
      enqueue.push_back((t1 - t0) * 1e6 / cfg_.b2bLaunches);
    }
    put("b2b", stats(total));
    put("b2b_enqueue", stats(enqueue));
    clReleaseMemObject(out);
    clReleaseKernel(k);
  }

  void vectorAdd() {
    size_t n = cfg_.vaddN, bytes = n * 4;
    auto* a = static_cast<float*>(pageArray(bytes));
    auto* b = static_cast<float*>(pageArray(bytes));
    auto* c = static_cast<float*>(pageArray(bytes));
    for (size_t i = 0; i < n; ++i) {
      a[i] = float(i % 1000);
      b[i] = 0.5f;
      c[i] = 0;
    }
    cl_mem ma = hostBuffer(a, bytes, CL_MEM_READ_ONLY), mb = hostBuffer(b, bytes, CL_MEM_READ_ONLY),
           mc = hostBuffer(c, bytes, CL_MEM_WRITE_ONLY);
    cl_kernel k = kernel(program_, "vadd");
    arg(k, 0, ma);
    arg(k, 1, mb);
    arg(k, 2, mc);
    // The plain loop and memcpy interleaved with the kernel, so all see the same machine state.
    auto* h = static_cast<float*>(pageArray(bytes));
    std::memset(h, 0, bytes);
    std::vector<double> g, loop, copy;
    for (int r = 0; r < cfg_.vaddReps + 1; ++r) {
      if (r) balance_.start();
      double t0 = nowSec();
      CL_CHECK(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
      CL_CHECK(clFinish(queue_));
      if (!r) continue;  // the first run warms up
      balance_.stop();
      g.push_back(double(12 * n) / (nowSec() - t0) / 1e9);
      namespace host = tessera::bench::host;
      loop.push_back(double(12 * n) / host::vectorAdd(a, b, h, n) / 1e9);
      copy.push_back(double(2 * bytes) /
                     host::copy(reinterpret_cast<char*>(h), reinterpret_cast<char*>(b), bytes) / 1e9);
    }
    results_["ref_vadd"] = stats(loop);
    results_["ref_memcpy"] = stats(copy);
    std::free(h);
    float check[3];
    size_t idx[3] = {0, n / 2 + 3, n - 1};
    for (int j = 0; j < 3; ++j)
      CL_CHECK(clEnqueueReadBuffer(queue_, mc, CL_TRUE, idx[j] * 4, 4, &check[j], 0, nullptr, nullptr));
    for (int j = 0; j < 3; ++j)
      if (check[j] != float(idx[j] % 1000) + 0.5f) {
        std::fprintf(stderr, "vadd: wrong result at %zu\n", idx[j]);
        std::exit(1);
      }
    put("vadd", stats(g));
    putBalance("vadd");
    clReleaseKernel(k);
    for (cl_mem m : {ma, mb, mc}) clReleaseMemObject(m);
    std::free(a), std::free(b), std::free(c);
  }

  void sgemm() {
    int N = cfg_.gemmN;
    size_t bytes = size_t(N) * N * 4;
    auto* A = static_cast<float*>(pageArray(bytes));
    auto* B = static_cast<float*>(pageArray(bytes));
    auto* C = static_cast<float*>(pageArray(bytes));
    for (size_t i = 0; i < size_t(N) * N; ++i) {
      A[i] = float(int(i % 13) - 6) * 0.25f;
      B[i] = float(int(i % 7) - 3) * 0.5f;
    }
    cl_mem mA = hostBuffer(A, bytes, CL_MEM_READ_ONLY), mB = hostBuffer(B, bytes, CL_MEM_READ_ONLY),
           mC = hostBuffer(C, bytes, CL_MEM_WRITE_ONLY);
    double flops = 2.0 * N * double(N) * N;
    for (const char* name : {"sgemm_naive", "sgemm_tiled"}) {
      bool tiled = name[6] == 't';
      cl_kernel k = kernel(program_, name);
      arg(k, 0, mA);
      arg(k, 1, mB);
      arg(k, 2, mC);
      arg(k, 3, N);
      size_t global[2] = {size_t(N), size_t(N)}, local[2] = {16, 16};
      std::vector<double> g;
      for (int r = 0; r < cfg_.gemmReps + 1; ++r) {
        std::memset(C, 0, bytes);
        if (r) balance_.start();
        double t0 = nowSec();
        CL_CHECK(clEnqueueNDRangeKernel(queue_, k, 2, nullptr, global, tiled ? local : nullptr, 0,
                                     nullptr, nullptr));
        CL_CHECK(clFinish(queue_));
        if (r) g.push_back(flops / (nowSec() - t0) / 1e9), balance_.stop();
      }
      std::vector<float> out(size_t(N) * N);
      CL_CHECK(clEnqueueReadBuffer(queue_, mC, CL_TRUE, 0, bytes, out.data(), 0, nullptr, nullptr));
      for (int row : {0, N / 3, N - 1})
        for (int col : {0, N / 2 + 1, N - 1}) {
          double ref = 0;
          for (int kk = 0; kk < N; ++kk) ref += double(A[row * N + kk]) * B[kk * N + col];
          if (std::fabs(out[row * N + col] - ref) > 1e-3 * (1 + std::fabs(ref))) {
            std::fprintf(stderr, "%s: wrong C[%d][%d] %f, expected %f\n", name, row, col,
                         out[row * N + col], ref);
            std::exit(1);
          }
        }
      put(tiled ? "tiled" : "naive", stats(g));
      putBalance(tiled ? "tiled" : "naive");
      clReleaseKernel(k);
    }
    for (cl_mem m : {mA, mB, mC}) clReleaseMemObject(m);
    std::free(A), std::free(B), std::free(C);
    std::vector<double> peak;
    for (int r = 0; r < (cfg_.quick ? 1 : 3); ++r)
      peak.push_back(tessera::bench::host::fmaPeak(cfg_.quick ? 1'000'000 : 20'000'000).first);
    results_["ref_peak"] = stats(peak);
  }

  void reduce() {
    size_t n = cfg_.reduceN, bytes = n * 4;
    auto* in = static_cast<float*>(pageArray(bytes));
    double ref = 0;
    for (size_t i = 0; i < n; ++i) ref += (in[i] = float(i % 5) * 0.25f);
    cl_mem mIn = hostBuffer(in, bytes, CL_MEM_READ_ONLY);
    cl_kernel k = kernel(program_, "reduce");
    Stats best;
    int bestPer = 0;
    std::vector<double> hostSum;  // the plain sum, interleaved with the kernel
    for (size_t perItem : {size_t(16), size_t(64)}) {
      size_t global = std::max<size_t>(256, n / perItem / 256 * 256), local = 256;
      size_t groups = global / 256;
      std::vector<float> partial(groups);
      cl_int err;
      cl_mem mOut = clCreateBuffer(ctx_, CL_MEM_WRITE_ONLY, groups * 4, nullptr, &err);
      CL_CHECK(err);
      arg(k, 0, mIn);
      arg(k, 1, mOut);
      arg(k, 2, cl_uint(n));
      std::vector<double> g;
      for (int r = 0; r < cfg_.reduceReps + 1; ++r) {
        if (r) balance_.start();
        double t0 = nowSec();
        CL_CHECK(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
        CL_CHECK(clFinish(queue_));
        if (!r) continue;
        g.push_back(double(bytes) / (nowSec() - t0) / 1e9);
        balance_.stop();
        float hs;
        hostSum.push_back(double(bytes) / tessera::bench::host::sum(in, n, &hs) / 1e9);
      }
      CL_CHECK(clEnqueueReadBuffer(queue_, mOut, CL_TRUE, 0, groups * 4, partial.data(), 0, nullptr,
                                nullptr));
      double total = 0;
      for (float p : partial) total += p;
      if (std::fabs(total - ref) > 1e-4 * ref) {
        std::fprintf(stderr, "reduce: sum %f, expected %f\n", total, ref);
        std::exit(1);
      }
      Stats s = stats(g);
      if (!best.valid() || s.median > best.median) best = s, bestPer = int(perItem);
      clReleaseMemObject(mOut);
    }
    char note[64];
    std::snprintf(note, sizeof note, "  (%d per work-item)", bestPer);
    put("reduce", best, note);
    putBalance("reduce");
    results_["ref_reduce"] = stats(hostSum);
    clReleaseKernel(k);
    clReleaseMemObject(mIn);
    std::free(in);
  }

  // Cold: a source no build of this run (nor an earlier run: the pid and time are in it) has seen,
  // so no cache of either implementation can answer; the same source again is the warm build.
  void buildFromSource() {
    const char* vadd =
        "__kernel void vadd(__global const float* a, __global const float* b, __global float* c) {\n"
        "  size_t i = get_global_id(0);\n  c[i] = a[i] + b[i];\n}\n";
    std::vector<double> cold, first, warm;
    for (int r = 0; r < cfg_.buildReps; ++r) {
      char uniq[160];
      std::snprintf(uniq, sizeof uniq,
                    "__kernel void uniq(__global int* p) { p[0] = %d; p[1] = %ld; p[2] = %lld; }\n",
                    r, long(getpid()), (long long)(nowSec() * 1e6));
      std::string src = std::string(vadd) + uniq;
      double t0 = nowSec();
      cl_program p = build(ctx_, src, 1, &device_);
      double t1 = nowSec();
      cold.push_back((t1 - t0) * 1e3);
      // The first launch: PoCL compiles its work-group functions here.
      cl_kernel k = kernel(p, "vadd");
      alignas(4096) static float buf[3][1024];
      cl_mem m[3];
      for (int j = 0; j < 3; ++j) m[j] = hostBuffer(buf[j], sizeof buf[j], CL_MEM_READ_WRITE);
      for (int j = 0; j < 3; ++j) arg(k, cl_uint(j), m[j]);
      size_t global = 1024;
      CL_CHECK(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
      CL_CHECK(clFinish(queue_));
      first.push_back((nowSec() - t1) * 1e3);
      clReleaseKernel(k);
      for (cl_mem x : m) clReleaseMemObject(x);
      double t2 = nowSec();
      cl_program again = build(ctx_, src, 1, &device_);
      warm.push_back((nowSec() - t2) * 1e3);
      clReleaseProgram(again);
      clReleaseProgram(p);
    }
    put("build_cold", stats(cold));
    put("first_launch", stats(first));
    put("build_warm", stats(warm));
  }

  // Sub-devices of one compute unit each: small vector adds (4096 floats, enqueue + clFinish) on
  // sub-device 0, with sub-device 1 idle and then running the tiled SGEMM over and over.
  void isolation() {
    cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_uint count = 0;
    if (clCreateSubDevices(device_, props, 0, nullptr, &count) != CL_SUCCESS || count < 2) {
      std::printf("  isolation: no 2 sub-devices of 1 compute unit (CL_DEVICE_PARTITION_EQUALLY)\n");
      return;
    }
    std::vector<cl_device_id> subs(count);
    CL_CHECK(clCreateSubDevices(device_, props, count, subs.data(), nullptr));
    cl_int err;
    cl_context ctx = clCreateContext(nullptr, 2, subs.data(), nullptr, nullptr, &err);
    CL_CHECK(err);
    cl_command_queue q0 = clCreateCommandQueueWithProperties(ctx, subs[0], nullptr, &err);
    CL_CHECK(err);
    cl_command_queue q1 = clCreateCommandQueueWithProperties(ctx, subs[1], nullptr, &err);
    CL_CHECK(err);
    cl_program p = build(ctx, kernelSource, 2, subs.data());
    // Small kernel on sub-device 0.
    const size_t n = 4096;
    alignas(4096) static float a[n], b[n], c[n];
    auto buf = [&](void* ptr, size_t bytes) {
      cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, ptr, &err);
      CL_CHECK(err);
      return m;
    };
    cl_mem ma = buf(a, sizeof a), mb = buf(b, sizeof b), mc = buf(c, sizeof c);
    cl_kernel small = kernel(p, "vadd");
    arg(small, 0, ma);
    arg(small, 1, mb);
    arg(small, 2, mc);
    // SGEMM on sub-device 1.
    int N = cfg_.gemmN;
    size_t bytes = size_t(N) * N * 4;
    cl_mem gA = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    CL_CHECK(err);
    cl_mem gB = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    CL_CHECK(err);
    cl_mem gC = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    CL_CHECK(err);
    float zero = 0;
    for (cl_mem m : {gA, gB})
      CL_CHECK(clEnqueueFillBuffer(q1, m, &zero, 4, 0, bytes, 0, nullptr, nullptr));
    CL_CHECK(clFinish(q1));
    cl_kernel gemm = kernel(p, "sgemm_tiled");
    arg(gemm, 0, gA);
    arg(gemm, 1, gB);
    arg(gemm, 2, gC);
    arg(gemm, 3, N);
    auto sample = [&](const char* p50, const char* p99) {
      size_t local = 64;
      for (int i = 0; i < 10; ++i) {
        CL_CHECK(clEnqueueNDRangeKernel(q0, small, 1, nullptr, &n, &local, 0, nullptr, nullptr));
        CL_CHECK(clFinish(q0));
      }
      std::vector<double> t;
      for (int i = 0; i < cfg_.isoReps; ++i) {
        double t0 = nowSec();
        CL_CHECK(clEnqueueNDRangeKernel(q0, small, 1, nullptr, &n, &local, 0, nullptr, nullptr));
        CL_CHECK(clFinish(q0));
        t.push_back((nowSec() - t0) * 1e6);
      }
      Stats s = stats(t);
      put(p50, {s.median, s.p10, s.p90, s.p99});
      put(p99, {s.p99, s.p99, s.p99, s.p99});
    };
    sample("iso_idle_p50", "iso_idle_p99");
    std::atomic<bool> stop{false};
    std::atomic<int> gemms{0};
    std::thread loader([&] {
      size_t global[2] = {size_t(N), size_t(N)}, local[2] = {16, 16};
      while (!stop.load()) {
        CL_CHECK(clEnqueueNDRangeKernel(q1, gemm, 2, nullptr, global, local, 0, nullptr, nullptr));
        CL_CHECK(clFinish(q1));
        ++gemms;
      }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the SGEMM is running
    sample("iso_load_p50", "iso_load_p99");
    stop = true;
    loader.join();
    std::printf("  (SGEMMs completed on sub-device 1 meanwhile: %d)\n", gemms.load());
    clReleaseKernel(gemm);
    clReleaseKernel(small);
    for (cl_mem m : {ma, mb, mc, gA, gB, gC}) clReleaseMemObject(m);
    clReleaseProgram(p);
    clReleaseCommandQueue(q0);
    clReleaseCommandQueue(q1);
    clReleaseContext(ctx);
    for (cl_device_id d : subs) clReleaseDevice(d);
  }

  const Config& cfg_;
  cl_device_id device_ = nullptr;
  cl_context ctx_ = nullptr;
  cl_command_queue queue_ = nullptr;
  cl_program program_ = nullptr;
  std::map<std::string, Stats> results_;
  tessera::bench::LaunchBalance balance_;
};

std::string fmt(const Stats& s, bool spread = true) {
  if (!s.valid()) return "n/a";
  char b[96];
  int prec = s.median < 1 ? 3 : s.median < 100 ? 2 : 1;
  if (spread)
    std::snprintf(b, sizeof b, "%.*f [%.*f, %.*f]", prec, s.median, prec, s.p10, prec, s.p90);
  else
    std::snprintf(b, sizeof b, "%.*f", prec, s.median);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  Config cfg;
  std::vector<std::string> filters;
  std::string markdown;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--quick") {
      cfg.quick = true;
    } else if (a == "--platform" && i + 1 < argc) {
      filters.push_back(argv[++i]);
    } else if (a == "--markdown" && i + 1 < argc) {
      markdown = argv[++i];
    } else {
      std::fprintf(stderr, "usage: %s [--platform NAME]... [--quick] [--markdown FILE]\n", argv[0]);
      return 2;
    }
  }
  if (cfg.quick) {
    cfg.vaddN = cfg.reduceN = 1u << 16;
    cfg.gemmN = 64;
    cfg.launchReps = 20, cfg.b2bLaunches = 100, cfg.b2bReps = 3, cfg.vaddReps = 3,
    cfg.gemmReps = 1, cfg.reduceReps = 3, cfg.buildReps = 1, cfg.isoReps = 20;
  }
  {
    std::ifstream in(TESSERA_BENCH_SUITE_CL);
    std::stringstream ss;
    ss << in.rdbuf();
    kernelSource = ss.str();
    if (kernelSource.empty()) {
      std::fprintf(stderr, "cannot read %s\n", TESSERA_BENCH_SUITE_CL);
      return 1;
    }
  }
  cl_uint np = 0;
  clGetPlatformIDs(0, nullptr, &np);
  std::vector<cl_platform_id> platforms(np);
  if (np) CL_CHECK(clGetPlatformIDs(np, platforms.data(), nullptr));

  namespace host = tessera::bench::host;
  std::printf("OpenCL suite%s: %u hardware threads\n", cfg.quick ? " (--quick)" : "",
              host::threads());
  std::printf("  FMA: %s\n", __builtin_cpu_supports("avx512f") ? "AVX-512 (16 lanes)" : "AVX2 (8 lanes)");
  std::vector<std::pair<std::string, std::map<std::string, Stats>>> runs;
  for (cl_platform_id p : platforms) {
    std::string name = platformName(p);
    if (!platformMatches(name, filters)) continue;
    std::printf("\nPlatform: %s\n", name.c_str());
    std::fflush(stdout);
    PlatformRun run(p, cfg);
    runs.emplace_back(name, run.run());
  }
  if (runs.empty()) {
    std::fprintf(stderr, "no OpenCL platform matches\n");
    return 1;
  }

  // The side-by-side table; the ratio is Tessera's advantage (>1: Tessera better) when both a
  // "Tessera" platform and another one ran.
  int tess = -1, other = -1;
  for (int i = 0; i < int(runs.size()); ++i)
    (runs[i].first.find("Tessera") != std::string::npos ? tess : other) = i;
  // The machine's limits as measured during Tessera's run (interleaved with its kernels).
  std::map<std::string, Stats>& ref = runs[tess >= 0 ? tess : 0].second;
  std::ostringstream md;
  md << "| measure | unit |";
  for (auto& r : runs) md << " " << r.first << " |";
  if (tess >= 0 && other >= 0) md << " Tessera vs " << runs[other].first << " |";
  md << " machine |\n|---|---|";
  for (size_t i = 0; i < runs.size(); ++i) md << "---|";
  if (tess >= 0 && other >= 0) md << "---|";
  md << "---|\n";
  for (const auto& m : kMeasures) {
    md << "| " << m.label << " | " << m.unit << " |";
    for (auto& r : runs) {
      auto it = r.second.find(m.key);
      md << " " << (it == r.second.end() ? "n/a" : fmt(it->second, m.key.find("p99") == std::string::npos)) << " |";
    }
    if (tess >= 0 && other >= 0) {
      auto a = runs[tess].second.find(m.key), b = runs[other].second.find(m.key);
      if (a != runs[tess].second.end() && b != runs[other].second.end() && a->second.valid() &&
          b->second.valid()) {
        double ratio = m.higherBetter ? a->second.median / b->second.median
                                      : b->second.median / a->second.median;
        char s[32];
        std::snprintf(s, sizeof s, " %.2fx |", ratio);
        md << s;
      } else {
        md << " n/a |";
      }
    }
    std::string machine;
    if (m.key == "vadd")
      machine = "C++ loop " + fmt(ref["ref_vadd"]) + "; memcpy " + fmt(ref["ref_memcpy"]);
    else if (m.key == "reduce")
      machine = "C++ sum " + fmt(ref["ref_reduce"]);
    else if (m.key == "naive" || m.key == "tiled")
      machine = "FMA peak " + fmt(ref["ref_peak"], false);
    md << " " << machine << " |\n";
  }
  if (tess >= 0) {
    auto& t = runs[tess].second;
    md << "\nTessera against the machine: vector add "
       << fmt(Stats{100 * t["vadd"].median / t["ref_vadd"].median}, false)
       << "% of the C++ loop; reduction "
       << fmt(Stats{100 * t["reduce"].median / t["ref_reduce"].median}, false)
       << "% of the C++ sum; tiled SGEMM "
       << fmt(Stats{100 * t["tiled"].median / t["ref_peak"].median}, false) << "% of FMA peak.\n";
    for (const auto& [key, line] : tesseraBalance)
      md << "Tessera's launch balance, " << key << ": " << line << ".\n";
    if (t.count("iso_idle_p99") && t.count("iso_load_p99"))
      md << "Isolation p99 loaded / idle: "
         << fmt(Stats{t["iso_load_p99"].median / t["iso_idle_p99"].median}, false) << "x.\n";
  }
  std::printf("\n%s", md.str().c_str());
  if (!markdown.empty()) std::ofstream(markdown) << md.str();
  return 0;
}
