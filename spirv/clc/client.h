// Requests to the compiler process (tessera-clc, main.cpp), through a small pool of them: each
// is started on first need and kept for the next request, so only the first request of an
// application pays for starting one. A process that ends while working (exit() in the translator,
// an assertion, a fatal error, a signal) fails only that request; the next starts a new process.
// So does one that has not replied within TESSERA_COMPILE_TIMEOUT_S seconds (default 600, 0 for
// no deadline), one deadline for the whole request however the reply trickles in: it is killed,
// and the log says so.
#pragma once

#include <string>

#include "spirv/clc/wire.h"
#include "support/disk_cache.h"

namespace tessera::spirv::clc {

// Which compiler process runs a request and how long it may take.
struct Settings {
  // TESSERA_CLC: the program to start; empty: tessera/tessera-clc beside the shared library holding
  // this code (the installed layout and the build tree's lib/), else the build tree's.
  std::string program;
  // TESSERA_COMPILE_TIMEOUT_S: seconds a process may work on one request (from sending it to the
  // reply's last byte) before it is killed and the request fails (default 600, fractions allowed;
  // 0: no deadline; anything else unreadable: the default).
  double deadlineSeconds = 600;
  // TESSERA_STRICT_INCLUDES: what an OpenCL C `#include` may read (IncludeRule).
  IncludeRule includes = IncludeRule::Preprocessor;
};

// The variables above, read now. The compiler facade (compiler/compiler_config.h) reads them once, at
// driver creation; compileOpenCLC, which the OpenCL layer calls without a driver, at each request.
Settings settingsFromEnvironment();
// TESSERA_CACHE, TESSERA_CACHE_DIR, TESSERA_CACHE_MAX_MB and TESSERA_CACHE_DEBUG, read now: the
// disk cache compileOpenCLC keeps its builds in (frontend_cache.h).
support::DiskCacheSettings diskCacheFromEnvironment();

// The reply of a compiler process to `request`; when none could be started, or the one working
// on it ended without replying, ok == false and `log` says why. Thread-safe.
Reply run(const Request& request, const Settings& settings);

}  // namespace tessera::spirv::clc
