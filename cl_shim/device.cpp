#include "cl_shim/device.h"

#include <algorithm>

#include "cl_shim/image_format.h"
#include "cl_shim/platform.h"
#include "cl_shim/subgroups.h"

namespace tessera::cl {

Device::Device(Platform& platform, ze_device_handle_t ze, Device* parent, PartitionStyle style)
    : platform_(platform), ze_(ze), parent_(parent), style_(std::move(style)) {
  zeDeviceGetProperties(ze_, &props_);
  zeDeviceGetComputeProperties(ze_, &compute_);
  zeDeviceGetModuleProperties(ze_, &module_);
  if (zeDeviceGetImageProperties(ze_, &image_) != ZE_RESULT_SUCCESS)
    image_ = {ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES};
  const ZeExtensions& ext = platform_.ext();
  uint32_t one = 1;  // the first entry: Tessera reports one
  ext.vectorWidths(ze_, &one, &widths_);
  ext.topologyProperties(ze_, &topology_);
  uint32_t n = 0;
  ext.pus(ze_, &n, nullptr);
  pus_.resize(n);
  ext.pus(ze_, &n, pus_.data());
  n = 0;
  ext.caches(ze_, &n, nullptr);
  caches_.resize(n);
  ext.caches(ze_, &n, caches_.data());
  n = 0;
  zeDeviceGetMemoryProperties(ze_, &n, nullptr);
  memories_.assign(n, ze_device_memory_properties_t{ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES});
  zeDeviceGetMemoryProperties(ze_, &n, memories_.data());
}

bool Device::imageSupport() const {
  return kImagesEnabled && image_.maxImageDims2D > 0 && image_.maxReadImageArgs > 0;
}

bool Device::subgroupSupport() const {
  return kSubgroupsEnabled && compute_.numSubGroupSizes > 0;
}

bool Device::descendsFrom(const Device* d) const {
  for (const Device* p = this; p; p = p->parent_.get())
    if (p == d) return true;
  return false;
}

Device* Device::root() {
  Device* d = this;
  while (d->parent_) d = d->parent_.get();
  return d;
}

bool Device::overlaps(const Device& other) const {
  for (uint32_t pu : pus_)
    if (std::binary_search(other.pus_.begin(), other.pus_.end(), pu)) return true;
  return false;
}

uint64_t Device::globalMemSize() const {
  uint64_t total = 0;
  for (const auto& m : memories_) total += m.totalSize;
  return total;
}

uint64_t Device::lastLevelCacheSize() const {
  return caches_.empty() ? 0 : caches_.back().bytesPerCache;
}

uint32_t Device::cacheLineSize() const {
  return caches_.empty() ? 64 : caches_.front().lineBytes;
}

// The domains this device can be partitioned along: those whose objects cut it into two or more
// parts (the driver's count query says so). A NUMA node or L3 cache that holds the whole device is
// not reported: "CL_DEVICE_PARTITION_AFFINITY_DOMAIN: the list of supported affinity domains for
// partitioning the device", and applications (the CTS's buffer_migrate) partition along each
// reported domain and expect it to succeed.
std::vector<ze_tessera_affinity_domain_t> Device::affinityDomains() const {
  std::vector<ze_tessera_affinity_domain_t> candidates{ZE_TESSERA_AFFINITY_DOMAIN_NUMA};
  for (auto it = caches_.rbegin(); it != caches_.rend(); ++it) {
    switch (it->level) {
      case 4: candidates.push_back(ZE_TESSERA_AFFINITY_DOMAIN_L4_CACHE); break;
      case 3: candidates.push_back(ZE_TESSERA_AFFINITY_DOMAIN_L3_CACHE); break;
      case 2: candidates.push_back(ZE_TESSERA_AFFINITY_DOMAIN_L2_CACHE); break;
      case 1: candidates.push_back(ZE_TESSERA_AFFINITY_DOMAIN_L1_CACHE); break;
      default: break;
    }
  }
  auto createPartition = platform().ext().createPartition;
  std::vector<ze_tessera_affinity_domain_t> domains;
  for (ze_tessera_affinity_domain_t d : candidates) {
    ze_tessera_partition_desc_t desc{ZE_STRUCTURE_TYPE_TESSERA_PARTITION_DESC};
    desc.scheme = ZE_TESSERA_PARTITION_SCHEME_BY_AFFINITY_DOMAIN;
    desc.domain = d;
    uint32_t n = 0;
    if (createPartition && createPartition(ze(), &desc, &n, nullptr, nullptr) == ZE_RESULT_SUCCESS &&
        n >= 2)
      domains.push_back(d);
  }
  return domains;
}

cl_device_affinity_domain Device::reportedAffinityDomains() const {
  cl_device_affinity_domain d = 0;
  if (partitionProperties().empty()) return d;
  for (auto z : affinityDomains()) {
    switch (z) {
      case ZE_TESSERA_AFFINITY_DOMAIN_NUMA: d |= CL_DEVICE_AFFINITY_DOMAIN_NUMA; break;
      case ZE_TESSERA_AFFINITY_DOMAIN_L4_CACHE: d |= CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE; break;
      case ZE_TESSERA_AFFINITY_DOMAIN_L3_CACHE: d |= CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE; break;
      case ZE_TESSERA_AFFINITY_DOMAIN_L2_CACHE: d |= CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE; break;
      case ZE_TESSERA_AFFINITY_DOMAIN_L1_CACHE: d |= CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE; break;
      default: break;
    }
  }
  return d | CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
}

std::vector<cl_device_partition_property> Device::partitionProperties() const {
  // cl_intel_device_partition_by_names: "A sub-device created with CL_DEVICE_PARTITION_BY_NAMES_INTEL
  // cannot be further sub-divided. A sub-device created with another partitioning mode cannot be
  // further sub-divided by CL_DEVICE_PARTITION_BY_NAMES_INTEL."
  if (style_.intelNames || computeUnits() < 2) return {};
  std::vector<cl_device_partition_property> list{CL_DEVICE_PARTITION_EQUALLY,
                                                 CL_DEVICE_PARTITION_BY_COUNTS,
                                                 CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN};
  if (isRoot()) list.push_back(CL_DEVICE_PARTITION_BY_NAMES_INTEL);
  return list;
}

}  // namespace tessera::cl
