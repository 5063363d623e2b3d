#include "host/fault_guard.h"

#include <pthread.h>
#include <setjmp.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace tessera::host {
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
struct sigaction previous[4];
std::once_flag installOnce;
std::atomic<uint64_t> caught{0};

int slotOf(int sig) {
  for (int i = 0; i < 4; ++i)
    if (kSignals[i] == sig) return i;
  return -1;
}

// What the handler reads and writes: plain, constant-initialized thread-locals in the initial-exec
// model, so the handler touches no lazily allocated TLS (no malloc in a signal handler, also on
// threads that never ran a kernel). `tlsRecovery` is non-null only while the thread runs guarded
// code.
#define TESSERA_TLS_IE __attribute__((tls_model("initial-exec")))
TESSERA_TLS_IE thread_local sigjmp_buf* tlsRecovery = nullptr;
TESSERA_TLS_IE thread_local FaultInfo tlsFault;
TESSERA_TLS_IE thread_local int forwarding = 0;

// Every thread that has run guarded code, for interruptGuarded(): its launch tag while it runs
// guarded code, and the tag an interrupter asks it to leave.
struct Entry {
  pthread_t thread;
  std::atomic<const void*> tag{nullptr};
  std::atomic<const void*> interrupt{nullptr};
};
TESSERA_TLS_IE thread_local Entry* tlsEntry = nullptr;
std::mutex registryMutex;
std::vector<Entry*>& registry() {
  static auto* r = new std::vector<Entry*>;  // never destroyed: threads may outlive statics
  return *r;
}

// The rest of the per-thread state (the alternate stack), only touched outside handlers.
struct ThreadState {
  void* altStack = nullptr;
  size_t altSize = 0;
  bool altChecked = false;
  ~ThreadState() {
    if (tlsEntry) {
      std::lock_guard lock(registryMutex);
      std::erase(registry(), tlsEntry);
      delete tlsEntry;
      tlsEntry = nullptr;
    }
    if (!altStack) return;
    stack_t off{};
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
    munmap(altStack, altSize);
  }
};
thread_local ThreadState tls;

void forward(int sig, siginfo_t* info, void* uctx) {
  int slot = slotOf(sig);
  const struct sigaction& prev = previous[slot];
  // A previous handler that itself chains back to us would recurse: the second time round, the
  // default action.
  if (forwarding == 0) {
    if ((prev.sa_flags & SA_SIGINFO) && prev.sa_sigaction) {
      ++forwarding;
      prev.sa_sigaction(sig, info, uctx);
      --forwarding;
      return;
    }
    if (!(prev.sa_flags & SA_SIGINFO) && prev.sa_handler != SIG_DFL && prev.sa_handler != SIG_IGN) {
      ++forwarding;
      prev.sa_handler(sig);
      --forwarding;
      return;
    }
  }
  // Not ours and nobody else's: the default action, as without Tessera. A hardware fault
  // re-executes the instruction after we return and faults again with SIG_DFL in place; a sent
  // signal is re-raised (blocked until the handler returns).
  signal(sig, SIG_DFL);
  if (info->si_code <= 0) raise(sig);
}

void handler(int sig, siginfo_t* info, void* uctx) {
  // Only faults raised by the hardware on this thread while it is inside guarded code are ours;
  // a signal sent with kill/raise (si_code <= 0) never is.
  sigjmp_buf* r = tlsRecovery;
  if (r && info->si_code > 0) {
    tlsRecovery = nullptr;
    tlsFault.signal = sig;
    tlsFault.address = reinterpret_cast<uintptr_t>(info->si_addr);
    caught.fetch_add(1, std::memory_order_relaxed);
    siglongjmp(*r, 1);
  }
  forward(sig, info, uctx);
}

std::mutex installMutex;

bool isOurs(const struct sigaction& sa) {
  return (sa.sa_flags & SA_SIGINFO) && sa.sa_sigaction == handler;
}

// (Re)installs our handler for every signal where another is in place, remembering that one as
// the previous disposition.
void install() {
  std::lock_guard lock(installMutex);
  for (int i = 0; i < 4; ++i) {
    struct sigaction cur{};
    if (sigaction(kSignals[i], nullptr, &cur) != 0 || isOurs(cur)) continue;
    struct sigaction sa{};
    sa.sa_sigaction = handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    // Stored before ours is in place, so a fault in between never sees a stale previous.
    previous[i] = cur;
    sigaction(kSignals[i], &sa, nullptr);
  }
}

// An alternate stack for this thread, so a fault from a kernel that overflowed its stack can still
// be handled; a thread that already has one (the application's, a sanitizer's) keeps it.
void ensureAltStack() {
  if (tls.altChecked) return;
  tls.altChecked = true;
  {
    auto* e = new Entry;
    e->thread = pthread_self();
    std::lock_guard lock(registryMutex);
    registry().push_back(e);
    tlsEntry = e;
  }
  stack_t cur{};
  if (sigaltstack(nullptr, &cur) == 0 && !(cur.ss_flags & SS_DISABLE)) return;
  size_t size = 64 * 1024;
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return;
  stack_t ss{};
  ss.ss_sp = p;
  ss.ss_size = size;
  if (sigaltstack(&ss, nullptr) != 0) {
    munmap(p, size);
    return;
  }
  tls.altStack = p;
  tls.altSize = size;
}

}  // namespace

