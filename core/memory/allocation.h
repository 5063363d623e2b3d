// One USM allocation as the context records it.
#pragma once

#include <level_zero/ze_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/memory/arena.h"

namespace tessera::core {

class Device;

enum class MemoryKind { Host, Device, Shared };

enum class Origin {
  Allocated,  // zeMemAlloc*: pages from the arena allocator
  Imported,   // zeMemAlloc* with an imported fd: our own mapping of someone else's memory
  IpcOpened,  // zeMemOpenIpcHandle: our own mapping of another process's allocation
};

struct Allocation {
  uint8_t* base = nullptr;
  size_t size = 0;  // what the application asked for
  MemoryKind kind = MemoryKind::Host;
  Device* device = nullptr;  // null for host allocations and shared ones made without a device
  uint64_t id = 0;           // unique in the process, never reused
  Origin origin = Origin::Allocated;
  Slot slot;                   // for Allocated
  uint8_t* mapping = nullptr;  // for Imported and IpcOpened: what to munmap (base, or below it
  size_t mappedBytes = 0;      // when the guard-page mode added a guard page or a lead)
  uint64_t exportCookie = 0;   // non-zero while an IPC handle of it is out (see ipc.h)
  int exportFd = -1;           // while exported: this export's own descriptor of the backing
  bool exportable = false;     // made with ze_external_memory_export_desc_t (a backing of its own)
  bool ipcExported = false;    // an IPC handle of it was made: its pages may be mapped elsewhere
  // Uses by work in flight (command lists of later issues); zeMemFreeExt's policies wait for them.
  uint32_t uses = 0;
  bool freePending = false;  // DEFER_FREE asked while in use: freed by the last release

  bool contains(const void* p) const {
    auto* b = static_cast<const uint8_t*>(p);
    return b >= base && b < base + size;
  }
};

ze_memory_type_t toZe(MemoryKind kind);

}  // namespace tessera::core
