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

/* Flags of later Level Zero specifications that Debian's 1.4 headers lack (Tessera-prefixed, so that
 * they never clash with the enumerators of newer headers, which have the same values).
 * ze_command_list_flag_t (1.9):
 * - ZE_COMMAND_LIST_FLAG_IN_ORDER = ZE_BIT(3): "commands appended to this command list are executed
 *   in-order, with driver implementation enforcing dependencies between them. Application is not
 *   required to have the signal event of a given command being the wait event of the next to define
 *   an in-order list, and application is allowed to pass signal and wait events to each appended
 *   command to implement more complex dependency graphs. Cannot be combined with
 *   ZE_COMMAND_LIST_FLAG_RELAXED_ORDERING."
 * - ZE_COMMAND_LIST_FLAG_EXP_CLONEABLE = ZE_BIT(4) (the command list clone extension; not supported).
 * - ZE_COMMAND_LIST_FLAG_COPY_OFFLOAD_HINT = ZE_BIT(5): "Try to offload copy operations to different
 *   engines. Applicable only for compute queues. This is only a hint. Driver may ignore it per append
 *   call, based on platform capabilities or internal heuristics."
 * ze_command_queue_flag_t (1.9): ZE_COMMAND_QUEUE_FLAG_IN_ORDER = ZE_BIT(1) ("To be used only when
 * creating immediate command lists. Commands appended to the immediate command list are executed
 * in-order ..."), ZE_COMMAND_QUEUE_FLAG_COPY_OFFLOAD_HINT = ZE_BIT(2) (the same hint).
 * Intel's driver also takes the hint as a structure in the queue descriptor's pNext chain
 * (zex_intel_queue_copy_operations_offload_hint_exp_desc_t, stype 0x0003001B); Tessera ignores it
 * as it ignores every chained structure it does not know. */
#define TESSERA_ZE_COMMAND_LIST_FLAG_IN_ORDER ((ze_command_list_flags_t)ZE_BIT(3))
#define TESSERA_ZE_COMMAND_LIST_FLAG_EXP_CLONEABLE ((ze_command_list_flags_t)ZE_BIT(4))
#define TESSERA_ZE_COMMAND_LIST_FLAG_COPY_OFFLOAD_HINT ((ze_command_list_flags_t)ZE_BIT(5))
#define TESSERA_ZE_COMMAND_QUEUE_FLAG_IN_ORDER ((ze_command_queue_flags_t)ZE_BIT(1))
#define TESSERA_ZE_COMMAND_QUEUE_FLAG_COPY_OFFLOAD_HINT ((ze_command_queue_flags_t)ZE_BIT(2))
#define TESSERA_ZEX_STRUCTURE_TYPE_QUEUE_COPY_OFFLOAD_HINT ((ze_structure_type_t)0x0003001B)
/* ze_memory_advice_t (later headers): ZE_MEMORY_ADVICE_SET_SYSTEM_MEMORY_PREFERRED_LOCATION = 8,
 * "hint that the preferred memory location is host memory", and its CLEAR = 9. */
#define TESSERA_ZE_MEMORY_ADVICE_SET_SYSTEM_MEMORY_PREFERRED_LOCATION ((ze_memory_advice_t)8)
#define TESSERA_ZE_MEMORY_ADVICE_CLEAR_SYSTEM_MEMORY_PREFERRED_LOCATION ((ze_memory_advice_t)9)
/* Intel's module format of OpenCL C source (compute-runtime's ze_intel_gpu.h: ZE_MODULE_FORMAT_OCLC
 * = 3; intel/compute-benchmarks loads most of its kernels so): zeModuleCreate compiles
 * pInputModule (inputSize bytes of OpenCL C, no terminating nul needed) with pBuildFlags as OpenCL
 * build options, as clBuildProgram does, and builds the module from the result. Compile errors
 * are ZE_RESULT_ERROR_MODULE_BUILD_FAILURE with the compiler's messages in the build log. */
#define TESSERA_ZE_MODULE_FORMAT_OCLC ((ze_module_format_t)3U)
/* Tessera IR: LLVM 15 bitcode of a spir64 module as Tessera's own OpenCL C front end writes it
 * (clang's IR with the builtins in SPIRV-LLVM-Translator's "SPIR-V friendly" form; what the OpenCL
 * layer builds programs from source with, so that OpenCL C reaches the code generator without a
 * translation to SPIR-V and back). pBuildFlags are module flags as for SPIR-V; there are no
 * specialization constants. The bytes are read and verified in Tessera's compiler process before
 * the driver's own process reads them; what does not read or verify is
 * ZE_RESULT_ERROR_MODULE_BUILD_FAILURE with the reason in the build log. zeTesseraModuleGetIL of
 * such a module gives the bitcode. */
#define TESSERA_ZE_MODULE_FORMAT_LLVM_IR ((ze_module_format_t)0x54530001U)
/* Intel's experimental host-pointer import (compute-runtime's zex_driver.h), reached through
 * zeDriverGetExtensionFunctionAddress by these names (not exported: Intel's own library's
 * symbols). zexDriverImportExternalPointer makes [ptr, ptr + size) imported host memory;
 * zexDriverReleaseImportedPointer ends the import that starts at ptr;
 * zexDriverGetHostPointerBaseAddress gives the start of the import holding ptr (into *baseAddress
 * when not null). Tessera's device is the host and reaches every host address already: an import
 * is bookkeeping only (core/driver/host_imports.h). Errors: INVALID_NULL_HANDLE for a bad driver,
 * INVALID_NULL_POINTER for a null ptr, INVALID_SIZE for a size of 0 or past the address space's
 * end, INVALID_ARGUMENT for an import overlapping another, a release of no import's start, a
 * pointer in no import. */
ze_result_t ZE_APICALL zexDriverImportExternalPointer(ze_driver_handle_t hDriver, void* ptr,
                                                      size_t size);
ze_result_t ZE_APICALL zexDriverReleaseImportedPointer(ze_driver_handle_t hDriver, void* ptr);
ze_result_t ZE_APICALL zexDriverGetHostPointerBaseAddress(ze_driver_handle_t hDriver, void* ptr,
                                                          void** baseAddress);
typedef ze_result_t(ZE_APICALL* zex_pfnDriverImportExternalPointer_t)(ze_driver_handle_t, void*,
                                                                      size_t);
typedef ze_result_t(ZE_APICALL* zex_pfnDriverReleaseImportedPointer_t)(ze_driver_handle_t, void*);
typedef ze_result_t(ZE_APICALL* zex_pfnDriverGetHostPointerBaseAddress_t)(ze_driver_handle_t,
                                                                          void*, void**);
/* ze_event_pool_flag_t (1.6): ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP = ZE_BIT(3): "Indicates all
 * events in pool will contain kernel timestamps synchronized to host time domain; cannot be combined
 * with ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP". */
#define TESSERA_ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP ((ze_event_pool_flags_t)ZE_BIT(3))

/* Core functions of Level Zero 1.6 to 1.17 that Tessera implements, declared from the public
 * specification (Debian's headers are 1.4's). Exported by libze_tessera.so.1, returned by
 * zeDriverGetExtensionFunctionAddress under these names (Debian's loader, 1.8.12, has no table slot
 * for them), and put in the DDI tables' slots of a loader that asks for the version that added
 * them (level_zero/ze_ddi_tables_current.cpp). Headers that declare them themselves (1.17 and
 * later define ZE_API_VERSION_CURRENT_M) keep their own declarations. docs/api-coverage.md,
 * "Level Zero after 1.4", lists each with its state. */
#ifndef ZE_API_VERSION_CURRENT_M
/* 1.10: driver discovery by type. "0, do not init or retrieve any drivers. ... UINT32_MAX All
 * Drivers of any type are Init and driver handles retrieved." */
#define ZE_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC ((ze_structure_type_t)0x00020021)
typedef uint32_t ze_init_driver_type_flags_t;
typedef enum _ze_init_driver_type_flag_t {
  ZE_INIT_DRIVER_TYPE_FLAG_GPU = ZE_BIT(0), /* initialize and retrieve GPU drivers */
  ZE_INIT_DRIVER_TYPE_FLAG_NPU = ZE_BIT(1), /* initialize and retrieve NPU drivers */
  ZE_INIT_DRIVER_TYPE_FLAG_FORCE_UINT32 = 0x7fffffff
} ze_init_driver_type_flag_t;
typedef struct _ze_init_driver_type_desc_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC */
  const void* pNext;         /* [in][optional] */
  ze_init_driver_type_flags_t flags; /* [in] a combination of the flags, or UINT32_MAX */
} ze_init_driver_type_desc_t;
ZE_APIEXPORT ze_result_t ZE_APICALL zeInitDrivers(uint32_t* pCount, ze_driver_handle_t* phDrivers,
                                                  ze_init_driver_type_desc_t* desc);
