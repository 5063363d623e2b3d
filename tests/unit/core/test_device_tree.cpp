// buildDeviceTree and splitOnce: "the sub-devices of a device are, at the first level among
// package, NUMA node, L3 and L2 that splits it into two or more parts, one per part; nesting by the
// same rule".
#include <catch2/catch.hpp>

#include <string>

#include "core/topology/device_tree.h"
#include "core_test_support.h"

using namespace tessera::core;
using tessera::core::test::checkTreeInvariants;
using tessera::core::test::countLeaves;
using tessera::core::test::puRange;
using tessera::core::test::puSet;
using tessera::core::test::synthetic;
using tessera::core::test::xeonXml;

namespace {

std::vector<DeviceTreeNode> treeOf(const std::string& description, RootMode mode) {
  auto topo = synthetic(description);
  std::vector<DeviceTreeNode> tree = buildDeviceTree(*topo, mode);
  CpuSet covered;
  for (const DeviceTreeNode& root : tree) {
    checkTreeInvariants(root);
    CHECK_FALSE(covered.intersects(root.pus));
    covered = covered | root.pus;
  }
  CHECK(covered == topo->allowedPus());
  return tree;
}

// Checks a node's level, object index and PUs.
void checkNode(const DeviceTreeNode& n, Level level, uint32_t index, const CpuSet& pus) {
  INFO("expected " << levelName(level) << " #" << index << " " << pus.toString() << ", got "
                   << levelName(n.level) << " #" << n.objectIndex << " " << n.pus.toString());
  CHECK(n.level == level);
  CHECK(n.objectIndex == index);
  CHECK(n.pus == pus);
}

// The children at depth d are widths[d] parts of levels[d]; below the last level, leaves.
void checkUniform(const DeviceTreeNode& n, const std::vector<Level>& levels,
                  const std::vector<uint32_t>& widths, size_t depth = 0) {
  if (depth == levels.size()) {
    CHECK(n.children.empty());
    return;
  }
  REQUIRE(n.children.size() == widths[depth]);
  for (const DeviceTreeNode& c : n.children) {
    CHECK(c.level == levels[depth]);
    checkUniform(c, levels, widths, depth + 1);
  }
}

}  // namespace

TEST_CASE("Given pack:2 numa:2 l3:2, when the machine is the root, then it nests package, NUMA, L3",
          "[device_tree]") {
  auto tree = treeOf("pack:2 numa:2 l3:2 core:2 pu:1", RootMode::Machine);
  REQUIRE(tree.size() == 1);
  checkNode(tree[0], Level::Machine, 0, puRange(0, 15));
  checkUniform(tree[0], {Level::Package, Level::NumaNode, Level::L3}, {2, 2, 2});
  for (uint32_t p = 0; p < 2; ++p) {
    const DeviceTreeNode& pkg = tree[0].children[p];
    checkNode(pkg, Level::Package, p, puRange(8 * p, 8 * p + 7));
    for (uint32_t n = 0; n < 2; ++n) {
      const DeviceTreeNode& numa = pkg.children[n];
      uint32_t ni = 2 * p + n;
      checkNode(numa, Level::NumaNode, ni, puRange(4 * ni, 4 * ni + 3));
      for (uint32_t l = 0; l < 2; ++l) {
        uint32_t li = 2 * ni + l;
        checkNode(numa.children[l], Level::L3, li, puRange(2 * li, 2 * li + 1));
      }
    }
  }
}

TEST_CASE("Given pack:2 numa:2 l3:2, when packages are the roots, then there are two roots",
          "[device_tree]") {
  auto tree = treeOf("pack:2 numa:2 l3:2 core:2 pu:1", RootMode::Package);
  REQUIRE(tree.size() == 2);
  checkNode(tree[0], Level::Package, 0, puRange(0, 7));
  checkNode(tree[1], Level::Package, 1, puRange(8, 15));
  for (const DeviceTreeNode& root : tree) checkUniform(root, {Level::NumaNode, Level::L3}, {2, 2});
}

