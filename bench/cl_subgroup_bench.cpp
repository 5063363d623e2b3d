// Sub-group collectives against local memory (issue 19, item 5): a work-group reduction and a
// work-group inclusive prefix sum of 32-bit integers, each written twice with the same structure:
// once with __local memory and barriers (a tree reduction, a Hillis-Steele scan), once with
// sub-group collectives (sub_group_reduce_add / sub_group_scan_inclusive_add within each sub-group,
// then the sub-groups' totals through __local memory). Every platform the ICD loader shows whose
// name matches --platform (all when absent) and whose device has sub-groups runs both; each
// result is checked against the host's. Figures: nanoseconds per element, median with [p10, p90]
// over the repetitions, and the sub-group version's speed-up over the local-memory one.
//
//   cl_subgroup_bench [--platform NAME]... [--quick]
//
// To see Tessera and PoCL in one process, OCL_ICD_VENDORS names a folder holding both .icd files
// (scripts/bench.sh makes one). --quick: tiny sizes (the ctest smoke run; no timing is asserted).
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench_stats.h"
#include "cl_check.h"
#include "cl_platforms.h"
#include "host_reference.h"

namespace {

using tessera::bench::platformName;

using tessera::bench::host::nowSec;
using tessera::bench::Stats;
using tessera::bench::stats;

constexpr size_t kGroup = 256;

const char* kSource = R"(
#define WG 256
kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reduce_local(global const int* in, global int* out) {
  local int s[WG];
  uint l = get_local_id(0);
  s[l] = in[get_global_id(0)];
  for (uint h = WG / 2; h > 0; h >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < h) s[l] += s[l + h];
  }
  if (l == 0) out[get_group_id(0)] = s[0];
}

kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reduce_subgroup(global const int* in, global int* out) {
  local int totals[WG];
  int x = sub_group_reduce_add(in[get_global_id(0)]);
  if (get_sub_group_local_id() == 0) totals[get_sub_group_id()] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_sub_group_id() == 0) {
    int t = 0;
    for (uint i = get_sub_group_local_id(); i < get_num_sub_groups(); i += get_sub_group_size())
      t += totals[i];
    t = sub_group_reduce_add(t);
    if (get_sub_group_local_id() == 0) out[get_group_id(0)] = t;
  }
}

kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void scan_local(global const int* in, global int* out) {
  local int a[WG], b[WG];
  uint l = get_local_id(0);
  a[l] = in[get_global_id(0)];
  local int* src = a;
  local int* dst = b;
  for (uint d = 1; d < WG; d <<= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    dst[l] = l >= d ? src[l] + src[l - d] : src[l];
    local int* t = src; src = dst; dst = t;
  }
  out[get_global_id(0)] = src[l];
}

kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void scan_subgroup(global const int* in, global int* out) {
  local int totals[WG];
  int x = sub_group_scan_inclusive_add(in[get_global_id(0)]);
  if (get_sub_group_local_id() == get_sub_group_size() - 1) totals[get_sub_group_id()] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  int before = 0;
  for (uint i = 0; i < get_sub_group_id(); ++i) before += totals[i];
  out[get_global_id(0)] = before + x;
}
)";


// OpenCL 3.0's sub-groups (__opencl_c_subgroups; Tessera reports them without cl_khr_subgroups,
// whose independent forward progress a CPU work-group does not have): a device with none answers
// CL_DEVICE_MAX_NUM_SUB_GROUPS with 0 (or, before 2.1, not at all).
bool hasSubgroups(cl_device_id dev) {
  cl_uint n = 0;
  return clGetDeviceInfo(dev, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof n, &n, nullptr) == CL_SUCCESS &&
         n > 0;
}

struct Result {
  std::string platform;
  bool supported = false;
  Stats reduceLocal{NAN, NAN, NAN, NAN}, reduceSub{NAN, NAN, NAN, NAN};
  Stats scanLocal{NAN, NAN, NAN, NAN}, scanSub{NAN, NAN, NAN, NAN};
};

struct Run {
  cl_context ctx;
  cl_command_queue q;
  cl_program prog;
  cl_mem in;
  size_t n;
  int reps;
  const std::vector<int>* host;
};