typedef ze_result_t(ZE_APICALL* ze_pfnInitDrivers_t)(uint32_t*, ze_driver_handle_t*,
                                                     ze_init_driver_type_desc_t*);

/* 1.6 */
ZE_APIEXPORT ze_result_t ZE_APICALL zeDriverGetLastErrorDescription(ze_driver_handle_t hDriver,
                                                                    const char** ppString);
typedef ze_result_t(ZE_APICALL* ze_pfnDriverGetLastErrorDescription_t)(ze_driver_handle_t,
                                                                       const char**);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListHostSynchronize(ze_command_list_handle_t hCommandList,
                                                                 uint64_t timeout);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListHostSynchronize_t)(ze_command_list_handle_t,
                                                                    uint64_t);

/* Extension "ZE_extension_event_query_kernel_timestamps", version 1.0 (1.6):
 * zeEventQueryKernelTimestampsExt, "Query an event's timestamp value on the host, with domain
 * preference". "For collecting *only* kernel timestamps, the application must ensure the event was
 * created from an event pool that was created using ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP flag. For
 * collecting synchronized timestamps, the application must ensure the event was created from an
 * event pool that was created using ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP flag. Kernel
 * timestamps are also available from this type of event pool". Tessera's device timer is the host's
 * clock (CLOCK_MONOTONIC in nanoseconds, zeDeviceGetGlobalTimestamps returns one reading for both),
 * so a synchronized timestamp is the kernel timestamp itself. One packet per event: a command runs
 * on one device. */
#define ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_NAME "ZE_extension_event_query_kernel_timestamps"
#define ZE_STRUCTURE_TYPE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_PROPERTIES ((ze_structure_type_t)0x00010011)
#define ZE_STRUCTURE_TYPE_EVENT_QUERY_KERNEL_TIMESTAMPS_RESULTS_EXT_PROPERTIES \
  ((ze_structure_type_t)0x00010012)
typedef enum _ze_event_query_kernel_timestamps_ext_version_t {
  ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_VERSION_1_0 = ZE_MAKE_VERSION(1, 0),
  ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_VERSION_CURRENT = ZE_MAKE_VERSION(1, 0),
  ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_VERSION_FORCE_UINT32 = 0x7fffffff
} ze_event_query_kernel_timestamps_ext_version_t;
typedef uint32_t ze_event_query_kernel_timestamps_ext_flags_t;
typedef enum _ze_event_query_kernel_timestamps_ext_flag_t {
  ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_FLAG_KERNEL = ZE_BIT(0),       /* kernel timestamp results */
  ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_FLAG_SYNCHRONIZED = ZE_BIT(1), /* synchronized to host time */
  ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_FLAG_FORCE_UINT32 = 0x7fffffff
} ze_event_query_kernel_timestamps_ext_flag_t;
/* "This structure may be returned from zeDeviceGetProperties, via the pNext member of
 * ze_device_properties_t." */
typedef struct _ze_event_query_kernel_timestamps_ext_properties_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_PROPERTIES */
  void* pNext;               /* [in,out][optional] */
  ze_event_query_kernel_timestamps_ext_flags_t flags; /* [out] */
} ze_event_query_kernel_timestamps_ext_properties_t;
typedef struct _ze_synchronized_timestamp_data_ext_t {
  uint64_t kernelStart; /* [out] synchronized clock at start of kernel execution */
  uint64_t kernelEnd;   /* [out] synchronized clock at end of kernel execution */
} ze_synchronized_timestamp_data_ext_t;
typedef struct _ze_synchronized_timestamp_result_ext_t {
  ze_synchronized_timestamp_data_ext_t global;  /* [out] wall-clock data */
  ze_synchronized_timestamp_data_ext_t context; /* [out] context-active data */
} ze_synchronized_timestamp_result_ext_t;
typedef struct _ze_event_query_kernel_timestamps_results_ext_properties_t {
  ze_structure_type_t stype; /* [in] ..._RESULTS_EXT_PROPERTIES */
  void* pNext;               /* [in,out][optional] */
  ze_kernel_timestamp_result_t* pKernelTimestampsBuffer; /* [in,out][optional][range(0, *pCount)] */
  ze_synchronized_timestamp_result_ext_t* pSynchronizedTimestampsBuffer; /* [in,out][optional][range(0, *pCount)] */
} ze_event_query_kernel_timestamps_results_ext_properties_t;
ZE_APIEXPORT ze_result_t ZE_APICALL zeEventQueryKernelTimestampsExt(
    ze_event_handle_t hEvent, ze_device_handle_t hDevice, uint32_t* pCount,
    ze_event_query_kernel_timestamps_results_ext_properties_t* pResults);
typedef ze_result_t(ZE_APICALL* ze_pfnEventQueryKernelTimestampsExt_t)(
    ze_event_handle_t, ze_device_handle_t, uint32_t*,
    ze_event_query_kernel_timestamps_results_ext_properties_t*);

/* 1.9 */
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListGetDeviceHandle(ze_command_list_handle_t hCommandList,
                                                                 ze_device_handle_t* phDevice);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListGetContextHandle(
    ze_command_list_handle_t hCommandList, ze_context_handle_t* phContext);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListGetOrdinal(ze_command_list_handle_t hCommandList,
                                                            uint32_t* pOrdinal);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListImmediateGetIndex(
    ze_command_list_handle_t hCommandListImmediate, uint32_t* pIndex);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListIsImmediate(ze_command_list_handle_t hCommandList,
                                                             ze_bool_t* pIsImmediate);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandQueueGetOrdinal(ze_command_queue_handle_t hCommandQueue,
                                                             uint32_t* pOrdinal);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandQueueGetIndex(ze_command_queue_handle_t hCommandQueue,
                                                           uint32_t* pIndex);
ZE_APIEXPORT ze_result_t ZE_APICALL zeEventGetEventPool(ze_event_handle_t hEvent,
                                                        ze_event_pool_handle_t* phEventPool);
ZE_APIEXPORT ze_result_t ZE_APICALL zeEventGetSignalScope(ze_event_handle_t hEvent,
                                                          ze_event_scope_flags_t* pSignalScope);
ZE_APIEXPORT ze_result_t ZE_APICALL zeEventGetWaitScope(ze_event_handle_t hEvent,
                                                        ze_event_scope_flags_t* pWaitScope);
ZE_APIEXPORT ze_result_t ZE_APICALL zeEventPoolGetContextHandle(ze_event_pool_handle_t hEventPool,
                                                                ze_context_handle_t* phContext);
ZE_APIEXPORT ze_result_t ZE_APICALL zeEventPoolGetFlags(ze_event_pool_handle_t hEventPool,
                                                        ze_event_pool_flags_t* pFlags);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListGetDeviceHandle_t)(ze_command_list_handle_t,
                                                                    ze_device_handle_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListGetContextHandle_t)(ze_command_list_handle_t,
                                                                     ze_context_handle_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListGetOrdinal_t)(ze_command_list_handle_t, uint32_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListImmediateGetIndex_t)(ze_command_list_handle_t,
                                                                      uint32_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListIsImmediate_t)(ze_command_list_handle_t,
                                                                ze_bool_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandQueueGetOrdinal_t)(ze_command_queue_handle_t,
                                                                uint32_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandQueueGetIndex_t)(ze_command_queue_handle_t, uint32_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnEventGetEventPool_t)(ze_event_handle_t,
                                                           ze_event_pool_handle_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnEventGetSignalScope_t)(ze_event_handle_t,
                                                             ze_event_scope_flags_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnEventGetWaitScope_t)(ze_event_handle_t,
                                                           ze_event_scope_flags_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnEventPoolGetContextHandle_t)(ze_event_pool_handle_t,
                                                                   ze_context_handle_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnEventPoolGetFlags_t)(ze_event_pool_handle_t,
                                                           ze_event_pool_flags_t*);

/* Counter-based events: 1.15's zeEventCounterBasedCreate and zeEventCounterBasedGetDeviceAddress,
 * 1.17's zeEventGetCounterBasedFlags, and the older extension
 * "ZE_experimental_event_pool_counter_based" (a pool whose descriptor chains
 * ze_event_pool_counter_based_exp_desc_t). Semantics (the extension's text): "Counter-based events
 * can be used only with in-orders lists, whether those are regular or immediate" (others:
 * ZE_RESULT_ERROR_INVALID_ARGUMENT at the append that signals one); "must not be reset" and "must
 * not be signaled from host" (zeEventHostReset, zeCommandListAppendEventReset, zeEventHostSignal:
 * ZE_RESULT_ERROR_INVALID_ARGUMENT); "may be reused multiple times without a need for reset";
 * "Querying a counter-based event queries only the last saved counter value from the last command
 * list that incremented it". The IPC flag and the zeEventCounterBased*IpcHandle functions:
 * tessera/ze_tessera_current.h. External aggregate storage (1.17): below. Not supported
 * (ZE_RESULT_ERROR_UNSUPPORTED_FEATURE): an IPC pool of counter-based events, the external sync
 * allocation descriptor, and aggregate storage together with the IPC flag. */