// A process bound to part of the machine (Driver's devicePus): the tree of the bound PUs only.
TEST_CASE("Given a process bound to one NUMA node's PUs, then the tree is cut from those PUs",
          "[device_tree]") {
  auto topo = synthetic("pack:2 numa:2 l3:2 core:2 pu:1");
  std::vector<DeviceTreeNode> tree = buildDeviceTree(*topo, RootMode::Machine, puRange(8, 11));
  REQUIRE(tree.size() == 1);
  checkTreeInvariants(tree[0]);
  checkNode(tree[0], Level::Machine, 0, puRange(8, 11));
  // Package and NUMA levels do not cut 8-11: its sub-devices are the two L3s.
  checkUniform(tree[0], {Level::L3}, {2});
  checkNode(tree[0].children[1], Level::L3, 5, puRange(10, 11));
  // Package roots: only the package the PUs are in, and a binding across packages gives both.
  tree = buildDeviceTree(*topo, RootMode::Package, puRange(8, 11));
  REQUIRE(tree.size() == 1);
  checkNode(tree[0], Level::Package, 1, puRange(8, 11));
  tree = buildDeviceTree(*topo, RootMode::Package, puSet({3, 12}));
  REQUIRE(tree.size() == 2);
  checkNode(tree[0], Level::Package, 0, puSet({3}));
  checkNode(tree[1], Level::Package, 1, puSet({12}));
}

TEST_CASE("Given pack:2 numa:4, when packages are the roots, then each has 4 NUMA leaves",
          "[device_tree]") {
  auto tree = treeOf("pack:2 numa:4 core:2 pu:1", RootMode::Package);
  REQUIRE(tree.size() == 2);
  for (uint32_t p = 0; p < 2; ++p) {
    checkNode(tree[p], Level::Package, p, puRange(8 * p, 8 * p + 7));
    checkUniform(tree[p], {Level::NumaNode}, {4});
    for (uint32_t n = 0; n < 4; ++n) {
      uint32_t ni = 4 * p + n;
      checkNode(tree[p].children[n], Level::NumaNode, ni, puRange(2 * ni, 2 * ni + 1));
    }
  }
  auto machine = treeOf("pack:2 numa:4 core:2 pu:1", RootMode::Machine);
  REQUIRE(machine.size() == 1);
  checkUniform(machine[0], {Level::Package, Level::NumaNode}, {2, 4});
}

TEST_CASE("Given one package with one L3 and two L2 (like a 2-core VM), then one root, 2 L2 leaves",
          "[device_tree]") {
  for (RootMode mode : {RootMode::Machine, RootMode::Package}) {
    auto tree = treeOf("pack:1 l3:1 l2:2 core:1 pu:1", mode);
    REQUIRE(tree.size() == 1);
    checkNode(tree[0], mode == RootMode::Machine ? Level::Machine : Level::Package, 0,
              puRange(0, 1));
    REQUIRE(tree[0].children.size() == 2);
    checkNode(tree[0].children[0], Level::L2, 0, puSet({0}));
    checkNode(tree[0].children[1], Level::L2, 1, puSet({1}));
    CHECK(tree[0].children[0].children.empty());
  }
}

TEST_CASE("Given one package of cores without caches, then the root has no sub-devices",
          "[device_tree]") {
  for (RootMode mode : {RootMode::Machine, RootMode::Package}) {
    auto tree = treeOf("pack:1 core:4 pu:2", mode);
    REQUIRE(tree.size() == 1);
    CHECK(tree[0].pus == puRange(0, 7));
    CHECK(tree[0].children.empty());
  }
}

