// The virtual memory entry points (zeVirtualMem*, zePhysicalMem*): reserved address ranges and the
// physical memory objects mapped into them. Each checks, then calls one core method.
#include "core/context/context.h"
#include "core/memory/physical_memory.h"
#include "level_zero/api_support.h"
#include "tessera/ze_tessera.h"

using tessera::core::Context;
using tessera::core::Device;
using tessera::core::PhysicalMemory;
using tessera::core::VirtualMemory;
using namespace tessera::ze;

namespace {

constexpr ze_physical_mem_flags_t kAllocateOnHost = 1u << 1;  // ZE_PHYSICAL_MEM_FLAG_ALLOCATE_ON_HOST

bool validAccess(ze_memory_access_attribute_t a) {
  return a <= ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY;
}

}  // namespace

ZE_APIEXPORT ze_result_t ZE_APICALL zeVirtualMemQueryPageSize(ze_context_handle_t hContext,
                                                              ze_device_handle_t hDevice,
                                                              size_t size, size_t* pagesize) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Device* d = Device::fromHandle(hDevice);
  if (!d || !c->hasDevice(d)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pagesize) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (size == 0) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  *pagesize = VirtualMemory::pageSize(size);
  return ZE_RESULT_SUCCESS;
}

// pStart may be null, as in the guide's examples ("zeVirtualMemReserve(hContext, nullptr,
// reserveSize, &ptr)") and in later headers ("[in][optional]"); the 1.4 header's parameter check
// that rejects it is not applied.
ZE_APIEXPORT ze_result_t ZE_APICALL zeVirtualMemReserve(ze_context_handle_t hContext,
                                                        const void* pStart, size_t size,
                                                        void** pptr) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return guarded([&] { return c->virtualMemory().reserve(pStart, size, pptr); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeVirtualMemFree(ze_context_handle_t hContext, const void* ptr,
                                                     size_t size) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return guarded([&] { return c->virtualMemory().free(ptr, size); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zePhysicalMemCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                    ze_physical_mem_desc_t* desc, ze_physical_mem_handle_t* phPhysicalMemory) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  // "hDevice: handle of the device object, can be nullptr if creating physical host memory"
  // (1.11's ZE_PHYSICAL_MEM_FLAG_ALLOCATE_ON_HOST, "Allocate physical host memory instead").
  const bool onHost = desc && (desc->flags & kAllocateOnHost);
  Device* d = Device::fromHandle(hDevice);
  if ((hDevice || !onHost) && (!d || !c->hasDevice(d))) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !phPhysicalMemory) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(desc->stype, ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (desc->flags > 0x3) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  if (tessera::ze::chainHasCycle(desc->pNext)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (ze_result_t r = tessera::ze::checkIpcHandleTypes(desc->pNext); r != ZE_RESULT_SUCCESS)
    return r;
  if (desc->size == 0) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  // "The size must be page aligned. For host memory, the operating system page size should be
  // used. For device memory, see zeVirtualMemQueryPageSize." Both are 4 KiB pages here.
  const size_t page = onHost ? tessera::core::kPageSize : VirtualMemory::pageSize(desc->size);
  if (desc->size % page) return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
  return guarded([&] {
    auto p = c->memory().createPhysical(*c, onHost ? nullptr : d, desc->size);
    if (!p) return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    *phPhysicalMemory = p.release()->toHandle();
    return ZE_RESULT_SUCCESS;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zePhysicalMemDestroy(ze_context_handle_t hContext,
                                                         ze_physical_mem_handle_t hPhysicalMemory) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  PhysicalMemory* p = PhysicalMemory::fromHandle(hPhysicalMemory);
  if (!p || &p->context() != c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (p->mappings.load() > 0) return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
  delete p;
  return ZE_RESULT_SUCCESS;
}

// Level Zero 1.15: "Retrieves memory properties of the physical memory object": "id: unique
// identifier for the physical memory object" (a number no other physical memory object of the
// process had or will have) and "size of the physical memory object in bytes" (the descriptor's).
// "The application must only use the physical memory object on the context for which it was
// created": another context's object is INVALID_NULL_HANDLE, as in zePhysicalMemDestroy.
ZE_APIEXPORT ze_result_t ZE_APICALL zePhysicalMemGetProperties(
    ze_context_handle_t hContext, ze_physical_mem_handle_t hPhysicalMem,
    ze_physical_mem_properties_t* pMemProperties) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  PhysicalMemory* p = PhysicalMemory::fromHandle(hPhysicalMem);
  if (!p || &p->context() != c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pMemProperties) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  tessera::ze::adoptOutputStruct(*pMemProperties, ZE_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES);
  if (tessera::ze::chainHasCycle(pMemProperties->pNext)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  pMemProperties->id = p->id();
  pMemProperties->size = p->size();
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeVirtualMemMap(ze_context_handle_t hContext, const void* ptr,
                                                    size_t size,
                                                    ze_physical_mem_handle_t hPhysicalMemory,
                                                    size_t offset,
                                                    ze_memory_access_attribute_t access) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  PhysicalMemory* p = PhysicalMemory::fromHandle(hPhysicalMemory);
  if (!p || &p->context() != c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!validAccess(access)) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  return guarded([&] { return c->virtualMemory().map(ptr, size, *p, offset, access); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeVirtualMemUnmap(ze_context_handle_t hContext, const void* ptr,
                                                      size_t size) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return guarded([&] { return c->virtualMemory().unmap(ptr, size); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeVirtualMemSetAccessAttribute(ze_context_handle_t hContext, const void* ptr, size_t size,
                               ze_memory_access_attribute_t access) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!validAccess(access)) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  return guarded([&] { return c->virtualMemory().setAccess(ptr, size, access); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeVirtualMemGetAccessAttribute(ze_context_handle_t hContext, const void* ptr, size_t size,
                               ze_memory_access_attribute_t* access, size_t* outSize) {
  Context* c = Context::fromHandle(hContext);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ptr || !access || !outSize) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return guarded([&] { return c->virtualMemory().getAccess(ptr, size, access, outSize); });
}
