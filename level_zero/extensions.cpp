#include "level_zero/extensions.h"

#include <cstring>

#include "level_zero/api_log.h"
#include "tessera/ze_tessera.h"
#include <level_zero/ze_api.h>

namespace tessera::ze {

const std::vector<Extension>& extensions() {
  static const std::vector<Extension> list = {
      {ZE_GLOBAL_OFFSET_EXP_NAME, ZE_GLOBAL_OFFSET_EXP_VERSION_CURRENT},
      {ZE_KERNEL_SCHEDULING_HINTS_EXP_NAME, ZE_SCHEDULING_HINTS_EXP_VERSION_CURRENT},
      {ZE_LINKAGE_INSPECTION_EXT_NAME, ZE_LINKAGE_INSPECTION_EXT_VERSION_CURRENT},
      // ze_float_atomic_ext_properties_t chained to zeDeviceGetModuleProperties
      // (Device::floatAtomicProperties).
      {ZE_FLOAT_ATOMICS_EXT_NAME, ZE_FLOAT_ATOMICS_EXT_VERSION_CURRENT},
      // ze_kernel_max_group_size_properties_ext_t chained to zeKernelGetProperties.
      {ZE_KERNEL_MAX_GROUP_SIZE_PROPERTIES_EXT_NAME,
       ZE_KERNEL_MAX_GROUP_SIZE_PROPERTIES_EXT_VERSION_CURRENT},
      // zeEventQueryKernelTimestampsExt and the KERNEL_MAPPED_TIMESTAMP pools it reads
      // (test_kernel_timestamps_ext).
      {ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_NAME, ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_VERSION_CURRENT},
      // SPV_INTEL_subgroups' shuffles and block reads and writes (OpSubgroup*INTEL), run on the
      // JIT's lanes like every sub-group instruction.
      {ZE_SUBGROUPS_EXT_NAME, ZE_SUBGROUP_EXT_VERSION_CURRENT},
      {ZE_TESSERA_ROOT_DEVICE_EXT_NAME, ZE_TESSERA_ROOT_DEVICE_EXT_VERSION},
      {ZE_TESSERA_DEVICE_TOPOLOGY_EXT_NAME, ZE_TESSERA_DEVICE_TOPOLOGY_EXT_VERSION},
      {ZE_TESSERA_DEVICE_PARTITION_EXT_NAME, ZE_TESSERA_DEVICE_PARTITION_EXT_VERSION},
      {ZE_TESSERA_EVENT_POOL_PUT_IPC_EXT_NAME, ZE_TESSERA_EVENT_POOL_PUT_IPC_EXT_VERSION},
      {ZE_MEMORY_FREE_POLICIES_EXT_NAME, ZE_MEMORY_FREE_POLICIES_EXT_VERSION_CURRENT},
      {ZE_TESSERA_MODULE_IL_EXT_NAME, ZE_TESSERA_MODULE_IL_EXT_VERSION},
      {ZE_TESSERA_MODULE_KERNELS_EXT_NAME, ZE_TESSERA_MODULE_KERNELS_EXT_VERSION},
      {ZE_TESSERA_TRACE_EXT_NAME, ZE_TESSERA_TRACE_EXT_VERSION},
      {ZE_TESSERA_LAUNCH_BALANCE_EXT_NAME, ZE_TESSERA_LAUNCH_BALANCE_EXT_VERSION},
      {ZE_TESSERA_KERNEL_WORK_DIM_EXT_NAME, ZE_TESSERA_KERNEL_WORK_DIM_EXT_VERSION},
      {ZE_TESSERA_KERNEL_GROUP_SIZE_EXT_NAME, ZE_TESSERA_KERNEL_GROUP_SIZE_EXT_VERSION},
      {ZE_TESSERA_LAUNCH_SHAPE_EXT_NAME, ZE_TESSERA_LAUNCH_SHAPE_EXT_VERSION},
      {ZE_MUTABLE_COMMAND_LIST_EXP_NAME, ZE_MUTABLE_COMMAND_LIST_EXP_VERSION_1_1},
      {ZE_DEVICE_VECTOR_SIZES_EXT_NAME, ZE_DEVICE_VECTOR_SIZES_EXT_VERSION_1_0},
      {ZE_IMMEDIATE_COMMAND_LIST_APPEND_EXP_NAME, ZE_IMMEDIATE_COMMAND_LIST_APPEND_EXP_VERSION_1_0},
      {ZE_IMAGE_MEMORY_PROPERTIES_EXP_NAME, ZE_IMAGE_MEMORY_PROPERTIES_EXP_VERSION_CURRENT},
      {ZE_IMAGE_VIEW_EXP_NAME, ZE_IMAGE_VIEW_EXP_VERSION_CURRENT},
      {ZE_IMAGE_COPY_EXT_NAME, ZE_IMAGE_COPY_EXT_VERSION_CURRENT},
      {ZE_IMAGE_QUERY_ALLOC_PROPERTIES_EXT_NAME,
       ZE_IMAGE_QUERY_ALLOC_PROPERTIES_EXT_VERSION_CURRENT},
      {ZE_TESSERA_IMAGE_MEMORY_EXT_NAME, ZE_TESSERA_IMAGE_MEMORY_EXT_VERSION},
      // Record and replay graphs (core/cmdlist/graph.h), under the specification's name and
      // Intel's.
      {ZE_RECORD_REPLAY_GRAPH_EXT_NAME, ZE_RECORD_REPLAY_GRAPH_EXT_VERSION_1_0},
      {ZE_RECORD_REPLAY_GRAPH_EXP_NAME_TESSERA, ZE_MAKE_VERSION(1, 0)},
      {ZE_VIRTUAL_MEM_READONLY_PROPERTIES_EXT_NAME,
       ZE_VIRTUAL_MEM_READONLY_PROPERTIES_EXT_VERSION_1_0},
      // IPC memory handle types (1.0): the local handle; FABRIC_ACCESSIBLE UNSUPPORTED_FEATURE
      // (api_support.h, checkIpcHandleTypes).
      {ZE_IPC_MEM_HANDLE_TYPE_EXT_NAME, ZE_MAKE_VERSION(1, 0)},
  };
  return list;
}

void* extensionFunction(const char* name) {
  struct Entry {
    const char* name;
    void* function;
  };
  // A function under its own name, as the API log wants it (api_log.h).
#define TESSERA_ZE_EXTENSION(fn) {#fn, reinterpret_cast<void*>(TESSERA_ZE_ENTRY(fn))}
  static const Entry table[] = {
      // Core functions of Level Zero 1.6 to 1.17 (tessera/ze_tessera.h), which Debian's loader
      // (1.8.12) has no table slot for.
      TESSERA_ZE_EXTENSION(zeInitDrivers),
      TESSERA_ZE_EXTENSION(zeDriverGetLastErrorDescription),
      TESSERA_ZE_EXTENSION(zeCommandListHostSynchronize),
      TESSERA_ZE_EXTENSION(zeCommandListGetDeviceHandle),
      TESSERA_ZE_EXTENSION(zeCommandListGetContextHandle),
      TESSERA_ZE_EXTENSION(zeCommandListGetOrdinal),
      TESSERA_ZE_EXTENSION(zeCommandListImmediateGetIndex),
      TESSERA_ZE_EXTENSION(zeCommandListIsImmediate),
      TESSERA_ZE_EXTENSION(zeCommandQueueGetOrdinal),
      TESSERA_ZE_EXTENSION(zeCommandQueueGetIndex),
      TESSERA_ZE_EXTENSION(zeEventGetEventPool),
      TESSERA_ZE_EXTENSION(zeEventGetSignalScope),
      TESSERA_ZE_EXTENSION(zeEventGetWaitScope),
      TESSERA_ZE_EXTENSION(zeEventPoolGetContextHandle),
      TESSERA_ZE_EXTENSION(zeEventPoolGetFlags),
      TESSERA_ZE_EXTENSION(zeMemSetAtomicAccessAttributeExp),
      TESSERA_ZE_EXTENSION(zeMemGetAtomicAccessAttributeExp),
      TESSERA_ZE_EXTENSION(zeEventCounterBasedCreate),
      TESSERA_ZE_EXTENSION(zeEventGetCounterBasedFlags),
      TESSERA_ZE_EXTENSION(zeEventCounterBasedGetDeviceAddress),
      TESSERA_ZE_EXTENSION(zeEventCounterBasedGetIpcHandle),
      TESSERA_ZE_EXTENSION(zeEventCounterBasedOpenIpcHandle),
      TESSERA_ZE_EXTENSION(zeEventCounterBasedCloseIpcHandle),
      TESSERA_ZE_EXTENSION(zeDeviceGetAggregatedCopyOffloadIncrementValue),
      TESSERA_ZE_EXTENSION(zeDeviceGetRuntimeRequirements),
      TESSERA_ZE_EXTENSION(zeDeviceGetRuntimeRequirementsKey),
      TESSERA_ZE_EXTENSION(zeDeviceValidateRuntimeRequirements),
      TESSERA_ZE_EXTENSION(zeEventQueryKernelTimestampsExt),
      TESSERA_ZE_EXTENSION(zeCommandListAppendLaunchKernelWithArguments),
      TESSERA_ZE_EXTENSION(zeDriverGetDefaultContext),
      TESSERA_ZE_EXTENSION(zeDeviceSynchronize),
      TESSERA_ZE_EXTENSION(zePhysicalMemGetProperties),
      TESSERA_ZE_EXTENSION(zeCommandListGetFlags),
      TESSERA_ZE_EXTENSION(zeCommandListImmediateGetFlags),
      TESSERA_ZE_EXTENSION(zeCommandListImmediateGetMode),
      TESSERA_ZE_EXTENSION(zeCommandListImmediateGetPriority),
      TESSERA_ZE_EXTENSION(zeCommandListIsMutableExp),
      TESSERA_ZE_EXTENSION(zeCommandQueueGetFlags),
      TESSERA_ZE_EXTENSION(zeCommandQueueGetMode),
      TESSERA_ZE_EXTENSION(zeCommandQueueGetPriority),
      TESSERA_ZE_EXTENSION(zeDeviceGetCounterBasedEventMaxValue),
      TESSERA_ZE_EXTENSION(zeCommandListAppendHostFunction),
      TESSERA_ZE_EXTENSION(zeCommandListAppendLaunchKernelWithParameters),
      TESSERA_ZE_EXTENSION(zeCommandListAppendMemoryCopyWithParameters),
      TESSERA_ZE_EXTENSION(zeCommandListAppendMemoryFillWithParameters),
      TESSERA_ZE_EXTENSION(zeCommandListImmediateAppendCommandListsWithParameters),
      TESSERA_ZE_EXTENSION(zeDeviceGetRootDevice),
      TESSERA_ZE_EXTENSION(zeTesseraDeviceGetTopologyProperties),
      TESSERA_ZE_EXTENSION(zeTesseraDeviceGetPus),
      TESSERA_ZE_EXTENSION(zeTesseraDeviceGetNumaNodes),
      TESSERA_ZE_EXTENSION(zeTesseraDeviceGetCaches),
      TESSERA_ZE_EXTENSION(zeTesseraDeviceCreatePartition),
      TESSERA_ZE_EXTENSION(zeEventPoolPutIpcHandle),
      TESSERA_ZE_EXTENSION(zeMemPutIpcHandle),
      TESSERA_ZE_EXTENSION(zeMemGetIpcHandleWithProperties),
      TESSERA_ZE_EXTENSION(zeMemFreeExt),
      TESSERA_ZE_EXTENSION(zeTesseraModuleGetIL),
      TESSERA_ZE_EXTENSION(zeTesseraModuleGetKernelTable),
      TESSERA_ZE_EXTENSION(zeTesseraModuleBuildKernels),
      TESSERA_ZE_EXTENSION(zeTesseraModuleGetCompiledKernelCount),
      TESSERA_ZE_EXTENSION(zeTesseraModuleGetNativeBinaryAsIs),
      TESSERA_ZE_EXTENSION(zeTesseraTraceFlush),
      TESSERA_ZE_EXTENSION(zeTesseraDriverGetLaunchBalance),
      TESSERA_ZE_EXTENSION(zeTesseraKernelSetWorkDim),
      TESSERA_ZE_EXTENSION(zeTesseraKernelSuggestGroupSize),
      TESSERA_ZE_EXTENSION(zeTesseraCommandListAppendLaunchKernelShaped),
      TESSERA_ZE_EXTENSION(zeCommandListGetNextCommandIdExp),
      TESSERA_ZE_EXTENSION(zeCommandListUpdateMutableCommandsExp),
      TESSERA_ZE_EXTENSION(zeCommandListUpdateMutableCommandSignalEventExp),
      TESSERA_ZE_EXTENSION(zeCommandListUpdateMutableCommandWaitEventsExp),
      TESSERA_ZE_EXTENSION(zeDeviceGetVectorWidthPropertiesExt),
      TESSERA_ZE_EXTENSION(zeCommandListGetNextCommandIdWithKernelsExp),
      TESSERA_ZE_EXTENSION(zeCommandListUpdateMutableCommandKernelsExp),
      TESSERA_ZE_EXTENSION(zeCommandListImmediateAppendCommandListsExp),
      // Images: Tessera's own, and the 1.4 headers' extension functions, which the loader's
      // tables also reach.
      TESSERA_ZE_EXTENSION(zeTesseraImageGetMemory),
      TESSERA_ZE_EXTENSION(zeImageGetMemoryPropertiesExp),
      TESSERA_ZE_EXTENSION(zeImageViewCreateExp),
      TESSERA_ZE_EXTENSION(zeImageGetAllocPropertiesExt),
      TESSERA_ZE_EXTENSION(zeCommandListAppendImageCopyToMemoryExt),
      TESSERA_ZE_EXTENSION(zeCommandListAppendImageCopyFromMemoryExt),
      TESSERA_ZE_EXTENSION(zeGraphCreateExt),
      TESSERA_ZE_EXTENSION(zeCommandListBeginGraphCaptureExt),
      TESSERA_ZE_EXTENSION(zeCommandListBeginCaptureIntoGraphExt),
      TESSERA_ZE_EXTENSION(zeCommandListIsGraphCaptureEnabledExt),
      TESSERA_ZE_EXTENSION(zeCommandListEndGraphCaptureExt),
      TESSERA_ZE_EXTENSION(zeCommandListGetGraphExt),
      TESSERA_ZE_EXTENSION(zeGraphGetPrimaryCommandListExt),
      TESSERA_ZE_EXTENSION(zeGraphSetDestructionCallbackExt),
      TESSERA_ZE_EXTENSION(zeGraphInstantiateExt),
      TESSERA_ZE_EXTENSION(zeCommandListAppendGraphExt),
      TESSERA_ZE_EXTENSION(zeExecutableGraphGetSourceGraphExt),
      TESSERA_ZE_EXTENSION(zeGraphIsEmptyExt),
      TESSERA_ZE_EXTENSION(zeGraphDumpContentsExt),
      TESSERA_ZE_EXTENSION(zeExecutableGraphDestroyExt),
      TESSERA_ZE_EXTENSION(zeGraphDestroyExt),
      // Intel's record and replay graphs (compute-runtime's zex_graph.h).
      TESSERA_ZE_EXTENSION(zeGraphCreateExp),
      TESSERA_ZE_EXTENSION(zeCommandListBeginGraphCaptureExp),
      TESSERA_ZE_EXTENSION(zeCommandListBeginCaptureIntoGraphExp),
      TESSERA_ZE_EXTENSION(zeCommandListEndGraphCaptureExp),
      TESSERA_ZE_EXTENSION(zeCommandListInstantiateGraphExp),
      TESSERA_ZE_EXTENSION(zeCommandListAppendGraphExp),
      TESSERA_ZE_EXTENSION(zeGraphDestroyExp),
      TESSERA_ZE_EXTENSION(zeExecutableGraphDestroyExp),
      TESSERA_ZE_EXTENSION(zeCommandListIsGraphCaptureEnabledExp),
      TESSERA_ZE_EXTENSION(zeGraphIsEmptyExp),
      TESSERA_ZE_EXTENSION(zeGraphDumpContentsExp),
      TESSERA_ZE_EXTENSION(zeCommandListGetGraphExp),
      TESSERA_ZE_EXTENSION(zeGraphSetDestructionCallbackExp),
      // Intel's experimental host-pointer import (compute-runtime's zex_driver.h).
      TESSERA_ZE_EXTENSION(zexDriverImportExternalPointer),
      TESSERA_ZE_EXTENSION(zexDriverReleaseImportedPointer),
      TESSERA_ZE_EXTENSION(zexDriverGetHostPointerBaseAddress),
  };
#undef TESSERA_ZE_EXTENSION
  for (const Entry& e : table)
    if (std::strcmp(e.name, name) == 0) return e.function;
  return nullptr;
}

}  // namespace tessera::ze