#define ZE_STRUCTURE_TYPE_COUNTER_BASED_EVENT_POOL_EXP_DESC ((ze_structure_type_t)0x00020014)
#define ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC ((ze_structure_type_t)0x0002003A)
/* The two pNext structures of ze_event_counter_based_desc_t (1.15 and 1.17): "Counter Based Event
 * external sync allocation descriptor. Passed as pNext to ze_event_counter_based_desc_t" (only its
 * structure type is declared: Tessera refuses it, ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, without
 * reading it) and "Counter Based Event external aggregate storage": deviceAddress "would be
 * updated with atomic_add upon signaling of this event, must be device USM memory"; every command
 * that signals the event adds incrementValue there, and the event is complete "when value under
 * deviceAddress is equal or greater then" completionValue. Tessera: deviceAddress must be 8-byte
 * aligned inside an allocation of the context with 8 bytes from it
 * (ZE_RESULT_ERROR_INVALID_ARGUMENT otherwise; null: ZE_RESULT_ERROR_INVALID_NULL_POINTER). */
#define ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_EXTERNAL_SYNC_ALLOCATION_DESC \
  ((ze_structure_type_t)0x0002003B)
#define ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_EXTERNAL_AGGREGATE_STORAGE_DESC \
  ((ze_structure_type_t)0x0002003F)
typedef struct _ze_event_counter_based_external_aggregate_storage_desc_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_EXTERNAL_AGGREGATE_STORAGE_DESC */
  const void* pNext;         /* [in][optional] */
  uint64_t* deviceAddress;   /* [in] */
  uint64_t incrementValue;   /* [in] */
  uint64_t completionValue;  /* [in] */
} ze_event_counter_based_external_aggregate_storage_desc_t;
typedef uint32_t ze_event_counter_based_flags_t;
typedef enum _ze_event_counter_based_flag_t {
  ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE = ZE_BIT(0),
  ZE_EVENT_COUNTER_BASED_FLAG_NON_IMMEDIATE = ZE_BIT(1),
  ZE_EVENT_COUNTER_BASED_FLAG_HOST_VISIBLE = ZE_BIT(2),
  ZE_EVENT_COUNTER_BASED_FLAG_IPC = ZE_BIT(3),
  ZE_EVENT_COUNTER_BASED_FLAG_DEVICE_TIMESTAMP = ZE_BIT(4),
  ZE_EVENT_COUNTER_BASED_FLAG_HOST_TIMESTAMP = ZE_BIT(5),
  ZE_EVENT_COUNTER_BASED_FLAG_GRAPH_EXTERNAL = ZE_BIT(6),
  ZE_EVENT_COUNTER_BASED_FLAG_FORCE_UINT32 = 0x7fffffff
} ze_event_counter_based_flag_t;
typedef struct _ze_event_counter_based_desc_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC */
  const void* pNext;         /* [in][optional] */
  ze_event_counter_based_flags_t flags; /* [in] */
  ze_event_scope_flags_t signal;        /* [in] */
  ze_event_scope_flags_t wait;          /* [in] */
} ze_event_counter_based_desc_t;
ZE_APIEXPORT ze_result_t ZE_APICALL zeEventCounterBasedCreate(
    ze_context_handle_t hContext, ze_device_handle_t hDevice,
    const ze_event_counter_based_desc_t* desc, ze_event_handle_t* phEvent);
ZE_APIEXPORT ze_result_t ZE_APICALL zeEventGetCounterBasedFlags(
    ze_event_handle_t hEvent, ze_event_counter_based_flags_t* pFlags);
typedef ze_result_t(ZE_APICALL* ze_pfnEventCounterBasedCreate_t)(
    ze_context_handle_t, ze_device_handle_t, const ze_event_counter_based_desc_t*,
    ze_event_handle_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnEventGetCounterBasedFlags_t)(
    ze_event_handle_t, ze_event_counter_based_flags_t*);
/* "Returns Counter Based Event completion value (counter) and its device address": the value the
 * event's 64-bit counter reaches when the last append that signals it is done, and the counter's
 * address (host memory, which is the device's). */
ZE_APIEXPORT ze_result_t ZE_APICALL zeEventCounterBasedGetDeviceAddress(
    ze_event_handle_t hEvent, uint64_t* completionValue, uint64_t* deviceAddress);
typedef ze_result_t(ZE_APICALL* ze_pfnEventCounterBasedGetDeviceAddress_t)(ze_event_handle_t,
                                                                            uint64_t*, uint64_t*);
typedef uint32_t ze_event_pool_counter_based_exp_flags_t;
typedef enum _ze_event_pool_counter_based_exp_flag_t {
  ZE_EVENT_POOL_COUNTER_BASED_EXP_FLAG_IMMEDIATE = ZE_BIT(0),
  ZE_EVENT_POOL_COUNTER_BASED_EXP_FLAG_NON_IMMEDIATE = ZE_BIT(1),
  ZE_EVENT_POOL_COUNTER_BASED_EXP_FLAG_FORCE_UINT32 = 0x7fffffff
} ze_event_pool_counter_based_exp_flag_t;
typedef struct _ze_event_pool_counter_based_exp_desc_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_COUNTER_BASED_EVENT_POOL_EXP_DESC */
  const void* pNext;         /* [in][optional] */
  ze_event_pool_counter_based_exp_flags_t flags; /* [in] 0 (immediate lists) or one flag */
} ze_event_pool_counter_based_exp_desc_t;
#define ZE_EVENT_POOL_COUNTER_BASED_EXP_NAME "ZE_experimental_event_pool_counter_based"

/* zeCommandListAppendLaunchKernelWithArguments (1.14): "Launch kernel over one or more work groups
 * with specifying work group size and all kernel arguments"; it "changes kernel state as if
 * separate zeKernelSetGroupSize and zeKernelSetArgumentValue functions were called".
 * pArguments[i] points to argument i's value, as zeKernelSetArgumentValue's pArgValue would, with
 * the size the kernel's argument has; for a __local argument it points to the local memory size,
 * a size_t or a 32-bit integer (its first 4 bytes are read: the size on this little-endian host,
 * either way), then set as zeKernelSetArgumentValue(hKernel, i, size, nullptr). pNext: a chain of
 * ze_command_list_append_launch_kernel_param_cooperative_desc_t (isCooperative: launched as
 * zeCommandListAppendLaunchCooperativeKernel); any other structure: ZE_RESULT_ERROR_UNSUPPORTED_
 * FEATURE ("when passed additional extensions are invalid or incompatible with the device or
 * command list"). */
#define ZE_STRUCTURE_TYPE_COMMAND_LIST_APPEND_PARAM_COOPERATIVE_DESC ((ze_structure_type_t)0x00020036)
typedef struct _ze_group_size_t {
  uint32_t groupSizeX;
  uint32_t groupSizeY;
  uint32_t groupSizeZ;
} ze_group_size_t;
typedef struct _ze_command_list_append_launch_kernel_param_cooperative_desc_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_COMMAND_LIST_APPEND_PARAM_COOPERATIVE_DESC */
  const void* pNext;         /* [in][optional] */
  ze_bool_t isCooperative;   /* [in] */
} ze_command_list_append_launch_kernel_param_cooperative_desc_t;
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListAppendLaunchKernelWithArguments(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t groupCounts, const ze_group_size_t groupSizes, void** pArguments,
    const void* pNext, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListAppendLaunchKernelWithArguments_t)(
    ze_command_list_handle_t, ze_kernel_handle_t, const ze_group_count_t, const ze_group_size_t,
    void**, const void*, ze_event_handle_t, uint32_t, ze_event_handle_t*);

/* ZE_extension_kernel_max_group_size_properties 1.0: "This structure may be passed to
 * zeKernelGetProperties, via the pNext member of ze_kernel_properties_t, to query additional kernel
 * max group size properties." maxGroupSize: "maximum group size that can be used to execute the
 * kernel. This value may be less than or equal to the maxTotalGroupSize member of
 * ze_device_compute_properties_t." */
#define ZE_KERNEL_MAX_GROUP_SIZE_PROPERTIES_EXT_NAME "ZE_extension_kernel_max_group_size_properties"
#define ZE_STRUCTURE_TYPE_KERNEL_MAX_GROUP_SIZE_EXT_PROPERTIES ((ze_structure_type_t)0x00010013)
typedef enum _ze_kernel_max_group_size_properties_ext_version_t {
  ZE_KERNEL_MAX_GROUP_SIZE_PROPERTIES_EXT_VERSION_1_0 = ZE_MAKE_VERSION(1, 0),
  ZE_KERNEL_MAX_GROUP_SIZE_PROPERTIES_EXT_VERSION_CURRENT = ZE_MAKE_VERSION(1, 0),
  ZE_KERNEL_MAX_GROUP_SIZE_PROPERTIES_EXT_VERSION_FORCE_UINT32 = 0x7fffffff
} ze_kernel_max_group_size_properties_ext_version_t;
typedef struct _ze_kernel_max_group_size_properties_ext_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_KERNEL_MAX_GROUP_SIZE_EXT_PROPERTIES */
  void* pNext;               /* [in,out][optional] */
  uint32_t maxGroupSize;     /* [out] */
} ze_kernel_max_group_size_properties_ext_t;
typedef ze_kernel_max_group_size_properties_ext_t ze_kernel_max_group_size_ext_properties_t;

