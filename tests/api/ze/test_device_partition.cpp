// Extension ZE_tessera_device_partition (tessera/ze_tessera.h): zeTesseraDeviceCreatePartition on
// this machine's first device, reached through zeDriverGetExtensionFunctionAddress. Written for any
// machine with two or more PUs (this one has two).
#include <level_zero/ze_api.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "kernel_test_support.h"
#include "ze_test_support.h"

using tessera::test::extensionFunction;

namespace {

using Handles = std::vector<ze_device_handle_t>;

struct Partitioner {
  ze_driver_handle_t driver = tessera::test::initDriver();
  ze_device_handle_t root = tessera::test::devices(driver).at(0);
  ze_pfnTesseraDeviceCreatePartition_t create =
      extensionFunction<ze_pfnTesseraDeviceCreatePartition_t>(driver,
                                                              "zeTesseraDeviceCreatePartition");
  ze_pfnTesseraDeviceGetPus_t getPus =
      extensionFunction<ze_pfnTesseraDeviceGetPus_t>(driver, "zeTesseraDeviceGetPus");
  ze_pfnTesseraDeviceGetTopologyProperties_t topology =
      extensionFunction<ze_pfnTesseraDeviceGetTopologyProperties_t>(
          driver, "zeTesseraDeviceGetTopologyProperties");
  ze_pfnDeviceGetRootDevice_t getRoot =
      extensionFunction<ze_pfnDeviceGetRootDevice_t>(driver, "zeDeviceGetRootDevice");

  Partitioner() {
    REQUIRE(create);
    REQUIRE(getPus);
    REQUIRE(topology);
    REQUIRE(getRoot);
  }

  std::vector<uint32_t> pus(ze_device_handle_t d) const {
    uint32_t n = 0;
    REQUIRE(getPus(d, &n, nullptr) == ZE_RESULT_SUCCESS);
    std::vector<uint32_t> v(n);
    REQUIRE(getPus(d, &n, v.data()) == ZE_RESULT_SUCCESS);
    return v;
  }
  ze_tessera_device_topology_properties_t props(ze_device_handle_t d) const {
    ze_tessera_device_topology_properties_t p{ZE_STRUCTURE_TYPE_TESSERA_DEVICE_TOPOLOGY_PROPERTIES};
    REQUIRE(topology(d, &p) == ZE_RESULT_SUCCESS);
    return p;
  }

  // The result of a partition call with room for every sub-device; `out` gets the handles.
  ze_result_t cut(ze_device_handle_t d, const ze_tessera_partition_desc_t& desc, Handles& out,
                  ze_tessera_affinity_domain_t* used = nullptr) const {
    uint32_t n = 0;
    ze_result_t r = create(d, &desc, &n, nullptr, used);
    if (r != ZE_RESULT_SUCCESS) return r;
    out.assign(n, nullptr);
    r = create(d, &desc, &n, out.data(), used);
    if (r == ZE_RESULT_SUCCESS) CHECK(n == out.size());
    return r;
  }
  Handles cutOk(ze_device_handle_t d, const ze_tessera_partition_desc_t& desc,
                ze_tessera_affinity_domain_t* used = nullptr) const {
    Handles out;
    REQUIRE(cut(d, desc, out, used) == ZE_RESULT_SUCCESS);
    return out;
  }
};

ze_tessera_partition_desc_t equally(uint32_t units) {
  return {ZE_STRUCTURE_TYPE_TESSERA_PARTITION_DESC, nullptr, ZE_TESSERA_PARTITION_SCHEME_EQUALLY,
          units, 0, nullptr, ZE_TESSERA_AFFINITY_DOMAIN_NONE};
}
ze_tessera_partition_desc_t list(ze_tessera_partition_scheme_t scheme,
                                 const std::vector<uint32_t>& values) {
  return {ZE_STRUCTURE_TYPE_TESSERA_PARTITION_DESC, nullptr, scheme, 0,
          static_cast<uint32_t>(values.size()), values.data(), ZE_TESSERA_AFFINITY_DOMAIN_NONE};
}
ze_tessera_partition_desc_t byDomain(ze_tessera_affinity_domain_t d) {
  return {ZE_STRUCTURE_TYPE_TESSERA_PARTITION_DESC, nullptr,
          ZE_TESSERA_PARTITION_SCHEME_BY_AFFINITY_DOMAIN, 0, 0, nullptr, d};
}

Handles subDevicesOf(ze_device_handle_t d) { return tessera::test::subDevices(d); }

}  // namespace

