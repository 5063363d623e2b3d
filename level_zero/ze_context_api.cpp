// The context entry points.
#include <memory>
#include <vector>

#include "core/context/context.h"
#include "core/driver/driver.h"
#include "level_zero/api_support.h"
#include "tessera/ze_tessera.h"

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

// Level Zero 1.14: "Retrieves handle to default context from the driver. The implementation of
// this function should be lock-free. This returned context contains all the devices available in
// the driver. This function does not return error code, to get info about failure user may use
// zeDriverGetLastErrorDescription function. In case of failure, this function returns null."
// Made on the first call, as zeContextCreate makes a context of every device, and kept by the
// driver: the same handle every time (an atomic load once made, Context::defaultFor).
ZE_APIEXPORT ze_context_handle_t ZE_APICALL zeDriverGetDefaultContext(ze_driver_handle_t hDriver) {
  Driver* driver = Driver::fromHandle(hDriver);
  if (!driver) {
    setLastErrorDescription("zeDriverGetDefaultContext: hDriver is not a driver handle");
    return nullptr;
  }
  ze_context_handle_t handle = nullptr;
  // guarded() turns a failure into a code and sets the last error description from it.
  (void)guarded([&] {
    handle = Context::defaultFor(*driver).toHandle();
    return ZE_RESULT_SUCCESS;
  });
  return handle;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeContextDestroy(ze_context_handle_t hContext) {
  Context* context = Context::fromHandle(hContext);
  if (!context) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  // The default context (zeDriverGetDefaultContext) is the driver's, shared by every part of the
  // program that asked for it: destroying it for one would leave the others with a dead handle,
  // so it is refused with the header's ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE and stays usable.
  if (context->isDefault()) {
    setLastErrorDescription(
        "zeContextDestroy: the default context (zeDriverGetDefaultContext) belongs to the driver "
        "and is not destroyed");
    return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
  }
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
