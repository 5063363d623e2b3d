// ZE_AFFINITY_MASK's parser (core/device/hierarchy), then exposeDevices with what it parsed, in the
// three hierarchy modes, on a synthetic machine of 2 packages x 2 NUMA nodes x 2 L3 caches x 2 cores
// (the device tree is made once).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/device/hierarchy.h"
#include "core/topology/device_tree.h"
#include "core/topology/topology.h"

using namespace tessera::core;

namespace {

const std::vector<DeviceTreeNode>& tree(RootMode mode) {
  static std::unique_ptr<Topology> topo =
      Topology::load(TopologySource::fromString("pack:2 numa:2 l3:2 core:2 pu:1"));
  static std::vector<DeviceTreeNode> machine = buildDeviceTree(*topo, RootMode::Machine);
  static std::vector<DeviceTreeNode> packages = buildDeviceTree(*topo, RootMode::Package);
  return mode == RootMode::Machine ? machine : packages;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  // The first byte picks the mode and root mode; the rest is the mask (a C string, as getenv's).
  uint8_t pick = data[0];
  std::string value(reinterpret_cast<const char*>(data + 1), size - 1);
  value = value.c_str();
  std::vector<std::string> warnings;
  auto mask = parseAffinityMask(value.c_str(), warnings);
  HierarchyMode mode = static_cast<HierarchyMode>(pick % 3);
  RootMode root = pick & 4 ? RootMode::Package : RootMode::Machine;
  DeviceView view = exposeDevices(tree(root), mode, mask, warnings);
  (void)view;
  return 0;
}
