// Scenarios that crashed, corrupted or could hang the whole test binary if the driver is broken
// run in a copy of the binary: the parent names a hidden test case (tagged "[.name]"), the child
// runs it under a watchdog (SIGALRM) and the parent checks that it passed. Hidden tests still run
// under an exclusion filter such as "~[novalidation]", so they do nothing unless inWatchedChild().
// Shared by the Level Zero and the OpenCL API tests.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <map>
#include <string>

#include "process.h"

namespace tessera::test {

constexpr const char* kWatchedChildVar = "TESSERA_TEST_WATCHED_CHILD";

inline bool inWatchedChild() {
  return std::getenv(kWatchedChildVar) != nullptr;
}

inline void armWatchdog(unsigned seconds) {
  alarm(seconds);
}

// Runs the hidden test `testName` in a copy of this binary, with this process's environment plus
// `env` (for what a process reads once, at its start).
inline void runWatchedChild(const std::string& testName,
                            const std::map<std::string, std::string>& env = {}) {
  std::map<std::string, std::string> vars = currentEnvironment();
  vars[kWatchedChildVar] = "1";
  for (const auto& [k, v] : env) vars[k] = v;
  ProcessResult r = runProcess({"/proc/self/exe", testName}, vars);
  INFO("child " << testName << " exit " << r.exitCode << "\nstdout: " << r.out
                << "\nstderr: " << r.err);
  CHECK(r.exitCode == 0);
  CHECK(r.out.find("All tests passed") != std::string::npos);
}

// Runs `body` in a fork() child of this process (not a copy of the binary: the child has this
// process's state, the point of testing fork). The child ends itself with SIGALRM after `seconds`,
// so a hang is a failure, never a stuck test; it leaves with _exit(body()), running no exit
// handlers. The child's exit code, or 128 + the signal that ended it.
template <typename F>
int runForkedChild(unsigned seconds, F&& body) {
  pid_t pid = fork();
  if (pid == 0) {
    alarm(seconds);
    _exit(body());
  }
  REQUIRE(pid > 0);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace tessera::test
