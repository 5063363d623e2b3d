#include "core/memory/placement.h"

#include <algorithm>

#include "core/device/device.h"

namespace tessera::core {

std::vector<uint32_t> numaNodesOf(const std::vector<Device*>& devices) {
  std::vector<uint32_t> nodes;
  for (const Device* d : devices)
    for (const NumaNodeInfo& n : d->resources().numaNodes) nodes.push_back(n.osIndex);
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

Placement placementFor(MemoryKind kind, const Device* device,
                       const std::vector<uint32_t>& contextNodes, bool sharedForceDeviceAlloc,
                       const Topology& topology) {
  Placement p;
  const bool devicePlaced = device && (kind == MemoryKind::Device ||
                                       (kind == MemoryKind::Shared && sharedForceDeviceAlloc));
  if (devicePlaced) {
    p.topology = &topology;
    for (const NumaNodeInfo& n : device->resources().numaNodes) p.nodes.push_back(n.osIndex);
  } else if (kind == MemoryKind::Host && contextNodes.size() > 1) {
    p.topology = &topology;
    p.nodes = contextNodes;
  }
  return p;
}

}  // namespace tessera::core
