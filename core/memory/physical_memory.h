// A physical memory object (zePhysicalMemCreate): pages with no address of their own, a memfd that
// zeVirtualMemMap maps into reserved ranges. One object may back several ranges at once; they then
// share the bytes. File layout as a Backing's (backing.h): [data: size][export table: one
// ExportEntry per data page], so a mapped range can be exported by IPC handle (ipc.h) like a USM
// allocation.
#pragma once

#include <level_zero/ze_api.h>

#include <atomic>
#include <memory>

#include "core/common/object.h"
#include "core/memory/backing.h"

namespace tessera::core {

class Context;
class Device;

class PhysicalMemory
    : public Object<_ze_physical_mem_handle_t, 0x7465737350686d31ull /* "tessPhm1" */> {
 public:
  // Device memory of `device`, or host memory when `device` is null (ZE_PHYSICAL_MEM_FLAG_
  // ALLOCATE_ON_HOST), its pages going where `placement` says (the context's rule for that kind,
  // MemoryManager::placement). Null when the system has no memory or descriptors left.
  static std::unique_ptr<PhysicalMemory> create(Context& context, Device* device,
                                                Placement placement, size_t bytes);
  static PhysicalMemory* fromHandle(ze_physical_mem_handle_t h) {
    return Object::fromHandle<PhysicalMemory>(h);
  }
  ~PhysicalMemory();

  Context& context() const { return context_; }
  Device* device() const { return device_; }  // null: host memory
  int fd() const { return fd_; }
  size_t size() const { return size_; }
  // zePhysicalMemGetProperties' "unique identifier": a serial number, from 1, never reused.
  uint64_t id() const { return id_; }
  size_t exportTableOffset() const { return size_; }
  // The export entry of the page at `offset` (writes: under the mapping context's VirtualMemory
  // lock).
  ExportEntry& exportEntry(size_t offset) { return table_[offset / kPageSize]; }
  // Where the device's pages go (the NUMA nodes of its device), applied to each mapping.
  const Placement& placement() const { return placement_; }
  // Ranges currently mapped from this object; zePhysicalMemDestroy refuses while any remain.
  std::atomic<uint32_t> mappings{0};

 private:
  PhysicalMemory(Context& c, Device* d, int fd, size_t size, Placement p, ExportEntry* table,
                 size_t tableBytes)
      : context_(c),
        device_(d),
        fd_(fd),
        size_(size),
        table_(table),
        tableBytes_(tableBytes),
        placement_(std::move(p)) {}
  Context& context_;
  Device* device_;
  int fd_;
  size_t size_;
  ExportEntry* table_;
  size_t tableBytes_;
  Placement placement_;
  const uint64_t id_ = nextId();
  static uint64_t nextId();
};

}  // namespace tessera::core
