#include "device_tree.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace tessera::info {
namespace {

#define CHECK(call)                                                  \
  do {                                                               \
    ze_result_t r_ = (call);                                         \
    if (r_ != ZE_RESULT_SUCCESS) {                                   \
      char b_[64];                                                   \
      std::snprintf(b_, sizeof b_, " failed: 0x%x", unsigned(r_));   \
      error = std::string(#call) + b_;                               \
      return false;                                                  \
    }                                                                \
  } while (0)

struct Extension {
  ze_pfnTesseraDeviceGetTopologyProperties_t topology = nullptr;
  ze_pfnTesseraDeviceGetPus_t pus = nullptr;
  ze_pfnTesseraDeviceGetNumaNodes_t numa = nullptr;
  ze_pfnTesseraDeviceGetCaches_t caches = nullptr;
};

template <typename T>
T lookup(ze_driver_handle_t driver, const char* name) {
  void* f = nullptr;
  zeDriverGetExtensionFunctionAddress(driver, name, &f);
  return reinterpret_cast<T>(f);
}

template <typename T, typename F>
bool countQuery(std::vector<T>& out, T proto, F&& call) {
  uint32_t n = 0;
  if (call(&n, static_cast<T*>(nullptr)) != ZE_RESULT_SUCCESS) return false;
  out.assign(n, proto);
  return call(&n, out.data()) == ZE_RESULT_SUCCESS;
}

bool gatherDevice(ze_device_handle_t d, const std::string& path, const Extension& ext,
                  DeviceInfo& info, std::string& error) {
  info.path = path;
  info.props.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  CHECK(zeDeviceGetProperties(d, &info.props));
  info.compute.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
  CHECK(zeDeviceGetComputeProperties(d, &info.compute));
  ze_device_memory_properties_t mem{};
  mem.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
  countQuery(info.memories, mem, [&](uint32_t* n, auto* p) { return zeDeviceGetMemoryProperties(d, n, p); });
  ze_command_queue_group_properties_t qg{};
  qg.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
  countQuery(info.queueGroups, qg,
             [&](uint32_t* n, auto* p) { return zeDeviceGetCommandQueueGroupProperties(d, n, p); });
  ze_device_cache_properties_t cp{};
  cp.stype = ZE_STRUCTURE_TYPE_DEVICE_CACHE_PROPERTIES;
  countQuery(info.cacheSizes, cp, [&](uint32_t* n, auto* p) { return zeDeviceGetCacheProperties(d, n, p); });
  if (ext.topology && ext.pus && ext.numa && ext.caches) {
    info.topology.stype = ZE_STRUCTURE_TYPE_TESSERA_DEVICE_TOPOLOGY_PROPERTIES;
    CHECK(ext.topology(d, &info.topology));
    info.hasTopology = true;
    countQuery(info.pus, 0u, [&](uint32_t* n, uint32_t* p) { return ext.pus(d, n, p); });
    countQuery(info.numaNodes, 0u, [&](uint32_t* n, uint32_t* p) { return ext.numa(d, n, p); });
    countQuery(info.caches, ze_tessera_cache_t{}, [&](uint32_t* n, auto* p) { return ext.caches(d, n, p); });
  }
  std::vector<ze_device_handle_t> subs;
  CHECK((countQuery(subs, ze_device_handle_t{}, [&](uint32_t* n, auto* p) {
          return zeDeviceGetSubDevices(d, n, p);
        }) ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_UNKNOWN));
  for (size_t i = 0; i < subs.size(); ++i) {
    info.subDevices.emplace_back();
    if (!gatherDevice(subs[i], path + "." + std::to_string(i), ext, info.subDevices.back(), error))
      return false;
  }
  return true;
}

std::string uuidText(const uint8_t* id) {
  char b[40];
  std::snprintf(b, sizeof b, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                id[0], id[1], id[2], id[3], id[4], id[5], id[6], id[7], id[8], id[9], id[10],
                id[11], id[12], id[13], id[14], id[15]);
  return b;
}

std::string listText(const std::vector<uint32_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    s += (s.empty() ? "" : ",") + std::to_string(v[i]) + (j > i ? "-" + std::to_string(v[j]) : "");
    i = j + 1;
  }
  return s;
}

std::string bytesText(uint64_t b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  double v = double(b);
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  char out[32];
  std::snprintf(out, sizeof out, v == uint64_t(v) ? "%.0f %s" : "%.1f %s", v, units[u]);
  return out;
}

const char* levelText(ze_tessera_device_level_t l) {
  switch (l) {
    case ZE_TESSERA_DEVICE_LEVEL_MACHINE: return "machine";
    case ZE_TESSERA_DEVICE_LEVEL_PACKAGE: return "package";
    case ZE_TESSERA_DEVICE_LEVEL_NUMA: return "NUMA node";
    case ZE_TESSERA_DEVICE_LEVEL_L3: return "L3";
    case ZE_TESSERA_DEVICE_LEVEL_L2: return "L2";
    case ZE_TESSERA_DEVICE_LEVEL_L4: return "L4";
    case ZE_TESSERA_DEVICE_LEVEL_L1: return "L1";
    default: return "?";
  }
}

std::string queueGroupText(const ze_command_queue_group_properties_t& g) {
  std::string s;
  if (g.flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) s += "compute+";
  if (g.flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY) s += "copy+";
  if (g.flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COOPERATIVE_KERNELS) s += "cooperative+";
  if (!s.empty()) s.pop_back();
  return s + " x" + std::to_string(g.numQueues);
}

void printDevice(const DeviceInfo& d, const std::string& indent, bool last, bool root) {
  std::string branch = root ? "" : (last ? "└─ " : "├─ ");
  std::string more = root ? "" : (last ? "   " : "│  ");
  const auto& p = d.props;
  std::printf("%s%s%s %s: %s", indent.c_str(), branch.c_str(),
              (p.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE) ? "Sub-device" : "Device", d.path.c_str(), p.name);
  if (d.hasTopology) std::printf("  [%s #%u]", levelText(d.topology.level), d.topology.objectIndex);
  std::printf("\n");
  std::string in = indent + more + (d.subDevices.empty() ? "   " : "│  ");
  std::printf("%suuid %s%s\n", in.c_str(), uuidText(p.uuid.id).c_str(),
              (p.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE)
                  ? ("  subdeviceId " + std::to_string(p.subdeviceId)).c_str() : "");
  uint32_t threads = p.numSlices * p.numSubslicesPerSlice * p.numEUsPerSubslice * p.numThreadsPerEU;
  if (d.hasTopology)
    std::printf("%sPUs %s  (%u PU%s, %u core%s, %u package%s)\n", in.c_str(), listText(d.pus).c_str(),
                d.topology.numPus, d.topology.numPus == 1 ? "" : "s", d.topology.numCores,
                d.topology.numCores == 1 ? "" : "s", d.topology.numPackages,
                d.topology.numPackages == 1 ? "" : "s");
  else
    std::printf("%s%u hardware threads\n", in.c_str(), threads);
  std::string numa;
  for (size_t i = 0; i < d.memories.size(); ++i)
    numa += (i ? ", " : "") + std::string(d.memories[i].name) + " " + bytesText(d.memories[i].totalSize);
  std::printf("%smemory: %s\n", in.c_str(), numa.empty() ? "(none reported)" : numa.c_str());
  std::string caches;
  if (d.hasTopology) {
    for (const auto& c : d.caches)
      caches += (caches.empty() ? "" : ", ") + ("L" + std::to_string(c.level)) + (c.unified ? "" : "d") +
                " " + bytesText(c.bytesPerCache) + " x" + std::to_string(c.instances);
  } else {
    for (const auto& c : d.cacheSizes) caches += (caches.empty() ? "" : ", ") + bytesText(c.cacheSize);
  }
  std::printf("%scaches: %s\n", in.c_str(), caches.c_str());
  std::string groups;
  for (size_t i = 0; i < d.queueGroups.size(); ++i)
    groups += (i ? ", " : "") + std::to_string(i) + ": " + queueGroupText(d.queueGroups[i]);
  std::printf("%squeue groups: %s\n", in.c_str(), groups.c_str());
  std::printf("%sclock %u MHz, SIMD %u x 32-bit, max group %u, max memory allocation %s\n", in.c_str(),
              p.coreClockRate, p.physicalEUSimdWidth, d.compute.maxTotalGroupSize,
              bytesText(p.maxMemAllocSize).c_str());
  for (size_t i = 0; i < d.subDevices.size(); ++i)
    printDevice(d.subDevices[i], indent + more, i + 1 == d.subDevices.size(), false);
}

void jsonString(const char* s) {
  std::putchar('"');
  for (; *s; ++s) {
    unsigned char c = static_cast<unsigned char>(*s);
    if (c == '"' || c == '\\') std::printf("\\%c", c);
    else if (c < 0x20) std::printf("\\u%04x", c);
    else std::putchar(c);
  }
  std::putchar('"');
}

void jsonArray(const std::vector<uint32_t>& v) {
  std::printf("[");
  for (size_t i = 0; i < v.size(); ++i) std::printf("%s%u", i ? "," : "", v[i]);
  std::printf("]");
}

void printDeviceJson(const DeviceInfo& d) {
  const auto& p = d.props;
  std::printf("{\"path\":\"%s\",\"name\":", d.path.c_str());
  jsonString(p.name);
  std::printf(",\"uuid\":\"%s\",\"subdevice\":%s,\"subdeviceId\":%u,\"vendorId\":%u,\"deviceId\":%u",
              uuidText(p.uuid.id).c_str(), (p.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE) ? "true" : "false",
              p.subdeviceId, p.vendorId, p.deviceId);
  std::printf(",\"coreClockRate\":%u,\"maxMemAllocSize\":%" PRIu64
              ",\"numSlices\":%u,\"numSubslicesPerSlice\":%u,\"numEUsPerSubslice\":%u,"
              "\"numThreadsPerEU\":%u,\"physicalEUSimdWidth\":%u,\"timerResolution\":%" PRIu64
              ",\"timestampValidBits\":%u,\"maxTotalGroupSize\":%u",
              p.coreClockRate, p.maxMemAllocSize, p.numSlices, p.numSubslicesPerSlice,
              p.numEUsPerSubslice, p.numThreadsPerEU, p.physicalEUSimdWidth, p.timerResolution,
              p.timestampValidBits, d.compute.maxTotalGroupSize);
  if (d.hasTopology) {
    std::printf(",\"level\":\"%s\",\"objectIndex\":%u,\"cores\":%u,\"packages\":%u,\"pus\":",
                levelText(d.topology.level), d.topology.objectIndex, d.topology.numCores,
                d.topology.numPackages);
    jsonArray(d.pus);
    std::printf(",\"numaNodes\":");
    jsonArray(d.numaNodes);
    std::printf(",\"caches\":[");
    for (size_t i = 0; i < d.caches.size(); ++i)
      std::printf("%s{\"level\":%u,\"bytes\":%" PRIu64 ",\"instances\":%u,\"lineBytes\":%u,\"unified\":%s}",
                  i ? "," : "", d.caches[i].level, d.caches[i].bytesPerCache, d.caches[i].instances,
                  d.caches[i].lineBytes, d.caches[i].unified ? "true" : "false");
    std::printf("]");
  }
  std::printf(",\"memory\":[");
  for (size_t i = 0; i < d.memories.size(); ++i) {
    std::printf("%s{\"name\":", i ? "," : "");
    jsonString(d.memories[i].name);
    std::printf(",\"totalSize\":%" PRIu64 "}", d.memories[i].totalSize);
  }
  std::printf("],\"queueGroups\":[");
  for (size_t i = 0; i < d.queueGroups.size(); ++i)
    std::printf("%s{\"flags\":%u,\"numQueues\":%u,\"maxMemoryFillPatternSize\":%zu}", i ? "," : "",
                d.queueGroups[i].flags, d.queueGroups[i].numQueues,
                d.queueGroups[i].maxMemoryFillPatternSize);
  std::printf("],\"subDevices\":[");
  for (size_t i = 0; i < d.subDevices.size(); ++i) {
    if (i) std::printf(",");
    printDeviceJson(d.subDevices[i]);
  }
  std::printf("]}");
}

}  // namespace

