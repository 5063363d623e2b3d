#include "core/cmdlist/fault_containment.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>

#include "backends/cpu/fault_guard.h"
#include "backends/cpu/jit/launcher.h"
#include "core/context/context.h"
#include "core/module/kernel.h"
#include "core/module/module.h"

namespace tessera::core {

namespace {

const char* signalName(int sig) {
  if (sig == backends::cpu::interruptSignal()) return "interrupted: its queue was destroyed";
  return sig == SIGSEGV  ? "SIGSEGV"
         : sig == SIGBUS ? "SIGBUS"
         : sig == SIGFPE ? "SIGFPE"
                         : "SIGILL";
}

}  // namespace

void memoryFaulted(Context& context, const char* what, const backends::cpu::FaultInfo& info) {
  std::fprintf(stderr, "tessera: a %s faulted (%s at %#llx); its context is lost\n", what,
               signalName(info.signal), static_cast<unsigned long long>(info.address));
  context.markLost();
}

void commandFailed(Context& context, const char* what) {
  std::fprintf(stderr, "tessera: a command failed on its queue (%s); its context is lost\n", what);
  context.markLost();
}

bool launchContained(const Kernel& kernel, const uint8_t* args, const LaunchDims& dims,
                     backends::cpu::WorkerPool* pool, const void* tag, uint64_t serialNs,
                     bool* parallel) {
  Context& context = kernel.module().context();
  if (context.lost()) return false;
  backends::cpu::LaunchDims grid;
  for (int d = 0; d < 3; ++d) {
    grid.groupCount[d] = dims.groupCount[d];
    grid.groupSize[d] = dims.groupSize[d];
    grid.globalOffset[d] = dims.globalOffset[d];
  }
  grid.workDim = dims.workDim;
  try {
    bool used = backends::cpu::launch(kernel.compiled(), args, grid, pool, tag, serialNs);
    if (parallel) *parallel = used;
    return true;
  } catch (const backends::cpu::KernelFault& f) {
    if (f.info.signal == backends::cpu::interruptSignal()) {
      std::fprintf(stderr,
                   "tessera: kernel %s interrupted (its queue was destroyed while it ran); its "
                   "context is lost\n",
                   kernel.name().c_str());
    } else {
      std::fprintf(stderr, "tessera: kernel %s faulted (%s at %#llx); its context is lost\n",
                   kernel.name().c_str(), signalName(f.info.signal),
                   static_cast<unsigned long long>(f.info.address));
    }
    context.markLost();
    return false;
  }
}

void joinInterrupting(std::thread& executor, const std::atomic<bool>& exited, const void* tag,
                      uint64_t timeoutMs) {
  if (timeoutMs > 0) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    while (!exited.load(std::memory_order_acquire) && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    // Still running: a kernel that does not end. Interrupt its work-groups until the executor
    // leaves (a helper may pick up one more group before it sees the launch stopped).
    // (Under ThreadSanitizer asynchronous signals wait for the thread to call into the runtime,
    // which a kernel looping in JIT'd code never does: there the destroy keeps waiting.)
    for (int round = 0; !exited.load(std::memory_order_acquire); ++round) {
      backends::cpu::interruptGuarded(tag);
      if (round == 400)
        std::fprintf(stderr, "tessera: a kernel did not stop when interrupted; waiting for it\n");
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  executor.join();
}

}  // namespace tessera::core
