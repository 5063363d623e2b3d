#include "core/event/event_pool.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <new>

#include "core/common/remote_fd.h"
#include "core/context/context.h"

namespace tessera::core {
namespace {

// What travels in a ze_ipc_event_pool_handle_t, the descriptor number first (programs written for
// the reference driver send the first four bytes as a descriptor: core/common/remote_fd.h).
struct IpcData {
  static constexpr uint32_t kMagic = 0x50457354;  // "TsEP"
  static constexpr uint32_t kVersion = 3;  // 3: slots of 64 bytes (EventSlot::counter)
  int32_t fd;
  uint32_t magic;
  uint32_t version;
  int32_t pid;
  uint64_t cookie;
  uint32_t count;
  uint32_t flags;
};
static_assert(sizeof(IpcData) <= EventPool::kIpcBytesUsed);

void* mapShared(int fd, size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  return p == MAP_FAILED ? nullptr : p;
}

}  // namespace

EventPool* EventPool::create(Context& context, ze_event_pool_flags_t flags, uint32_t count,
                             std::vector<Device*> devices) {
  if (!(flags & ZE_EVENT_POOL_FLAG_IPC)) {
    // Only an IPC pool's pages are shared with another process; the others live in zeroed heap
    // memory (a memfd, its size and its mapping cost about 5 us to make and 4 to undo, which
    // programs that make a pool per test or per frame paid each time), a one-event pool's inside
    // the object (mapping null: the constructor takes oneSlot_).
    if (count == 1) return createInline(context, flags, std::move(devices), /*registered=*/true);
    void* p = std::calloc(1, bytesFor(count));
    if (!p) throw std::bad_alloc();
    try {
      auto* pool = new EventPool(context, flags, count, std::move(devices), -1, p, false);
      pool->header_->count = count;
      pool->header_->flags = flags;
      return pool;
    } catch (...) {
      std::free(p);
      throw;
    }
  }
  return createShared(context, flags, count, std::move(devices), /*registered=*/true);
}

EventPool* EventPool::createShared(Context& context, ze_event_pool_flags_t flags, uint32_t count,
                                   std::vector<Device*> devices, bool registered) {
  int fd = memfd_create("tessera-event-pool", MFD_CLOEXEC);
  if (fd < 0) throw std::bad_alloc();
  void* p = ftruncate(fd, static_cast<off_t>(bytesFor(count))) == 0 ? mapShared(fd, bytesFor(count))
                                                                    : nullptr;
  if (!p) {
    close(fd);
    throw std::bad_alloc();
  }
  // Zero-filled pages are slots in the not-signalled state.
  auto* pool =
      new EventPool(context, flags, count, std::move(devices), fd, p, false, registered);
  pool->header_->count = count;
  pool->header_->flags = flags;
  pool->header_->cookie = randomCookie();
  return pool;
}

EventPool* EventPool::createPrivate(Context& context, ze_event_pool_flags_t flags) {
  if (flags & ZE_EVENT_POOL_FLAG_IPC) return createShared(context, flags, 1, {}, false);
  return createInline(context, flags, {}, /*registered=*/false);
}

EventPool* EventPool::createInline(Context& context, ze_event_pool_flags_t flags,
                                   std::vector<Device*> devices, bool registered) {
  auto* pool =
      new EventPool(context, flags, 1, std::move(devices), -1, nullptr, false, registered);
  pool->header_->count = 1;
  pool->header_->flags = flags;
  return pool;
}

ze_result_t EventPool::open(Context& context, const ze_ipc_event_pool_handle_t& handle,
                            EventPool*& out, bool registered) {
  IpcData d;
  std::memcpy(&d, handle.data, sizeof d);
  if (d.magic != IpcData::kMagic || d.version != IpcData::kVersion || d.count == 0)
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // The cookie tells the exporter's live pool from a file that merely has the same number now.
  void* p = nullptr;
  auto exported = [&](int candidate) {
    p = mapShared(candidate, bytesFor(d.count));
    if (p && static_cast<EventPoolHeader*>(p)->cookie == d.cookie &&
        static_cast<EventPoolHeader*>(p)->count == d.count)
      return true;
    if (p) munmap(p, bytesFor(d.count));
    p = nullptr;
    return false;
  };
  RemoteFd remote = takeHandleFd(d.pid, d.fd, bytesFor(d.count), exported);
  if (remote.result != ZE_RESULT_SUCCESS) return remote.result;
  out = new EventPool(context, d.flags, d.count, {}, remote.fd, p, true, registered);
  return ZE_RESULT_SUCCESS;
}

EventPool::EventPool(Context& context, ze_event_pool_flags_t flags, uint32_t count,
                     std::vector<Device*> devices, int fd, void* mapping, bool opened,
                     bool registered)
    : Object(registered), context_(&context), flags_(flags), count_(count),
      devices_(std::move(devices)), fd_(fd),
      header_(static_cast<EventPoolHeader*>(mapping ? mapping : oneSlot_)),
      slots_(reinterpret_cast<EventSlot*>(header_ + 1)), opened_(opened) {}

EventPool::~EventPool() {
  if (fd_ < 0) {  // not IPC: heap memory (create) unless inside the object
    if (static_cast<void*>(header_) != oneSlot_) std::free(header_);
    return;
  }
  if (!opened_) header_->cookie = 0;  // handles still out there stop opening
  munmap(header_, bytesFor(count_));
  close(fd_);
}

ze_result_t EventPool::ipcHandle(ze_ipc_event_pool_handle_t& out) const {
  if (!shared() || opened_) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  IpcData d{
      fd_,    IpcData::kMagic, IpcData::kVersion, static_cast<int32_t>(getpid()), header_->cookie,
      count_, flags_};
  std::memset(out.data, 0, sizeof out.data);
  std::memcpy(out.data, &d, sizeof d);
  return ZE_RESULT_SUCCESS;
}

ze_result_t EventPool::destroy() {
  // "The application must destroy all event handles created from the pool before destroying the
  // pool itself" is asked of the application; Intel's driver destroys a pool whose events live with
  // SUCCESS, and intel/compute-benchmarks destroys pools before their events. Events hold the pool
  // (Event::pool_), so they stay usable until destroyed, and the pool's pages live until the last
  // of them is gone: only the handle ends here (docs/api-coverage.md, "Leniency").
  retireHandle();
  release();
  return ZE_RESULT_SUCCESS;
}

}  // namespace tessera::core
