// The threads of this process as the scheduler sees them (/proc/self/task/<tid>/stat): name, state
// ('R' runnable, 'S' asleep, ...) and the CPU each last ran on, for tests that check which threads
// run or sleep by state rather than by time.
#pragma once

#include <dirent.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace tessera::test {

struct ThreadState {
  long tid = 0;
  std::string name;
  char state = '?';
  int cpu = -1;
};

inline bool readThreadState(long tid, ThreadState& out) {
  std::ifstream in("/proc/self/task/" + std::to_string(tid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return false;
  size_t open = line.find('('), close = line.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close + 2 >= line.size())
    return false;
  out.tid = tid;
  out.name = line.substr(open + 1, close - open - 1);
  out.state = line[close + 2];
  // Fields after the state: ppid is field 4; "processor" is field 39.
  std::istringstream rest(line.substr(close + 2));
  std::string field;
  for (int i = 3; i <= 39 && rest >> field; ++i)
    if (i == 39) out.cpu = std::stoi(field);
  return true;
}

inline std::vector<ThreadState> threadStates() {
  std::vector<ThreadState> out;
  DIR* d = opendir("/proc/self/task");
  if (!d) return out;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    ThreadState t;
    if (readThreadState(std::atol(e->d_name), t)) out.push_back(t);
  }
  closedir(d);
  return out;
}

inline long currentTid() {
  return static_cast<long>(syscall(SYS_gettid));
}

}  // namespace tessera::test