TEST_CASE("Given the driver, when its extensions are listed, then ZE_tessera_device_partition 1.0 is "
          "there with its function",
          "[partition]") {
  Partitioner p;
  uint32_t n = 0;
  REQUIRE(zeDriverGetExtensionProperties(p.driver, &n, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<ze_driver_extension_properties_t> ext(n);
  REQUIRE(zeDriverGetExtensionProperties(p.driver, &n, ext.data()) == ZE_RESULT_SUCCESS);
  auto it = std::find_if(ext.begin(), ext.end(), [](const auto& e) {
    return std::strcmp(e.name, ZE_TESSERA_DEVICE_PARTITION_EXT_NAME) == 0;
  });
  REQUIRE(it != ext.end());
  CHECK(it->version == ZE_TESSERA_DEVICE_PARTITION_EXT_VERSION);
}

TEST_CASE("Given the first device, when partitioned EQUALLY by one unit, then each PU is a "
          "sub-device of it that zeDeviceGetSubDevices does not list, and asking again gives the "
          "same handles",
          "[partition]") {
  Partitioner p;
  std::vector<uint32_t> rootPus = p.pus(p.root);
  REQUIRE(rootPus.size() >= 2);
  Handles parts = p.cutOk(p.root, equally(1));
  REQUIRE(parts.size() == rootPus.size());
  std::set<uint32_t> seen;
  for (uint32_t i = 0; i < parts.size(); ++i) {
    std::vector<uint32_t> own = p.pus(parts[i]);
    REQUIRE(own.size() == 1);
    CHECK(std::count(rootPus.begin(), rootPus.end(), own[0]) == 1);
    seen.insert(own[0]);
    ze_device_properties_t props = tessera::test::properties(parts[i]);
    CHECK((props.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE) != 0);
    CHECK(props.subdeviceId == i);
    ze_device_handle_t top = nullptr;
    REQUIRE(p.getRoot(parts[i], &top) == ZE_RESULT_SUCCESS);
    CHECK(top == p.root);
    CHECK(p.props(parts[i]).depth == p.props(p.root).depth + 1);
    CHECK(p.props(parts[i]).numPus == 1);
    CHECK(subDevicesOf(parts[i]).empty());
  }
  CHECK(seen.size() == rootPus.size());  // disjoint and covering the device

  Handles fixed = subDevicesOf(p.root);
  for (ze_device_handle_t d : parts) CHECK(std::count(fixed.begin(), fixed.end(), d) == 0);
  CHECK(p.cutOk(p.root, equally(1)) == parts);
  // BY_NAMES {i} is the same compute unit of the same parent: the same device.
  std::vector<uint32_t> one = {1};
  CHECK(p.cutOk(p.root, list(ZE_TESSERA_PARTITION_SCHEME_BY_NAMES, one)) == Handles{parts[1]});
  // The count protocol: fewer slots get the first ones; more slots report the real number.
  auto desc = equally(1);
  Handles few(1, nullptr);
  uint32_t n = 1;
  REQUIRE(p.create(p.root, &desc, &n, few.data(), nullptr) == ZE_RESULT_SUCCESS);
  CHECK(n == 1);
  CHECK(few[0] == parts[0]);
  Handles many(parts.size() + 2, nullptr);
  n = static_cast<uint32_t>(many.size());
  REQUIRE(p.create(p.root, &desc, &n, many.data(), nullptr) == ZE_RESULT_SUCCESS);
  CHECK(n == parts.size());
  CHECK(many.back() == nullptr);
}

TEST_CASE("Given the first device, when partitioned BY_COUNTS and BY_NAMES, then the sub-devices "
          "have those numbers of PUs",
          "[partition]") {
  Partitioner p;
  std::vector<uint32_t> rootPus = p.pus(p.root);
  REQUIRE(rootPus.size() >= 2);
  std::vector<uint32_t> counts = {1, 1};
  Handles two = p.cutOk(p.root, list(ZE_TESSERA_PARTITION_SCHEME_BY_COUNTS, counts));
  REQUIRE(two.size() == 2);
  CHECK(p.pus(two[0]).size() == 1);
  CHECK(p.pus(two[1]).size() == 1);
  CHECK(p.pus(two[0]) != p.pus(two[1]));
  ze_tessera_affinity_domain_t used = ZE_TESSERA_AFFINITY_DOMAIN_L1_CACHE;
  std::vector<uint32_t> all = {static_cast<uint32_t>(rootPus.size())};
  Handles whole = p.cutOk(p.root, list(ZE_TESSERA_PARTITION_SCHEME_BY_COUNTS, all), &used);
  CHECK(used == ZE_TESSERA_AFFINITY_DOMAIN_NONE);
  REQUIRE(whole.size() == 1);
  CHECK(p.pus(whole[0]) == rootPus);

  std::vector<uint32_t> names = {1, 0};
  Handles named = p.cutOk(p.root, list(ZE_TESSERA_PARTITION_SCHEME_BY_NAMES, names));
  REQUIRE(named.size() == 1);
  CHECK(p.pus(named[0]).size() == 2);
}

TEST_CASE("Given the first device, when partitioned by affinity domain, then each domain either "
          "splits it into disjoint parts covering it or is UNSUPPORTED_FEATURE, and "
          "NEXT_PARTITIONABLE reports the first that splits",
          "[partition]") {
  Partitioner p;
  std::vector<uint32_t> rootPus = p.pus(p.root);
  // A partition device of all the PUs, whose parts no other test makes first: the parts carry the
  // level they were cut at (a device keeps the level it was first made with).
  std::vector<uint32_t> everything = {static_cast<uint32_t>(rootPus.size())};
  ze_device_handle_t whole =
      p.cutOk(p.root, list(ZE_TESSERA_PARTITION_SCHEME_BY_COUNTS, everything)).at(0);
  std::map<ze_device_handle_t, ze_tessera_device_level_t> levels;
  ze_tessera_affinity_domain_t first = ZE_TESSERA_AFFINITY_DOMAIN_NONE;
  Handles firstParts;
  for (auto d : {ZE_TESSERA_AFFINITY_DOMAIN_NUMA, ZE_TESSERA_AFFINITY_DOMAIN_L4_CACHE,
                 ZE_TESSERA_AFFINITY_DOMAIN_L3_CACHE, ZE_TESSERA_AFFINITY_DOMAIN_L2_CACHE,
                 ZE_TESSERA_AFFINITY_DOMAIN_L1_CACHE}) {
    INFO("domain " << d);
    Handles parts;
    ze_result_t r = p.cut(whole, byDomain(d), parts);
    if (r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE) continue;
    REQUIRE(r == ZE_RESULT_SUCCESS);
    CHECK(parts.size() >= 2);
    std::multiset<uint32_t> covered;
    for (ze_device_handle_t h : parts) {
      for (uint32_t pu : p.pus(h)) covered.insert(pu);
      ze_tessera_device_level_t expected =
          d == ZE_TESSERA_AFFINITY_DOMAIN_NUMA       ? ZE_TESSERA_DEVICE_LEVEL_NUMA
          : d == ZE_TESSERA_AFFINITY_DOMAIN_L4_CACHE ? ZE_TESSERA_DEVICE_LEVEL_L4
          : d == ZE_TESSERA_AFFINITY_DOMAIN_L3_CACHE ? ZE_TESSERA_DEVICE_LEVEL_L3
          : d == ZE_TESSERA_AFFINITY_DOMAIN_L2_CACHE ? ZE_TESSERA_DEVICE_LEVEL_L2
                                                     : ZE_TESSERA_DEVICE_LEVEL_L1;
      // The same PUs cut at an earlier domain (an L2 of one core and its L1) are the same device.
      auto level = levels.emplace(h, expected).first->second;
      CHECK(p.props(h).level == level);
    }
    CHECK(std::vector<uint32_t>(covered.begin(), covered.end()) == rootPus);
    if (first == ZE_TESSERA_AFFINITY_DOMAIN_NONE) {
      first = d;
      firstParts = parts;
    }
  }
  ze_tessera_affinity_domain_t used = ZE_TESSERA_AFFINITY_DOMAIN_NONE;
  Handles next;
  ze_result_t r =
      p.cut(whole, byDomain(ZE_TESSERA_AFFINITY_DOMAIN_NEXT_PARTITIONABLE), next, &used);
  if (first == ZE_TESSERA_AFFINITY_DOMAIN_NONE) {
    CHECK(r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  } else {
    REQUIRE(r == ZE_RESULT_SUCCESS);
    CHECK(used == first);
    CHECK(next == firstParts);
  }
  // A single PU splits at no level.
  Handles single = p.cutOk(p.root, equally(1));
  for (auto d : {ZE_TESSERA_AFFINITY_DOMAIN_NUMA, ZE_TESSERA_AFFINITY_DOMAIN_L3_CACHE,
                 ZE_TESSERA_AFFINITY_DOMAIN_L1_CACHE,
                 ZE_TESSERA_AFFINITY_DOMAIN_NEXT_PARTITIONABLE}) {
    Handles none;
    CHECK(p.cut(single[0], byDomain(d), none) == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  }
}

TEST_CASE("Given a partition device, when it is partitioned again, then its parts are its "
          "sub-devices, two levels below the device",
          "[partition]") {
  Partitioner p;
  std::vector<uint32_t> rootPus = p.pus(p.root);
  REQUIRE(rootPus.size() >= 2);
  std::vector<uint32_t> two = {2};
  Handles outer = p.cutOk(p.root, list(ZE_TESSERA_PARTITION_SCHEME_BY_COUNTS, two));
  REQUIRE(outer.size() == 1);
  std::vector<uint32_t> outerPus = p.pus(outer[0]);
  Handles inner = p.cutOk(outer[0], equally(1));
  REQUIRE(inner.size() == 2);
  for (uint32_t i = 0; i < 2; ++i) {
    CHECK(p.pus(inner[i]).size() == 1);
    CHECK(std::count(outerPus.begin(), outerPus.end(), p.pus(inner[i])[0]) == 1);
    CHECK(p.props(inner[i]).depth == p.props(p.root).depth + 2);
    ze_device_handle_t top = nullptr;
    REQUIRE(p.getRoot(inner[i], &top) == ZE_RESULT_SUCCESS);
    CHECK(top == p.root);
  }
  // The same PUs under another parent are another device.
  Handles ofRoot = p.cutOk(p.root, equally(1));
  CHECK(std::count(ofRoot.begin(), ofRoot.end(), inner[0]) == 0);
  CHECK(subDevicesOf(outer[0]).empty());
}

TEST_CASE("Given bad arguments, when partitioning, then the documented errors come back and "
          "nothing is written",
          "[partition]") {
  Partitioner p;
  uint32_t numPus = static_cast<uint32_t>(p.pus(p.root).size());
  auto fails = [&](const ze_tessera_partition_desc_t& desc) {
    uint32_t n = 0;
    ze_tessera_affinity_domain_t used = ZE_TESSERA_AFFINITY_DOMAIN_FORCE_UINT32;
    ze_result_t r = p.create(p.root, &desc, &n, nullptr, &used);
    CHECK(n == 0);
    CHECK(used == ZE_TESSERA_AFFINITY_DOMAIN_FORCE_UINT32);
    return r;
  };
  auto good = equally(1);
  uint32_t n = 0;
  CHECK(p.create(nullptr, &good, &n, nullptr, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(p.create(p.root, nullptr, &n, nullptr, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(p.create(p.root, &good, nullptr, nullptr, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  auto wrongType = good;
  wrongType.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  CHECK(fails(wrongType) == ZE_RESULT_ERROR_INVALID_ARGUMENT);

  auto scheme = good;
  scheme.scheme = static_cast<ze_tessera_partition_scheme_t>(99);
  CHECK(fails(scheme) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  CHECK(fails(byDomain(ZE_TESSERA_AFFINITY_DOMAIN_NONE)) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  CHECK(fails(byDomain(static_cast<ze_tessera_affinity_domain_t>(42))) ==
        ZE_RESULT_ERROR_INVALID_ENUMERATION);

  CHECK(fails(equally(0)) == ZE_RESULT_ERROR_INVALID_SIZE);
  CHECK(fails(equally(numPus + 1)) == ZE_RESULT_ERROR_INVALID_SIZE);
  std::vector<uint32_t> zero = {1, 0}, tooMany = {numPus, 1}, none;
  std::vector<uint32_t> everyOne(numPus + 1, 1);
  CHECK(fails(list(ZE_TESSERA_PARTITION_SCHEME_BY_COUNTS, zero)) == ZE_RESULT_ERROR_INVALID_SIZE);
  CHECK(fails(list(ZE_TESSERA_PARTITION_SCHEME_BY_COUNTS, tooMany)) == ZE_RESULT_ERROR_INVALID_SIZE);
  CHECK(fails(list(ZE_TESSERA_PARTITION_SCHEME_BY_COUNTS, everyOne)) ==
        ZE_RESULT_ERROR_INVALID_SIZE);
  CHECK(fails(list(ZE_TESSERA_PARTITION_SCHEME_BY_COUNTS, none)) == ZE_RESULT_ERROR_INVALID_SIZE);

  std::vector<uint32_t> outOfRange = {numPus}, repeated = {0, 0};
  CHECK(fails(list(ZE_TESSERA_PARTITION_SCHEME_BY_NAMES, outOfRange)) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(fails(list(ZE_TESSERA_PARTITION_SCHEME_BY_NAMES, repeated)) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(fails(list(ZE_TESSERA_PARTITION_SCHEME_BY_NAMES, none)) == ZE_RESULT_ERROR_INVALID_SIZE);
  auto nullNames = list(ZE_TESSERA_PARTITION_SCHEME_BY_NAMES, none);
  nullNames.count = 1;
  CHECK(fails(nullNames) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
}

TEST_CASE("Given partition devices, when memory, a module and kernels are used on them, then each "
          "device's work-groups run only on its PUs",
          "[partition]") {
  Partitioner p;
  // Made before the partition devices exist: a context for all devices covers them, and one for the
  // root device covers its sub-devices.
  ze_context_desc_t cd{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_context_handle_t all = nullptr, ofRoot = nullptr;
  REQUIRE(zeContextCreate(p.driver, &cd, &all) == ZE_RESULT_SUCCESS);
  REQUIRE(zeContextCreateEx(p.driver, &cd, 1, &p.root, &ofRoot) == ZE_RESULT_SUCCESS);
  Handles parts = p.cutOk(p.root, equally(1));

  auto spv = tessera::test::readCorpusKernel("current_pu");
  ze_module_desc_t md{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV,
                      spv.size(), spv.data(), "", nullptr};
  ze_module_handle_t module = nullptr;  // built for the parent, used on its partitions
  REQUIRE(zeModuleCreate(all, p.root, &md, &module, nullptr) == ZE_RESULT_SUCCESS);
  ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "where"};
  ze_kernel_handle_t kernel = nullptr;
  REQUIRE(zeKernelCreate(module, &kd, &kernel) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetGroupSize(kernel, 1, 1, 1) == ZE_RESULT_SUCCESS);

  constexpr uint32_t kGroups = 64;
  for (ze_device_handle_t d : parts) {
    std::vector<uint32_t> own = p.pus(d);
    ze_device_mem_alloc_desc_t dd{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ze_host_mem_alloc_desc_t hd{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    void* onDevice = nullptr;
    REQUIRE(zeMemAllocDevice(ofRoot, &dd, 64, 64, d, &onDevice) == ZE_RESULT_SUCCESS);
    CHECK(zeMemFree(ofRoot, onDevice) == ZE_RESULT_SUCCESS);
    void* out = nullptr;
    REQUIRE(zeMemAllocShared(all, &dd, &hd, kGroups * sizeof(uint32_t), 64, d, &out) ==
            ZE_RESULT_SUCCESS);
    std::fill_n(static_cast<uint32_t*>(out), kGroups, UINT32_MAX);
    REQUIRE(zeKernelSetArgumentValue(kernel, 0, sizeof out, &out) == ZE_RESULT_SUCCESS);

    // A queue and a regular list on the partition device.
    ze_command_queue_desc_t qd = tessera::test::queueDesc();
    ze_command_queue_handle_t queue = nullptr;
    REQUIRE(zeCommandQueueCreate(all, d, &qd, &queue) == ZE_RESULT_SUCCESS);
    ze_command_list_desc_t ld{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, 0, 0};
    ze_command_list_handle_t cmdList = nullptr;
    REQUIRE(zeCommandListCreate(all, d, &ld, &cmdList) == ZE_RESULT_SUCCESS);
    ze_group_count_t groups{kGroups, 1, 1};
    REQUIRE(zeCommandListAppendLaunchKernel(cmdList, kernel, &groups, nullptr, 0, nullptr) ==
            ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListClose(cmdList) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueExecuteCommandLists(queue, 1, &cmdList, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueSynchronize(queue, tessera::test::kPatienceNs) == ZE_RESULT_SUCCESS);

    const uint32_t* ran = static_cast<const uint32_t*>(out);
    for (uint32_t g = 0; g < kGroups; ++g) {
      INFO("work-group " << g << " ran on PU " << ran[g]);
      CHECK(std::count(own.begin(), own.end(), ran[g]) == 1);
    }
    zeCommandListDestroy(cmdList);
    zeCommandQueueDestroy(queue);
    zeMemFree(all, out);
  }
  zeKernelDestroy(kernel);
  zeModuleDestroy(module);
  zeContextDestroy(ofRoot);
  zeContextDestroy(all);
}

TEST_CASE("Given synthetic machines, when the first device is partitioned by NEXT_PARTITIONABLE and "
          "so are its parts, then NUMA nodes, then L3 caches, then L2 caches are used",
          "[partition]") {
  // Device 0 is the machine (TESSERA_ROOT_DEVICE defaults to machine); domains: 1 NUMA, 3 L3, 4 L2.
  auto probe = [](const char* topology) {
    auto r = tessera::test::runProgram({TESSERA_PROBE, "--partition"},
                                       {{"TESSERA_TOPOLOGY", topology}});
    INFO("stderr: " << r.err);
    CHECK(r.exitCode == 0);
    return r.out;
  };
  CHECK(probe("pack:2 numa:2 l3:2 core:2 pu:1") ==
        "P domain=1 parts=0-3;4-7;8-11;12-15\n"
        "P domain=3 parts=0-1;2-3\n"
        "P domain=3 parts=4-5;6-7\n"
        "P domain=3 parts=8-9;10-11\n"
        "P domain=3 parts=12-13;14-15\n");
  CHECK(probe("pack:1 l3:1 l2:2 core:1 pu:2") ==
        "P domain=4 parts=0-1;2-3\n"
        "P domain=none parts=\n"
        "P domain=none parts=\n");
}