TEST_CASE("Given pack:2 pu:2, then the machine splits into two package leaves", "[device_tree]") {
  auto tree = treeOf("pack:2 pu:2", RootMode::Machine);
  REQUIRE(tree.size() == 1);
  REQUIRE(tree[0].children.size() == 2);
  checkNode(tree[0].children[0], Level::Package, 0, puRange(0, 1));
  checkNode(tree[0].children[1], Level::Package, 1, puRange(2, 3));
  CHECK(countLeaves(tree[0]) == 2);
  CHECK(treeOf("pack:2 pu:2", RootMode::Package).size() == 2);
}

TEST_CASE("Given NUMA nodes above packages, then packages come first in the rule's order",
          "[device_tree]") {
  // hwloc puts each NUMA node in a group with two packages. The rule tries package before NUMA
  // node, so the machine splits straight into its four packages.
  auto tree = treeOf("numa:2 pack:2 core:2 pu:1", RootMode::Machine);
  REQUIRE(tree.size() == 1);
  REQUIRE(tree[0].children.size() == 4);
  for (uint32_t p = 0; p < 4; ++p) {
    checkNode(tree[0].children[p], Level::Package, p, puRange(2 * p, 2 * p + 1));
    CHECK(tree[0].children[p].children.empty());
  }
  auto roots = treeOf("numa:2 pack:2 core:2 pu:1", RootMode::Package);
  REQUIRE(roots.size() == 4);
  for (const DeviceTreeNode& r : roots) CHECK(r.children.empty());
}

TEST_CASE("Given an L2 shared by two SMT cores, then L3s split into L2 leaves of 4 PUs",
          "[device_tree]") {
  auto tree = treeOf("pack:1 l3:2 l2:2 core:2 pu:2", RootMode::Machine);
  REQUIRE(tree.size() == 1);
  checkUniform(tree[0], {Level::L3, Level::L2}, {2, 2});
  for (uint32_t l3 = 0; l3 < 2; ++l3) {
    checkNode(tree[0].children[l3], Level::L3, l3, puRange(8 * l3, 8 * l3 + 7));
    for (uint32_t l2 = 0; l2 < 2; ++l2) {
      uint32_t i = 2 * l3 + l2;
      checkNode(tree[0].children[l3].children[l2], Level::L2, i, puRange(4 * i, 4 * i + 3));
    }
  }
}

TEST_CASE("Given four packages, then four package sub-devices or four roots", "[device_tree]") {
  auto tree = treeOf("pack:4 l3:1 core:2 pu:2", RootMode::Machine);
  REQUIRE(tree.size() == 1);
  checkUniform(tree[0], {Level::Package}, {4});
  auto roots = treeOf("pack:4 l3:1 core:2 pu:2", RootMode::Package);
  REQUIRE(roots.size() == 4);
  for (uint32_t p = 0; p < 4; ++p)
    checkNode(roots[p], Level::Package, p, puRange(4 * p, 4 * p + 3));
}

TEST_CASE("Given four nested levels, then the tree is four deep", "[device_tree]") {
  auto tree = treeOf("pack:2 numa:2 l3:2 l2:2 core:2 pu:1", RootMode::Machine);
  REQUIRE(tree.size() == 1);
  checkUniform(tree[0], {Level::Package, Level::NumaNode, Level::L3, Level::L2}, {2, 2, 2, 2});
  CHECK(countLeaves(tree[0]) == 16);
}

TEST_CASE("Given levels that do not split, then they are skipped", "[device_tree]") {
  // l3:1 per package and the single machine NUMA node never split anything; L1 is not a level.
  auto tree = treeOf("pack:2 l3:1 l2:4 l1d:2 core:1 pu:1", RootMode::Machine);
  REQUIRE(tree.size() == 1);
  checkUniform(tree[0], {Level::Package, Level::L2}, {2, 4});
  CHECK(tree[0].children[1].children[0].objectIndex == 4);
  CHECK(tree[0].children[1].children[0].pus == puRange(8, 9));
}

