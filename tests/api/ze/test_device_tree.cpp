// The device tree: zeDeviceGet, zeDeviceGetSubDevices, zeDeviceGetRootDevice, and where each device
// sits in the machine (ZE_tessera_device_topology). Written for any machine: only what the
// specification and Tessera's design guarantee is assumed of the shape of the tree. The hierarchy
// is the default one, COMPOSITE (the other modes and the affinity mask are tested with the probe).
#include <level_zero/ze_api.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "ze_test_support.h"

using tessera::test::extensionFunction;

namespace {

struct Node {
  ze_device_handle_t device;
  ze_device_handle_t parent;  // null for what zeDeviceGet returns
  ze_device_handle_t top;     // the zeDeviceGet device this one descends from
  uint32_t index;             // position in zeDeviceGet or in the parent's sub-devices
  uint32_t depth;
};

void addTree(std::vector<Node>& out, ze_device_handle_t d, ze_device_handle_t parent,
             ze_device_handle_t top, uint32_t index, uint32_t depth) {
  out.push_back({d, parent, top, index, depth});
  auto subs = tessera::test::subDevices(d);
  for (uint32_t i = 0; i < subs.size(); ++i) addTree(out, subs[i], d, top, i, depth + 1);
}

std::vector<Node> tree(ze_driver_handle_t driver) {
  std::vector<Node> out;
  auto roots = tessera::test::devices(driver);
  for (uint32_t i = 0; i < roots.size(); ++i) addTree(out, roots[i], nullptr, roots[i], i, 0);
  return out;
}

// zeDeviceGet's protocol: "if count is zero, then the driver shall update the value with the total
// number [available]"; "if count is greater than the number available, then the driver shall update
// the value with the correct number available"; a smaller count gets that many. Returns the list.
template <typename T>
std::vector<T> checkCountProtocol(const std::function<ze_result_t(uint32_t*, T*)>& query,
                                  T untouched,
                                  const std::function<bool(const T&, const T&)>& same) {
  uint32_t n = 0;
  REQUIRE(query(&n, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<T> all(n, untouched);
  REQUIRE(query(&n, all.data()) == ZE_RESULT_SUCCESS);
  REQUIRE(n == all.size());
  std::vector<T> more(all.size() + 3, untouched);
  uint32_t m = static_cast<uint32_t>(more.size());
  REQUIRE(query(&m, more.data()) == ZE_RESULT_SUCCESS);
  CHECK(m == all.size());
  for (size_t i = 0; i < more.size(); ++i)
    CHECK(same(more[i], i < all.size() ? all[i] : untouched));
  for (uint32_t k = 1; k < all.size(); ++k) {
    std::vector<T> some(all.size(), untouched);
    uint32_t count = k;
    REQUIRE(query(&count, some.data()) == ZE_RESULT_SUCCESS);
    CHECK(count == k);
    for (size_t i = 0; i < some.size(); ++i) CHECK(same(some[i], i < k ? all[i] : untouched));
  }
  return all;
}

template <typename T>
std::vector<T> checkCountProtocol(const std::function<ze_result_t(uint32_t*, T*)>& query,
                                  T untouched) {
  return checkCountProtocol<T>(query, untouched, [](const T& a, const T& b) { return a == b; });
}

const auto kNoDevice = reinterpret_cast<ze_device_handle_t>(uintptr_t(0xdead));

std::vector<uint32_t> pusOf(ze_driver_handle_t driver, ze_device_handle_t d) {
  auto get = extensionFunction<ze_pfnTesseraDeviceGetPus_t>(driver, "zeTesseraDeviceGetPus");
  REQUIRE(get != nullptr);
  return checkCountProtocol<uint32_t>([&](uint32_t* n, uint32_t* p) { return get(d, n, p); },
                                      0xffffffffu);
}

ze_tessera_device_topology_properties_t topologyOf(ze_driver_handle_t driver,
                                                   ze_device_handle_t d) {
  auto get = extensionFunction<ze_pfnTesseraDeviceGetTopologyProperties_t>(
      driver, "zeTesseraDeviceGetTopologyProperties");
  REQUIRE(get != nullptr);
  int marker = 0;
  ze_tessera_device_topology_properties_t p{};
  p.stype = ZE_STRUCTURE_TYPE_TESSERA_DEVICE_TOPOLOGY_PROPERTIES;
  p.pNext = &marker;
  REQUIRE(get(d, &p) == ZE_RESULT_SUCCESS);
  CHECK(p.stype == ZE_STRUCTURE_TYPE_TESSERA_DEVICE_TOPOLOGY_PROPERTIES);
  CHECK(p.pNext == &marker);
  p.pNext = nullptr;
  return p;
}

bool subset(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  return std::includes(b.begin(), b.end(), a.begin(), a.end());
}

}  // namespace

TEST_CASE(
    "Given the driver, when zeDeviceGet is called with counts 0, less and more, then it "
    "follows the count protocol and returns the same handles each time",
    "[device]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  auto first = checkCountProtocol<ze_device_handle_t>(
      [&](uint32_t* n, ze_device_handle_t* d) { return zeDeviceGet(driver, n, d); }, kNoDevice);
  CHECK(first.size() >= 1);
  CHECK(tessera::test::devices(driver) == first);
  CHECK(std::set<ze_device_handle_t>(first.begin(), first.end()).size() == first.size());
}

TEST_CASE(
    "Given each device of the tree, when zeDeviceGetSubDevices is called with counts 0, less "
    "and more, then it follows the count protocol and never splits a device in one",
    "[device]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  auto all = tree(driver);
  std::set<ze_device_handle_t> distinct;
  for (const Node& node : all) {
    INFO("depth " << node.depth << " index " << node.index);
    distinct.insert(node.device);
    auto subs = checkCountProtocol<ze_device_handle_t>(
        [&](uint32_t* n, ze_device_handle_t* d) {
          return zeDeviceGetSubDevices(node.device, n, d);
        },
        kNoDevice);
    CHECK(tessera::test::subDevices(node.device) == subs);
    // The fixed tree cuts a device at the first level that splits it into two or more parts.
    CHECK(subs.size() != 1);
  }
  CHECK(distinct.size() == all.size());
}

TEST_CASE(
    "Given each device of the tree, when zeDeviceGetRootDevice is called, then it is null for "
    "a top-level device and the top-most device for a sub-device",
    "[device]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  auto getRoot = extensionFunction<ze_pfnDeviceGetRootDevice_t>(driver, "zeDeviceGetRootDevice");
  REQUIRE(getRoot != nullptr);
  for (const Node& node : tree(driver)) {
    INFO("depth " << node.depth << " index " << node.index);
    ze_device_handle_t root = kNoDevice;
    REQUIRE(getRoot(node.device, &root) == ZE_RESULT_SUCCESS);
    CHECK(root == (node.parent ? node.top : nullptr));
  }
}

TEST_CASE(
    "Given each device of the tree, when its PUs are listed, then they increase, sub-devices "
    "take a part of their parent's and siblings share none",
    "[device][topology]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  auto all = tree(driver);
  for (const Node& node : all) {
    INFO("depth " << node.depth << " index " << node.index);
    auto pus = pusOf(driver, node.device);
    REQUIRE_FALSE(pus.empty());
    CHECK(std::adjacent_find(pus.begin(), pus.end(), std::greater_equal<>()) == pus.end());
    auto subs = tessera::test::subDevices(node.device);
    std::set<uint32_t> seen;
    size_t total = 0;
    for (ze_device_handle_t s : subs) {
      auto sp = pusOf(driver, s);
      CHECK(subset(sp, pus));
      CHECK(sp.size() < pus.size());
      seen.insert(sp.begin(), sp.end());
      total += sp.size();
    }
    CHECK(seen.size() == total);  // disjoint
  }
}

TEST_CASE(
    "Given each device of the tree, when its topology properties are read, then they agree "
    "with its PUs and its place in the tree",
    "[device][topology]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  for (const Node& node : tree(driver)) {
    INFO("depth " << node.depth << " index " << node.index);
    auto t = topologyOf(driver, node.device);
    CHECK(t.numPus == pusOf(driver, node.device).size());
    CHECK(t.depth == node.depth);
    CHECK(t.numCores >= 1);
    CHECK(t.numCores <= t.numPus);
    CHECK(t.numPackages >= 1);
    CHECK(t.numPackages <= t.numCores);
    CHECK(t.level >= ZE_TESSERA_DEVICE_LEVEL_MACHINE);
    CHECK(t.level <= ZE_TESSERA_DEVICE_LEVEL_L2);
    if (node.parent) CHECK(t.level > topologyOf(driver, node.parent).level);
  }
}

