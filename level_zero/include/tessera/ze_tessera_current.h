/* Core functions of Level Zero 1.14 to 1.17 that Tessera implements, declared from the public
 * specification's ze_api.h (1.17) for headers that lack them (Debian's are 1.4's). Included by
 * tessera/ze_tessera.h, which holds the earlier ones (1.6 to 1.15) and says how they are reached:
 * exported by libze_tessera.so.1, returned by zeDriverGetExtensionFunctionAddress under these
 * names, and put in the DDI table slots of a loader that asks for the version that added them
 * (level_zero/ze_ddi_tables_current.cpp). docs/api-coverage.md, "Level Zero after 1.4", lists
 * each with its state. */
#ifndef TESSERA_ZE_TESSERA_CURRENT_H
#define TESSERA_ZE_TESSERA_CURRENT_H

#include <level_zero/ze_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1.14: "Retrieves handle to default context from the driver." "This returned context contains
 * all the devices available in the driver"; "In case of failure, this function returns null.
 * Details on the error can be retrieved using zeDriverGetLastErrorDescription function."
 * Tessera: made on the first call and owned by the driver; zeContextDestroy refuses it
 * (ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE), so no user of it is left with a dead handle. */
ZE_APIEXPORT ze_context_handle_t ZE_APICALL zeDriverGetDefaultContext(ze_driver_handle_t hDriver);
typedef ze_context_handle_t(ZE_APICALL* ze_pfnDriverGetDefaultContext_t)(ze_driver_handle_t);

/* 1.14: "Synchronizes all command queues related to the device." "This function blocks until all
 * preceding submissions to all queues on the device are completed." Tessera: the command queues
 * and immediate lists of the device and of its sub-devices, in every context. */
ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceSynchronize(ze_device_handle_t hDevice);
typedef ze_result_t(ZE_APICALL* ze_pfnDeviceSynchronize_t)(ze_device_handle_t);

/* 1.15: "Retrieves memory properties of the physical memory object." */
#define ZE_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES ((ze_structure_type_t)0x00020040)
typedef struct _ze_physical_mem_properties_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES */
  void* pNext;               /* [in,out][optional] */
  uint64_t id;               /* [out] "unique identifier for the physical memory object" */
  uint64_t size;             /* [out] "size of the physical memory object in bytes" */
} ze_physical_mem_properties_t;
ZE_APIEXPORT ze_result_t ZE_APICALL zePhysicalMemGetProperties(
    ze_context_handle_t hContext, ze_physical_mem_handle_t hPhysicalMem,
    ze_physical_mem_properties_t* pMemProperties);
typedef ze_result_t(ZE_APICALL* ze_pfnPhysicalMemGetProperties_t)(
    ze_context_handle_t, ze_physical_mem_handle_t, ze_physical_mem_properties_t*);

/* 1.15: "Creates an IPC memory handle for the specified allocation with properties for the
 * requested handle." pNext may chain ze_ipc_mem_handle_type_ext_desc_t
 * (ZE_extension_ipc_mem_handle_type, listed; also chained to zeMemAllocDevice, zeMemAllocHost and
 * zePhysicalMemCreate "to specify the IPC memory handle type to create for this allocation").
 * Tessera: the handle zeMemGetIpcHandle makes, for ZE_IPC_MEM_HANDLE_TYPE_FLAG_DEFAULT or no type;
 * FABRIC_ACCESSIBLE is UNSUPPORTED_FEATURE (no fabric), at allocation too. */
