#include "host/affinity.h"

#include <pthread.h>
#include <sched.h>

#include <unistd.h>

#include <algorithm>

namespace tessera::host {

bool pinCurrentThread(const std::vector<uint32_t>& cpus) {
  if (cpus.empty()) return true;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (uint32_t c : cpus)
    if (c < CPU_SETSIZE) CPU_SET(c, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

bool confinedTo(const std::vector<uint32_t>& cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (pthread_getaffinity_np(pthread_self(), sizeof set, &set) != 0) return false;
  int allowed = CPU_COUNT(&set);
  if (allowed == 0) return false;
  int inside = 0;
  for (uint32_t c : cpus)
    if (c < CPU_SETSIZE && CPU_ISSET(c, &set)) ++inside;
  return inside == allowed;
}

bool coversEveryCpu(const std::vector<uint32_t>& cpus) {
  long configured = sysconf(_SC_NPROCESSORS_CONF);
  if (configured <= 0) return false;
  std::vector<bool> seen(static_cast<size_t>(configured), false);
  for (uint32_t c : cpus)
    if (c < seen.size()) seen[c] = true;
  return std::find(seen.begin(), seen.end(), false) == seen.end();
}

}  // namespace tessera::host
