// The driver queries: version, properties, IPC properties, extensions and extension functions.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <vector>

#include "ze_test_support.h"

namespace {

const char* const kExtensionFunctions[] = {
    "zeDeviceGetRootDevice", "zeTesseraDeviceGetTopologyProperties", "zeTesseraDeviceGetPus",
    "zeTesseraDeviceGetNumaNodes", "zeTesseraDeviceGetCaches", "zeCommandListGetNextCommandIdExp",
    "zeCommandListUpdateMutableCommandsExp", "zeCommandListUpdateMutableCommandSignalEventExp",
    "zeCommandListUpdateMutableCommandWaitEventsExp"};

bool isZero(const uint8_t* bytes, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (bytes[i]) return false;
  return true;
}

ze_driver_properties_t driverProperties(ze_driver_handle_t driver, void* pNext = nullptr) {
  ze_driver_properties_t p{};
  p.stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES;
  p.pNext = pNext;
  REQUIRE(zeDriverGetProperties(driver, &p) == ZE_RESULT_SUCCESS);
  return p;
}

std::vector<ze_driver_extension_properties_t> extensions(ze_driver_handle_t driver) {
  uint32_t n = 0;
  REQUIRE(zeDriverGetExtensionProperties(driver, &n, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<ze_driver_extension_properties_t> v(n);
  REQUIRE(zeDriverGetExtensionProperties(driver, &n, v.data()) == ZE_RESULT_SUCCESS);
  REQUIRE(n == v.size());
  return v;
}

}  // namespace

// 1.17: every core function through it is implemented (scripts/api_coverage_current.py checks the
// driver's constant against the library's exports in the docs.api_coverage test).
TEST_CASE("Given an initialized driver, when zeDriverGetApiVersion is called, then it is 1.17",
          "[driver]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  ze_api_version_t version = ZE_API_VERSION_FORCE_UINT32;
  REQUIRE(zeDriverGetApiVersion(driver, &version) == ZE_RESULT_SUCCESS);
  CHECK(uint32_t(version) == ZE_MAKE_VERSION(1, 17));
  CHECK(ZE_MAJOR_VERSION(version) == 1);
  CHECK(ZE_MINOR_VERSION(version) == 17);
}

TEST_CASE(
    "Given an initialized driver, when its properties are read twice, then the uuid is "
    "non-zero and stable and the version non-zero",
    "[driver]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  // A chained structure of a type the driver does not know: it must be kept and skipped.
  ze_base_properties_t marker{static_cast<ze_structure_type_t>(0x7fff0001), nullptr};
  ze_driver_properties_t a = driverProperties(driver, &marker);
  ze_driver_properties_t b = driverProperties(driver);
  CHECK(a.stype == ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES);
  CHECK(a.pNext == &marker);
  CHECK_FALSE(isZero(a.uuid.id, sizeof a.uuid.id));
  CHECK(std::memcmp(a.uuid.id, b.uuid.id, sizeof a.uuid.id) == 0);
  CHECK(a.driverVersion != 0);
  CHECK(a.driverVersion == b.driverVersion);
}

TEST_CASE(
    "Given an initialized driver, when its IPC properties are read, then only known flags "
    "are set and the header is kept",
    "[driver]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  int marker = 0;
  ze_driver_ipc_properties_t p{};
  p.stype = ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES;
  p.pNext = &marker;
  p.flags = ZE_IPC_PROPERTY_FLAG_FORCE_UINT32;  // must be overwritten
  REQUIRE(zeDriverGetIpcProperties(driver, &p) == ZE_RESULT_SUCCESS);
  CHECK(p.stype == ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES);
  CHECK(p.pNext == &marker);
  CHECK((p.flags & ~ze_ipc_property_flags_t(ZE_IPC_PROPERTY_FLAG_MEMORY |
                                            ZE_IPC_PROPERTY_FLAG_EVENT_POOL)) == 0);
}

TEST_CASE(
    "Given an initialized driver, when its extensions are listed, then Tessera's two are "
    "there with version 1.0 and every name is terminated",
    "[driver]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  auto list = extensions(driver);
  bool rootDevice = false, topology = false;
  for (const auto& e : list) {
    REQUIRE(std::memchr(e.name, 0, sizeof e.name) != nullptr);
    std::string name = e.name;
    CHECK_FALSE(name.empty());
    if (name == ZE_TESSERA_ROOT_DEVICE_EXT_NAME) {
      rootDevice = true;
      CHECK(e.version == ZE_TESSERA_ROOT_DEVICE_EXT_VERSION);
    }
    if (name == ZE_TESSERA_DEVICE_TOPOLOGY_EXT_NAME) {
      topology = true;
      CHECK(e.version == ZE_TESSERA_DEVICE_TOPOLOGY_EXT_VERSION);
    }
  }
  CHECK(rootDevice);
  CHECK(topology);
}

TEST_CASE(
    "Given an initialized driver, when the extensions are listed with counts 0, less and "
    "more, then the count protocol holds",
    "[driver]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  auto all = extensions(driver);
  REQUIRE(all.size() >= 2);
  // more than available: lowered
  uint32_t n = static_cast<uint32_t>(all.size()) + 5;
  std::vector<ze_driver_extension_properties_t> v(n);
  REQUIRE(zeDriverGetExtensionProperties(driver, &n, v.data()) == ZE_RESULT_SUCCESS);
  CHECK(n == all.size());
  // fewer: exactly that many, in the same order, the rest untouched
  for (uint32_t k = 1; k < all.size(); ++k) {
    std::vector<ze_driver_extension_properties_t> some(all.size());
    for (auto& e : some) std::strcpy(e.name, "untouched");
    uint32_t count = k;
    REQUIRE(zeDriverGetExtensionProperties(driver, &count, some.data()) == ZE_RESULT_SUCCESS);
    CHECK(count == k);
    for (uint32_t i = 0; i < k; ++i) CHECK(std::string(some[i].name) == all[i].name);
    for (uint32_t i = k; i < all.size(); ++i) CHECK(std::string(some[i].name) == "untouched");
  }
}

TEST_CASE(
    "Given an initialized driver, when each Tessera extension function is asked for, then "
    "it is found",
    "[driver]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  for (const char* name : kExtensionFunctions) {
    INFO(name);
    void* f = nullptr;
    CHECK(zeDriverGetExtensionFunctionAddress(driver, name, &f) == ZE_RESULT_SUCCESS);
    CHECK(f != nullptr);
  }
#ifdef TESSERA_LINKED_DIRECTLY
  // The address handed out is the exported function itself.
  CHECK(tessera::test::extensionFunction<void*>(driver, "zeDeviceGetRootDevice") ==
        reinterpret_cast<void*>(&zeDeviceGetRootDevice));
#endif
}

TEST_CASE(
    "Given an initialized driver, when an unknown extension function is asked for, then it "
    "is INVALID_ARGUMENT",
    "[driver]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  for (const char* name :
       {"zeNoSuchFunction", "", "zeDeviceGetRootDeviceX", "zetesseradevicegetpus"}) {
    INFO(name);
    void* f = nullptr;
    CHECK(zeDriverGetExtensionFunctionAddress(driver, name, &f) ==
          ZE_RESULT_ERROR_INVALID_ARGUMENT);
  }
}

TEST_CASE(
    "Given an initialized driver, when zeDriverGet is called with counts 0 and more, then "
    "the count protocol holds and the handle is the same each time",
    "[driver]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  uint32_t n = 0;
  REQUIRE(zeDriverGet(&n, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(n == 1);
  ze_driver_handle_t handles[4] = {};
  n = 4;
  REQUIRE(zeDriverGet(&n, handles) == ZE_RESULT_SUCCESS);
  CHECK(n == 1);
  CHECK(handles[0] == driver);
  CHECK(handles[1] == nullptr);
  n = 1;
  ze_driver_handle_t again = nullptr;
  REQUIRE(zeDriverGet(&n, &again) == ZE_RESULT_SUCCESS);
  CHECK(again == driver);
}
