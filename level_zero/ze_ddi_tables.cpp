// The table getters the official loader (libze1 1.8.12) requires of a driver: every
// non-experimental zeGet*, zetGet* and zesGet* ProcAddrTable function (the loader's zeInit fails
// without a word when one is missing), plus the experimental ones, which it asks for when present.
// Tables are filled for API 1.4 with every function Tessera has: an empty entry makes the loader
// answer ZE_RESULT_ERROR_UNSUPPORTED_FEATURE although the function exists
// (tests/api/ze/test_extension_entry_points.cpp calls the extension ones through the loader). Null
// stay only the fabric entries. A loader that asks for a later version also gets the slots later
// versions appended, for the functions Tessera has (ze_ddi_tables_current.cpp).
#include <level_zero/ze_ddi.h>
#include <level_zero/zes_ddi.h>
#include <level_zero/zet_ddi.h>

#include "level_zero/ddi_tables_current.h"

namespace {

// "ZE_RESULT_ERROR_UNSUPPORTED_VERSION" only for another major version: a newer minor version's
// tables extend the 1.4 ones, whose prefix is all we fill.
template <typename Table, typename Fill>
ze_result_t fillTable(ze_api_version_t version, Table* table, Fill&& fill) {
  if (!table) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ZE_MAJOR_VERSION(version) != ZE_MAJOR_VERSION(ZE_API_VERSION_CURRENT))
    return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
  *table = Table{};
  fill(*table);
  if constexpr (requires { tessera::ze::fillCurrentSlots(version, *table); })
    tessera::ze::fillCurrentSlots(version, *table);
  return ZE_RESULT_SUCCESS;
}

}  // namespace

