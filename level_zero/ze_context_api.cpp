// The context entry points.
#include <memory>
#include <vector>

#include "core/context/context.h"
#include "core/driver/driver.h"
#include "level_zero/api_support.h"

using tessera::core::Context;
using tessera::core::Device;
using tessera::core::Driver;
using namespace tessera::ze;

namespace {

// Checks what zeContextCreate and zeContextCreateEx share, then makes the context.
ze_result_t createContext(ze_driver_handle_t hDriver, const ze_context_desc_t* desc,
                          uint32_t numDevices, const ze_device_handle_t* phDevices,
                          ze_context_handle_t* phContext) {
  Driver* driver = Driver::fromHandle(hDriver);
  if (!driver) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !phContext) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(desc->stype, ZE_STRUCTURE_TYPE_CONTEXT_DESC))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (desc->flags > ZE_CONTEXT_FLAG_TBD) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  if (numDevices > 0 && !phDevices) return ZE_RESULT_ERROR_INVALID_SIZE;
  return guarded([&] {
    std::vector<Device*> devices;
    for (uint32_t i = 0; i < numDevices; ++i) {
      Device* d = Device::fromHandle(phDevices[i]);
      if (!d || &d->driver() != driver) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
      devices.push_back(d);
    }
    *phContext = Context::create(*driver, std::move(devices)).detach()->toHandle();
    return ZE_RESULT_SUCCESS;
  });
}

}  // namespace

ZE_APIEXPORT ze_result_t ZE_APICALL zeContextCreate(ze_driver_handle_t hDriver,
                                                    const ze_context_desc_t* desc,
                                                    ze_context_handle_t* phContext) {
  return createContext(hDriver, desc, 0, nullptr, phContext);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeContextCreateEx(ze_driver_handle_t hDriver,
                                                      const ze_context_desc_t* desc,
                                                      uint32_t numDevices,
                                                      ze_device_handle_t* phDevices,
                                                      ze_context_handle_t* phContext) {
  return createContext(hDriver, desc, numDevices, phDevices, phContext);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeContextDestroy(ze_context_handle_t hContext) {
  Context* context = Context::fromHandle(hContext);
  if (!context) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  // "The application must ensure the device is not currently referencing the context before it is
  // deleted": unlike zeEventPoolDestroy and zeModuleDestroy, nothing asks for the objects made in
  // the context to be destroyed first. Those that are left keep it (Context::destroy).
  context->destroy();
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeContextGetStatus(ze_context_handle_t hContext) {
  Context* context = Context::fromHandle(hContext);
  if (!context) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return context->status();
}
