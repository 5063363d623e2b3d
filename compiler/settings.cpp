#include "compiler/settings.h"

#include <algorithm>
#include <cstdlib>

#include "config/settings.h"

namespace tessera::compiler {
namespace {

// The variable's value, or null when it is unset or empty (XDG_CACHE_HOME and HOME: the system's,
// not Tessera's, so not rows of config/settings.def).
const char* value(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

DiskCacheSettings diskCache(const config::CompilerSettings& c) {
  DiskCacheSettings d;
  if (!c.cache) return d;
  if (!c.cacheDir.empty())
    d.folder = c.cacheDir;
  else if (const char* x = value("XDG_CACHE_HOME"))
    d.folder = std::string(x) + "/tessera";
  else if (const char* h = value("HOME"))
    d.folder = std::string(h) + "/.cache/tessera";
  d.enabled = !d.folder.empty();
  d.maxBytes = c.cacheMaxMb <= 0
                   ? 0
                   : std::max<uint64_t>(1, static_cast<uint64_t>(c.cacheMaxMb * 1048576.0));
  d.debug = c.cacheDebug;
  return d;
}

}  // namespace

CompilerSettings settingsFromEnvironment(std::vector<std::string>& warnings) {
  const config::CompilerSettings c = config::CompilerSettings::fromEnvironment(warnings);
  CompilerSettings s;
  s.code.widen = static_cast<int>(c.widen);
  s.code.prefetch = c.prefetch;
  s.dumpModule = c.jitDump == config::JitDump::Module;
  s.dumpPasses = c.jitDump == config::JitDump::Passes;
  s.perfJit = c.perfJit;
  s.cache = diskCache(c);
  s.process.program = c.clc;
  s.process.deadlineSeconds = c.compileTimeoutS;
  return s;
}

}  // namespace tessera::compiler
