// Extension ZE_tessera_device_partition: sub-devices of any shape (core/topology/partition.h cuts,
// core::Driver::partition cuts and makes and keeps the devices).
#include "core/driver/driver.h"
#include "level_zero/api_support.h"
#include "tessera/ze_tessera.h"

using tessera::core::AffinityDomain;
using tessera::core::Device;
using tessera::core::Driver;
using tessera::core::PartitionRequest;
using tessera::core::PartitionScheme;
using tessera::core::PartitionStatus;
using namespace tessera::ze;

namespace {

// The two enums list the domains in the same order, NONE = 0 first.
static_assert(int(AffinityDomain::Numa) == ZE_TESSERA_AFFINITY_DOMAIN_NUMA);
static_assert(int(AffinityDomain::L1) == ZE_TESSERA_AFFINITY_DOMAIN_L1_CACHE);
static_assert(int(AffinityDomain::NextPartitionable) ==
              ZE_TESSERA_AFFINITY_DOMAIN_NEXT_PARTITIONABLE);

// The request of `desc`, or the error its fields alone give.
ze_result_t readRequest(const ze_tessera_partition_desc_t& desc, uint32_t numPus,
                        PartitionRequest& out) {
  switch (desc.scheme) {
    case ZE_TESSERA_PARTITION_SCHEME_EQUALLY:
      out.scheme = PartitionScheme::Equally;
      out.unitsPerDevice = desc.unitsPerDevice;
      return ZE_RESULT_SUCCESS;
    case ZE_TESSERA_PARTITION_SCHEME_BY_COUNTS:
    case ZE_TESSERA_PARTITION_SCHEME_BY_NAMES: {
      bool counts = desc.scheme == ZE_TESSERA_PARTITION_SCHEME_BY_COUNTS;
      out.scheme = counts ? PartitionScheme::ByCounts : PartitionScheme::ByNames;
      if (desc.count == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
      if (!desc.values) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
      // More entries than compute units: more sub-devices than units, or a name out of range or
      // repeated; said before reading a list that long.
      if (desc.count > numPus)
        return counts ? ZE_RESULT_ERROR_INVALID_SIZE : ZE_RESULT_ERROR_INVALID_ARGUMENT;
      out.values.assign(desc.values, desc.values + desc.count);
      return ZE_RESULT_SUCCESS;
    }
    case ZE_TESSERA_PARTITION_SCHEME_BY_AFFINITY_DOMAIN:
      out.scheme = PartitionScheme::ByAffinityDomain;
      if (desc.domain < ZE_TESSERA_AFFINITY_DOMAIN_NUMA ||
          desc.domain > ZE_TESSERA_AFFINITY_DOMAIN_NEXT_PARTITIONABLE)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;  // NONE is no domain to cut at
      out.domain = static_cast<AffinityDomain>(desc.domain);
      return ZE_RESULT_SUCCESS;
    default:
      return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  }
}

ze_result_t resultOf(PartitionStatus status) {
  switch (status) {
    case PartitionStatus::Ok:
      return ZE_RESULT_SUCCESS;
    case PartitionStatus::InvalidSize:
      return ZE_RESULT_ERROR_INVALID_SIZE;
    case PartitionStatus::InvalidName:
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    case PartitionStatus::CannotPartition:
      return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  }
  return ZE_RESULT_ERROR_UNKNOWN;
}

}  // namespace

ZE_APIEXPORT ze_result_t ZE_APICALL zeTesseraDeviceCreatePartition(
    ze_device_handle_t hDevice, const ze_tessera_partition_desc_t* desc, uint32_t* pCount,
    ze_device_handle_t* phSubDevices, ze_tessera_affinity_domain_t* pDomainUsed) {
  Device* device = Device::fromHandle(hDevice);
  if (!device) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !pCount) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!tessera::ze::isStructType(desc->stype, ZE_STRUCTURE_TYPE_TESSERA_PARTITION_DESC))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  return guarded([&] {
    PartitionRequest request;
    ze_result_t r = readRequest(*desc, device->pus().count(), request);
    if (r != ZE_RESULT_SUCCESS) return r;
    // Only counting makes no device.
    const bool counting = *pCount == 0 || !phSubDevices;
    Driver::Partition cut = device->driver().partition(*device, request, !counting);
    if (cut.status != PartitionStatus::Ok) return resultOf(cut.status);
    if (pDomainUsed) *pDomainUsed = static_cast<ze_tessera_affinity_domain_t>(cut.domainUsed);
    if (counting)
      return countQuery(pCount, phSubDevices, cut.count, [](uint32_t, ze_device_handle_t&) {});
    return countQuery(pCount, phSubDevices, cut.devices.size(),
                      [&](uint32_t i, ze_device_handle_t& h) { h = cut.devices[i]->toHandle(); });
  });
}
