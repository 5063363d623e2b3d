// What tessera-info learns about the devices, gathered through the ze* API and Tessera's
// ZE_tessera_device_topology extension, then printed as a tree or as JSON.
#pragma once

#include <level_zero/ze_api.h>

#include <string>
#include <vector>

#include "tessera/ze_tessera.h"

namespace tessera::info {

struct DeviceInfo {
  std::string path;  // "0", "0.1", ...
  ze_device_properties_t props{};
  ze_device_compute_properties_t compute{};
  bool hasTopology = false;
  ze_tessera_device_topology_properties_t topology{};
  std::vector<uint32_t> pus;
  std::vector<uint32_t> numaNodes;
  std::vector<ze_device_memory_properties_t> memories;
  std::vector<ze_tessera_cache_t> caches;
  std::vector<ze_device_cache_properties_t> cacheSizes;  // when the extension is missing
  std::vector<ze_command_queue_group_properties_t> queueGroups;
  std::vector<DeviceInfo> subDevices;
};

struct DriverInfo {
  ze_driver_properties_t props{};
  ze_api_version_t apiVersion{};
  std::vector<ze_driver_extension_properties_t> extensions;
  std::vector<DeviceInfo> devices;
};

// Returns false with a message in `error` when a call fails.
bool gather(std::vector<DriverInfo>& drivers, std::string& error);
void printTree(const std::vector<DriverInfo>& drivers);
void printJson(const std::vector<DriverInfo>& drivers);

}  // namespace tessera::info
