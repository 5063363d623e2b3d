// OpenCL against Level Zero on Tessera, same kernels, same sizes, same buffers, one process (issue
// 20, item 3): vector add, naive and tiled SGEMM, reduction from bench/kernels/suite.cl (source for
// OpenCL, its SPIR-V for Level Zero). Repetitions are interleaved and alternate which path goes
// first, none warmed just before it is timed, so both see the same machine. Paths:
//  - OpenCL: clEnqueueNDRangeKernel + clFinish on an in-order queue (what applications do; Tessera
//    runs it on the queue's executor), NULL local size for vector add and naive SGEMM;
//  - Level Zero, synchronous immediate list (the launch runs on the calling thread and its
//  workers),
//    the group size zeKernelSuggestGroupSize gives (the rule OpenCL's NULL local size goes
//    through);
//  - Level Zero, asynchronous immediate list + zeEventHostSynchronize (OpenCL's path without the
//    OpenCL layer: the executor runs it).
// Prints per path the median with [p10, p90] and p10 / median (bimodal below 70%), the ratio OpenCL
// / Level Zero of the medians (target >= 95%), and the launches' balance (launch_balance.h).
//
//   OCL_ICD_VENDORS=build/icd LD_LIBRARY_PATH=build/lib ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1
//     build/bin/api_ratio_bench [--quick]
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <string>

#include "bench_util.h"
#include "cl_check.h"
#include "host_reference.h"
#include "launch_balance.h"

using namespace tessera::bench;

namespace {


bool quick = false;

std::string readText(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

float* hostArray(size_t n) {
  return static_cast<float*>(host::pageArray(n * 4));
}

// Tessera's OpenCL platform: its first device, a context, an in-order queue, the suite built.
struct ClSide {
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;

  ClSide() {
    cl_uint np = 0;
    clGetPlatformIDs(0, nullptr, &np);
    std::vector<cl_platform_id> ps(np);
    if (np) CL_CHECK(clGetPlatformIDs(np, ps.data(), nullptr));
    for (cl_platform_id p : ps) {
      char name[128] = {};
      clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
      if (std::strstr(name, "Tessera") &&
          clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) == CL_SUCCESS)
        break;
      device = nullptr;
    }
    if (!device)
      std::fprintf(stderr, "no Tessera OpenCL platform (OCL_ICD_VENDORS)\n"), std::exit(1);
    cl_int err;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    CL_CHECK(err);
    queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
    CL_CHECK(err);
    std::string src = readText(TESSERA_BENCH_SUITE_CL);
    const char* s = src.c_str();
    program = clCreateProgramWithSource(context, 1, &s, nullptr, &err);
    CL_CHECK(err);
    CL_CHECK(clBuildProgram(program, 1, &device, "", nullptr, nullptr));
  }
  ~ClSide() {
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
  }
  cl_mem buffer(void* p, size_t bytes) {
    cl_int err;
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, p, &err);
    CL_CHECK(err);
    return m;
  }
};

struct ZeSide {
  Setup setup;
  ze_module_handle_t module = nullptr;
  ze_command_list_handle_t sync = nullptr, async = nullptr;
  ze_event_pool_handle_t pool = nullptr;
  ze_event_handle_t done = nullptr;

  ZeSide() {
    std::string spv = readText(TESSERA_BENCH_SUITE_SPV);
    ze_module_desc_t md{ZE_STRUCTURE_TYPE_MODULE_DESC,
                        nullptr,
                        ZE_MODULE_FORMAT_IL_SPIRV,
                        spv.size(),
                        reinterpret_cast<const uint8_t*>(spv.data()),
                        "",
                        nullptr};
    BENCH_CHECK(zeModuleCreate(setup.context, setup.device, &md, &module, nullptr));
    ze_command_queue_desc_t qd{};
    qd.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
    qd.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
    BENCH_CHECK(zeCommandListCreateImmediate(setup.context, setup.device, &qd, &sync));
    qd.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
    BENCH_CHECK(zeCommandListCreateImmediate(setup.context, setup.device, &qd, &async));
    ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                            ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
    BENCH_CHECK(zeEventPoolCreate(setup.context, &pd, 0, nullptr, &pool));
    ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, ZE_EVENT_SCOPE_FLAG_HOST};
    BENCH_CHECK(zeEventCreate(pool, &ed, &done));
  }
  ~ZeSide() {
    zeEventDestroy(done);
    zeEventPoolDestroy(pool);
    zeCommandListDestroy(async);
    zeCommandListDestroy(sync);
    zeModuleDestroy(module);
  }
  ze_kernel_handle_t kernel(const char* name) {
    ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
    ze_kernel_handle_t k;
    BENCH_CHECK(zeKernelCreate(module, &kd, &k));
    return k;
  }
};