/* 1.7: atomic access attributes of shared allocations ("Sets atomic access attributes for a shared
 * allocation"; "Retrieves the atomic access attributes previously set for a shared allocation"). */
typedef uint32_t ze_memory_atomic_attr_exp_flags_t;
typedef enum _ze_memory_atomic_attr_exp_flag_t {
  ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_ATOMICS = ZE_BIT(0),
  ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_HOST_ATOMICS = ZE_BIT(1),
  ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_HOST_ATOMICS = ZE_BIT(2),
  ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_DEVICE_ATOMICS = ZE_BIT(3),
  ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_DEVICE_ATOMICS = ZE_BIT(4),
  ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_SYSTEM_ATOMICS = ZE_BIT(5),
  ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_SYSTEM_ATOMICS = ZE_BIT(6),
  ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_FORCE_UINT32 = 0x7fffffff
} ze_memory_atomic_attr_exp_flag_t;
ZE_APIEXPORT ze_result_t ZE_APICALL zeMemSetAtomicAccessAttributeExp(
    ze_context_handle_t hContext, ze_device_handle_t hDevice, const void* ptr, size_t size,
    ze_memory_atomic_attr_exp_flags_t attr);
ZE_APIEXPORT ze_result_t ZE_APICALL zeMemGetAtomicAccessAttributeExp(
    ze_context_handle_t hContext, ze_device_handle_t hDevice, const void* ptr, size_t size,
    ze_memory_atomic_attr_exp_flags_t* pAttr);
typedef ze_result_t(ZE_APICALL* ze_pfnMemSetAtomicAccessAttributeExp_t)(
    ze_context_handle_t, ze_device_handle_t, const void*, size_t, ze_memory_atomic_attr_exp_flags_t);
typedef ze_result_t(ZE_APICALL* ze_pfnMemGetAtomicAccessAttributeExp_t)(
    ze_context_handle_t, ze_device_handle_t, const void*, size_t, ze_memory_atomic_attr_exp_flags_t*);
/* 1.14 to 1.17, continued. */
#include "tessera/ze_tessera_current.h"
#endif /* ZE_API_VERSION_CURRENT_M */

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

/* Extension "ZE_tessera_module_il", version 1.0: the SPIR-V a module was built from, also for a module
 * loaded from a native binary (which keeps it). The OpenCL layer reflects kernel arguments from it
 * (clGetKernelArgInfo). pIL null: *pSize receives the size; otherwise *pSize must be at least that
 * (ZE_RESULT_ERROR_INVALID_SIZE). */
/* Extension "ZE_tessera_trace", version 1.0: zeTesseraTraceFlush writes the timeline trace that
 * TESSERA_TRACE names now, with everything recorded so far (the process's exit writes it again with
 * the rest). Nothing is written when TESSERA_TRACE is unset; the result is ZE_RESULT_SUCCESS either
 * way. Reached through zeDriverGetExtensionFunctionAddress. */
#define ZE_TESSERA_TRACE_EXT_NAME "ZE_tessera_trace"
#define ZE_TESSERA_TRACE_EXT_VERSION ZE_MAKE_VERSION(1, 0)
ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraTraceFlush(ze_driver_handle_t hDriver);
typedef ze_result_t(ZE_APICALL* ze_pfnTesseraTraceFlush_t)(ze_driver_handle_t);

/* Extension "ZE_tessera_launch_balance", version 1.0: how evenly the workers of parallel jobs (kernel
 * launches on several threads, copies and fills split over them) finished, summed over every job of
 * the process since the last reset; the same figures are in the trace (TESSERA_TRACE, spans of
 * category "balance"). Times in nanoseconds. reset true: the sums start again at zero after they are
 * read. */
#define ZE_TESSERA_LAUNCH_BALANCE_EXT_NAME "ZE_tessera_launch_balance"
#define ZE_TESSERA_LAUNCH_BALANCE_EXT_VERSION ZE_MAKE_VERSION(1, 0)
typedef struct _ze_tessera_launch_balance_t {
  uint64_t jobs;         /* [out] parallel jobs */
  uint64_t workers;      /* [out] sum of the threads that took part in each */
  uint64_t spanNs;       /* [out] sum of each job's time from its start to its last worker's end */
  uint64_t tailNs;       /* [out] sum of each job's tail: its first worker's end to its last's */
  uint64_t maxTailNs;    /* [out] the longest tail */
  uint64_t lateStartNs;  /* [out] sum of each job's time from its start to its last worker's start */
  uint64_t busySpreadNs; /* [out] sum of each job's busiest worker's time minus its least busy's */
} ze_tessera_launch_balance_t;
ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraDriverGetLaunchBalance(
    ze_driver_handle_t hDriver, ze_bool_t reset, ze_tessera_launch_balance_t* pBalance);
typedef ze_result_t(ZE_APICALL* ze_pfnTesseraDriverGetLaunchBalance_t)(
    ze_driver_handle_t, ze_bool_t, ze_tessera_launch_balance_t*);

#define ZE_TESSERA_MODULE_IL_EXT_NAME "ZE_tessera_module_il"
#define ZE_TESSERA_MODULE_IL_EXT_VERSION ZE_MAKE_VERSION(1, 1)
ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraModuleGetIL(ze_module_handle_t hModule, size_t* pSize,
                                                         uint8_t* pIL);
typedef ze_result_t(ZE_APICALL* ze_pfnTesseraModuleGetIL_t)(ze_module_handle_t, size_t*, uint8_t*);
/* Version 1.1: the module's kernels as the driver reflected them, in Tessera's own format
 * (spirv/kernel_table.h: per kernel its name, its arguments' kinds, sizes, alignments, names,
 * type spellings and image access, its work-group size attributes; the program-scope variables'
 * sizes), for the OpenCL layer, which so
 * reflects a module made from Tessera IR once. Size query as zeTesseraModuleGetIL:
 * INVALID_NULL_HANDLE, INVALID_NULL_POINTER for a null pSize, INVALID_SIZE when *pSize is smaller
 * than the table. */
ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraModuleGetKernelTable(ze_module_handle_t hModule,
                                                                  size_t* pSize, uint8_t* pTable);
typedef ze_result_t(ZE_APICALL* ze_pfnTesseraModuleGetKernelTable_t)(ze_module_handle_t, size_t*,
                                                                     uint8_t*);

/* Extension "ZE_tessera_kernel_work_dim", version 1.0: the value get_work_dim() returns in the
 * launches of hKernel appended after this call. Level Zero has no work dimension: by default
 * (workDim 0) a launch's is the highest dimension whose global size is more than 1 (1 for a single
 * work-item). OpenCL's clEnqueueNDRangeKernel names one, which get_work_dim() must return also
 * when the higher dimensions have size 1; the OpenCL layer passes it here. Like the group size and
 * the global offset, it is copied into a launch when the launch is appended. A workDim above 3:
 * ZE_RESULT_ERROR_INVALID_ARGUMENT. */
#define ZE_TESSERA_KERNEL_WORK_DIM_EXT_NAME "ZE_tessera_kernel_work_dim"
#define ZE_TESSERA_KERNEL_WORK_DIM_EXT_VERSION ZE_MAKE_VERSION(1, 0)
ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraKernelSetWorkDim(ze_kernel_handle_t hKernel,
                                                              uint32_t workDim);
typedef ze_result_t(ZE_APICALL* ze_pfnTesseraKernelSetWorkDim_t)(ze_kernel_handle_t, uint32_t);

/* Extension "ZE_tessera_kernel_group_size", version 1.0: zeKernelSuggestGroupSize with 64-bit
 * global sizes, the same answer for the sizes both take. OpenCL's global sizes are size_t: one
 * dimension may hold 2^32 or more work-items and still launch in fewer than 2^32 groups; the
 * OpenCL layer's NULL local size is this call's answer, so both APIs choose group sizes by one rule
 * (core/command/launch_policy.cpp): the kernel's required size when it has one (which need not
 * divide the global size: the caller checks); otherwise, dimension by dimension from x, the largest
 * divisor of the global size that keeps the group within 4,096 work-items, or 256 for a kernel with
 * barriers. A global size of 0 counts as 1. Like zeKernelSuggestGroupSize it ignores the group size
 * set with zeKernelSetGroupSize, may be called from simultaneous threads, and answers
 * ZE_RESULT_ERROR_INVALID_NULL_HANDLE for hKernel and ZE_RESULT_ERROR_INVALID_NULL_POINTER for a
 * null output. */
