#include "core/topology/partition.h"

#include <set>

#include "core/topology/device_tree.h"

namespace tessera::core {
namespace {

CpuSet unitsToSet(const std::vector<uint32_t>& units, size_t first, size_t count) {
  CpuSet s;
  for (size_t i = first; i < first + count; ++i) s.add(units[i]);
  return s;
}

// "CL_DEVICE_PARTITION_EQUALLY_EXT - Split the aggregate device into as many smaller aggregate
// devices as can be created, each containing N compute units. [...] If N does not divide evenly
// into CL_DEVICE_MAX_COMPUTE_UNITS then the remaining compute units are not used."
PartitionResult equally(const std::vector<uint32_t>& units, uint32_t n, PartitionPart like) {
  PartitionResult r;
  if (n == 0 || n > units.size()) return {PartitionStatus::InvalidSize, {}, AffinityDomain::None};
  for (size_t first = 0; first + n <= units.size(); first += n) {
    like.pus = unitsToSet(units, first, n);
    r.parts.push_back(like);
  }
  return r;
}

// "For each non-zero count M in the list, a sub-device is created with M compute units in it.
// [...] The total number of compute units specified may not exceed the number of compute units in
// the device." CL_INVALID_PARTITION_COUNT: "the number of compute units for any one sub-device is
// less than 1, or the number of sub-devices requested exceeds CL_DEVICE_MAX_COMPUTE_UNITS". (Zero
// ends OpenCL's list, so a zero here can only be a mistake.)
PartitionResult byCounts(const std::vector<uint32_t>& units, const std::vector<uint32_t>& counts,
                         PartitionPart like) {
  PartitionResult r;
  uint64_t total = 0;
  for (uint32_t c : counts) {
    if (c == 0) return {PartitionStatus::InvalidSize, {}, AffinityDomain::None};
    total += c;
  }
  if (counts.empty() || counts.size() > units.size() || total > units.size())
    return {PartitionStatus::InvalidSize, {}, AffinityDomain::None};
  size_t first = 0;
  for (uint32_t c : counts) {
    like.pus = unitsToSet(units, first, c);
    r.parts.push_back(like);
    first += c;
  }
  return r;
}

// "Compute unit names are integers that count up from zero to the number of compute units less
// one. [...] Only one sub-device may be created at a time with this selector. An individual compute
// unit name may not appear more than once in the sub-device description."
PartitionResult byNames(const std::vector<uint32_t>& units, const std::vector<uint32_t>& names,
                        PartitionPart like) {
  if (names.empty()) return {PartitionStatus::InvalidSize, {}, AffinityDomain::None};
  std::set<uint32_t> seen;
  for (uint32_t name : names) {
    if (name >= units.size() || !seen.insert(name).second)
      return {PartitionStatus::InvalidName, {}, AffinityDomain::None};
    like.pus.add(units[name]);
  }
  return {PartitionStatus::Ok, {like}, AffinityDomain::None};
}

// The parts of one domain: its objects' intersections with the device, identical ones merged (NUMA
// nodes sharing their CPUs are one "NUMA band"), when they cut it into disjoint parts covering it.
std::vector<PartitionPart> domainParts(const Topology& topo, const CpuSet& pus, AffinityDomain d) {
  Level level = domainLevel(d);
  std::vector<PartitionPart> out;
  for (Part& p : distinctParts(topo.partsAt(level, pus), pus))
    out.push_back({std::move(p.pus), level, p.objectIndex});
  return out;
}

// "CL_DEVICE_PARTITION_FAILED_EXT - [...] CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN_EXT was requested,
// but all compute units in in_device share the same cache at the level requested."
// NEXT_FISSIONABLE: "find the first level along which the device or sub-device may be further
// subdivided in the order NUMA, L4, L3, L2, L1".
PartitionResult byDomain(const Topology& topo, const CpuSet& pus, AffinityDomain domain) {
  std::vector<AffinityDomain> tried = {domain};
  if (domain == AffinityDomain::NextPartitionable)
    tried = {AffinityDomain::Numa, AffinityDomain::L4, AffinityDomain::L3, AffinityDomain::L2,
             AffinityDomain::L1};
  for (AffinityDomain d : tried) {
    std::vector<PartitionPart> parts = domainParts(topo, pus, d);
    if (parts.size() >= 2) return {PartitionStatus::Ok, std::move(parts), d};
  }
  return {PartitionStatus::CannotPartition, {}, AffinityDomain::None};
}

}  // namespace

Level domainLevel(AffinityDomain domain) {
  switch (domain) {
    case AffinityDomain::Numa: return Level::NumaNode;
    case AffinityDomain::L4: return Level::L4;
    case AffinityDomain::L3: return Level::L3;
    case AffinityDomain::L2: return Level::L2;
    case AffinityDomain::L1: return Level::L1;
    case AffinityDomain::None:
    case AffinityDomain::NextPartitionable: break;
  }
  return Level::Machine;
}

PartitionResult partitionDevice(const Topology& topo, const CpuSet& pus, Level level,
                                uint32_t objectIndex, const PartitionRequest& request) {
  std::vector<uint32_t> units = topo.logicalOrder(pus);
  PartitionPart like{{}, level, objectIndex};
  switch (request.scheme) {
    case PartitionScheme::Equally: return equally(units, request.unitsPerDevice, like);
    case PartitionScheme::ByCounts: return byCounts(units, request.values, like);
    case PartitionScheme::ByNames: return byNames(units, request.values, like);
    case PartitionScheme::ByAffinityDomain:
      if (request.domain == AffinityDomain::None)
        return {PartitionStatus::CannotPartition, {}, AffinityDomain::None};
      return byDomain(topo, pus, request.domain);
  }
  return {PartitionStatus::InvalidSize, {}, AffinityDomain::None};
}

}  // namespace tessera::core
