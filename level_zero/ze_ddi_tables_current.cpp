// The DDI table slots of Level Zero 1.6 to 1.17 that Tessera fills. Debian's loader (1.8.12)
// passes 1.4-era tables, which end where these slots begin; a current loader passes its own,
// longer tables and the version it was built for (its ddi_init_version), and every table of a
// newer minor version begins with the older one: its new entries are appended (the public
// ze_ddi.h, 1.17). Each slot is written only when the version asked for has it, so a shorter table
// is never written past its end; slots Tessera has no function for are left as the loader set them.
// The layouts below are the tail of each table up to the last slot Tessera fills, in ze_ddi.h's
// order, with the versions that added them (the public level-zero repository's null driver fills
// each under the same version test).
#include "level_zero/ddi_tables_current.h"

#include <cstddef>

#include "level_zero/api_log.h"
#include "tessera/ze_tessera.h"

namespace tessera::ze {
namespace {

using FnPtr = void*;

bool atLeast(ze_api_version_t version, int minor) { return atLeastMinor(version, minor); }

struct GlobalTail {
  ze_global_dditable_t prefix;  // the 1.4 table
  ze_pfnInitDrivers_t pfnInitDrivers;  // 1.10
};

struct DriverTail {
  ze_driver_dditable_t prefix;  // the 1.4 table
  ze_pfnDriverGetLastErrorDescription_t pfnGetLastErrorDescription;  // 1.6
  FnPtr pfnRTASFormatCompatibilityCheckExt;                          // 1.13, not implemented
  ze_pfnDriverGetDefaultContext_t pfnGetDefaultContext;              // 1.14
};

struct DeviceTail {
  ze_device_dditable_t prefix;  // the 1.4 table
  ze_pfnDeviceGetRootDevice_t pfnGetRootDevice;  // 1.7
  FnPtr pfnImportExternalSemaphoreExt;           // 1.12, not implemented
  FnPtr pfnReleaseExternalSemaphoreExt;          // 1.12, not implemented
  ze_pfnDeviceGetVectorWidthPropertiesExt_t pfnGetVectorWidthPropertiesExt;  // 1.13
  ze_pfnDeviceSynchronize_t pfnSynchronize;      // 1.14
  ze_pfnDeviceGetAggregatedCopyOffloadIncrementValue_t
      pfnGetAggregatedCopyOffloadIncrementValue;  // 1.15
  ze_pfnDeviceGetRuntimeRequirements_t pfnGetRuntimeRequirements;                // 1.16
  ze_pfnDeviceGetRuntimeRequirementsKey_t pfnGetRuntimeRequirementsKey;          // 1.16
  ze_pfnDeviceValidateRuntimeRequirements_t pfnValidateRuntimeRequirements;      // 1.16
  ze_pfnDeviceGetCounterBasedEventMaxValue_t pfnGetCounterBasedEventMaxValue;  // 1.17
};

struct MemTail {
  ze_mem_dditable_t prefix;  // the 1.4 table
  ze_pfnMemPutIpcHandle_t pfnPutIpcHandle;  // 1.6
  FnPtr pfnGetPitchFor2dImage;              // 1.9, not implemented
  ze_pfnMemGetIpcHandleWithProperties_t pfnGetIpcHandleWithProperties;  // 1.15
};

struct PhysicalMemTail {
  ze_physical_mem_dditable_t prefix;  // the 1.4 table
  ze_pfnPhysicalMemGetProperties_t pfnGetProperties;  // 1.15
};

struct CommandQueueTail {
  ze_command_queue_dditable_t prefix;  // the 1.4 table
  ze_pfnCommandQueueGetOrdinal_t pfnGetOrdinal;  // 1.9
  ze_pfnCommandQueueGetIndex_t pfnGetIndex;      // 1.9
  ze_pfnCommandQueueGetFlags_t pfnGetFlags;      // 1.17
  ze_pfnCommandQueueGetMode_t pfnGetMode;        // 1.17
  ze_pfnCommandQueueGetPriority_t pfnGetPriority;  // 1.17
};

struct CommandListTail {
  ze_command_list_dditable_t prefix;  // the 1.4 table
  ze_pfnCommandListHostSynchronize_t pfnHostSynchronize;        // 1.6
  ze_pfnCommandListGetDeviceHandle_t pfnGetDeviceHandle;        // 1.9
  ze_pfnCommandListGetContextHandle_t pfnGetContextHandle;      // 1.9
  ze_pfnCommandListGetOrdinal_t pfnGetOrdinal;                  // 1.9
  ze_pfnCommandListImmediateGetIndex_t pfnImmediateGetIndex;    // 1.9
  ze_pfnCommandListIsImmediate_t pfnIsImmediate;                // 1.9
  FnPtr pfnAppendSignalExternalSemaphoreExt;                    // 1.12, not implemented
  FnPtr pfnAppendWaitExternalSemaphoreExt;                      // 1.12, not implemented
  ze_pfnCommandListAppendLaunchKernelWithParameters_t
      pfnAppendLaunchKernelWithParameters;  // 1.14
  ze_pfnCommandListAppendLaunchKernelWithArguments_t pfnAppendLaunchKernelWithArguments;  // 1.14
  ze_pfnCommandListAppendMemoryCopyWithParameters_t pfnAppendMemoryCopyWithParameters;  // 1.16
  ze_pfnCommandListAppendMemoryFillWithParameters_t pfnAppendMemoryFillWithParameters;  // 1.16
  ze_pfnCommandListImmediateAppendCommandListsWithParameters_t
      pfnImmediateAppendCommandListsWithParameters;  // 1.16
  ze_pfnCommandListGetFlags_t pfnGetFlags;                      // 1.17
  ze_pfnCommandListImmediateGetFlags_t pfnImmediateGetFlags;    // 1.17
  ze_pfnCommandListImmediateGetMode_t pfnImmediateGetMode;      // 1.17
  ze_pfnCommandListImmediateGetPriority_t pfnImmediateGetPriority;  // 1.17
  FnPtr pfnBeginGraphCaptureExt;                                // 1.17, not implemented
  FnPtr pfnBeginCaptureIntoGraphExt;                            // 1.17, not implemented
  FnPtr pfnIsGraphCaptureEnabledExt;                            // 1.17, not implemented
  FnPtr pfnEndGraphCaptureExt;                                  // 1.17, not implemented
  FnPtr pfnGetGraphExt;                                         // 1.17, not implemented
  FnPtr pfnAppendGraphExt;                                      // 1.17, not implemented
  ze_pfnCommandListAppendHostFunction_t pfnAppendHostFunction;  // 1.17
};

struct EventTail {
  ze_event_dditable_t prefix;  // the 1.4 table
  ze_pfnEventQueryKernelTimestampsExt_t pfnQueryKernelTimestampsExt;  // 1.6
  ze_pfnEventGetEventPool_t pfnGetEventPool;                  // 1.9
  ze_pfnEventGetSignalScope_t pfnGetSignalScope;              // 1.9
  ze_pfnEventGetWaitScope_t pfnGetWaitScope;                  // 1.9
  ze_pfnEventCounterBasedCreate_t pfnCounterBasedCreate;      // 1.15
  ze_pfnEventCounterBasedGetIpcHandle_t pfnCounterBasedGetIpcHandle;      // 1.15
  ze_pfnEventCounterBasedOpenIpcHandle_t pfnCounterBasedOpenIpcHandle;    // 1.15
  ze_pfnEventCounterBasedCloseIpcHandle_t pfnCounterBasedCloseIpcHandle;  // 1.15
  ze_pfnEventCounterBasedGetDeviceAddress_t pfnCounterBasedGetDeviceAddress;  // 1.15
  ze_pfnEventGetCounterBasedFlags_t pfnGetCounterBasedFlags;  // 1.17
};

struct EventPoolTail {
  ze_event_pool_dditable_t prefix;  // the 1.4 table
  ze_pfnEventPoolPutIpcHandle_t pfnPutIpcHandle;              // 1.6
  ze_pfnEventPoolGetContextHandle_t pfnGetContextHandle;      // 1.9
  ze_pfnEventPoolGetFlags_t pfnGetFlags;                      // 1.9
};

// The first new slot starts right after the 1.4 table: the tables are structs of function
// pointers only, so nothing pads between them.
static_assert(offsetof(CommandListTail, pfnHostSynchronize) == sizeof(ze_command_list_dditable_t));
static_assert(offsetof(EventTail, pfnQueryKernelTimestampsExt) == sizeof(ze_event_dditable_t));
static_assert(offsetof(GlobalTail, pfnInitDrivers) == sizeof(ze_global_dditable_t));

// The slot `member` of Tail in the loader's table that starts at `table` (which is that long when
// the version asked for has the slot).
#define TESSERA_SLOT(table, Tail, member)                                           \
  (*reinterpret_cast<decltype(Tail::member)*>(reinterpret_cast<char*>(&(table)) + \
                                              offsetof(Tail, member)))

}  // namespace

void fillCurrentSlots(ze_api_version_t v, ze_global_dditable_t& table) {
  if (atLeast(v, 10))
    TESSERA_SLOT(table, GlobalTail, pfnInitDrivers) = TESSERA_ZE_ENTRY(zeInitDrivers);
}

void fillCurrentSlots(ze_api_version_t v, ze_driver_dditable_t& table) {
  if (atLeast(v, 6))
    TESSERA_SLOT(table, DriverTail, pfnGetLastErrorDescription) =
        TESSERA_ZE_ENTRY(zeDriverGetLastErrorDescription);
  if (atLeast(v, 14))
    TESSERA_SLOT(table, DriverTail, pfnGetDefaultContext) =
        TESSERA_ZE_ENTRY(zeDriverGetDefaultContext);
}

void fillCurrentSlots(ze_api_version_t v, ze_device_dditable_t& table) {
  if (atLeast(v, 7))
    TESSERA_SLOT(table, DeviceTail, pfnGetRootDevice) = TESSERA_ZE_ENTRY(zeDeviceGetRootDevice);
  if (atLeast(v, 13))
    TESSERA_SLOT(table, DeviceTail, pfnGetVectorWidthPropertiesExt) =
        TESSERA_ZE_ENTRY(zeDeviceGetVectorWidthPropertiesExt);
  if (atLeast(v, 14))
    TESSERA_SLOT(table, DeviceTail, pfnSynchronize) = TESSERA_ZE_ENTRY(zeDeviceSynchronize);
  if (atLeast(v, 15))
    TESSERA_SLOT(table, DeviceTail, pfnGetAggregatedCopyOffloadIncrementValue) =
        TESSERA_ZE_ENTRY(zeDeviceGetAggregatedCopyOffloadIncrementValue);
  if (atLeast(v, 16)) {
    TESSERA_SLOT(table, DeviceTail, pfnGetRuntimeRequirements) =
        TESSERA_ZE_ENTRY(zeDeviceGetRuntimeRequirements);
    TESSERA_SLOT(table, DeviceTail, pfnGetRuntimeRequirementsKey) =
        TESSERA_ZE_ENTRY(zeDeviceGetRuntimeRequirementsKey);
    TESSERA_SLOT(table, DeviceTail, pfnValidateRuntimeRequirements) =
        TESSERA_ZE_ENTRY(zeDeviceValidateRuntimeRequirements);
  }
  if (atLeast(v, 17))
    TESSERA_SLOT(table, DeviceTail, pfnGetCounterBasedEventMaxValue) =
        TESSERA_ZE_ENTRY(zeDeviceGetCounterBasedEventMaxValue);
}

void fillCurrentSlots(ze_api_version_t v, ze_mem_dditable_t& table) {
  if (atLeast(v, 6))
    TESSERA_SLOT(table, MemTail, pfnPutIpcHandle) = TESSERA_ZE_ENTRY(zeMemPutIpcHandle);
  if (atLeast(v, 15))
    TESSERA_SLOT(table, MemTail, pfnGetIpcHandleWithProperties) =
        TESSERA_ZE_ENTRY(zeMemGetIpcHandleWithProperties);
}

void fillCurrentSlots(ze_api_version_t v, ze_physical_mem_dditable_t& table) {
  if (atLeast(v, 15))
    TESSERA_SLOT(table, PhysicalMemTail, pfnGetProperties) =
        TESSERA_ZE_ENTRY(zePhysicalMemGetProperties);
}

void fillCurrentSlots(ze_api_version_t v, ze_command_queue_dditable_t& table) {
  if (atLeast(v, 9)) {
    TESSERA_SLOT(table, CommandQueueTail, pfnGetOrdinal) =
        TESSERA_ZE_ENTRY(zeCommandQueueGetOrdinal);
    TESSERA_SLOT(table, CommandQueueTail, pfnGetIndex) = TESSERA_ZE_ENTRY(zeCommandQueueGetIndex);
  }
  if (atLeast(v, 17)) {
    TESSERA_SLOT(table, CommandQueueTail, pfnGetFlags) = TESSERA_ZE_ENTRY(zeCommandQueueGetFlags);
    TESSERA_SLOT(table, CommandQueueTail, pfnGetMode) = TESSERA_ZE_ENTRY(zeCommandQueueGetMode);
    TESSERA_SLOT(table, CommandQueueTail, pfnGetPriority) =
        TESSERA_ZE_ENTRY(zeCommandQueueGetPriority);
  }
}

void fillCurrentSlots(ze_api_version_t v, ze_command_list_dditable_t& table) {
  if (atLeast(v, 6))
    TESSERA_SLOT(table, CommandListTail, pfnHostSynchronize) =
        TESSERA_ZE_ENTRY(zeCommandListHostSynchronize);
  if (atLeast(v, 9)) {
    TESSERA_SLOT(table, CommandListTail, pfnGetDeviceHandle) =
        TESSERA_ZE_ENTRY(zeCommandListGetDeviceHandle);
    TESSERA_SLOT(table, CommandListTail, pfnGetContextHandle) =
        TESSERA_ZE_ENTRY(zeCommandListGetContextHandle);
    TESSERA_SLOT(table, CommandListTail, pfnGetOrdinal) = TESSERA_ZE_ENTRY(zeCommandListGetOrdinal);
    TESSERA_SLOT(table, CommandListTail, pfnImmediateGetIndex) =
        TESSERA_ZE_ENTRY(zeCommandListImmediateGetIndex);
    TESSERA_SLOT(table, CommandListTail, pfnIsImmediate) =
        TESSERA_ZE_ENTRY(zeCommandListIsImmediate);
  }
  if (atLeast(v, 14)) {
    TESSERA_SLOT(table, CommandListTail, pfnAppendLaunchKernelWithParameters) =
        TESSERA_ZE_ENTRY(zeCommandListAppendLaunchKernelWithParameters);
    TESSERA_SLOT(table, CommandListTail, pfnAppendLaunchKernelWithArguments) =
        TESSERA_ZE_ENTRY(zeCommandListAppendLaunchKernelWithArguments);
  }
  if (atLeast(v, 16)) {
    TESSERA_SLOT(table, CommandListTail, pfnAppendMemoryCopyWithParameters) =
        TESSERA_ZE_ENTRY(zeCommandListAppendMemoryCopyWithParameters);
    TESSERA_SLOT(table, CommandListTail, pfnAppendMemoryFillWithParameters) =
        TESSERA_ZE_ENTRY(zeCommandListAppendMemoryFillWithParameters);
    TESSERA_SLOT(table, CommandListTail, pfnImmediateAppendCommandListsWithParameters) =
        TESSERA_ZE_ENTRY(zeCommandListImmediateAppendCommandListsWithParameters);
  }
  if (atLeast(v, 17)) {
    TESSERA_SLOT(table, CommandListTail, pfnGetFlags) = TESSERA_ZE_ENTRY(zeCommandListGetFlags);
    TESSERA_SLOT(table, CommandListTail, pfnImmediateGetFlags) =
        TESSERA_ZE_ENTRY(zeCommandListImmediateGetFlags);
    TESSERA_SLOT(table, CommandListTail, pfnImmediateGetMode) =
        TESSERA_ZE_ENTRY(zeCommandListImmediateGetMode);
    TESSERA_SLOT(table, CommandListTail, pfnImmediateGetPriority) =
        TESSERA_ZE_ENTRY(zeCommandListImmediateGetPriority);
    TESSERA_SLOT(table, CommandListTail, pfnAppendHostFunction) =
        TESSERA_ZE_ENTRY(zeCommandListAppendHostFunction);
  }
}

void fillCurrentSlots(ze_api_version_t v, ze_event_dditable_t& table) {
  if (atLeast(v, 6))
    TESSERA_SLOT(table, EventTail, pfnQueryKernelTimestampsExt) =
        TESSERA_ZE_ENTRY(zeEventQueryKernelTimestampsExt);
  if (atLeast(v, 9)) {
    TESSERA_SLOT(table, EventTail, pfnGetEventPool) = TESSERA_ZE_ENTRY(zeEventGetEventPool);
    TESSERA_SLOT(table, EventTail, pfnGetSignalScope) = TESSERA_ZE_ENTRY(zeEventGetSignalScope);
    TESSERA_SLOT(table, EventTail, pfnGetWaitScope) = TESSERA_ZE_ENTRY(zeEventGetWaitScope);
  }
  if (atLeast(v, 15)) {
    TESSERA_SLOT(table, EventTail, pfnCounterBasedCreate) =
        TESSERA_ZE_ENTRY(zeEventCounterBasedCreate);
    TESSERA_SLOT(table, EventTail, pfnCounterBasedGetDeviceAddress) =
        TESSERA_ZE_ENTRY(zeEventCounterBasedGetDeviceAddress);
    TESSERA_SLOT(table, EventTail, pfnCounterBasedGetIpcHandle) =
        TESSERA_ZE_ENTRY(zeEventCounterBasedGetIpcHandle);
    TESSERA_SLOT(table, EventTail, pfnCounterBasedOpenIpcHandle) =
        TESSERA_ZE_ENTRY(zeEventCounterBasedOpenIpcHandle);
    TESSERA_SLOT(table, EventTail, pfnCounterBasedCloseIpcHandle) =
        TESSERA_ZE_ENTRY(zeEventCounterBasedCloseIpcHandle);
  }
  if (atLeast(v, 17))
    TESSERA_SLOT(table, EventTail, pfnGetCounterBasedFlags) =
        TESSERA_ZE_ENTRY(zeEventGetCounterBasedFlags);
}

void fillCurrentSlots(ze_api_version_t v, ze_event_pool_dditable_t& table) {
  if (atLeast(v, 6))
    TESSERA_SLOT(table, EventPoolTail, pfnPutIpcHandle) = TESSERA_ZE_ENTRY(zeEventPoolPutIpcHandle);
  if (atLeast(v, 9)) {
    TESSERA_SLOT(table, EventPoolTail, pfnGetContextHandle) =
        TESSERA_ZE_ENTRY(zeEventPoolGetContextHandle);
    TESSERA_SLOT(table, EventPoolTail, pfnGetFlags) = TESSERA_ZE_ENTRY(zeEventPoolGetFlags);
  }
}

}  // namespace tessera::ze

