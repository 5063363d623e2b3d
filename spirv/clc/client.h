// Requests to the compiler process (tessera-clc, main.cpp), through a small pool of them: each
// is started on first need and kept for the next request, so only the first request of an
// application pays for starting one. A process that ends while working (exit() in the translator,
// an assertion, a fatal error, a signal) fails only that request; the next starts a new process.
// So does one that has not replied within TESSERA_COMPILE_TIMEOUT_S seconds (default 600, 0 for
// no deadline): it is killed, and the log says so.
#pragma once

#include "spirv/clc/wire.h"

namespace tessera::spirv::clc {

// The reply of a compiler process to `request`; when none could be started, or the one working
// on it ended without replying, ok == false and `log` says why. Thread-safe.
Reply run(const Request& request);

}  // namespace tessera::spirv::clc