// A kernel of the suite on both sides, with the same arguments: buffers (over the same host
// memory) and 32-bit values.
struct Arg {
  void* ptr = nullptr;  // a buffer of `bytes` over this memory, or
  size_t bytes = 0;
  uint32_t value = 0;  // a 32-bit value
};

struct Kernel {
  cl_kernel cl = nullptr;
  ze_kernel_handle_t ze = nullptr;
  std::vector<cl_mem> mems;

  Kernel(ClSide& c, ZeSide& z, const char* name, const std::vector<Arg>& args) {
    cl_int err;
    cl = clCreateKernel(c.program, name, &err);
    CL_CHECK(err);
    ze = z.kernel(name);
    for (cl_uint i = 0; i < args.size(); ++i) {
      const Arg& a = args[i];
      if (a.ptr) {
        mems.push_back(c.buffer(a.ptr, a.bytes));
        CL_CHECK(clSetKernelArg(cl, i, sizeof(cl_mem), &mems.back()));
        BENCH_CHECK(zeKernelSetArgumentValue(ze, i, sizeof a.ptr, &a.ptr));
      } else {
        CL_CHECK(clSetKernelArg(cl, i, sizeof a.value, &a.value));
        BENCH_CHECK(zeKernelSetArgumentValue(ze, i, sizeof a.value, &a.value));
      }
    }
  }
  ~Kernel() {
    clReleaseKernel(cl);
    zeKernelDestroy(ze);
    for (cl_mem m : mems) clReleaseMemObject(m);
  }
};

// Measures `k` over `global` (2 dimensions; 1 in the second for 1D) on the three paths, `reps`
// interleaved repetitions; `local` null: OpenCL's NULL local size and Level Zero's suggestion.
// `work`: bytes or FLOPs of one launch.
void measure(ClSide& cl, ZeSide& ze, Kernel& k, const char* name, const char* unit, double work,
             const size_t global[2], const size_t* local, int reps,
             const LaunchBalance& balanceOf) {
  uint32_t g[3] = {1, 1, 1};
  if (local) {
    g[0] = uint32_t(local[0]), g[1] = uint32_t(local[1]);
  } else {
    BENCH_CHECK(zeKernelSuggestGroupSize(k.ze, uint32_t(global[0]), uint32_t(global[1]), 1, &g[0],
                                         &g[1], &g[2]));
  }
  BENCH_CHECK(zeKernelSetGroupSize(k.ze, g[0], g[1], 1));
  ze_group_count_t groups{uint32_t(global[0] / g[0]), uint32_t(global[1] / g[1]), 1};
  const cl_uint dims = global[1] > 1 ? 2 : 1;
  const std::function<void()> paths[3] = {
      [&] {
        CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k.cl, dims, nullptr, global, local, 0, nullptr,
                                        nullptr));
        CL_CHECK(clFinish(cl.queue));
      },
      [&] {
        BENCH_CHECK(zeCommandListAppendLaunchKernel(ze.sync, k.ze, &groups, nullptr, 0, nullptr));
      },
      [&] {
        BENCH_CHECK(zeCommandListAppendLaunchKernel(ze.async, k.ze, &groups, ze.done, 0, nullptr));
        BENCH_CHECK(zeEventHostSynchronize(ze.done, UINT64_MAX));
        BENCH_CHECK(zeEventHostReset(ze.done));
      }};
  const char* names[3] = {"OpenCL, enqueue + clFinish", "Level Zero, synchronous immediate list",
                          "Level Zero, asynchronous list + event wait"};
  std::vector<double> rate[3];
  LaunchBalance balance[3] = {balanceOf, balanceOf, balanceOf};
  for (const auto& path : paths) path();  // one untimed launch each (JIT, first touch)
  for (int r = 0; r < reps; ++r)
    for (int i = 0; i < 3; ++i) {
      int p = r % 2 ? 2 - i : i;  // alternate which path goes first
      balance[p].start();
      double t0 = host::nowSec();
      paths[p]();
      rate[p].push_back(work / (host::nowSec() - t0) / 1e9);
      balance[p].stop();
    }
  std::printf("%s (Level Zero group %ux%u)\n", name, g[0], g[1]);
  Stats s[3];
  for (int p = 0; p < 3; ++p) {
    s[p] = stats(rate[p]);
    std::printf("  %-44s %9.2f %-7s [p10 %.2f, p90 %.2f]  p10/median %3.0f%%\n", names[p],
                s[p].median, unit, s[p].p10, s[p].p90, 100 * s[p].p10 / s[p].median);
    std::printf("  %-44s %s\n", "  launch balance (medians)", balance[p].summary().c_str());
  }
  std::printf("  %-44s %9.0f%%  (target >= 95%%; against the asynchronous list %.0f%%)\n",
              "OpenCL / Level Zero synchronous (medians)", 100 * s[0].median / s[1].median,
              100 * s[0].median / s[2].median);
  std::fflush(stdout);
}

