// Reserved virtual address ranges of one context and what is mapped into them (the guide's
// "Reserved Device Allocations"). A reservation is PROT_NONE anonymous address space;
// zeVirtualMemMap places a MAP_SHARED mapping of a physical object's memfd over part of it; access
// attributes are page protections (mprotect) on mapped pages, so a write to a read-only page really
// faults. Every page of a reservation has an attribute, mapped or not:
// zeVirtualMemSetAccessAttribute takes "a reserved virtual address region" and the header lists no
// error for unmapped pages, so their attribute is kept (and reported by
// zeVirtualMemGetAccessAttribute) while they stay PROT_NONE placeholders; zeVirtualMemMap sets the
// attribute it is given, zeVirtualMemUnmap NONE.
//
// The page size is the system's 4 KiB for every size: a physical object's pages are shmem pages,
// and reservations of any page multiple can be placed and mapped.
//
// Threading: every method may be called from any thread; one lock serializes them.
#pragma once

#include <level_zero/ze_api.h>

#include <map>
#include <mutex>

#include "core/memory/ipc.h"
#include "core/memory/physical_memory.h"

namespace tessera::core {

class VirtualMemory {
 public:
  VirtualMemory() = default;
  ~VirtualMemory();  // releases what the application left reserved or mapped
  VirtualMemory(const VirtualMemory&) = delete;
  VirtualMemory& operator=(const VirtualMemory&) = delete;

  static size_t pageSize(size_t /*size*/) { return kPageSize; }

  // At `hint` when that range is free, else wherever the kernel finds room.
  ze_result_t reserve(const void* hint, size_t size, void** out);
  // [ptr, ptr+size) must be exactly one reservation.
  ze_result_t free(const void* ptr, size_t size);
  ze_result_t map(const void* ptr, size_t size, PhysicalMemory& physical, size_t offset,
                  ze_memory_access_attribute_t access);
  ze_result_t unmap(const void* ptr, size_t size);
  ze_result_t setAccess(const void* ptr, size_t size, ze_memory_access_attribute_t access);
  // The attribute at ptr and the length of the run of pages from ptr (within size) that share it.
  ze_result_t getAccess(const void* ptr, size_t size, ze_memory_access_attribute_t* access,
                        size_t* runBytes);
  // Whether every page of [p, p+bytes) is mapped (the residency calls accept such ranges).
  bool isMapped(const void* p, size_t bytes) const;
  // zeMemGetIpcHandle of a mapped range: the mapping holding `p` is exported as a USM allocation
  // is (ipc.h), its physical object's memfd and export table. INVALID_ARGUMENT when nothing of
  // this context is mapped at `p`. The export ends with zeMemPutIpcHandle (putIpc) or when the
  // mapping is unmapped or split; openers keep their own mapping of the pages.
  ze_result_t exportIpc(const void* p, IpcHandleData& d);
  // False when no mapping of this context was exported under that cookie.
  bool putIpc(uint64_t cookie);

 private:
  struct Segment {
    uintptr_t end;
    PhysicalMemory* physical;
    size_t offset;             // in the physical object
    uint64_t exportCookie = 0;  // non-zero while exported by IPC handle
  };
  static void endExport(Segment& s);
  struct AccessRun {
    uintptr_t end;
    ze_memory_access_attribute_t access;
  };
  struct Reservation {
    uintptr_t end;
    std::map<uintptr_t, Segment> segments;  // by start; disjoint
    std::map<uintptr_t, AccessRun> access;  // by start; runs that tile the reservation
  };

  // The reservation holding [a, b), or null.
  Reservation* holding(uintptr_t a, uintptr_t b);
  const Reservation* holding(uintptr_t a, uintptr_t b) const;
  static void split(Reservation& r, uintptr_t at);
  static bool covered(const Reservation& r, uintptr_t a, uintptr_t b);
  void dropSegments(Reservation& r, uintptr_t a, uintptr_t b);
  // Gives [a, b) (inside r) the attribute `access`.
  static void setRuns(Reservation& r, uintptr_t a, uintptr_t b,
                      ze_memory_access_attribute_t access);

  mutable std::mutex mutex_;
  std::map<uintptr_t, Reservation> reservations_;  // by start
};

}  // namespace tessera::core
