// zeInit and the driver entry points.
#include <cstdio>
#include <cstring>
#include <string>
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

namespace {

// "String returned is thread local."
thread_local std::string t_lastError;

// The driver, once: what zeInit(0) and zeInitDrivers for every type do.
ze_result_t initialize() {
  try {
    Driver::global();  // idempotent and thread-safe: the loader calls zeInit twice
  } catch (const tessera::core::TopologyError& e) {
    std::fprintf(stderr, "tessera: error: %s\n", e.what());
    setLastErrorDescription(e.what());
    return ZE_RESULT_ERROR_UNINITIALIZED;  // not even this machine's topology loads
  }
  g_initialized = true;
  return ZE_RESULT_SUCCESS;
}

}  // namespace

void tessera::ze::setLastErrorDescription(const char* what) noexcept {
  try {
    t_lastError = what ? what : "";
  } catch (...) {
  }
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeInit(ze_init_flags_t flags) {
  return guarded([&] {
    if (flags & ~ze_init_flags_t(ZE_INIT_FLAG_GPU_ONLY | ZE_INIT_FLAG_VPU_ONLY))
      return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    // A CPU driver has nothing to offer an application that asks for GPUs or VPUs only.
    if (flags != 0) return ZE_RESULT_ERROR_UNINITIALIZED;
    return initialize();
  });
}

// Level Zero 1.10's driver discovery by type. The header's ze_init_driver_type_flags_t: "0, do not
// init or retrieve any drivers. ZE_INIT_DRIVER_TYPE_FLAG_GPU, GPU Drivers are Init and driver
// handles retrieved. ZE_INIT_DRIVER_TYPE_FLAG_NPU, NPU Drivers are Init and driver handles
// retrieved. ... UINT32_MAX All Drivers of any type are Init and driver handles retrieved." Tessera
// is a driver of CPU devices (ZE_DEVICE_TYPE_CPU), neither GPU nor NPU, so only UINT32_MAX names
// it: then it initializes as zeInit(0) does and returns its one driver. GPU, NPU or both: "The
// drivers returned to the caller will be based on the init types which state the drivers to be
// included", none here: *pCount becomes 0 and the result is ZE_RESULT_ERROR_UNINITIALIZED, as
// zeInit(ZE_INIT_FLAG_GPU_ONLY) gives and as the public loader answers when no driver of the types
// asked for is present; nothing is initialized by the call, and a driver initialized before stays
// so ("Already init Drivers will not be uninitialized if the call to InitDrivers does not include
// that driver's type. Those init drivers which don't match the init flags will not have their
// driver handles returned to the user in that InitDrivers call"). Other bits, UINT32_MAX aside, are
// not "a valid combination of ze_init_driver_type_flag_t": INVALID_ENUMERATION, as for
// "0x0 == desc->flags".
ZE_APIEXPORT ze_result_t ZE_APICALL zeInitDrivers(uint32_t* pCount, ze_driver_handle_t* phDrivers,
                                                  ze_init_driver_type_desc_t* desc) {
  return guarded([&] {
    if (!pCount || !desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (!tessera::ze::isStructType(desc->stype, ZE_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC))
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    if (chainHasCycle(desc->pNext)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    constexpr ze_init_driver_type_flags_t kKnown =
        ZE_INIT_DRIVER_TYPE_FLAG_GPU | ZE_INIT_DRIVER_TYPE_FLAG_NPU;
    if (desc->flags == 0 || (desc->flags != UINT32_MAX && (desc->flags & ~kKnown)))
      return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    if (desc->flags != UINT32_MAX) {
      *pCount = 0;
      setLastErrorDescription(
          "zeInitDrivers: Tessera's device is a CPU, neither GPU nor NPU; "
          "ask for UINT32_MAX (every driver type)");
      return ZE_RESULT_ERROR_UNINITIALIZED;
    }
    if (ze_result_t r = initialize(); r != ZE_RESULT_SUCCESS) {
      *pCount = 0;
      return r;
    }
    return countQuery(pCount, phDrivers, 1,
                      [](uint32_t, ze_driver_handle_t& h) { h = Driver::global().toHandle(); });
  });
}

// Level Zero 1.6. "String may be empty if driver considers error code is already explicit enough":
// Tessera sets it for exceptions turned into error codes (guarded), a machine whose topology does
// not load, and zeInitDrivers' refusal of the GPU and NPU types; it is empty until then.
ZE_APIEXPORT ze_result_t ZE_APICALL zeDriverGetLastErrorDescription(ze_driver_handle_t hDriver,
                                                                    const char** ppString) {
  if (!Driver::fromHandle(hDriver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ppString) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *ppString = t_lastError.c_str();
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDriverGet(uint32_t* pCount, ze_driver_handle_t* phDrivers) {
  return guarded([&] {
    if (!g_initialized) return ZE_RESULT_ERROR_UNINITIALIZED;
    return countQuery(pCount, phDrivers, 1,
                      [](uint32_t, ze_driver_handle_t& h) { h = Driver::global().toHandle(); });
  });
}

// The version whose core functions are all implemented (docs/api-coverage.md, "Level Zero after
// 1.4", which scripts/api_coverage_current.py checks against this line); later versions' functions
// that are implemented are reached all the same, and extensions are reported one by one.
constexpr uint32_t kApiVersion = ZE_MAKE_VERSION(1, 17);

ZE_APIEXPORT ze_result_t ZE_APICALL zeDriverGetApiVersion(ze_driver_handle_t hDriver,
                                                          ze_api_version_t* version) {
  if (!Driver::fromHandle(hDriver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!version) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *version = static_cast<ze_api_version_t>(kApiVersion);
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDriverGetProperties(ze_driver_handle_t hDriver,
                                                          ze_driver_properties_t* p) {
  Driver* driver = Driver::fromHandle(hDriver);
  if (!driver) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  tessera::ze::adoptOutputStruct(*p, ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES);
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
  tessera::ze::adoptOutputStruct(*p, ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES);
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

// Intel's host-pointer import (tessera/ze_tessera.h; core/driver/host_imports.h). Not exported:
// reached through zeDriverGetExtensionFunctionAddress, as intel/compute-benchmarks reaches them.
ze_result_t ZE_APICALL zexDriverImportExternalPointer(ze_driver_handle_t hDriver, void* ptr,
                                                      size_t size) {
  Driver* driver = Driver::fromHandle(hDriver);
  if (!driver) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return guarded([&] { return driver->hostImports().import(ptr, size); });
}

ze_result_t ZE_APICALL zexDriverReleaseImportedPointer(ze_driver_handle_t hDriver, void* ptr) {
  Driver* driver = Driver::fromHandle(hDriver);
  if (!driver) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return driver->hostImports().release(ptr);
}

ze_result_t ZE_APICALL zexDriverGetHostPointerBaseAddress(ze_driver_handle_t hDriver, void* ptr,
                                                          void** baseAddress) {
  Driver* driver = Driver::fromHandle(hDriver);
  if (!driver) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return driver->hostImports().base(ptr, baseAddress);
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
  Driver* driver = Driver::fromHandle(hDriver);
  if (!driver) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pBalance) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // Every device of the driver is of one kind (the host's CPU), whose workers are the process's.
  if (driver->devices().empty()) return ZE_RESULT_ERROR_UNINITIALIZED;
  tessera::core::LaunchBalance b =
      tessera::core::launchBalance(*driver->devices().front(), reset != 0);
  *pBalance = {b.jobs, b.workers, b.spanNs, b.tailNs, b.maxTailNs, b.lateStartNs, b.busySpreadNs};
  return ZE_RESULT_SUCCESS;
}
