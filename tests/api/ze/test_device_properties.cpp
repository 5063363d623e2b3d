// The device property queries, on every device of the tree (root devices and sub-devices alike).
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "tessera/ze_tessera.h"
#include "ze_test_support.h"

namespace {

void addTree(std::vector<ze_device_handle_t>& out, ze_device_handle_t d) {
  out.push_back(d);
  for (ze_device_handle_t s : tessera::test::subDevices(d)) addTree(out, s);
}

std::vector<ze_device_handle_t> allDevices() {
  std::vector<ze_device_handle_t> out;
  for (ze_device_handle_t d : tessera::test::devices(tessera::test::initDriver())) addTree(out, d);
  return out;
}

// An extension structure no query knows: pNext must come back untouched.
ze_base_properties_t g_chained{static_cast<ze_structure_type_t>(0x7e55ffff), nullptr};

// Fills a single property struct through `query` and checks that its header is kept.
template <typename T, typename Query>
T query(ze_device_handle_t d, ze_structure_type_t stype, Query&& q) {
  T p{};
  p.stype = stype;
  p.pNext = &g_chained;
  REQUIRE(q(d, &p) == ZE_RESULT_SUCCESS);
  CHECK(p.stype == stype);
  CHECK(p.pNext == &g_chained);
  return p;
}

// A count-style struct query: the count protocol holds and each element keeps its own header.
template <typename T, typename Query>
std::vector<T> queryList(ze_device_handle_t d, ze_structure_type_t stype, Query&& q) {
  uint32_t n = 0;
  REQUIRE(q(d, &n, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<T> v(n + 2);
  // Extension structures no query knows ("pNext must be null or a pointer to an extension-specific
  // structure"): each must come back untouched.
  std::vector<ze_base_properties_t> markers(v.size(), g_chained);
  for (size_t i = 0; i < v.size(); ++i) {
    v[i].stype = stype;
    v[i].pNext = &markers[i];
  }
  uint32_t more = n + 2;
  REQUIRE(q(d, &more, v.data()) == ZE_RESULT_SUCCESS);
  CHECK(more == n);
  for (size_t i = 0; i < v.size(); ++i) {
    CHECK(v[i].stype == stype);
    CHECK(v[i].pNext == &markers[i]);
  }
  if (n > 1) {  // a smaller count fills that many and leaves the rest alone
    T blank{};
    blank.stype = stype;
    std::vector<T> some(n, blank);
    uint32_t one = 1;
    REQUIRE(q(d, &one, some.data()) == ZE_RESULT_SUCCESS);
    CHECK(one == 1);
    for (size_t i = 1; i < some.size(); ++i)
      CHECK(std::memcmp(&some[i], &blank, sizeof blank) == 0);
  }
  v.resize(n);
  return v;
}

}  // namespace

TEST_CASE(
    "Given each device, when its properties are read, then it is an integrated CPU with a "
    "name, 1 ns timer resolution and 64-bit timestamps",
    "[device][properties]") {
  for (ze_device_handle_t d : allDevices()) {
    auto p = query<ze_device_properties_t>(d, ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES,
                                           zeDeviceGetProperties);
    CHECK(p.type == ZE_DEVICE_TYPE_CPU);
    CHECK(std::memchr(p.name, 0, sizeof p.name) != nullptr);
    CHECK(std::strlen(p.name) > 0);
    CHECK((p.flags & ZE_DEVICE_PROPERTY_FLAG_INTEGRATED) != 0);
    CHECK(p.timerResolution == 1);
    CHECK(p.timestampValidBits == 64);
    CHECK(p.kernelTimestampValidBits > 0);
    CHECK(p.kernelTimestampValidBits <= 64);
    CHECK(p.numSlices >= 1);
    CHECK(p.maxMemAllocSize > 0);
    CHECK(p.maxHardwareContexts >= 1);
  }
}

TEST_CASE(
    "Given each device, when its properties are read with the 1.2 structure type, then the "
    "timer resolution is in cycles per second",
    "[device][properties]") {
  for (ze_device_handle_t d : allDevices()) {
    auto p = query<ze_device_properties_t>(d, ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2,
                                           zeDeviceGetProperties);
    CHECK(p.timerResolution == 1000000000ull);
    CHECK(p.type == ZE_DEVICE_TYPE_CPU);
  }
}

TEST_CASE(
    "Given each device, when its compute and module properties are read, then the limits "
    "are usable",
    "[device][properties]") {
  for (ze_device_handle_t d : allDevices()) {
    auto c = query<ze_device_compute_properties_t>(d, ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES,
                                                   zeDeviceGetComputeProperties);
    CHECK(c.maxTotalGroupSize >= 1);
    for (uint32_t s : {c.maxGroupSizeX, c.maxGroupSizeY, c.maxGroupSizeZ}) {
      CHECK(s >= 1);
      CHECK(s <= c.maxTotalGroupSize);
    }
    CHECK(c.maxGroupCountX >= 1);
    CHECK(c.numSubGroupSizes >= 1);
    CHECK(c.numSubGroupSizes <= ZE_SUBGROUPSIZE_COUNT);
    for (uint32_t i = 0; i < c.numSubGroupSizes && i < ZE_SUBGROUPSIZE_COUNT; ++i)
      CHECK(c.subGroupSizes[i] >= 1);
    auto m = query<ze_device_module_properties_t>(d, ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES,
                                                  zeDeviceGetModuleProperties);
    CHECK(m.spirvVersionSupported >= ZE_MAKE_VERSION(1, 0));
    CHECK(m.fp32flags != 0);
    // Half precision (cl_khr_fp16): computed in float, rounded per operation, denormals kept.
    CHECK((m.flags & ZE_DEVICE_MODULE_FLAG_FP16) != 0);
    const ze_device_fp_flags_t half = ZE_DEVICE_FP_FLAG_DENORM | ZE_DEVICE_FP_FLAG_INF_NAN |
                                      ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST | ZE_DEVICE_FP_FLAG_FMA;
    CHECK((m.fp16flags & half) == half);
    CHECK(m.maxArgumentsSize > 0);
  }
}

TEST_CASE(
    "Given each device, when its memory properties are listed, then there is one per NUMA "
    "node with a size",
    "[device][properties]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  auto numaNodes = tessera::test::extensionFunction<ze_pfnTesseraDeviceGetNumaNodes_t>(
      driver, "zeTesseraDeviceGetNumaNodes");
  REQUIRE(numaNodes != nullptr);
  for (ze_device_handle_t d : allDevices()) {
    auto mem = queryList<ze_device_memory_properties_t>(
        d, ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES, zeDeviceGetMemoryProperties);
    uint32_t nodes = 0;
    REQUIRE(numaNodes(d, &nodes, nullptr) == ZE_RESULT_SUCCESS);
    CHECK(mem.size() == nodes);
    for (const auto& m : mem) {
      CHECK(m.totalSize > 0);
      // "Maximum bus width between device and memory": a memory channel's width, 64 bits unless
      // the firmware says otherwise.
      CHECK(m.maxBusWidth >= 8);
      CHECK(std::memchr(m.name, 0, sizeof m.name) != nullptr);
    }
    auto a = query<ze_device_memory_access_properties_t>(
        d, ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES, zeDeviceGetMemoryAccessProperties);
    CHECK((a.hostAllocCapabilities & ZE_MEMORY_ACCESS_CAP_FLAG_RW) != 0);
    CHECK((a.deviceAllocCapabilities & ZE_MEMORY_ACCESS_CAP_FLAG_RW) != 0);
  }
}

TEST_CASE(
    "Given property arrays whose elements have stype 0, when listed, then they are filled and "
    "typed; so are elements of another structure's stype",
    "[device][properties]") {
  // What Intel's tools and level-zero-tests do: size a std::vector of properties and set the
  // stype of the first element only, or of none. The reference driver accepts it.
  ze_device_handle_t d = tessera::test::devices(tessera::test::initDriver()).at(0);
  auto check = [&](auto zero, ze_structure_type_t stype, auto&& q) {
    using T = decltype(zero);
    uint32_t n = 0;
    REQUIRE(q(d, &n, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(n > 0);
    std::vector<T> v(n + 1, zero);  // one more than available: the count comes back n
    v[0].stype = stype;
    uint32_t asked = n + 1;
    REQUIRE(q(d, &asked, v.data()) == ZE_RESULT_SUCCESS);
    CHECK(asked == n);
    for (uint32_t i = 0; i < n; ++i) CHECK(v[i].stype == stype);
    std::vector<T> none(n, zero);
    REQUIRE(q(d, &n, none.data()) == ZE_RESULT_SUCCESS);
    for (const T& e : none) CHECK(e.stype == stype);
    std::vector<T> wrong(n, zero);
    wrong[n - 1].stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
    CHECK(q(d, &n, wrong.data()) == ZE_RESULT_SUCCESS);  // output structures: any stype
    CHECK(wrong[n - 1].stype == stype);
    return v;
  };
  auto mem = check(ze_device_memory_properties_t{}, ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES,
                   zeDeviceGetMemoryProperties);
  CHECK(mem[0].totalSize > 0);
  auto caches = check(ze_device_cache_properties_t{}, ZE_STRUCTURE_TYPE_DEVICE_CACHE_PROPERTIES,
                      zeDeviceGetCacheProperties);
  CHECK(caches[0].cacheSize > 0);
  auto groups =
      check(ze_command_queue_group_properties_t{}, ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES,
            zeDeviceGetCommandQueueGroupProperties);
  CHECK(groups[0].numQueues > 0);
}

TEST_CASE(
    "Given each device, when its caches are listed, then the count protocol holds and every "
    "size is non-zero",
    "[device][properties]") {
  for (ze_device_handle_t d : allDevices())
    for (const auto& c : queryList<ze_device_cache_properties_t>(
             d, ZE_STRUCTURE_TYPE_DEVICE_CACHE_PROPERTIES, zeDeviceGetCacheProperties))
      CHECK(c.cacheSize > 0);
}

TEST_CASE(
    "Given each device, when its image and external memory properties are read, then the image "
    "limits are at least OpenCL 1.2 FULL_PROFILE's and only known memory types are listed",
    "[device][properties]") {
  for (ze_device_handle_t d : allDevices()) {
    auto img = query<ze_device_image_properties_t>(d, ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES,
                                                   zeDeviceGetImageProperties);
    CHECK(img.maxImageDims1D >= 8192);
    CHECK(img.maxImageDims2D >= 8192);
    CHECK(img.maxImageDims3D >= 2048);
    CHECK(img.maxImageBufferSize >= 65536);
    CHECK(img.maxImageArraySlices >= 2048);
    CHECK(img.maxSamplers >= 16);
    CHECK(img.maxReadImageArgs >= 128);
    CHECK(img.maxWriteImageArgs >= 64);
    auto ext = query<ze_device_external_memory_properties_t>(
        d, ZE_STRUCTURE_TYPE_DEVICE_EXTERNAL_MEMORY_PROPERTIES,
        zeDeviceGetExternalMemoryProperties);
    const ze_external_memory_type_flags_t known =
        ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD | ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF;
    for (auto f : {ext.memoryAllocationImportTypes, ext.memoryAllocationExportTypes})
      CHECK((f & ~known) == 0);
    CHECK(ext.imageImportTypes == 0);  // images over other memory: ZE_tessera_image_memory
    CHECK(ext.imageExportTypes == 0);
  }
}

TEST_CASE(
    "Given each device, when its command queue groups are listed, then group 0 computes and "
    "copies and group 1 only copies",
    "[device][properties]") {
  for (ze_device_handle_t d : allDevices()) {
    auto groups = queryList<ze_command_queue_group_properties_t>(
        d, ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES,
        zeDeviceGetCommandQueueGroupProperties);
    REQUIRE(groups.size() == 2);
    CHECK(groups[0].flags == (ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE |
                              ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY |
                              ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COOPERATIVE_KERNELS));
    CHECK(groups[1].flags == ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY);
    for (const auto& g : groups) {
      CHECK(g.numQueues >= 1);
      CHECK(g.maxMemoryFillPatternSize >= 1);
    }
  }
}

TEST_CASE(
    "Given any two devices of the tree, when peer access is asked, then each reaches the "
    "other with atomics",
    "[device][properties]") {
  auto all = allDevices();
  for (ze_device_handle_t a : all)
    for (ze_device_handle_t b : all) {
      ze_bool_t can = false;
      REQUIRE(zeDeviceCanAccessPeer(a, b, &can) == ZE_RESULT_SUCCESS);
      CHECK(can);
      ze_device_p2p_properties_t p{};
      p.stype = ZE_STRUCTURE_TYPE_DEVICE_P2P_PROPERTIES;
      p.pNext = &g_chained;
      REQUIRE(zeDeviceGetP2PProperties(a, b, &p) == ZE_RESULT_SUCCESS);
      CHECK(p.flags == (ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS | ZE_DEVICE_P2P_PROPERTY_FLAG_ATOMICS));
      CHECK(p.stype == ZE_STRUCTURE_TYPE_DEVICE_P2P_PROPERTIES);
      CHECK(p.pNext == &g_chained);
    }
}

TEST_CASE("Given each device, when its status is asked, then it is SUCCESS", "[device]") {
  for (ze_device_handle_t d : allDevices()) CHECK(zeDeviceGetStatus(d) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given each device, when global timestamps are taken 10 ms apart, then both clocks move "
    "forward together at the reported resolution",
    "[device][timestamps]") {
  using namespace std::chrono;
  for (ze_device_handle_t d : allDevices()) {
    uint64_t host1 = 0, dev1 = 0, host2 = 0, dev2 = 0;
    REQUIRE(zeDeviceGetGlobalTimestamps(d, &host1, &dev1) == ZE_RESULT_SUCCESS);
    std::this_thread::sleep_for(milliseconds(10));
    REQUIRE(zeDeviceGetGlobalTimestamps(d, &host2, &dev2) == ZE_RESULT_SUCCESS);
    CHECK(host2 > host1);
    CHECK(dev2 > dev1);
    // 1 ns per tick (timerResolution): 10 ms is at least 1e7 ticks, and far from 5e9 even on a
    // loaded machine.
    CHECK(dev2 - dev1 >= 10000000ull);
    CHECK(dev2 - dev1 < 5000000000ull);
    // Taken together: the two clocks' gaps agree within a millisecond.
    int64_t hostGap = int64_t(host2 - host1), devGap = int64_t(dev2 - dev1);
    CHECK(std::llabs(hostGap - devGap) < 1000000);
  }
}

namespace {

// The bytes a query writes into a struct first filled with `fill` (the header set as the query
// asks). Two calls over different fills must write the same bytes: nothing of the driver's stack
// lands in the struct's padding.
template <typename T, typename Query>
std::vector<unsigned char> queriedBytes(unsigned char fill, ze_structure_type_t stype, Query&& q) {
  T p;
  std::memset(&p, fill, sizeof p);
  p.stype = stype;
  p.pNext = nullptr;
  REQUIRE(q(&p) == ZE_RESULT_SUCCESS);
  const auto* bytes = reinterpret_cast<const unsigned char*>(&p);
  return {bytes, bytes + sizeof p};
}

}  // namespace

TEST_CASE(
    "Given property structs filled with different bytes, when queried, then every byte written "
    "is the same (no stack bytes in their padding)",
    "[device][properties]") {
  for (ze_device_handle_t d : allDevices()) {
    auto groups = [&](ze_command_queue_group_properties_t* p) {
      uint32_t one = 1;
      return zeDeviceGetCommandQueueGroupProperties(d, &one, p);
    };
    auto group = queriedBytes<ze_command_queue_group_properties_t>(
        0xab, ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES, groups);
    CHECK(group == queriedBytes<ze_command_queue_group_properties_t>(
                       0xcd, ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES, groups));
    // Its padding (after stype, flags and numQueues on LP64) is zero.
    using G = ze_command_queue_group_properties_t;
    const size_t gaps[][2] = {
        {offsetof(G, stype) + sizeof(G::stype), offsetof(G, pNext)},
        {offsetof(G, flags) + sizeof(G::flags), offsetof(G, maxMemoryFillPatternSize)},
        {offsetof(G, numQueues) + sizeof(G::numQueues), sizeof(G)}};
    for (const auto& gap : gaps)
      for (size_t b = gap[0]; b < gap[1]; ++b) CHECK(group[b] == 0);
    auto memory = [&](ze_device_memory_properties_t* p) {
      uint32_t one = 1;
      return zeDeviceGetMemoryProperties(d, &one, p);
    };
    CHECK(queriedBytes<ze_device_memory_properties_t>(
              0xab, ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES, memory) ==
          queriedBytes<ze_device_memory_properties_t>(
              0xcd, ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES, memory));
    auto compute = [&](ze_device_compute_properties_t* p) {
      return zeDeviceGetComputeProperties(d, p);
    };
    CHECK(queriedBytes<ze_device_compute_properties_t>(
              0xab, ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES, compute) ==
          queriedBytes<ze_device_compute_properties_t>(
              0xcd, ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES, compute));
  }
}

TEST_CASE(
    "Given ze_device_readonly_memory_ext_properties_t chained to the device properties, then "
    "read-only pages are reported enforced, and the extension is listed",
    "[device][properties]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  uint32_t n = 0;
  REQUIRE(zeDriverGetExtensionProperties(driver, &n, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<ze_driver_extension_properties_t> extensions(n);
  REQUIRE(zeDriverGetExtensionProperties(driver, &n, extensions.data()) == ZE_RESULT_SUCCESS);
  bool listed = false;
  for (const auto& e : extensions)
    listed |= std::string(e.name) == ZE_VIRTUAL_MEM_READONLY_PROPERTIES_EXT_NAME;
  CHECK(listed);
  for (ze_device_handle_t d : allDevices()) {
    ze_device_readonly_memory_ext_properties_t ro{
        ZE_STRUCTURE_TYPE_DEVICE_READONLY_MEMORY_EXT_PROPERTIES, nullptr,
        ZE_DEVICE_READONLY_MEMORY_CAPABILITY_NONE};
    ze_device_properties_t p{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES, &ro};
    REQUIRE(zeDeviceGetProperties(d, &p) == ZE_RESULT_SUCCESS);
    CHECK(ro.readonlyCapability == ZE_DEVICE_READONLY_MEMORY_CAPABILITY_ENFORCED);
    CHECK(p.pNext == &ro);
  }
}
