// What every ze* entry point shares: the exception barrier, the count-style query protocol and
// structure-type checks. Entry points stay thin: check, cast, call one core method, return.
#pragma once

#include <level_zero/ze_api.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <new>
#include <system_error>
#include <vector>

#include "tessera/ze_tessera.h"

namespace tessera::ze {

// Set by the first successful zeInit.
extern std::atomic<bool> g_initialized;

// zeDriverGetLastErrorDescription's string for the calling thread (ze_driver_api.cpp): set with an
// error's cause where the code alone does not say it. Never throws (an allocation failure leaves the
// previous string).
void setLastErrorDescription(const char* what) noexcept;

// No exception crosses the C ABI: allocation failure is OUT_OF_HOST_MEMORY, anything else UNKNOWN;
// the exception's text becomes the thread's last error description.
template <typename F>
ze_result_t guarded(F&& f) noexcept {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    setLastErrorDescription("out of host memory");
    return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  } catch (const std::system_error& e) {
    setLastErrorDescription(e.what());
    // A thread (a queue's executor) or another resource the system would not give.
    if (e.code() == std::errc::resource_unavailable_try_again ||
        e.code() == std::errc::not_enough_memory)
      return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    return ZE_RESULT_ERROR_UNKNOWN;
  } catch (const std::exception& e) {
    setLastErrorDescription(e.what());
    return ZE_RESULT_ERROR_UNKNOWN;
  } catch (...) {
    setLastErrorDescription("unknown exception");
    return ZE_RESULT_ERROR_UNKNOWN;
  }
}

// A pNext chain is a list the application links; a cycle would make any walk over it endless
// (zeImageCreate hung on one). Every entry point that walks a chain checks it first (Floyd's two
// pointers: linear in its length, nothing allocated, no limit on a chain that ends, since mutable
// command updates chain one structure per change): a cycle is ZE_RESULT_ERROR_INVALID_ARGUMENT,
// before anything is read or written.
inline bool chainHasCycle(const void* pNext) {
  auto next = [](const void* p) { return static_cast<const ze_base_desc_t*>(p)->pNext; };
  const void* slow = pNext;
  const void* fast = pNext;
  while (fast && next(fast)) {
    slow = next(slow);
    fast = next(next(fast));
    if (slow == fast) return true;
  }
  return false;
}

// ZE_extension_ipc_mem_handle_type: a ze_ipc_mem_handle_type_ext_desc_t in `pNext` (which has no
// cycle) "to specify the IPC memory handle type to create for this allocation", chained to
// zeMemAllocDevice, zeMemAllocHost, zePhysicalMemCreate and zeMemGetIpcHandleWithProperties. Every
// allocation has the local handle (DEFAULT, or no flag); a fabric handle cannot be made on a
// machine without a fabric (UNSUPPORTED_FEATURE); other bits are INVALID_ENUMERATION.
inline ze_result_t checkIpcHandleTypes(const void* pNext) {
  for (auto* e = static_cast<const ze_base_desc_t*>(pNext); e;
       e = static_cast<const ze_base_desc_t*>(e->pNext)) {
    if (e->stype != ZE_STRUCTURE_TYPE_IPC_MEM_HANDLE_TYPE_EXT_DESC) continue;  // not ours to read
    auto flags = reinterpret_cast<const ze_ipc_mem_handle_type_ext_desc_t*>(e)->typeFlags;
    if (flags & ~(ZE_IPC_MEM_HANDLE_TYPE_FLAG_DEFAULT | ZE_IPC_MEM_HANDLE_TYPE_FLAG_FABRIC_ACCESSIBLE))
      return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    if (flags & ZE_IPC_MEM_HANDLE_TYPE_FLAG_FABRIC_ACCESSIBLE)
      return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  }
  return ZE_RESULT_SUCCESS;
}

// The count protocol of zeDeviceGet and friends: "if count is zero, then the driver shall update the
// value with the total number [available]. if count is greater than the number available, then the
// driver shall update the value with the correct number available." A smaller count fills that
// many. Count zero only asks, so nothing is written even when pOut is given. `fill(i, out)` writes
// element i.
template <typename T, typename Fill>
ze_result_t countQuery(uint32_t* pCount, T* pOut, size_t available, Fill&& fill) {
  if (!pCount) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  uint32_t n = static_cast<uint32_t>(available);
  bool onlyCount = *pCount == 0 || !pOut;
  if (*pCount == 0 || *pCount > n) *pCount = n;
  if (onlyCount) return ZE_RESULT_SUCCESS;
  for (uint32_t i = 0; i < *pCount; ++i) fill(i, pOut[i]);
  return ZE_RESULT_SUCCESS;
}

