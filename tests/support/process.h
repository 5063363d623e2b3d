// Running a program from a test: its exit code and everything it wrote, with an environment the
// caller gives. No Level Zero or OpenCL here, so every API test binary links it.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace tessera::test {

struct ProcessResult {
  int exitCode = -1;  // or 128 + the signal that ended it
  std::string out, err;
};

// This process's environment as a map.
std::map<std::string, std::string> currentEnvironment();

// Runs argv[0] (a path) with exactly `env` and waits for it, collecting its stdout and stderr.
ProcessResult runProcess(const std::vector<std::string>& argv,
                         const std::map<std::string, std::string>& env);

// A program running beside the test, with pipes to its stdin and from its stdout (stderr is
// inherited).
struct Child {
  int pid = -1;
  int toChild = -1;    // write end of its stdin
  int fromChild = -1;  // read end of its stdout
  // Reads one line (without the newline) from its stdout; empty at end of file.
  std::string readLine();
  void writeLine(const std::string& line);
  // Closes the pipes and waits; the exit code, or 128 + the signal that ended it.
  int wait();
};
// Starts argv[0] (a path) with exactly `env`.
Child startProcess(const std::vector<std::string>& argv,
                   const std::map<std::string, std::string>& env);

}  // namespace tessera::test
