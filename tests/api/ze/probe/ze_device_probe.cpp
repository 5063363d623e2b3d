// Prints the devices an application can reach, one line each, for tests that run it under different
// environments (the driver reads TESSERA_*, ZE_FLAT_DEVICE_HIERARCHY and ZE_AFFINITY_MASK once per
// process). Linked only with the official loader.
//
//   <path> pus=<list> sub=<subdeviceId or -> root=<pus of zeDeviceGetRootDevice or -> uuid=<hex>
//
// <path> is the handle's position: "1" is zeDeviceGet's second handle, "1.0" its first sub-device.
// Then, for each root-device that zeDeviceGetRootDevice returned for a device zeDeviceGet listed, in order of
// first appearance:
//
//   R pus=<list> subs=<pus of each sub-device, separated by ';'>
#include <level_zero/ze_api.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "pu_list.h"
#include "tessera/ze_tessera.h"

namespace {

ze_pfnTesseraDeviceGetPus_t getPus;
ze_pfnDeviceGetRootDevice_t getRoot;

std::string pus(ze_device_handle_t d) {
  uint32_t n = 0;
  if (getPus(d, &n, nullptr) != ZE_RESULT_SUCCESS) return "?";
  std::vector<uint32_t> v(n);
  getPus(d, &n, v.data());
  return tessera::test::puList(v);
}

std::vector<ze_device_handle_t> roots;

std::vector<ze_device_handle_t> subDevices(ze_device_handle_t d) {
  uint32_t n = 0;
  zeDeviceGetSubDevices(d, &n, nullptr);
  std::vector<ze_device_handle_t> subs(n);
  zeDeviceGetSubDevices(d, &n, subs.data());
  return subs;
}

void print(ze_device_handle_t d, const std::string& path) {
  ze_device_properties_t p{};
  p.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  zeDeviceGetProperties(d, &p);
  ze_device_handle_t root = nullptr;
  getRoot(d, &root);
  std::string sub = (p.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE) ? std::to_string(p.subdeviceId) : "-";
  std::printf("%s pus=%s sub=%s root=%s uuid=", path.c_str(), pus(d).c_str(), sub.c_str(),
              root ? pus(root).c_str() : "-");
  for (uint8_t b : p.uuid.id) std::printf("%02x", b);
  std::printf("\n");
  bool listed = path.find('.') == std::string::npos;
  if (listed && root && std::find(roots.begin(), roots.end(), root) == roots.end())
    roots.push_back(root);
  auto subs = subDevices(d);
  for (size_t i = 0; i < subs.size(); ++i) print(subs[i], path + "." + std::to_string(i));
}

}  // namespace

int main() {
  if (zeInit(0) != ZE_RESULT_SUCCESS) return 2;
  uint32_t n = 1;
  ze_driver_handle_t driver = nullptr;
  if (zeDriverGet(&n, &driver) != ZE_RESULT_SUCCESS || n != 1) return 3;
  void* f = nullptr;
  zeDriverGetExtensionFunctionAddress(driver, "zeTesseraDeviceGetPus", &f);
  getPus = reinterpret_cast<ze_pfnTesseraDeviceGetPus_t>(f);
  zeDriverGetExtensionFunctionAddress(driver, "zeDeviceGetRootDevice", &f);
  getRoot = reinterpret_cast<ze_pfnDeviceGetRootDevice_t>(f);
  if (!getPus || !getRoot) return 4;
  n = 0;
  zeDeviceGet(driver, &n, nullptr);
  std::vector<ze_device_handle_t> devices(n);
  zeDeviceGet(driver, &n, devices.data());
  for (uint32_t i = 0; i < n; ++i) print(devices[i], std::to_string(i));
  for (ze_device_handle_t r : roots) {
    std::string subs;
    for (ze_device_handle_t s : subDevices(r)) subs += (subs.empty() ? "" : ";") + pus(s);
    std::printf("R pus=%s subs=%s\n", pus(r).c_str(), subs.c_str());
  }
  return 0;
}
