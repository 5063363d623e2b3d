// hwloc's list syntax for a set of PU numbers ("0-3,8,10-11"), for test programs that reach the
// driver through the API and so cannot use core's CpuSet.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace tessera::test {

template <typename Int>
std::string puList(std::vector<Int> pus) {
  std::sort(pus.begin(), pus.end());
  std::string s;
  for (size_t i = 0; i < pus.size();) {
    size_t j = i;
    while (j + 1 < pus.size() && pus[j + 1] == pus[j] + 1) ++j;
    s += (s.empty() ? "" : ",") + std::to_string(pus[i]) + (j > i ? "-" + std::to_string(pus[j]) : "");
    i = j + 1;
  }
  return s;
}

}  // namespace tessera::test
