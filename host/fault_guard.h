// Containment of faults in kernel code: a kernel that dereferences a bad address, divides by zero
// or traps on a worker thread (or on an application thread running work-groups inline) must not
// kill the process.
//
// Design: SIGSEGV, SIGBUS, SIGFPE and SIGILL handlers are installed once per process, on first
// use, each remembering the disposition it replaced. A thread that runs kernel code does so inside
// runGuarded(): that gives the thread an alternate signal stack (unless it already has one) and a
// thread-local recovery point (sigsetjmp). The handler jumps back to that point only when the
// faulting thread is inside runGuarded's callee; a fault anywhere else is not ours and goes to the
// previous handler (or, for SIG_DFL / SIG_IGN, is re-raised with the default action, so the process
// dies exactly as it would without Tessera).
//
// What may be abandoned by the jump: only the kernel's own frames. Kernel code holds none of
// Tessera's locks; runGuarded is called per work-group from inside the worker pool's job, so the
// pool's bookkeeping is outside the jumped-over frames.
//
// Threading: free-threaded; the state is per thread.
#pragma once

#include <cstdint>
#include <stdexcept>

namespace tessera::host {

struct FaultInfo {
  int signal = 0;          // SIGSEGV, SIGBUS, SIGFPE or SIGILL
  uintptr_t address = 0;   // si_addr: the bad address (SEGV/BUS) or the faulting instruction
};

// Runs fn(arg) and returns true, or returns false with *info filled if a fault in fn was caught.
// Nested calls on one thread are allowed (the inner recovery point wins while it runs).
// `tag` (may be null) names what the code belongs to (a launch on a queue): interruptGuarded(tag)
// makes every thread running guarded code under that tag leave it as if it had faulted, with
// FaultInfo::signal == interruptSignal().
bool runGuarded(void (*fn)(void*), void* arg, FaultInfo* info, const void* tag = nullptr);

// Convenience for lambdas.
template <typename F>
bool runGuardedFn(F& f, FaultInfo* info, const void* tag = nullptr) {
  return runGuarded([](void* p) { (*static_cast<F*>(p))(); }, &f, info, tag);
}

// Sends interruptSignal() (SIGRTMIN+5; its handler is installed on the first call) to every thread
// inside guarded code under `tag`; returns how many were signalled. A thread that left the code
// before the signal arrives ignores it. Used to end a kernel that does not end when its queue is
// destroyed (docs/reliability.md). Not safe against a kernel interrupted inside a builtin
// that holds a libc lock (printf): documented.
int interruptGuarded(const void* tag);
int interruptSignal();

// Thrown by launch() (on the launching thread, after every worker has left the launch) when a
// work-group faulted.
class KernelFault : public std::runtime_error {
 public:
  explicit KernelFault(const FaultInfo& info);
  FaultInfo info;
};

// Installs the handlers if they are not (or no longer) in place: called once per launch, it checks
// SIGSEGV's disposition (one system call) and reinstalls all four when another handler replaced
// ours (keeping that one as the previous disposition, to chain to).
void ensureFaultHandlers();

// For tests: how many faults were caught in this process.
uint64_t faultsCaught();

// Containment is on unless turned off (a fault then kills the process, as a debugger or a core dump
// may want): the driver turns it off when it is created with TESSERA_NO_FAULT_GUARD=1.
bool faultGuardEnabled();
void setFaultGuardEnabled(bool on);

}  // namespace tessera::host
