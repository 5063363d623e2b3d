// Helpers shared by the unit tests of core/: building CpuSets and topologies, and checking the
// invariants every device tree must keep.
#pragma once

#include <catch2/catch.hpp>

#include <initializer_list>
#include <memory>
#include <string>

#include "core/topology/cpu_set.h"
#include "core/topology/device_tree.h"
#include "core/topology/topology.h"

namespace tessera::core::test {

inline CpuSet puSet(std::initializer_list<uint32_t> pus) {
  CpuSet s;
  for (uint32_t pu : pus) s.add(pu);
  return s;
}

// PUs first..last inclusive.
inline CpuSet puRange(uint32_t first, uint32_t last) {
  CpuSet s;
  for (uint32_t pu = first; pu <= last; ++pu) s.add(pu);
  return s;
}

inline std::unique_ptr<Topology> synthetic(const std::string& description) {
  return Topology::load({TopologySource::Kind::Synthetic, description});
}

inline std::string xeonXml() {
  return std::string(TESSERA_TEST_DATA) + "/topologies/xeon-16core-vm.xml";
}

// Children disjoint, covering their parent, never exactly one; recursively.
inline void checkTreeInvariants(const DeviceTreeNode& node) {
  INFO("node " << levelName(node.level) << " #" << node.objectIndex << " pus "
               << node.pus.toString());
  CHECK_FALSE(node.pus.empty());
  CHECK(node.children.size() != 1);
  CpuSet covered;
  for (const DeviceTreeNode& child : node.children) {
    CHECK(child.pus.isSubsetOf(node.pus));
    CHECK_FALSE(covered.intersects(child.pus));
    covered = covered | child.pus;
    checkTreeInvariants(child);
  }
  if (!node.children.empty()) CHECK(covered == node.pus);
}

inline size_t countLeaves(const DeviceTreeNode& node) {
  if (node.children.empty()) return 1;
  size_t n = 0;
  for (const DeviceTreeNode& c : node.children) n += countLeaves(c);
  return n;
}

}  // namespace tessera::core::test
