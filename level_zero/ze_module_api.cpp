// The module and build-log entry points.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/context/context.h"
#include "core/module/linkage_inspection.h"
#include "core/module/module.h"
#include "level_zero/api_support.h"
#include "spirv/kernel_table.h"
#include "tessera/ze_tessera.h"

using namespace tessera::core;
using tessera::ze::guarded;

static_assert(tessera::core::kModuleFormatOpenCLC == TESSERA_ZE_MODULE_FORMAT_OCLC);
static_assert(tessera::core::kModuleFormatTesseraIR == TESSERA_ZE_MODULE_FORMAT_LLVM_IR);

ZE_APIEXPORT ze_result_t ZE_APICALL zeModuleCreate(ze_context_handle_t hContext,
                                                   ze_device_handle_t hDevice,
                                                   const ze_module_desc_t* desc,
                                                   ze_module_handle_t* phModule,
                                                   ze_module_build_log_handle_t* phBuildLog) {
  Context* context = Context::fromHandle(hContext);
  Device* device = Device::fromHandle(hDevice);
  if (!context || !device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !phModule) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(desc->stype, ZE_STRUCTURE_TYPE_MODULE_DESC))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (desc->format > ZE_MODULE_FORMAT_NATIVE && desc->format != TESSERA_ZE_MODULE_FORMAT_OCLC &&
      desc->format != TESSERA_ZE_MODULE_FORMAT_LLVM_IR)
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  if (!desc->pInputModule) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->inputSize == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  // ze_module_constants_t: "pConstantIds [in][range(0, numConstants)] Array of IDs that is sized to
  // numConstants", "pConstantValues [in][range(0, numConstants)] Array of pointers to values that
  // is sized to numConstants". A count without its arrays, or a null value pointer, is a null
  // pointer the call would read.
  if (const ze_module_constants_t* c = desc->pConstants; c && c->numConstants > 0) {
    if (!c->pConstantIds || !c->pConstantValues) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    for (uint32_t i = 0; i < c->numConstants; ++i)
      if (!c->pConstantValues[i]) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  }
  return guarded([&] {
    std::string log;
    Module* module = nullptr;
    ze_result_t r = Module::create(*context, *device, *desc, module, log);
    *phModule = module ? module->toHandle() : nullptr;
    // "The application may call zeModuleBuildLogGetString ... even if the module failed to build."
    if (phBuildLog) *phBuildLog = (new BuildLog(std::move(log)))->toHandle();
    return r;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeModuleDestroy(ze_module_handle_t hModule) {
  Module* module = Module::fromHandle(hModule);
  return module ? module->destroy() : ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeModuleBuildLogDestroy(ze_module_build_log_handle_t hLog) {
  BuildLog* log = BuildLog::fromHandle(hLog);
  if (!log) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete log;
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeModuleBuildLogGetString(ze_module_build_log_handle_t hLog,
                                                              size_t* pSize, char* pBuildLog) {
  BuildLog* log = BuildLog::fromHandle(hLog);
  if (!log) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pSize) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // The size includes the terminating null character.
  size_t needed = log->text().size() + 1;
  if (!pBuildLog || *pSize == 0) {
    *pSize = needed;
    return ZE_RESULT_SUCCESS;
  }
  size_t n = std::min(*pSize, needed);
  std::memcpy(pBuildLog, log->text().c_str(), n - 1);
  pBuildLog[n - 1] = '\0';
  *pSize = n;
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeModuleGetKernelNames(ze_module_handle_t hModule,
                                                           uint32_t* pCount, const char** pNames) {
  Module* module = Module::fromHandle(hModule);
  if (!module) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  const auto& kernels = module->info().kernels;
  return tessera::ze::countQuery(pCount, pNames, kernels.size(), [&](uint32_t i, const char*& out) {
    out = kernels[i].name.c_str();  // lives as long as the module
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeModuleGetProperties(ze_module_handle_t hModule,
                                                          ze_module_properties_t* p) {
  Module* module = Module::fromHandle(hModule);
  if (!module) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  tessera::ze::adoptOutputStruct(*p, ZE_STRUCTURE_TYPE_MODULE_PROPERTIES);
  p->flags = module->unlinked() ? ZE_MODULE_PROPERTY_FLAG_IMPORTS : 0;
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeModuleDynamicLink(uint32_t numModules,
                                                        ze_module_handle_t* phModules,
                                                        ze_module_build_log_handle_t* phLinkLog) {
  // "ZE_RESULT_ERROR_INVALID_NULL_POINTER: nullptr == phModules"
  if (!phModules) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::vector<Module*> modules;
  for (uint32_t i = 0; i < numModules; ++i) {
    Module* m = Module::fromHandle(phModules[i]);
    if (!m) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    modules.push_back(m);
  }
  return guarded([&] {
    std::string log;
    ze_result_t r = Module::dynamicLink(modules, log);
    if (phLinkLog) *phLinkLog = (new BuildLog(std::move(log)))->toHandle();
    return r;
  });
}

// ZE_extension_linkage_inspection: "List all the import & unresolveable import dependencies &
// exports of a set of modules", into a log object (core/module/linkage_inspection.h).
ZE_APIEXPORT ze_result_t ZE_APICALL
zeModuleInspectLinkageExt(ze_linkage_inspection_ext_desc_t* pInspectDesc, uint32_t numModules,
                          ze_module_handle_t* phModules, ze_module_build_log_handle_t* phLog) {
  if (!pInspectDesc || !phModules || !phLog) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(pInspectDesc->stype,
                                 ZE_STRUCTURE_TYPE_LINKAGE_INSPECTION_EXT_DESC))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (pInspectDesc->flags > 0x7) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  std::vector<const Module*> modules;
  for (uint32_t i = 0; i < numModules; ++i) {
    const Module* m = Module::fromHandle(phModules[i]);
    if (!m) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    modules.push_back(m);
  }
  return guarded([&] {
    *phLog = (new BuildLog(inspectLinkage(modules, pInspectDesc->flags)))->toHandle();
    return ZE_RESULT_SUCCESS;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeModuleGetGlobalPointer(ze_module_handle_t hModule,
                                                             const char* pGlobalName,
                                                             size_t* pSize, void** pptr) {
  Module* module = Module::fromHandle(hModule);
  if (!module) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pGlobalName) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return guarded([&] { return module->globalPointer(pGlobalName, pSize, pptr); });
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeModuleGetFunctionPointer(ze_module_handle_t hModule,
                                                               const char* pFunctionName,
                                                               void** pfnFunction) {
  Module* module = Module::fromHandle(hModule);
  if (!module) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pFunctionName || !pfnFunction) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return guarded([&] { return module->functionPointer(pFunctionName, pfnFunction); });
}

namespace {

ze_result_t nativeBinary(ze_module_handle_t hModule, size_t* pSize, uint8_t* pModuleNativeBinary,
                         bool compileAll) {
  Module* module = Module::fromHandle(hModule);
  if (!module) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pSize) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return guarded([&] {
    std::vector<uint8_t> binary = module->nativeBinary(compileAll);
    if (!pModuleNativeBinary) {
      *pSize = binary.size();
      return ZE_RESULT_SUCCESS;
    }
    // A truncated binary would not load: a buffer too small is refused.
    if (*pSize < binary.size()) return ZE_RESULT_ERROR_INVALID_SIZE;
    std::memcpy(pModuleNativeBinary, binary.data(), binary.size());
    *pSize = binary.size();
    return ZE_RESULT_SUCCESS;
  });
}

}  // namespace

ZE_APIEXPORT ze_result_t ZE_APICALL zeModuleGetNativeBinary(ze_module_handle_t hModule,
                                                            size_t* pSize,
                                                            uint8_t* pModuleNativeBinary) {
  return nativeBinary(hModule, pSize, pModuleNativeBinary, true);
}

// ZE_tessera_module_kernels 1.1 (tessera/ze_tessera.h).
ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraModuleGetNativeBinaryAsIs(
    ze_module_handle_t hModule, size_t* pSize, uint8_t* pModuleNativeBinary) {
  return nativeBinary(hModule, pSize, pModuleNativeBinary, false);
}

// Extension ZE_tessera_module_il.
ZE_APIEXPORT ze_result_t ZE_APICALL
zeTesseraModuleBuildKernels(ze_module_handle_t hModule, uint32_t count, const char** pKernelNames,
                            ze_module_build_log_handle_t* phBuildLog) {
  Module* module = Module::fromHandle(hModule);
  if (!module) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (count > 0 && !pKernelNames) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  for (uint32_t i = 0; i < count; ++i)
    if (!pKernelNames[i]) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return guarded([&] {
    std::vector<std::string> names(pKernelNames, pKernelNames + count);
    std::string log;
    ze_result_t r = module->compileKernels(names, log);
    if (phBuildLog) *phBuildLog = (new BuildLog(std::move(log)))->toHandle();
    return r;
  });
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeTesseraModuleGetCompiledKernelCount(ze_module_handle_t hModule, uint32_t* pCount) {
  Module* module = Module::fromHandle(hModule);
  if (!module) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pCount) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *pCount = module->compiledKernelCount();
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraModuleGetKernelTable(ze_module_handle_t hModule,
                                                                  size_t* pSize, uint8_t* pTable) {
  Module* module = Module::fromHandle(hModule);
  if (!module) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pSize) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const std::vector<uint8_t> table = tessera::spirv::writeKernelTable(module->info());
  if (pTable) {
    if (*pSize < table.size()) return ZE_RESULT_ERROR_INVALID_SIZE;
    std::memcpy(pTable, table.data(), table.size());
  }
  *pSize = table.size();
  return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraModuleGetIL(ze_module_handle_t hModule, size_t* pSize,
                                                         uint8_t* pIL) {
  Module* module = Module::fromHandle(hModule);
  if (!module) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pSize) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const std::vector<uint8_t>& il = module->il();
  if (pIL) {
    if (*pSize < il.size()) return ZE_RESULT_ERROR_INVALID_SIZE;
    std::memcpy(pIL, il.data(), il.size());
  }
  *pSize = il.size();
  return ZE_RESULT_SUCCESS;
}
