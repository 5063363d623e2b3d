// The USM allocations of one context: allocation with placement, free (with zeMemFreeExt's
// policies), queries, external-memory export/import and IPC. The Context owns one.
//
// Placement policy: placement.h (binding happens only when the topology is this machine's:
// synthetic and XML NUMA nodes do not exist).
//
// Threading: every method may be called from any thread at once.
#pragma once

#include <level_zero/ze_api.h>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/memory/allocation_map.h"
#include "core/memory/atomic_attributes.h"
#include "core/memory/ipc.h"
#include "core/memory/placement.h"

namespace tessera::core {

class Context;
class Device;
class PhysicalMemory;
class Topology;

struct AllocRequest {
  MemoryKind kind = MemoryKind::Host;
  size_t size = 0;
  size_t alignment = 0;
  Device* device = nullptr;
  bool exportable = false;  // ze_external_memory_export_desc_t with OPAQUE_FD
  int importFd = -1;        // ze_external_memory_import_fd_t with OPAQUE_FD
};

// zeMemFreeExt's policies (ze_driver_memory_free_policy_ext_flags_t).
enum class FreePolicy { Immediate, Blocking, Defer };

class MemoryManager {
 public:
  // The manager of a context of `devices` over `topology`; `sharedForceDeviceAlloc`:
  // ZE_SHARED_FORCE_DEVICE_ALLOC, `guardPages`: TESSERA_GUARD_PAGES (the driver's settings).
  // In guard-page mode (guard.h) every allocation made here is guarded except the exportable ones
  // (their fd must start with the allocation, so they keep a page-aligned backing of their own)
  // and imported ones (mapped from the fd's first byte); an IPC handle of a guarded allocation
  // carries its lead, and the opener maps between guard pages when it is in that mode itself.
  MemoryManager(const std::vector<Device*>& devices, const Topology& topology,
                bool sharedForceDeviceAlloc, bool guardPages = false);
  ~MemoryManager();  // frees whatever the application left

  ze_result_t allocate(const AllocRequest& request, void** out);
  // Where this context puts the pages of memory of `kind` made with `device` (may be null):
  // placement.h's rule with the context's nodes (what allocate() applies; physical memory too).
  Placement placement(MemoryKind kind, const Device* device) const;
  // zePhysicalMemCreate: device memory of `device`, or host memory when it is null, placed by the
  // rule above (physical_memory.h).
  std::unique_ptr<PhysicalMemory> createPhysical(Context& context, Device* device,
                                                 size_t bytes) const;
  // INVALID_ARGUMENT when ptr is not the base of an allocation of this context.
  ze_result_t free(void* ptr, FreePolicy policy = FreePolicy::Immediate);
  std::optional<Allocation> find(const void* p) const { return map_.find(p); }
  bool containsRange(const void* p, size_t bytes) const { return map_.containsRange(p, bytes); }
  size_t count() const { return map_.size(); }
  // zeMemSet/GetAtomicAccessAttributeExp's attributes of ranges this manager answers for (its
  // allocations, and host memory that is none); freeing an allocation forgets its attributes.
  AtomicAttributes& atomicAttributes() { return atomicAttributes_; }

  // Work in flight holds a use of the allocations it touches, so that zeMemFreeExt can wait
  // (BLOCKING_FREE) or defer the free to the last release (DEFER_FREE).
  bool acquireUse(const void* p);
  void releaseUse(const void* p);

  // A new descriptor (the caller owns it) for an allocation made exportable.
  ze_result_t exportFd(const void* p, int* fd);

  ze_result_t getIpcHandle(const void* p, ze_ipc_mem_handle_t* handle);
  ze_result_t putIpcHandle(const ze_ipc_mem_handle_t& handle);
  ze_result_t openIpcHandle(Device* device, const ze_ipc_mem_handle_t& handle, void** out);
  ze_result_t closeIpcHandle(const void* p);

  // The limit zeMemAllocHost checks (the largest of the context's devices' maxMemAllocSize).
  uint64_t hostLimit() const { return hostLimit_; }

 private:
  ze_result_t outOfMemory(const AllocRequest& r) const;
  ze_result_t mapImport(const AllocRequest& r, Allocation& a);
  // Returns the allocation's memory to the system or the arena (the map no longer holds it).
  void dispose(Allocation& a);

  const Topology& topology_;
  const bool sharedForceDeviceAlloc_;
  const bool guardPages_;
  const std::vector<uint32_t> contextNodes_;  // the NUMA nodes of the context's devices
  uint64_t hostLimit_ = 0;
  AllocationMap map_;
  AtomicAttributes atomicAttributes_;
  std::condition_variable_any usesDone_;
  std::mutex exportsMutex_;
  std::unordered_map<uint64_t, std::pair<uint8_t*, uint32_t>> exports_;  // cookie -> base, count
};

}  // namespace tessera::core
