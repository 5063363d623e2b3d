// Launch path and compute kernels through OpenCL, on every platform the ICD loader offers, so that
// Tessera and PoCL are measured in the same run (OCL_ICD_VENDORS naming a folder that holds both
// tessera.icd and pocl.icd). Kernels are the ones of ../shared/baselines/pocl-3.1.md: empty,
// c[i]=a[i]+b[i], naive SGEMM (col = get_global_id(0)), 16x16 tiled SGEMM with __local and two
// barriers, a local-memory reduction (grid-stride loop, then halving with a barrier per step).
// Beside them: a plain 2-thread C++ loop and sum, the bandwidth and compute a CPU gives directly.
//
// Usage: cl_speed_bench [--quick] [--launch] [platform-name-filter]. --quick uses tiny sizes (ctest
// smoke); --launch measures the launch path only.
// Every figure is a median over repetitions, [p10, p90] beside it.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "bench_stats.h"

namespace {

const char* kSource = R"CL(
__kernel void empty(__global int* p) {}
__kernel void vadd(__global const float* a, __global const float* b, __global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
__kernel void sgemm_naive(__global const float* A, __global const float* B, __global float* C,
                          int N) {
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < N; ++k) acc += A[row * N + k] * B[k * N + col];
  C[row * N + col] = acc;
}
#define TS 16
__kernel void sgemm_tiled(__global const float* A, __global const float* B, __global float* C,
                          int N) {
  __local float As[TS][TS], Bs[TS][TS];
  int tx = get_local_id(0), ty = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < N / TS; ++t) {
    As[ty][tx] = A[row * N + t * TS + tx];
    Bs[ty][tx] = B[(t * TS + ty) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k) acc += As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * N + col] = acc;
}
__kernel void reduce(__global const float* in, __global float* out, __local float* scratch,
                     uint n) {
  uint lid = get_local_id(0);
  float sum = 0.0f;
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) sum += in[i];
  scratch[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}
)CL";

using tessera::bench::nowUs;
using tessera::bench::Stats;
using tessera::bench::stats;
void report(const std::string& platform, const char* what, const Stats& s, const char* unit) {
  std::printf("%-8s %-44s %10.3f %-7s [%.3f, %.3f]\n", platform.c_str(), what, s.median, unit,
              s.p10, s.p90);
  std::fflush(stdout);
}

#define CHECK(x)                                                                  \
  do {                                                                            \
    cl_int e_ = (x);                                                              \
    if (e_ != CL_SUCCESS) {                                                       \
      std::fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, int(e_)); \
      std::exit(1);                                                               \
    }                                                                             \
  } while (0)

// Repeats `fn` (returning microseconds) `reps` times.
template <typename Fn>
Stats repeat(int reps, Fn&& fn) {
  std::vector<double> v;
  for (int i = 0; i < reps; ++i) v.push_back(fn());
  return stats(v);
}

// Runs fn(begin, end) over [0, n) split in two threads, the way a plain C++ program would.
template <typename Fn>
void twoThreads(size_t n, Fn&& fn) {
  std::thread t([&] { fn(n / 2, n); });
  fn(0, n / 2);
  t.join();
}

struct Bench {
  bool quick;
  std::string name;
  cl_context ctx;
  cl_command_queue q;
  cl_program prog;

