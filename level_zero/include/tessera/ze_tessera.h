/* Tessera's additions to the Level Zero 1.4 headers: functions of later Level Zero specifications that
 * Tessera implements, declared here from the public specification, and Tessera's own extensions.
 * Each is exported by libze_tessera.so.1 and returned by zeDriverGetExtensionFunctionAddress (through
 * the official loader, which does not know these names, the latter is the way to reach them). */
#ifndef TESSERA_ZE_TESSERA_H
#define TESSERA_ZE_TESSERA_H

#include <level_zero/ze_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Extension "ZE_tessera_root_device", version 1.0: zeDeviceGetRootDevice from Level Zero 1.9.
 *
 * "Retrieves the root-device of a device handle." *phRootDevice is set to null when hDevice has no
 * root-device: a root device, and every device when ZE_FLAT_DEVICE_HIERARCHY=FLAT ("zeDeviceGetRootDevice
 * returning nullptr"). For a sub-device nested several levels deep it is the top-most device. */
#define ZE_TESSERA_ROOT_DEVICE_EXT_NAME "ZE_tessera_root_device"
#define ZE_TESSERA_ROOT_DEVICE_EXT_VERSION ZE_MAKE_VERSION(1, 0)

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetRootDevice(ze_device_handle_t hDevice,
                                                          ze_device_handle_t* phRootDevice);
typedef ze_result_t(ZE_APICALL* ze_pfnDeviceGetRootDevice_t)(ze_device_handle_t,
                                                             ze_device_handle_t*);

/* zeEventPoolPutIpcHandle from Level Zero 1.6: "Returns an IPC event pool handle to the driver."
 * Reached through zeDriverGetExtensionFunctionAddress (extension "ZE_tessera_event_pool_put_ipc"). */
#define ZE_TESSERA_EVENT_POOL_PUT_IPC_EXT_NAME "ZE_tessera_event_pool_put_ipc"
#define ZE_TESSERA_EVENT_POOL_PUT_IPC_EXT_VERSION ZE_MAKE_VERSION(1, 0)
ZE_APIEXPORT ze_result_t ZE_APICALL zeEventPoolPutIpcHandle(ze_context_handle_t hContext,
                                                            ze_ipc_event_pool_handle_t hIpc);
typedef ze_result_t(ZE_APICALL* ze_pfnEventPoolPutIpcHandle_t)(ze_context_handle_t,
                                                               ze_ipc_event_pool_handle_t);

/* Tessera's OpenCL C builtins, provided by the kernel JIT to any module that declares them (no
 * zeModuleDynamicLink needed):
 *   uint tessera_current_pu(void);   the OS index of the PU the calling work-item runs on
 * (samples/ze_subdevices uses it to show where a sub-device's work ran.) */

/* Extension "ZE_tessera_device_topology", version 1.0: where a device sits in the machine, as hwloc
 * sees it. Tools (tessera-info) and the OpenCL layer (partition by names and affinity domains) use it.
 * Count-style functions follow zeDeviceGet's protocol. */
#define ZE_TESSERA_DEVICE_TOPOLOGY_EXT_NAME "ZE_tessera_device_topology"
#define ZE_TESSERA_DEVICE_TOPOLOGY_EXT_VERSION ZE_MAKE_VERSION(1, 0)

/* The level of the machine whose object cut the device out (MACHINE for the whole machine). */
typedef enum _ze_tessera_device_level_t {
  ZE_TESSERA_DEVICE_LEVEL_MACHINE = 0,
  ZE_TESSERA_DEVICE_LEVEL_PACKAGE = 1,
  ZE_TESSERA_DEVICE_LEVEL_NUMA = 2,
  ZE_TESSERA_DEVICE_LEVEL_L3 = 3,
  ZE_TESSERA_DEVICE_LEVEL_L2 = 4,
  ZE_TESSERA_DEVICE_LEVEL_FORCE_UINT32 = 0x7fffffff
} ze_tessera_device_level_t;

/* Tessera's own structure types live far from the spec's. */
#define ZE_STRUCTURE_TYPE_TESSERA_DEVICE_TOPOLOGY_PROPERTIES ((ze_structure_type_t)0x7e550001)

typedef struct _ze_tessera_device_topology_properties_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_TESSERA_DEVICE_TOPOLOGY_PROPERTIES */
  void* pNext;               /* [in,out][optional] */
  ze_tessera_device_level_t level; /* [out] */
  uint32_t objectIndex;      /* [out] hwloc logical index of that object among its level */
  uint32_t numPus;           /* [out] processing units (hardware threads): the compute units */
  uint32_t numCores;         /* [out] cores with at least one of the device's PUs */
  uint32_t numPackages;      /* [out] packages with at least one of the device's PUs */
  uint32_t depth;            /* [out] 0 for a device without a root-device, 1 for its sub-devices... */
} ze_tessera_device_topology_properties_t;

