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

#include "level_zero/api_log.h"

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
  return fillTable(v, t, [](ze_global_dditable_t& t) { t.pfnInit = TESSERA_ZE_ENTRY(zeInit); });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetDriverProcAddrTable(ze_api_version_t v, ze_driver_dditable_t* t) {
  return fillTable(v, t, [](ze_driver_dditable_t& t) {
    t.pfnGet = TESSERA_ZE_ENTRY(zeDriverGet);
    t.pfnGetApiVersion = TESSERA_ZE_ENTRY(zeDriverGetApiVersion);
    t.pfnGetProperties = TESSERA_ZE_ENTRY(zeDriverGetProperties);
    t.pfnGetIpcProperties = TESSERA_ZE_ENTRY(zeDriverGetIpcProperties);
    t.pfnGetExtensionProperties = TESSERA_ZE_ENTRY(zeDriverGetExtensionProperties);
    t.pfnGetExtensionFunctionAddress = TESSERA_ZE_ENTRY(zeDriverGetExtensionFunctionAddress);
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetDeviceProcAddrTable(ze_api_version_t v, ze_device_dditable_t* t) {
  return fillTable(v, t, [](ze_device_dditable_t& t) {
    t.pfnGet = TESSERA_ZE_ENTRY(zeDeviceGet);
    t.pfnGetSubDevices = TESSERA_ZE_ENTRY(zeDeviceGetSubDevices);
    t.pfnGetProperties = TESSERA_ZE_ENTRY(zeDeviceGetProperties);
    t.pfnGetComputeProperties = TESSERA_ZE_ENTRY(zeDeviceGetComputeProperties);
    t.pfnGetModuleProperties = TESSERA_ZE_ENTRY(zeDeviceGetModuleProperties);
    t.pfnGetCommandQueueGroupProperties = TESSERA_ZE_ENTRY(zeDeviceGetCommandQueueGroupProperties);
    t.pfnGetMemoryProperties = TESSERA_ZE_ENTRY(zeDeviceGetMemoryProperties);
    t.pfnGetMemoryAccessProperties = TESSERA_ZE_ENTRY(zeDeviceGetMemoryAccessProperties);
    t.pfnGetCacheProperties = TESSERA_ZE_ENTRY(zeDeviceGetCacheProperties);
    t.pfnGetImageProperties = TESSERA_ZE_ENTRY(zeDeviceGetImageProperties);
    t.pfnGetExternalMemoryProperties = TESSERA_ZE_ENTRY(zeDeviceGetExternalMemoryProperties);
    t.pfnGetP2PProperties = TESSERA_ZE_ENTRY(zeDeviceGetP2PProperties);
    t.pfnCanAccessPeer = TESSERA_ZE_ENTRY(zeDeviceCanAccessPeer);
    t.pfnGetStatus = TESSERA_ZE_ENTRY(zeDeviceGetStatus);
    t.pfnGetGlobalTimestamps = TESSERA_ZE_ENTRY(zeDeviceGetGlobalTimestamps);
    t.pfnReserveCacheExt = TESSERA_ZE_ENTRY(zeDeviceReserveCacheExt);
    t.pfnSetCacheAdviceExt = TESSERA_ZE_ENTRY(zeDeviceSetCacheAdviceExt);
    t.pfnPciGetPropertiesExt = TESSERA_ZE_ENTRY(zeDevicePciGetPropertiesExt);
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetContextProcAddrTable(ze_api_version_t v, ze_context_dditable_t* t) {
  return fillTable(v, t, [](ze_context_dditable_t& t) {
    t.pfnCreate = TESSERA_ZE_ENTRY(zeContextCreate);
    t.pfnDestroy = TESSERA_ZE_ENTRY(zeContextDestroy);
    t.pfnGetStatus = TESSERA_ZE_ENTRY(zeContextGetStatus);
    t.pfnCreateEx = TESSERA_ZE_ENTRY(zeContextCreateEx);
    t.pfnSystemBarrier = TESSERA_ZE_ENTRY(zeContextSystemBarrier);
    t.pfnMakeMemoryResident = TESSERA_ZE_ENTRY(zeContextMakeMemoryResident);
    t.pfnEvictMemory = TESSERA_ZE_ENTRY(zeContextEvictMemory);
    t.pfnMakeImageResident = TESSERA_ZE_ENTRY(zeContextMakeImageResident);
    t.pfnEvictImage = TESSERA_ZE_ENTRY(zeContextEvictImage);
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetMemProcAddrTable(ze_api_version_t v, ze_mem_dditable_t* t) {
  return fillTable(v, t, [](ze_mem_dditable_t& t) {
    t.pfnAllocShared = TESSERA_ZE_ENTRY(zeMemAllocShared);
    t.pfnAllocDevice = TESSERA_ZE_ENTRY(zeMemAllocDevice);
    t.pfnAllocHost = TESSERA_ZE_ENTRY(zeMemAllocHost);
    t.pfnFree = TESSERA_ZE_ENTRY(zeMemFree);
    t.pfnGetAllocProperties = TESSERA_ZE_ENTRY(zeMemGetAllocProperties);
    t.pfnGetAddressRange = TESSERA_ZE_ENTRY(zeMemGetAddressRange);
    t.pfnGetIpcHandle = TESSERA_ZE_ENTRY(zeMemGetIpcHandle);
    t.pfnOpenIpcHandle = TESSERA_ZE_ENTRY(zeMemOpenIpcHandle);
    t.pfnCloseIpcHandle = TESSERA_ZE_ENTRY(zeMemCloseIpcHandle);
    t.pfnFreeExt = TESSERA_ZE_ENTRY(zeMemFreeExt);
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetVirtualMemProcAddrTable(ze_api_version_t v, ze_virtual_mem_dditable_t* t) {
  return fillTable(v, t, [](ze_virtual_mem_dditable_t& t) {
    t.pfnReserve = TESSERA_ZE_ENTRY(zeVirtualMemReserve);
    t.pfnFree = TESSERA_ZE_ENTRY(zeVirtualMemFree);
    t.pfnQueryPageSize = TESSERA_ZE_ENTRY(zeVirtualMemQueryPageSize);
    t.pfnMap = TESSERA_ZE_ENTRY(zeVirtualMemMap);
    t.pfnUnmap = TESSERA_ZE_ENTRY(zeVirtualMemUnmap);
    t.pfnSetAccessAttribute = TESSERA_ZE_ENTRY(zeVirtualMemSetAccessAttribute);
    t.pfnGetAccessAttribute = TESSERA_ZE_ENTRY(zeVirtualMemGetAccessAttribute);
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetPhysicalMemProcAddrTable(ze_api_version_t v, ze_physical_mem_dditable_t* t) {
  return fillTable(v, t, [](ze_physical_mem_dditable_t& t) {
    t.pfnCreate = TESSERA_ZE_ENTRY(zePhysicalMemCreate);
    t.pfnDestroy = TESSERA_ZE_ENTRY(zePhysicalMemDestroy);
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetCommandQueueProcAddrTable(ze_api_version_t v, ze_command_queue_dditable_t* t) {
  return fillTable(v, t, [](ze_command_queue_dditable_t& t) {
    t.pfnCreate = TESSERA_ZE_ENTRY(zeCommandQueueCreate);
    t.pfnDestroy = TESSERA_ZE_ENTRY(zeCommandQueueDestroy);
    t.pfnExecuteCommandLists = TESSERA_ZE_ENTRY(zeCommandQueueExecuteCommandLists);
    t.pfnSynchronize = TESSERA_ZE_ENTRY(zeCommandQueueSynchronize);
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetCommandListProcAddrTable(ze_api_version_t v, ze_command_list_dditable_t* t) {
  return fillTable(v, t, [](ze_command_list_dditable_t& t) {
    t.pfnCreate = TESSERA_ZE_ENTRY(zeCommandListCreate);
    t.pfnCreateImmediate = TESSERA_ZE_ENTRY(zeCommandListCreateImmediate);
    t.pfnDestroy = TESSERA_ZE_ENTRY(zeCommandListDestroy);
    t.pfnClose = TESSERA_ZE_ENTRY(zeCommandListClose);
    t.pfnReset = TESSERA_ZE_ENTRY(zeCommandListReset);
    t.pfnAppendWriteGlobalTimestamp = TESSERA_ZE_ENTRY(zeCommandListAppendWriteGlobalTimestamp);
    t.pfnAppendBarrier = TESSERA_ZE_ENTRY(zeCommandListAppendBarrier);
    t.pfnAppendMemoryRangesBarrier = TESSERA_ZE_ENTRY(zeCommandListAppendMemoryRangesBarrier);
    t.pfnAppendMemoryCopy = TESSERA_ZE_ENTRY(zeCommandListAppendMemoryCopy);
    t.pfnAppendMemoryFill = TESSERA_ZE_ENTRY(zeCommandListAppendMemoryFill);
    t.pfnAppendMemoryCopyRegion = TESSERA_ZE_ENTRY(zeCommandListAppendMemoryCopyRegion);
    t.pfnAppendMemoryCopyFromContext = TESSERA_ZE_ENTRY(zeCommandListAppendMemoryCopyFromContext);
    t.pfnAppendImageCopy = TESSERA_ZE_ENTRY(zeCommandListAppendImageCopy);
    t.pfnAppendImageCopyRegion = TESSERA_ZE_ENTRY(zeCommandListAppendImageCopyRegion);
    t.pfnAppendImageCopyToMemory = TESSERA_ZE_ENTRY(zeCommandListAppendImageCopyToMemory);
    t.pfnAppendImageCopyFromMemory = TESSERA_ZE_ENTRY(zeCommandListAppendImageCopyFromMemory);
    t.pfnAppendMemoryPrefetch = TESSERA_ZE_ENTRY(zeCommandListAppendMemoryPrefetch);
    t.pfnAppendMemAdvise = TESSERA_ZE_ENTRY(zeCommandListAppendMemAdvise);
    t.pfnAppendSignalEvent = TESSERA_ZE_ENTRY(zeCommandListAppendSignalEvent);
    t.pfnAppendWaitOnEvents = TESSERA_ZE_ENTRY(zeCommandListAppendWaitOnEvents);
    t.pfnAppendEventReset = TESSERA_ZE_ENTRY(zeCommandListAppendEventReset);
    t.pfnAppendQueryKernelTimestamps = TESSERA_ZE_ENTRY(zeCommandListAppendQueryKernelTimestamps);
    t.pfnAppendLaunchKernel = TESSERA_ZE_ENTRY(zeCommandListAppendLaunchKernel);
    t.pfnAppendLaunchCooperativeKernel =
        TESSERA_ZE_ENTRY(zeCommandListAppendLaunchCooperativeKernel);
    t.pfnAppendLaunchKernelIndirect = TESSERA_ZE_ENTRY(zeCommandListAppendLaunchKernelIndirect);
    t.pfnAppendLaunchMultipleKernelsIndirect =
        TESSERA_ZE_ENTRY(zeCommandListAppendLaunchMultipleKernelsIndirect);
    t.pfnAppendImageCopyToMemoryExt = TESSERA_ZE_ENTRY(zeCommandListAppendImageCopyToMemoryExt);
    t.pfnAppendImageCopyFromMemoryExt = TESSERA_ZE_ENTRY(zeCommandListAppendImageCopyFromMemoryExt);
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetModuleProcAddrTable(ze_api_version_t v, ze_module_dditable_t* t) {
  return fillTable(v, t, [](ze_module_dditable_t& t) {
    t.pfnCreate = TESSERA_ZE_ENTRY(zeModuleCreate);
    t.pfnDestroy = TESSERA_ZE_ENTRY(zeModuleDestroy);
    t.pfnGetKernelNames = TESSERA_ZE_ENTRY(zeModuleGetKernelNames);
    t.pfnGetProperties = TESSERA_ZE_ENTRY(zeModuleGetProperties);
    t.pfnDynamicLink = TESSERA_ZE_ENTRY(zeModuleDynamicLink);
    t.pfnGetGlobalPointer = TESSERA_ZE_ENTRY(zeModuleGetGlobalPointer);
    t.pfnGetFunctionPointer = TESSERA_ZE_ENTRY(zeModuleGetFunctionPointer);
    t.pfnGetNativeBinary = TESSERA_ZE_ENTRY(zeModuleGetNativeBinary);
    t.pfnInspectLinkageExt = TESSERA_ZE_ENTRY(zeModuleInspectLinkageExt);
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetModuleBuildLogProcAddrTable(ze_api_version_t v, ze_module_build_log_dditable_t* t) {
  return fillTable(v, t, [](ze_module_build_log_dditable_t& t) {
    t.pfnDestroy = TESSERA_ZE_ENTRY(zeModuleBuildLogDestroy);
    t.pfnGetString = TESSERA_ZE_ENTRY(zeModuleBuildLogGetString);
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetKernelProcAddrTable(ze_api_version_t v, ze_kernel_dditable_t* t) {
  return fillTable(v, t, [](ze_kernel_dditable_t& t) {
    t.pfnCreate = TESSERA_ZE_ENTRY(zeKernelCreate);
    t.pfnDestroy = TESSERA_ZE_ENTRY(zeKernelDestroy);
    t.pfnSetCacheConfig = TESSERA_ZE_ENTRY(zeKernelSetCacheConfig);
    t.pfnSetGroupSize = TESSERA_ZE_ENTRY(zeKernelSetGroupSize);
    t.pfnSuggestGroupSize = TESSERA_ZE_ENTRY(zeKernelSuggestGroupSize);
    t.pfnSuggestMaxCooperativeGroupCount =
        TESSERA_ZE_ENTRY(zeKernelSuggestMaxCooperativeGroupCount);
    t.pfnSetArgumentValue = TESSERA_ZE_ENTRY(zeKernelSetArgumentValue);
    t.pfnSetIndirectAccess = TESSERA_ZE_ENTRY(zeKernelSetIndirectAccess);
    t.pfnGetIndirectAccess = TESSERA_ZE_ENTRY(zeKernelGetIndirectAccess);
    t.pfnGetProperties = TESSERA_ZE_ENTRY(zeKernelGetProperties);
    t.pfnGetName = TESSERA_ZE_ENTRY(zeKernelGetName);
    t.pfnGetSourceAttributes = TESSERA_ZE_ENTRY(zeKernelGetSourceAttributes);
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetKernelExpProcAddrTable(ze_api_version_t v, ze_kernel_exp_dditable_t* t) {
  return fillTable(v, t, [](ze_kernel_exp_dditable_t& t) {
    t.pfnSetGlobalOffsetExp = TESSERA_ZE_ENTRY(zeKernelSetGlobalOffsetExp);
    t.pfnSchedulingHintExp = TESSERA_ZE_ENTRY(zeKernelSchedulingHintExp);
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetFenceProcAddrTable(ze_api_version_t v, ze_fence_dditable_t* t) {
  return fillTable(v, t, [](ze_fence_dditable_t& t) {
    t.pfnCreate = TESSERA_ZE_ENTRY(zeFenceCreate);
    t.pfnDestroy = TESSERA_ZE_ENTRY(zeFenceDestroy);
    t.pfnHostSynchronize = TESSERA_ZE_ENTRY(zeFenceHostSynchronize);
    t.pfnQueryStatus = TESSERA_ZE_ENTRY(zeFenceQueryStatus);
    t.pfnReset = TESSERA_ZE_ENTRY(zeFenceReset);
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetEventPoolProcAddrTable(ze_api_version_t v, ze_event_pool_dditable_t* t) {
  return fillTable(v, t, [](ze_event_pool_dditable_t& t) {
    t.pfnCreate = TESSERA_ZE_ENTRY(zeEventPoolCreate);
    t.pfnDestroy = TESSERA_ZE_ENTRY(zeEventPoolDestroy);
    t.pfnGetIpcHandle = TESSERA_ZE_ENTRY(zeEventPoolGetIpcHandle);
    t.pfnOpenIpcHandle = TESSERA_ZE_ENTRY(zeEventPoolOpenIpcHandle);
    t.pfnCloseIpcHandle = TESSERA_ZE_ENTRY(zeEventPoolCloseIpcHandle);
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetEventProcAddrTable(ze_api_version_t v, ze_event_dditable_t* t) {
  return fillTable(v, t, [](ze_event_dditable_t& t) {
    t.pfnCreate = TESSERA_ZE_ENTRY(zeEventCreate);
    t.pfnDestroy = TESSERA_ZE_ENTRY(zeEventDestroy);
    t.pfnHostSignal = TESSERA_ZE_ENTRY(zeEventHostSignal);
    t.pfnHostSynchronize = TESSERA_ZE_ENTRY(zeEventHostSynchronize);
    t.pfnQueryStatus = TESSERA_ZE_ENTRY(zeEventQueryStatus);
    t.pfnHostReset = TESSERA_ZE_ENTRY(zeEventHostReset);
    t.pfnQueryKernelTimestamp = TESSERA_ZE_ENTRY(zeEventQueryKernelTimestamp);
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetEventExpProcAddrTable(ze_api_version_t v, ze_event_exp_dditable_t* t) {
  return fillTable(v, t, [](ze_event_exp_dditable_t& t) {
    t.pfnQueryTimestampsExp = TESSERA_ZE_ENTRY(zeEventQueryTimestampsExp);
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetImageProcAddrTable(ze_api_version_t v, ze_image_dditable_t* t) {
  return fillTable(v, t, [](ze_image_dditable_t& t) {
    t.pfnGetProperties = TESSERA_ZE_ENTRY(zeImageGetProperties);
    t.pfnCreate = TESSERA_ZE_ENTRY(zeImageCreate);
    t.pfnDestroy = TESSERA_ZE_ENTRY(zeImageDestroy);
    t.pfnGetAllocPropertiesExt = TESSERA_ZE_ENTRY(zeImageGetAllocPropertiesExt);
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetImageExpProcAddrTable(ze_api_version_t v, ze_image_exp_dditable_t* t) {
  return fillTable(v, t, [](ze_image_exp_dditable_t& t) {
    t.pfnGetMemoryPropertiesExp = TESSERA_ZE_ENTRY(zeImageGetMemoryPropertiesExp);
    t.pfnViewCreateExp = TESSERA_ZE_ENTRY(zeImageViewCreateExp);
  });
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetSamplerProcAddrTable(ze_api_version_t v, ze_sampler_dditable_t* t) {
  return fillTable(v, t, [](ze_sampler_dditable_t& t) {
    t.pfnCreate = TESSERA_ZE_ENTRY(zeSamplerCreate);
    t.pfnDestroy = TESSERA_ZE_ENTRY(zeSamplerDestroy);
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
