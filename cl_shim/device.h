// A cl_device_id: a Level Zero device (a root device, or a partition made by clCreateSubDevices*)
// and how it was cut. Root devices live as long as the platform; sub-devices are reference-counted
// and hold their parent.
#pragma once

#include <level_zero/ze_api.h>

#include <atomic>
#include <vector>

#include "cl_shim/object.h"
#include "tessera/ze_tessera.h"

namespace tessera::cl {

class Platform;

// How a sub-device was made, whatever the dialect (OpenCL 1.2, cl_ext_device_fission,
// cl_intel_device_partition_by_names). For BY_AFFINITY_DOMAIN `domain` is the one actually cut at.
struct PartitionStyle {
  ze_tessera_partition_scheme_t scheme = ZE_TESSERA_PARTITION_SCHEME_FORCE_UINT32;  // none: a root
  uint32_t unitsPerDevice = 0;
  std::vector<uint32_t> values;  // counts or names
  ze_tessera_affinity_domain_t domain = ZE_TESSERA_AFFINITY_DOMAIN_NONE;
  bool intelNames = false;  // BY_NAMES through clCreateSubDevices (cl_intel_device_partition_by_names)

  // CL_DEVICE_PARTITION_TYPE (1.2 tokens) and CL_DEVICE_PARTITION_STYLE_EXT (EXT tokens).
  std::vector<cl_device_partition_property> coreList() const;
  std::vector<cl_device_partition_property_ext> extList() const;
};

class Device : public Object<_cl_device_id, 0x44455631 /* "DEV1" */> {
 public:
  Device(Platform& platform, ze_device_handle_t ze, Device* parent, PartitionStyle style);
  static Device* from(cl_device_id h) { return Object::from<Device>(h); }

  Platform& platform() const { return platform_; }
  ze_device_handle_t ze() const { return ze_; }
  Device* parent() const { return parent_.get(); }
  bool isRoot() const { return !parent_; }
  const PartitionStyle& style() const { return style_; }
  // True when this device is `d` or was cut (directly or not) from `d`.
  bool descendsFrom(const Device* d) const;
  Device* root();

  cl_uint computeUnits() const { return topology_.numPus; }
  const std::vector<uint32_t>& pus() const { return pus_; }
  bool overlaps(const Device& other) const;

  const ze_device_properties_t& zeProperties() const { return props_; }
  const ze_device_compute_properties_t& zeCompute() const { return compute_; }
  const ze_device_module_properties_t& zeModule() const { return module_; }
  const ze_device_image_properties_t& zeImage() const { return image_; }
  // CL_DEVICE_IMAGE_SUPPORT: Level Zero has images on this device and OpenCL's are switched on
  // (kImagesEnabled, image_format.h).
  bool imageSupport() const;
  // Sub-groups (subgroups.h): Level Zero offers sub-group sizes and OpenCL's are switched on
  // (kSubgroupsEnabled).
  bool subgroupSupport() const;

  // cl_intel_device_partition_by_names: queues alive on this device.
  std::atomic<int> liveQueues{0};

  cl_int info(cl_device_info param, size_t size, void* value, size_t* sizeRet);
  // What partition schemes and domains this device offers.
  std::vector<cl_device_partition_property> partitionProperties() const;
  std::vector<ze_tessera_affinity_domain_t> affinityDomains() const;
  // CL_DEVICE_PARTITION_AFFINITY_DOMAIN: the domains above as bits, and NEXT_PARTITIONABLE; 0
  // when the device cannot be partitioned.
  cl_device_affinity_domain reportedAffinityDomains() const;

 private:
  uint64_t globalMemSize() const;
  uint64_t lastLevelCacheSize() const;
  uint32_t cacheLineSize() const;

  Platform& platform_;
  ze_device_handle_t ze_;
  Ref<Device> parent_;
  PartitionStyle style_;
  ze_device_properties_t props_{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  ze_device_compute_properties_t compute_{ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
  ze_device_module_properties_t module_{ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES};
  ze_device_image_properties_t image_{ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES};
  ze_device_vector_width_properties_ext_t widths_{
      ZE_STRUCTURE_TYPE_DEVICE_VECTOR_WIDTH_PROPERTIES_EXT};
  ze_tessera_device_topology_properties_t topology_{ZE_STRUCTURE_TYPE_TESSERA_DEVICE_TOPOLOGY_PROPERTIES};
  std::vector<uint32_t> pus_;
  std::vector<ze_tessera_cache_t> caches_;
  std::vector<ze_device_memory_properties_t> memories_;
};

// clCreateSubDevices (1.2 tokens, Intel's BY_NAMES included) and clCreateSubDevicesEXT.
cl_int createSubDevices(Device& in, const cl_device_partition_property* properties,
                        cl_uint numEntries, cl_device_id* out, cl_uint* numDevices);
cl_int createSubDevicesExt(Device& in, const cl_device_partition_property_ext* properties,
                           cl_uint numEntries, cl_device_id* out, cl_uint* numDevices);

}  // namespace tessera::cl