#ifndef ZE_IPC_MEM_HANDLE_TYPE_EXT_NAME
#define ZE_IPC_MEM_HANDLE_TYPE_EXT_NAME "ZE_extension_ipc_mem_handle_type"
#define ZE_STRUCTURE_TYPE_IPC_MEM_HANDLE_TYPE_EXT_DESC ((ze_structure_type_t)0x0002003D)
typedef uint32_t ze_ipc_mem_handle_type_flags_t;
#define ZE_IPC_MEM_HANDLE_TYPE_FLAG_DEFAULT ((ze_ipc_mem_handle_type_flags_t)ZE_BIT(0))
#define ZE_IPC_MEM_HANDLE_TYPE_FLAG_FABRIC_ACCESSIBLE ((ze_ipc_mem_handle_type_flags_t)ZE_BIT(1))
typedef struct _ze_ipc_mem_handle_type_ext_desc_t {
  ze_structure_type_t stype;
  const void* pNext;
  ze_ipc_mem_handle_type_flags_t typeFlags; /* [in] */
} ze_ipc_mem_handle_type_ext_desc_t;
#endif
ZE_APIEXPORT ze_result_t ZE_APICALL zeMemGetIpcHandleWithProperties(ze_context_handle_t hContext,
                                                                    const void* ptr, void* pNext,
                                                                    ze_ipc_mem_handle_t* pIpcHandle);
typedef ze_result_t(ZE_APICALL* ze_pfnMemGetIpcHandleWithProperties_t)(ze_context_handle_t,
                                                                       const void*, void*,
                                                                       ze_ipc_mem_handle_t*);

/* 1.15: IPC counter-based events. "Gets an IPC counter based event handle that can be shared with
 * another process"; "Opens an IPC event handle to retrieve from another process" ("Any context of
 * the importing process may be used"; "Any device of the importing process may signal the opened
 * event. Enqueuing a signal operation overwrites the previous tracking point"); "Closes an IPC
 * event handle in the current process". Tessera: an event created with
 * ZE_EVENT_COUNTER_BASED_FLAG_IPC keeps its counter in a memfd; the handle names it and the value
 * the event's last signalling append will store, which the opened event waits for (on the host or
 * in the importer's lists). An event without the flag, or an opened one, has no handle
 * (ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT); a handle that names no live exported event is
 * ZE_RESULT_ERROR_INVALID_ARGUMENT. */
#ifndef ZE_MAX_IPC_HANDLE_SIZE
#define ZE_MAX_IPC_HANDLE_SIZE 64
#endif
typedef struct _ze_ipc_event_counter_based_handle_t {
  char data[ZE_MAX_IPC_HANDLE_SIZE]; /* [out] "Opaque data representing an IPC handle" */
} ze_ipc_event_counter_based_handle_t;
ZE_APIEXPORT ze_result_t ZE_APICALL zeEventCounterBasedGetIpcHandle(
    ze_event_handle_t hEvent, ze_ipc_event_counter_based_handle_t* phIpc);
ZE_APIEXPORT ze_result_t ZE_APICALL zeEventCounterBasedOpenIpcHandle(
    ze_context_handle_t hContext, ze_ipc_event_counter_based_handle_t hIpc,
    ze_event_handle_t* phEvent);
ZE_APIEXPORT ze_result_t ZE_APICALL zeEventCounterBasedCloseIpcHandle(ze_event_handle_t hEvent);
typedef ze_result_t(ZE_APICALL* ze_pfnEventCounterBasedGetIpcHandle_t)(
    ze_event_handle_t, ze_ipc_event_counter_based_handle_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnEventCounterBasedOpenIpcHandle_t)(
    ze_context_handle_t, ze_ipc_event_counter_based_handle_t, ze_event_handle_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnEventCounterBasedCloseIpcHandle_t)(ze_event_handle_t);

/* 1.15: "Returns unique increment value that can be used for Event creation with external storage
 * provided by user" ("when user is not able define number of internal driver operations during
 * given append call, for example dividing copy into multiple engines"). Tessera: 1, since every
 * append that signals a counter-based event raises its counter by one however it runs. */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeDeviceGetAggregatedCopyOffloadIncrementValue(ze_device_handle_t hDevice, uint32_t* incrementValue);
typedef ze_result_t(ZE_APICALL* ze_pfnDeviceGetAggregatedCopyOffloadIncrementValue_t)(
    ze_device_handle_t, uint32_t*);

