#include "host/pu_claims.h"

#include <sched.h>

#include <atomic>

namespace tessera::host {
namespace {

constexpr int kTableCpus = 1024;

// One cache line per CPU: a claim is written by a thread on that CPU and read by the threads that
// wait on it, so lines of different CPUs never bounce between cores. Zero pages until touched.
struct alignas(64) Claims {
  std::atomic<uint32_t> count{0};
};
Claims gClaims[kTableCpus];
Claims gFloating;

Claims* slot(int cpu) {
  if (cpu == PuClaim::kFloating) return &gFloating;
  return cpu >= 0 && cpu < kTableCpus ? &gClaims[cpu] : nullptr;
}

}  // namespace

int currentCpu() {
  return sched_getcpu();
}

PuClaim::PuClaim(int cpu) : cpu_(cpu) {
  if (Claims* c = slot(cpu_)) c->count.fetch_add(1, std::memory_order_relaxed);
}

PuClaim::~PuClaim() {
  if (Claims* c = slot(cpu_)) c->count.fetch_sub(1, std::memory_order_relaxed);
}

bool spinWouldCompete() {
  if (gFloating.count.load(std::memory_order_relaxed) != 0) return true;
  int cpu = sched_getcpu();
  return cpu >= 0 && cpu < kTableCpus && gClaims[cpu].count.load(std::memory_order_relaxed) != 0;
}

uint32_t claimsOn(int cpu) {
  Claims* c = slot(cpu);
  return c ? c->count.load(std::memory_order_relaxed) : 0;
}

}  // namespace tessera::host