bool gather(std::vector<DriverInfo>& drivers, std::string& error) {
  CHECK(zeInit(0));
  std::vector<ze_driver_handle_t> handles;
  if (!countQuery(handles, ze_driver_handle_t{}, [](uint32_t* n, auto* p) { return zeDriverGet(n, p); })) {
    error = "zeDriverGet failed";
    return false;
  }
  for (ze_driver_handle_t h : handles) {
    DriverInfo info;
    info.props.stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES;
    CHECK(zeDriverGetProperties(h, &info.props));
    CHECK(zeDriverGetApiVersion(h, &info.apiVersion));
    countQuery(info.extensions, ze_driver_extension_properties_t{},
               [&](uint32_t* n, auto* p) { return zeDriverGetExtensionProperties(h, n, p); });
    Extension ext;
    ext.topology = lookup<ze_pfnTesseraDeviceGetTopologyProperties_t>(h, "zeTesseraDeviceGetTopologyProperties");
    ext.pus = lookup<ze_pfnTesseraDeviceGetPus_t>(h, "zeTesseraDeviceGetPus");
    ext.numa = lookup<ze_pfnTesseraDeviceGetNumaNodes_t>(h, "zeTesseraDeviceGetNumaNodes");
    ext.caches = lookup<ze_pfnTesseraDeviceGetCaches_t>(h, "zeTesseraDeviceGetCaches");
    std::vector<ze_device_handle_t> devices;
    countQuery(devices, ze_device_handle_t{}, [&](uint32_t* n, auto* p) { return zeDeviceGet(h, n, p); });
    for (size_t i = 0; i < devices.size(); ++i) {
      info.devices.emplace_back();
      if (!gatherDevice(devices[i], std::to_string(i), ext, info.devices.back(), error)) return false;
    }
    drivers.push_back(std::move(info));
  }
  return true;
}