/* 1.17: the queries of what a list or queue was created with ("The implementation of this function
 * should be lock-free"). The immediate list queries answer ZE_RESULT_ERROR_INVALID_NULL_POINTER
 * for a regular list, where their headers list "handle does not correspond to an immediate command
 * list". zeCommandListGetFlags of an immediate list: the list flags its queue flags stand for. */
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListGetFlags(ze_command_list_handle_t hCommandList,
                                                          ze_command_list_flags_t* pFlags);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListImmediateGetFlags(
    ze_command_list_handle_t hCommandList, ze_command_queue_flags_t* pFlags);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListImmediateGetMode(
    ze_command_list_handle_t hCommandList, ze_command_queue_mode_t* pMode);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListImmediateGetPriority(
    ze_command_list_handle_t hCommandList, ze_command_queue_priority_t* pPriority);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListIsMutableExp(ze_command_list_handle_t hCommandList,
                                                              ze_bool_t* pIsMutable);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandQueueGetFlags(ze_command_queue_handle_t hCmdQueue,
                                                           ze_command_queue_flags_t* pFlags);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandQueueGetMode(ze_command_queue_handle_t hCmdQueue,
                                                          ze_command_queue_mode_t* pMode);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandQueueGetPriority(
    ze_command_queue_handle_t hCmdQueue, ze_command_queue_priority_t* pPriority);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListGetFlags_t)(ze_command_list_handle_t,
                                                             ze_command_list_flags_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListImmediateGetFlags_t)(ze_command_list_handle_t,
                                                                      ze_command_queue_flags_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListImmediateGetMode_t)(ze_command_list_handle_t,
                                                                     ze_command_queue_mode_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListImmediateGetPriority_t)(
    ze_command_list_handle_t, ze_command_queue_priority_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListIsMutableExp_t)(ze_command_list_handle_t,
                                                                 ze_bool_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandQueueGetFlags_t)(ze_command_queue_handle_t,
                                                              ze_command_queue_flags_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandQueueGetMode_t)(ze_command_queue_handle_t,
                                                             ze_command_queue_mode_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandQueueGetPriority_t)(ze_command_queue_handle_t,
                                                                 ze_command_queue_priority_t*);

/* 1.17: "Returns maximum value supported by the driver for Counter Based Events created with
 * externally managed counter storage". Tessera: UINT64_MAX, its counters' width (external
 * aggregate storage is taken; the external sync allocation is refused with
 * ZE_RESULT_ERROR_UNSUPPORTED_FEATURE). */
ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetCounterBasedEventMaxValue(ze_device_handle_t hDevice,
                                                                         uint64_t* maxValue);
typedef ze_result_t(ZE_APICALL* ze_pfnDeviceGetCounterBasedEventMaxValue_t)(ze_device_handle_t,
                                                                            uint64_t*);

/* 1.17: "Appends a host function call into a command list." "The host function will be executed
 * on the host when the command list reaches this point during execution"; "The host function must
 * not call any Level Zero API functions"; "Device will wait for all phWaitEvents to be signaled
 * before executing the host function." Tessera calls it on the executor thread of the queue that
 * runs the list, after the commands before it completed and before the commands after it start
 * (a SYNCHRONOUS immediate list runs every command within its append, this one too).
 * A null pfnHostFunction: ZE_RESULT_ERROR_INVALID_ARGUMENT; any pNext:
 * ZE_RESULT_ERROR_UNSUPPORTED_FEATURE ("an extension passed via pNext is not supported"). */
typedef void (*ze_host_function_callback_t)(void* pUserData); /* ZE_CALLBACK_CONV: none on Linux */
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendHostFunction(
    ze_command_list_handle_t hCommandList, ze_host_function_callback_t pfnHostFunction,
    void* pUserData, const void* pNext, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListAppendHostFunction_t)(
    ze_command_list_handle_t, ze_host_function_callback_t, void*, const void*, ze_event_handle_t,
    uint32_t, ze_event_handle_t*);