// The table of the command list's experimental functions (1.9), which Debian's headers and loader
// do not have: a current loader asks for it when the driver exports the getter. Every slot is
// 1.9's or later; the version test keeps an older caller's table unwritten.
namespace {
struct CommandListExpTable {
  void* pfnCreateCloneExp;  // 1.9, not implemented (ZE_COMMAND_LIST_FLAG_EXP_CLONEABLE refused)
  ze_pfnCommandListImmediateAppendCommandListsExp_t pfnImmediateAppendCommandListsExp;  // 1.9
  ze_pfnCommandListGetNextCommandIdExp_t pfnGetNextCommandIdExp;                        // 1.9
  ze_pfnCommandListUpdateMutableCommandsExp_t pfnUpdateMutableCommandsExp;              // 1.9
  ze_pfnCommandListUpdateMutableCommandSignalEventExp_t
      pfnUpdateMutableCommandSignalEventExp;  // 1.9
  ze_pfnCommandListUpdateMutableCommandWaitEventsExp_t
      pfnUpdateMutableCommandWaitEventsExp;  // 1.9
  ze_pfnCommandListGetNextCommandIdWithKernelsExp_t pfnGetNextCommandIdWithKernelsExp;  // 1.10
  ze_pfnCommandListUpdateMutableCommandKernelsExp_t pfnUpdateMutableCommandKernelsExp;  // 1.10
  ze_pfnCommandListIsMutableExp_t pfnIsMutableExp;                                      // 1.17
};
}  // namespace

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetCommandListExpProcAddrTable(ze_api_version_t v,
                                                                             void* pDdiTable) {
  if (!pDdiTable) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ZE_MAJOR_VERSION(v) != 1) return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
  if (!tessera::ze::atLeastMinor(v, 9)) return ZE_RESULT_SUCCESS;
  auto* t = static_cast<CommandListExpTable*>(pDdiTable);
  t->pfnImmediateAppendCommandListsExp =
      TESSERA_ZE_ENTRY(zeCommandListImmediateAppendCommandListsExp);
  t->pfnGetNextCommandIdExp = TESSERA_ZE_ENTRY(zeCommandListGetNextCommandIdExp);
  t->pfnUpdateMutableCommandsExp = TESSERA_ZE_ENTRY(zeCommandListUpdateMutableCommandsExp);
  t->pfnUpdateMutableCommandSignalEventExp =
      TESSERA_ZE_ENTRY(zeCommandListUpdateMutableCommandSignalEventExp);
  t->pfnUpdateMutableCommandWaitEventsExp =
      TESSERA_ZE_ENTRY(zeCommandListUpdateMutableCommandWaitEventsExp);
  if (!tessera::ze::atLeastMinor(v, 10)) return ZE_RESULT_SUCCESS;
  t->pfnGetNextCommandIdWithKernelsExp =
      TESSERA_ZE_ENTRY(zeCommandListGetNextCommandIdWithKernelsExp);
  t->pfnUpdateMutableCommandKernelsExp =
      TESSERA_ZE_ENTRY(zeCommandListUpdateMutableCommandKernelsExp);
  if (tessera::ze::atLeastMinor(v, 17))
    t->pfnIsMutableExp = TESSERA_ZE_ENTRY(zeCommandListIsMutableExp);
  return ZE_RESULT_SUCCESS;
}

