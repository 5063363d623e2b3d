// The extension entry points of the 1.4 headers, called by their names: linked directly they are
// Tessera's functions; through the loader they reach Tessera only through its DDI tables
// (level_zero/ze_ddi_tables.cpp), where an empty slot makes the loader answer UNSUPPORTED_FEATURE
// for a function Tessera has. Each test therefore expects an answer only Tessera gives.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_test_support.h"
#include "memory_test_support.h"
#include "ze_test_support.h"

using tessera::test::MemoryFixture;

namespace {

struct ModuleFixture : tessera::test::QueueListFixture {
  std::vector<ze_module_handle_t> modules;
  ~ModuleFixture() {
    for (auto m : modules) zeModuleDestroy(m);
  }
  ze_module_handle_t module(const std::string& name) {
    auto spv = tessera::test::readCorpusKernel(name);
    ze_module_handle_t m =
        tessera::test::createSpirvModule(context, device, spv.data(), spv.size());
    modules.push_back(m);
    return m;
  }
  std::string inspect(std::vector<ze_module_handle_t> set,
                      ze_linkage_inspection_ext_flags_t flags) {
    ze_linkage_inspection_ext_desc_t desc{ZE_STRUCTURE_TYPE_LINKAGE_INSPECTION_EXT_DESC, nullptr,
                                          flags};
    ze_module_build_log_handle_t log = nullptr;
    REQUIRE(zeModuleInspectLinkageExt(&desc, uint32_t(set.size()), set.data(), &log) ==
            ZE_RESULT_SUCCESS);
    std::string text = tessera::test::buildLogText(log);
    CHECK(zeModuleBuildLogDestroy(log) == ZE_RESULT_SUCCESS);
    return text;
  }
};

bool listed(ze_driver_handle_t driver, const char* name) {
  return tessera::test::extensionVersion(driver, name) != 0;
}

}  // namespace