// A getter whose table Tessera leaves empty.
#define TESSERA_EMPTY_TABLE(getter, table_t)                                           \
  extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL getter(ze_api_version_t v, table_t* t) { \
    return fillTable(v, t, [](table_t&) {});                                           \
  }

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetGlobalProcAddrTable(ze_api_version_t v, ze_global_dditable_t* t) {
  return fillTable(v, t, [](ze_global_dditable_t& t) { t.pfnInit = zeInit; });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetDriverProcAddrTable(ze_api_version_t v, ze_driver_dditable_t* t) {
  return fillTable(v, t, [](ze_driver_dditable_t& t) {
    t.pfnGet = zeDriverGet;
    t.pfnGetApiVersion = zeDriverGetApiVersion;
    t.pfnGetProperties = zeDriverGetProperties;
    t.pfnGetIpcProperties = zeDriverGetIpcProperties;
    t.pfnGetExtensionProperties = zeDriverGetExtensionProperties;
    t.pfnGetExtensionFunctionAddress = zeDriverGetExtensionFunctionAddress;
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetDeviceProcAddrTable(ze_api_version_t v, ze_device_dditable_t* t) {
  return fillTable(v, t, [](ze_device_dditable_t& t) {
    t.pfnGet = zeDeviceGet;
    t.pfnGetSubDevices = zeDeviceGetSubDevices;
    t.pfnGetProperties = zeDeviceGetProperties;
    t.pfnGetComputeProperties = zeDeviceGetComputeProperties;
    t.pfnGetModuleProperties = zeDeviceGetModuleProperties;
    t.pfnGetCommandQueueGroupProperties = zeDeviceGetCommandQueueGroupProperties;
    t.pfnGetMemoryProperties = zeDeviceGetMemoryProperties;
    t.pfnGetMemoryAccessProperties = zeDeviceGetMemoryAccessProperties;
    t.pfnGetCacheProperties = zeDeviceGetCacheProperties;
    t.pfnGetImageProperties = zeDeviceGetImageProperties;
    t.pfnGetExternalMemoryProperties = zeDeviceGetExternalMemoryProperties;
    t.pfnGetP2PProperties = zeDeviceGetP2PProperties;
    t.pfnCanAccessPeer = zeDeviceCanAccessPeer;
    t.pfnGetStatus = zeDeviceGetStatus;
    t.pfnGetGlobalTimestamps = zeDeviceGetGlobalTimestamps;
    t.pfnReserveCacheExt = zeDeviceReserveCacheExt;
    t.pfnSetCacheAdviceExt = zeDeviceSetCacheAdviceExt;
    t.pfnPciGetPropertiesExt = zeDevicePciGetPropertiesExt;
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetContextProcAddrTable(ze_api_version_t v, ze_context_dditable_t* t) {
  return fillTable(v, t, [](ze_context_dditable_t& t) {
    t.pfnCreate = zeContextCreate;
    t.pfnDestroy = zeContextDestroy;
    t.pfnGetStatus = zeContextGetStatus;
    t.pfnCreateEx = zeContextCreateEx;
    t.pfnSystemBarrier = zeContextSystemBarrier;
    t.pfnMakeMemoryResident = zeContextMakeMemoryResident;
    t.pfnEvictMemory = zeContextEvictMemory;
    t.pfnMakeImageResident = zeContextMakeImageResident;
    t.pfnEvictImage = zeContextEvictImage;
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetMemProcAddrTable(ze_api_version_t v, ze_mem_dditable_t* t) {
  return fillTable(v, t, [](ze_mem_dditable_t& t) {
    t.pfnAllocShared = zeMemAllocShared;
    t.pfnAllocDevice = zeMemAllocDevice;
    t.pfnAllocHost = zeMemAllocHost;
    t.pfnFree = zeMemFree;
    t.pfnGetAllocProperties = zeMemGetAllocProperties;
    t.pfnGetAddressRange = zeMemGetAddressRange;
    t.pfnGetIpcHandle = zeMemGetIpcHandle;
    t.pfnOpenIpcHandle = zeMemOpenIpcHandle;
    t.pfnCloseIpcHandle = zeMemCloseIpcHandle;
    t.pfnFreeExt = zeMemFreeExt;
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetVirtualMemProcAddrTable(ze_api_version_t v, ze_virtual_mem_dditable_t* t) {
  return fillTable(v, t, [](ze_virtual_mem_dditable_t& t) {
    t.pfnReserve = zeVirtualMemReserve;
    t.pfnFree = zeVirtualMemFree;
    t.pfnQueryPageSize = zeVirtualMemQueryPageSize;
    t.pfnMap = zeVirtualMemMap;
    t.pfnUnmap = zeVirtualMemUnmap;
    t.pfnSetAccessAttribute = zeVirtualMemSetAccessAttribute;
    t.pfnGetAccessAttribute = zeVirtualMemGetAccessAttribute;
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetPhysicalMemProcAddrTable(ze_api_version_t v, ze_physical_mem_dditable_t* t) {
  return fillTable(v, t, [](ze_physical_mem_dditable_t& t) {
    t.pfnCreate = zePhysicalMemCreate;
    t.pfnDestroy = zePhysicalMemDestroy;
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetCommandQueueProcAddrTable(ze_api_version_t v, ze_command_queue_dditable_t* t) {
  return fillTable(v, t, [](ze_command_queue_dditable_t& t) {
    t.pfnCreate = zeCommandQueueCreate;
    t.pfnDestroy = zeCommandQueueDestroy;
    t.pfnExecuteCommandLists = zeCommandQueueExecuteCommandLists;
    t.pfnSynchronize = zeCommandQueueSynchronize;
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetCommandListProcAddrTable(ze_api_version_t v, ze_command_list_dditable_t* t) {
  return fillTable(v, t, [](ze_command_list_dditable_t& t) {
    t.pfnCreate = zeCommandListCreate;
    t.pfnCreateImmediate = zeCommandListCreateImmediate;
    t.pfnDestroy = zeCommandListDestroy;
    t.pfnClose = zeCommandListClose;
    t.pfnReset = zeCommandListReset;
    t.pfnAppendWriteGlobalTimestamp = zeCommandListAppendWriteGlobalTimestamp;
    t.pfnAppendBarrier = zeCommandListAppendBarrier;
    t.pfnAppendMemoryRangesBarrier = zeCommandListAppendMemoryRangesBarrier;
    t.pfnAppendMemoryCopy = zeCommandListAppendMemoryCopy;
    t.pfnAppendMemoryFill = zeCommandListAppendMemoryFill;
    t.pfnAppendMemoryCopyRegion = zeCommandListAppendMemoryCopyRegion;
    t.pfnAppendMemoryCopyFromContext = zeCommandListAppendMemoryCopyFromContext;
    t.pfnAppendImageCopy = zeCommandListAppendImageCopy;
    t.pfnAppendImageCopyRegion = zeCommandListAppendImageCopyRegion;
    t.pfnAppendImageCopyToMemory = zeCommandListAppendImageCopyToMemory;
    t.pfnAppendImageCopyFromMemory = zeCommandListAppendImageCopyFromMemory;
    t.pfnAppendMemoryPrefetch = zeCommandListAppendMemoryPrefetch;
    t.pfnAppendMemAdvise = zeCommandListAppendMemAdvise;
    t.pfnAppendSignalEvent = zeCommandListAppendSignalEvent;
    t.pfnAppendWaitOnEvents = zeCommandListAppendWaitOnEvents;
    t.pfnAppendEventReset = zeCommandListAppendEventReset;
    t.pfnAppendQueryKernelTimestamps = zeCommandListAppendQueryKernelTimestamps;
    t.pfnAppendLaunchKernel = zeCommandListAppendLaunchKernel;
    t.pfnAppendLaunchCooperativeKernel = zeCommandListAppendLaunchCooperativeKernel;
    t.pfnAppendLaunchKernelIndirect = zeCommandListAppendLaunchKernelIndirect;
    t.pfnAppendLaunchMultipleKernelsIndirect = zeCommandListAppendLaunchMultipleKernelsIndirect;
    t.pfnAppendImageCopyToMemoryExt = zeCommandListAppendImageCopyToMemoryExt;
    t.pfnAppendImageCopyFromMemoryExt = zeCommandListAppendImageCopyFromMemoryExt;
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetModuleProcAddrTable(ze_api_version_t v, ze_module_dditable_t* t) {
  return fillTable(v, t, [](ze_module_dditable_t& t) {
    t.pfnCreate = zeModuleCreate;
    t.pfnDestroy = zeModuleDestroy;
    t.pfnGetKernelNames = zeModuleGetKernelNames;
    t.pfnGetProperties = zeModuleGetProperties;
    t.pfnDynamicLink = zeModuleDynamicLink;
    t.pfnGetGlobalPointer = zeModuleGetGlobalPointer;
    t.pfnGetFunctionPointer = zeModuleGetFunctionPointer;
    t.pfnGetNativeBinary = zeModuleGetNativeBinary;
    t.pfnInspectLinkageExt = zeModuleInspectLinkageExt;
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetModuleBuildLogProcAddrTable(ze_api_version_t v, ze_module_build_log_dditable_t* t) {
  return fillTable(v, t, [](ze_module_build_log_dditable_t& t) {
    t.pfnDestroy = zeModuleBuildLogDestroy;
    t.pfnGetString = zeModuleBuildLogGetString;
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetKernelProcAddrTable(ze_api_version_t v, ze_kernel_dditable_t* t) {
  return fillTable(v, t, [](ze_kernel_dditable_t& t) {
    t.pfnCreate = zeKernelCreate;
    t.pfnDestroy = zeKernelDestroy;
    t.pfnSetCacheConfig = zeKernelSetCacheConfig;
    t.pfnSetGroupSize = zeKernelSetGroupSize;
    t.pfnSuggestGroupSize = zeKernelSuggestGroupSize;
    t.pfnSuggestMaxCooperativeGroupCount = zeKernelSuggestMaxCooperativeGroupCount;
    t.pfnSetArgumentValue = zeKernelSetArgumentValue;
    t.pfnSetIndirectAccess = zeKernelSetIndirectAccess;
    t.pfnGetIndirectAccess = zeKernelGetIndirectAccess;
    t.pfnGetProperties = zeKernelGetProperties;
    t.pfnGetName = zeKernelGetName;
    t.pfnGetSourceAttributes = zeKernelGetSourceAttributes;
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetKernelExpProcAddrTable(ze_api_version_t v, ze_kernel_exp_dditable_t* t) {
  return fillTable(v, t, [](ze_kernel_exp_dditable_t& t) {
    t.pfnSetGlobalOffsetExp = zeKernelSetGlobalOffsetExp;
    t.pfnSchedulingHintExp = zeKernelSchedulingHintExp;
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetFenceProcAddrTable(ze_api_version_t v, ze_fence_dditable_t* t) {
  return fillTable(v, t, [](ze_fence_dditable_t& t) {
    t.pfnCreate = zeFenceCreate;
    t.pfnDestroy = zeFenceDestroy;
    t.pfnHostSynchronize = zeFenceHostSynchronize;
    t.pfnQueryStatus = zeFenceQueryStatus;
    t.pfnReset = zeFenceReset;
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetEventPoolProcAddrTable(ze_api_version_t v, ze_event_pool_dditable_t* t) {
  return fillTable(v, t, [](ze_event_pool_dditable_t& t) {
    t.pfnCreate = zeEventPoolCreate;
    t.pfnDestroy = zeEventPoolDestroy;
    t.pfnGetIpcHandle = zeEventPoolGetIpcHandle;
    t.pfnOpenIpcHandle = zeEventPoolOpenIpcHandle;
    t.pfnCloseIpcHandle = zeEventPoolCloseIpcHandle;
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetEventProcAddrTable(ze_api_version_t v, ze_event_dditable_t* t) {
  return fillTable(v, t, [](ze_event_dditable_t& t) {
    t.pfnCreate = zeEventCreate;
    t.pfnDestroy = zeEventDestroy;
    t.pfnHostSignal = zeEventHostSignal;
    t.pfnHostSynchronize = zeEventHostSynchronize;
    t.pfnQueryStatus = zeEventQueryStatus;
    t.pfnHostReset = zeEventHostReset;
    t.pfnQueryKernelTimestamp = zeEventQueryKernelTimestamp;
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetEventExpProcAddrTable(ze_api_version_t v, ze_event_exp_dditable_t* t) {
  return fillTable(v, t,
                   [](ze_event_exp_dditable_t& t) { t.pfnQueryTimestampsExp = zeEventQueryTimestampsExp; });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetImageProcAddrTable(ze_api_version_t v, ze_image_dditable_t* t) {
  return fillTable(v, t, [](ze_image_dditable_t& t) {
    t.pfnGetProperties = zeImageGetProperties;
    t.pfnCreate = zeImageCreate;
    t.pfnDestroy = zeImageDestroy;
    t.pfnGetAllocPropertiesExt = zeImageGetAllocPropertiesExt;
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetImageExpProcAddrTable(ze_api_version_t v, ze_image_exp_dditable_t* t) {
  return fillTable(v, t, [](ze_image_exp_dditable_t& t) {
    t.pfnGetMemoryPropertiesExp = zeImageGetMemoryPropertiesExp;
    t.pfnViewCreateExp = zeImageViewCreateExp;
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetSamplerProcAddrTable(ze_api_version_t v, ze_sampler_dditable_t* t) {
  return fillTable(v, t, [](ze_sampler_dditable_t& t) {
    t.pfnCreate = zeSamplerCreate;
    t.pfnDestroy = zeSamplerDestroy;
  });
}

TESSERA_EMPTY_TABLE(zeGetDeviceExpProcAddrTable, ze_device_exp_dditable_t)
TESSERA_EMPTY_TABLE(zeGetFabricVertexExpProcAddrTable, ze_fabric_vertex_exp_dditable_t)
TESSERA_EMPTY_TABLE(zeGetFabricEdgeExpProcAddrTable, ze_fabric_edge_exp_dditable_t)

// Tools (zet) and sysman (zes): nothing yet, but the loader needs every getter.
TESSERA_EMPTY_TABLE(zetGetDeviceProcAddrTable, zet_device_dditable_t)
TESSERA_EMPTY_TABLE(zetGetContextProcAddrTable, zet_context_dditable_t)
TESSERA_EMPTY_TABLE(zetGetCommandListProcAddrTable, zet_command_list_dditable_t)
TESSERA_EMPTY_TABLE(zetGetModuleProcAddrTable, zet_module_dditable_t)
TESSERA_EMPTY_TABLE(zetGetKernelProcAddrTable, zet_kernel_dditable_t)
TESSERA_EMPTY_TABLE(zetGetMetricGroupProcAddrTable, zet_metric_group_dditable_t)
TESSERA_EMPTY_TABLE(zetGetMetricProcAddrTable, zet_metric_dditable_t)
TESSERA_EMPTY_TABLE(zetGetMetricStreamerProcAddrTable, zet_metric_streamer_dditable_t)
TESSERA_EMPTY_TABLE(zetGetMetricQueryPoolProcAddrTable, zet_metric_query_pool_dditable_t)
TESSERA_EMPTY_TABLE(zetGetMetricQueryProcAddrTable, zet_metric_query_dditable_t)
TESSERA_EMPTY_TABLE(zetGetDebugProcAddrTable, zet_debug_dditable_t)
TESSERA_EMPTY_TABLE(zetGetMetricGroupExpProcAddrTable, zet_metric_group_exp_dditable_t)
TESSERA_EMPTY_TABLE(zetGetTracerExpProcAddrTable, zet_tracer_exp_dditable_t)

TESSERA_EMPTY_TABLE(zesGetDriverProcAddrTable, zes_driver_dditable_t)
TESSERA_EMPTY_TABLE(zesGetDeviceProcAddrTable, zes_device_dditable_t)
TESSERA_EMPTY_TABLE(zesGetSchedulerProcAddrTable, zes_scheduler_dditable_t)
TESSERA_EMPTY_TABLE(zesGetPerformanceFactorProcAddrTable, zes_performance_factor_dditable_t)
TESSERA_EMPTY_TABLE(zesGetPowerProcAddrTable, zes_power_dditable_t)
TESSERA_EMPTY_TABLE(zesGetFrequencyProcAddrTable, zes_frequency_dditable_t)
TESSERA_EMPTY_TABLE(zesGetEngineProcAddrTable, zes_engine_dditable_t)
TESSERA_EMPTY_TABLE(zesGetStandbyProcAddrTable, zes_standby_dditable_t)
TESSERA_EMPTY_TABLE(zesGetFirmwareProcAddrTable, zes_firmware_dditable_t)
TESSERA_EMPTY_TABLE(zesGetMemoryProcAddrTable, zes_memory_dditable_t)
TESSERA_EMPTY_TABLE(zesGetFabricPortProcAddrTable, zes_fabric_port_dditable_t)
TESSERA_EMPTY_TABLE(zesGetTemperatureProcAddrTable, zes_temperature_dditable_t)
TESSERA_EMPTY_TABLE(zesGetPsuProcAddrTable, zes_psu_dditable_t)
TESSERA_EMPTY_TABLE(zesGetFanProcAddrTable, zes_fan_dditable_t)
TESSERA_EMPTY_TABLE(zesGetLedProcAddrTable, zes_led_dditable_t)
TESSERA_EMPTY_TABLE(zesGetRasProcAddrTable, zes_ras_dditable_t)
TESSERA_EMPTY_TABLE(zesGetDiagnosticsProcAddrTable, zes_diagnostics_dditable_t)
