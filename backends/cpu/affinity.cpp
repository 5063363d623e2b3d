#include "backends/cpu/affinity.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>

namespace tessera::backends::cpu {

bool pinCurrentThread(const std::vector<uint32_t>& cpus) {
  if (cpus.empty()) return true;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (uint32_t c : cpus)
    if (c < CPU_SETSIZE) CPU_SET(c, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

bool runningOn(const std::vector<uint32_t>& cpus) {
  int cpu = sched_getcpu();
  return cpu >= 0 && std::binary_search(cpus.begin(), cpus.end(), static_cast<uint32_t>(cpu));
}

}  // namespace tessera::backends::cpu