#define ZE_TESSERA_KERNEL_GROUP_SIZE_EXT_NAME "ZE_tessera_kernel_group_size"
#define ZE_TESSERA_KERNEL_GROUP_SIZE_EXT_VERSION ZE_MAKE_VERSION(1, 0)
ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraKernelSuggestGroupSize(
    ze_kernel_handle_t hKernel, uint64_t globalSizeX, uint64_t globalSizeY, uint64_t globalSizeZ,
    uint32_t* groupSizeX, uint32_t* groupSizeY, uint32_t* groupSizeZ);
typedef ze_result_t(ZE_APICALL* ze_pfnTesseraKernelSuggestGroupSize_t)(
    ze_kernel_handle_t, uint64_t, uint64_t, uint64_t, uint32_t*, uint32_t*, uint32_t*);

/* Extension "ZE_tessera_launch_shape", version 1.1: zeCommandListAppendLaunchKernel with the
 * launch's group size, global offset and work dimension given with it instead of taken from the
 * kernel (zeKernelSetGroupSize, zeKernelSetGlobalOffsetExp, zeTesseraKernelSetWorkDim), whose
 * state this call neither reads nor changes: one call per OpenCL launch, where there were four.
 * The arguments are still the kernel's, copied at append. Errors as the three setters and the
 * append give them: ZE_RESULT_ERROR_INVALID_NULL_POINTER for a null pShape or pLaunchFuncArgs,
 * ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION for a group size zeKernelSetGroupSize refuses,
 * ZE_RESULT_ERROR_INVALID_ARGUMENT for a workDim above 3 (0: the highest dimension with more than
 * one work-item, as a plain launch) or a lastGroupSize above groupSize.
 * Version 1.1 adds lastGroupSize (the struct grew: a 1.0 caller's struct is too short), OpenCL
 * 2.0's non-uniform work-groups: the group count includes, per dimension, a last group of
 * lastGroupSize work-items (0: groupSize, uniform). Such a group's get_local_size() is its own
 * size, get_enqueued_local_size() (SPIR-V's EnqueuedWorkgroupSize) is groupSize, and global ids
 * are group id * groupSize + local id + offset. Level Zero's own launches (and mutable updates of
 * a group count or size, which reset it) are uniform. */
#define ZE_TESSERA_LAUNCH_SHAPE_EXT_NAME "ZE_tessera_launch_shape"
#define ZE_TESSERA_LAUNCH_SHAPE_EXT_VERSION ZE_MAKE_VERSION(1, 1)
typedef struct ze_tessera_launch_shape_t {
  uint32_t groupSize[3];     /* [in] as zeKernelSetGroupSize */
  uint32_t globalOffset[3];  /* [in] as zeKernelSetGlobalOffsetExp */
  uint32_t workDim;          /* [in] as zeTesseraKernelSetWorkDim */
  uint32_t lastGroupSize[3]; /* [in] since 1.1: the last group's size per dimension, 0: uniform */
} ze_tessera_launch_shape_t;
ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraCommandListAppendLaunchKernelShaped(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t* pLaunchFuncArgs, const ze_tessera_launch_shape_t* pShape,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents);
typedef ze_result_t(ZE_APICALL* ze_pfnTesseraCommandListAppendLaunchKernelShaped_t)(
    ze_command_list_handle_t, ze_kernel_handle_t, const ze_group_count_t*,
    const ze_tessera_launch_shape_t*, ze_event_handle_t, uint32_t, ze_event_handle_t*);

/* Extension "ZE_tessera_module_kernels", version 1.0: a module built from SPIR-V whose kernels
 * share no storage (no program-scope __global variable, no import, no exported variable) compiles
 * each kernel when it is first needed, at zeKernelCreate, not at zeModuleCreate (which validates,
 * reflects and translates the whole module). A kernel whose code generation fails makes
 * zeKernelCreate answer ZE_RESULT_ERROR_MODULE_BUILD_FAILURE (every time); zeModuleGetNativeBinary
 * compiles those not compiled yet (when one cannot be, the binary carries no code and a module
 * made from it compiles from its SPIR-V again); zeModuleGetFunctionPointer compiles the exported
 * functions.
 *   zeTesseraModuleBuildKernels: compiles the `count` kernels named in `pKernelNames` (every kernel
 *     of the module when count is 0) now, several at once (at most one thread per CPU the process
 *     may run on): what an application that will create several kernels asks first.
 *     ZE_RESULT_ERROR_MODULE_BUILD_FAILURE when one cannot be created, with a build log (when
 *     phBuildLog is not null, also on success; destroy it with zeModuleBuildLogDestroy) naming each
 *     such kernel and why; ZE_RESULT_ERROR_INVALID_KERNEL_NAME when the module has no kernel of one
 *     of the names. For a module compiled whole at creation it compiles nothing.
 *   zeTesseraModuleGetCompiledKernelCount: how many of the module's kernels have code now.
 * Version 1.1: a ze_tessera_kernel_deferred_desc_t in ze_kernel_desc_t's pNext asks zeKernelCreate
 * to leave the kernel's code generation to its first need, as OpenCL implementations compile a
 * kernel at its first launch: the first zeCommandListAppendLaunchKernel* (or mutable command
 * update) of it, zeKernelGetProperties, zeKernelGetSourceAttributes or
 * zeKernelSuggestGroupSize / zeTesseraKernelSuggestGroupSize. Those calls then answer
 * ZE_RESULT_ERROR_MODULE_BUILD_FAILURE when that fails (every time; zeTesseraModuleBuildKernels
 * with its name gives the log). zeKernelSetArgumentValue checks values as for any kernel. Without
 * effect on a module compiled whole at creation.
 *   zeTesseraModuleGetNativeBinaryAsIs: zeModuleGetNativeBinary without compiling anything for it:
 *     the binary carries the kernels' code when every kernel has some already, else none (a module
 *     made from it compiles each kernel when first needed, as from IL). What OpenCL's
 *     CL_PROGRAM_BINARIES gives: a program that saves its binary after the build (darktable) does
 *     not wait for every kernel's code. */
#define ZE_TESSERA_MODULE_KERNELS_EXT_NAME "ZE_tessera_module_kernels"
#define ZE_TESSERA_MODULE_KERNELS_EXT_VERSION ZE_MAKE_VERSION(1, 1)
#define ZE_STRUCTURE_TYPE_TESSERA_KERNEL_DEFERRED_DESC ((ze_structure_type_t)0x7e550004)
typedef struct _ze_tessera_kernel_deferred_desc_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_TESSERA_KERNEL_DEFERRED_DESC */
  const void* pNext;         /* [in][optional] */
} ze_tessera_kernel_deferred_desc_t;
ZE_APIEXPORT ze_result_t ZE_APICALL
zeTesseraModuleBuildKernels(ze_module_handle_t hModule, uint32_t count, const char** pKernelNames,
                            ze_module_build_log_handle_t* phBuildLog);
typedef ze_result_t(ZE_APICALL* ze_pfnTesseraModuleBuildKernels_t)(ze_module_handle_t, uint32_t,
                                                                   const char**,
                                                                   ze_module_build_log_handle_t*);
ZE_APIEXPORT ze_result_t ZE_APICALL
zeTesseraModuleGetCompiledKernelCount(ze_module_handle_t hModule, uint32_t* pCount);
typedef ze_result_t(ZE_APICALL* ze_pfnTesseraModuleGetCompiledKernelCount_t)(ze_module_handle_t,
                                                                             uint32_t*);
ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraModuleGetNativeBinaryAsIs(ze_module_handle_t hModule,
                                                                      size_t* pSize,
                                                                      uint8_t* pModuleNativeBinary);
typedef ze_result_t(ZE_APICALL* ze_pfnTesseraModuleGetNativeBinaryAsIs_t)(ze_module_handle_t,
                                                                         size_t*, uint8_t*);

/* Tessera's OpenCL C builtins, provided by the kernel JIT to any module that declares them (no
 * zeModuleDynamicLink needed):
 *   uint tessera_current_pu(void);   the OS index of the PU the calling work-item runs on
 * (samples/ze_subdevices uses it to show where a sub-device's work ran.) */

/* Extension "ZE_tessera_device_topology", version 1.0: where a device sits in the machine, as hwloc
 * sees it. Tools (tessera-info) and the OpenCL layer (partition by names and affinity domains) use it.
 * Count-style functions follow zeDeviceGet's protocol. */
#define ZE_TESSERA_DEVICE_TOPOLOGY_EXT_NAME "ZE_tessera_device_topology"
#define ZE_TESSERA_DEVICE_TOPOLOGY_EXT_VERSION ZE_MAKE_VERSION(1, 0)

/* The level of the machine whose object cut the device out (MACHINE for the whole machine). L4 and L1
 * only cut partition devices (ZE_tessera_device_partition, affinity domains); a partition device
 * made by EQUALLY, BY_COUNTS or BY_NAMES reports the level and object of the device it was cut from. */
