// Device fission in its three dialects, over one Level Zero extension (ZE_tessera_device_partition):
// OpenCL 1.2 clCreateSubDevices, cl_ext_device_fission's clCreateSubDevicesEXT and
// cl_intel_device_partition_by_names. Parsing and error codes differ; the partitioner is core's.
#include <algorithm>
#include <optional>
#include <set>

#include "cl_shim/device.h"
#include "cl_shim/errors.h"
#include "cl_shim/partition_dump.h"
#include "cl_shim/platform.h"

namespace tessera::cl {
namespace {

enum class Dialect { Core, Ext };

// A property list parsed into one scheme, or the CL error that refused it.
struct Request {
  PartitionStyle style;
  cl_int error = CL_SUCCESS;
};

struct DomainToken {
  cl_ulong core;  // cl_device_affinity_domain bit
  cl_ulong ext;   // CL_AFFINITY_DOMAIN_*_EXT
  ze_tessera_affinity_domain_t ze;
};
constexpr DomainToken kDomains[] = {
    {CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_AFFINITY_DOMAIN_NUMA_EXT, ZE_TESSERA_AFFINITY_DOMAIN_NUMA},
    {CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE, CL_AFFINITY_DOMAIN_L4_CACHE_EXT,
     ZE_TESSERA_AFFINITY_DOMAIN_L4_CACHE},
    {CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, CL_AFFINITY_DOMAIN_L3_CACHE_EXT,
     ZE_TESSERA_AFFINITY_DOMAIN_L3_CACHE},
    {CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, CL_AFFINITY_DOMAIN_L2_CACHE_EXT,
     ZE_TESSERA_AFFINITY_DOMAIN_L2_CACHE},
    {CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE, CL_AFFINITY_DOMAIN_L1_CACHE_EXT,
     ZE_TESSERA_AFFINITY_DOMAIN_L1_CACHE},
    {CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, CL_AFFINITY_DOMAIN_NEXT_FISSIONABLE_EXT,
     ZE_TESSERA_AFFINITY_DOMAIN_NEXT_PARTITIONABLE},
};

const DomainToken* domainFromZe(ze_tessera_affinity_domain_t d) {
  for (const DomainToken& t : kDomains)
    if (t.ze == d) return &t;
  return nullptr;
}

// Both dialects lay the list out alike: a scheme token, its value(s), a list end for the list
// schemes, then the properties' terminating 0. Values are read as signed 64-bit numbers.
Request parse(const Device& in, Dialect dialect, const int64_t* p) {
  Request r;
  const cl_int badCount = dialect == Dialect::Core ? CL_INVALID_DEVICE_PARTITION_COUNT
                                                   : CL_INVALID_PARTITION_COUNT_EXT;
  const int64_t kEqually = dialect == Dialect::Core ? CL_DEVICE_PARTITION_EQUALLY
                                                    : CL_DEVICE_PARTITION_EQUALLY_EXT;
  const int64_t kCounts = dialect == Dialect::Core ? CL_DEVICE_PARTITION_BY_COUNTS
                                                   : CL_DEVICE_PARTITION_BY_COUNTS_EXT;
  const int64_t kDomain = dialect == Dialect::Core ? CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN
                                                   : CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN_EXT;
  const int64_t kNames = CL_DEVICE_PARTITION_BY_NAMES_EXT;  // == CL_DEVICE_PARTITION_BY_NAMES_INTEL
  const uint32_t units = in.computeUnits();
  PartitionStyle& s = r.style;
  int64_t scheme = *p++;
  auto fail = [&](cl_int e) { r.error = e; return r; };

  if (scheme == kEqually) {
    int64_t n = *p++;
    s.scheme = ZE_TESSERA_PARTITION_SCHEME_EQUALLY;
    // EXT: "CL_INVALID_PARTITION_COUNT_EXT - ... the number of compute units for any one
    // sub-device is less than 1". 1.2: an invalid value in properties is CL_INVALID_VALUE.
    if (n < 1) return fail(dialect == Dialect::Core ? CL_INVALID_VALUE : badCount);
    if (n > units) return fail(dialect == Dialect::Core ? CL_DEVICE_PARTITION_FAILED : badCount);
    s.unitsPerDevice = uint32_t(n);
  } else if (scheme == kCounts) {
    s.scheme = ZE_TESSERA_PARTITION_SCHEME_BY_COUNTS;
    uint64_t total = 0;
    for (; *p != 0; ++p) {  // CL_DEVICE_PARTITION_BY_COUNTS_LIST_END(_EXT) is 0
      if (*p < 0 || *p > int64_t(units)) return fail(badCount);
      total += uint64_t(*p);
      s.values.push_back(uint32_t(*p));
      if (s.values.size() > units) return fail(badCount);
    }
    ++p;
    // 1.2: "... the total number of compute units requested exceeds
    // CL_DEVICE_PARTITION_MAX_COMPUTE_UNITS". EXT: "The total number of compute units requested
    // exceeds CL_DEVICE_MAX_COMPUTE_UNITS".
    if (s.values.empty() || total > units) return fail(badCount);
  } else if (scheme == kNames) {
    s.scheme = ZE_TESSERA_PARTITION_SCHEME_BY_NAMES;
    s.intelNames = dialect == Dialect::Core;
    // cl_intel_device_partition_by_names: "A sub-device created with another partitioning mode
    // cannot be further sub-divided by CL_DEVICE_PARTITION_BY_NAMES_INTEL" (nor a by-names one).
    if (s.intelNames && !in.isRoot()) return fail(CL_INVALID_VALUE);
    std::set<int64_t> seen;
    for (; *p != -1; ++p) {  // CL_PARTITION_BY_NAMES_LIST_END_EXT / _INTEL is -1
      // EXT: "CL_INVALID_PARTITION_NAME_EXT - A compute unit name ... is not in the range
      // [-1, number of compute units - 1]"; "An individual compute unit name may not appear more
      // than once in the sub-device description."
      if (*p < 0 || *p >= int64_t(units) || !seen.insert(*p).second)
        return fail(dialect == Dialect::Core ? CL_INVALID_VALUE : CL_INVALID_PARTITION_NAME_EXT);
      s.values.push_back(uint32_t(*p));
    }
    ++p;
    if (s.values.empty()) return fail(dialect == Dialect::Core ? CL_INVALID_VALUE : badCount);
  } else if (scheme == kDomain) {
    s.scheme = ZE_TESSERA_PARTITION_SCHEME_BY_AFFINITY_DOMAIN;
    int64_t value = *p++;
    const DomainToken* found = nullptr;
    for (const DomainToken& t : kDomains)
      if (int64_t(dialect == Dialect::Core ? t.core : t.ext) == value) found = &t;
    if (!found) return fail(CL_INVALID_VALUE);
    // 1.2: "CL_INVALID_VALUE if values specified in properties are not valid or if values
    // specified in properties are valid but not supported by the device": a domain that
    // CL_DEVICE_PARTITION_AFFINITY_DOMAIN does not report (an L4 cache the machine lacks).
    if (dialect == Dialect::Core && !(in.reportedAffinityDomains() & found->core))
      return fail(CL_INVALID_VALUE);
    s.domain = found->ze;
  } else {
    // "CL_INVALID_VALUE - The properties key is unknown".
    return fail(CL_INVALID_VALUE);
  }
  // "Only one of ... may be used in the same properties list."
  if (*p != 0) return fail(CL_INVALID_VALUE);
  if (in.style().intelNames) return fail(CL_INVALID_VALUE);  // cannot be further sub-divided
  return r;
}

cl_int create(Device& in, Dialect dialect, const int64_t* properties, cl_uint numEntries,
              cl_device_id* out, cl_uint* numDevices) {
  if (!properties) return CL_INVALID_VALUE;
  if (dialect == Dialect::Ext && ((numEntries == 0 && out) || (!out && !numDevices)))
    return CL_INVALID_VALUE;
  if (dialect == Dialect::Core && out && numEntries == 0) return CL_INVALID_VALUE;
  Request req = parse(in, dialect, properties);
  if (req.error != CL_SUCCESS) return req.error;
  PartitionStyle& style = req.style;

  ze_tessera_partition_desc_t desc{ZE_STRUCTURE_TYPE_TESSERA_PARTITION_DESC};
  desc.scheme = style.scheme;
  desc.unitsPerDevice = style.unitsPerDevice;
  desc.count = uint32_t(style.values.size());
  desc.values = style.values.data();
  desc.domain = style.domain;
  auto createPartition = in.platform().ext().createPartition;
  if (!createPartition) return CL_INVALID_VALUE;  // a driver without ZE_tessera_device_partition
  uint32_t n = 0;
  ze_result_t zr = createPartition(in.ze(), &desc, &n, nullptr, nullptr);
  auto failure = [&](ze_result_t e) -> cl_int {
    switch (e) {
      case ZE_RESULT_ERROR_UNSUPPORTED_FEATURE:
        return dialect == Dialect::Core ? CL_DEVICE_PARTITION_FAILED : CL_DEVICE_PARTITION_FAILED_EXT;
      case ZE_RESULT_ERROR_INVALID_SIZE:
        return dialect == Dialect::Core ? CL_INVALID_DEVICE_PARTITION_COUNT
                                        : CL_INVALID_PARTITION_COUNT_EXT;
      case ZE_RESULT_ERROR_INVALID_ARGUMENT:
        return dialect == Dialect::Core ? CL_INVALID_VALUE : CL_INVALID_PARTITION_NAME_EXT;
      default: return fromZe(e);  // the one table for everything not specific to fission
    }
  };
  if (zr != ZE_RESULT_SUCCESS) return failure(zr);
  // EQUALLY that leaves no sub-device (fewer units than asked) was refused above; a scheme that
  // makes a single device equal to the whole is still a partition.
  if (n == 0) return dialect == Dialect::Core ? CL_DEVICE_PARTITION_FAILED : CL_DEVICE_PARTITION_FAILED_EXT;
  if (numDevices) *numDevices = n;
  if (!out) return CL_SUCCESS;
  // 1.2: "CL_INVALID_VALUE if ... out_devices is not NULL and num_devices is less than the number
  // of sub-devices created by the partition scheme." EXT: "The number of cl_device_ids returned is
  // the minimum of <num_entries> and the number of devices created".
  if (dialect == Dialect::Core && numEntries < n) return CL_INVALID_VALUE;
  std::vector<ze_device_handle_t> handles(n);
  ze_tessera_affinity_domain_t used = ZE_TESSERA_AFFINITY_DOMAIN_NONE;
  zr = createPartition(in.ze(), &desc, &n, handles.data(), &used);
  if (zr != ZE_RESULT_SUCCESS) return failure(zr);
  if (style.scheme == ZE_TESSERA_PARTITION_SCHEME_BY_AFFINITY_DOMAIN &&
      used != ZE_TESSERA_AFFINITY_DOMAIN_NONE)
    style.domain = used;  // NEXT_FISSIONABLE is reported as the domain actually used
  uint32_t give = std::min<uint32_t>(n, numEntries);
  for (uint32_t i = 0; i < give; ++i) {
    auto* sub = new Device(in.platform(), handles[i], &in, style);
    recordDeviceForDump(*sub);
    out[i] = sub->handle();
  }
  return CL_SUCCESS;
}

}  // namespace

std::vector<cl_device_partition_property> PartitionStyle::coreList() const {
  std::vector<cl_device_partition_property> l;
  switch (scheme) {
    case ZE_TESSERA_PARTITION_SCHEME_EQUALLY:
      l = {CL_DEVICE_PARTITION_EQUALLY, cl_device_partition_property(unitsPerDevice)};
      break;
    case ZE_TESSERA_PARTITION_SCHEME_BY_COUNTS:
      l.push_back(CL_DEVICE_PARTITION_BY_COUNTS);
      for (uint32_t v : values) l.push_back(v);
      l.push_back(CL_DEVICE_PARTITION_BY_COUNTS_LIST_END);
      break;
    case ZE_TESSERA_PARTITION_SCHEME_BY_NAMES:
      l.push_back(CL_DEVICE_PARTITION_BY_NAMES_INTEL);
      for (uint32_t v : values) l.push_back(v);
      l.push_back(CL_PARTITION_BY_NAMES_LIST_END_INTEL);
      break;
    case ZE_TESSERA_PARTITION_SCHEME_BY_AFFINITY_DOMAIN:
      l = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
           cl_device_partition_property(domainFromZe(domain) ? domainFromZe(domain)->core : 0)};
      break;
    default: return {};
  }
  l.push_back(0);
  return l;
}

