// The OpenCL benchmarks' platform names: the name a table shows (PoCL's long one shortened) and
// the --platform filter (a case-insensitive substring; no filter takes every platform).
#pragma once

#include <CL/cl.h>

#include <cctype>
#include <string>
#include <vector>

namespace tessera::bench {

inline std::string platformName(cl_platform_id p) {
  char name[256] = {};
  clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
  std::string s = name;
  return s == "Portable Computing Language" ? "PoCL" : s;
}

inline bool platformMatches(const std::string& name, const std::vector<std::string>& filters) {
  if (filters.empty()) return true;
  auto lower = [](std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  for (const std::string& f : filters)
    if (lower(name).find(lower(f)) != std::string::npos) return true;
  return false;
}

}  // namespace tessera::bench
