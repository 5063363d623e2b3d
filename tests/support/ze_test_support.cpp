#include "ze_test_support.h"

#include <catch2/catch.hpp>

#include "pu_list.h"

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
std::map<std::string, std::string> childEnvironment(const std::map<std::string, std::string>& env) {
  static const char* kIsolated[] = {"TESSERA_TOPOLOGY", "TESSERA_ROOT_DEVICE",
                                    "ZE_FLAT_DEVICE_HIERARCHY", "ZE_AFFINITY_MASK",
                                    "ZE_ENABLE_PCI_ID_DEVICE_ORDER", "ZE_SHARED_FORCE_DEVICE_ALLOC"};
  std::map<std::string, std::string> vars = currentEnvironment();
  for (const char* k : kIsolated) vars.erase(k);
  vars["LD_LIBRARY_PATH"] = TESSERA_LIB_DIR;
  vars["ZE_ENABLE_ALT_DRIVERS"] = "libze_tessera.so.1";
  for (const auto& [k, v] : env) vars[k] = v;
  return vars;
}

}  // namespace

Child startProgram(const std::vector<std::string>& argv,
                   const std::map<std::string, std::string>& env) {
  return startProcess(argv, childEnvironment(env));
}

ProcessResult runProgram(const std::vector<std::string>& argv,
                         const std::map<std::string, std::string>& env) {
  return runProcess(argv, childEnvironment(env));
}

ProcessResult runProbe(const std::map<std::string, std::string>& env) {
  return runProgram({TESSERA_PROBE}, env);
}

}  // namespace tessera::test