typedef enum _ze_tessera_device_level_t {
  ZE_TESSERA_DEVICE_LEVEL_MACHINE = 0,
  ZE_TESSERA_DEVICE_LEVEL_PACKAGE = 1,
  ZE_TESSERA_DEVICE_LEVEL_NUMA = 2,
  ZE_TESSERA_DEVICE_LEVEL_L3 = 3,
  ZE_TESSERA_DEVICE_LEVEL_L2 = 4,
  ZE_TESSERA_DEVICE_LEVEL_L4 = 5,
  ZE_TESSERA_DEVICE_LEVEL_L1 = 6,
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

/* Extension "ZE_tessera_device_partition", version 1.0: sub-devices of any shape, cut from a device by
 * one of OpenCL's partition schemes with the same partitioner as the fixed sub-device tree. The OpenCL
 * layer's clCreateSubDevices / clCreateSubDevicesEXT are built on it.
 *
 * A device's compute units are its PUs in hwloc's logical (topological) order; the compute unit
 * "names" of BY_NAMES are indices into that order (0 .. numPus-1 of zeTesseraDeviceGetTopologyProperties).
 * EQUALLY and BY_COUNTS hand out compute units in that order, so hardware threads of one core, and
 * cores of one cache, stay together.
 *
 * Partition devices behave like sub-devices (ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE, queues and kernels
 * run only on their PUs, zeDeviceGetRootDevice gives the top-most device) but are not listed by
 * zeDeviceGetSubDevices of their parent. They live as long as the driver: asking again for the same
 * compute units of the same parent returns the same handles, so repeated partitioning does not grow
 * memory. */
#define ZE_TESSERA_DEVICE_PARTITION_EXT_NAME "ZE_tessera_device_partition"
#define ZE_TESSERA_DEVICE_PARTITION_EXT_VERSION ZE_MAKE_VERSION(1, 0)
#define ZE_STRUCTURE_TYPE_TESSERA_PARTITION_DESC ((ze_structure_type_t)0x7e550002)

typedef enum _ze_tessera_partition_scheme_t {
  ZE_TESSERA_PARTITION_SCHEME_EQUALLY = 1,            /* unitsPerDevice compute units each, as many as fit */
  ZE_TESSERA_PARTITION_SCHEME_BY_COUNTS = 2,          /* one sub-device per entry of values[count] */
  ZE_TESSERA_PARTITION_SCHEME_BY_NAMES = 3,           /* one sub-device of the compute units values[count] */
  ZE_TESSERA_PARTITION_SCHEME_BY_AFFINITY_DOMAIN = 4, /* one sub-device per object of `domain` */
  ZE_TESSERA_PARTITION_SCHEME_FORCE_UINT32 = 0x7fffffff
} ze_tessera_partition_scheme_t;

typedef enum _ze_tessera_affinity_domain_t {
  ZE_TESSERA_AFFINITY_DOMAIN_NONE = 0,
  ZE_TESSERA_AFFINITY_DOMAIN_NUMA = 1,
  ZE_TESSERA_AFFINITY_DOMAIN_L4_CACHE = 2,
  ZE_TESSERA_AFFINITY_DOMAIN_L3_CACHE = 3,
  ZE_TESSERA_AFFINITY_DOMAIN_L2_CACHE = 4,
  ZE_TESSERA_AFFINITY_DOMAIN_L1_CACHE = 5,
  /* the first of NUMA, L4, L3, L2, L1 that splits the device into two or more parts */
  ZE_TESSERA_AFFINITY_DOMAIN_NEXT_PARTITIONABLE = 6,
  ZE_TESSERA_AFFINITY_DOMAIN_FORCE_UINT32 = 0x7fffffff
} ze_tessera_affinity_domain_t;

typedef struct _ze_tessera_partition_desc_t {
  ze_structure_type_t stype;            /* [in] ZE_STRUCTURE_TYPE_TESSERA_PARTITION_DESC */
  const void* pNext;                    /* [in][optional] */
  ze_tessera_partition_scheme_t scheme; /* [in] */
  uint32_t unitsPerDevice;              /* [in] EQUALLY: compute units per sub-device (>= 1) */
  uint32_t count;                       /* [in] BY_COUNTS, BY_NAMES: entries in values */
  const uint32_t* values;               /* [in] BY_COUNTS: counts (each >= 1); BY_NAMES: distinct names */
  ze_tessera_affinity_domain_t domain;  /* [in] BY_AFFINITY_DOMAIN */
} ze_tessera_partition_desc_t;

/* Partitions hDevice. Count protocol as zeDeviceGetSubDevices: *pCount == 0 (or phSubDevices null)
 * only reports how many sub-devices the scheme makes; otherwise the first min(*pCount, n) are written
 * and *pCount set to that number. pDomainUsed [optional] receives the domain actually cut at (for
 * NEXT_PARTITIONABLE; NONE for the other schemes).
 * Errors: ZE_RESULT_ERROR_INVALID_ENUMERATION for an unknown scheme or domain;
 * ZE_RESULT_ERROR_INVALID_SIZE when a count is 0, the counts or the sub-device total exceed the device's
 * compute units, or count is 0 for BY_COUNTS/BY_NAMES; ZE_RESULT_ERROR_INVALID_ARGUMENT when a name is
 * out of range or repeated; ZE_RESULT_ERROR_UNSUPPORTED_FEATURE when the device cannot be cut that way
 * (the domain does not split it into two or more parts). */
ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraDeviceCreatePartition(
    ze_device_handle_t hDevice, const ze_tessera_partition_desc_t* desc, uint32_t* pCount,
    ze_device_handle_t* phSubDevices, ze_tessera_affinity_domain_t* pDomainUsed);
typedef ze_result_t(ZE_APICALL* ze_pfnTesseraDeviceCreatePartition_t)(
    ze_device_handle_t, const ze_tessera_partition_desc_t*, uint32_t*, ze_device_handle_t*,
    ze_tessera_affinity_domain_t*);

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

/* Extension "ZE_experimental_mutable_command_list", version 1.0, from Level Zero 1.9: commands of a
 * closed regular command list changed in place (kernel arguments, group count and size, global
 * offset, signal and wait events) without recording it again. The declarations follow the
 * specification's names, values and layouts, so code written against newer headers works. */
#ifndef ZE_MUTABLE_COMMAND_LIST_EXP_NAME
#define ZE_MUTABLE_COMMAND_LIST_EXP_NAME "ZE_experimental_mutable_command_list"
#define ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_PROPERTIES ((ze_structure_type_t)0x00020015)
#define ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_DESC ((ze_structure_type_t)0x00020016)
#define ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_ID_EXP_DESC ((ze_structure_type_t)0x00020017)
#define ZE_STRUCTURE_TYPE_MUTABLE_COMMANDS_EXP_DESC ((ze_structure_type_t)0x00020018)
#define ZE_STRUCTURE_TYPE_MUTABLE_KERNEL_ARGUMENT_EXP_DESC ((ze_structure_type_t)0x00020019)
#define ZE_STRUCTURE_TYPE_MUTABLE_GROUP_COUNT_EXP_DESC ((ze_structure_type_t)0x0002001A)
#define ZE_STRUCTURE_TYPE_MUTABLE_GROUP_SIZE_EXP_DESC ((ze_structure_type_t)0x0002001B)
#define ZE_STRUCTURE_TYPE_MUTABLE_GLOBAL_OFFSET_EXP_DESC ((ze_structure_type_t)0x0002001C)

typedef enum _ze_mutable_command_list_exp_version_t {
  ZE_MUTABLE_COMMAND_LIST_EXP_VERSION_1_0 = ZE_MAKE_VERSION(1, 0),
  ZE_MUTABLE_COMMAND_LIST_EXP_VERSION_1_1 = ZE_MAKE_VERSION(1, 1),
  ZE_MUTABLE_COMMAND_LIST_EXP_VERSION_CURRENT = ZE_MAKE_VERSION(1, 1),
  ZE_MUTABLE_COMMAND_LIST_EXP_VERSION_FORCE_UINT32 = 0x7fffffff
} ze_mutable_command_list_exp_version_t;

/* What a command may later be changed in. */
typedef uint32_t ze_mutable_command_exp_flags_t;
typedef enum _ze_mutable_command_exp_flag_t {
  ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_ARGUMENTS = ZE_BIT(0),
  ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_COUNT = ZE_BIT(1),
  ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_SIZE = ZE_BIT(2),
  ZE_MUTABLE_COMMAND_EXP_FLAG_GLOBAL_OFFSET = ZE_BIT(3),
  ZE_MUTABLE_COMMAND_EXP_FLAG_SIGNAL_EVENT = ZE_BIT(4),
  ZE_MUTABLE_COMMAND_EXP_FLAG_WAIT_EVENTS = ZE_BIT(5),
  /* 1.1 (Level Zero 1.10): the kernel, among those given to
   * zeCommandListGetNextCommandIdWithKernelsExp; "must be explictly included" (flags 0 lack it). */
  ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_INSTRUCTION = ZE_BIT(6),
  ZE_MUTABLE_COMMAND_EXP_FLAG_FORCE_UINT32 = 0x7fffffff
} ze_mutable_command_exp_flag_t;

/* zeCommandListGetNextCommandIdExp's descriptor: flags 0 means every flag. */
typedef struct _ze_mutable_command_id_exp_desc_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_ID_EXP_DESC */
  const void* pNext;         /* [in][optional] */
  ze_mutable_command_exp_flags_t flags; /* [in] */
} ze_mutable_command_id_exp_desc_t;

