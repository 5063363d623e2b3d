#include "core/topology/device_tree.h"

namespace tessera::core {
namespace {

constexpr Level kSplitLevels[] = {Level::Package, Level::NumaNode, Level::L3, Level::L2};

}  // namespace

std::vector<Part> distinctParts(std::vector<Part> parts, const CpuSet& pus) {
  std::vector<Part> distinct;
  for (Part& p : parts) {
    bool same = false;
    for (const Part& d : distinct) same = same || d.pus == p.pus;
    if (!same) distinct.push_back(std::move(p));
  }
  CpuSet covered;
  for (const Part& p : distinct) {
    if (covered.intersects(p.pus)) return {};
    covered = covered | p.pus;
  }
  if (!(covered == pus)) return {};
  return distinct;
}

namespace {

DeviceTreeNode grow(const Topology& topo, Level level, uint32_t index, const CpuSet& pus) {
  DeviceTreeNode node{level, index, pus, {}};
  Level childLevel;
  for (Part& p : splitOnce(topo, pus, &childLevel))
    node.children.push_back(grow(topo, childLevel, p.objectIndex, p.pus));
  return node;
}

}  // namespace

std::vector<Part> splitOnce(const Topology& topo, const CpuSet& pus, Level* levelOut) {
  for (Level level : kSplitLevels) {
    std::vector<Part> parts = distinctParts(topo.partsAt(level, pus), pus);
    if (parts.size() >= 2) {
      if (levelOut) *levelOut = level;
      return parts;
    }
  }
  return {};
}

std::vector<DeviceTreeNode> buildDeviceTree(const Topology& topo, RootMode mode,
                                            const CpuSet& all) {
  std::vector<DeviceTreeNode> roots;
  if (mode == RootMode::Package) {
    for (Part& p : distinctParts(topo.partsAt(Level::Package, all), all))
      roots.push_back(grow(topo, Level::Package, p.objectIndex, p.pus));
  }
  // A machine without packages (or whose packages do not partition it) is one root device.
  if (roots.empty()) roots.push_back(grow(topo, Level::Machine, 0, all));
  return roots;
}

}  // namespace tessera::core
