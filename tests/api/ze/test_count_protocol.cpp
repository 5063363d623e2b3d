// The count protocol when the count is zero and an array is given anyway. The specification reads
// "if count is zero, then the driver shall update the value with the total number of [objects]
// available" and gives the array as "[range(0, *pCount)]": with a count of zero the array has no
// element the driver may write (or read: the structure types of list queries are read from it).
// Applications rely on this when they pass a fixed array with a zero count to ask for the size.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <functional>
#include <vector>

#include "ze_test_support.h"

using tessera::test::extensionFunction;

namespace {

// Calls `query` with count 0 and a non-null array of `untouched` items: the count must become the
// number available, and the array must stay as it was.
template <typename T>
void checkZeroCountLeavesArray(const std::function<ze_result_t(uint32_t*, T*)>& query,
                               const T& untouched) {
  uint32_t available = 0;
  REQUIRE(query(&available, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<T> array(available + 1, untouched);
  uint32_t n = 0;
  REQUIRE(query(&n, array.data()) == ZE_RESULT_SUCCESS);
  CHECK(n == available);
  for (size_t i = 0; i < array.size(); ++i) {
    INFO("element " << i << " of " << available);
    CHECK(std::memcmp(&array[i], &untouched, sizeof(T)) == 0);
  }
}

template <typename T>
T structOfType(ze_structure_type_t stype) {
  T t;
  std::memset(&t, 0x5a, sizeof t);
  t.stype = stype;
  t.pNext = nullptr;
  return t;
}

const auto kSentinel = reinterpret_cast<ze_device_handle_t>(uintptr_t(0xdead));

}  // namespace

TEST_CASE("Given count 0 and an array, when zeDriverGet is called, then only the count is written",
          "[count]") {
  tessera::test::initDriver();
  checkZeroCountLeavesArray<ze_driver_handle_t>(
      [](uint32_t* n, ze_driver_handle_t* d) { return zeDriverGet(n, d); },
      reinterpret_cast<ze_driver_handle_t>(uintptr_t(0xdead)));
}

TEST_CASE(
    "Given count 0 and an array, when zeDriverGetExtensionProperties is called, then only "
    "the count is written",
    "[count]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  ze_driver_extension_properties_t untouched;
  std::memset(&untouched, 0x5a, sizeof untouched);
  checkZeroCountLeavesArray<ze_driver_extension_properties_t>(
      [&](uint32_t* n, ze_driver_extension_properties_t* p) {
        return zeDriverGetExtensionProperties(driver, n, p);
      },
      untouched);
}

TEST_CASE(
    "Given count 0 and an array, when zeDeviceGet and zeDeviceGetSubDevices are called, "
    "then only the count is written",
    "[count]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  checkZeroCountLeavesArray<ze_device_handle_t>(
      [&](uint32_t* n, ze_device_handle_t* d) { return zeDeviceGet(driver, n, d); }, kSentinel);
  for (ze_device_handle_t root : tessera::test::devices(driver))
    checkZeroCountLeavesArray<ze_device_handle_t>(
        [&](uint32_t* n, ze_device_handle_t* d) { return zeDeviceGetSubDevices(root, n, d); },
        kSentinel);
}

TEST_CASE(
    "Given count 0 and an array, when a device's list properties are asked, then only the "
    "count is written",
    "[count]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  ze_device_handle_t d = tessera::test::devices(driver).at(0);
  checkZeroCountLeavesArray<ze_command_queue_group_properties_t>(
      [&](uint32_t* n, ze_command_queue_group_properties_t* p) {
        return zeDeviceGetCommandQueueGroupProperties(d, n, p);
      },
      structOfType<ze_command_queue_group_properties_t>(
          ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES));
  checkZeroCountLeavesArray<ze_device_memory_properties_t>(
      [&](uint32_t* n, ze_device_memory_properties_t* p) {
        return zeDeviceGetMemoryProperties(d, n, p);
      },
      structOfType<ze_device_memory_properties_t>(ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES));
  checkZeroCountLeavesArray<ze_device_cache_properties_t>(
      [&](uint32_t* n, ze_device_cache_properties_t* p) {
        return zeDeviceGetCacheProperties(d, n, p);
      },
      structOfType<ze_device_cache_properties_t>(ZE_STRUCTURE_TYPE_DEVICE_CACHE_PROPERTIES));
}

TEST_CASE(
    "Given count 0 and an array, when a device's PUs, NUMA nodes or caches are listed "
    "(ZE_tessera_device_topology), then only the count is written",
    "[count]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  ze_device_handle_t d = tessera::test::devices(driver).at(0);
  auto pus = extensionFunction<ze_pfnTesseraDeviceGetPus_t>(driver, "zeTesseraDeviceGetPus");
  auto nodes =
      extensionFunction<ze_pfnTesseraDeviceGetNumaNodes_t>(driver, "zeTesseraDeviceGetNumaNodes");
  auto caches =
      extensionFunction<ze_pfnTesseraDeviceGetCaches_t>(driver, "zeTesseraDeviceGetCaches");
  REQUIRE(pus);
  REQUIRE(nodes);
  REQUIRE(caches);
  checkZeroCountLeavesArray<uint32_t>([&](uint32_t* n, uint32_t* p) { return pus(d, n, p); },
                                      0xffffffffu);
  checkZeroCountLeavesArray<uint32_t>([&](uint32_t* n, uint32_t* p) { return nodes(d, n, p); },
                                      0xffffffffu);
  ze_tessera_cache_t untouched;
  std::memset(&untouched, 0x5a, sizeof untouched);
  checkZeroCountLeavesArray<ze_tessera_cache_t>(
      [&](uint32_t* n, ze_tessera_cache_t* c) { return caches(d, n, c); }, untouched);
}
