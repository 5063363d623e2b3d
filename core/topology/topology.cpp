#include "core/topology/topology.h"

#include <hwloc.h>
#include <sys/stat.h>

#include <algorithm>

#include "core/topology/source_limits.h"

namespace tessera::core {
namespace {

hwloc_topology_t H(void* p) { return static_cast<hwloc_topology_t>(p); }

CpuSet fromBitmap(hwloc_const_bitmap_t bitmap) {
  CpuSet out;
  if (!bitmap) return out;
  int pu;
  hwloc_bitmap_foreach_begin(pu, bitmap) { out.add(static_cast<uint32_t>(pu)); }
  hwloc_bitmap_foreach_end();
  return out;
}

hwloc_obj_type_t objectType(Level level) {
  switch (level) {
    case Level::Machine: return HWLOC_OBJ_MACHINE;
    case Level::Package: return HWLOC_OBJ_PACKAGE;
    case Level::NumaNode: return HWLOC_OBJ_NUMANODE;
    case Level::L3: return HWLOC_OBJ_L3CACHE;
    case Level::L2: return HWLOC_OBJ_L2CACHE;
    case Level::L4: return HWLOC_OBJ_L4CACHE;
    case Level::L1: return HWLOC_OBJ_L1CACHE;
  }
  return HWLOC_OBJ_MACHINE;
}

template <typename F>
void forEachObject(hwloc_topology_t topo, hwloc_obj_type_t type, F&& f) {
  int n = hwloc_get_nbobjs_by_type(topo, type);
  for (int i = 0; i < n; ++i) f(hwloc_get_obj_by_type(topo, type, static_cast<unsigned>(i)));
}

// The PUs the process is bound to now: the union of its threads' masks (hwloc reads every task's
// on Linux). Empty when the system does not say.
CpuSet processBinding(hwloc_topology_t topo) {
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  CpuSet out;
  if (set && hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0) out = fromBitmap(set);
  hwloc_bitmap_free(set);
  return out;
}

}  // namespace

const char* levelName(Level level) {
  switch (level) {
    case Level::Machine: return "machine";
    case Level::Package: return "package";
    case Level::NumaNode: return "numa";
    case Level::L3: return "l3";
    case Level::L2: return "l2";
    case Level::L4: return "l4";
    case Level::L1: return "l1";
  }
  return "?";
}

TopologySource TopologySource::fromString(const char* value) {
  TopologySource s;
  if (!value || !*value) return s;
  s.value = value;
  struct stat st;
  bool isFile = stat(value, &st) == 0 && S_ISREG(st.st_mode);
  bool looksXml = s.value.size() > 4 && s.value.compare(s.value.size() - 4, 4, ".xml") == 0;
  s.kind = (isFile || looksXml) ? Kind::Xml : Kind::Synthetic;
  return s;
}

std::string TopologySource::describe() const {
  switch (kind) {
    case Kind::Machine: return "this machine";
    case Kind::Synthetic: return "synthetic \"" + value + "\"";
    case Kind::Xml: return "xml " + value;
  }
  return {};
}

std::unique_ptr<Topology> Topology::load(const TopologySource& source) {
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0) throw TopologyError("hwloc_topology_init failed");
  int rc = 0;
  // What hwloc is asked to build is bounded (source_limits.h), and the XML file is read here, only
  // if it is a regular file, never by hwloc from a path (a FIFO there would block zeInit).
  std::string refused, xml;
  if (source.kind == TopologySource::Kind::Synthetic)
    refused = checkSyntheticTopology(source.value);
  else if (source.kind == TopologySource::Kind::Xml)
    readXmlTopology(source.value, xml, refused);
  if (!refused.empty()) {
    hwloc_topology_destroy(topo);
    throw TopologyError(source.describe() + " refused: " + refused);
  }
  // Synthetic and XML sources are set on this topology object only: the global HWLOC_SYNTHETIC
  // variable would also make hwloc believe the process runs elsewhere and disable thread binding.
  if (source.kind == TopologySource::Kind::Synthetic)
    rc = hwloc_topology_set_synthetic(topo, source.value.c_str());
  else if (source.kind == TopologySource::Kind::Xml)  // the size counts the terminating NUL
    rc = hwloc_topology_set_xmlbuffer(topo, xml.c_str(), int(xml.size() + 1));
  if (rc != 0) {
    hwloc_topology_destroy(topo);
    throw TopologyError("hwloc cannot read " + source.describe());
  }
  // Caches are all we look at below the package besides cores; keep the defaults otherwise.
  hwloc_topology_set_cache_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_ALL);
  if (hwloc_topology_load(topo) != 0) {
    hwloc_topology_destroy(topo);
    throw TopologyError("hwloc cannot load " + source.describe());
  }
  auto t = std::unique_ptr<Topology>(new Topology(topo, source));
  CpuSet allowed = t->allowedPus();
  if (allowed.empty()) throw TopologyError(source.describe() + " has no usable PU");
  if (source.kind == TopologySource::Kind::Machine) {
    CpuSet bound = processBinding(topo) & allowed;
    if (bound != allowed) t->bound_ = bound;
  }
  return t;
}

Topology::~Topology() { hwloc_topology_destroy(H(topo_)); }

CpuSet Topology::allowedPus() const {
  return fromBitmap(hwloc_topology_get_allowed_cpuset(H(topo_))) &
         fromBitmap(hwloc_get_root_obj(H(topo_))->cpuset);
}

