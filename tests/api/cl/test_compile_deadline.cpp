// TESSERA_COMPILE_TIMEOUT_S is one deadline per build (issue 28; spirv/clc/client.cpp): a compiler
// process that trickles its reply one byte at a time used to restart the wait at every read, so
// clBuildProgram never returned. The fake compiler here (TESSERA_CLC naming a shell script) sends
// the length of a 1 MiB reply, then one byte every 0.2 s. The build runs in a watched copy of the
// test binary (watched_child.h): with the deadline it fails with the log line saying so; without
// it the watchdog ends the copy and the test fails instead of hanging.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "cl_program_support.h"

using namespace tessera::cltest;
namespace fs = std::filesystem;

TEST_CASE("watched child: a build whose compiler trickles its reply", "[.cl_compile_trickle]") {
  if (!inWatchedChild()) return;
  armWatchdog(120);  // far past the 1 s deadline: only a build that ignores it gets here
  ClFixture fx;
  // A source of its own, so that no cached build of it answers (the fake compiler's path is part
  // of the cache key as well).
  const std::string source = "__kernel void k(__global int* o) { o[0] = " +
                             std::to_string(getpid()) + "; }\n";
  const char* text = source.c_str();
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(fx.ctx, 1, &text, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(clBuildProgram(p, 1, &fx.dev, nullptr, nullptr, nullptr) == CL_BUILD_PROGRAM_FAILURE);
  std::string log = buildLog(p, fx.dev);
  INFO(log);
  CHECK(log.find("did not finish within 1 s (TESSERA_COMPILE_TIMEOUT_S) and was stopped") !=
        std::string::npos);
  clReleaseProgram(p);
}

TEST_CASE("Given a compiler process that trickles its reply a byte at a time, then the build fails "
          "at TESSERA_COMPILE_TIMEOUT_S and the log says so",
          "[cl][program][deadline]") {
  char dir[] = "/tmp/tessera-trickle-clc-XXXXXX";
  REQUIRE(mkdtemp(dir));
  const fs::path script = fs::path(dir) / "tessera-clc";
  // The reply's frame length (8 bytes, little-endian 0x100000), then a byte every 0.2 s on the
  // socket (descriptor 3); it never reads the request, and never finishes the frame.
  std::ofstream(script) << "#!/bin/sh\n"
                           "printf '\\000\\000\\020\\000\\000\\000\\000\\000' >&3 || exit 0\n"
                           "while printf x >&3; do sleep 0.2; done\n";
  fs::permissions(script, fs::perms::owner_all);
  runWatchedChild("watched child: a build whose compiler trickles its reply",
                  {{"TESSERA_CLC", script.string()}, {"TESSERA_COMPILE_TIMEOUT_S", "1"}});
  std::error_code ec;
  fs::remove_all(dir, ec);
}
