// fork() copies only the calling thread. A child of a process whose Tessera threads were running
// (queue executors, the device's worker threads, OpenCL callback waiters) has none of them, and a
// lock one of them held at the fork stays held forever in the child. Waiting for those threads is
// what hung (issue 28: a multi-group launch in the child never returned). Tessera's answer
// (docs/reliability.md, "fork()"): such a child is refused, never hung.
//  - watchForks(), called when the driver is created (before any of its threads exist), marks every
//    later fork child of this process (pthread_atfork);
//  - in a marked child every context is lost (core/context/context.h): commands, launches and
//    waits return ZE_RESULT_ERROR_DEVICE_LOST (OpenCL: CL_OUT_OF_RESOURCES), with one line on
//    stderr the first time;
//  - an owner of threads joins only threads of its own process (OwnerProcess below): what the
//    parent made is left alone in the child, so destroying it or exiting does not wait for nothing.
// Header only: each shared library (the driver, the OpenCL library) has its own copy, and only the
// driver's marks children; the OpenCL library learns of the refusal through the ze* results.
#pragma once

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>
#include <utility>

namespace tessera::support {

namespace fork_detail {
inline std::atomic<bool>& childFlag() {
  static std::atomic<bool> flag{false};
  return flag;
}
// Runs in the child right after fork(): only an atomic store (async-signal-safe).
inline void markChild() { childFlag().store(true, std::memory_order_relaxed); }
}  // namespace fork_detail

// From now on, a fork() child of this process is marked. Idempotent. (glibc unregisters the
// handler when the library holding it is unloaded.)
inline void watchForks() {
  static std::once_flag once;
  std::call_once(once, [] { pthread_atfork(nullptr, nullptr, &fork_detail::markChild); });
}

// Whether this process is a fork() child (or grandchild) of one that had called watchForks(). The
// first time the answer is yes, one line on stderr says what it means.
inline bool inForkChild() {
  if (!fork_detail::childFlag().load(std::memory_order_relaxed)) return false;
  static std::atomic<bool> warned{false};
  if (!warned.exchange(true))
    std::fprintf(stderr,
                 "tessera: this process is a fork() child of one that had initialized Tessera; "
                 "Tessera's threads do not exist here, so every command and wait fails with "
                 "ZE_RESULT_ERROR_DEVICE_LOST (OpenCL: CL_OUT_OF_RESOURCES): initialize Tessera "
                 "after fork(), or start the child with exec\n");
  return true;
}

// The process an object that owns threads was made in: a copy of it in a fork child must not join
// them (they do not exist there; pthread_join would wait forever for their exit).
class OwnerProcess {
 public:
  // Whether this object was made in another process (it is a fork child's copy).
  bool isForkCopy() const { return getpid() != owner_; }

 private:
  pid_t owner_ = getpid();
};

// Lets go of a thread of the parent without joining it: the std::thread object is kept, never
// destroyed (destroying a joinable one ends the process).
inline void abandonThread(std::thread& t) {
  if (t.joinable()) static_cast<void>(new std::thread(std::move(t)));
}

}  // namespace tessera::support
