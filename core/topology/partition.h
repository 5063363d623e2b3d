// Partitions of any shape: a device's PUs cut by one of OpenCL's partition schemes
// (cl_ext_device_fission, clCreateSubDevices of OpenCL 1.2), for the extension
// ZE_tessera_device_partition (level_zero/include/tessera/ze_tessera.h).
// (The fixed tree of root devices and sub-devices the driver exposes from the start is
// device_tree.h's; this file cuts a device on request.)
//
// A device's compute units are its PUs in hwloc's logical order (Topology::logicalOrder); the
// "names" of BY_NAMES index that order, and EQUALLY and BY_COUNTS hand units out in it, so the
// hardware threads of a core and the cores of a cache stay together.
#pragma once

#include <cstdint>
#include <vector>

#include "core/topology/topology.h"

namespace tessera::core {

enum class PartitionScheme { Equally, ByCounts, ByNames, ByAffinityDomain };
// The affinity domains, in the order NEXT_PARTITIONABLE tries them.
enum class AffinityDomain { None, Numa, L4, L3, L2, L1, NextPartitionable };

struct PartitionRequest {
  PartitionScheme scheme = PartitionScheme::Equally;
  uint32_t unitsPerDevice = 0;                   // Equally
  std::vector<uint32_t> values;                  // ByCounts: counts; ByNames: names
  AffinityDomain domain = AffinityDomain::None;  // ByAffinityDomain
};

// One sub-device to be: its PUs and where it was cut. Affinity-domain parts name the object of
// the domain's level; parts of the other schemes are cut inside the device's own object and
// carry the device's level and object index.
struct PartitionPart {
  CpuSet pus;
  Level level = Level::Machine;
  uint32_t objectIndex = 0;
};

enum class PartitionStatus {
  Ok,
  InvalidSize,      // a count of 0, too many units or sub-devices, an empty list
  InvalidName,      // a name out of range or repeated
  CannotPartition,  // the domain does not cut the device into two or more parts
};

struct PartitionResult {
  PartitionStatus status = PartitionStatus::Ok;
  std::vector<PartitionPart> parts;
  AffinityDomain domainUsed = AffinityDomain::None;  // the level cut at, for ByAffinityDomain
};

// The Level an affinity domain cuts at (Numa, L4..L1 only).
Level domainLevel(AffinityDomain domain);

// Cuts `pus` (a device's PUs, cut out at `level` / `objectIndex`) as `request` says.
PartitionResult partitionDevice(const Topology& topo, const CpuSet& pus, Level level,
                                uint32_t objectIndex, const PartitionRequest& request);

}  // namespace tessera::core
