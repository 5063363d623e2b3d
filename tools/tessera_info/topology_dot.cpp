#include "topology_dot.h"

#include <hwloc.h>
#include <sys/stat.h>

#include <cinttypes>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>

#include "config/settings.h"
#include "core/topology/source_limits.h"

namespace tessera::info {
namespace {

// Fill colours of the devices, in the order they are drawn; a PU takes the colour of the deepest
// device that holds it.
const char* const kColors[] = {"#cfe2f3", "#d9ead3", "#fff2cc", "#f4cccc", "#d9d2e9",
                               "#fce5cd", "#d0e0e3", "#ead1dc", "#c9daf8", "#b6d7a8"};

std::string bytes(uint64_t b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  double v = double(b);
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  char out[32];
  std::snprintf(out, sizeof out, v == uint64_t(v) ? "%.0f %s" : "%.1f %s", v, units[u]);
  return out;
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

std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

// The cluster id of an hwloc object: "cluster_<kind>_<logical index>", the kinds the device tree's
// levels name (machine, package, numa, l1..l4), so a device finds the object it was cut at.
std::string kindOf(hwloc_obj_t o) {
  switch (o->type) {
    case HWLOC_OBJ_MACHINE: return "machine";
    case HWLOC_OBJ_PACKAGE: return "package";
    case HWLOC_OBJ_NUMANODE: return "numa";
    case HWLOC_OBJ_CORE: return "core";
    case HWLOC_OBJ_L1CACHE: return "l1";
    case HWLOC_OBJ_L2CACHE: return "l2";
    case HWLOC_OBJ_L3CACHE: return "l3";
    case HWLOC_OBJ_L4CACHE: return "l4";
    case HWLOC_OBJ_L5CACHE: return "l5";
    case HWLOC_OBJ_DIE: return "die";
    case HWLOC_OBJ_GROUP: return "group";
    default: return "";
  }
}

std::string kindOf(ze_tessera_device_level_t l) {
  switch (l) {
    case ZE_TESSERA_DEVICE_LEVEL_MACHINE: return "machine";
    case ZE_TESSERA_DEVICE_LEVEL_PACKAGE: return "package";
    case ZE_TESSERA_DEVICE_LEVEL_NUMA: return "numa";
    case ZE_TESSERA_DEVICE_LEVEL_L4: return "l4";
    case ZE_TESSERA_DEVICE_LEVEL_L3: return "l3";
    case ZE_TESSERA_DEVICE_LEVEL_L2: return "l2";
    case ZE_TESSERA_DEVICE_LEVEL_L1: return "l1";
    default: return "";
  }
}

struct Writer {
  std::FILE* out = nullptr;
  std::map<uint32_t, const char*> puColor;  // os index -> fill
  std::set<std::string> clusters;          // ids drawn
  std::map<std::string, std::string> anchor;  // cluster id -> a node inside it

  std::string objectLabel(hwloc_obj_t o) {
    char type[64];
    hwloc_obj_type_snprintf(type, sizeof type, o, 0);
    std::string label = std::string(type) + " #" + std::to_string(o->logical_index);
    if (hwloc_obj_type_is_cache(o->type)) label += " (" + bytes(o->attr->cache.size) + ")";
    return label;
  }

  // Returns a node id inside what it drew (for edges into clusters), or "" when it drew nothing.
  std::string object(hwloc_topology_t topo, hwloc_obj_t o, int depth) {
    std::string pad(2 * depth, ' ');
    if (o->type == HWLOC_OBJ_PU) {
      std::string id = "pu_" + std::to_string(o->os_index);
      auto c = puColor.find(o->os_index);
      std::fprintf(out, "%s%s [shape=box, style=filled, fillcolor=%s, label=\"PU %u\"];\n",
                   pad.c_str(), id.c_str(), quoted(c == puColor.end() ? "white" : c->second).c_str(),
                   o->os_index);
      return id;
    }
    // Instruction caches add nothing to the picture: their children are drawn in their place.
    bool skip = kindOf(o).empty() ||
                (hwloc_obj_type_is_cache(o->type) && o->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION);
    std::string id = skip ? "" : "cluster_" + kindOf(o) + "_" + std::to_string(o->logical_index);
    if (!skip) {
      clusters.insert(id);
      std::fprintf(out, "%ssubgraph %s {\n%s  label=%s; style=rounded; color=gray40;\n", pad.c_str(),
                   id.c_str(), pad.c_str(), quoted(objectLabel(o)).c_str());
    }
    std::string first;
    for (hwloc_obj_t m = o->memory_first_child; m; m = m->next_sibling) {
      if (m->type != HWLOC_OBJ_NUMANODE) continue;
      std::string nid = "numa_" + std::to_string(m->logical_index);
      std::fprintf(out, "%s  %s [shape=cylinder, style=filled, fillcolor=\"#eeeeee\", label=%s];\n",
                   pad.c_str(), nid.c_str(),
                   quoted("NUMA #" + std::to_string(m->logical_index) + "\n" +
                          bytes(m->attr->numanode.local_memory)).c_str());
      anchor["cluster_numa_" + std::to_string(m->logical_index)] = nid;
      if (first.empty()) first = nid;
    }
    for (hwloc_obj_t c = o->first_child; c; c = c->next_sibling) {
      std::string n = object(topo, c, depth + (skip ? 0 : 1));
      if (first.empty()) first = n;
    }
    if (!skip) {
      std::fprintf(out, "%s}\n", pad.c_str());
      anchor[id] = first;
    }
    return first;
  }

  int colorIndex = 0;
  void colorPus(const DeviceInfo& d) {
    const char* c = kColors[colorIndex++ % (sizeof kColors / sizeof *kColors)];
    for (uint32_t pu : d.pus) puColor[pu] = c;
    for (const DeviceInfo& s : d.subDevices) colorPus(s);
  }

  std::string deviceId(const std::string& path) {
    std::string id = "dev_" + path;
    for (char& c : id)
      if (c == '.') c = '_';
    return id;
  }

  int drawIndex = 0;
  void device(const DeviceInfo& d, const std::string& parent) {
    const char* c = kColors[drawIndex++ % (sizeof kColors / sizeof *kColors)];
    bool sub = d.props.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE;
    std::string label = std::string(sub ? "Sub-device " : "Device ") + d.path;
    if (d.hasTopology) {
      std::string kind = kindOf(d.topology.level);
      if (kind == "numa") kind = "NUMA node";
      else if (kind.size() == 2 && kind[0] == 'l') kind[0] = 'L';
      label += "\n" + kind + " #" + std::to_string(d.topology.objectIndex);
      label += "\nPUs " + listText(d.pus);
    }
    std::string id = deviceId(d.path);
    std::fprintf(out, "    %s [shape=component, style=filled, fillcolor=%s, label=%s];\n", id.c_str(),
                 quoted(c).c_str(), quoted(label).c_str());
    if (!parent.empty()) std::fprintf(out, "    %s -> %s;\n", parent.c_str(), id.c_str());
    for (const DeviceInfo& s : d.subDevices) device(s, id);
  }

  // Dashed edges from each device to the hwloc object it was cut at.
  void placements(const DeviceInfo& d) {
    if (d.hasTopology) {
      std::string cluster = "cluster_" + kindOf(d.topology.level) + "_" + std::to_string(d.topology.objectIndex);
      auto a = anchor.find(cluster);
      std::string id = deviceId(d.path);
      if (a != anchor.end() && !a->second.empty()) {
        std::fprintf(out, "  %s -> %s [style=dashed, color=gray30, constraint=false%s%s];\n", id.c_str(), a->second.c_str(),
                     clusters.count(cluster) ? ", lhead=" : "",
                     clusters.count(cluster) ? cluster.c_str() : "");
      } else if (!d.pus.empty()) {
        std::fprintf(out, "  %s -> pu_%u [style=dashed, color=gray30, constraint=false];\n", id.c_str(), d.pus.front());
      }
    }
    for (const DeviceInfo& s : d.subDevices) placements(s);
  }
};

hwloc_topology_t loadTopology(std::string& error) {
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0) {
    error = "hwloc_topology_init failed";
    return nullptr;
  }
  // The driver's rule (core/topology/topology.cpp): a file or a name ending in .xml is hwloc XML,
  // anything else a synthetic description. TESSERA_TOPOLOGY as the driver reads it
  // (config/settings.def; it has no warnings of its own).
  std::vector<std::string> warnings;
  const std::string source = tessera::config::var::topologyText.fromEnvironment(warnings);
  if (const char* src = source.c_str(); *src) {
    struct stat st;
    size_t n = std::strlen(src);
    bool xml = (stat(src, &st) == 0 && S_ISREG(st.st_mode)) || (n > 4 && std::strcmp(src + n - 4, ".xml") == 0);
    // And its bounds (core/topology/source_limits.h): the file read only if regular, sizes capped.
    std::string text, refused;
    if (xml)
      tessera::core::readXmlTopology(src, text, refused);
    else
      refused = tessera::core::checkSyntheticTopology(src);
    int rc = !refused.empty() ? -1
             : xml ? hwloc_topology_set_xmlbuffer(topo, text.c_str(), int(text.size() + 1))
                   : hwloc_topology_set_synthetic(topo, src);
    if (rc != 0) {
      // The driver warns and falls back to the machine; so does the picture.
      hwloc_topology_destroy(topo);
      hwloc_topology_init(&topo);
    }
  }
  hwloc_topology_set_cache_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_ALL);
  if (hwloc_topology_load(topo) != 0) {
    hwloc_topology_destroy(topo);
    error = "hwloc cannot load the topology";
    return nullptr;
  }
  return topo;
}

}  // namespace

