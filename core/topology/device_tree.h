// The fixed device tree: how the machine's PUs are cut into root devices and nested sub-devices.
//
// Rule (issue #2, ARCHITECTURE.md): the sub-devices of a device are, at the first level among package,
// NUMA node, L3 and L2 that splits it into two or more parts, one per part; a sub-device has
// sub-devices of its own by the same rule.
#pragma once

#include <vector>

#include "config/settings.h"
#include "core/topology/topology.h"

namespace tessera::core {

struct DeviceTreeNode {
  Level level = Level::Machine;  // the level whose object cut this part out
  uint32_t objectIndex = 0;      // that object's logical index in hwloc
  CpuSet pus;
  std::vector<DeviceTreeNode> children;
};

// TESSERA_ROOT_DEVICE: one root device for the machine, or one per package (config/settings.def).
using RootMode = config::RootMode;

// The parts `pus` splits into at the first level that cuts it into two or more disjoint parts that
// together cover it; empty when no level does. NUMA nodes that share their CPUs (e.g. DDR and HBM
// of one package) count as one part.
std::vector<Part> splitOnce(const Topology& topo, const CpuSet& pus, Level* levelOut = nullptr);

// The parts of one level (Topology::partsAt), identical parts merged (the first object's index
// kept); empty unless they are disjoint and together cover `pus`.
std::vector<Part> distinctParts(std::vector<Part> parts, const CpuSet& pus);

// The whole tree of `pus`: the root devices in order, each with its nested sub-devices.
std::vector<DeviceTreeNode> buildDeviceTree(const Topology& topo, RootMode mode, const CpuSet& pus);
// The tree of all the topology's allowed PUs.
inline std::vector<DeviceTreeNode> buildDeviceTree(const Topology& topo, RootMode mode) {
  return buildDeviceTree(topo, mode, topo.allowedPus());
}

}  // namespace tessera::core