// A query of one value an object fixed at creation (the 1.9 list, queue, event and pool queries):
// ZE_RESULT_ERROR_INVALID_NULL_HANDLE when `h` names no live Object, INVALID_NULL_POINTER when
// `out` is null, else *out = get(object).
template <typename Object, typename Handle, typename T, typename Get>
ze_result_t valueQuery(Handle h, T* out, Get&& get) {
  Object* object = Object::fromHandle(h);
  if (!object) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *out = get(*object);
  return ZE_RESULT_SUCCESS;
}

// Whether `v` is numbered as structure types are: core (0x0000xxxx), extensions (0x0001xxxx),
// experimental (0x0002xxxx), Intel's zex (0x0003xxxx) and Tessera's own (0x7e55xxxx), each family
// counting up from 1.
inline bool isStructureTypeNumber(ze_structure_type_t v) {
  const uint32_t family = uint32_t(v) >> 16, index = uint32_t(v) & 0xffffu;
  return index != 0 && index < 0x1000 && (family <= 3 || family == 0x7e55);
}

// Whether a structure passed as a parameter (a descriptor or a property structure, not an element
// of a pNext chain, which its stype identifies) is of the type the parameter names. The headers say
// only "stype: [in] type of this structure". A stype that names no structure type (0, or what an
// uninitialized structure holds) is taken as unset, and so as the parameter's type: Intel's driver
// does not read the base structure's stype, and programs written against it leave it 0
// (intel/compute-benchmarks: zeCommandListCreate, zeDeviceGetModuleProperties,
// zeMemGetAllocProperties, zeDriverGetProperties) or uninitialized (AdaptiveCpp's Level Zero
// backend: zeDeviceGetProperties, whose stype held 0x3f800000). The stype of another structure is
// a program's mistake and refused with INVALID_ARGUMENT.
// docs/api-coverage.md, "Leniency", lists this and the other leniencies.
inline bool isStructType(ze_structure_type_t given, ze_structure_type_t expected) {
  return given == expected || !isStructureTypeNumber(given);
}

// For a structure the call writes (a property structure): every stype is taken, and written as
// the parameter's type. Intel's driver does not read it, and programs leave output structures
// uninitialized (AdaptiveCpp's Level Zero backend: zeDeviceGetProperties with stype 0x3f800000 and
// pNext 0xd; zeDeviceGetComputeProperties and zeMemGetAllocProperties with values that happen to
// be other structures' numbers) or give them another structure's type (level-zero-tests:
// zeDeviceGetImageProperties with ZE_STRUCTURE_TYPE_IMAGE_PROPERTIES). One whose stype is neither
// the parameter's type nor 0 is taken as uninitialized: its pNext is as undefined as its stype,
// so it is not followed but set to null. (A stype left 0 keeps its pNext: a zero-initialized
// structure with a chain is how programs written against Intel's driver ask for extensions.)
template <typename T>
void adoptOutputStruct(T& out, ze_structure_type_t expected) {
  if (out.stype != expected && out.stype != ze_structure_type_t(0)) out.pNext = nullptr;
  out.stype = expected;
}

// Copies element i of `items` but keeps the caller's pNext as adoptOutputStruct leaves it: real
// programs (Intel's tools, level-zero-tests) size an array of properties and set the stype of the
// first element only, or of none, which the reference driver accepts.
template <typename T>
ze_result_t countQueryStructs(uint32_t* pCount, T* pOut, const std::vector<T>& items,
                              ze_structure_type_t stype) {
  if (pOut && pCount)
    for (uint32_t i = 0; i < std::min<size_t>(*pCount, items.size()); ++i)
      adoptOutputStruct(pOut[i], stype);
  return countQuery(pCount, pOut, items.size(), [&](uint32_t i, T& out) {
    auto pNext = out.pNext;
    std::memcpy(&out, &items[i], sizeof out);  // every byte: the items' padding is zero
    out.stype = stype;
    out.pNext = pNext;
  });
}

}  // namespace tessera::ze
