// Extension ZE_tessera_device_topology: where a device sits in the machine.
#include "core/driver/driver.h"
#include "level_zero/api_support.h"
#include "tessera/ze_tessera.h"

using tessera::core::Device;
using namespace tessera::ze;

ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraDeviceGetTopologyProperties(
    ze_device_handle_t hDevice, ze_tessera_device_topology_properties_t* p) {
  Device* device = Device::fromHandle(hDevice);
  if (!device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  tessera::ze::adoptOutputStruct(*p, ZE_STRUCTURE_TYPE_TESSERA_DEVICE_TOPOLOGY_PROPERTIES);
  // core::Level and ze_tessera_device_level_t list the levels in the same order.
  p->level = static_cast<ze_tessera_device_level_t>(device->level());
  static_assert(int(tessera::core::Level::L2) == ZE_TESSERA_DEVICE_LEVEL_L2);
  static_assert(int(tessera::core::Level::L4) == ZE_TESSERA_DEVICE_LEVEL_L4);
  static_assert(int(tessera::core::Level::L1) == ZE_TESSERA_DEVICE_LEVEL_L1);
  p->objectIndex = device->objectIndex();
  p->numPus = device->resources().pus;
  p->numCores = device->resources().cores;
  p->numPackages = device->resources().packages;
  p->depth = device->depth();
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraDeviceGetPus(ze_device_handle_t hDevice,
                                                          uint32_t* pCount, uint32_t* pPus) {
  Device* device = Device::fromHandle(hDevice);
  if (!device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return guarded([&] {
    auto pus = device->pus().members();
    return countQuery(pCount, pPus, pus.size(), [&](uint32_t i, uint32_t& out) { out = pus[i]; });
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraDeviceGetNumaNodes(ze_device_handle_t hDevice,
                                                                uint32_t* pCount,
                                                                uint32_t* pNodes) {
  Device* device = Device::fromHandle(hDevice);
  if (!device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  const auto& nodes = device->resources().numaNodes;
  return countQuery(pCount, pNodes, nodes.size(),
                    [&](uint32_t i, uint32_t& out) { out = nodes[i].osIndex; });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraDeviceGetCaches(ze_device_handle_t hDevice,
                                                             uint32_t* pCount,
                                                             ze_tessera_cache_t* pCaches) {
  Device* device = Device::fromHandle(hDevice);
  if (!device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  const auto& caches = device->resources().caches;
  return countQuery(pCount, pCaches, caches.size(), [&](uint32_t i, ze_tessera_cache_t& out) {
    out = {caches[i].level, caches[i].instances, caches[i].bytesPerCache, caches[i].lineBytes,
           caches[i].unified};
  });
}
