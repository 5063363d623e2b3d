// Helpers for the API tests. They work the same whether the test binary is linked directly with
// libze_tessera or only with the official loader: functions newer than Level Zero 1.4 and Tessera's
// own are reached through zeDriverGetExtensionFunctionAddress.
#pragma once

#include <level_zero/ze_api.h>

#include <map>
#include <string>
#include <vector>

#include "process.h"
#include "tessera/ze_tessera.h"

namespace tessera::test {

// zeInit(0) and the one driver; fails the test when either is missing.
ze_driver_handle_t initDriver();

template <typename Fn>
Fn extensionFunction(ze_driver_handle_t driver, const char* name) {
  void* f = nullptr;
  zeDriverGetExtensionFunctionAddress(driver, name, &f);
  return reinterpret_cast<Fn>(f);
}

// The version of the extension `name` as zeDriverGetExtensionProperties lists it; 0 when it is
// not listed.
uint32_t extensionVersion(ze_driver_handle_t driver, const char* name);

std::vector<ze_device_handle_t> devices(ze_driver_handle_t driver);
std::vector<ze_device_handle_t> subDevices(ze_device_handle_t device);
ze_device_properties_t properties(ze_device_handle_t device);
// The device's PUs as hwloc's list syntax ("0-3,8"), through ZE_tessera_device_topology.
std::string pus(ze_driver_handle_t driver, ze_device_handle_t device);

// Runs a program with the test environment (Tessera through the loader) plus `env`; variables that
// change which devices Tessera reports are removed first unless `env` sets them.
ProcessResult runProgram(const std::vector<std::string>& argv,
                         const std::map<std::string, std::string>& env);
// A program started with the same environment as runProgram, with pipes to its stdin and from its
// stdout (stderr is inherited), for tests that talk to a second process while both run.
Child startProgram(const std::vector<std::string>& argv,
                   const std::map<std::string, std::string>& env);

// The device probe (tests/api/ze/probe): one line per device the application can reach.
ProcessResult runProbe(const std::map<std::string, std::string>& env);

}  // namespace tessera::test
