#include "process.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

extern char** environ;

namespace tessera::test {
namespace {

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

std::vector<std::string> environmentStrings(const std::map<std::string, std::string>& env) {
  std::vector<std::string> out;
  for (const auto& [k, v] : env) out.push_back(k + "=" + v);
  return out;
}

// A pipe whose ends are closed in programs this process starts.
struct Pipe {
  int read = -1, write = -1;
};
Pipe makePipe() {
  int p[2];
  REQUIRE(pipe2(p, O_CLOEXEC) == 0);
  return {p[0], p[1]};
}

// Starts argv[0] with exactly `env`, its stdin, stdout and stderr on `in`, `out` and `err` (-1:
// this process's). The caller's descriptors are close-on-exec.
pid_t spawn(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
            int in, int out, int err) {
  std::vector<std::string> envStrings = environmentStrings(env), argvCopy = argv;
  std::vector<char*> envp = pointers(envStrings), args = pointers(argvCopy);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (in >= 0) dup2(in, 0);
    if (out >= 0) dup2(out, 1);
    if (err >= 0) dup2(err, 2);
    execve(args[0], args.data(), envp.data());
    _exit(127);
  }
  return pid;
}

}  // namespace

std::map<std::string, std::string> currentEnvironment() {
  std::map<std::string, std::string> vars;
  for (char** e = environ; *e; ++e) {
    std::string kv = *e;
    size_t eq = kv.find('=');
    if (eq != std::string::npos) vars[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return vars;
}

ProcessResult runProcess(const std::vector<std::string>& argv,
                         const std::map<std::string, std::string>& env) {
  Pipe out = makePipe(), err = makePipe();
  pid_t pid = spawn(argv, env, -1, out.write, err.write);
  close(out.write);
  close(err.write);
  ProcessResult r;
  pollfd fds[2] = {{out.read, POLLIN, 0}, {err.read, POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  int open = 2;
  while (open > 0) {
    if (poll(fds, 2, -1) < 0) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP))) continue;
      char buf[4096];
      ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[i]->append(buf, static_cast<size_t>(n));
      } else {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      }
    }
  }
  int status = 0;
  waitpid(pid, &status, 0);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

Child startProcess(const std::vector<std::string>& argv,
                   const std::map<std::string, std::string>& env) {
  Pipe in = makePipe(), out = makePipe();
  pid_t pid = spawn(argv, env, in.read, out.write, -1);
  close(in.read);
  close(out.write);
  return Child{pid, in.write, out.read};
}

std::string Child::readLine() {
  std::string line;
  char c;
  while (read(fromChild, &c, 1) == 1 && c != '\n') line += c;
  return line;
}

void Child::writeLine(const std::string& line) {
  std::string l = line + "\n";
  REQUIRE(write(toChild, l.data(), l.size()) == static_cast<ssize_t>(l.size()));
}

int Child::wait() {
  if (toChild >= 0) close(toChild);
  if (fromChild >= 0) close(fromChild);
  toChild = fromChild = -1;
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace tessera::test