TEST_CASE("Given two NUMA nodes sharing a package's CPUs (DDR + HBM), then they are one part",
          "[device_tree]") {
  auto tree =
      treeOf("pack:2 [numa(memory=2GB)] [numa(memory=16GB)] core:2 pu:1", RootMode::Machine);
  REQUIRE(tree.size() == 1);
  checkUniform(tree[0], {Level::Package}, {2});

  auto withL3 = treeOf("pack:2 [numa] [numa] l3:2 core:2 pu:1", RootMode::Package);
  REQUIRE(withL3.size() == 2);
  for (const DeviceTreeNode& root : withL3) checkUniform(root, {Level::L3}, {2});
}

TEST_CASE("Given NUMA nodes below L3 (SNC-like), then NUMA comes before L3 in the rule's order",
          "[device_tree]") {
  // Each L3 holds two NUMA nodes; the rule tries NUMA node before L3, so a package splits straight
  // into its four NUMA nodes.
  auto tree = treeOf("pack:2 l3:2 numa:2 core:2 pu:1", RootMode::Package);
  REQUIRE(tree.size() == 2);
  for (const DeviceTreeNode& root : tree) checkUniform(root, {Level::NumaNode}, {4});
  checkNode(tree[1].children[0], Level::NumaNode, 4, puRange(8, 9));
}

TEST_CASE("Given hwloc groups, then they are not a level of the rule", "[device_tree]") {
  auto tree = treeOf("pack:1 group:2 core:2 pu:1", RootMode::Machine);
  REQUIRE(tree.size() == 1);
  CHECK(tree[0].children.empty());
  // With an L2 per group the L2s split it.
  auto withL2 = treeOf("pack:1 group:2 l2:1 core:2 pu:1", RootMode::Machine);
  REQUIRE(withL2.size() == 1);
  checkUniform(withL2[0], {Level::L2}, {2});
}

TEST_CASE("Given a machine without packages, then package roots fall back to one machine root",
          "[device_tree]") {
  auto tree = treeOf("numa:2 core:2 pu:1", RootMode::Package);
  REQUIRE(tree.size() == 1);
  checkNode(tree[0], Level::Machine, 0, puRange(0, 3));
  checkUniform(tree[0], {Level::NumaNode}, {2});
}

TEST_CASE("Given the xeon XML, then one root with 16 single-PU L2 leaves", "[partition][xml]") {
  auto topo = Topology::load({TopologySource::Kind::Xml, xeonXml()});
  for (RootMode mode : {RootMode::Machine, RootMode::Package}) {
    std::vector<DeviceTreeNode> tree = buildDeviceTree(*topo, mode);
    REQUIRE(tree.size() == 1);
    checkTreeInvariants(tree[0]);
    CHECK(tree[0].level == (mode == RootMode::Machine ? Level::Machine : Level::Package));
    CHECK(tree[0].pus == puRange(0, 15));
    REQUIRE(tree[0].children.size() == 16);
    for (uint32_t i = 0; i < 16; ++i) checkNode(tree[0].children[i], Level::L2, i, puSet({i}));
  }
}

