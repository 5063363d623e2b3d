#include "core/context/context.h"

#include <algorithm>

#include "core/driver/driver.h"

namespace tessera::core {

std::unique_ptr<Context> Context::create(Driver& driver, std::vector<Device*> devices) {
  bool every = devices.empty();
  if (every)
    for (const auto& d : driver.allDevices()) devices.push_back(d.get());
  std::unique_ptr<Context> c(new Context(driver, std::move(devices)));
  c->everyDevice_ = every;
  return c;
}

Context::Context(Driver& driver, std::vector<Device*> devices)
    : driver_(driver), devices_(std::move(devices)) {
  memory_ = std::make_unique<MemoryManager>(*this);
}

bool Context::ownsRange(const void* p, size_t bytes) const {
  return memory_->containsRange(p, bytes) || virtual_.isMapped(p, bytes);
}

bool Context::hasDevice(const Device* d) const {
  if (!d) return false;
  if (everyDevice_) return &d->driver() == &driver_;
  for (; d; d = d->parent())
    if (std::find(devices_.begin(), devices_.end(), d) != devices_.end()) return true;
  return false;
}

}  // namespace tessera::core
