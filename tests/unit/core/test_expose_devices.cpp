// exposeDevices: the guide's Device Hierarchy and Affinity Mask sections applied to a fixed tree.
// The guide's examples use two parent devices of four tiles each; here the parents are packages
// and the tiles NUMA nodes, tile t of parent p owning PUs 8p+2t and 8p+2t+1.
#include <catch2/catch.hpp>

#include <string>

#include "core/device/hierarchy.h"
#include "core_test_support.h"

using namespace tessera::core;
using tessera::core::test::puRange;
using tessera::core::test::puSet;

using Paths = std::vector<std::vector<uint32_t>>;

namespace {

DeviceTreeNode leaf(Level level, uint32_t index, CpuSet pus) {
  return {level, index, pus, {}};
}

// Two packages x four NUMA tiles.
std::vector<DeviceTreeNode> guideTree() {
  std::vector<DeviceTreeNode> roots;
  for (uint32_t p = 0; p < 2; ++p) {
    DeviceTreeNode root{Level::Package, p, puRange(8 * p, 8 * p + 7), {}};
    for (uint32_t t = 0; t < 4; ++t)
      root.children.push_back(
          leaf(Level::NumaNode, 4 * p + t, puRange(8 * p + 2 * t, 8 * p + 2 * t + 1)));
    roots.push_back(root);
  }
  return roots;
}

// A machine of 2 packages x 2 NUMA nodes x 2 L3, one PU per L3.
std::vector<DeviceTreeNode> deepTree() {
  DeviceTreeNode machine{Level::Machine, 0, puRange(0, 7), {}};
  for (uint32_t p = 0; p < 2; ++p) {
    DeviceTreeNode pkg{Level::Package, p, puRange(4 * p, 4 * p + 3), {}};
    for (uint32_t n = 0; n < 2; ++n) {
      uint32_t ni = 2 * p + n;
      DeviceTreeNode numa{Level::NumaNode, ni, puRange(2 * ni, 2 * ni + 1), {}};
      for (uint32_t l = 0; l < 2; ++l)
        numa.children.push_back(leaf(Level::L3, 2 * ni + l, puSet({2 * ni + l})));
      pkg.children.push_back(numa);
    }
    machine.children.push_back(pkg);
  }
  return {machine};
}

DeviceView expose(const std::vector<DeviceTreeNode>& tree, HierarchyMode mode, const char* mask,
                  std::vector<std::string>& warnings) {
  std::optional<AffinityMask> m = parseAffinityMask(mask, warnings);
  if (mask && *mask) REQUIRE(m.has_value());
  return exposeDevices(tree, mode, m, warnings);
}

const ExposedNode& at(const DeviceView& v, const std::vector<uint32_t>& path) {
  const ExposedNode* n = &v.roots.at(path.at(0));
  for (size_t i = 1; i < path.size(); ++i) n = &n->children.at(path[i]);
  return *n;
}

// The objectIndex of each listed device.
std::vector<uint32_t> listedIndices(const DeviceView& v) {
  std::vector<uint32_t> out;
  for (const auto& path : v.listed) out.push_back(at(v, path).objectIndex);
  return out;
}

std::vector<uint32_t> childIndices(const ExposedNode& n) {
  std::vector<uint32_t> out;
  for (const ExposedNode& c : n.children) out.push_back(c.objectIndex);
  return out;
}

bool mentions(const std::vector<std::string>& warnings, const std::string& text) {
  for (const std::string& w : warnings)
    if (w.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("Given COMPOSITE and no mask, then the roots are listed with all their tiles",
          "[expose][composite]") {
  for (const char* mask : {static_cast<const char*>(nullptr), "0,1", "0, 1"}) {
    INFO((mask ? mask : "(unset)"));
    std::vector<std::string> w;
    DeviceView v = expose(guideTree(), HierarchyMode::Composite, mask, w);
    CHECK(w.empty());
    CHECK(v.mode == HierarchyMode::Composite);
    CHECK(v.listed == Paths{{0}, {1}});
    REQUIRE(v.roots.size() == 2);
    for (uint32_t p = 0; p < 2; ++p) {
      CHECK(v.roots[p].level == Level::Package);
      CHECK(v.roots[p].objectIndex == p);
      CHECK(v.roots[p].pus == puRange(8 * p, 8 * p + 7));
      REQUIRE(v.roots[p].children.size() == 4);
      CHECK(v.roots[p].children[3].pus == puRange(8 * p + 6, 8 * p + 7));
    }
  }
}

TEST_CASE("Given COMPOSITE and mask 0 or 1, then only that parent is device 0 with four tiles",
          "[expose][composite]") {
  for (uint32_t parent : {0u, 1u}) {
    std::vector<std::string> w;
    DeviceView v = expose(guideTree(), HierarchyMode::Composite, std::to_string(parent).c_str(), w);
    CHECK(w.empty());
    CHECK(v.listed == Paths{{0}});
    REQUIRE(v.roots.size() == 1);
    CHECK(v.roots[0].objectIndex == parent);
    CHECK(v.roots[0].pus == puRange(8 * parent, 8 * parent + 7));
    CHECK(childIndices(v.roots[0]) ==
          std::vector<uint32_t>{4 * parent, 4 * parent + 1, 4 * parent + 2, 4 * parent + 3});
  }
}

TEST_CASE("Given COMPOSITE and mask 0.0, then tile 0 of parent 0 alone is device 0",
          "[expose][composite]") {
  std::vector<std::string> w;
  DeviceView v = expose(guideTree(), HierarchyMode::Composite, "0.0", w);
  CHECK(w.empty());
  CHECK(v.listed == Paths{{0}});
  REQUIRE(v.roots.size() == 1);
  CHECK(v.roots[0].level == Level::NumaNode);
  CHECK(v.roots[0].objectIndex == 0);
  CHECK(v.roots[0].pus == puSet({0, 1}));
  CHECK(v.roots[0].children.empty());
}

TEST_CASE("Given COMPOSITE and mask 1.1, 1.2, then parent 1 is device 0 with tiles 1 and 2",
          "[expose][composite]") {
  std::vector<std::string> w;
  DeviceView v = expose(guideTree(), HierarchyMode::Composite, "1.1, 1.2", w);
  CHECK(w.empty());
  CHECK(v.listed == Paths{{0}});
  REQUIRE(v.roots.size() == 1);
  CHECK(v.roots[0].level == Level::Package);
  CHECK(v.roots[0].objectIndex == 1);
  // A trimmed parent keeps only its exposed children's PUs.
  CHECK(v.roots[0].pus == puRange(10, 13));
  CHECK(childIndices(v.roots[0]) == std::vector<uint32_t>{5, 6});
}

TEST_CASE("Given COMPOSITE and mask 0.2, 1.3, 1.0, 0.3, then both parents, tile order unchanged",
          "[expose][composite]") {
  std::vector<std::string> w;
  DeviceView v = expose(guideTree(), HierarchyMode::Composite, "0.2, 1.3, 1.0, 0.3", w);
  CHECK(w.empty());
  CHECK(v.listed == Paths{{0}, {1}});
  REQUIRE(v.roots.size() == 2);
  CHECK(childIndices(v.roots[0]) == std::vector<uint32_t>{2, 3});
  CHECK(childIndices(v.roots[1]) == std::vector<uint32_t>{4, 7});
  CHECK(v.roots[0].pus == puRange(4, 7));
  CHECK(v.roots[1].pus == (puRange(8, 9) | puRange(14, 15)));
}

TEST_CASE("Given COMPOSITE and a parent with one of its tiles, then the whole parent is exposed",
          "[expose][composite]") {
  std::vector<std::string> w;
  DeviceView v = expose(guideTree(), HierarchyMode::Composite, "0.1,0", w);
  CHECK(w.empty());
  REQUIRE(v.roots.size() == 1);
  CHECK(v.roots[0].children.size() == 4);
  CHECK(v.roots[0].pus == puRange(0, 7));
}

TEST_CASE("Given COMPOSITE and out-of-range entries, then they are dropped with a warning",
          "[expose][composite]") {
  std::vector<std::string> w;
  DeviceView v = expose(guideTree(), HierarchyMode::Composite, "0,2,1.4,0.0.0", w);
  CHECK(w.size() == 3);
  CHECK(mentions(w, "entry 2 "));
  CHECK(mentions(w, "entry 1.4 "));
  CHECK(mentions(w, "entry 0.0.0 "));
  CHECK(v.listed == Paths{{0}});
  REQUIRE(v.roots.size() == 1);
  CHECK(v.roots[0].objectIndex == 0);
  CHECK(v.roots[0].children.size() == 4);
}

TEST_CASE("Given a mask that selects nothing, then no device is listed and a warning says so",
          "[expose]") {
  for (HierarchyMode mode :
       {HierarchyMode::Composite, HierarchyMode::Flat, HierarchyMode::Combined}) {
    INFO(hierarchyModeName(mode));
    std::vector<std::string> w;
    DeviceView v = expose(guideTree(), mode, "9", w);
    CHECK(v.listed.empty());
    CHECK(v.roots.empty());
    CHECK(mentions(w, "entry 9 names no device"));
    CHECK(mentions(w, "selects no device"));
  }
}

TEST_CASE("Given FLAT or COMBINED and no mask, then the eight tiles are listed in order",
          "[expose][flat]") {
  for (HierarchyMode mode : {HierarchyMode::Flat, HierarchyMode::Combined}) {
    for (const char* mask : {static_cast<const char*>(nullptr), "0, 1, 2, 3, 4, 5, 6, 7"}) {
      INFO(hierarchyModeName(mode) << " " << (mask ? mask : "(unset)"));
      std::vector<std::string> w;
      DeviceView v = expose(guideTree(), mode, mask, w);
      CHECK(w.empty());
      CHECK(v.mode == mode);
      CHECK(v.listed == Paths{{0, 0}, {0, 1}, {0, 2}, {0, 3}, {1, 0}, {1, 1}, {1, 2}, {1, 3}});
      CHECK(listedIndices(v) == std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7});
      REQUIRE(v.roots.size() == 2);
      CHECK(v.roots[1].pus == puRange(8, 15));
    }
  }
}

TEST_CASE("Given FLAT and the guide's masks, then the selected tiles are the devices in order",
          "[expose][flat]") {
  struct Case {
    const char* mask;
    std::vector<uint32_t> tiles;
  };
  for (const Case& c : {Case{"0", {0}}, Case{"1", {1}}, Case{"0, 4", {0, 4}},
                        Case{"1, 2, 7", {1, 2, 7}}, Case{"7,1,2", {1, 2, 7}}}) {
    for (HierarchyMode mode : {HierarchyMode::Flat, HierarchyMode::Combined}) {
      INFO(hierarchyModeName(mode) << " ZE_AFFINITY_MASK=" << c.mask);
      std::vector<std::string> w;
      DeviceView v = expose(guideTree(), mode, c.mask, w);
      CHECK(w.empty());
      CHECK(listedIndices(v) == c.tiles);
      for (size_t i = 0; i < v.listed.size(); ++i) {
        const ExposedNode& n = at(v, v.listed[i]);
        CHECK(n.children.empty());
        CHECK(n.level == Level::NumaNode);
        CHECK(n.pus == puRange(2 * c.tiles[i], 2 * c.tiles[i] + 1));
      }
    }
  }
}

TEST_CASE("Given FLAT and mask 1, 2, 7, then parent 0 keeps two tiles and parent 1 collapses",
          "[expose][flat]") {
  std::vector<std::string> w;
  DeviceView v = expose(guideTree(), HierarchyMode::Combined, "1,2,7", w);
  CHECK(v.listed == Paths{{0, 0}, {0, 1}, {1}});
  REQUIRE(v.roots.size() == 2);
  CHECK(v.roots[0].level == Level::Package);
  CHECK(v.roots[0].pus == puRange(2, 5));
  CHECK(v.roots[1].level == Level::NumaNode);
  CHECK(v.roots[1].objectIndex == 7);
}

TEST_CASE("Given FLAT or COMBINED and mask 0.0, then the entry is not valid and nothing is listed",
          "[expose][flat]") {
  for (HierarchyMode mode : {HierarchyMode::Flat, HierarchyMode::Combined}) {
    std::vector<std::string> w;
    DeviceView v = expose(guideTree(), mode, "0.0", w);
    CHECK(v.listed.empty());
    CHECK(mentions(
        w, std::string("is not valid with ZE_FLAT_DEVICE_HIERARCHY=") + hierarchyModeName(mode)));
    CHECK(mentions(w, "selects no device"));

    // A valid entry beside it still counts.
    std::vector<std::string> w2;
    DeviceView v2 = expose(guideTree(), mode, "0.0,5", w2);
    CHECK(listedIndices(v2) == std::vector<uint32_t>{5});
    CHECK(w2.size() == 1);
  }
}

TEST_CASE("Given FLAT and out-of-range ordinals, then they are dropped with a warning",
          "[expose][flat]") {
  std::vector<std::string> w;
  DeviceView v = expose(guideTree(), HierarchyMode::Flat, "3,8,100", w);
  CHECK(listedIndices(v) == std::vector<uint32_t>{3});
  CHECK(w.size() == 2);
  CHECK(mentions(w, "entry 8 names no device"));
  CHECK(mentions(w, "entry 100 names no device"));
}

TEST_CASE("Given a three-level tree and COMPOSITE masks on the middle level, then parents collapse",
          "[expose][deep]") {
  std::vector<std::string> w;
  // Package 1 alone: the machine keeps one child and is replaced by it, whole.
  DeviceView one = expose(deepTree(), HierarchyMode::Composite, "0.1", w);
  REQUIRE(one.roots.size() == 1);
  CHECK(one.roots[0].level == Level::Package);
  CHECK(one.roots[0].objectIndex == 1);
  CHECK(one.roots[0].pus == puRange(4, 7));
  REQUIRE(one.roots[0].children.size() == 2);
  CHECK(one.roots[0].children[1].children.size() == 2);

  // NUMA 1 of package 0 and the whole package 1: package 0 collapses into its NUMA node.
  DeviceView mixed = expose(deepTree(), HierarchyMode::Composite, "0.0.1,0.1", w);
  REQUIRE(mixed.roots.size() == 1);
  const ExposedNode& m = mixed.roots[0];
  CHECK(m.level == Level::Machine);
  CHECK(m.pus == puRange(2, 7));
  REQUIRE(m.children.size() == 2);
  CHECK(m.children[0].level == Level::NumaNode);
  CHECK(m.children[0].objectIndex == 1);
  CHECK(m.children[0].children.size() == 2);
  CHECK(m.children[1].level == Level::Package);

  // One L3 of each package: two levels collapse on each side.
  DeviceView leaves = expose(deepTree(), HierarchyMode::Composite, "0.0.0.1,0.1.1.0", w);
  REQUIRE(leaves.roots.size() == 1);
  CHECK(leaves.roots[0].pus == puSet({1, 6}));
  CHECK(childIndices(leaves.roots[0]) == std::vector<uint32_t>{1, 6});
  CHECK(leaves.roots[0].children[0].level == Level::L3);

  // A single L3 becomes the only device.
  DeviceView single = expose(deepTree(), HierarchyMode::Composite, "0.1.0.1", w);
  REQUIRE(single.roots.size() == 1);
  CHECK(single.roots[0].level == Level::L3);
  CHECK(single.roots[0].objectIndex == 5);
  CHECK(single.roots[0].children.empty());
  CHECK(w.empty());
}

TEST_CASE("Given a three-level tree and FLAT, then leaves are the L3s and masks pick among them",
          "[expose][deep]") {
  std::vector<std::string> w;
  DeviceView all = expose(deepTree(), HierarchyMode::Flat, nullptr, w);
  CHECK(all.listed.size() == 8);
  CHECK(all.listed[5] == std::vector<uint32_t>{0, 1, 0, 1});
  CHECK(listedIndices(all) == std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7});

  // Both L3 of NUMA 0: everything above collapses into that NUMA node.
  DeviceView two = expose(deepTree(), HierarchyMode::Combined, "0,1", w);
  REQUIRE(two.roots.size() == 1);
  CHECK(two.roots[0].level == Level::NumaNode);
  CHECK(two.roots[0].objectIndex == 0);
  CHECK(two.listed == Paths{{0, 0}, {0, 1}});

  DeviceView spread = expose(deepTree(), HierarchyMode::Combined, "0,1,7", w);
  REQUIRE(spread.roots.size() == 1);
  CHECK(spread.roots[0].level == Level::Machine);
  CHECK(spread.roots[0].pus == puSet({0, 1, 7}));
  CHECK(spread.listed == Paths{{0, 0, 0}, {0, 0, 1}, {0, 1}});
  CHECK(w.empty());
}

TEST_CASE("Given any mask, then no exposed node has exactly one child", "[expose][deep]") {
  const char* masks[] = {"0", "0.0", "0.1.1", "0.0.0.0,0.0.0.1", "0.0,0.1.0", "0.1.1.1,0.0.0"};
  for (const char* mask : masks) {
    INFO(mask);
    std::vector<std::string> w;
    DeviceView v = expose(deepTree(), HierarchyMode::Composite, mask, w);
    CHECK(w.empty());
    std::vector<const ExposedNode*> stack;
    for (const ExposedNode& r : v.roots) stack.push_back(&r);
    while (!stack.empty()) {
      const ExposedNode* n = stack.back();
      stack.pop_back();
      CHECK(n->children.size() != 1);
      CpuSet covered;
      for (const ExposedNode& c : n->children) {
        CHECK_FALSE(covered.intersects(c.pus));
        covered = covered | c.pus;
        stack.push_back(&c);
      }
      if (!n->children.empty()) CHECK(covered == n->pus);
    }
  }
}