TEST_CASE("Given many synthetic topologies, then every tree keeps the invariants and the rule",
          "[device_tree]") {
  const char* descriptions[] = {"pack:2 numa:2 l3:2 core:2 pu:1",
                                "pack:2 numa:4 core:2 pu:1",
                                "pack:1 l3:1 l2:2 core:1 pu:1",
                                "pack:1 core:4 pu:2",
                                "pack:2 pu:2",
                                "numa:2 pack:2 core:2 pu:1",
                                "pack:1 l3:2 l2:2 core:2 pu:2",
                                "pack:4 core:2 pu:1",
                                "pack:3 l3:3 core:3 pu:1",
                                "pack:2 l2:3 core:1 pu:1",
                                "numa:3 core:1 pu:1",
                                "pack:1 numa:2 l2:2 core:1 pu:1",
                                "pack:2 [numa] [numa] l3:2 core:2 pu:1"};
  for (const char* d : descriptions) {
    INFO(d);
    auto topo = synthetic(d);
    for (RootMode mode : {RootMode::Machine, RootMode::Package}) {
      std::vector<DeviceTreeNode> tree = buildDeviceTree(*topo, mode);
      REQUIRE_FALSE(tree.empty());
      // Each node's children are exactly what splitOnce makes of it.
      std::vector<const DeviceTreeNode*> stack;
      for (const DeviceTreeNode& r : tree) stack.push_back(&r);
      while (!stack.empty()) {
        const DeviceTreeNode* n = stack.back();
        stack.pop_back();
        checkTreeInvariants(*n);
        Level level = Level::Machine;
        std::vector<Part> parts = splitOnce(*topo, n->pus, &level);
        REQUIRE(parts.size() == n->children.size());
        for (size_t i = 0; i < parts.size(); ++i) {
          CHECK(n->children[i].level == level);
          CHECK(n->children[i].pus == parts[i].pus);
          CHECK(n->children[i].objectIndex == parts[i].objectIndex);
          stack.push_back(&n->children[i]);
        }
      }
    }
  }
}

TEST_CASE("Given sets of PUs, when splitOnce, then the first splitting level is used",
          "[partition][split]") {
  auto topo = synthetic("pack:2 numa:2 l3:2 core:2 pu:1");
  Level level = Level::Machine;
  std::vector<Part> parts = splitOnce(*topo, topo->allowedPus(), &level);
  CHECK(level == Level::Package);
  REQUIRE(parts.size() == 2);
  CHECK(parts[1].pus == puRange(8, 15));

  // {3, 4}: one package, but two NUMA nodes.
  parts = splitOnce(*topo, puSet({3, 4}), &level);
  CHECK(level == Level::NumaNode);
  REQUIRE(parts.size() == 2);
  CHECK(parts[0].pus == puSet({3}));
  CHECK(parts[1].pus == puSet({4}));
  CHECK(parts[1].objectIndex == 1);

  // {0, 1, 2}: one package, one NUMA node, two L3.
  parts = splitOnce(*topo, puSet({0, 1, 2}), &level);
  CHECK(level == Level::L3);
  REQUIRE(parts.size() == 2);
  CHECK(parts[0].pus == puSet({0, 1}));
  CHECK(parts[1].pus == puSet({2}));

  // {1, 9, 13}: two packages, unequal parts.
  parts = splitOnce(*topo, puSet({1, 9, 13}), &level);
  CHECK(level == Level::Package);
  REQUIRE(parts.size() == 2);
  CHECK(parts[1].pus == puSet({9, 13}));
}

TEST_CASE("Given a set no level splits, when splitOnce, then it is empty and the level untouched",
          "[partition][split]") {
  auto topo = synthetic("pack:2 numa:2 l3:2 core:2 pu:1");
  Level level = Level::L2;
  CHECK(splitOnce(*topo, puSet({0, 1}), &level).empty());
  CHECK(level == Level::L2);
  CHECK(splitOnce(*topo, puSet({5})).empty());
  CHECK(splitOnce(*topo, CpuSet{}).empty());
  // Without levelOut the parts are still returned.
  CHECK(splitOnce(*topo, puRange(0, 3)).size() == 2);
}

TEST_CASE("Given this machine, then its device tree keeps the invariants", "[partition][machine]") {
  auto topo = Topology::load(TopologySource{});
  for (RootMode mode : {RootMode::Machine, RootMode::Package}) {
    std::vector<DeviceTreeNode> tree = buildDeviceTree(*topo, mode);
    REQUIRE_FALSE(tree.empty());
    CpuSet covered;
    for (const DeviceTreeNode& root : tree) {
      checkTreeInvariants(root);
      covered = covered | root.pus;
    }
    CHECK(covered == topo->allowedPus());
  }
}
