// Timing and medians with spread, for every benchmark (Level Zero and OpenCL alike).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace tessera::bench {

inline double nowUs() {
  using namespace std::chrono;
  return duration<double, std::micro>(steady_clock::now().time_since_epoch()).count();
}

struct Stats {
  double median, p10, p90, min;
};

inline Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  auto at = [&](double q) { return v[static_cast<size_t>(q * double(v.size() - 1))]; };
  return {at(0.5), at(0.1), at(0.9), v.front()};
}

inline void report(const char* what, const Stats& s, const char* unit) {
  std::printf("%-58s median %10.3f %s  [p10 %.3f, p90 %.3f, min %.3f]\n", what, s.median, unit,
              s.p10, s.p90, s.min);
}

}  // namespace tessera::bench
