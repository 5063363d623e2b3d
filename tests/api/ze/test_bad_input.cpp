// Bad input to every entry point: null, destroyed, never-valid and wrongly typed handles, null
// out-pointers, structures of the wrong type and out-of-range descriptors. Each is refused with the
// code the specification names, and none crashes.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "ze_test_support.h"

using tessera::test::extensionFunction;

namespace {

const auto kNullHandle = ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
const auto kNullPointer = ZE_RESULT_ERROR_INVALID_NULL_POINTER;
const auto kBadArgument = ZE_RESULT_ERROR_INVALID_ARGUMENT;

// A valid device and driver to go with the bad argument, and Tessera's extension functions.
struct Fixture {
  ze_driver_handle_t driver = tessera::test::initDriver();
  ze_device_handle_t device = tessera::test::devices(driver).at(0);
  ze_pfnDeviceGetRootDevice_t getRoot =
      extensionFunction<ze_pfnDeviceGetRootDevice_t>(driver, "zeDeviceGetRootDevice");
  ze_pfnTesseraDeviceGetTopologyProperties_t getTopology =
      extensionFunction<ze_pfnTesseraDeviceGetTopologyProperties_t>(
          driver, "zeTesseraDeviceGetTopologyProperties");
  ze_pfnTesseraDeviceGetPus_t getPus =
      extensionFunction<ze_pfnTesseraDeviceGetPus_t>(driver, "zeTesseraDeviceGetPus");
  ze_pfnTesseraDeviceGetNumaNodes_t getNumaNodes =
      extensionFunction<ze_pfnTesseraDeviceGetNumaNodes_t>(driver, "zeTesseraDeviceGetNumaNodes");
  ze_pfnTesseraDeviceGetCaches_t getCaches =
      extensionFunction<ze_pfnTesseraDeviceGetCaches_t>(driver, "zeTesseraDeviceGetCaches");