bool writeDot(const std::vector<DriverInfo>& drivers, std::FILE* out, std::string& error) {
  hwloc_topology_t topo = loadTopology(error);
  if (!topo) return false;
  Writer w;
  w.out = out;
  for (const DriverInfo& d : drivers)
    for (const DeviceInfo& dev : d.devices) w.colorPus(dev);
  std::fprintf(out,
               "digraph tessera {\n"
               "  compound=true; rankdir=TB; newrank=true;\n"
               "  node [fontname=\"Helvetica\", fontsize=10];\n"
               "  graph [fontname=\"Helvetica\", fontsize=11];\n"
               "  label=\"Tessera: the machine as hwloc sees it, and the Level Zero devices over it\";\n"
               "  labelloc=t;\n");
  w.object(topo, hwloc_get_root_obj(topo), 1);
  for (size_t i = 0; i < drivers.size(); ++i) {
    std::fprintf(out, "  subgraph cluster_driver_%zu {\n    label=\"Driver %zu: devices\"; style=dashed;\n", i, i);
    for (const DeviceInfo& dev : drivers[i].devices) w.device(dev, "");
    std::fprintf(out, "  }\n");
    for (const DeviceInfo& dev : drivers[i].devices) w.placements(dev);
  }
  std::fprintf(out, "}\n");
  hwloc_topology_destroy(topo);
  return true;
}

}  // namespace tessera::info