/* 1.14 and 1.16: the appends "with additional parameters". zeCommandListAppendLaunchKernel-
 * WithParameters takes ze_command_list_append_launch_kernel_param_cooperative_desc_t in pNext (a
 * cooperative launch, as zeCommandListAppendLaunchCooperativeKernel); the others define no pNext
 * structure. Any other structure: ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, nothing appended;
 * otherwise each is the append it extends, with its checks and errors. */
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendLaunchKernelWithParameters(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t* pGroupCounts, const void* pNext, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendMemoryCopyWithParameters(
    ze_command_list_handle_t hCommandList, void* dstptr, const void* srcptr, size_t size,
    const void* pNext, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendMemoryFillWithParameters(
    ze_command_list_handle_t hCommandList, void* ptr, const void* pattern, size_t pattern_size,
    size_t size, const void* pNext, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListImmediateAppendCommandListsWithParameters(
    ze_command_list_handle_t hCommandListImmediate, uint32_t numCommandLists,
    ze_command_list_handle_t* phCommandLists, const void* pNext, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListAppendLaunchKernelWithParameters_t)(
    ze_command_list_handle_t, ze_kernel_handle_t, const ze_group_count_t*, const void*,
    ze_event_handle_t, uint32_t, ze_event_handle_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListAppendMemoryCopyWithParameters_t)(
    ze_command_list_handle_t, void*, const void*, size_t, const void*, ze_event_handle_t, uint32_t,
    ze_event_handle_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListAppendMemoryFillWithParameters_t)(
    ze_command_list_handle_t, void*, const void*, size_t, size_t, const void*, ze_event_handle_t,
    uint32_t, ze_event_handle_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListImmediateAppendCommandListsWithParameters_t)(
    ze_command_list_handle_t, uint32_t, ze_command_list_handle_t*, const void*, ze_event_handle_t,
    uint32_t, ze_event_handle_t*);

/* 1.17: "Level-Zero Extension for Record and Replay of Graphs" (ZE_extension_record_replay_graph
 * 1.0), and Intel's ZE_experimental_record_replay_graph (compute-runtime's zex_graph.h), the same
 * operations under Exp names with pNext and the output swapped in three of them. Tessera
 * (core/cmdlist/graph.h): appends to an immediate list in capture mode are recorded into one
 * regular list in append order, forks included ("If an event signaled by a captured command list
 * is used in the wait list of another immediate command list, that command list also enters graph
 * capture mode"), and a replay runs them in that order as one submission. Graphs are immutable;
 * command lists and executable graphs appended to a capturing list have their commands recorded
 * into the capture (sub-graphs); zeGraphDumpContentsExt writes DOT. The queries answer ZE_RESULT_QUERY_TRUE / _FALSE
 * (0x78000022 / 0x78000023; Intel's Exp names: 0x7fff0000 / 0x7fff0001, zex_graph.h's values). */
#ifndef ZE_RECORD_REPLAY_GRAPH_EXT_NAME
#define ZE_RECORD_REPLAY_GRAPH_EXT_NAME "ZE_extension_record_replay_graph"
typedef enum _ze_record_replay_graph_ext_version_t {
  ZE_RECORD_REPLAY_GRAPH_EXT_VERSION_1_0 = ZE_MAKE_VERSION(1, 0),
  ZE_RECORD_REPLAY_GRAPH_EXT_VERSION_CURRENT = ZE_MAKE_VERSION(1, 0),
  ZE_RECORD_REPLAY_GRAPH_EXT_VERSION_FORCE_UINT32 = 0x7fffffff
} ze_record_replay_graph_ext_version_t;
typedef struct _ze_graph_handle_t* ze_graph_handle_t;
typedef struct _ze_executable_graph_handle_t* ze_executable_graph_handle_t;
typedef void(ZE_APICALL* zex_mem_graph_free_callback_fn_t)(void* pUserData);
typedef uint32_t ze_record_replay_graph_ext_flags_t;
#define ZE_RECORD_REPLAY_GRAPH_EXT_FLAG_IMMUTABLE_GRAPH ((ze_record_replay_graph_ext_flags_t)ZE_BIT(0))
#define ZE_RECORD_REPLAY_GRAPH_EXT_FLAG_MUTABLE_GRAPH ((ze_record_replay_graph_ext_flags_t)ZE_BIT(1))
#define ZE_RECORD_REPLAY_GRAPH_EXT_FLAG_SUBGRAPHS ((ze_record_replay_graph_ext_flags_t)ZE_BIT(2))
#define ZE_RECORD_REPLAY_GRAPH_EXT_FLAG_APPEND_COMMANDLIST \
  ((ze_record_replay_graph_ext_flags_t)ZE_BIT(3))
#define ZE_RECORD_REPLAY_GRAPH_EXT_FLAG_CB_EXTERNAL_IPC ((ze_record_replay_graph_ext_flags_t)ZE_BIT(4))
#define ZE_STRUCTURE_TYPE_RECORD_REPLAY_GRAPH_EXT_PROPERTIES ((ze_structure_type_t)0x00020047)
/* "Supported Record and Replay Graph properties. This structure is accepted as pNext to
 * ze_device_properties_t." Tessera: IMMUTABLE_GRAPH, SUBGRAPHS and APPEND_COMMANDLIST (no mutable
 * graphs, no IPC counter-based events). */
typedef struct _ze_record_replay_graph_ext_properties_t {
  ze_structure_type_t stype;
  void* pNext;
  ze_record_replay_graph_ext_flags_t graphFlags; /* [out] */
} ze_record_replay_graph_ext_properties_t;
#endif
/* 1.17: "Virtual Memory Read-Only Properties" (ZE_extension_virtual_mem_readonly_properties 1.0):
 * what ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY does to a virtual memory page, "returned from
 * zeDeviceGetProperties via the pNext member of ze_device_properties_t". Tessera: ENFORCED (the
 * page is mapped PROT_READ; a kernel's or a copy's write faults and loses the context). */
#ifndef ZE_VIRTUAL_MEM_READONLY_PROPERTIES_EXT_NAME
#define ZE_VIRTUAL_MEM_READONLY_PROPERTIES_EXT_NAME "ZE_extension_virtual_mem_readonly_properties"
typedef enum _ze_virtual_mem_readonly_properties_ext_version_t {
  ZE_VIRTUAL_MEM_READONLY_PROPERTIES_EXT_VERSION_1_0 = ZE_MAKE_VERSION(1, 0),
  ZE_VIRTUAL_MEM_READONLY_PROPERTIES_EXT_VERSION_CURRENT = ZE_MAKE_VERSION(1, 0),
  ZE_VIRTUAL_MEM_READONLY_PROPERTIES_EXT_VERSION_FORCE_UINT32 = 0x7fffffff
} ze_virtual_mem_readonly_properties_ext_version_t;
typedef enum _ze_device_readonly_memory_capability_t {
  ZE_DEVICE_READONLY_MEMORY_CAPABILITY_NONE = 0,
  ZE_DEVICE_READONLY_MEMORY_CAPABILITY_HINT = 1,
  ZE_DEVICE_READONLY_MEMORY_CAPABILITY_ENFORCED = 2,
  ZE_DEVICE_READONLY_MEMORY_CAPABILITY_FORCE_UINT32 = 0x7fffffff
} ze_device_readonly_memory_capability_t;
#define ZE_STRUCTURE_TYPE_DEVICE_READONLY_MEMORY_EXT_PROPERTIES ((ze_structure_type_t)0x10015)
typedef struct _ze_device_readonly_memory_ext_properties_t {
  ze_structure_type_t stype;
  void* pNext;
  ze_device_readonly_memory_capability_t readonlyCapability; /* [out] */
} ze_device_readonly_memory_ext_properties_t;
#endif
#define ZE_RECORD_REPLAY_GRAPH_EXP_NAME_TESSERA "ZE_experimental_record_replay_graph"
ZE_APIEXPORT ze_result_t ZE_APICALL zeGraphCreateExt(ze_context_handle_t hContext,
                                                     const void* pNext, ze_graph_handle_t* phGraph);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListBeginGraphCaptureExt(
    ze_command_list_handle_t hCommandList, const void* pNext);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListBeginCaptureIntoGraphExt(
    ze_command_list_handle_t hCommandList, ze_graph_handle_t hGraph, const void* pNext);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListIsGraphCaptureEnabledExt(
    ze_command_list_handle_t hCommandList);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListEndGraphCaptureExt(
    ze_command_list_handle_t hCommandList, const void* pNext, ze_graph_handle_t* phGraph);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListGetGraphExt(ze_command_list_handle_t hCommandList,
                                                             ze_graph_handle_t* phGraph);
ZE_APIEXPORT ze_result_t ZE_APICALL zeGraphGetPrimaryCommandListExt(
    ze_graph_handle_t hGraph, ze_command_list_handle_t* phCommandList);
ZE_APIEXPORT ze_result_t ZE_APICALL zeGraphSetDestructionCallbackExt(
    ze_graph_handle_t hGraph, zex_mem_graph_free_callback_fn_t pfnCallback, void* pUserData,
    const void* pNext);
ZE_APIEXPORT ze_result_t ZE_APICALL zeGraphInstantiateExt(
    ze_graph_handle_t hGraph, const void* pNext, ze_executable_graph_handle_t* phExecutableGraph);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendGraphExt(
    ze_command_list_handle_t hCommandList, ze_executable_graph_handle_t hGraph, const void* pNext,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents);
ZE_APIEXPORT ze_result_t ZE_APICALL zeExecutableGraphGetSourceGraphExt(
    ze_executable_graph_handle_t hGraph, ze_graph_handle_t* phSourceGraph);
ZE_APIEXPORT ze_result_t ZE_APICALL zeGraphIsEmptyExt(ze_graph_handle_t hGraph);
ZE_APIEXPORT ze_result_t ZE_APICALL zeGraphDumpContentsExt(ze_graph_handle_t hGraph,
                                                           const char* filePath, const void* pNext);
ZE_APIEXPORT ze_result_t ZE_APICALL zeExecutableGraphDestroyExt(ze_executable_graph_handle_t hGraph);
ZE_APIEXPORT ze_result_t ZE_APICALL zeGraphDestroyExt(ze_graph_handle_t hGraph);
/* Intel's names (zex_graph.h), not exported (Intel's library's symbols): reached through
 * zeDriverGetExtensionFunctionAddress. */
ze_result_t ZE_APICALL zeGraphCreateExp(ze_context_handle_t hContext, ze_graph_handle_t* phGraph,
                                        void* pNext);
ze_result_t ZE_APICALL zeCommandListBeginGraphCaptureExp(ze_command_list_handle_t hCommandList,
                                                         void* pNext);
ze_result_t ZE_APICALL zeCommandListBeginCaptureIntoGraphExp(ze_command_list_handle_t hCommandList,
                                                             ze_graph_handle_t hGraph, void* pNext);
ze_result_t ZE_APICALL zeCommandListEndGraphCaptureExp(ze_command_list_handle_t hCommandList,
                                                       ze_graph_handle_t* phGraph, void* pNext);
ze_result_t ZE_APICALL zeCommandListInstantiateGraphExp(
    ze_graph_handle_t hGraph, ze_executable_graph_handle_t* phExecutableGraph, void* pNext);
ze_result_t ZE_APICALL zeCommandListAppendGraphExp(ze_command_list_handle_t hCommandList,
                                                   ze_executable_graph_handle_t hGraph,
                                                   void* pNext, ze_event_handle_t hSignalEvent,
                                                   uint32_t numWaitEvents,
                                                   ze_event_handle_t* phWaitEvents);
ze_result_t ZE_APICALL zeGraphDestroyExp(ze_graph_handle_t hGraph);
ze_result_t ZE_APICALL zeExecutableGraphDestroyExp(ze_executable_graph_handle_t hGraph);
ze_result_t ZE_APICALL zeCommandListIsGraphCaptureEnabledExp(ze_command_list_handle_t hCommandList);
ze_result_t ZE_APICALL zeGraphIsEmptyExp(ze_graph_handle_t hGraph);
ze_result_t ZE_APICALL zeGraphDumpContentsExp(ze_graph_handle_t hGraph, const char* filePath,
                                              void* pNext);
ze_result_t ZE_APICALL zeCommandListGetGraphExp(ze_command_list_handle_t hCommandList,
                                                ze_graph_handle_t* phGraph);
ze_result_t ZE_APICALL zeGraphSetDestructionCallbackExp(ze_graph_handle_t hGraph,
                                                        zex_mem_graph_free_callback_fn_t pfnCallback,
                                                        void* pUserData, void* pNext);

/* 1.16: runtime requirements. "Gathers null-terminated plain text representation of runtime
 * requirements for provided object" (a module or a graph, described by pObjDesc); "Retrieves
 * requirements producer key"; "Validates runtime requirements" ("e.g. cached from previous runs").
 * Tessera: the text names the code target its native code is made for and loaded under (the host
 * CPU, its LLVM feature string, the toolchain), the same for every module and graph of the driver;
 * the key is "TESSERA.L0.CPU"; validation answers REQUIREMENTS_MET when all three are this
 * process's, REQUIREMENTS_NOT_MET otherwise, NOT_APPLICABLE for text that is not Tessera's
 * (core/module/runtime_requirements.h). pSize counts the terminating null. */
#define ZE_STRUCTURE_TYPE_RUNTIME_REQUIREMENTS_MODULE_DESC ((ze_structure_type_t)0x00020044)
#define ZE_STRUCTURE_TYPE_RUNTIME_REQUIREMENTS_GRAPH_DESC ((ze_structure_type_t)0x00020045)
#define ZE_STRUCTURE_TYPE_RUNTIME_REQUIREMENTS_OUTPUT ((ze_structure_type_t)0x00020046)
typedef struct _ze_runtime_requirements_module_desc_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_RUNTIME_REQUIREMENTS_MODULE_DESC */
  const void* pNext;         /* [in][optional] */
  ze_module_handle_t requirementsSrc; /* [in] "Module for which the requirements are being gathered" */
} ze_runtime_requirements_module_desc_t;
typedef struct _ze_runtime_requirements_graph_desc_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_RUNTIME_REQUIREMENTS_GRAPH_DESC */
  const void* pNext;         /* [in][optional] */
  ze_graph_handle_t requirementsSrc; /* [in] "Graph for which the requirements are being gathered" */
} ze_runtime_requirements_graph_desc_t;
typedef enum _ze_validate_runtime_requirements_result_t {
  ZE_VALIDATE_RUNTIME_REQUIREMENTS_RESULT_NOT_APPLICABLE = 0,
  ZE_VALIDATE_RUNTIME_REQUIREMENTS_RESULT_REQUIREMENTS_MET = 1,
  ZE_VALIDATE_RUNTIME_REQUIREMENTS_RESULT_REQUIREMENTS_MET_RECOMPILATION_ADVISABLE = 2,
  ZE_VALIDATE_RUNTIME_REQUIREMENTS_RESULT_REQUIREMENTS_NOT_MET = 3,
  ZE_VALIDATE_RUNTIME_REQUIREMENTS_RESULT_FORCE_UINT32 = 0x7fffffff
} ze_validate_runtime_requirements_result_t;
typedef struct _ze_validate_runtime_requirements_output_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_RUNTIME_REQUIREMENTS_OUTPUT */
  void* pNext;               /* [in,out][optional] */
  ze_validate_runtime_requirements_result_t result; /* [out] */
} ze_validate_runtime_requirements_output_t;
ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetRuntimeRequirements(ze_device_handle_t hDevice,
                                                                   const void* pObjDesc,
                                                                   size_t* pSize,
                                                                   char* pRequirements);
ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetRuntimeRequirementsKey(ze_device_handle_t hDevice,
                                                                      const char** pKey);
ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceValidateRuntimeRequirements(
    ze_device_handle_t hDevice, const char* pRequirements,
    ze_validate_runtime_requirements_output_t* pOut);
typedef ze_result_t(ZE_APICALL* ze_pfnDeviceGetRuntimeRequirements_t)(ze_device_handle_t,
                                                                       const void*, size_t*,
                                                                       char*);
typedef ze_result_t(ZE_APICALL* ze_pfnDeviceGetRuntimeRequirementsKey_t)(ze_device_handle_t,
                                                                          const char**);
typedef ze_result_t(ZE_APICALL* ze_pfnDeviceValidateRuntimeRequirements_t)(
    ze_device_handle_t, const char*, ze_validate_runtime_requirements_output_t*);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_ZE_TESSERA_CURRENT_H */