typedef uint32_t ze_mutable_command_list_exp_flags_t;
typedef enum _ze_mutable_command_list_exp_flag_t {
  ZE_MUTABLE_COMMAND_LIST_EXP_FLAG_RESERVED = ZE_BIT(0),
  ZE_MUTABLE_COMMAND_LIST_EXP_FLAG_FORCE_UINT32 = 0x7fffffff
} ze_mutable_command_list_exp_flag_t;

/* Chained to ze_device_properties_t. */
typedef struct _ze_mutable_command_list_exp_properties_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_PROPERTIES */
  void* pNext;               /* [in,out][optional] */
  ze_mutable_command_list_exp_flags_t mutableCommandListFlags; /* [out] */
  ze_mutable_command_exp_flags_t mutableCommandFlags;          /* [out] */
} ze_mutable_command_list_exp_properties_t;

/* Chained to ze_command_list_desc_t: the list is mutable. */
typedef struct _ze_mutable_command_list_exp_desc_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_DESC */
  const void* pNext;         /* [in][optional] */
  ze_mutable_command_list_exp_flags_t flags; /* [in] 0 or ZE_MUTABLE_COMMAND_LIST_EXP_FLAG_RESERVED */
} ze_mutable_command_list_exp_desc_t;

/* zeCommandListUpdateMutableCommandsExp's descriptor; the changes are chained in pNext. */
typedef struct _ze_mutable_commands_exp_desc_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_MUTABLE_COMMANDS_EXP_DESC */
  const void* pNext;         /* [in][optional] */
  uint32_t flags;            /* [in] must be 0 */
} ze_mutable_commands_exp_desc_t;

typedef struct _ze_mutable_kernel_argument_exp_desc_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_MUTABLE_KERNEL_ARGUMENT_EXP_DESC */
  const void* pNext;         /* [in][optional] */
  uint64_t commandId;        /* [in] */
  uint32_t argIndex;         /* [in] */
  size_t argSize;            /* [in] */
  const void* pArgValue;     /* [in] as zeKernelSetArgumentValue's */
} ze_mutable_kernel_argument_exp_desc_t;

typedef struct _ze_mutable_group_count_exp_desc_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_MUTABLE_GROUP_COUNT_EXP_DESC */
  const void* pNext;         /* [in][optional] */
  uint64_t commandId;        /* [in] */
  const ze_group_count_t* pGroupCount; /* [in] */
} ze_mutable_group_count_exp_desc_t;

typedef struct _ze_mutable_group_size_exp_desc_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_MUTABLE_GROUP_SIZE_EXP_DESC */
  const void* pNext;         /* [in][optional] */
  uint64_t commandId;        /* [in] */
  uint32_t groupSizeX;       /* [in] */
  uint32_t groupSizeY;       /* [in] */
  uint32_t groupSizeZ;       /* [in] */
} ze_mutable_group_size_exp_desc_t;

typedef struct _ze_mutable_global_offset_exp_desc_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_MUTABLE_GLOBAL_OFFSET_EXP_DESC */
  const void* pNext;         /* [in][optional] */
  uint64_t commandId;        /* [in] */
  uint32_t offsetX;          /* [in] */
  uint32_t offsetY;          /* [in] */
  uint32_t offsetZ;          /* [in] */
} ze_mutable_global_offset_exp_desc_t;
#endif

/* Tessera's semantics (docs/architecture.md, "Mutable commands"):
 * - Only lists created with ze_mutable_command_list_exp_desc_t in ze_command_list_desc_t's pNext are
 *   mutable; the functions below answer ZE_RESULT_ERROR_INVALID_ARGUMENT for any other list
 *   (immediate lists included).
 * - zeCommandListGetNextCommandIdExp, on an open list, names the command the next successful append
 *   records (asked again before that append, it returns the same id with the flags combined).
 * - Updates are accepted only on a closed list (ZE_RESULT_ERROR_INVALID_ARGUMENT otherwise); they
 *   persist for every later execution; after updates the list must be closed again before it is
 *   executed ("The application must close a mutable command list after completing all updates";
 *   zeCommandQueueExecuteCommandLists answers ZE_RESULT_ERROR_INVALID_ARGUMENT until then).
 * - A chain is applied all or nothing: the first invalid descriptor's error, nothing changed.
 *   Unknown command id, a change the id's flags did not declare, a command that is not a single
 *   kernel launch, or an unknown stype: ZE_RESULT_ERROR_INVALID_ARGUMENT. Kernel arguments are
 *   checked as zeKernelSetArgumentValue checks them (same codes), group sizes as zeKernelSetGroupSize
 *   (ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION).
 * - "The application must synchronize mutable command list execution before calling this function";
 *   should an execution still be in flight, it keeps the values it was submitted with (the list
 *   copies its commands first). */
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListGetNextCommandIdExp(
    ze_command_list_handle_t hCommandList, const ze_mutable_command_id_exp_desc_t* desc,
    uint64_t* pCommandId);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListUpdateMutableCommandsExp(
    ze_command_list_handle_t hCommandList, const ze_mutable_commands_exp_desc_t* desc);
/* A null event: the command no longer signals. */
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListUpdateMutableCommandSignalEventExp(
    ze_command_list_handle_t hCommandList, uint64_t commandId, ze_event_handle_t hSignalEvent);
/* numWaitEvents must be the command's original count (ZE_RESULT_ERROR_INVALID_SIZE); a null list
 * removes every wait, a null entry that one. */
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListUpdateMutableCommandWaitEventsExp(
    ze_command_list_handle_t hCommandList, uint64_t commandId, uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents);
/* Extension "ZE_extension_device_vector_sizes" (Level Zero 1.13), declared from the specification
 * since Debian's headers lack it. Tessera reports one entry: vector_width_size is the 32-bit lanes
 * of the host's vector registers (ze_device_properties_t's physicalEUSimdWidth, at least 4), and
 * each type's preferred and native width fills one register (char 4x, short 2x, int and float 1x,
 * long and double 1/2x); halves are stored two to a lane (preferred 2x) and computed one to a
 * float lane (native 1x). OpenCL's CL_DEVICE_{PREFERRED,NATIVE}_VECTOR_WIDTH_* are these values. */
#ifndef ZE_DEVICE_VECTOR_SIZES_EXT_NAME
#define ZE_DEVICE_VECTOR_SIZES_EXT_NAME "ZE_extension_device_vector_sizes"
typedef enum _ze_device_vector_sizes_ext_version_t {
  ZE_DEVICE_VECTOR_SIZES_EXT_VERSION_1_0 = ZE_MAKE_VERSION(1, 0),
  ZE_DEVICE_VECTOR_SIZES_EXT_VERSION_CURRENT = ZE_MAKE_VERSION(1, 0),
  ZE_DEVICE_VECTOR_SIZES_EXT_VERSION_FORCE_UINT32 = 0x7fffffff
} ze_device_vector_sizes_ext_version_t;
#define ZE_STRUCTURE_TYPE_DEVICE_VECTOR_WIDTH_PROPERTIES_EXT ((ze_structure_type_t)0x00020029)
typedef struct _ze_device_vector_width_properties_ext_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_DEVICE_VECTOR_WIDTH_PROPERTIES_EXT */
  void* pNext;               /* [in,out][optional] */
  uint32_t vector_width_size; /* [out] */
  uint32_t preferred_vector_width_char, preferred_vector_width_short, preferred_vector_width_int,
      preferred_vector_width_long, preferred_vector_width_float, preferred_vector_width_double,
      preferred_vector_width_half; /* [out] */
  uint32_t native_vector_width_char, native_vector_width_short, native_vector_width_int,
      native_vector_width_long, native_vector_width_float, native_vector_width_double,
      native_vector_width_half; /* [out] */
} ze_device_vector_width_properties_ext_t;
#endif
ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetVectorWidthPropertiesExt(
    ze_device_handle_t hDevice, uint32_t* pCount,
    ze_device_vector_width_properties_ext_t* pVectorWidthProperties);
typedef ze_result_t(ZE_APICALL* ze_pfnDeviceGetVectorWidthPropertiesExt_t)(
    ze_device_handle_t, uint32_t*, ze_device_vector_width_properties_ext_t*);

/* ze_result_t's ZE_RESULT_ERROR_INVALID_KERNEL_HANDLE (Level Zero 1.10: "kernel handle is invalid
 * for the operation"), which Debian's 1.4 headers lack. */