// The memory's experimental table (1.6: the IPC file-descriptor conversions, not implemented; 1.7:
// the atomic access attributes), which Debian's headers and loader do not have either.
namespace {
struct MemExpTable {
  void* pfnGetIpcHandleFromFileDescriptorExp;  // 1.6, not implemented
  void* pfnGetFileDescriptorFromIpcHandleExp;  // 1.6, not implemented
  ze_pfnMemSetAtomicAccessAttributeExp_t pfnSetAtomicAccessAttributeExp;  // 1.7
  ze_pfnMemGetAtomicAccessAttributeExp_t pfnGetAtomicAccessAttributeExp;  // 1.7
};
}  // namespace

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetMemExpProcAddrTable(ze_api_version_t v,
                                                                     void* pDdiTable) {
  if (!pDdiTable) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ZE_MAJOR_VERSION(v) != 1) return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
  if (!tessera::ze::atLeastMinor(v, 7)) return ZE_RESULT_SUCCESS;
  auto* t = static_cast<MemExpTable*>(pDdiTable);
  t->pfnSetAtomicAccessAttributeExp = TESSERA_ZE_ENTRY(zeMemSetAtomicAccessAttributeExp);
  t->pfnGetAtomicAccessAttributeExp = TESSERA_ZE_ENTRY(zeMemGetAtomicAccessAttributeExp);
  return ZE_RESULT_SUCCESS;
}
