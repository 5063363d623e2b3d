// The device entry points.
#include <algorithm>

#include "core/command/command_trace.h"
#include "core/driver/driver.h"
#include "core/queue/command_queue.h"
#include "level_zero/api_support.h"
#include "tessera/ze_tessera.h"

using tessera::core::Device;
using tessera::core::Driver;
using namespace tessera::ze;

namespace {

// The single-struct property queries: a valid device, a non-null struct of the right type whose
// pNext chain ends.
template <typename T, typename Query>
ze_result_t queryStruct(ze_device_handle_t hDevice, T* p, ze_structure_type_t stype, Query&& q) {
  Device* device = Device::fromHandle(hDevice);
  if (!device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  tessera::ze::adoptOutputStruct(*p, stype);
  if (chainHasCycle(p->pNext)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  q(*device, *p);
  return ZE_RESULT_SUCCESS;
}

}  // namespace

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGet(ze_driver_handle_t hDriver, uint32_t* pCount,
                                                ze_device_handle_t* phDevices) {
  Driver* driver = Driver::fromHandle(hDriver);
  if (!driver) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  const auto& list = driver->devices();
  return countQuery(pCount, phDevices, list.size(),
                    [&](uint32_t i, ze_device_handle_t& h) { h = list[i]->toHandle(); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetSubDevices(ze_device_handle_t hDevice,
                                                          uint32_t* pCount,
                                                          ze_device_handle_t* phSubdevices) {
  Device* device = Device::fromHandle(hDevice);
  if (!device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  const auto& subs = device->subDevices();
  return countQuery(pCount, phSubdevices, subs.size(),
                    [&](uint32_t i, ze_device_handle_t& h) { h = subs[i]->toHandle(); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetRootDevice(ze_device_handle_t hDevice,
                                                          ze_device_handle_t* phRootDevice) {
  Device* device = Device::fromHandle(hDevice);
  if (!device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!phRootDevice) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Device* root = device->rootDevice();
  *phRootDevice = root ? root->toHandle() : nullptr;
  return ZE_RESULT_SUCCESS;
}

// ZE_extension_device_vector_sizes: "Properties are reported for each vector width supported by
// the device"; one here, the host's vector registers (tessera/ze_tessera.h).
ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetVectorWidthPropertiesExt(
    ze_device_handle_t hDevice, uint32_t* pCount,
    ze_device_vector_width_properties_ext_t* pVectorWidthProperties) {
  Device* device = Device::fromHandle(hDevice);
  if (!device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  ze_device_properties_t props{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  device->properties(props);
  const uint32_t lanes = std::max(4u, props.physicalEUSimdWidth);  // 32-bit lanes of a register
  return countQuery(pCount, pVectorWidthProperties, 1,
                    [&](uint32_t, ze_device_vector_width_properties_ext_t& w) {
                      adoptOutputStruct(w, ZE_STRUCTURE_TYPE_DEVICE_VECTOR_WIDTH_PROPERTIES_EXT);
                      w.vector_width_size = lanes;
                      w.preferred_vector_width_char = w.native_vector_width_char = lanes * 4;
                      w.preferred_vector_width_short = w.native_vector_width_short = lanes * 2;
                      w.preferred_vector_width_int = w.native_vector_width_int = lanes;
                      w.preferred_vector_width_float = w.native_vector_width_float = lanes;
                      w.preferred_vector_width_long = w.native_vector_width_long = lanes / 2;
                      w.preferred_vector_width_double = w.native_vector_width_double = lanes / 2;
                      // Stored two to a 32-bit lane, computed as floats (one float lane each).
                      w.preferred_vector_width_half = lanes * 2;
                      w.native_vector_width_half = lanes;
                    });
}

// Level Zero 1.14: "Synchronizes all command queues related to the device." "This function blocks
// until all preceding submissions to all queues on the device are completed"; "This function
// returns an error if device execution fails"; "This function hangs indefinitely if the device is
// blocked on a non-signaled event." The queues are the device's and its sub-devices' command
// queues and immediate lists, of every context; submissions made while it waits are not waited
// for. ZE_RESULT_ERROR_DEVICE_LOST when one of those queues belongs to a lost context (a kernel
// fault, docs/reliability.md), as zeCommandQueueSynchronize answers for it.
ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceSynchronize(ze_device_handle_t hDevice) {
  Device* device = Device::fromHandle(hDevice);
  if (!device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return guarded([&] {
    ze_result_t r = ZE_RESULT_SUCCESS;
    tessera::core::tracedHostWait("zeDeviceSynchronize", nullptr, [&] {
      r = tessera::core::CommandQueue::synchronizeDevice(*device);
      return r == ZE_RESULT_SUCCESS;
    });
    return r;
  });
}

// Level Zero 1.17: "Returns maximum value supported by the driver for Counter Based Events created
// with externally managed counter storage": Tessera's counters are 64-bit and compared as such
// (core/event/event.h), so UINT64_MAX. (External aggregate storage is taken by
// zeEventCounterBasedCreate; the external sync allocation is refused with UNSUPPORTED_FEATURE.)
ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetCounterBasedEventMaxValue(ze_device_handle_t hDevice,
                                                                         uint64_t* maxValue) {
  if (!Device::fromHandle(hDevice)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!maxValue) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *maxValue = UINT64_MAX;
  return ZE_RESULT_SUCCESS;
}

// Level Zero 1.15: "Returns unique increment value that can be used for Event creation with
// external storage provided by user": 1, as every append raises a counter by one (one executor
// runs a copy, however it splits it among threads).
ZE_APIEXPORT ze_result_t ZE_APICALL
zeDeviceGetAggregatedCopyOffloadIncrementValue(ze_device_handle_t hDevice, uint32_t* incrementValue) {
  if (!Device::fromHandle(hDevice)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!incrementValue) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *incrementValue = 1;
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetProperties(ze_device_handle_t hDevice,
                                                          ze_device_properties_t* p) {
  // Both forms are accepted; they differ in the unit of timerResolution.
  ze_structure_type_t stype = p && p->stype == ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2
                                  ? ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2
                                  : ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  return queryStruct(hDevice, p, stype, [](Device& d, auto& out) {
    d.properties(out);
    // ZE_experimental_mutable_command_list: every kind of change is supported.
    for (auto* e = static_cast<ze_base_properties_t*>(out.pNext); e;
         e = static_cast<ze_base_properties_t*>(e->pNext)) {
      // ZE_extension_event_query_kernel_timestamps: both kinds of result (the synchronized ones
      // are the kernel timestamps: the device timer is the host clock).
      if (e->stype == ZE_STRUCTURE_TYPE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_PROPERTIES)
        reinterpret_cast<ze_event_query_kernel_timestamps_ext_properties_t*>(e)->flags =
            ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_FLAG_KERNEL |
            ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_FLAG_SYNCHRONIZED;
      // ZE_extension_record_replay_graph (core/cmdlist/graph.h): immutable graphs, into which
      // captures may append graphs and command lists.
      if (e->stype == ZE_STRUCTURE_TYPE_RECORD_REPLAY_GRAPH_EXT_PROPERTIES)
        reinterpret_cast<ze_record_replay_graph_ext_properties_t*>(e)->graphFlags =
            ZE_RECORD_REPLAY_GRAPH_EXT_FLAG_IMMUTABLE_GRAPH |
            ZE_RECORD_REPLAY_GRAPH_EXT_FLAG_SUBGRAPHS |
            ZE_RECORD_REPLAY_GRAPH_EXT_FLAG_APPEND_COMMANDLIST;
      // ZE_extension_virtual_mem_readonly_properties: a READONLY page is mapped PROT_READ, and a
      // write faults ("writes to read-only pages will cause a device fault").
      if (e->stype == ZE_STRUCTURE_TYPE_DEVICE_READONLY_MEMORY_EXT_PROPERTIES)
        reinterpret_cast<ze_device_readonly_memory_ext_properties_t*>(e)->readonlyCapability =
            ZE_DEVICE_READONLY_MEMORY_CAPABILITY_ENFORCED;
      if (e->stype != ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_PROPERTIES) continue;
      auto* m = reinterpret_cast<ze_mutable_command_list_exp_properties_t*>(e);
      m->mutableCommandListFlags = 0;
      m->mutableCommandFlags =
          ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_ARGUMENTS | ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_COUNT |
          ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_SIZE | ZE_MUTABLE_COMMAND_EXP_FLAG_GLOBAL_OFFSET |
          ZE_MUTABLE_COMMAND_EXP_FLAG_SIGNAL_EVENT | ZE_MUTABLE_COMMAND_EXP_FLAG_WAIT_EVENTS |
          ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_INSTRUCTION;
    }
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeDeviceGetComputeProperties(ze_device_handle_t hDevice, ze_device_compute_properties_t* p) {
  return queryStruct(hDevice, p, ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES,
                     [](Device& d, auto& out) { d.computeProperties(out); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeDeviceGetModuleProperties(ze_device_handle_t hDevice, ze_device_module_properties_t* p) {
  return queryStruct(
      hDevice, p, ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES, [](Device& d, auto& out) {
        d.moduleProperties(out);
        // ZE_experimental_scheduling_hints: no hint changes how work-groups are run (zeKernel-
        // SchedulingHintExp), and "May be 0 (none)".
        for (auto* e = static_cast<ze_base_properties_t*>(out.pNext); e;
             e = static_cast<ze_base_properties_t*>(e->pNext))
          if (e->stype == ZE_STRUCTURE_TYPE_SCHEDULING_HINT_EXP_PROPERTIES)
            reinterpret_cast<ze_scheduling_hint_exp_properties_t*>(e)->schedulingHintFlags = 0;
          else if (e->stype == ZE_STRUCTURE_TYPE_FLOAT_ATOMIC_EXT_PROPERTIES)
            d.floatAtomicProperties(*reinterpret_cast<ze_float_atomic_ext_properties_t*>(e));
      });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetCommandQueueGroupProperties(
    ze_device_handle_t hDevice, uint32_t* pCount, ze_command_queue_group_properties_t* p) {
  Device* device = Device::fromHandle(hDevice);
  if (!device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return guarded([&] {
    return countQueryStructs(pCount, p, device->queueGroups(),
                             ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES);
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetMemoryProperties(
    ze_device_handle_t hDevice, uint32_t* pCount, ze_device_memory_properties_t* p) {
  Device* device = Device::fromHandle(hDevice);
  if (!device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return guarded([&] {
    return countQueryStructs(pCount, p, device->memoryProperties(),
                             ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES);
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetMemoryAccessProperties(
    ze_device_handle_t hDevice, ze_device_memory_access_properties_t* p) {
  return queryStruct(hDevice, p, ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES,
                     [](Device& d, auto& out) { d.memoryAccessProperties(out); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetCacheProperties(ze_device_handle_t hDevice,
                                                               uint32_t* pCount,
                                                               ze_device_cache_properties_t* p) {
  Device* device = Device::fromHandle(hDevice);
  if (!device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return guarded([&] {
    uint32_t asked = pCount ? *pCount : 0;  // 0 only asks for the count: nothing is written
    if (p)
      for (uint32_t i = 0; i < std::min<size_t>(asked, device->cacheProperties().size()); ++i)
        if (chainHasCycle(p[i].pNext)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    ze_result_t r = countQueryStructs(pCount, p, device->cacheProperties(),
                                      ZE_STRUCTURE_TYPE_DEVICE_CACHE_PROPERTIES);
    // ZE_extension_cache_reservation: "Size of zero means no reservation available"
    // (zeDeviceReserveCacheExt).
    if (r == ZE_RESULT_SUCCESS && p && asked > 0)
      for (uint32_t i = 0; i < *pCount; ++i)
        for (auto* e = static_cast<ze_base_properties_t*>(p[i].pNext); e;
             e = static_cast<ze_base_properties_t*>(e->pNext))
          if (e->stype == ZE_STRUCTURE_TYPE_CACHE_RESERVATION_EXT_DESC)
            reinterpret_cast<ze_cache_reservation_ext_desc_t*>(e)->maxCacheReservationSize = 0;
    return r;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetImageProperties(ze_device_handle_t hDevice,
                                                               ze_device_image_properties_t* p) {
  return queryStruct(hDevice, p, ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES,
                     [](Device& d, auto& out) { d.imageProperties(out); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetExternalMemoryProperties(
    ze_device_handle_t hDevice, ze_device_external_memory_properties_t* p) {
  return queryStruct(hDevice, p, ZE_STRUCTURE_TYPE_DEVICE_EXTERNAL_MEMORY_PROPERTIES,
                     [](Device& d, auto& out) { d.externalMemoryProperties(out); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetP2PProperties(ze_device_handle_t hDevice,
                                                             ze_device_handle_t hPeerDevice,
                                                             ze_device_p2p_properties_t* p) {
  Device* peer = Device::fromHandle(hPeerDevice);
  if (!peer) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return queryStruct(hDevice, p, ZE_STRUCTURE_TYPE_DEVICE_P2P_PROPERTIES,
                     [&](Device& d, auto& out) { d.p2pProperties(*peer, out); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceCanAccessPeer(ze_device_handle_t hDevice,
                                                          ze_device_handle_t hPeerDevice,
                                                          ze_bool_t* value) {
  Device* device = Device::fromHandle(hDevice);
  Device* peer = Device::fromHandle(hPeerDevice);
  if (!device || !peer) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!value) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *value = device->canAccessPeer(*peer);
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetStatus(ze_device_handle_t hDevice) {
  return Device::fromHandle(hDevice) ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetGlobalTimestamps(ze_device_handle_t hDevice,
                                                                uint64_t* hostTimestamp,
                                                                uint64_t* deviceTimestamp) {
  Device* device = Device::fromHandle(hDevice);
  if (!device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!hostTimestamp || !deviceTimestamp) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  device->globalTimestamps(*hostTimestamp, *deviceTimestamp);
  return ZE_RESULT_SUCCESS;
}

// ZE_extension_cache_reservation, which Tessera does not report: a CPU's caches cannot be
// partitioned from user space, so nothing can be reserved ("The application may call this function
// but may not be successful"). zeDeviceGetCacheProperties reports maxCacheReservationSize 0 ("Size
// of zero means no reservation available").
ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceReserveCacheExt(ze_device_handle_t hDevice,
                                                            size_t /*cacheLevel*/,
                                                            size_t /*cacheReservationSize*/) {
  if (!Device::fromHandle(hDevice)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceSetCacheAdviceExt(ze_device_handle_t hDevice, void* ptr,
                                                              size_t /*regionSize*/,
                                                              ze_cache_ext_region_t cacheRegion) {
  if (!Device::fromHandle(hDevice)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (cacheRegion > ZE_CACHE_EXT_REGION_ZE_CACHE_NON_RESERVED_REGION)
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
}

// ZE_extension_pci_properties, which Tessera does not report: the device is the host's processors,
// which have no PCI address (no bus, device and function to give), so there are no properties.
ZE_APIEXPORT ze_result_t ZE_APICALL
zeDevicePciGetPropertiesExt(ze_device_handle_t hDevice, ze_pci_ext_properties_t* pPciProperties) {
  if (!Device::fromHandle(hDevice)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pPciProperties) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
}
