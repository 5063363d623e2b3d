#include "core/memory/memory_manager.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>

#include "core/common/remote_fd.h"
#include "core/device/device.h"
#include "core/device/limits.h"
#include "core/memory/physical_memory.h"

namespace tessera::core {
namespace {

std::atomic<uint64_t> g_nextId{1};

// The allocation is no longer exported: openers of its handles are refused from now on (its
// export-table entry is cleared) and its own descriptor is closed.
void endExport(Allocation& a) {
  if (a.slot.backing) a.slot.backing->exportEntry(a.slot.offset) = ExportEntry{0, 0};
  a.exportCookie = 0;
  closeFd(a.exportFd);
  a.exportFd = -1;
}

}  // namespace

MemoryManager::MemoryManager(const std::vector<Device*>& devices, const Topology& topology,
                             bool sharedForceDeviceAlloc, bool guardPages)
    : topology_(topology),
      sharedForceDeviceAlloc_(sharedForceDeviceAlloc),
      guardPages_(guardPages),
      contextNodes_(numaNodesOf(devices)) {
  for (Device* d : devices)
    hostLimit_ = std::max(hostLimit_, limits::maxMemAllocSize(d->resources()));
}

MemoryManager::~MemoryManager() {
  for (Allocation& a : map_.takeAll()) dispose(a);
}

ze_result_t MemoryManager::outOfMemory(const AllocRequest& r) const {
  return r.kind == MemoryKind::Host || !r.device ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY
                                                 : ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
}

ze_result_t MemoryManager::mapImport(const AllocRequest& r, Allocation& a) {
  struct stat st;
  if (fstat(r.importFd, &st) != 0 || static_cast<uint64_t>(st.st_size) < r.size)
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  a.mappedBytes = roundUp(r.size, kPageSize);
  void* p = mapAligned(a.mappedBytes, std::max(r.alignment, kPageSize), PROT_READ | PROT_WRITE,
                       MAP_SHARED, r.importFd, 0);
  if (!p) return errno == ENOMEM ? outOfMemory(r) : ZE_RESULT_ERROR_INVALID_ARGUMENT;
  a.base = static_cast<uint8_t*>(p);
  a.mapping = a.base;
  a.origin = Origin::Imported;
  return ZE_RESULT_SUCCESS;
}

Placement MemoryManager::placement(MemoryKind kind, const Device* device) const {
  return placementFor(kind, device, contextNodes_, sharedForceDeviceAlloc_, topology_);
}

std::unique_ptr<PhysicalMemory> MemoryManager::createPhysical(Context& context, Device* device,
                                                              size_t bytes) const {
  return PhysicalMemory::create(
      context, device, placement(device ? MemoryKind::Device : MemoryKind::Host, device), bytes);
}

ze_result_t MemoryManager::allocate(const AllocRequest& r, void** out) {
  uint64_t limit = r.device ? limits::maxMemAllocSize(r.device->resources()) : hostLimit_;
  // Tessera does not offer ZE_experimental_relaxed_allocation_limits: maxMemAllocSize is a limit.
  if (r.size > limit) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  Allocation a;
  a.size = r.size;
  a.kind = r.kind;
  a.device = r.device;
  if (r.importFd >= 0) {
    ze_result_t res = mapImport(r, a);
    if (res != ZE_RESULT_SUCCESS) return res;
  } else {
    Placement placement = this->placement(r.kind, r.device);
    ArenaAllocator& arena = ArenaAllocator::global();
    a.slot = guardPages_ && !r.exportable
                 ? arena.allocateGuarded(r.size, r.alignment, placement)
                 : arena.allocate(r.size, r.alignment, placement, r.exportable);
    if (!a.slot.ptr) return outOfMemory(r);
    a.base = a.slot.ptr;
    a.exportable = r.exportable;
  }
  a.id = g_nextId.fetch_add(1, std::memory_order_relaxed);
  void* base = a.base;
  try {
    map_.insert(std::move(a));
  } catch (...) {
    dispose(a);
    throw;
  }
  *out = base;
  return ZE_RESULT_SUCCESS;
}

void MemoryManager::dispose(Allocation& a) {
  if (a.exportCookie) {
    {
      std::lock_guard lock(exportsMutex_);
      exports_.erase(a.exportCookie);
    }
    endExport(a);
  }
  if (a.origin == Origin::Allocated)
    // Pages no other process can have mapped may serve a later allocation (ArenaAllocator).
    ArenaAllocator::global().release(a.slot, !a.exportable && !a.ipcExported);
  else if (a.mapping)
    munmap(a.mapping, a.mappedBytes);
  a.base = nullptr;
}

ze_result_t MemoryManager::free(void* ptr, FreePolicy policy) {
  std::optional<Allocation> gone;
  {
    std::unique_lock lock(map_.mutex());
    Allocation* a = map_.findLocked(ptr);
    if (!a || a->base != ptr || a->origin == Origin::IpcOpened)
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    if (a->uses > 0 && policy == FreePolicy::Defer) {
      a->freePending = true;
      return ZE_RESULT_SUCCESS;
    }
    if (policy == FreePolicy::Blocking) {
      // "BLOCKING_FREE: Blocks until all commands using the memory are complete before freeing."
      usesDone_.wait(lock, [&] {
        Allocation* b = map_.findLocked(ptr);
        return !b || b->base != ptr || b->uses == 0;
      });
    }
    gone = map_.eraseLocked(ptr);
  }
  if (!gone) return ZE_RESULT_ERROR_INVALID_ARGUMENT;  // another thread freed it meanwhile
  atomicAttributes_.erase(gone->base, gone->size);
  dispose(*gone);
  return ZE_RESULT_SUCCESS;
}

bool MemoryManager::acquireUse(const void* p) {
  return map_.update(p, [](Allocation& a) { ++a.uses; });
}

void MemoryManager::releaseUse(const void* p) {
  std::optional<Allocation> gone;
  {
    std::unique_lock lock(map_.mutex());
    Allocation* a = map_.findLocked(p);
    if (!a || a->uses == 0) return;
    if (--a->uses == 0 && a->freePending) gone = map_.eraseLocked(a->base);
  }
  usesDone_.notify_all();
  if (gone) dispose(*gone);
}

ze_result_t MemoryManager::exportFd(const void* p, int* fd) {
  std::optional<Allocation> a = map_.find(p);
  // The guide's flow: an allocation made with ze_external_memory_export_desc_t is exported by
  // chaining ze_external_memory_export_fd_t into zeMemGetAllocProperties.
  if (!a || !a->exportable || !a->slot.backing) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  int d = fcntl(a->slot.backing->fd(), F_DUPFD_CLOEXEC, 0);
  if (d < 0) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  *fd = d;
  return ZE_RESULT_SUCCESS;
}

ze_result_t MemoryManager::getIpcHandle(const void* p, ze_ipc_mem_handle_t* handle) {
  IpcHandleData d;
  bool noFd = false;
  bool ok = map_.update(p, [&](Allocation& a) {
    if (a.origin != Origin::Allocated) return;
    if (!a.exportCookie) {
      // A descriptor of its own (closed when the last handle is put or the allocation freed):
      // the handle's first bytes then name this export alone, even in a file other allocations
      // share (ExportEntry::fd).
      const int fd = fcntl(a.slot.backing->fd(), F_DUPFD_CLOEXEC, 0);
      if (fd < 0) {
        noFd = true;
        return;
      }
      a.exportFd = fd;
      a.exportCookie = randomCookie();
      a.ipcExported = true;
      a.slot.backing->exportEntry(a.slot.offset) = ExportEntry{a.exportCookie, a.size, fd};
    }
    {
      std::lock_guard lock(exportsMutex_);
      auto& e = exports_[a.exportCookie];
      e.first = a.base;
      ++e.second;
    }
    d.pid = getpid();
    d.fd = a.exportFd;
    d.dataOffset = a.slot.offset;
    d.lead = static_cast<uint32_t>(a.slot.lead());
    d.size = a.size;
    d.tableOffset = a.slot.backing->exportTableOffset();
    d.cookie = a.exportCookie;
    d.kind = toZe(a.kind);
  });
  if (noFd) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  // Only allocations of this context, made here: an opened or imported mapping has no memfd of
  // ours.
  if (!ok || d.cookie == 0) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  encode(d, *handle);
  return ZE_RESULT_SUCCESS;
}

ze_result_t MemoryManager::putIpcHandle(const ze_ipc_mem_handle_t& handle) {
  IpcHandleData d;
  if (!decode(handle, d) || d.pid != getpid()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  uint8_t* base = nullptr;
  {
    std::lock_guard lock(exportsMutex_);
    auto it = exports_.find(d.cookie);
    if (it == exports_.end()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    base = it->second.first;
  }
  bool ok = map_.update(base, [&](Allocation& a) {
    if (a.base != base || a.exportCookie != d.cookie) return;
    std::lock_guard lock(exportsMutex_);
    auto it = exports_.find(d.cookie);
    if (it == exports_.end() || --it->second.second > 0) return;
    // The last handle is back: openers that still hold the bytes can no longer open them.
    exports_.erase(it);
    endExport(a);
  });
  return ok ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

ze_result_t MemoryManager::openIpcHandle(Device* device, const ze_ipc_mem_handle_t& handle,
                                         void** out) {
  IpcHandleData d;
  if (!decode(handle, d) && !decodeBareDescriptor(handle, d))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  IpcMapping m = openIpc(d, guardPages_);
  if (m.result != ZE_RESULT_SUCCESS) return m.result;
  Allocation a;
  a.base = static_cast<uint8_t*>(m.ptr);
  a.size = d.size;
  a.mapping = static_cast<uint8_t*>(m.mapping);
  a.mappedBytes = m.mappedBytes;
  a.origin = Origin::IpcOpened;
  a.kind = d.kind == ZE_MEMORY_TYPE_HOST     ? MemoryKind::Host
           : d.kind == ZE_MEMORY_TYPE_SHARED ? MemoryKind::Shared
                                             : MemoryKind::Device;
  a.device = a.kind == MemoryKind::Host ? nullptr : device;
  a.id = g_nextId.fetch_add(1, std::memory_order_relaxed);
  try {
    map_.insert(a);
  } catch (...) {
    munmap(m.mapping, m.mappedBytes);
    throw;
  }
  *out = m.ptr;
  return ZE_RESULT_SUCCESS;
}

ze_result_t MemoryManager::closeIpcHandle(const void* p) {
  std::optional<Allocation> gone;
  {
    std::unique_lock lock(map_.mutex());
    Allocation* a = map_.findLocked(p);
    if (!a || a->base != p || a->origin != Origin::IpcOpened)
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    gone = map_.eraseLocked(p);
  }
  dispose(*gone);
  return ZE_RESULT_SUCCESS;
}

}  // namespace tessera::core
