// A context: the devices it was created for. Memory, queues and modules will hang off it.
#pragma once

#include <level_zero/ze_api.h>

#include <memory>
#include <vector>

#include "core/common/object.h"
#include "core/device/device.h"

namespace tessera::core {

class Driver;

class Context : public Object<_ze_context_handle_t, 0x7465737343747831ull /* "tessCtx1" */> {
 public:
  // `devices` empty means every device of the driver, exposed or reachable through the hierarchy
  // ("zeContextCreate: the context can be used with all devices and sub-devices of the driver").
  static std::unique_ptr<Context> create(Driver& driver, std::vector<Device*> devices);
  static Context* fromHandle(ze_context_handle_t h) { return Object::fromHandle<Context>(h); }

  Driver& driver() const { return driver_; }
  bool hasDevice(const Device* d) const;
  const std::vector<Device*>& devices() const { return devices_; }
  // SUCCESS while usable; DEVICE_LOST once a fault has hit one of its devices (later issues).
  ze_result_t status() const { return ZE_RESULT_SUCCESS; }

 private:
  Context(Driver& driver, std::vector<Device*> devices)
      : driver_(driver), devices_(std::move(devices)) {}

  Driver& driver_;
  std::vector<Device*> devices_;
};

}  // namespace tessera::core