void check(bool ok, const char* what) {
  if (!ok) std::fprintf(stderr, "%s: wrong result\n", what), std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (!std::strcmp(argv[i], "--quick")) quick = true;
  if (scale() < 1) quick = true;
  ClSide cl;
  ZeSide ze;
  const LaunchBalance balance(ze.setup.driver);
  const int reps = quick ? 3 : 11, gemmReps = quick ? 2 : 5;
  std::printf("OpenCL / Level Zero on Tessera%s: %u hardware threads\n", quick ? " (--quick)" : "",
              host::threads());
  {
    const size_t n = quick ? 1u << 16 : 16u << 20, global[2] = {n, 1};
    float *a = hostArray(n), *b = hostArray(n), *c = hostArray(n);
    for (size_t i = 0; i < n; ++i) a[i] = float(i % 1000), b[i] = 0.5f;
    {
      Kernel k(cl, ze, "vadd", {{a, n * 4}, {b, n * 4}, {c, n * 4}});
      measure(cl, ze, k, "vector add (12 B/element)", "GB/s", 12.0 * double(n), global, nullptr,
              reps, balance);
    }
    check(c[n - 1] == float((n - 1) % 1000) + 0.5f, "vadd");
    std::free(a), std::free(b), std::free(c);
  }
  {
    const uint32_t N = quick ? 64 : 1024;
    const size_t nn = size_t(N) * N, global[2] = {N, N}, local[2] = {16, 16};
    float *A = hostArray(nn), *B = hostArray(nn), *C = hostArray(nn);
    for (size_t i = 0; i < nn; ++i)
      A[i] = float(int(i % 13) - 6) * 0.25f, B[i] = float(int(i % 7) - 3) * 0.5f;
    double ref = 0;
    for (uint32_t kk = 0; kk < N; ++kk) ref += double(A[(N - 1) * N + kk]) * B[kk * N + 5];
    for (const char* name : {"sgemm_naive", "sgemm_tiled"}) {
      bool tiled = name[6] == 't';
      Kernel k(cl, ze, name, {{A, nn * 4}, {B, nn * 4}, {C, nn * 4}, {nullptr, 0, N}});
      measure(cl, ze, k, tiled ? "16x16 tiled SGEMM" : "naive SGEMM", "GFLOP/s",
              2.0 * double(N) * N * N, global, tiled ? local : nullptr, gemmReps, balance);
      check(std::fabs(C[(N - 1) * N + 5] - ref) <= 1e-3 * (1 + std::fabs(ref)), name);
    }
    std::free(A), std::free(B), std::free(C);
  }
  {
    const size_t n = quick ? 1u << 16 : 16u << 20, local[2] = {256, 1};
    const size_t global[2] = {std::max<size_t>(256, n / 64 / 256 * 256), 1};
    float* in = hostArray(n);
    float* partial = hostArray(global[0] / 256);
    double ref = 0;
    for (size_t i = 0; i < n; ++i) ref += (in[i] = float(i % 5) * 0.25f);
    {
      Kernel k(cl, ze, "reduce",
               {{in, n * 4}, {partial, global[0] / 256 * 4}, {nullptr, 0, uint32_t(n)}});
      measure(cl, ze, k, "work-group reduction, 64 per work-item", "GB/s", 4.0 * double(n), global,
              local, reps, balance);
    }
    double total = 0;
    for (size_t g = 0; g < global[0] / 256; ++g) total += partial[g];
    check(std::fabs(total - ref) <= 1e-4 * ref, "reduce");
    std::free(in), std::free(partial);
  }
  return 0;
}
