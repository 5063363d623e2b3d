#include "compiler/compiler_config.h"

#include "config/settings.h"

namespace tessera::compiler {

CompilerConfig configFromEnvironment(std::vector<std::string>& warnings) {
  const config::CompilerSettings c = config::CompilerSettings::fromEnvironment(warnings);
  CompilerConfig s;
  s.code.widen = static_cast<int>(c.widen);
  s.code.prefetch = c.prefetch;
  s.code.rowJam = c.rowJam;
  s.code.groupCopy = c.groupCopy;
  s.dumpModule = c.jitDump == config::JitDump::Module;
  s.dumpPasses = c.jitDump == config::JitDump::Passes;
  s.dumpTimes = c.jitDump == config::JitDump::Times;
  s.perfJit = c.perfJit;
  s.cache = support::diskCacheSettings(c.cache, c.cacheDir, c.cacheMaxMb, c.cacheDebug);
  s.process.program = c.clc;
  s.process.deadlineSeconds = c.compileTimeoutS;
  s.process.includes =
      c.strictIncludes ? spirv::IncludeRule::Strict : spirv::IncludeRule::Preprocessor;
  return s;
}

}  // namespace tessera::compiler
