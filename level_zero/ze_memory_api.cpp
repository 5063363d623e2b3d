// The USM entry points (zeMem*), memory IPC and residency. Each checks handles, pointers, structure
// types and flags, then calls one method of the context's MemoryManager (for a pointer made in
// another context of the driver, that context's: Context::memoryHolding).
#include "core/context/context.h"
#include "core/driver/driver.h"
#include "level_zero/api_support.h"
#include "tessera/ze_tessera.h"

using tessera::core::AllocRequest;
using tessera::core::Context;
using tessera::core::Device;
using tessera::core::FreePolicy;
using tessera::core::MemoryKind;
using namespace tessera::ze;

namespace {

struct ChainHeader {
  ze_structure_type_t stype;
  const void* pNext;
};

// Reads the extension structures Tessera knows in an allocation descriptor's pNext chain: the
// external memory export request, the opaque-fd import and the IPC handle types. Structures of
// extensions Tessera does not offer are skipped, as for any driver that lacks them.
ze_result_t readAllocChain(const void* pNext, AllocRequest& r) {
  if (chainHasCycle(pNext)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (ze_result_t e = checkIpcHandleTypes(pNext); e != ZE_RESULT_SUCCESS) return e;
  for (auto* h = static_cast<const ChainHeader*>(pNext); h;
       h = static_cast<const ChainHeader*>(h->pNext)) {
    if (h->stype == ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_DESC) {
      auto* d = reinterpret_cast<const ze_external_memory_export_desc_t*>(h);
      if (d->flags == 0 || d->flags > ZE_EXTERNAL_MEMORY_TYPE_FLAG_D3D12_RESOURCE * 2 - 1)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
      // zeDeviceGetExternalMemoryProperties reports OPAQUE_FD only.
      if (d->flags != ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD)
        return ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
      r.exportable = true;
    } else if (h->stype == ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD) {
      auto* d = reinterpret_cast<const ze_external_memory_import_fd_t*>(h);
      if (d->flags != ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD)
        return ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
      if (d->fd < 0) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
      r.importFd = d->fd;
    }
  }
  if (r.exportable && r.importFd >= 0) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  return ZE_RESULT_SUCCESS;
}

ze_result_t checkDeviceDesc(const ze_device_mem_alloc_desc_t* d, AllocRequest& r) {
  if (!d) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(d->stype, ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (d->flags > 0x7) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  return readAllocChain(d->pNext, r);
}

ze_result_t checkHostDesc(const ze_host_mem_alloc_desc_t* d, AllocRequest& r) {
  if (!d) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(d->stype, ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (d->flags > 0xf) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  return readAllocChain(d->pNext, r);
}

ze_result_t checkSizeAlignment(size_t size, size_t alignment) {
  if (size == 0) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  if (alignment & (alignment - 1)) return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
  return ZE_RESULT_SUCCESS;
}

// A device the context was created for; null otherwise.
Device* contextDevice(Context& c, ze_device_handle_t h) {
  Device* d = Device::fromHandle(h);
  return d && c.hasDevice(d) ? d : nullptr;
}

// Runs a check; returns its result from the enclosing function when it fails.
#define TESSERA_CHECK(expr)                 \
  do {                                      \
    ze_result_t r_ = (expr);                \
    if (r_ != ZE_RESULT_SUCCESS) return r_; \
  } while (0)

}  // namespace

ZE_APIEXPORT ze_result_t ZE_APICALL zeMemAllocShared(ze_context_handle_t hContext,
                                                     const ze_device_mem_alloc_desc_t* device_desc,
                                                     const ze_host_mem_alloc_desc_t* host_desc,
                                                     size_t size, size_t alignment,
                                                     ze_device_handle_t hDevice, void** pptr) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  AllocRequest r{MemoryKind::Shared, size, alignment};
  // hDevice is optional: "[in][optional] device handle to associate with".
  if (hDevice && !(r.device = contextDevice(*c, hDevice)))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  TESSERA_CHECK(checkDeviceDesc(device_desc, r));
  TESSERA_CHECK(checkHostDesc(host_desc, r));
  TESSERA_CHECK(checkSizeAlignment(size, alignment));
  return guarded([&] { return c->memory().allocate(r, pptr); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeMemAllocDevice(ze_context_handle_t hContext,
                                                     const ze_device_mem_alloc_desc_t* device_desc,
                                                     size_t size, size_t alignment,
                                                     ze_device_handle_t hDevice, void** pptr) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  AllocRequest r{MemoryKind::Device, size, alignment};
  if (!(r.device = contextDevice(*c, hDevice))) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  TESSERA_CHECK(checkDeviceDesc(device_desc, r));
  TESSERA_CHECK(checkSizeAlignment(size, alignment));
  return guarded([&] { return c->memory().allocate(r, pptr); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeMemAllocHost(ze_context_handle_t hContext,
                                                   const ze_host_mem_alloc_desc_t* host_desc,
                                                   size_t size, size_t alignment, void** pptr) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  AllocRequest r{MemoryKind::Host, size, alignment};
  TESSERA_CHECK(checkHostDesc(host_desc, r));
  TESSERA_CHECK(checkSizeAlignment(size, alignment));
  return guarded([&] { return c->memory().allocate(r, pptr); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeMemFree(ze_context_handle_t hContext, void* ptr) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return guarded([&] { return c->memoryHolding(ptr).free(ptr); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeMemFreeExt(ze_context_handle_t hContext,
                                                 const ze_memory_free_ext_desc_t* pMemFreeDesc,
                                                 void* ptr) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pMemFreeDesc || !ptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(pMemFreeDesc->stype, ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (pMemFreeDesc->freePolicy > 0x3) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  FreePolicy policy = FreePolicy::Immediate;
  // Both bits at once name no single policy; blocking is the stronger promise, so it wins.
  if (pMemFreeDesc->freePolicy & ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE)
    policy = FreePolicy::Blocking;
  else if (pMemFreeDesc->freePolicy & ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE)
    policy = FreePolicy::Defer;
  return guarded([&] { return c->memoryHolding(ptr).free(ptr, policy); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeMemGetAllocProperties(ze_context_handle_t hContext, const void* ptr,
                        ze_memory_allocation_properties_t* props, ze_device_handle_t* phDevice) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ptr || !props) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  tessera::ze::adoptOutputStruct(*props, ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES);
  if (chainHasCycle(props->pNext)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  return guarded([&] {
    tessera::core::MemoryManager& memory = c->memoryHolding(ptr);
    auto a = memory.find(ptr);
    // "If the pointer ... is not recognized by the context, then [the type is]
    // ZE_MEMORY_TYPE_UNKNOWN, and the returned identifier and associated device are undefined";
    // Tessera returns 0 and null.
    props->type = a ? tessera::core::toZe(a->kind) : ZE_MEMORY_TYPE_UNKNOWN;
    props->id = a ? a->id : 0;
    props->pageSize = a ? tessera::core::kPageSize : 0;
    if (phDevice) *phDevice = a && a->device ? a->device->toHandle() : nullptr;
    // The guide's export flow: ze_external_memory_export_fd_t chained here receives the fd.
    for (auto* h = static_cast<ChainHeader*>(props->pNext); h;
         h = static_cast<ChainHeader*>(const_cast<void*>(h->pNext))) {
      if (h->stype != ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD) continue;
      auto* e = reinterpret_cast<ze_external_memory_export_fd_t*>(h);
      if (e->flags != ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD)
        return ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
      if (!a) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
      TESSERA_CHECK(memory.exportFd(ptr, &e->fd));
    }
    return ZE_RESULT_SUCCESS;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeMemGetAddressRange(ze_context_handle_t hContext,
                                                         const void* ptr, void** pBase,
                                                         size_t* pSize) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return guarded([&] {
    auto a = c->memoryHolding(ptr).find(ptr);
    if (!a) return ZE_RESULT_ERROR_INVALID_ARGUMENT;  // not an allocation of the driver
    if (pBase) *pBase = a->base;
    if (pSize) *pSize = a->size;
    return ZE_RESULT_SUCCESS;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeMemGetIpcHandle(ze_context_handle_t hContext, const void* ptr,
                                                      ze_ipc_mem_handle_t* pIpcHandle) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ptr || !pIpcHandle) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return guarded([&] { return c->getIpcHandle(ptr, pIpcHandle); });
}

// 1.15. The chain's ze_ipc_mem_handle_type_ext_desc_t asks for a handle type: the local one
// (DEFAULT, or no type) is zeMemGetIpcHandle's; a fabric handle cannot be made here.
ZE_APIEXPORT ze_result_t ZE_APICALL zeMemGetIpcHandleWithProperties(ze_context_handle_t hContext,
                                                                    const void* ptr, void* pNext,
                                                                    ze_ipc_mem_handle_t* pIpcHandle) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ptr || !pIpcHandle) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (chainHasCycle(pNext)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (ze_result_t r = checkIpcHandleTypes(pNext); r != ZE_RESULT_SUCCESS) return r;
  return guarded([&] { return c->getIpcHandle(ptr, pIpcHandle); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeMemPutIpcHandle(ze_context_handle_t hContext,
                                                      ze_ipc_mem_handle_t handle) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return guarded([&] { return c->putIpcHandle(handle); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeMemOpenIpcHandle(ze_context_handle_t hContext,
                                                       ze_device_handle_t hDevice,
                                                       ze_ipc_mem_handle_t handle,
                                                       ze_ipc_memory_flags_t flags, void** pptr) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Device* d = contextDevice(*c, hDevice);
  if (!d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (flags > 0x3) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  if (!pptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return guarded([&] { return c->memory().openIpcHandle(d, handle, pptr); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeMemCloseIpcHandle(ze_context_handle_t hContext,
                                                        const void* ptr) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return guarded([&] { return c->memory().closeIpcHandle(ptr); });
}

namespace {

// zeContextMakeMemoryResident and zeContextEvictMemory share their checks and, on a CPU, their
// effect: none (see Context::ownsRange).
ze_result_t residency(ze_context_handle_t hContext, ze_device_handle_t hDevice, void* ptr,
                      size_t size) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!contextDevice(*c, hDevice)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return guarded([&] {
    return size > 0 && c->ownsRange(ptr, size) ? ZE_RESULT_SUCCESS
                                               : ZE_RESULT_ERROR_INVALID_ARGUMENT;
  });
}

}  // namespace

ZE_APIEXPORT ze_result_t ZE_APICALL zeContextMakeMemoryResident(ze_context_handle_t hContext,
                                                                ze_device_handle_t hDevice,
                                                                void* ptr, size_t size) {
  return residency(hContext, hDevice, ptr, size);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeContextEvictMemory(ze_context_handle_t hContext,
                                                         ze_device_handle_t hDevice, void* ptr,
                                                         size_t size) {
  return residency(hContext, hDevice, ptr, size);
}

// Level Zero 1.7's atomic access attributes. Every kind of memory takes host, device and concurrent
// atomics on this device (ze_device_memory_access_properties_t reports ATOMIC and
// CONCURRENT_ATOMIC for all of them, shared-system memory included), so every valid combination is
// "supported by the driver" and changes nothing; the attributes are kept so that the get answers
// the last set ("only the attributes from last call are honored"), 0 ("default") where none was.
ZE_APIEXPORT ze_result_t ZE_APICALL zeMemSetAtomicAccessAttributeExp(
    ze_context_handle_t hContext, ze_device_handle_t hDevice, const void* ptr, size_t size,
    ze_memory_atomic_attr_exp_flags_t attr) {
  Context* c = Context::fromHandle(hContext);
  if (!c || !contextDevice(*c, hDevice)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (attr > 0x7f) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  return guarded([&] {
    c->memoryHolding(ptr).atomicAttributes().set(ptr, size, attr);
    return ZE_RESULT_SUCCESS;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeMemGetAtomicAccessAttributeExp(
    ze_context_handle_t hContext, ze_device_handle_t hDevice, const void* ptr, size_t size,
    ze_memory_atomic_attr_exp_flags_t* pAttr) {
  Context* c = Context::fromHandle(hContext);
  if (!c || !contextDevice(*c, hDevice)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ptr || !pAttr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *pAttr = c->memoryHolding(ptr).atomicAttributes().get(ptr);
  return ZE_RESULT_SUCCESS;
}
