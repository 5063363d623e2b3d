#include "backends/cpu/runtime/cpu_executor.h"

#include "backends/cpu/runtime/kernel_abi.h"
#include "backends/cpu/runtime/launcher.h"

namespace tessera::backends::cpu {

bool CpuExecutor::launch(const KernelCode& code, const uint8_t* args, const LaunchDims& dims,
                         const void* tag, uint64_t serialNs) {
  return cpu::launch(static_cast<const CompiledKernel&>(code), args, dims, &pool_, tag, serialNs,
                     cacheBytes_);
}

}  // namespace tessera::backends::cpu
