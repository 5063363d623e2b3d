// The kernel entry points.
#include <algorithm>
#include <cstring>

#include "core/command/launch_policy.h"
#include "core/module/kernel.h"
#include "level_zero/api_support.h"
#include "tessera/ze_tessera.h"

using namespace tessera::core;
using tessera::ze::chainHasCycle;
using tessera::ze::guarded;

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelCreate(ze_module_handle_t hModule,
                                                   const ze_kernel_desc_t* desc,
                                                   ze_kernel_handle_t* phKernel) {
  Module* module = Module::fromHandle(hModule);
  if (!module) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !phKernel || !desc->pKernelName) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(desc->stype, ZE_STRUCTURE_TYPE_KERNEL_DESC))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (desc->flags > 0x3) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  if (chainHasCycle(desc->pNext)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // ZE_tessera_module_kernels 1.1: code generated at the kernel's first need.
  bool deferred = false;
  for (auto* e = static_cast<const ze_base_desc_t*>(desc->pNext); e;
       e = static_cast<const ze_base_desc_t*>(e->pNext))
    deferred = deferred || e->stype == ZE_STRUCTURE_TYPE_TESSERA_KERNEL_DEFERRED_DESC;
  return guarded([&] {
    Kernel* kernel = nullptr;
    ze_result_t r = Kernel::create(*module, desc->pKernelName, deferred, kernel);
    if (r == ZE_RESULT_SUCCESS) *phKernel = kernel->toHandle();
    return r;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelDestroy(ze_kernel_handle_t hKernel) {
  Kernel* kernel = Kernel::fromHandle(hKernel);
  if (!kernel) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  kernel->destroy();
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelSetGroupSize(ze_kernel_handle_t hKernel, uint32_t x,
                                                         uint32_t y, uint32_t z) {
  Kernel* kernel = Kernel::fromHandle(hKernel);
  return kernel ? kernel->setGroupSize(x, y, z) : ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelSuggestGroupSize(ze_kernel_handle_t hKernel,
                                                             uint32_t globalSizeX,
                                                             uint32_t globalSizeY,
                                                             uint32_t globalSizeZ, uint32_t* x,
                                                             uint32_t* y, uint32_t* z) {
  // The rule of core/command/launch_policy.cpp, which the extension below serves with 64-bit sizes.
  return zeTesseraKernelSuggestGroupSize(hKernel, globalSizeX, globalSizeY, globalSizeZ, x, y, z);
}

// ZE_tessera_kernel_group_size (tessera/ze_tessera.h): zeKernelSuggestGroupSize over 64-bit global
// sizes, for the OpenCL layer's NULL local size.
ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraKernelSuggestGroupSize(
    ze_kernel_handle_t hKernel, uint64_t globalSizeX, uint64_t globalSizeY, uint64_t globalSizeZ,
    uint32_t* x, uint32_t* y, uint32_t* z) {
  Kernel* kernel = Kernel::fromHandle(hKernel);
  if (!kernel) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!x || !y || !z) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return guarded([&] {
    // The choice reads the code (its barriers): a deferred kernel is compiled now.
    if (ze_result_t r = kernel->ensureCode(); r != ZE_RESULT_SUCCESS) return r;
    auto s = suggestGroupSize(*kernel, globalSizeX, globalSizeY, globalSizeZ);
    *x = s[0], *y = s[1], *z = s[2];
    return ZE_RESULT_SUCCESS;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelSuggestMaxCooperativeGroupCount(
    ze_kernel_handle_t hKernel, uint32_t* totalGroupCount) {
  Kernel* kernel = Kernel::fromHandle(hKernel);
  if (!kernel) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!totalGroupCount) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return guarded([&] {
    *totalGroupCount = kernel->maxCooperativeGroupCount();
    return ZE_RESULT_SUCCESS;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelSetArgumentValue(ze_kernel_handle_t hKernel,
                                                             uint32_t argIndex, size_t argSize,
                                                             const void* pArgValue) {
  Kernel* kernel = Kernel::fromHandle(hKernel);
  return kernel ? kernel->setArgument(argIndex, argSize, pArgValue)
                : ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelSetIndirectAccess(ze_kernel_handle_t hKernel,
                                                              ze_kernel_indirect_access_flags_t flags) {
  Kernel* kernel = Kernel::fromHandle(hKernel);
  if (!kernel) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (flags > 0x7) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  // Every allocation is host memory the kernel can reach: the flags are kept for the query only.
  kernel->indirectAccess = flags;
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelGetIndirectAccess(ze_kernel_handle_t hKernel,
                                                              ze_kernel_indirect_access_flags_t* pFlags) {
  Kernel* kernel = Kernel::fromHandle(hKernel);
  if (!kernel) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pFlags) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *pFlags = kernel->indirectAccess;
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelSetCacheConfig(ze_kernel_handle_t hKernel,
                                                           ze_cache_config_flags_t flags) {
  Kernel* kernel = Kernel::fromHandle(hKernel);
  if (!kernel) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (flags > 0x3) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  // A CPU has no SLM/cache split to configure: accepted and kept.
  kernel->cacheConfig = flags;
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelGetProperties(ze_kernel_handle_t hKernel,
                                                          ze_kernel_properties_t* p) {
  Kernel* kernel = Kernel::fromHandle(hKernel);
  if (!kernel) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  tessera::ze::adoptOutputStruct(*p, ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES);
  if (chainHasCycle(p->pNext)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (ze_result_t r = kernel->ensureCode(); r != ZE_RESULT_SUCCESS) return r;
  kernel->properties(*p);
  // "ze_kernel_preferred_group_size_properties_t ... may be passed to zeKernelGetProperties, via
  // the pNext member of ze_kernel_properties_t, to query additional kernel preferred group size
  // properties": a multiple of the sub-group size fills every sub-group (and every widened
  // chunk of lanes). Structures Tessera does not know are left as they are.
  for (auto* e = static_cast<ze_base_properties_t*>(p->pNext); e;
       e = static_cast<ze_base_properties_t*>(e->pNext)) {
    if (e->stype == ZE_STRUCTURE_TYPE_KERNEL_PREFERRED_GROUP_SIZE_PROPERTIES)
      reinterpret_cast<ze_kernel_preferred_group_size_properties_t*>(e)->preferredMultiple =
          kernel->subgroupSize();
    // ZE_extension_kernel_max_group_size_properties: "maximum group size that can be used to
    // execute the kernel": the size zeKernelSetGroupSize accepts at most (its required size, else
    // the device's maxTotalGroupSize).
    if (e->stype == ZE_STRUCTURE_TYPE_KERNEL_MAX_GROUP_SIZE_EXT_PROPERTIES)
      reinterpret_cast<ze_kernel_max_group_size_properties_ext_t*>(e)->maxGroupSize =
          static_cast<uint32_t>(kernel->maxGroupSize());
  }
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelGetName(ze_kernel_handle_t hKernel, size_t* pSize,
                                                    char* pName) {
  Kernel* kernel = Kernel::fromHandle(hKernel);
  if (!kernel) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pSize) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  size_t needed = kernel->name().size() + 1;
  if (!pName || *pSize == 0) {
    *pSize = needed;
    return ZE_RESULT_SUCCESS;
  }
  size_t n = std::min(*pSize, needed);
  std::memcpy(pName, kernel->name().c_str(), n - 1);
  pName[n - 1] = '\0';
  *pSize = n;
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelSetGlobalOffsetExp(ze_kernel_handle_t hKernel,
                                                               uint32_t offsetX, uint32_t offsetY,
                                                               uint32_t offsetZ) {
  Kernel* kernel = Kernel::fromHandle(hKernel);
  if (!kernel) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  kernel->setGlobalOffset(offsetX, offsetY, offsetZ);
  return ZE_RESULT_SUCCESS;
}

// ZE_experimental_scheduling_hints: "If a specified scheduling hint is unsupported it will be
// silently ignored." Work-groups go to the device's worker threads in order whatever the hint, so
// the device reports none (zeDeviceGetModuleProperties) and a valid hint is kept and ignored.
ZE_APIEXPORT ze_result_t ZE_APICALL
zeKernelSchedulingHintExp(ze_kernel_handle_t hKernel, ze_scheduling_hint_exp_desc_t* pHint) {
  Kernel* kernel = Kernel::fromHandle(hKernel);
  if (!kernel) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pHint) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(pHint->stype, ZE_STRUCTURE_TYPE_SCHEDULING_HINT_EXP_DESC))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  // "ZE_RESULT_ERROR_INVALID_ENUMERATION: 0x7 < pHint->flags"
  if (pHint->flags > 0x7) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  kernel->schedulingHint = pHint->flags;
  return ZE_RESULT_SUCCESS;
}

// ZE_tessera_kernel_work_dim (tessera/ze_tessera.h).
ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraKernelSetWorkDim(ze_kernel_handle_t hKernel,
                                                              uint32_t workDim) {
  Kernel* kernel = Kernel::fromHandle(hKernel);
  if (!kernel) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (workDim > 3) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  kernel->setWorkDim(workDim);
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeKernelGetSourceAttributes(ze_kernel_handle_t hKernel,
                                                                uint32_t* pSize, char** pString) {
  Kernel* kernel = Kernel::fromHandle(hKernel);
  if (!kernel) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pSize) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // The header: "pointer to null-terminated string, whose lifetime is tied to the kernel object".
  // A null *pString receives the kernel's own string; a non-null one is taken as a buffer of
  // *pSize bytes (what drivers that copy expect), and *pSize == 0 only asks for the size.
  if (ze_result_t r = kernel->ensureCode(); r != ZE_RESULT_SUCCESS) return r;
  const std::string& text = kernel->sourceAttributes();
  uint32_t needed = static_cast<uint32_t>(text.size() + 1);
  // A null pString asks for the size. The 1.4 header lists it as INVALID_NULL_POINTER, but later
  // versions of the specification make pString optional ("If NULL, the string length of the kernel
  // source attributes, including a null-terminator, is returned in pSize") and programs written
  // against them (level-zero-tests) ask so.
  if (!pString) {
    *pSize = needed;
    return ZE_RESULT_SUCCESS;
  }
  if (!*pString) {
    *pString = const_cast<char*>(text.c_str());
    *pSize = needed;
    return ZE_RESULT_SUCCESS;
  }
  if (*pSize == 0) {
    *pSize = needed;
    return ZE_RESULT_SUCCESS;
  }
  uint32_t n = std::min(*pSize, needed);
  std::memcpy(*pString, text.c_str(), n - 1);
  (*pString)[n - 1] = '\0';
  *pSize = n;
  return ZE_RESULT_SUCCESS;
}
