// Vector add of N halves against the same add of N floats (default 16M elements), both
// JIT-compiled and launched on a 2-thread WorkerPool. Prints time per element and GB/s (3 arrays
// moved per element: 2 reads + 1 write); issue 19 asks the half add to take no longer per element
// than the float one. Usage: jit_half_bench [elements] [group size] [repetitions]
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
#include <vector>

#include "backends/cpu/jit/kernel_jit.h"
#include "backends/cpu/runtime/launcher.h"
#include "backends/cpu/worker_pool.h"

using namespace tessera::backends::cpu;

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The best of `reps` launches of `k` over n elements of `size` bytes each (arrays a, b, c).
double bestLaunch(const CompiledKernel& k, void* a, void* b, void* c, uint64_t n,
                  uint32_t groupSize, int reps, WorkerPool& pool) {
  std::vector<uint8_t> args(k.argBufferSize);
  void* ptrs[3] = {a, b, c};
  for (int i = 0; i < 3; ++i) std::memcpy(args.data() + k.args[i].offset, &ptrs[i], 8);
  LaunchDims dims;
  dims.groupSize[0] = groupSize;
  dims.groupCount[0] = static_cast<uint32_t>(n / groupSize);
  double best = 1e9;
  for (int r = 0; r < reps; ++r) {
    double t = now();
    launch(k, args.data(), dims, pool);
    best = std::min(best, now() - t);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (16u << 20);
  const uint32_t groupSize = argc > 2 ? std::atoi(argv[2]) : 1024;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 20;
  std::ifstream file(TESSERA_BENCH_HALF_SPV, std::ios::binary);
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
  WorkerPool pool({}, 2, 20000);
  std::vector<uint16_t> ha(n, 0x3C00), hb(n, 0x4000), hc(n, 0);  // 1 + 2 = 3 (0x4200)
  std::vector<float> fa(n, 1.0f), fb(n, 2.0f), fc(n, 0.0f);
  double half = bestLaunch(*compiled->find("vadd_half"), ha.data(), hb.data(), hc.data(), n,
                           groupSize, reps, pool);
  double single = bestLaunch(*compiled->find("vadd_float"), fa.data(), fb.data(), fc.data(), n,
                             groupSize, reps, pool);
  bool ok = hc[0] == 0x4200 && hc[n - 1] == 0x4200 && fc[0] == 3.0f && fc[n - 1] == 3.0f;
  std::printf("half  add: %8.3f ms  %6.3f ns/element  %6.2f GB/s\n", half * 1e3, half * 1e9 / n,
              3.0 * n * 2 / half / 1e9);
  std::printf("float add: %8.3f ms  %6.3f ns/element  %6.2f GB/s\n", single * 1e3, single * 1e9 / n,
              3.0 * n * 4 / single / 1e9);
  std::printf("half/float time per element: %.2f (%s)\n", half / single, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