TEST_CASE_METHOD(MemoryFixture, "Given zeMemFreeExt called by its name, then it frees",
                 "[memory][ddi]") {
  void* p = allocShared(4096);
  ze_memory_free_ext_desc_t desc{ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, nullptr,
                                 ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE};
  CHECK(zeMemFreeExt(context, &desc, p) == ZE_RESULT_SUCCESS);
  CHECK(props(p).type == ZE_MEMORY_TYPE_UNKNOWN);
  CHECK(zeMemFreeExt(context, &desc, p) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_CASE(
    "Given the cache reservation and PCI entry points, then they check their arguments and "
    "answer that a CPU has neither",
    "[device][ddi]") {
  ze_device_handle_t d = tessera::test::devices(tessera::test::initDriver()).at(0);
  int anything = 0;
  CHECK(zeDeviceSetCacheAdviceExt(d, nullptr, 1, ZE_CACHE_EXT_REGION_ZE_CACHE_REGION_DEFAULT) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeDeviceSetCacheAdviceExt(d, &anything, 1, ze_cache_ext_region_t(3)) ==
        ZE_RESULT_ERROR_INVALID_ENUMERATION);
  CHECK(zeDeviceSetCacheAdviceExt(d, &anything, 1, ZE_CACHE_EXT_REGION_ZE_CACHE_RESERVE_REGION) ==
        ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  CHECK(zeDeviceReserveCacheExt(d, 0, 4096) == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  // "Size of zero means no reservation available."
  uint32_t n = 0;
  REQUIRE(zeDeviceGetCacheProperties(d, &n, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(n > 0);
  ze_cache_reservation_ext_desc_t reservation{ZE_STRUCTURE_TYPE_CACHE_RESERVATION_EXT_DESC, nullptr,
                                              12345};
  std::vector<ze_device_cache_properties_t> caches(n, {ZE_STRUCTURE_TYPE_DEVICE_CACHE_PROPERTIES});
  caches[0].pNext = &reservation;
  REQUIRE(zeDeviceGetCacheProperties(d, &n, caches.data()) == ZE_RESULT_SUCCESS);
  CHECK(reservation.maxCacheReservationSize == 0);
  CHECK(caches[0].pNext == &reservation);
  // A CPU has no PCI address.
  CHECK(zeDevicePciGetPropertiesExt(d, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  ze_pci_ext_properties_t pci{ZE_STRUCTURE_TYPE_PCI_EXT_PROPERTIES};
  CHECK(zeDevicePciGetPropertiesExt(d, &pci) == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

TEST_CASE_METHOD(ModuleFixture,
                 "Given import_user and export_lib, when their linkage is inspected, then the log "
                 "lists the import, whether it resolves, and the export",
                 "[module][link][ddi]") {
  REQUIRE(listed(driver, ZE_LINKAGE_INSPECTION_EXT_NAME));
  ze_module_handle_t user = module("import_user"), lib = module("export_lib");
  const ze_linkage_inspection_ext_flags_t all =
      ZE_LINKAGE_INSPECTION_EXT_FLAG_IMPORTS | ZE_LINKAGE_INSPECTION_EXT_FLAG_UNRESOLVABLE_IMPORTS |
      ZE_LINKAGE_INSPECTION_EXT_FLAG_EXPORTS;
  // The kernel is an exported function too (the translator gives kernels Export linkage).
  CHECK(inspect({user, lib}, all) ==
        "Imports:\n  tessera_scale\nUnresolvable Imports:\nExports:\n  import_user\n"
        "  tessera_scale\n");
  CHECK(inspect({user}, all) ==
        "Imports:\n  tessera_scale\nUnresolvable Imports:\n  tessera_scale\nExports:\n"
        "  import_user\n");
  CHECK(inspect({lib}, ZE_LINKAGE_INSPECTION_EXT_FLAG_EXPORTS) == "Exports:\n  tessera_scale\n");
  CHECK(inspect({user, lib}, 0) == "");
  // Inspection links nothing.
  ze_module_properties_t mp{ZE_STRUCTURE_TYPE_MODULE_PROPERTIES};
  REQUIRE(zeModuleGetProperties(user, &mp) == ZE_RESULT_SUCCESS);
  CHECK((mp.flags & ZE_MODULE_PROPERTY_FLAG_IMPORTS) != 0);

  ze_linkage_inspection_ext_desc_t desc{ZE_STRUCTURE_TYPE_LINKAGE_INSPECTION_EXT_DESC, nullptr,
                                        0x8};
  ze_module_build_log_handle_t log = nullptr;
  CHECK(zeModuleInspectLinkageExt(&desc, 1, &user, &log) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  desc.flags = 0;
  CHECK(zeModuleInspectLinkageExt(&desc, 1, &user, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeModuleInspectLinkageExt(&desc, 1, nullptr, &log) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  desc.stype = ZE_STRUCTURE_TYPE_MODULE_DESC;
  CHECK(zeModuleInspectLinkageExt(&desc, 1, &user, &log) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_CASE_METHOD(tessera::test::KernelFixture,
                 "Given a scheduling hint, when it is set on a kernel, then it is accepted and the "
                 "kernel runs as before",
                 "[kernel][ddi]") {
  REQUIRE(listed(driver, ZE_KERNEL_SCHEDULING_HINTS_EXP_NAME));
  // The device reports no hint that changes anything.
  ze_scheduling_hint_exp_properties_t hints{ZE_STRUCTURE_TYPE_SCHEDULING_HINT_EXP_PROPERTIES,
                                            nullptr, ZE_SCHEDULING_HINT_EXP_FLAG_FORCE_UINT32};
  ze_device_module_properties_t mp{ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES, &hints};
  REQUIRE(zeDeviceGetModuleProperties(device, &mp) == ZE_RESULT_SUCCESS);
  CHECK(hints.schedulingHintFlags == 0);

  ze_kernel_handle_t k = kernel(module("vector_add"), "vector_add");
  for (uint32_t flags : {0u, unsigned(ZE_SCHEDULING_HINT_EXP_FLAG_OLDEST_FIRST),
                         unsigned(ZE_SCHEDULING_HINT_EXP_FLAG_ROUND_ROBIN),
                         unsigned(ZE_SCHEDULING_HINT_EXP_FLAG_STALL_BASED_ROUND_ROBIN), 0x7u}) {
    ze_scheduling_hint_exp_desc_t hint{ZE_STRUCTURE_TYPE_SCHEDULING_HINT_EXP_DESC, nullptr, flags};
    CHECK(zeKernelSchedulingHintExp(k, &hint) == ZE_RESULT_SUCCESS);
  }
  ze_scheduling_hint_exp_desc_t hint{ZE_STRUCTURE_TYPE_SCHEDULING_HINT_EXP_DESC, nullptr, 0x8};
  CHECK(zeKernelSchedulingHintExp(k, &hint) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  CHECK(zeKernelSchedulingHintExp(k, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  hint = {ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0};
  CHECK(zeKernelSchedulingHintExp(k, &hint) == ZE_RESULT_ERROR_INVALID_ARGUMENT);

  const uint32_t n = 256;
  std::vector<float> a(n, 1.5f), b(n, 2.0f), c(n, 0.0f);
  tessera::test::setArgs(k, a.data(), b.data(), c.data());
  tessera::test::setGroupSize(k, 64);
  runOnce([&](ze_command_list_handle_t l) { launch(l, k, {n / 64, 1, 1}); });
  for (float v : c) REQUIRE(v == 3.5f);
}
