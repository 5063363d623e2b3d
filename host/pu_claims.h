// Which PUs Tessera's own threads are working on right now, so that a thread about to spin can tell
// whether its spin would take a PU from device work (issue 20: no oversubscription by
// construction).
//
// The rule: a thread that runs device work (a command on a queue's executor or inline on the
// application's thread, a worker's part of a parallel job) claims the PU it runs on for as long as
// it works there; a thread that waits (a host synchronization, an executor waiting for an event, an
// idle worker) spins only while spinWouldCompete() is false and sleeps on its futex as soon as it
// is true. So while a launch runs on a device of N PUs, each of those PUs has one runnable Tessera
// thread: its worker. Work of an unpinned pool (a synthetic or XML topology, whose PUs are not this
// machine's) cannot name a PU: it claims "floating", and while any floating work runs no wait
// spins.
//
// Threading: every function may be called from any thread. A claim is one relaxed atomic add on a
// cache line of the claimed PU's own (normally read only by threads on that PU).
#pragma once

#include <cstdint>

namespace tessera::host {

// The OS number of the CPU the calling thread runs on now (-1 when the system does not say).
int currentCpu();

// A claim of `cpu` (an OS CPU number) for the claim's lifetime; kFloating claims floating work.
// CPU numbers beyond the table (1024) are not recorded.
class PuClaim {
 public:
  static constexpr int kFloating = -1;
  explicit PuClaim(int cpu);
  ~PuClaim();
  PuClaim(const PuClaim&) = delete;
  PuClaim& operator=(const PuClaim&) = delete;

 private:
  int cpu_;
};

// Whether a spin of the calling thread would compete with device work: its current CPU is claimed,
// or floating work runs. A claimer asking about its own PU gets true too: release first.
bool spinWouldCompete();

// The number of claims on `cpu` (kFloating: floating work) now; for tests.
uint32_t claimsOn(int cpu);

}  // namespace tessera::host
