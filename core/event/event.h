// An event: a slot of a pool, signalled and reset by the host or by commands, waited on by both.
#pragma once

#include <level_zero/ze_api.h>

#include "core/common/object.h"
#include "core/common/ref_counted.h"
#include "core/event/event_pool.h"
#include "core/sync/wait.h"

namespace tessera::core {

class Event : public Object<_ze_event_handle_t, 0x7465737345766e31ull /* "tessEvn1" */>,
              public RefCounted<Event> {
 public:
  // nullptr when the index is out of range or already has a live event. The scopes are the
  // descriptor's, kept for zeEventGetSignalScope / zeEventGetWaitScope (host memory is coherent:
  // nothing else depends on them).
  static Event* create(EventPool& pool, uint32_t index, ze_event_scope_flags_t signalScope = 0,
                       ze_event_scope_flags_t waitScope = 0);
  static Event* fromHandle(ze_event_handle_t h) { return Object::fromHandle<Event>(h); }

  EventPool& pool() const { return *pool_; }
  ze_event_scope_flags_t signalScope() const { return signalScope_; }
  ze_event_scope_flags_t waitScope() const { return waitScope_; }
  bool isSignaled() const { return sync::flagIsSet(slot().state); }
  void signal() { sync::flagSet(slot().state, pool_->shared()); }
  void reset() { sync::flagClear(slot().state); }
  // False on timeout or cancel.
  bool wait(uint64_t timeoutNs, const sync::Cancel* cancel = nullptr) {
    return sync::flagWait(slot().state, timeoutNs, pool_->shared(), cancel);
  }
  // Requested by destroy(): a host wait under way (given this as its cancel) ends then, instead of
  // waiting on a slot that the next event of the same index will use.
  const sync::Cancel& destroyed() const { return destroyed_; }
  // The span of the command that signals the event, for kernel-timestamp pools.
  void recordSpan(uint64_t start, uint64_t end);
  const ze_kernel_timestamp_result_t& timestamps() const { return slot().timestamps; }

  void destroy();

 private:
  Event(EventPool& pool, uint32_t index) : pool_(&pool), index_(index) {}
  ~Event();
  friend class RefCounted<Event>;
  EventSlot& slot() const { return pool_->slot(index_); }

  Ref<EventPool> pool_;
  uint32_t index_;
  ze_event_scope_flags_t signalScope_ = 0;
  ze_event_scope_flags_t waitScope_ = 0;
  sync::Cancel destroyed_;
};

}  // namespace tessera::core
