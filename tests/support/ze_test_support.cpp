#include "ze_test_support.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>

#include "pu_list.h"

extern char** environ;

namespace tessera::test {

ze_driver_handle_t initDriver() {
  REQUIRE(zeInit(0) == ZE_RESULT_SUCCESS);
  uint32_t count = 0;
  REQUIRE(zeDriverGet(&count, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(count == 1);
  ze_driver_handle_t driver = nullptr;
  REQUIRE(zeDriverGet(&count, &driver) == ZE_RESULT_SUCCESS);
  REQUIRE(driver != nullptr);
  return driver;
}

uint32_t extensionVersion(ze_driver_handle_t driver, const char* name) {
  uint32_t n = 0;
  REQUIRE(zeDriverGetExtensionProperties(driver, &n, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<ze_driver_extension_properties_t> extensions(n);
  REQUIRE(zeDriverGetExtensionProperties(driver, &n, extensions.data()) == ZE_RESULT_SUCCESS);
  for (const auto& e : extensions)
    if (std::string(e.name) == name) return e.version;
  return 0;
}

std::vector<ze_device_handle_t> devices(ze_driver_handle_t driver) {
  uint32_t n = 0;
  REQUIRE(zeDeviceGet(driver, &n, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<ze_device_handle_t> out(n);
  REQUIRE(zeDeviceGet(driver, &n, out.data()) == ZE_RESULT_SUCCESS);
  return out;
}

std::vector<ze_device_handle_t> subDevices(ze_device_handle_t device) {
  uint32_t n = 0;
  REQUIRE(zeDeviceGetSubDevices(device, &n, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<ze_device_handle_t> out(n);
  REQUIRE(zeDeviceGetSubDevices(device, &n, out.data()) == ZE_RESULT_SUCCESS);
  return out;
}

ze_device_properties_t properties(ze_device_handle_t device) {
  ze_device_properties_t p{};
  p.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  REQUIRE(zeDeviceGetProperties(device, &p) == ZE_RESULT_SUCCESS);
  return p;
}

std::string pus(ze_driver_handle_t driver, ze_device_handle_t device) {
  auto get = extensionFunction<ze_pfnTesseraDeviceGetPus_t>(driver, "zeTesseraDeviceGetPus");
  REQUIRE(get != nullptr);
  uint32_t n = 0;
  REQUIRE(get(device, &n, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<uint32_t> v(n);
  REQUIRE(get(device, &n, v.data()) == ZE_RESULT_SUCCESS);
  return puList(v);
}

namespace {

// The environment of a test's child process: ours, without the variables that change which devices
// Tessera reports, with Tessera reached through the loader, plus `env`.
std::vector<std::string> childEnvironment(const std::map<std::string, std::string>& env) {
  static const char* kIsolated[] = {"TESSERA_TOPOLOGY", "TESSERA_ROOT_DEVICE",
                                    "ZE_FLAT_DEVICE_HIERARCHY", "ZE_AFFINITY_MASK",
                                    "ZE_ENABLE_PCI_ID_DEVICE_ORDER", "ZE_SHARED_FORCE_DEVICE_ALLOC"};
  std::map<std::string, std::string> vars;
  for (char** e = environ; *e; ++e) {
    std::string kv = *e;
    size_t eq = kv.find('=');
    if (eq != std::string::npos) vars[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  for (const char* k : kIsolated) vars.erase(k);
  vars["LD_LIBRARY_PATH"] = TESSERA_LIB_DIR;
  vars["ZE_ENABLE_ALT_DRIVERS"] = "libze_tessera.so.1";
  for (const auto& [k, v] : env) vars[k] = v;
  std::vector<std::string> envStrings;
  for (const auto& [k, v] : vars) envStrings.push_back(k + "=" + v);
  return envStrings;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

Child startProgram(const std::vector<std::string>& argv,
                   const std::map<std::string, std::string>& env) {
  std::vector<std::string> envStrings = childEnvironment(env), argvCopy = argv;
  std::vector<char*> envp = pointers(envStrings), args = pointers(argvCopy);
  int in[2], out[2];
  REQUIRE(pipe2(in, O_CLOEXEC) == 0);
  REQUIRE(pipe2(out, O_CLOEXEC) == 0);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    execve(args[0], args.data(), envp.data());
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  return Child{pid, in[1], out[0]};
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

ProcessResult runProgram(const std::vector<std::string>& argv,
                         const std::map<std::string, std::string>& env) {
  std::vector<std::string> envStrings = childEnvironment(env), argvCopy = argv;
  std::vector<char*> envp = pointers(envStrings), args = pointers(argvCopy);

  int out[2], err[2];
  REQUIRE(pipe(out) == 0);
  REQUIRE(pipe(err) == 0);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(out[1], 1);
    dup2(err[1], 2);
    close(out[0]), close(out[1]), close(err[0]), close(err[1]);
    execve(args[0], args.data(), envp.data());
    _exit(127);
  }
  close(out[1]);
  close(err[1]);
  ProcessResult r;
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
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

ProcessResult runProbe(const std::map<std::string, std::string>& env) {
  return runProgram({TESSERA_PROBE}, env);
}

}  // namespace tessera::test
