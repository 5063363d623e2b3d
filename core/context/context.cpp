#include "core/context/context.h"

#include <algorithm>

#include "core/driver/driver.h"

namespace tessera::core {

std::unique_ptr<Context> Context::create(Driver& driver, std::vector<Device*> devices) {
  if (devices.empty())
    for (const auto& d : driver.allDevices()) devices.push_back(d.get());
  return std::unique_ptr<Context>(new Context(driver, std::move(devices)));
}

Context::Context(Driver& driver, std::vector<Device*> devices)
    : driver_(driver), devices_(std::move(devices)) {
  memory_ = std::make_unique<MemoryManager>(*this);
}

bool Context::ownsRange(const void* p, size_t bytes) const {
  return memory_->containsRange(p, bytes) || virtual_.isMapped(p, bytes);
}

bool Context::hasDevice(const Device* d) const {
  return std::find(devices_.begin(), devices_.end(), d) != devices_.end();
}

}  // namespace tessera::core