#define TESSERA_ZE_RESULT_ERROR_INVALID_KERNEL_HANDLE ((ze_result_t)0x7800001c)
/* Version 1.1 (Level Zero 1.10): kernel mutation. zeCommandListGetNextCommandIdWithKernelsExp is
 * zeCommandListGetNextCommandIdExp that also names the kernels the command may switch to (with
 * ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_INSTRUCTION in desc->flags; a null or foreign kernel handle:
 * ZE_RESULT_ERROR_INVALID_ARGUMENT). zeCommandListUpdateMutableCommandKernelsExp switches each
 * command to one of its kernels, all or nothing (one not given for that command, or an id without
 * the flag: INVALID_KERNEL_HANDLE / ZE_RESULT_ERROR_INVALID_ARGUMENT). The command
 * then launches the new kernel with that kernel's arguments, group size and offset as they are at
 * the call (as an append takes them), keeping its group count; the header asks for the switch
 * "before updating kernel arguments and dispatch parameters", which later updates then change. */
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListGetNextCommandIdWithKernelsExp(
    ze_command_list_handle_t hCommandList, const ze_mutable_command_id_exp_desc_t* desc,
    uint32_t numKernels, ze_kernel_handle_t* phKernels, uint64_t* pCommandId);
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListUpdateMutableCommandKernelsExp(
    ze_command_list_handle_t hCommandList, uint32_t numKernels, uint64_t* pCommandId,
    ze_kernel_handle_t* phKernels);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListGetNextCommandIdWithKernelsExp_t)(
    ze_command_list_handle_t, const ze_mutable_command_id_exp_desc_t*, uint32_t,
    ze_kernel_handle_t*, uint64_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListUpdateMutableCommandKernelsExp_t)(
    ze_command_list_handle_t, uint32_t, uint64_t*, ze_kernel_handle_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListGetNextCommandIdExp_t)(
    ze_command_list_handle_t, const ze_mutable_command_id_exp_desc_t*, uint64_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListUpdateMutableCommandsExp_t)(
    ze_command_list_handle_t, const ze_mutable_commands_exp_desc_t*);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListUpdateMutableCommandSignalEventExp_t)(
    ze_command_list_handle_t, uint64_t, ze_event_handle_t);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListUpdateMutableCommandWaitEventsExp_t)(
    ze_command_list_handle_t, uint64_t, uint32_t, ze_event_handle_t*);

/* Extension "ZE_experimental_immediate_command_list_append", version 1.0, from Level Zero 1.9:
 * appends closed regular command lists to an immediate command list, to run in order as one
 * command with the usual wait events and signal event. Declared here with the specification's
 * name, version and signature since Debian's 1.4 headers lack it.
 * Tessera's semantics (docs/architecture.md, "Appending command lists to an immediate list"):
 * - hCommandListImmediate must be an immediate list; phCommandLists regular lists, closed, of the
 *   immediate list's device and ordinal, and not updated since their last close (a mutable list
 *   must be closed again after zeCommandListUpdateMutableCommandsExp): otherwise
 *   ZE_RESULT_ERROR_INVALID_ARGUMENT, nothing appended.
 * - The lists' commands run in order after the wait events, then hSignalEvent is signalled. The
 *   commands are taken as they are at the call: a later update, reset or destroy of a list does not
 *   change (or end) what was appended. */
#ifndef ZE_IMMEDIATE_COMMAND_LIST_APPEND_EXP_NAME
#define ZE_IMMEDIATE_COMMAND_LIST_APPEND_EXP_NAME "ZE_experimental_immediate_command_list_append"
typedef enum _ze_immediate_command_list_append_exp_version_t {
  ZE_IMMEDIATE_COMMAND_LIST_APPEND_EXP_VERSION_1_0 = ZE_MAKE_VERSION(1, 0),
  ZE_IMMEDIATE_COMMAND_LIST_APPEND_EXP_VERSION_CURRENT = ZE_MAKE_VERSION(1, 0),
  ZE_IMMEDIATE_COMMAND_LIST_APPEND_EXP_VERSION_FORCE_UINT32 = 0x7fffffff
} ze_immediate_command_list_append_exp_version_t;
#endif
ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListImmediateAppendCommandListsExp(
    ze_command_list_handle_t hCommandListImmediate, uint32_t numCommandLists,
    ze_command_list_handle_t* phCommandLists, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents);
typedef ze_result_t(ZE_APICALL* ze_pfnCommandListImmediateAppendCommandListsExp_t)(
    ze_command_list_handle_t, uint32_t, ze_command_list_handle_t*, ze_event_handle_t, uint32_t,
    ze_event_handle_t*);

/* Extension "ZE_tessera_image_memory", version 1.0: images over memory the caller gives, and the
 * memory of an image. The OpenCL layer builds image1d_buffer_t images over a buffer's memory and
 * CL_MEM_USE_HOST_PTR images over the host's pointer with it, and maps images without a copy.
 *
 * Images are linear host memory (docs/architecture.md, "Images"): pixel (x, y, z) starts at
 * pData + x * pixel bytes + y * rowPitch + z * slicePitch, the coordinates as the kernel gives them
 * (a 1D array's layer is y, a 2D array's is z).
 *
 * Chained to ze_image_desc_t (pNext) at zeImageCreate, ze_tessera_image_memory_desc_t makes the
 * image use pMemory instead of memory of its own: the caller keeps it alive and unchanged in size
 * while the image lives. rowPitch / slicePitch 0 ask for the tight pitches (width * pixel bytes,
 * rowPitch * height; for a 1D array the layer pitch is rowPitch). A pitch smaller than the tight one,
 * or not a multiple of the pixel size: ZE_RESULT_ERROR_INVALID_ARGUMENT. pMemory null:
 * ZE_RESULT_ERROR_INVALID_NULL_POINTER.
 *
 * zeTesseraImageGetMemory gives an image's pixel (0, 0, 0) and pitches (its own memory or pMemory),
 * for the host to read and write directly; what runs on a queue at the same time is the caller's
 * to order. pRowPitch and pSlicePitch are optional; ppMemory null: ZE_RESULT_ERROR_INVALID_NULL_POINTER.
 * An image's own memory has the tight pitches; a view (zeImageViewCreateExp) has its image's.
 *
 * Tessera's image semantics the OpenCL layer relies on (core/image/format.h has the format table and
 * OpenCL's image formats in Level Zero terms):
 * - ZE_IMAGE_TYPE_BUFFER's width is in pixels, as the reference driver takes it (and OpenCL's
 *   image1d_buffer_t); ze_device_image_properties_t.maxImageBufferSize counts pixels likewise.
 * - ze_image_region_t uses the kernel's coordinates: a 1D array's layers are originY / height, a
 *   2D array's originZ / depth; height and depth 0 count as 1. In memory (the ...ToMemoryExt /
 *   ...FromMemoryExt pitches), a 1D array's layers are spaced by the slice pitch, as OpenCL's are.
 * - Sizes of 0 or beyond the device's limits: ZE_RESULT_ERROR_UNSUPPORTED_SIZE; miplevels above 1:
 *   ZE_RESULT_ERROR_UNSUPPORTED_FEATURE. Copies: a region past its image or images of different
 *   pixel sizes: ZE_RESULT_ERROR_INVALID_ARGUMENT; regions of different sizes or a memory pitch
 *   too small: ZE_RESULT_ERROR_INVALID_SIZE. Kernel arguments: a value that is not a live image or
 *   sampler handle: ZE_RESULT_ERROR_INVALID_ARGUMENT. */
#define ZE_TESSERA_IMAGE_MEMORY_EXT_NAME "ZE_tessera_image_memory"
#define ZE_TESSERA_IMAGE_MEMORY_EXT_VERSION ZE_MAKE_VERSION(1, 0)
#define ZE_STRUCTURE_TYPE_TESSERA_IMAGE_MEMORY_DESC ((ze_structure_type_t)0x7e550003)
typedef struct _ze_tessera_image_memory_desc_t {
  ze_structure_type_t stype; /* [in] ZE_STRUCTURE_TYPE_TESSERA_IMAGE_MEMORY_DESC */
  const void* pNext;         /* [in][optional] */
  void* pMemory;             /* [in] the image's pixel (0, 0, 0) */
  size_t rowPitch;           /* [in] bytes between rows (1D array: layers); 0: tight */
  size_t slicePitch;         /* [in] bytes between slices (2D array: layers); 0: tight */
} ze_tessera_image_memory_desc_t;

ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraImageGetMemory(ze_image_handle_t hImage,
                                                            void** ppMemory, size_t* pRowPitch,
                                                            size_t* pSlicePitch);
typedef ze_result_t(ZE_APICALL* ze_pfnTesseraImageGetMemory_t)(ze_image_handle_t, void**, size_t*,
                                                               size_t*);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_ZE_TESSERA_H */
