// The copy's dependence on where its buffers lie (docs/performance.md, session 44: the pattern
// bench's copy was behind PoCL because 16-byte copy pieces, jit/copy_pieces.cpp, ran 25-40% slower
// with the input 257 or 258 MiB after the output on a Zen 5 VM). Every OpenCL platform the ICD
// loader shows runs the pattern bench's float4 copy over the same host memory: one 2 MiB-aligned
// region, the output at its start and the input at each offset below, both wrapped with
// CL_MEM_USE_HOST_PTR (Tessera and PoCL both use such memory in place). A two-thread C++ copy of
// the same memory in the same process is the reference. So the pages, their placement and the
// process are the same for every column; what differs is the runtime's execution.
//
//   cl_copy_offsets [--rounds N] [--platform NAME]... [--quick]
//
// Printed: per offset (input minus output, MiB), each platform's median kernel time (event
// profiling, median of 5 calls after one untimed one, then the median over the rounds, platforms
// alternating) and the C++ copy's. No time is asserted.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bench_stats.h"
#include "cl_check.h"
#include "cl_platform_context.h"
#include "cl_platforms.h"

namespace {

using tessera::bench::PlatformContext;

const char* kSource =
    "__kernel void copy4(__global const float4* in, __global float4* out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = in[i];\n"
    "}\n";

// The platform's copy of `floats` floats from `in` to `out` (host memory used in place); ms.
double timeCopy(PlatformContext& p, float* in, float* out, size_t floats) {
  const size_t bytes = floats * sizeof(float);
  cl_mem a = p.wrap(bytes, in), b = p.wrap(bytes, out);
  cl_kernel k = p.kernel("copy4");
  CL_CHECK(clSetKernelArg(k, 0, sizeof a, &a));
  CL_CHECK(clSetKernelArg(k, 1, sizeof b, &b));
  const size_t global = floats / 4;
  const double ms = p.time(k, 1, &global, nullptr, 5);
  clReleaseKernel(k);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  return ms;
}

// Two threads copying 1 MiB pieces taken from a shared counter; ms, median of 5.
double timeHostCopy(const float* in, float* out, size_t floats) {
  constexpr size_t kPiece = (1u << 20) / sizeof(float);
  std::vector<double> ms;
  for (int r = 0; r < 5; ++r) {
    std::atomic<size_t> next{0};
    auto body = [&] {
      for (size_t p; (p = next.fetch_add(1)) * kPiece < floats;) {
        const size_t end = std::min(floats, (p + 1) * kPiece);
        std::memcpy(out + p * kPiece, in + p * kPiece, (end - p * kPiece) * sizeof(float));
      }
    };
    const auto t0 = std::chrono::steady_clock::now();
    std::thread other(body);
    body();
    other.join();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                     .count());
  }
  return tessera::bench::stats(ms).median;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 3;
  bool quick = false;
  std::vector<std::string> filters;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--rounds" && i + 1 < argc)
      rounds = std::max(1, std::atoi(argv[++i]));
    else if (a == "--platform" && i + 1 < argc)
      filters.push_back(argv[++i]);
    else if (a == "--quick")
      quick = true, rounds = 1;
    else {
      std::fprintf(stderr, "usage: %s [--rounds N] [--platform NAME]... [--quick]\n", argv[0]);
      return 2;
    }
  }
  // The pattern bench's copy: 64M floats (256 MiB) each way.
  const size_t floats = quick ? (1u << 20) : (64u << 20), bytes = floats * sizeof(float);
  const size_t mib = size_t{1} << 20;
  // Offsets of the input from the output: the ones the pattern bench's buffers and pyopencl's
  // took in session 44 (256 MiB + 2 MiB, 768 MiB), and their neighbours.
  std::vector<size_t> offsets = {256 * mib, 256 * mib + mib, 256 * mib + 2 * mib,
                                 256 * mib + mib / 4, 768 * mib};
  if (quick) offsets = {bytes, bytes + 2 * mib};
  const size_t span = *std::max_element(offsets.begin(), offsets.end()) + bytes;
  auto* region = static_cast<char*>(std::aligned_alloc(2 * mib, span));
  if (region == nullptr) return 1;
  std::memset(region, 0, span);

  cl_uint n = 0;
  clGetPlatformIDs(0, nullptr, &n);
  std::vector<cl_platform_id> ids(n);
  if (n) clGetPlatformIDs(n, ids.data(), nullptr);
  std::vector<std::string> names;
  std::vector<std::unique_ptr<PlatformContext>> platforms;
  for (cl_platform_id id : ids) {
    const std::string name = tessera::bench::platformName(id);
    cl_device_id device = nullptr;
    if (!tessera::bench::platformMatches(name, filters) ||
        clGetDeviceIDs(id, CL_DEVICE_TYPE_CPU, 1, &device, nullptr) != CL_SUCCESS)
      continue;
    names.push_back(name);
    platforms.push_back(std::make_unique<PlatformContext>(device, kSource));
  }

  std::printf("| input - output |");
  for (const std::string& name : names) std::printf(" %s ms |", name.c_str());
  std::printf(" C++, 2 threads ms |\n|---|");
  for (size_t i = 0; i <= platforms.size(); ++i) std::printf("---|");
  std::printf("\n");
  bool ok = true;
  for (size_t offset : offsets) {
    auto* out = reinterpret_cast<float*>(region);
    auto* in = reinterpret_cast<float*>(region + offset);
    for (size_t i = 0; i < floats; i += 4099) in[i] = float(i);
    std::vector<std::vector<double>> ms(platforms.size() + 1);
    for (int r = 0; r < rounds; ++r) {
      for (size_t p = 0; p < platforms.size(); ++p) {
        std::memset(out, 0, bytes);
        ms[p].push_back(timeCopy(*platforms[p], in, out, floats));
        ok = ok && std::memcmp(in, out, bytes) == 0;
      }
      ms.back().push_back(timeHostCopy(in, out, floats));
    }
    std::printf("| %.2f MiB |", double(offset) / double(mib));
    for (const auto& v : ms) std::printf(" %.2f |", tessera::bench::stats(v).median);
    std::printf("\n");
  }
  platforms.clear();
  std::free(region);
  if (!ok) std::fprintf(stderr, "a platform's copy differs from its input\n");
  return ok ? 0 : 1;
}
