// Level Zero 1.16's runtime requirements (tessera/ze_tessera_current.h declares them; what the
// text says and how it is validated: core/module/runtime_requirements.h).
#include <cstring>
#include <string>

#include "core/cmdlist/graph.h"
#include "core/device/device.h"
#include "core/module/module.h"
#include "core/module/runtime_requirements.h"
#include "level_zero/api_support.h"
#include "tessera/ze_tessera.h"

using namespace tessera::core;
using tessera::ze::guarded;

namespace {

// Whether pObjDesc describes a live module or graph. Both descriptors are {stype, pNext, handle};
// an stype that is no structure type (left 0, the leniency of docs/api-coverage.md) is taken as
// either, the handle telling which.
bool describesObject(const void* pObjDesc) {
  const auto* module = static_cast<const ze_runtime_requirements_module_desc_t*>(pObjDesc);
  const auto* graph = static_cast<const ze_runtime_requirements_graph_desc_t*>(pObjDesc);
  if (tessera::ze::isStructType(module->stype, ZE_STRUCTURE_TYPE_RUNTIME_REQUIREMENTS_MODULE_DESC) &&
      Module::fromHandle(module->requirementsSrc))
    return true;
  return tessera::ze::isStructType(graph->stype, ZE_STRUCTURE_TYPE_RUNTIME_REQUIREMENTS_GRAPH_DESC) &&
         Graph::fromHandle(graph->requirementsSrc);
}

}  // namespace

// "pSize is set to represent the actual written length of the requirements string in bytes": with
// its terminating null. A buffer shorter than that: the header's INVALID_NULL_POINTER
// ("(nullptr != pRequirements) && (*pSize < requiredSize)"), nothing written.
ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetRuntimeRequirements(ze_device_handle_t hDevice,
                                                                   const void* pObjDesc,
                                                                   size_t* pSize,
                                                                   char* pRequirements) {
  Device* device = Device::fromHandle(hDevice);
  if (!device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pObjDesc || !pSize) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!describesObject(pObjDesc)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  return guarded([&] {
    std::string text;
    if (ze_result_t r = runtimeRequirements(device->driver(), text); r != ZE_RESULT_SUCCESS)
      return r;
    const size_t required = text.size() + 1;
    if (pRequirements) {
      if (*pSize < required) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
      std::memcpy(pRequirements, text.c_str(), required);
    }
    *pSize = required;
    return ZE_RESULT_SUCCESS;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetRuntimeRequirementsKey(ze_device_handle_t hDevice,
                                                                      const char** pKey) {
  if (!Device::fromHandle(hDevice)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pKey) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *pKey = kRuntimeRequirementsKey;
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceValidateRuntimeRequirements(
    ze_device_handle_t hDevice, const char* pRequirements,
    ze_validate_runtime_requirements_output_t* pOut) {
  Device* device = Device::fromHandle(hDevice);
  if (!device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pRequirements || !pOut) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return guarded([&] {
    pOut->result = static_cast<ze_validate_runtime_requirements_result_t>(
        checkRuntimeRequirements(device->driver(), pRequirements));
    return ZE_RESULT_SUCCESS;
  });
}