std::vector<Part> Topology::partsAt(Level level, const CpuSet& pus) const {
  std::vector<Part> parts;
  forEachObject(H(topo_), objectType(level), [&](hwloc_obj_t obj) {
    // Cache levels count data and unified caches (hwloc types L1i apart; this is for safety).
    if (hwloc_obj_type_is_cache(obj->type) && obj->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION)
      return;
    CpuSet part = fromBitmap(obj->cpuset) & pus;
    if (!part.empty()) parts.push_back({part, obj->logical_index});
  });
  return parts;
}

Resources Topology::describe(const CpuSet& pus) const {
  hwloc_topology_t topo = H(topo_);
  Resources r;
  r.pus = pus.count();
  auto countIntersecting = [&](hwloc_obj_type_t type) {
    uint32_t n = 0;
    forEachObject(topo, type, [&](hwloc_obj_t o) { n += fromBitmap(o->cpuset).intersects(pus); });
    return n;
  };
  r.cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE) > 0 ? countIntersecting(HWLOC_OBJ_CORE)
                                                                 : r.pus;
  r.packages = std::max(1u, countIntersecting(HWLOC_OBJ_PACKAGE));
  forEachObject(topo, HWLOC_OBJ_NUMANODE, [&](hwloc_obj_t o) {
    if (fromBitmap(o->cpuset).intersects(pus))
      r.numaNodes.push_back({o->os_index, o->logical_index, o->attr->numanode.local_memory});
  });
  for (int t = HWLOC_OBJ_L1CACHE; t <= HWLOC_OBJ_L5CACHE; ++t) {
    CacheLevelInfo c;
    forEachObject(topo, static_cast<hwloc_obj_type_t>(t), [&](hwloc_obj_t o) {
      if (o->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION) return;
      if (!fromBitmap(o->cpuset).intersects(pus)) return;
      c.level = o->attr->cache.depth;
      c.bytesPerCache = std::max<uint64_t>(c.bytesPerCache, o->attr->cache.size);
      c.lineBytes = std::max<uint32_t>(c.lineBytes, o->attr->cache.linesize);
      c.unified = o->attr->cache.type == HWLOC_OBJ_CACHE_UNIFIED;
      ++c.instances;
    });
    if (c.instances) r.caches.push_back(c);
  }
  return r;
}

std::vector<uint32_t> Topology::logicalOrder(const CpuSet& pus) const {
  std::vector<uint32_t> out;
  forEachObject(H(topo_), HWLOC_OBJ_PU, [&](hwloc_obj_t pu) {
    if (pus.contains(pu->os_index)) out.push_back(pu->os_index);
  });
  return out;
}

std::string Topology::packageInfo(const char* name) const {
  hwloc_obj_t pkg = hwloc_get_obj_by_type(H(topo_), HWLOC_OBJ_PACKAGE, 0);
  const char* v = pkg ? hwloc_obj_get_info_by_name(pkg, name) : nullptr;
  return v ? v : "";
}

std::string Topology::cpuModel() const { return packageInfo("CPUModel"); }
std::string Topology::cpuVendor() const { return packageInfo("CPUVendor"); }
uint32_t Topology::cpuFamily() const {
  return static_cast<uint32_t>(std::strtoul(packageInfo("CPUFamilyNumber").c_str(), nullptr, 10));
}
uint32_t Topology::cpuModelNumber() const {
  return static_cast<uint32_t>(std::strtoul(packageInfo("CPUModelNumber").c_str(), nullptr, 10));
}

bool Topology::bindArea(void* addr, size_t bytes,
                        const std::vector<uint32_t>& nodeOsIndices) const {
  if (source_.kind != TopologySource::Kind::Machine || nodeOsIndices.empty()) return false;
  hwloc_bitmap_t nodes = hwloc_bitmap_alloc();
  for (uint32_t n : nodeOsIndices) hwloc_bitmap_set(nodes, n);
  // STRICT: fail rather than silently place the pages elsewhere; MIGRATE is not asked for, the
  // area is fresh.
  hwloc_membind_policy_t policy =
      nodeOsIndices.size() == 1 ? HWLOC_MEMBIND_BIND : HWLOC_MEMBIND_INTERLEAVE;
  int rc = hwloc_set_area_membind(H(topo_), addr, bytes, nodes, policy,
                                  HWLOC_MEMBIND_BYNODESET | HWLOC_MEMBIND_STRICT);
  hwloc_bitmap_free(nodes);
  return rc == 0;
}

std::vector<uint32_t> Topology::areaBinding(const void* addr, size_t bytes,
                                            bool* interleaved) const {
  std::vector<uint32_t> out;
  hwloc_bitmap_t nodes = hwloc_bitmap_alloc();
  hwloc_membind_policy_t policy = HWLOC_MEMBIND_DEFAULT;
  if (hwloc_get_area_membind(H(topo_), addr, bytes, nodes, &policy, HWLOC_MEMBIND_BYNODESET) == 0 &&
      (policy == HWLOC_MEMBIND_BIND || policy == HWLOC_MEMBIND_INTERLEAVE)) {
    int n;
    hwloc_bitmap_foreach_begin(n, nodes) { out.push_back(static_cast<uint32_t>(n)); }
    hwloc_bitmap_foreach_end();
  }
  if (interleaved) *interleaved = policy == HWLOC_MEMBIND_INTERLEAVE;
  hwloc_bitmap_free(nodes);
  return out;
}

}  // namespace tessera::core
