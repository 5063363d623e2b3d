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

ProcessResult runProgram(const std::vector<std::string>& argv,
                         const std::map<std::string, std::string>& env) {
  static const char* kIsolated[] = {"TESSERA_TOPOLOGY", "TESSERA_ROOT_DEVICE",
                                    "ZE_FLAT_DEVICE_HIERARCHY", "ZE_AFFINITY_MASK",
                                    "ZE_ENABLE_PCI_ID_DEVICE_ORDER"};
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
  std::vector<char*> envp, args;
  for (auto& s : envStrings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argvCopy = argv;
  for (auto& s : argvCopy) args.push_back(s.data());
  args.push_back(nullptr);

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