// The interrupt signal's handler (installed on the first interrupt): it leaves guarded code only when
// the thread is inside it under the tag an interrupter asked for; otherwise it is somebody else's
// signal (or came late) and goes to the previous handler, if any.
namespace {

struct sigaction previousInterrupt;
std::once_flag interruptOnce;

void interruptHandler(int sig, siginfo_t* info, void* uctx) {
  Entry* e = tlsEntry;
  sigjmp_buf* r = tlsRecovery;
  if (e && r) {
    const void* want = e->interrupt.load(std::memory_order_acquire);
    if (want && want == e->tag.load(std::memory_order_relaxed)) {
      e->interrupt.store(nullptr, std::memory_order_relaxed);
      tlsRecovery = nullptr;
      tlsFault.signal = sig;
      tlsFault.address = 0;
      siglongjmp(*r, 1);
    }
  }
  const struct sigaction& prev = previousInterrupt;
  if ((prev.sa_flags & SA_SIGINFO) && prev.sa_sigaction)
    prev.sa_sigaction(sig, info, uctx);
  else if (!(prev.sa_flags & SA_SIGINFO) && prev.sa_handler != SIG_DFL &&
           prev.sa_handler != SIG_IGN)
    prev.sa_handler(sig);
}

void unblockOurSignals() {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : kSignals) sigaddset(&set, sig);
  sigaddset(&set, SIGRTMIN + 5);
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

}  // namespace

int interruptSignal() { return SIGRTMIN + 5; }

int interruptGuarded(const void* tag) {
  if (!tag || !faultGuardEnabled()) return 0;
  std::call_once(interruptOnce, [] {
    struct sigaction sa{};
    sa.sa_sigaction = interruptHandler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigaction(interruptSignal(), &sa, &previousInterrupt);
  });
  int n = 0;
  std::lock_guard lock(registryMutex);
  for (Entry* e : registry()) {
    if (e->tag.load(std::memory_order_relaxed) != tag) continue;
    e->interrupt.store(tag, std::memory_order_release);
    if (pthread_kill(e->thread, interruptSignal()) == 0) ++n;
  }
  return n;
}

namespace {
std::atomic<bool> gGuardEnabled{true};
}  // namespace

bool faultGuardEnabled() { return gGuardEnabled.load(std::memory_order_relaxed); }
void setFaultGuardEnabled(bool on) { gGuardEnabled.store(on, std::memory_order_relaxed); }

bool runGuarded(void (*fn)(void*), void* arg, FaultInfo* info, const void* tag) {
  if (!faultGuardEnabled()) {
    fn(arg);
    return true;
  }
  std::call_once(installOnce, install);
  ensureAltStack();
  sigjmp_buf here;
  sigjmp_buf* outer = tlsRecovery;
  Entry* e = tlsEntry;
  const void* outerTag = e ? e->tag.load(std::memory_order_relaxed) : nullptr;
  // No signal mask saved (that would be a system call per work-group): the handler's signal stays
  // blocked after the jump, so the fault path unblocks ours itself.
  if (sigsetjmp(here, 0) != 0) {
    // Back from a handler: the kernel's frames are gone.
    unblockOurSignals();
    tlsRecovery = outer;
    if (e) e->tag.store(outerTag, std::memory_order_relaxed);
    if (info) *info = tlsFault;
    return false;
  }
  if (e) e->tag.store(tag, std::memory_order_relaxed);
  tlsRecovery = &here;
  try {
    fn(arg);
  } catch (...) {
    // Not a fault: the thread leaves guarded code as on a return, and the exception goes on.
    tlsRecovery = outer;
    if (e) e->tag.store(outerTag, std::memory_order_relaxed);
    throw;
  }
  tlsRecovery = outer;
  if (e) e->tag.store(outerTag, std::memory_order_relaxed);
  return true;
}

KernelFault::KernelFault(const FaultInfo& i)
    : std::runtime_error("kernel fault: signal " + std::to_string(i.signal) + " at 0x" +
                         [&] {
                           char b[32];
                           std::snprintf(b, sizeof b, "%llx",
                                         static_cast<unsigned long long>(i.address));
                           return std::string(b);
                         }()),
      info(i) {}

void ensureFaultHandlers() {
  if (!faultGuardEnabled()) return;
  std::call_once(installOnce, install);
  // Somebody (a test framework, a runtime) may have replaced ours since the last launch. The query
  // is a system call, a quarter of an empty kernel's enqueue + finish, so back-to-back launches
  // make it at most every 50 microseconds: replacing a handler and then launching a kernel that
  // faults takes longer than that (a launch right after a replacement is checked unless another
  // thread's launch checked within those microseconds).
  // (The time stamp counter where there is one: reading the clock was another twentieth of a
  // back-to-back launch; 100,000 ticks are 25-50 us at the usual 2-4 GHz.)
#if defined(__x86_64__)
  constexpr int64_t kRecheck = 100'000;
  int64_t now = static_cast<int64_t>(__rdtsc());
#else
  constexpr int64_t kRecheck = 50'000;
  int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                    std::chrono::steady_clock::now().time_since_epoch())
                    .count();
#endif
  static std::atomic<int64_t> lastCheck{INT64_MIN / 2};
  if (now - lastCheck.load(std::memory_order_relaxed) < kRecheck) return;
  lastCheck.store(now, std::memory_order_relaxed);
  struct sigaction cur{};
  if (sigaction(SIGSEGV, nullptr, &cur) == 0 && !isOurs(cur)) install();
}

uint64_t faultsCaught() { return caught.load(); }

}  // namespace tessera::host