TEST_CASE(
    "Given each device of the tree, when its NUMA nodes are listed, then there is at least "
    "one, they increase and a sub-device's are among its parent's",
    "[device][topology]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  auto get =
      extensionFunction<ze_pfnTesseraDeviceGetNumaNodes_t>(driver, "zeTesseraDeviceGetNumaNodes");
  REQUIRE(get != nullptr);
  auto nodesOf = [&](ze_device_handle_t d) {
    return checkCountProtocol<uint32_t>([&](uint32_t* n, uint32_t* p) { return get(d, n, p); },
                                        0xffffffffu);
  };
  for (const Node& node : tree(driver)) {
    INFO("depth " << node.depth << " index " << node.index);
    auto nodes = nodesOf(node.device);
    CHECK_FALSE(nodes.empty());
    CHECK(std::adjacent_find(nodes.begin(), nodes.end(), std::greater_equal<>()) == nodes.end());
    if (node.parent) CHECK(subset(nodes, nodesOf(node.parent)));
  }
}

TEST_CASE(
    "Given each device of the tree, when its caches are listed, then they come by level with "
    "non-zero sizes",
    "[device][topology]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  auto get = extensionFunction<ze_pfnTesseraDeviceGetCaches_t>(driver, "zeTesseraDeviceGetCaches");
  REQUIRE(get != nullptr);
  const ze_tessera_cache_t untouched{99, 99, 99, 99, 1};
  auto same = [](const ze_tessera_cache_t& a, const ze_tessera_cache_t& b) {
    return a.level == b.level && a.instances == b.instances && a.bytesPerCache == b.bytesPerCache &&
           a.lineBytes == b.lineBytes && a.unified == b.unified;
  };
  for (const Node& node : tree(driver)) {
    INFO("depth " << node.depth << " index " << node.index);
    auto caches = checkCountProtocol<ze_tessera_cache_t>(
        [&](uint32_t* n, ze_tessera_cache_t* c) { return get(node.device, n, c); }, untouched,
        same);
    for (size_t i = 0; i < caches.size(); ++i) {
      CHECK(caches[i].level >= 1);
      if (i > 0) CHECK(caches[i].level >= caches[i - 1].level);
      CHECK(caches[i].instances >= 1);
      CHECK(caches[i].bytesPerCache > 0);
      CHECK(caches[i].lineBytes > 0);
    }
  }
}