typedef struct _ze_tessera_cache_t {
  uint32_t level;         /* 1, 2, 3... */
  uint32_t instances;     /* caches of this level that serve the device's PUs */
  uint64_t bytesPerCache;
  uint32_t lineBytes;
  ze_bool_t unified;      /* data and instructions; otherwise a data cache */
} ze_tessera_cache_t;

ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraDeviceGetTopologyProperties(
    ze_device_handle_t hDevice, ze_tessera_device_topology_properties_t* pProperties);
/* The OS indices of the device's PUs, in increasing order. */
ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraDeviceGetPus(ze_device_handle_t hDevice,
                                                          uint32_t* pCount, uint32_t* pPus);
/* The OS indices of the NUMA nodes the device's PUs belong to, in increasing order. */
ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraDeviceGetNumaNodes(ze_device_handle_t hDevice,
                                                                uint32_t* pCount,
                                                                uint32_t* pNodes);
/* The data and unified caches the device's PUs use, by increasing level. */
ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraDeviceGetCaches(ze_device_handle_t hDevice,
                                                             uint32_t* pCount,
                                                             ze_tessera_cache_t* pCaches);

typedef ze_result_t(ZE_APICALL* ze_pfnTesseraDeviceGetTopologyProperties_t)(
    ze_device_handle_t, ze_tessera_device_topology_properties_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnTesseraDeviceGetPus_t)(ze_device_handle_t, uint32_t*,
                                                             uint32_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnTesseraDeviceGetNumaNodes_t)(ze_device_handle_t, uint32_t*,
                                                                   uint32_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnTesseraDeviceGetCaches_t)(ze_device_handle_t, uint32_t*,
                                                                ze_tessera_cache_t*);

/* From Level Zero 1.6: "zeMemPutIpcHandle: Returns an IPC memory handle to the driver". After the
 * last put of a handle (each zeMemGetIpcHandle counts once), processes can no longer open it;
 * mappings already open stay valid. zeMemFree does the same for handles not put. */
ZE_APIEXPORT ze_result_t ZE_APICALL zeMemPutIpcHandle(ze_context_handle_t hContext,
                                                      ze_ipc_mem_handle_t handle);
typedef ze_result_t(ZE_APICALL* ze_pfnMemPutIpcHandle_t)(ze_context_handle_t, ze_ipc_mem_handle_t);

/* Extension "ZE_extension_memory_free_policies", version 1.0, from Level Zero 1.7: zeMemFreeExt.
 * BLOCKING_FREE waits until no command in flight uses the memory, then frees it; DEFER_FREE frees
 * it now if unused, else when the last command using it completes, and returns at once. No policy
 * is zeMemFree. */
#ifndef ZE_MEMORY_FREE_POLICIES_EXT_NAME
#define ZE_MEMORY_FREE_POLICIES_EXT_NAME "ZE_extension_memory_free_policies"
#define ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES ((ze_structure_type_t)0x10009)
#define ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC ((ze_structure_type_t)0x1000a)

typedef enum _ze_memory_free_policies_ext_version_t {
  ZE_MEMORY_FREE_POLICIES_EXT_VERSION_1_0 = ZE_MAKE_VERSION(1, 0),
  ZE_MEMORY_FREE_POLICIES_EXT_VERSION_CURRENT = ZE_MAKE_VERSION(1, 0),
  ZE_MEMORY_FREE_POLICIES_EXT_VERSION_FORCE_UINT32 = 0x7fffffff
} ze_memory_free_policies_ext_version_t;

typedef uint32_t ze_driver_memory_free_policy_ext_flags_t;
typedef enum _ze_driver_memory_free_policy_ext_flag_t {
  ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE = ZE_BIT(0),
  ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE = ZE_BIT(1),
  ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_FORCE_UINT32 = 0x7fffffff
} ze_driver_memory_free_policy_ext_flag_t;

/* Chained to ze_driver_properties_t: the policies zeMemFreeExt supports. */
typedef struct _ze_driver_memory_free_ext_properties_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES */
  void* pNext;               /* [in,out][optional] */
  ze_driver_memory_free_policy_ext_flags_t freePolicies; /* [out] */
} ze_driver_memory_free_ext_properties_t;

typedef struct _ze_memory_free_ext_desc_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC */
  const void* pNext;         /* [in][optional] */
  ze_driver_memory_free_policy_ext_flags_t freePolicy; /* [in] 0 or one policy */
} ze_memory_free_ext_desc_t;
#endif

ZE_APIEXPORT ze_result_t ZE_APICALL zeMemFreeExt(ze_context_handle_t hContext,
                                                 const ze_memory_free_ext_desc_t* pMemFreeDesc,
                                                 void* ptr);
typedef ze_result_t(ZE_APICALL* ze_pfnMemFreeExt_t)(ze_context_handle_t,
                                                    const ze_memory_free_ext_desc_t*, void*);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_ZE_TESSERA_H */
