#include "compiler/settings.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace tessera::compiler {
namespace {

// The variable's value, or null when it is unset or empty.
const char* value(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

DiskCacheSettings diskCacheFromEnvironment() {
  DiskCacheSettings c;
  if (const char* on = std::getenv("TESSERA_CACHE"); on && std::strcmp(on, "0") == 0) return c;
  if (const char* d = value("TESSERA_CACHE_DIR"))
    c.folder = d;
  else if (const char* x = value("XDG_CACHE_HOME"))
    c.folder = std::string(x) + "/tessera";
  else if (const char* h = value("HOME"))
    c.folder = std::string(h) + "/.cache/tessera";
  c.enabled = !c.folder.empty();
  if (const char* mb = value("TESSERA_CACHE_MAX_MB")) {
    double m = std::atof(mb);
    c.maxBytes = m <= 0 ? 0 : std::max<uint64_t>(1, uint64_t(m * 1048576.0));
  }
  const char* debug = value("TESSERA_CACHE_DEBUG");
  c.debug = debug && std::strcmp(debug, "0") != 0;
  return c;
}

}  // namespace

CompilerSettings settingsFromEnvironment() {
  CompilerSettings s;
  if (const char* w = value("TESSERA_WIDEN")) {
    int n = std::atoi(w);
    s.code.widen = n < 0 || n > 64 || (n & (n - 1)) != 0 ? 1 : n;
  }
  if (const char* p = value("TESSERA_PREFETCH")) s.code.prefetch = *p != '0';
  if (const char* dump = value("TESSERA_JIT_DUMP")) {
    s.dumpPasses = std::strcmp(dump, "passes") == 0;
    s.dumpModule = *dump == '1';
  }
  const char* perf = value("TESSERA_PERF_JIT");
  s.perfJit = perf && *perf == '1';
  s.cache = diskCacheFromEnvironment();
  s.process = spirv::clc::settingsFromEnvironment();
  return s;
}

}  // namespace tessera::compiler
