// The benchmark suite's Level Zero part (issue 8): launch latency on a synchronous immediate list,
// back-to-back launches, the suite's kernels (bench/kernels/suite.cl as SPIR-V) beside the
// machine's limits, and zeModuleCreate from SPIR-V cold and from the on-disk module cache (each
// build in a fresh child process). Through the loader:
//   ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1 LD_LIBRARY_PATH=build/lib build/bin/ze_suite_bench [--quick]
// Figures are medians with [p10, p90].
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "bench_util.h"
#include "host_reference.h"
#include "launch_balance.h"

using namespace tessera::bench;

namespace {

bool quick = false;

ze_module_handle_t buildModule(Setup& s, const std::vector<uint8_t>& spv) {
  ze_module_desc_t md{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV,
                      spv.size(), spv.data(), "", nullptr};
  ze_module_handle_t module;
  BENCH_CHECK(zeModuleCreate(s.context, s.device, &md, &module, nullptr));
  return module;
}

ze_kernel_handle_t newKernel(ze_module_handle_t m, const char* name) {
  ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
  ze_kernel_handle_t k;
  BENCH_CHECK(zeKernelCreate(m, &kd, &k));
  return k;
}

template <typename T>
void arg(ze_kernel_handle_t k, uint32_t i, const T& v) {
  BENCH_CHECK(zeKernelSetArgumentValue(k, i, sizeof v, &v));
}

ze_command_list_handle_t immediate(Setup& s, ze_command_queue_mode_t mode) {
  ze_command_queue_desc_t d{};
  d.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
  d.mode = mode;
  ze_command_list_handle_t list;
  BENCH_CHECK(zeCommandListCreateImmediate(s.context, s.device, &d, &list));
  return list;
}

void print(const char* what, const Stats& s, const char* unit) {
  std::printf("  %-62s %10.3f %-7s [p10 %.3f, p90 %.3f]\n", what, s.median, unit, s.p10, s.p90);
  std::fflush(stdout);
}

void launches(Setup& s, ze_module_handle_t m) {
  ze_kernel_handle_t k = newKernel(m, "empty");
  static int sink[16];
  int* p = sink;
  arg(k, 0, p);
  BENCH_CHECK(zeKernelSetGroupSize(k, 1, 1, 1));
  ze_group_count_t one{1, 1, 1};
  ze_command_list_handle_t sync = immediate(s, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  std::vector<double> t;
  for (int i = 0; i < (quick ? 20 : 20000); ++i) {
    double t0 = nowUs();
    BENCH_CHECK(zeCommandListAppendLaunchKernel(sync, k, &one, nullptr, 0, nullptr));
    t.push_back(nowUs() - t0);
  }
  print("empty kernel, SYNCHRONOUS immediate list append (round trip)", stats(t), "us");
  zeCommandListDestroy(sync);

  // The last launch signals an event the host waits on (an in-order list: all are done then).
  ze_command_list_handle_t async = immediate(s, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
  ze_event_pool_handle_t pool;
  BENCH_CHECK(zeEventPoolCreate(s.context, &pd, 0, nullptr, &pool));
  ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, ZE_EVENT_SCOPE_FLAG_HOST};
  ze_event_handle_t done;
  BENCH_CHECK(zeEventCreate(pool, &ed, &done));
  const int n = quick ? 100 : 10000;
  std::vector<double> total, append;
  for (int r = 0; r < (quick ? 3 : 7); ++r) {
    double t0 = nowUs();
    for (int i = 0; i < n; ++i)
      BENCH_CHECK(zeCommandListAppendLaunchKernel(async, k, &one, i + 1 == n ? done : nullptr, 0,
                                                  nullptr));
    double t1 = nowUs();
    BENCH_CHECK(zeEventHostSynchronize(done, UINT64_MAX));
    BENCH_CHECK(zeEventHostReset(done));
    total.push_back((nowUs() - t0) / n);
    append.push_back((t1 - t0) / n);
  }
  print("back-to-back: N appends (ASYNC immediate) then one event wait, per launch", stats(total), "us");
  print("  of which the append call alone", stats(append), "us");
  zeCommandListDestroy(async);
  zeEventDestroy(done);
  zeEventPoolDestroy(pool);
  zeKernelDestroy(k);
}

// Times `reps` launches (after one untimed) on a synchronous immediate list; seconds each. The
// workers' balance of each timed launch goes to `balance` when given.
std::vector<double> timeLaunch(Setup& s, ze_kernel_handle_t k, ze_group_count_t groups, int reps,
                               LaunchBalance* balance = nullptr) {
  ze_command_list_handle_t list = immediate(s, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  std::vector<double> t;
  for (int r = 0; r <= reps; ++r) {
    if (balance && r) balance->start();
    double t0 = host::nowSec();
    BENCH_CHECK(zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr));
    if (r) t.push_back(host::nowSec() - t0);
    if (balance && r) balance->stop();
  }
  zeCommandListDestroy(list);
  return t;
}

void printBalance(LaunchBalance& b) {
  std::printf("  %-62s %s\n", "  launch balance (medians)", b.summary().c_str());
  b.clear();
}

void kernels(Setup& s, ze_module_handle_t m) {
  LaunchBalance balance(s.driver);
  // Vector add, beside the plain loop and memcpy, interleaved.
  {
    size_t n = quick ? 1u << 16 : 16u << 20, bytes = n * 4;
    auto *a = static_cast<float*>(host::pageArray(bytes)),
         *b = static_cast<float*>(host::pageArray(bytes)),
         *c = static_cast<float*>(host::pageArray(bytes));
    for (size_t i = 0; i < n; ++i) a[i] = float(i % 1000), b[i] = 0.5f, c[i] = 0;
    // Two kernels: the group size zeKernelSuggestGroupSize gives (what an application asks for),
    // and groups of 256 (the cost of short groups).
    uint32_t sx = 0, sy = 0, sz = 0;
    ze_kernel_handle_t k = newKernel(m, "vadd"), k256 = newKernel(m, "vadd");
    BENCH_CHECK(zeKernelSuggestGroupSize(k, uint32_t(n), 1, 1, &sx, &sy, &sz));
    BENCH_CHECK(zeKernelSetGroupSize(k, sx, 1, 1));
    BENCH_CHECK(zeKernelSetGroupSize(k256, 256, 1, 1));
    for (ze_kernel_handle_t kk : {k, k256}) arg(kk, 0, a), arg(kk, 1, b), arg(kk, 2, c);
    std::vector<double> kern, kern256, loop, copy;
    for (int r = 0; r < (quick ? 3 : 11); ++r) {
      kern.push_back(12.0 * n / timeLaunch(s, k, {uint32_t(n / sx), 1, 1}, 1, &balance)[0] / 1e9);
      kern256.push_back(12.0 * n / timeLaunch(s, k256, {uint32_t(n / 256), 1, 1}, 1)[0] / 1e9);
      loop.push_back(12.0 * n / host::vectorAdd(a, b, c, n) / 1e9);
      copy.push_back(2.0 * bytes / host::copy(reinterpret_cast<char*>(c),
                                              reinterpret_cast<char*>(b), bytes) / 1e9);
    }
    for (auto [kk, size] : {std::pair{k, sx}, std::pair{k256, 256u}}) {
      std::fill(c, c + n, 0.0f);
      timeLaunch(s, kk, {uint32_t(n / size), 1, 1}, 0);
      if (c[n - 1] != float((n - 1) % 1000) + 0.5f) std::fprintf(stderr, "vadd: wrong result\n"), std::exit(1);
    }
    Stats sk = stats(kern), sk256 = stats(kern256), sl = stats(loop);
    char label[96];
    std::snprintf(label, sizeof label, "vector add 16M floats (12 B/element), suggested group %u", sx);
    print(label, sk, "GB/s");
    printBalance(balance);
    print("  same, groups of 256", sk256, "GB/s");
    print("  plain C++ loop, every PU (pinned; best of plain/streaming stores)", sl, "GB/s");
    print("  copy, every PU (read + write; best of memcpy/streaming)", stats(copy), "GB/s");
    std::printf("  %-62s %9.0f%%\n", "  kernel / C++ loop (target >= 95%)", 100 * sk.median / sl.median);
    std::printf("  %-62s %9.0f%%\n", "  groups of 256 / C++ loop", 100 * sk256.median / sl.median);
    zeKernelDestroy(k);
    zeKernelDestroy(k256);
    std::free(a), std::free(b), std::free(c);
  }
  // SGEMM, naive (group 16x16) and tiled.
  {
    int N = quick ? 64 : 1024;
    size_t bytes = size_t(N) * N * 4;
    auto *A = static_cast<float*>(host::pageArray(bytes)),
         *B = static_cast<float*>(host::pageArray(bytes)),
         *C = static_cast<float*>(host::pageArray(bytes));
    for (size_t i = 0; i < size_t(N) * N; ++i)
      A[i] = float(int(i % 13) - 6) * 0.25f, B[i] = float(int(i % 7) - 3) * 0.5f;
    for (const char* name : {"sgemm_naive", "sgemm_tiled"}) {
      ze_kernel_handle_t k = newKernel(m, name);
      arg(k, 0, A), arg(k, 1, B), arg(k, 2, C), arg(k, 3, N);
      BENCH_CHECK(zeKernelSetGroupSize(k, 16, 16, 1));
      std::vector<double> g;
      for (double sec :
           timeLaunch(s, k, {uint32_t(N / 16), uint32_t(N / 16), 1}, quick ? 1 : 3, &balance))
        g.push_back(2.0 * N * N * double(N) / sec / 1e9);
      double ref = 0;
      for (int kk = 0; kk < N; ++kk) ref += double(A[(N - 1) * N + kk]) * B[kk * N + 5];
      if (std::fabs(C[(N - 1) * N + 5] - ref) > 1e-3 * (1 + std::fabs(ref)))
        std::fprintf(stderr, "%s: wrong result\n", name), std::exit(1);
      print(name[6] == 'n' ? "naive SGEMM 1024^3 (group 16x16)" : "16x16 tiled SGEMM 1024^3",
            stats(g), "GFLOP/s");
      printBalance(balance);
      zeKernelDestroy(k);
    }
    std::free(A), std::free(B), std::free(C);
    auto [peak, lanes] = host::fmaPeak(quick ? 1'000'000 : 20'000'000);
    std::printf("  %-62s %10.1f GFLOP/s (%d-lane FMA)\n", "  FP32 FMA peak, every PU", peak, lanes);
  }
  // Reduction, 64 elements per work-item, local size 256.
  {
    size_t n = quick ? 1u << 16 : 16u << 20, bytes = n * 4;
    auto* in = static_cast<float*>(host::pageArray(bytes));
    double ref = 0;
    for (size_t i = 0; i < n; ++i) ref += (in[i] = float(i % 5) * 0.25f);
    size_t global = std::max<size_t>(256, n / 64 / 256 * 256), groups = global / 256;
    std::vector<float> partial(groups);
    ze_kernel_handle_t k = newKernel(m, "reduce");
    float* out = partial.data();
    arg(k, 0, in), arg(k, 1, out), arg(k, 2, uint32_t(n));
    BENCH_CHECK(zeKernelSetGroupSize(k, 256, 1, 1));
    std::vector<double> g, h;
    float hs = 0;
    for (int r = 0; r < (quick ? 3 : 11); ++r) {
      g.push_back(double(bytes) / timeLaunch(s, k, {uint32_t(groups), 1, 1}, 1, &balance)[0] / 1e9);
      h.push_back(double(bytes) / host::sum(in, n, &hs) / 1e9);
    }
    double total = 0;
    for (float p : partial) total += p;
    if (std::fabs(total - ref) > 1e-4 * ref) std::fprintf(stderr, "reduce: wrong sum\n"), std::exit(1);
    Stats sk = stats(g), sh = stats(h);
    print("work-group reduction 16M floats (64 per work-item)", sk, "GB/s");
    printBalance(balance);
    print("  plain C++ sum, every PU (pinned)", sh, "GB/s");
    std::printf("  %-62s %9.0f%%\n", "  kernel / C++ sum (target >= 75%)", 100 * sk.median / sh.median);
    zeKernelDestroy(k);
    std::free(in);
  }
}

// A child process: zeInit, then two zeModuleCreate from SPIR-V (the empty kernel, which also starts
// the JIT, then the vector add); prints both times in ms.
int buildChild() {
  Setup s;
  auto empty = readFile(TESSERA_BENCH_EMPTY_SPV), vadd = readFile(TESSERA_BENCH_VADD_SPV);
  double t0 = nowUs();
  ze_module_handle_t m1 = buildModule(s, empty);
  double t1 = nowUs();
  ze_module_handle_t m2 = buildModule(s, vadd);
  double t2 = nowUs();
  std::printf("%.3f %.3f\n", (t1 - t0) / 1e3, (t2 - t1) / 1e3);
  zeModuleDestroy(m2);
  zeModuleDestroy(m1);
  return 0;
}

void moduleBuild(const char* self) {
  char tmpl[] = "/tmp/tessera-bench-cache-XXXXXX";
  if (!mkdtemp(tmpl)) return;
  std::string base = tmpl;
  auto child = [&](const std::string& dir, double& first, double& second) {
    std::string cmd = "TESSERA_CACHE_DIR='" + dir + "' '" + self + "' --build-child";
    FILE* p = popen(cmd.c_str(), "r");
    if (!p || std::fscanf(p, "%lf %lf", &first, &second) != 2) {
      std::fprintf(stderr, "module build child failed\n");
      std::exit(1);
    }
    pclose(p);
  };
  std::vector<double> coldFirst, cold, hotFirst, hot;
  int reps = quick ? 1 : 7;
  for (int r = 0; r < reps; ++r) {
    std::string dir = base + "/" + std::to_string(r);
    double a, b;
    child(dir, a, b);  // empty folder: compiled
    coldFirst.push_back(a), cold.push_back(b);
    child(dir, a, b);  // the entries the first child stored
    hotFirst.push_back(a), hot.push_back(b);
  }
  std::error_code ec;
  std::filesystem::remove_all(base, ec);
  print("zeModuleCreate vector add from SPIR-V, cold (target <= 30 ms)", stats(cold), "ms");
  print("zeModuleCreate vector add, from the on-disk cache (target <= 1 ms)", stats(hot), "ms");
  print("  first module of the process, cold (JIT start included)", stats(coldFirst), "ms");
  print("  first module of the process, from the cache", stats(hotFirst), "ms");
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--build-child")) return buildChild();
    if (!std::strcmp(argv[i], "--quick")) quick = true;
  }
  if (scale() < 1) quick = true;
  std::printf("Level Zero suite%s\n", quick ? " (--quick)" : "");
  {
    Setup s;
    ze_module_handle_t m = buildModule(s, readFile(TESSERA_BENCH_SUITE_SPV));
    launches(s, m);
    kernels(s, m);
    zeModuleDestroy(m);
  }
  moduleBuild(std::filesystem::read_symlink("/proc/self/exe").c_str());
  return 0;
}
