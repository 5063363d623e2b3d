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
//
// With the argument "--partition", it instead partitions the first device by NEXT_PARTITIONABLE
// (ZE_tessera_device_partition), then each part again, and prints the domains used and the parts:
//
//   P domain=<ze_tessera_affinity_domain_t> parts=<pus of each part, separated by ';'>
//     (one line for the first device, then one per part; domain=none when it does not split)
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

// One "P" line for `d`, and the parts it was cut into (none when it does not split).
std::vector<ze_device_handle_t> printPartition(ze_driver_handle_t driver, ze_device_handle_t d) {
  void* f = nullptr;
  zeDriverGetExtensionFunctionAddress(driver, "zeTesseraDeviceCreatePartition", &f);
  auto create = reinterpret_cast<ze_pfnTesseraDeviceCreatePartition_t>(f);
  ze_tessera_partition_desc_t desc{ZE_STRUCTURE_TYPE_TESSERA_PARTITION_DESC, nullptr,
                                   ZE_TESSERA_PARTITION_SCHEME_BY_AFFINITY_DOMAIN, 0, 0, nullptr,
                                   ZE_TESSERA_AFFINITY_DOMAIN_NEXT_PARTITIONABLE};
  uint32_t n = 0;
  ze_tessera_affinity_domain_t used = ZE_TESSERA_AFFINITY_DOMAIN_NONE;
  std::vector<ze_device_handle_t> parts;
  if (create && create(d, &desc, &n, nullptr, &used) == ZE_RESULT_SUCCESS) {
    parts.resize(n);
    create(d, &desc, &n, parts.data(), &used);
  }
  std::string text;
  for (ze_device_handle_t p : parts) text += (text.empty() ? "" : ";") + pus(p);
  std::printf("P domain=%s parts=%s\n", parts.empty() ? "none" : std::to_string(used).c_str(),
              text.c_str());
  return parts;
}

}  // namespace

int main(int argc, char** argv) {
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
  if (argc > 1 && std::string(argv[1]) == "--partition") {
    if (devices.empty()) return 5;
    for (ze_device_handle_t part : printPartition(driver, devices[0])) printPartition(driver, part);
    return 0;
  }
  for (uint32_t i = 0; i < n; ++i) print(devices[i], std::to_string(i));
  for (ze_device_handle_t r : roots) {
    std::string subs;
    for (ze_device_handle_t s : subDevices(r)) subs += (subs.empty() ? "" : ";") + pus(s);
    std::printf("R pus=%s subs=%s\n", pus(r).c_str(), subs.c_str());
  }
  return 0;
}