// Runs kernel `name` (in -> out) `reps` times after a warm-up, checks its output against `expect`
// and returns ns per element.
Stats timeKernel(const Run& r, const char* name, const std::vector<int>& expect) {
  cl_int err;
  cl_kernel k = clCreateKernel(r.prog, name, &err);
  CL_CHECK(err);
  cl_mem out = clCreateBuffer(r.ctx, CL_MEM_WRITE_ONLY, expect.size() * sizeof(int), nullptr, &err);
  CL_CHECK(err);
  CL_CHECK(clSetKernelArg(k, 0, sizeof r.in, &r.in));
  CL_CHECK(clSetKernelArg(k, 1, sizeof out, &out));
  const size_t global = r.n, local = kGroup;
  auto launch = [&] {
    CL_CHECK(clEnqueueNDRangeKernel(r.q, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
    CL_CHECK(clFinish(r.q));
  };
  launch();
  std::vector<int> got(expect.size());
  CL_CHECK(clEnqueueReadBuffer(r.q, out, CL_TRUE, 0, got.size() * sizeof(int), got.data(), 0,
                               nullptr, nullptr));
  if (got != expect) {
    std::fprintf(stderr, "%s: wrong result\n", name);
    std::exit(1);
  }
  std::vector<double> ns;
  for (int i = 0; i < r.reps; ++i) {
    const double t0 = nowSec();
    launch();
    ns.push_back((nowSec() - t0) * 1e9 / double(r.n));
  }
  clReleaseMemObject(out);
  clReleaseKernel(k);
  return stats(ns);
}

Result run(cl_platform_id platform, bool quick) {
  Result res;
  res.platform = platformName(platform);
  cl_device_id dev;
  CL_CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, nullptr));
  if (!hasSubgroups(dev)) return res;
  res.supported = true;
  cl_int err;
  Run r{};
  r.ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  CL_CHECK(err);
  r.q = clCreateCommandQueueWithProperties(r.ctx, dev, nullptr, &err);
  CL_CHECK(err);
  r.prog = clCreateProgramWithSource(r.ctx, 1, &kSource, nullptr, &err);
  CL_CHECK(err);
  if (clBuildProgram(r.prog, 1, &dev, "-cl-std=CL3.0", nullptr, nullptr) != CL_SUCCESS) {
    char log[8192] = {};
    clGetProgramBuildInfo(r.prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, nullptr);
    std::fprintf(stderr, "%s: build failed\n%s\n", res.platform.c_str(), log);
    std::exit(1);
  }
  r.n = quick ? 4 * kGroup : (size_t(1) << 24);
  r.reps = quick ? 2 : 15;
  std::vector<int> host(r.n);
  for (size_t i = 0; i < r.n; ++i) host[i] = int(((i * 2654435761u) >> 20) & 0xfff) - 2048;  // in [-2048, 2047]
  r.in = clCreateBuffer(r.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, r.n * sizeof(int),
                        host.data(), &err);
  CL_CHECK(err);

  std::vector<int> sums(r.n / kGroup), scans(r.n);
  for (size_t g = 0; g < sums.size(); ++g) {
    int acc = 0;
    for (size_t i = 0; i < kGroup; ++i) scans[g * kGroup + i] = acc += host[g * kGroup + i];
    sums[g] = acc;
  }
  res.reduceLocal = timeKernel(r, "reduce_local", sums);
  res.reduceSub = timeKernel(r, "reduce_subgroup", sums);
  res.scanLocal = timeKernel(r, "scan_local", scans);
  res.scanSub = timeKernel(r, "scan_subgroup", scans);

  clReleaseMemObject(r.in);
  clReleaseProgram(r.prog);
  clReleaseCommandQueue(r.q);
  clReleaseContext(r.ctx);
  return res;
}

void print(const char* what, const Stats& s) {
  std::printf("  %-40s median %7.3f ns/element  [p10 %.3f, p90 %.3f]\n", what, s.median, s.p10,
              s.p90);
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  std::vector<std::string> filters;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--quick") {
      quick = true;
    } else if (a == "--platform" && i + 1 < argc) {
      filters.push_back(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: %s [--platform NAME]... [--quick]\n", argv[0]);
      return 2;
    }
  }
  cl_uint np = 0;
  clGetPlatformIDs(0, nullptr, &np);
  std::vector<cl_platform_id> platforms(np);
  if (np) CL_CHECK(clGetPlatformIDs(np, platforms.data(), nullptr));
  std::printf("Work-group reduction and inclusive scan of int, work-groups of %zu, %s (%u hardware "
              "threads)\n",
              kGroup, quick ? "1,024 elements (--quick)" : "16M elements",
              tessera::bench::host::threads());
  int ran = 0;
  for (cl_platform_id p : platforms) {
    std::string name = platformName(p);
    bool wanted = filters.empty();
    for (const auto& f : filters) wanted |= name.find(f) != std::string::npos;
    if (!wanted) continue;
    Result r = run(p, quick);
    std::printf("%s\n", r.platform.c_str());
    if (!r.supported) {
      std::printf("  n/a (no sub-groups)\n");
      continue;
    }
    ++ran;
    print("reduction, local memory + barriers", r.reduceLocal);
    print("reduction, sub_group_reduce_add", r.reduceSub);
    print("inclusive scan, local memory + barriers", r.scanLocal);
    print("inclusive scan, sub_group_scan_inclusive_add", r.scanSub);
    std::printf("  sub-groups vs local memory: reduction %.2fx, scan %.2fx the speed\n",
                r.reduceLocal.median / r.reduceSub.median, r.scanLocal.median / r.scanSub.median);
  }
  return ran == 0 && !filters.empty() ? 1 : 0;
}