void printTree(const std::vector<DriverInfo>& drivers) {
  for (size_t i = 0; i < drivers.size(); ++i) {
    const DriverInfo& d = drivers[i];
    std::printf("Driver %zu: version 0x%x, Level Zero API %u.%u, uuid %s\n", i, d.props.driverVersion,
                ZE_MAJOR_VERSION(d.apiVersion), ZE_MINOR_VERSION(d.apiVersion),
                uuidText(d.props.uuid.id).c_str());
    std::string exts;
    for (const auto& e : d.extensions)
      exts += (exts.empty() ? "" : ", ") + std::string(e.name) + " " +
              std::to_string(ZE_MAJOR_VERSION(e.version)) + "." + std::to_string(ZE_MINOR_VERSION(e.version));
    std::printf("  extensions: %s\n", exts.empty() ? "(none)" : exts.c_str());
    std::printf("  %zu device%s\n", d.devices.size(), d.devices.size() == 1 ? "" : "s");
    for (const DeviceInfo& dev : d.devices) printDevice(dev, "  ", true, true);
  }
}

void printJson(const std::vector<DriverInfo>& drivers) {
  std::printf("{\"drivers\":[");
  for (size_t i = 0; i < drivers.size(); ++i) {
    const DriverInfo& d = drivers[i];
    std::printf("%s{\"driverVersion\":%u,\"apiVersion\":\"%u.%u\",\"uuid\":\"%s\",\"extensions\":[",
                i ? "," : "", d.props.driverVersion, ZE_MAJOR_VERSION(d.apiVersion),
                ZE_MINOR_VERSION(d.apiVersion), uuidText(d.props.uuid.id).c_str());
    for (size_t k = 0; k < d.extensions.size(); ++k) {
      std::printf("%s{\"name\":", k ? "," : "");
      jsonString(d.extensions[k].name);
      std::printf(",\"version\":%u}", d.extensions[k].version);
    }
    std::printf("],\"devices\":[");
    for (size_t k = 0; k < d.devices.size(); ++k) {
      if (k) std::printf(",");
      printDeviceJson(d.devices[k]);
    }
    std::printf("]}");
  }
  std::printf("]}\n");
}

}  // namespace tessera::info
