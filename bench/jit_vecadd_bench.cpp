// Vector add of N floats (default 16M): the JIT-compiled kernel through launch() on a 2-thread
// WorkerPool vs a plain C++ loop split over 2 std::threads. Prints GB/s (3 arrays moved per
// element: 2 reads + 1 write). Usage: jit_vecadd_bench [elements] [group size] [repetitions]
#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "backends/cpu/jit/kernel_jit.h"
#include "backends/cpu/runtime/launcher.h"
#include "backends/cpu/worker_pool.h"

using namespace tessera::backends::cpu;

static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char** argv) {
  const uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (16u << 20);
  const uint32_t groupSize = argc > 2 ? std::atoi(argv[2]) : 1024;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 20;
  std::ifstream file(TESSERA_BENCH_SPV, std::ios::binary);
  std::stringstream bytes;
  bytes << file.rdbuf();
  auto context = std::make_unique<llvm::LLVMContext>();
  SPIRV::TranslatorOpts opts;
  opts.setDesiredBIsRepresentation(SPIRV::BIsRepresentation::SPIRVFriendlyIR);
  llvm::Module* module = nullptr;
  std::string error;
  if (!llvm::readSpirv(*context, opts, bytes, module, error)) {
    std::fprintf(stderr, "readSpirv: %s\n", error.c_str());
    return 1;
  }
  auto jit = KernelJit::create(&error);
  auto compiled =
      jit ? jit->compile(std::move(context), std::unique_ptr<llvm::Module>(module), &error)
          : nullptr;
  if (!compiled) {
    std::fprintf(stderr, "JIT: %s\n", error.c_str());
    return 1;
  }
  const CompiledKernel& k = *compiled->find("vadd");
  std::vector<float> a(n, 1.0f), b(n, 2.0f), c(n, 0.0f);
  WorkerPool pool({}, 2, 20000);
  std::vector<uint8_t> args(k.argBufferSize);
  float* ptrs[3] = {a.data(), b.data(), c.data()};
  for (int i = 0; i < 3; ++i) std::memcpy(args.data() + k.args[i].offset, &ptrs[i], 8);
  LaunchDims dims;
  dims.groupSize[0] = groupSize;
  dims.groupCount[0] = static_cast<uint32_t>(n / groupSize);
  const double gb = 3.0 * n * sizeof(float) / 1e9;

  double best = 1e9;
  for (int r = 0; r < reps; ++r) {
    double t = now();
    launch(k, args.data(), dims, pool);
    best = std::min(best, now() - t);
  }
  bool ok = c[n - 1] == 3.0f && c[0] == 3.0f;
  std::printf("jit launch   : %8.3f ms  %6.2f GB/s  (compile %.1f ms, group %u, %s)\n", best * 1e3,
              gb / best, compiled->compileMs, groupSize, ok ? "ok" : "WRONG");

  double bestLoop = 1e9;
  for (int r = 0; r < reps; ++r) {
    double t = now();
    std::thread other([&] {
      for (uint64_t i = n / 2; i < n; ++i) c[i] = a[i] + b[i];
    });
    for (uint64_t i = 0; i < n / 2; ++i) c[i] = a[i] + b[i];
    other.join();
    bestLoop = std::min(bestLoop, now() - t);
  }
  std::printf("C++ 2 threads: %8.3f ms  %6.2f GB/s\n", bestLoop * 1e3, gb / bestLoop);
  return ok ? 0 : 1;
}
