#include "core/context/context.h"

#include <unistd.h>

#include <algorithm>
#include <mutex>

#include "core/driver/driver.h"

namespace tessera::core {
namespace {

// Every live context of the process, for Context::memoryHolding.
std::mutex liveMutex;
std::vector<Context*>& live() {
  static auto* contexts = new std::vector<Context*>;  // never destroyed: contexts may outlive exit
  return *contexts;
}

}  // namespace

Ref<Context> Context::create(Driver& driver, std::vector<Device*> devices) {
  bool every = devices.empty();
  if (every)
    for (const auto& d : driver.allDevices()) devices.push_back(d.get());
  Context* c = new Context(driver, std::move(devices));
  c->everyDevice_ = every;
  return Ref<Context>::adopt(c);
}

Context::Context(Driver& driver, std::vector<Device*> devices)
    : driver_(driver), devices_(std::move(devices)) {
  memory_ = std::make_unique<MemoryManager>(devices_, driver.topology(),
                                            driver.config().sharedForceDeviceAlloc,
                                            driver.config().guardPages);
  std::lock_guard lock(liveMutex);
  live().push_back(this);
}

Context::~Context() { unlist(); }

void Context::unlist() {
  std::lock_guard lock(liveMutex);
  auto& contexts = live();
  contexts.erase(std::remove(contexts.begin(), contexts.end(), this), contexts.end());
}

void Context::destroy() {
  unlist();
  retireHandle();
  release();
}

Context& Context::defaultFor(Driver& driver) {
  Driver::DefaultContextSlot& slot = driver.defaultContextSlot();
  if (Context* c = slot.context.load(std::memory_order_acquire)) return *c;
  std::lock_guard lock(slot.mutex);
  if (Context* c = slot.context.load(std::memory_order_acquire)) return *c;
  Context* c = create(driver, {}).detach();
  slot.release = [](Context* context) { context->destroy(); };
  slot.context.store(c, std::memory_order_release);
  return *c;
}

bool Context::isDefault() const {
  return driver_.defaultContextSlot().context.load(std::memory_order_acquire) == this;
}

ze_result_t Context::getIpcHandle(const void* p, ze_ipc_mem_handle_t* handle) {
  MemoryManager& holder = memoryHolding(p);
  if (holder.find(p)) return holder.getIpcHandle(p, handle);
  IpcHandleData d;
  if (ze_result_t r = virtual_.exportIpc(p, d); r != ZE_RESULT_SUCCESS) return r;
  encode(d, *handle);
  return ZE_RESULT_SUCCESS;
}

ze_result_t Context::putIpcHandle(const ze_ipc_mem_handle_t& handle) {
  ze_result_t r = memory_->putIpcHandle(handle);
  IpcHandleData d;
  if (r != ZE_RESULT_SUCCESS && decode(handle, d) && d.pid == getpid() && virtual_.putIpc(d.cookie))
    return ZE_RESULT_SUCCESS;
  return r;
}

MemoryManager& Context::memoryHolding(const void* p) {
  if (memory_->find(p)) return *memory_;
  std::lock_guard lock(liveMutex);
  for (Context* other : live())
    if (other != this && &other->driver_ == &driver_ && other->memory_->find(p))
      return *other->memory_;
  return *memory_;
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
