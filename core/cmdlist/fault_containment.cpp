#include "core/cmdlist/fault_containment.h"

#include <csignal>
#include <cstdio>

#include "backends/cpu/fault_guard.h"
#include "core/context/context.h"
#include "core/module/kernel.h"
#include "core/module/module.h"

namespace tessera::core {

bool launchContained(const Kernel& kernel, const uint8_t* args,
                     const backends::cpu::LaunchDims& dims, backends::cpu::WorkerPool& pool) {
  Context& context = kernel.module().context();
  if (context.lost()) return false;
  try {
    backends::cpu::launch(kernel.compiled(), args, dims, pool);
    return true;
  } catch (const backends::cpu::KernelFault& f) {
    const char* what = f.info.signal == SIGSEGV  ? "SIGSEGV"
                       : f.info.signal == SIGBUS ? "SIGBUS"
                       : f.info.signal == SIGFPE ? "SIGFPE"
                                                 : "SIGILL";
    std::fprintf(stderr, "tessera: kernel faulted (%s at %#llx); its context is lost\n", what,
                 static_cast<unsigned long long>(f.info.address));
    context.markLost();
    return false;
  }
}

}  // namespace tessera::core
