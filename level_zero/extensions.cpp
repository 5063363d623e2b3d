#include "level_zero/extensions.h"

#include <cstring>

#include "tessera/ze_tessera.h"
#include <level_zero/ze_api.h>

namespace tessera::ze {

const std::vector<Extension>& extensions() {
  static const std::vector<Extension> list = {
      {ZE_GLOBAL_OFFSET_EXP_NAME, ZE_GLOBAL_OFFSET_EXP_VERSION_CURRENT},
      {ZE_KERNEL_SCHEDULING_HINTS_EXP_NAME, ZE_SCHEDULING_HINTS_EXP_VERSION_CURRENT},
      {ZE_LINKAGE_INSPECTION_EXT_NAME, ZE_LINKAGE_INSPECTION_EXT_VERSION_CURRENT},
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
      {ZE_MUTABLE_COMMAND_LIST_EXP_NAME, ZE_MUTABLE_COMMAND_LIST_EXP_VERSION_1_0},
      {ZE_IMMEDIATE_COMMAND_LIST_APPEND_EXP_NAME, ZE_IMMEDIATE_COMMAND_LIST_APPEND_EXP_VERSION_1_0},
      {ZE_IMAGE_MEMORY_PROPERTIES_EXP_NAME, ZE_IMAGE_MEMORY_PROPERTIES_EXP_VERSION_CURRENT},
      {ZE_IMAGE_VIEW_EXP_NAME, ZE_IMAGE_VIEW_EXP_VERSION_CURRENT},
      {ZE_IMAGE_COPY_EXT_NAME, ZE_IMAGE_COPY_EXT_VERSION_CURRENT},
      {ZE_IMAGE_QUERY_ALLOC_PROPERTIES_EXT_NAME,
       ZE_IMAGE_QUERY_ALLOC_PROPERTIES_EXT_VERSION_CURRENT},
      {ZE_TESSERA_IMAGE_MEMORY_EXT_NAME, ZE_TESSERA_IMAGE_MEMORY_EXT_VERSION},
  };
  return list;
}

void* extensionFunction(const char* name) {
  struct Entry {
    const char* name;
    void* function;
  };
  static const Entry table[] = {
      // Core functions of Level Zero 1.6 to 1.17 (tessera/ze_tessera.h), which Debian's loader
      // (1.8.12) has no table slot for.
      {"zeInitDrivers", reinterpret_cast<void*>(&zeInitDrivers)},
      {"zeDriverGetLastErrorDescription",
       reinterpret_cast<void*>(&zeDriverGetLastErrorDescription)},
      {"zeCommandListHostSynchronize", reinterpret_cast<void*>(&zeCommandListHostSynchronize)},
      {"zeCommandListGetDeviceHandle", reinterpret_cast<void*>(&zeCommandListGetDeviceHandle)},
      {"zeCommandListGetContextHandle", reinterpret_cast<void*>(&zeCommandListGetContextHandle)},
      {"zeCommandListGetOrdinal", reinterpret_cast<void*>(&zeCommandListGetOrdinal)},
      {"zeCommandListImmediateGetIndex", reinterpret_cast<void*>(&zeCommandListImmediateGetIndex)},
      {"zeCommandListIsImmediate", reinterpret_cast<void*>(&zeCommandListIsImmediate)},
      {"zeCommandQueueGetOrdinal", reinterpret_cast<void*>(&zeCommandQueueGetOrdinal)},
      {"zeCommandQueueGetIndex", reinterpret_cast<void*>(&zeCommandQueueGetIndex)},
      {"zeEventGetEventPool", reinterpret_cast<void*>(&zeEventGetEventPool)},
      {"zeEventGetSignalScope", reinterpret_cast<void*>(&zeEventGetSignalScope)},
      {"zeEventGetWaitScope", reinterpret_cast<void*>(&zeEventGetWaitScope)},
      {"zeEventPoolGetContextHandle", reinterpret_cast<void*>(&zeEventPoolGetContextHandle)},
      {"zeEventPoolGetFlags", reinterpret_cast<void*>(&zeEventPoolGetFlags)},
      {"zeEventCounterBasedCreate", reinterpret_cast<void*>(&zeEventCounterBasedCreate)},
      {"zeEventGetCounterBasedFlags", reinterpret_cast<void*>(&zeEventGetCounterBasedFlags)},
      {"zeDeviceGetRootDevice", reinterpret_cast<void*>(&zeDeviceGetRootDevice)},
      {"zeTesseraDeviceGetTopologyProperties",
       reinterpret_cast<void*>(&zeTesseraDeviceGetTopologyProperties)},
      {"zeTesseraDeviceGetPus", reinterpret_cast<void*>(&zeTesseraDeviceGetPus)},
      {"zeTesseraDeviceGetNumaNodes", reinterpret_cast<void*>(&zeTesseraDeviceGetNumaNodes)},
      {"zeTesseraDeviceGetCaches", reinterpret_cast<void*>(&zeTesseraDeviceGetCaches)},
      {"zeTesseraDeviceCreatePartition", reinterpret_cast<void*>(&zeTesseraDeviceCreatePartition)},
      {"zeEventPoolPutIpcHandle", reinterpret_cast<void*>(&zeEventPoolPutIpcHandle)},
      {"zeMemPutIpcHandle", reinterpret_cast<void*>(&zeMemPutIpcHandle)},
      {"zeMemFreeExt", reinterpret_cast<void*>(&zeMemFreeExt)},
      {"zeTesseraModuleGetIL", reinterpret_cast<void*>(&zeTesseraModuleGetIL)},
      {"zeTesseraModuleBuildKernels", reinterpret_cast<void*>(&zeTesseraModuleBuildKernels)},
      {"zeTesseraModuleGetCompiledKernelCount",
       reinterpret_cast<void*>(&zeTesseraModuleGetCompiledKernelCount)},
      {"zeTesseraTraceFlush", reinterpret_cast<void*>(&zeTesseraTraceFlush)},
      {"zeTesseraDriverGetLaunchBalance",
       reinterpret_cast<void*>(&zeTesseraDriverGetLaunchBalance)},
      {"zeTesseraKernelSetWorkDim", reinterpret_cast<void*>(&zeTesseraKernelSetWorkDim)},
      {"zeTesseraKernelSuggestGroupSize",
       reinterpret_cast<void*>(&zeTesseraKernelSuggestGroupSize)},
      {"zeTesseraCommandListAppendLaunchKernelShaped",
       reinterpret_cast<void*>(&zeTesseraCommandListAppendLaunchKernelShaped)},
      {"zeCommandListGetNextCommandIdExp",
       reinterpret_cast<void*>(&zeCommandListGetNextCommandIdExp)},
      {"zeCommandListUpdateMutableCommandsExp",
       reinterpret_cast<void*>(&zeCommandListUpdateMutableCommandsExp)},
      {"zeCommandListUpdateMutableCommandSignalEventExp",
       reinterpret_cast<void*>(&zeCommandListUpdateMutableCommandSignalEventExp)},
      {"zeCommandListUpdateMutableCommandWaitEventsExp",
       reinterpret_cast<void*>(&zeCommandListUpdateMutableCommandWaitEventsExp)},
      {"zeCommandListImmediateAppendCommandListsExp",
       reinterpret_cast<void*>(&zeCommandListImmediateAppendCommandListsExp)},
      // Images: Tessera's own, and the 1.4 headers' extension functions, which the loader's
      // tables also reach.
      {"zeTesseraImageGetMemory", reinterpret_cast<void*>(&zeTesseraImageGetMemory)},
      {"zeImageGetMemoryPropertiesExp", reinterpret_cast<void*>(&zeImageGetMemoryPropertiesExp)},
      {"zeImageViewCreateExp", reinterpret_cast<void*>(&zeImageViewCreateExp)},
      {"zeImageGetAllocPropertiesExt", reinterpret_cast<void*>(&zeImageGetAllocPropertiesExt)},
      {"zeCommandListAppendImageCopyToMemoryExt",
       reinterpret_cast<void*>(&zeCommandListAppendImageCopyToMemoryExt)},
      {"zeCommandListAppendImageCopyFromMemoryExt",
       reinterpret_cast<void*>(&zeCommandListAppendImageCopyFromMemoryExt)},
  };
  for (const Entry& e : table)
    if (std::strcmp(e.name, name) == 0) return e.function;
  return nullptr;
}

}  // namespace tessera::ze
