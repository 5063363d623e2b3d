// The host CPU as a kind of device (backends/device_kind.h): its traits are the JIT's sub-group
// sizes (kernel_abi.h) and the kernel stack limit (kernel_stack.h); a device's executor is a
// CpuExecutor (runtime/, a WorkerPool pinned to its PUs, no LLVM); its code generator is the
// kernel JIT's (jit/code_generator.h). The one file that joins the two halves of the kind, so
// that runtime/ never links LLVM and jit/ never knows the executor.
#include <algorithm>
#include <iterator>

#include "backends/cpu/jit/code_generator.h"
#include "backends/cpu/kernel_stack.h"
#include "backends/cpu/runtime/cpu_executor.h"
#include "backends/cpu/runtime/kernel_abi.h"

namespace tessera::backends::cpu {
namespace {

DeviceTraits makeTraits() {
  DeviceTraits t;
  static_assert(std::size(kSubgroupSizes) <= std::tuple_size_v<decltype(t.subgroupSizes)>);
  std::copy(std::begin(kSubgroupSizes), std::end(kSubgroupSizes), t.subgroupSizes.begin());
  t.subgroupSizeCount = static_cast<uint32_t>(std::size(kSubgroupSizes));
  // A work-item's private memory is its share of the thread's kernel stack (kernel_stack.h),
  // which is never larger than this.
  t.maxPrivateMemory = kMaxKernelStackNeed;
  // The work-group function's slots (jit/workgroup_function.cpp) in a buffer aligned to this
  // (runtime/launcher.cpp).
  t.maxArgumentAlignment = kMaxTypeAlignment;
  return t;
}

class CpuKind final : public DeviceKind {
 public:
  const DeviceTraits& traits() const override { return traits_; }
  std::unique_ptr<Executor> createExecutor(std::vector<uint32_t> cpus, uint32_t threads,
                                           uint64_t idleSpinNs,
                                           uint64_t cacheBytes) const override {
    return std::make_unique<CpuExecutor>(std::move(cpus), threads, idleSpinNs, cacheBytes);
  }
  bool localMemoryBytes(const KernelCode& code, const uint8_t* args,
                        uint64_t& total) const override {
    return localMemoryLayout(code, args, total);
  }
  BalanceTotals balance(bool reset) const override { return balanceTotals(reset); }
  std::unique_ptr<CodeGenerator> createCodeGenerator(const GeneratorOptions& options,
                                                     std::string& error) const override {
    return cpu::createCodeGenerator(options, error);
  }

 private:
  DeviceTraits traits_ = makeTraits();
};

}  // namespace

}  // namespace tessera::backends::cpu

namespace tessera::backends {

const DeviceKind& cpuKind() {
  static const cpu::CpuKind kind;
  return kind;
}

}  // namespace tessera::backends