  cl_kernel kernel(const char* n) {
    cl_int e;
    cl_kernel k = clCreateKernel(prog, n, &e);
    CHECK(e);
    return k;
  }
  cl_mem buffer(size_t bytes, void* host) {
    cl_int e;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, host, &e);
    CHECK(e);
    return m;
  }
  double run(cl_kernel k, cl_uint dims, const size_t* global, const size_t* local) {
    double t0 = nowUs();
    CHECK(clEnqueueNDRangeKernel(q, k, dims, nullptr, global, local, 0, nullptr, nullptr));
    CHECK(clFinish(q));
    return nowUs() - t0;
  }

  void launches() {
    cl_kernel k = kernel("empty");
    std::vector<int> host(64);
    cl_mem m = buffer(host.size() * sizeof(int), host.data());
    CHECK(clSetKernelArg(k, 0, sizeof m, &m));
    size_t one = 1;
    for (int i = 0; i < 100; ++i) run(k, 1, &one, &one);
    report(name, "empty kernel, enqueue + clFinish", repeat(quick ? 50 : 5000, [&] {
             return run(k, 1, &one, &one);
           }), "us");
    const int n = quick ? 100 : 10000;
    report(name, "back-to-back launches, then clFinish", repeat(quick ? 3 : 15, [&] {
             double t0 = nowUs();
             for (int i = 0; i < n; ++i)
               CHECK(clEnqueueNDRangeKernel(q, k, 1, nullptr, &one, &one, 0, nullptr, nullptr));
             CHECK(clFinish(q));
             return (nowUs() - t0) / n;
           }), "us/each");
    clReleaseMemObject(m);
    clReleaseKernel(k);
  }

  void vadd() {
    const size_t n = quick ? (1u << 16) : (16u << 20);
    std::vector<float> a(n, 1.0f), b(n, 2.0f), c(n, 0.0f);
    cl_kernel k = kernel("vadd");
    cl_mem ma = buffer(n * 4, a.data()), mb = buffer(n * 4, b.data()), mc = buffer(n * 4, c.data());
    CHECK(clSetKernelArg(k, 0, sizeof ma, &ma));
    CHECK(clSetKernelArg(k, 1, sizeof mb, &mb));
    CHECK(clSetKernelArg(k, 2, sizeof mc, &mc));
    run(k, 1, &n, nullptr);
    double bytes = 12.0 * double(n);
    report(name, "vector add 16M floats", repeat(quick ? 2 : 15, [&] {
             return bytes / run(k, 1, &n, nullptr) / 1e3;
           }), "GB/s");
    if (c[n - 1] != 3.0f) std::fprintf(stderr, "%s: vadd wrong\n", name.c_str());
    report("C++", "vector add, 2 threads", repeat(quick ? 2 : 15, [&] {
             double t0 = nowUs();
             twoThreads(n, [&](size_t b0, size_t e0) {
               for (size_t i = b0; i < e0; ++i) c[i] = a[i] + b[i];
             });
             return bytes / (nowUs() - t0) / 1e3;
           }), "GB/s");
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mc);
    clReleaseKernel(k);
  }

  void sgemm(const char* kname, const char* label, int reps) {
    const int N = quick ? 64 : 1024;
    std::vector<float> A(size_t(N) * N), B(size_t(N) * N), C(size_t(N) * N);
    for (size_t i = 0; i < A.size(); ++i) {
      A[i] = float(i % 7) * 0.25f;
      B[i] = float(i % 5) * 0.5f;
    }
    cl_kernel k = kernel(kname);
    cl_mem ma = buffer(A.size() * 4, A.data()), mb = buffer(B.size() * 4, B.data()),
           mc = buffer(C.size() * 4, C.data());
    CHECK(clSetKernelArg(k, 0, sizeof ma, &ma));
    CHECK(clSetKernelArg(k, 1, sizeof mb, &mb));
    CHECK(clSetKernelArg(k, 2, sizeof mc, &mc));
    CHECK(clSetKernelArg(k, 3, sizeof N, &N));
    size_t global[2] = {size_t(N), size_t(N)}, local[2] = {16, 16};
    run(k, 2, global, local);
    // Spot check one element.
    float ref = 0;
    for (int kk = 0; kk < N; ++kk) ref += A[size_t(5) * N + kk] * B[size_t(kk) * N + 9];
    if (std::fabs(C[size_t(5) * N + 9] - ref) > 1e-3f * std::fabs(ref) + 1e-3f)
      std::fprintf(stderr, "%s: %s wrong\n", name.c_str(), kname);
    double flop = 2.0 * N * N * N;
    report(name, label, repeat(quick ? 1 : reps, [&] {
             return flop / run(k, 2, global, local) / 1e3;
           }), "GFLOP/s");
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mc);
    clReleaseKernel(k);
  }

  void reduce() {
    const cl_uint n = quick ? (1u << 16) : (16u << 20);
    std::vector<float> in(n, 1.0f);
    cl_kernel k = kernel("reduce");
    const size_t local = 256;
    double best = 0;
    Stats bestStats{};
    size_t bestPer = 0;
    for (size_t perItem : {1, 16, 64}) {
      size_t global = n / perItem, groups = global / local;
      std::vector<float> out(groups);
      cl_mem mi = buffer(size_t(n) * 4, in.data()), mo = buffer(groups * 4, out.data());
      CHECK(clSetKernelArg(k, 0, sizeof mi, &mi));
      CHECK(clSetKernelArg(k, 1, sizeof mo, &mo));
      CHECK(clSetKernelArg(k, 2, local * 4, nullptr));
      CHECK(clSetKernelArg(k, 3, sizeof n, &n));
      run(k, 1, &global, &local);
      double sum = 0;
      for (float f : out) sum += f;
      if (sum != double(n)) std::fprintf(stderr, "%s: reduce wrong (%g)\n", name.c_str(), sum);
      Stats s = repeat(quick ? 2 : 15, [&] { return 4.0 * n / run(k, 1, &global, &local) / 1e3; });
      if (s.median > best) best = s.median, bestStats = s, bestPer = perItem;
      clReleaseMemObject(mi);
      clReleaseMemObject(mo);
    }
    char label[80];
    std::snprintf(label, sizeof label, "reduction 16M floats (%zu per item)", bestPer);
    report(name, label, bestStats, "GB/s");
    report("C++", "sum, 2 threads", repeat(quick ? 2 : 15, [&] {
             double t0 = nowUs();
             float parts[2];
             twoThreads(n, [&](size_t b0, size_t e0) {
               float s = 0;
               for (size_t i = b0; i < e0; ++i) s += in[i];
               parts[b0 == 0 ? 0 : 1] = s;
             });
             volatile float total = parts[0] + parts[1];
             (void)total;
             return 4.0 * n / (nowUs() - t0) / 1e3;
           }), "GB/s");
    clReleaseKernel(k);
  }
};

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, launchOnly = false;
  std::string filter;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else if (std::strcmp(argv[i], "--launch") == 0) launchOnly = true;
    else filter = argv[i];
  }
  cl_uint np = 0;
  CHECK(clGetPlatformIDs(0, nullptr, &np));
  std::vector<cl_platform_id> platforms(np);
  CHECK(clGetPlatformIDs(np, platforms.data(), nullptr));
  for (cl_platform_id p : platforms) {
    char pname[256] = {};
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof pname, pname, nullptr);
    std::string name = pname;
    if (!filter.empty() && name.find(filter) == std::string::npos) continue;
    cl_device_id dev;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dev, nullptr) != CL_SUCCESS) continue;
    cl_int e;
    Bench b{quick, name.substr(0, name.find(' ')).substr(0, 8)};
    b.ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &e);
    CHECK(e);
    b.q = clCreateCommandQueueWithProperties(b.ctx, dev, nullptr, &e);
    CHECK(e);
    b.prog = clCreateProgramWithSource(b.ctx, 1, &kSource, nullptr, &e);
    CHECK(e);
    CHECK(clBuildProgram(b.prog, 1, &dev, "", nullptr, nullptr));
    std::printf("# %s\n", pname);
    b.launches();
    if (!launchOnly) {
      b.vadd();
      b.sgemm("sgemm_naive", "naive SGEMM 1024^3", 3);
      b.sgemm("sgemm_tiled", "tiled 16x16 SGEMM 1024^3", 5);
      b.reduce();
    }
    clReleaseProgram(b.prog);
    clReleaseCommandQueue(b.q);
    clReleaseContext(b.ctx);
  }
  return 0;
}
