#include "core/event/event_pool.h"

#include <sys/mman.h>

#include <new>

namespace tessera::core {

EventPool* EventPool::create(Context& context, ze_event_pool_flags_t flags, uint32_t count,
                             std::vector<Device*> devices) {
  return new EventPool(context, flags, count, std::move(devices));
}

EventPool::EventPool(Context& context, ze_event_pool_flags_t flags, uint32_t count,
                     std::vector<Device*> devices)
    : context_(context), flags_(flags), count_(count), devices_(std::move(devices)),
      claimed_(count, false) {
  // Slots live in their own shared mapping, so an IPC pool can hand the same pages to another
  // process; zero-filled pages are slots in the not-signalled state.
  mappedBytes_ = sizeof(EventSlot) * count;
  void* p = mmap(nullptr, mappedBytes_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  slots_ = static_cast<EventSlot*>(p);
}

EventPool::~EventPool() { munmap(slots_, mappedBytes_); }

bool EventPool::claim(uint32_t index) {
  std::lock_guard lock(mutex_);
  if (index >= count_ || claimed_[index]) return false;
  claimed_[index] = true;
  ++live_;
  return true;
}

void EventPool::unclaim(uint32_t index) {
  std::lock_guard lock(mutex_);
  claimed_[index] = false;
  --live_;
}

bool EventPool::hasLiveEvents() const {
  std::lock_guard lock(mutex_);
  return live_ != 0;
}

ze_result_t EventPool::destroy() {
  // "The application must destroy all event handles created from the pool before destroying the
  // pool itself."
  if (hasLiveEvents()) return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
  retireHandle();
  release();
  return ZE_RESULT_SUCCESS;
}

}  // namespace tessera::core
