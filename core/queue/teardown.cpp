#include "core/queue/teardown.h"

#include <chrono>
#include <cstdio>

#include "host/fault_guard.h"
#include "core/sync/wait.h"

namespace tessera::core {

void joinInterrupting(std::thread& executor, std::atomic<uint32_t>& exited, const void* tag,
                      uint64_t timeoutMs) {
  if (timeoutMs > 0) {
    sync::flagWait(exited, timeoutMs * 1'000'000ull, false);
    // Still running: a kernel that does not end. Interrupt its work-groups until the executor
    // leaves (a helper may pick up one more group before it sees the launch stopped).
    // (Under ThreadSanitizer asynchronous signals wait for the thread to call into the runtime,
    // which a kernel looping in JIT'd code never does: there the destroy keeps waiting.)
    for (int round = 0; !sync::flagIsSet(exited); ++round) {
      host::interruptGuarded(tag);
      if (round == 400)
        std::fprintf(stderr, "tessera: a kernel did not stop when interrupted; waiting for it\n");
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  executor.join();
}

}  // namespace tessera::core
