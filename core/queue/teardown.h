// A queue's teardown: joining its executor thread, interrupting a kernel that does not end.
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>

namespace tessera::core {

// Joins a queue's executor. If it has not exited after `timeoutMs`
// (TESSERA_QUEUE_DESTROY_TIMEOUT_MS; 0 waits forever) — a kernel that does not end — the kernel's
// work-groups running under `tag` are interrupted (fault_guard.h), which loses the kernel's
// context, and the join goes on. `exited` is a sync flag (core/sync/wait.h) the executor sets as it
// returns; the wait on it wakes when it is set (a poll in 200 us sleeps made every queue and
// immediate list destroy cost about 280 us).
void joinInterrupting(std::thread& executor, std::atomic<uint32_t>& exited, const void* tag,
                      uint64_t timeoutMs);

}  // namespace tessera::core
