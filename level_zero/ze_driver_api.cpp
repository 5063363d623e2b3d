// zeInit and the driver entry points.
#include <cstdio>
#include <cstring>
#include <string_view>

#include "core/driver/driver.h"
#include "core/queue/kernel_launch.h"
#include "trace/trace.h"
#include "level_zero/api_support.h"
#include "level_zero/extensions.h"
#include "tessera/ze_tessera.h"

using tessera::core::Driver;
using namespace tessera::ze;

std::atomic<bool> tessera::ze::g_initialized{false};

ZE_APIEXPORT ze_result_t ZE_APICALL zeInit(ze_init_flags_t flags) {
  return guarded([&] {
    if (flags & ~ze_init_flags_t(ZE_INIT_FLAG_GPU_ONLY | ZE_INIT_FLAG_VPU_ONLY))
      return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    // A CPU driver has nothing to offer an application that asks for GPUs or VPUs only.
    if (flags != 0) return ZE_RESULT_ERROR_UNINITIALIZED;
    try {
      Driver::global();  // idempotent and thread-safe: the loader calls zeInit twice
    } catch (const tessera::core::TopologyError& e) {
      std::fprintf(stderr, "tessera: error: %s\n", e.what());
      return ZE_RESULT_ERROR_UNINITIALIZED;  // not even this machine's topology loads
    }
    g_initialized = true;
    return ZE_RESULT_SUCCESS;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDriverGet(uint32_t* pCount, ze_driver_handle_t* phDrivers) {
  return guarded([&] {
    if (!g_initialized) return ZE_RESULT_ERROR_UNINITIALIZED;
    return countQuery(pCount, phDrivers, 1,
                      [](uint32_t, ze_driver_handle_t& h) { h = Driver::global().toHandle(); });
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDriverGetApiVersion(ze_driver_handle_t hDriver,
                                                          ze_api_version_t* version) {
  if (!Driver::fromHandle(hDriver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!version) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *version = ZE_API_VERSION_1_4;
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDriverGetProperties(ze_driver_handle_t hDriver,
                                                          ze_driver_properties_t* p) {
  Driver* driver = Driver::fromHandle(hDriver);
  if (!driver) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(p->stype, ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (chainHasCycle(p->pNext)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  p->uuid = driver->uuid();
  p->driverVersion = Driver::version();
  // ZE_extension_memory_free_policies: the policies zeMemFreeExt honours.
  for (auto* e = static_cast<ze_base_properties_t*>(p->pNext); e;
       e = static_cast<ze_base_properties_t*>(e->pNext))
    if (e->stype == ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES)
      reinterpret_cast<ze_driver_memory_free_ext_properties_t*>(e)->freePolicies =
          ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE |
          ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE;
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDriverGetIpcProperties(ze_driver_handle_t hDriver,
                                                             ze_driver_ipc_properties_t* p) {
  if (!Driver::fromHandle(hDriver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(p->stype, ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // Memory IPC over memfd and pidfd (core/memory/ipc.h), event pools likewise (core/event).
  p->flags = ZE_IPC_PROPERTY_FLAG_MEMORY | ZE_IPC_PROPERTY_FLAG_EVENT_POOL;
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDriverGetExtensionProperties(
    ze_driver_handle_t hDriver, uint32_t* pCount, ze_driver_extension_properties_t* pProps) {
  if (!Driver::fromHandle(hDriver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  const auto& exts = extensions();
  return countQuery(pCount, pProps, exts.size(),
                    [&](uint32_t i, ze_driver_extension_properties_t& out) {
                      std::memset(out.name, 0, sizeof out.name);
                      std::strncpy(out.name, exts[i].name, sizeof out.name - 1);
                      out.version = exts[i].version;
                    });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDriverGetExtensionFunctionAddress(ze_driver_handle_t hDriver,
                                                                        const char* name,
                                                                        void** ppFunctionAddress) {
  if (!Driver::fromHandle(hDriver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!name || !ppFunctionAddress) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *ppFunctionAddress = extensionFunction(name);
  return *ppFunctionAddress ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

// ZE_tessera_trace (trace/trace.h).
ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraTraceFlush(ze_driver_handle_t hDriver) {
  if (!Driver::fromHandle(hDriver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (tessera::trace::enabled()) tessera::trace::flush();
  return ZE_RESULT_SUCCESS;
}

// ZE_tessera_launch_balance (core/queue/kernel_launch.h).
ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraDriverGetLaunchBalance(
    ze_driver_handle_t hDriver, ze_bool_t reset, ze_tessera_launch_balance_t* pBalance) {
  if (!Driver::fromHandle(hDriver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pBalance) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  tessera::core::LaunchBalance b = tessera::core::launchBalance(reset != 0);
  *pBalance = {b.jobs, b.workers, b.spanNs, b.tailNs, b.maxTailNs, b.lateStartNs, b.busySpreadNs};
  return ZE_RESULT_SUCCESS;
}
