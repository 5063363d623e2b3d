#include "core/queue/fault_containment.h"

#include <csignal>
#include <cstdio>

#include "host/fault_guard.h"
#include "core/context/context.h"

namespace tessera::core {

namespace {

const char* signalName(int sig) {
  if (sig == host::interruptSignal()) return "interrupted: its queue was destroyed";
  return sig == SIGSEGV  ? "SIGSEGV"
         : sig == SIGBUS ? "SIGBUS"
         : sig == SIGFPE ? "SIGFPE"
                         : "SIGILL";
}

}  // namespace

void memoryFaulted(Context& context, const char* what, const host::FaultInfo& info) {
  std::fprintf(stderr, "tessera: a %s faulted (%s at %#llx); its context is lost\n", what,
               signalName(info.signal), static_cast<unsigned long long>(info.address));
  context.markLost();
}

void kernelFaulted(Context& context, const char* kernel, const host::FaultInfo& info) {
  if (info.signal == host::interruptSignal()) {
    std::fprintf(stderr,
                 "tessera: kernel %s interrupted (its queue was destroyed while it ran); its "
                 "context is lost\n",
                 kernel);
  } else {
    std::fprintf(stderr, "tessera: kernel %s faulted (%s at %#llx); its context is lost\n", kernel,
                 signalName(info.signal), static_cast<unsigned long long>(info.address));
  }
  context.markLost();
}

void commandFailed(Context& context, const char* what) {
  std::fprintf(stderr, "tessera: a command failed on its queue (%s); its context is lost\n", what);
  context.markLost();
}

}  // namespace tessera::core