  Fixture() {
    REQUIRE(getRoot);
    REQUIRE(getTopology);
    REQUIRE(getPus);
    REQUIRE(getNumaNodes);
    REQUIRE(getCaches);
  }
};

template <typename T>
T typed(ze_structure_type_t stype) {
  T t{};
  t.stype = stype;
  return t;
}

ze_context_desc_t contextDesc(ze_context_flags_t flags = 0) {
  auto d = typed<ze_context_desc_t>(ZE_STRUCTURE_TYPE_CONTEXT_DESC);
  d.flags = flags;
  return d;
}

// Every entry point that takes a driver handle, given `bad` for it.
void checkDriverHandle(ze_driver_handle_t bad) {
  ze_api_version_t version;
  CHECK(zeDriverGetApiVersion(bad, &version) == kNullHandle);
  auto props = typed<ze_driver_properties_t>(ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES);
  CHECK(zeDriverGetProperties(bad, &props) == kNullHandle);
  auto ipc = typed<ze_driver_ipc_properties_t>(ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES);
  CHECK(zeDriverGetIpcProperties(bad, &ipc) == kNullHandle);
  uint32_t n = 0;
  CHECK(zeDriverGetExtensionProperties(bad, &n, nullptr) == kNullHandle);
  void* f = nullptr;
  CHECK(zeDriverGetExtensionFunctionAddress(bad, "zeDeviceGetRootDevice", &f) == kNullHandle);
  n = 0;
  CHECK(zeDeviceGet(bad, &n, nullptr) == kNullHandle);
  auto desc = contextDesc();
  ze_context_handle_t ctx = nullptr;
  CHECK(zeContextCreate(bad, &desc, &ctx) == kNullHandle);
  CHECK(zeContextCreateEx(bad, &desc, 0, nullptr, &ctx) == kNullHandle);
}

// Every entry point that takes a device handle, given `bad` for it (and `good` for a peer).
void checkDeviceHandle(const Fixture& fx, ze_device_handle_t bad) {
  ze_device_handle_t good = fx.device;
  uint32_t n = 0;
  CHECK(zeDeviceGetSubDevices(bad, &n, nullptr) == kNullHandle);
  auto p = typed<ze_device_properties_t>(ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES);
  CHECK(zeDeviceGetProperties(bad, &p) == kNullHandle);
  auto compute = typed<ze_device_compute_properties_t>(ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES);
  CHECK(zeDeviceGetComputeProperties(bad, &compute) == kNullHandle);
  auto module = typed<ze_device_module_properties_t>(ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES);
  CHECK(zeDeviceGetModuleProperties(bad, &module) == kNullHandle);
  n = 0;
  CHECK(zeDeviceGetCommandQueueGroupProperties(bad, &n, nullptr) == kNullHandle);
  n = 0;
  CHECK(zeDeviceGetMemoryProperties(bad, &n, nullptr) == kNullHandle);
  auto access = typed<ze_device_memory_access_properties_t>(
      ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES);
  CHECK(zeDeviceGetMemoryAccessProperties(bad, &access) == kNullHandle);
  n = 0;
  CHECK(zeDeviceGetCacheProperties(bad, &n, nullptr) == kNullHandle);
  auto image = typed<ze_device_image_properties_t>(ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES);
  CHECK(zeDeviceGetImageProperties(bad, &image) == kNullHandle);
  auto ext = typed<ze_device_external_memory_properties_t>(
      ZE_STRUCTURE_TYPE_DEVICE_EXTERNAL_MEMORY_PROPERTIES);
  CHECK(zeDeviceGetExternalMemoryProperties(bad, &ext) == kNullHandle);
  auto p2p = typed<ze_device_p2p_properties_t>(ZE_STRUCTURE_TYPE_DEVICE_P2P_PROPERTIES);
  CHECK(zeDeviceGetP2PProperties(bad, good, &p2p) == kNullHandle);
  CHECK(zeDeviceGetP2PProperties(good, bad, &p2p) == kNullHandle);
  ze_bool_t can = false;
  CHECK(zeDeviceCanAccessPeer(bad, good, &can) == kNullHandle);
  CHECK(zeDeviceCanAccessPeer(good, bad, &can) == kNullHandle);
  CHECK(zeDeviceGetStatus(bad) == kNullHandle);
  uint64_t host = 0, dev = 0;
  CHECK(zeDeviceGetGlobalTimestamps(bad, &host, &dev) == kNullHandle);
  // Tessera's extension functions are called without the loader in between.
  ze_device_handle_t root = nullptr;
  CHECK(fx.getRoot(bad, &root) == kNullHandle);
  auto topo = typed<ze_tessera_device_topology_properties_t>(
      ZE_STRUCTURE_TYPE_TESSERA_DEVICE_TOPOLOGY_PROPERTIES);
  CHECK(fx.getTopology(bad, &topo) == kNullHandle);
  n = 0;
  CHECK(fx.getPus(bad, &n, nullptr) == kNullHandle);
  n = 0;
  CHECK(fx.getNumaNodes(bad, &n, nullptr) == kNullHandle);
  n = 0;
  CHECK(fx.getCaches(bad, &n, nullptr) == kNullHandle);
  // In a device list.
  auto desc = contextDesc();
  ze_context_handle_t ctx = nullptr;
  CHECK(zeContextCreateEx(fx.driver, &desc, 1, &bad, &ctx) == kNullHandle);
}

void checkContextHandle(ze_context_handle_t bad) {
  CHECK(zeContextGetStatus(bad) == kNullHandle);
  CHECK(zeContextDestroy(bad) == kNullHandle);
}

ze_context_handle_t newContext(ze_driver_handle_t driver) {
  auto desc = contextDesc();
  ze_context_handle_t ctx = nullptr;
  REQUIRE(zeContextCreate(driver, &desc, &ctx) == ZE_RESULT_SUCCESS);
  return ctx;
}

}  // namespace

TEST_CASE("Given null handles, when any entry point is called, then it is INVALID_NULL_HANDLE",
          "[bad_input]") {
  Fixture fx;
  checkDriverHandle(nullptr);
  checkDeviceHandle(fx, nullptr);
  checkContextHandle(nullptr);
}