TEST_CASE(
    "Given the whole tree, when every device's properties are read twice, then each uuid is "
    "stable and no two devices share one",
    "[device]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  auto all = tree(driver);
  std::set<std::string> uuids;
  for (const Node& node : all) {
    auto a = tessera::test::properties(node.device);
    auto b = tessera::test::properties(node.device);
    CHECK(std::memcmp(a.uuid.id, b.uuid.id, ZE_MAX_DEVICE_UUID_SIZE) == 0);
    uuids.emplace(reinterpret_cast<const char*>(a.uuid.id), ZE_MAX_DEVICE_UUID_SIZE);
  }
  CHECK(uuids.size() == all.size());
}

TEST_CASE(
    "Given each device of the tree, when its properties are read, then SUBDEVICE and "
    "subdeviceId match its place and its thread shape counts its PUs",
    "[device]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  for (const Node& node : tree(driver)) {
    INFO("depth " << node.depth << " index " << node.index);
    auto p = tessera::test::properties(node.device);
    bool sub = (p.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE) != 0;
    CHECK(sub == (node.parent != nullptr));
    if (sub) CHECK(p.subdeviceId == node.index);
    uint64_t threads =
        uint64_t(p.numSlices) * p.numSubslicesPerSlice * p.numEUsPerSubslice * p.numThreadsPerEU;
    CHECK(threads == pusOf(driver, node.device).size());
  }
}
