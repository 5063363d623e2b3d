// pNext chains that never end (a cycle the application linked by mistake, or garbage that loops)
// are refused with ZE_RESULT_ERROR_INVALID_ARGUMENT by every entry point that walks a chain,
// before anything is read or written (issue 28 item 6: zeImageCreate looped forever on one).
// Chains that end are walked as before, however long (mutable updates chain one per change).
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <vector>

#include "ze_test_support.h"

namespace {

// Two structures of unknown type pointing at each other: a chain without an end.
struct Cycle {
  ze_base_desc_t a{ze_structure_type_t(0x7e5e0001), nullptr};
  ze_base_desc_t b{ze_structure_type_t(0x7e5e0002), nullptr};
  Cycle() {
    a.pNext = &b;
    b.pNext = &a;
  }
  void* head() { return &a; }
};

// `n` structures of unknown type in a row, ending.
struct Row {
  std::vector<ze_base_desc_t> items;
  explicit Row(size_t n) : items(n) {
    for (size_t i = 0; i < n; ++i)
      items[i] = {ze_structure_type_t(0x7e5e0003), i + 1 < n ? &items[i + 1] : nullptr};
  }
  void* head() { return items.data(); }
};

}  // namespace

TEST_CASE("A pNext chain without an end is refused by every entry point that walks one",
          "[chains]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  ze_device_handle_t device = tessera::test::devices(driver).at(0);
  ze_context_desc_t cd{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_context_handle_t context = nullptr;
  REQUIRE(zeContextCreate(driver, &cd, &context) == ZE_RESULT_SUCCESS);
  Cycle cycle;
  const auto bad = ZE_RESULT_ERROR_INVALID_ARGUMENT;

  ze_image_desc_t id{ZE_STRUCTURE_TYPE_IMAGE_DESC, cycle.head()};
  id.type = ZE_IMAGE_TYPE_2D;
  id.format = {ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM};
  id.width = 4;
  id.height = 4;
  ze_image_handle_t image = nullptr;
  CHECK(zeImageCreate(context, device, &id, &image) == bad);
  CHECK(image == nullptr);

  ze_device_mem_alloc_desc_t dd{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, cycle.head()};
  ze_host_mem_alloc_desc_t hd{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, cycle.head()};
  void* p = nullptr;
  CHECK(zeMemAllocDevice(context, &dd, 64, 64, device, &p) == bad);
  CHECK(zeMemAllocHost(context, &hd, 64, 64, &p) == bad);
  CHECK(p == nullptr);

  ze_command_list_desc_t ld{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, cycle.head()};
  ze_command_list_handle_t list = nullptr;
  CHECK(zeCommandListCreate(context, device, &ld, &list) == bad);

  ze_device_properties_t dp{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES, cycle.head()};
  CHECK(zeDeviceGetProperties(device, &dp) == bad);
  ze_device_module_properties_t mp{ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES, cycle.head()};
  CHECK(zeDeviceGetModuleProperties(device, &mp) == bad);
  ze_driver_properties_t rp{ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES, cycle.head()};
  CHECK(zeDriverGetProperties(driver, &rp) == bad);
  uint32_t count = 1;
  ze_device_cache_properties_t cp{ZE_STRUCTURE_TYPE_DEVICE_CACHE_PROPERTIES, cycle.head()};
  CHECK(zeDeviceGetCacheProperties(device, &count, &cp) == bad);

  void* host = nullptr;
  ze_host_mem_alloc_desc_t ok{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr};
  REQUIRE(zeMemAllocHost(context, &ok, 64, 64, &host) == ZE_RESULT_SUCCESS);
  ze_memory_allocation_properties_t ap{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES,
                                       cycle.head()};
  CHECK(zeMemGetAllocProperties(context, host, &ap, nullptr) == bad);
  zeMemFree(context, host);
  zeContextDestroy(context);
}

TEST_CASE("A long chain that ends is walked: unknown structures are skipped", "[chains]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  ze_device_handle_t device = tessera::test::devices(driver).at(0);
  ze_context_desc_t cd{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_context_handle_t context = nullptr;
  REQUIRE(zeContextCreate(driver, &cd, &context) == ZE_RESULT_SUCCESS);
  Row row(5000);
  ze_host_mem_alloc_desc_t hd{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, row.head()};
  void* p = nullptr;
  CHECK(zeMemAllocHost(context, &hd, 64, 64, &p) == ZE_RESULT_SUCCESS);
  if (p) zeMemFree(context, p);
  ze_device_properties_t dp{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES, row.head()};
  CHECK(zeDeviceGetProperties(device, &dp) == ZE_RESULT_SUCCESS);
  zeContextDestroy(context);
}