std::vector<cl_device_partition_property_ext> PartitionStyle::extList() const {
  std::vector<cl_device_partition_property_ext> l;
  switch (scheme) {
    case ZE_TESSERA_PARTITION_SCHEME_EQUALLY:
      l = {CL_DEVICE_PARTITION_EQUALLY_EXT, unitsPerDevice};
      break;
    case ZE_TESSERA_PARTITION_SCHEME_BY_COUNTS:
      l.push_back(CL_DEVICE_PARTITION_BY_COUNTS_EXT);
      for (uint32_t v : values) l.push_back(v);
      l.push_back(CL_PARTITION_BY_COUNTS_LIST_END_EXT);
      break;
    case ZE_TESSERA_PARTITION_SCHEME_BY_NAMES:
      l.push_back(CL_DEVICE_PARTITION_BY_NAMES_EXT);
      for (uint32_t v : values) l.push_back(v);
      l.push_back(CL_PARTITION_BY_NAMES_LIST_END_EXT);
      break;
    case ZE_TESSERA_PARTITION_SCHEME_BY_AFFINITY_DOMAIN:
      l = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN_EXT,
           domainFromZe(domain) ? domainFromZe(domain)->ext : 0};
      break;
    default: return {};
  }
  l.push_back(CL_PROPERTIES_LIST_END_EXT);
  return l;
}

cl_int createSubDevices(Device& in, const cl_device_partition_property* properties,
                        cl_uint numEntries, cl_device_id* out, cl_uint* numDevices) {
  static_assert(sizeof(cl_device_partition_property) == sizeof(int64_t));
  return create(in, Dialect::Core, reinterpret_cast<const int64_t*>(properties), numEntries, out,
                numDevices);
}

cl_int createSubDevicesExt(Device& in, const cl_device_partition_property_ext* properties,
                           cl_uint numEntries, cl_device_id* out, cl_uint* numDevices) {
  static_assert(sizeof(cl_device_partition_property_ext) == sizeof(int64_t));
  return create(in, Dialect::Ext, reinterpret_cast<const int64_t*>(properties), numEntries, out,
                numDevices);
}

}  // namespace tessera::cl
