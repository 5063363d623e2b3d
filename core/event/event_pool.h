// Event pools: the memory events live in. Each event is a slot: a flag word that host and device
// threads wait on, and the kernel timestamps of the command that signalled it.
#pragma once

#include <level_zero/ze_api.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "core/common/object.h"
#include "core/common/ref_counted.h"
#include "core/device/device.h"
#include "core/sync/wait.h"

namespace tessera::core {

class Context;

// ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP of Level Zero 1.6, which the 1.4 headers lack
// (TESSERA_ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP in tessera/ze_tessera.h; level_zero checks
// they agree).
constexpr ze_event_pool_flags_t kPoolKernelMappedTimestamp = 1u << 3;

struct EventSlot {
  std::atomic<uint32_t> state;  // a sync flag: bit 0 signalled (core/sync/wait.h)
  uint32_t reserved;
  ze_kernel_timestamp_result_t timestamps;
  // The completion counter of an IPC counter-based event (core/event/event.h), made in place by
  // its creator; unused in other slots (an ordinary counter-based event's is in the Event).
  sync::Counter counter;
};

// The pool's memory: a header, then the slots. An IPC pool's pages live in a memfd, so they can be
// mapped by another process (zeEventPoolOpenIpcHandle), which then waits and signals on the very
// same words; other pools' are zeroed heap memory (fd -1).
struct EventPoolHeader {
  uint64_t cookie;  // non-zero while the pool may be opened by other processes
  uint32_t count;
  uint32_t flags;
  uint8_t reserved[48];
};

class EventPool : public Object<_ze_event_pool_handle_t, 0x7465737345767031ull /* "tessEvp1" */>,
                  public RefCounted<EventPool> {
 public:
  static EventPool* create(Context& context, ze_event_pool_flags_t flags, uint32_t count,
                           std::vector<Device*> devices);
  // A pool of one event that never has a handle (a counter-based event's own,
  // zeEventCounterBasedCreate): not in the handle registry, its slot inside the object, or in a
  // memfd when `flags` has ZE_EVENT_POOL_FLAG_IPC (an IPC counter-based event's).
  static EventPool* createPrivate(Context& context, ze_event_pool_flags_t flags);
  // zeEventPoolOpenIpcHandle: maps the pool another process exported (`registered`: gets a
  // handle; an opened counter-based event's pool has none).
  static ze_result_t open(Context& context, const ze_ipc_event_pool_handle_t& handle,
                          EventPool*& out, bool registered = true);
  // zeEventPoolGetIpcHandle: only pools created with ZE_EVENT_POOL_FLAG_IPC. It writes only the
  // first kIpcBytesUsed bytes (an IPC counter-based event's handle puts its own after them).
  ze_result_t ipcHandle(ze_ipc_event_pool_handle_t& out) const;
  static constexpr size_t kIpcBytesUsed = 48;
  // Whether this process opened the pool from an IPC handle (and must close, not destroy, it).
  bool opened() const { return opened_; }
  static EventPool* fromHandle(ze_event_pool_handle_t h) { return Object::fromHandle<EventPool>(h); }

  Context& context() const { return *context_; }
  uint32_t count() const { return count_; }
  ze_event_pool_flags_t flags() const { return flags_; }
  // Whether events record the kernel timestamps of the commands that signal them: pools of
  // KERNEL_TIMESTAMP and of KERNEL_MAPPED_TIMESTAMP ("Indicates all events in pool will contain
  // kernel timestamps synchronized to host time domain"). Tessera's device timer is the host's
  // clock, so both record the same values; only the mapped pool's may be read as synchronized
  // timestamps (zeEventQueryKernelTimestampsExt).
  bool timestamps() const {
    return flags_ & (ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP |
                     kPoolKernelMappedTimestamp);
  }
  bool mappedTimestamps() const { return flags_ & kPoolKernelMappedTimestamp; }
  // Slots in memory other processes map use the process-shared futex.
  bool shared() const { return flags_ & ZE_EVENT_POOL_FLAG_IPC; }
  EventSlot& slot(uint32_t index) const { return slots_[index]; }
  // ZE_experimental_event_pool_counter_based: every event made from the pool is counter-based
  // (core/event/event.h), with `flags` (the pool descriptor's IMMEDIATE / NON_IMMEDIATE bits).
  // Set once, right after create().
  void makeCounterBased(uint32_t flags) {
    counterBased_ = true;
    counterFlags_ = flags;
  }
  bool counterBased() const { return counterBased_; }
  uint32_t counterFlags() const { return counterFlags_; }

  // Whether `index` names a slot of the pool. Several live events may share a slot (zeEventCreate,
  // "The application must ensure the location in the pool is not being used by another event", is
  // asked of the application; Intel's driver makes such events aliases, and intel/compute-benchmarks'
  // WaitOnEventCold creates every event at index 0): they are views of one state, so signalling or
  // resetting one does the same to the others (docs/api-coverage.md, "Leniency").
  bool holds(uint32_t index) const { return index < count_; }

  // zeEventPoolDestroy (created pools) and zeEventPoolCloseIpcHandle (opened ones): ends the
  // handle; events of the pool keep it.
  ze_result_t destroy();

 private:
  // A one-event pool whose slot lives inside the object (mapping null); `registered`: has a handle.
  static EventPool* createInline(Context& context, ze_event_pool_flags_t flags,
                                 std::vector<Device*> devices, bool registered);
  // A pool whose pages are a memfd's, which other processes may map (ZE_EVENT_POOL_FLAG_IPC).
  static EventPool* createShared(Context& context, ze_event_pool_flags_t flags, uint32_t count,
                                 std::vector<Device*> devices, bool registered);
  EventPool(Context& context, ze_event_pool_flags_t flags, uint32_t count,
            std::vector<Device*> devices, int fd, void* mapping, bool opened,
            bool registered = true);
  ~EventPool();
  friend class RefCounted<EventPool>;
  static size_t bytesFor(uint32_t count) { return sizeof(EventPoolHeader) + sizeof(EventSlot) * count; }

  Ref<Context> context_;  // held: the context may be destroyed first (context.h)
  ze_event_pool_flags_t flags_;
  uint32_t count_;
  std::vector<Device*> devices_;
  int fd_;
  EventPoolHeader* header_;
  EventSlot* slots_;
  bool opened_;
  bool counterBased_ = false;
  uint32_t counterFlags_ = 0;
  // A one-event pool's memory (header and slot), zeroed: no allocation of its own (createPrivate,
  // and create() for a count of 1).
  alignas(EventPoolHeader) unsigned char oneSlot_[sizeof(EventPoolHeader) + sizeof(EventSlot)] = {};
};

}  // namespace tessera::core
