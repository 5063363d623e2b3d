// Sets of PUs (OS CPU numbers) and where this process's threads may run and last ran: the CPU
// affinity of the process and of each thread (sched_getaffinity), and the "processor" field of
// /proc/self/task/<tid>/stat (field 39, the CPU the thread last ran on).
#pragma once

#include <dirent.h>
#include <sched.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace sample {

using PuSet = std::set<uint32_t>;

// The CPUs thread `tid` may run on (0: the calling thread; at the start of main, the process's
// binding, which threads created later inherit unless they are pinned elsewhere).
inline PuSet affinityOf(pid_t tid) {
  PuSet out;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(tid, sizeof set, &set) != 0) return out;
  for (uint32_t c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) out.insert(c);
  return out;
}

inline bool within(const PuSet& inner, const PuSet& outer) {
  for (uint32_t p : inner)
    if (!outer.count(p)) return false;
  return true;
}

// "0-3,6": ranges of consecutive PUs.
inline std::string text(const PuSet& pus) {
  std::string s;
  for (auto it = pus.begin(); it != pus.end();) {
    uint32_t first = *it, last = first;
    for (++it; it != pus.end() && *it == last + 1; ++it) last = *it;
    if (!s.empty()) s += ",";
    s += std::to_string(first);
    if (last != first) s += "-" + std::to_string(last);
  }
  return s.empty() ? "none" : s;
}

struct ThreadPlace {
  pid_t tid = 0;
  std::string name;
  PuSet affinity;
  int lastCpu = -1;
};

// The threads of this process whose name starts with `prefix` (Tessera names its queue executors
// "tessera-queue" and its workers "tessera-worker").
inline std::vector<ThreadPlace> threadsNamed(const std::string& prefix) {
  std::vector<ThreadPlace> out;
  DIR* dir = opendir("/proc/self/task");
  if (!dir) return out;
  while (dirent* e = readdir(dir)) {
    if (e->d_name[0] == '.') continue;
    ThreadPlace t;
    t.tid = static_cast<pid_t>(std::atol(e->d_name));
    std::ifstream stat("/proc/self/task/" + std::string(e->d_name) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    size_t open = line.find('('), close = line.rfind(')');
    if (open == std::string::npos || close == std::string::npos) continue;
    t.name = line.substr(open + 1, close - open - 1);
    if (t.name.compare(0, prefix.size(), prefix) != 0) continue;
    // After the name: field 3 is the state, field 39 the processor.
    std::istringstream rest(line.substr(close + 2));
    std::string field;
    for (int i = 3; i <= 39 && rest >> field; ++i)
      if (i == 39) t.lastCpu = std::atoi(field.c_str());
    t.affinity = affinityOf(t.tid);
    out.push_back(t);
  }
  closedir(dir);
  return out;
}

}  // namespace sample