TEST_CASE(
    "Given a non-null pointer that never was a handle, when any entry point gets it, then it "
    "is INVALID_NULL_HANDLE",
    "[bad_input]") {
  Fixture fx;
  // Zeroed storage larger than any handle object: a lookup that trusted it would read zeros.
  alignas(64) static unsigned char garbage[4096] = {};
  int onStack = 42;
  for (void* bad : {static_cast<void*>(garbage), static_cast<void*>(&onStack)}) {
    checkDriverHandle(static_cast<ze_driver_handle_t>(bad));
    checkDeviceHandle(fx, static_cast<ze_device_handle_t>(bad));
    checkContextHandle(static_cast<ze_context_handle_t>(bad));
  }
}

TEST_CASE(
    "Given a copy of the first bytes of a live driver, device or context, when it is passed as "
    "a handle, then it is INVALID_NULL_HANDLE",
    "[bad_input]") {
  Fixture fx;
  ze_context_handle_t ctx = newContext(fx.driver);
  // Whatever a handle check reads at the start of the object (a type tag, a magic word), the copy
  // has it too; only the handle's identity tells it apart.
  alignas(64) unsigned char driverCopy[32], deviceCopy[32], contextCopy[32];
  std::memcpy(driverCopy, static_cast<const void*>(fx.driver), sizeof driverCopy);
  std::memcpy(deviceCopy, static_cast<const void*>(fx.device), sizeof deviceCopy);
  std::memcpy(contextCopy, static_cast<const void*>(ctx), sizeof contextCopy);
  checkDriverHandle(reinterpret_cast<ze_driver_handle_t>(driverCopy));
  checkDeviceHandle(fx, reinterpret_cast<ze_device_handle_t>(deviceCopy));
  checkContextHandle(reinterpret_cast<ze_context_handle_t>(contextCopy));
  CHECK(zeContextDestroy(ctx) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given a handle of another type, when it is passed where a driver, device or context "
    "handle is expected, then it is INVALID_NULL_HANDLE",
    "[bad_input]") {
  Fixture fx;
  ze_context_handle_t ctx = newContext(fx.driver);
  checkDeviceHandle(fx, reinterpret_cast<ze_device_handle_t>(ctx));
  checkDeviceHandle(fx, reinterpret_cast<ze_device_handle_t>(fx.driver));
  checkDriverHandle(reinterpret_cast<ze_driver_handle_t>(fx.device));
  checkDriverHandle(reinterpret_cast<ze_driver_handle_t>(ctx));
  CHECK(zeContextGetStatus(reinterpret_cast<ze_context_handle_t>(fx.device)) == kNullHandle);
  CHECK(zeContextGetStatus(reinterpret_cast<ze_context_handle_t>(fx.driver)) == kNullHandle);
  // The context survived all that.
  CHECK(zeContextGetStatus(ctx) == ZE_RESULT_SUCCESS);
  CHECK(zeContextDestroy(ctx) == ZE_RESULT_SUCCESS);
  // and so did the device and the driver
  CHECK(zeDeviceGetStatus(fx.device) == ZE_RESULT_SUCCESS);
  uint32_t n = 0;
  CHECK(zeDeviceGet(fx.driver, &n, nullptr) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given a destroyed context, when it is used or destroyed again, then it is "
    "INVALID_NULL_HANDLE",
    "[bad_input]") {
  Fixture fx;
  ze_context_handle_t ctx = newContext(fx.driver);
  REQUIRE(zeContextDestroy(ctx) == ZE_RESULT_SUCCESS);
  checkContextHandle(ctx);
  checkDeviceHandle(fx, reinterpret_cast<ze_device_handle_t>(ctx));
}

TEST_CASE("Given valid handles, when an out-pointer is null, then it is INVALID_NULL_POINTER",
          "[bad_input]") {
  Fixture fx;
  ze_driver_handle_t drv = fx.driver;
  ze_device_handle_t dev = fx.device;
  CHECK(zeDriverGet(nullptr, nullptr) == kNullPointer);
  CHECK(zeDriverGetApiVersion(drv, nullptr) == kNullPointer);
  CHECK(zeDriverGetProperties(drv, nullptr) == kNullPointer);
  CHECK(zeDriverGetIpcProperties(drv, nullptr) == kNullPointer);
  CHECK(zeDriverGetExtensionProperties(drv, nullptr, nullptr) == kNullPointer);
  void* f = nullptr;
  CHECK(zeDriverGetExtensionFunctionAddress(drv, nullptr, &f) == kNullPointer);
  CHECK(zeDriverGetExtensionFunctionAddress(drv, "zeDeviceGetRootDevice", nullptr) == kNullPointer);
  CHECK(zeDeviceGet(drv, nullptr, nullptr) == kNullPointer);
  CHECK(zeDeviceGetSubDevices(dev, nullptr, nullptr) == kNullPointer);
  CHECK(zeDeviceGetProperties(dev, nullptr) == kNullPointer);
  CHECK(zeDeviceGetComputeProperties(dev, nullptr) == kNullPointer);
  CHECK(zeDeviceGetModuleProperties(dev, nullptr) == kNullPointer);
  CHECK(zeDeviceGetCommandQueueGroupProperties(dev, nullptr, nullptr) == kNullPointer);
  CHECK(zeDeviceGetMemoryProperties(dev, nullptr, nullptr) == kNullPointer);
  CHECK(zeDeviceGetMemoryAccessProperties(dev, nullptr) == kNullPointer);
  CHECK(zeDeviceGetCacheProperties(dev, nullptr, nullptr) == kNullPointer);
  CHECK(zeDeviceGetImageProperties(dev, nullptr) == kNullPointer);
  CHECK(zeDeviceGetExternalMemoryProperties(dev, nullptr) == kNullPointer);
  CHECK(zeDeviceGetP2PProperties(dev, dev, nullptr) == kNullPointer);
  CHECK(zeDeviceCanAccessPeer(dev, dev, nullptr) == kNullPointer);
  uint64_t t = 0;
  CHECK(zeDeviceGetGlobalTimestamps(dev, nullptr, &t) == kNullPointer);
  CHECK(zeDeviceGetGlobalTimestamps(dev, &t, nullptr) == kNullPointer);
  auto desc = contextDesc();
  ze_context_handle_t ctx = nullptr;
  CHECK(zeContextCreate(drv, nullptr, &ctx) == kNullPointer);
  CHECK(zeContextCreate(drv, &desc, nullptr) == kNullPointer);
  CHECK(zeContextCreateEx(drv, nullptr, 0, nullptr, &ctx) == kNullPointer);
  CHECK(zeContextCreateEx(drv, &desc, 0, nullptr, nullptr) == kNullPointer);
  CHECK(fx.getRoot(dev, nullptr) == kNullPointer);
  CHECK(fx.getTopology(dev, nullptr) == kNullPointer);
  CHECK(fx.getPus(dev, nullptr, nullptr) == kNullPointer);
  CHECK(fx.getNumaNodes(dev, nullptr, nullptr) == kNullPointer);
  CHECK(fx.getCaches(dev, nullptr, nullptr) == kNullPointer);
}

TEST_CASE(
    "Given valid handles, when a property structure has another structure's stype, then it is "
    "filled as the parameter's type (Intel's driver does not read it); a descriptor is refused",
    "[bad_input]") {
  Fixture fx;
  ze_driver_handle_t drv = fx.driver;
  ze_device_handle_t dev = fx.device;
  // Each structure gets the type of another one.
  const auto wrong = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES;
  auto driverProps = typed<ze_driver_properties_t>(wrong);
  CHECK(zeDriverGetProperties(drv, &driverProps) == ZE_RESULT_SUCCESS);
  auto ipc = typed<ze_driver_ipc_properties_t>(wrong);
  CHECK(zeDriverGetIpcProperties(drv, &ipc) == ZE_RESULT_SUCCESS);
  auto props = typed<ze_device_properties_t>(ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES);
  CHECK(zeDeviceGetProperties(dev, &props) == ZE_RESULT_SUCCESS);
  auto compute = typed<ze_device_compute_properties_t>(wrong);
  CHECK(zeDeviceGetComputeProperties(dev, &compute) == ZE_RESULT_SUCCESS);
  auto module = typed<ze_device_module_properties_t>(ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES);
  CHECK(zeDeviceGetModuleProperties(dev, &module) == ZE_RESULT_SUCCESS);
  auto access = typed<ze_device_memory_access_properties_t>(wrong);
  CHECK(zeDeviceGetMemoryAccessProperties(dev, &access) == ZE_RESULT_SUCCESS);
  auto image = typed<ze_device_image_properties_t>(wrong);
  CHECK(zeDeviceGetImageProperties(dev, &image) == ZE_RESULT_SUCCESS);
  auto ext = typed<ze_device_external_memory_properties_t>(wrong);
  CHECK(zeDeviceGetExternalMemoryProperties(dev, &ext) == ZE_RESULT_SUCCESS);
  auto p2p = typed<ze_device_p2p_properties_t>(wrong);
  CHECK(zeDeviceGetP2PProperties(dev, dev, &p2p) == ZE_RESULT_SUCCESS);
  auto topo = typed<ze_tessera_device_topology_properties_t>(wrong);
  CHECK(fx.getTopology(dev, &topo) == ZE_RESULT_SUCCESS);
  // In the lists too.
  std::vector<ze_command_queue_group_properties_t> groups(2);
  groups[0].stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
  groups[1].stype = wrong;
  uint32_t n = 2;
  CHECK(zeDeviceGetCommandQueueGroupProperties(dev, &n, groups.data()) == ZE_RESULT_SUCCESS);
  n = 0;
  REQUIRE(zeDeviceGetMemoryProperties(dev, &n, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<ze_device_memory_properties_t> mem(n);
  for (auto& m : mem) m.stype = wrong;
  CHECK(zeDeviceGetMemoryProperties(dev, &n, mem.data()) == ZE_RESULT_SUCCESS);
  n = 0;
  REQUIRE(zeDeviceGetCacheProperties(dev, &n, nullptr) == ZE_RESULT_SUCCESS);
  if (n > 0) {
    std::vector<ze_device_cache_properties_t> caches(n);
    for (auto& c : caches) c.stype = wrong;
    CHECK(zeDeviceGetCacheProperties(dev, &n, caches.data()) == ZE_RESULT_SUCCESS);
  }
  // The context descriptor too.
  auto desc = typed<ze_context_desc_t>(wrong);
  ze_context_handle_t ctx = nullptr;
  CHECK(zeContextCreate(drv, &desc, &ctx) == kBadArgument);
}

TEST_CASE(
    "Given a context descriptor with flags above ZE_CONTEXT_FLAG_TBD, when a context is "
    "created, then it is INVALID_ENUMERATION",
    "[bad_input]") {
  Fixture fx;
  ze_context_handle_t ctx = nullptr;
  for (ze_context_flags_t flags : {0x2u, 0x3u, 0x80000000u}) {
    auto desc = contextDesc(flags);
    CHECK(zeContextCreate(fx.driver, &desc, &ctx) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
    CHECK(zeContextCreateEx(fx.driver, &desc, 0, nullptr, &ctx) ==
          ZE_RESULT_ERROR_INVALID_ENUMERATION);
  }
}

TEST_CASE(
    "Given zeContextCreateEx, when numDevices is positive and phDevices null, then it is "
    "INVALID_SIZE",
    "[bad_input]") {
  Fixture fx;
  auto desc = contextDesc();
  ze_context_handle_t ctx = nullptr;
  CHECK(zeContextCreateEx(fx.driver, &desc, 1, nullptr, &ctx) == ZE_RESULT_ERROR_INVALID_SIZE);
  CHECK(zeContextCreateEx(fx.driver, &desc, 7, nullptr, &ctx) == ZE_RESULT_ERROR_INVALID_SIZE);
}

#ifndef TESSERA_LINKED_DIRECTLY
// The library does not export what it does not implement; the loader answers for it.
TEST_CASE(
    "Given the loader, when an entry point Tessera does not implement is called, then it is "
    "UNSUPPORTED_FEATURE",
    "[bad_input]") {
  Fixture fx;
  // The fabric topology (ZE_experimental_fabric) is the one part of ze_api.h left.
  uint32_t count = 0;
  CHECK(zeFabricVertexGetExp(fx.driver, &count, nullptr) == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}
#endif
