// A queue's teardown: joining its executor thread, interrupting a kernel that does not end.
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>

namespace tessera::core {

// Joins a queue's executor. If it has not exited after `timeoutMs`
// (TESSERA_QUEUE_DESTROY_TIMEOUT_MS; 0 waits forever) — a kernel that does not end — the kernel's
// work-groups running under `tag` are interrupted (fault_guard.h), which loses the kernel's
// context, and the join goes on. `exited` is set by the executor as it returns.
void joinInterrupting(std::thread& executor, const std::atomic<bool>& exited, const void* tag,
                      uint64_t timeoutMs);

}  // namespace tessera::core
