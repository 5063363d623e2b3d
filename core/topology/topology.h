// The machine as hwloc sees it. This file and topology.cpp are the only places in core/ that use
// hwloc; everything else works on CpuSet and the plain structs below.
//
// Threading: a Topology is immutable after load(); every const method may be called from any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/topology/cpu_set.h"

namespace tessera::core {

// The levels the device tree is cut at, outermost first; then the cache levels only partitions
// (core/topology/partition.h) cut at, appended so that the first five keep their numbers
// (ze_tessera_device_level_t follows this enum).
enum class Level { Machine, Package, NumaNode, L3, L2, L4, L1 };
const char* levelName(Level level);

// Where the topology comes from: this machine, an hwloc synthetic description, or an XML file.
struct TopologySource {
  enum class Kind { Machine, Synthetic, Xml } kind = Kind::Machine;
  std::string value;  // the description or the path

  // TESSERA_TOPOLOGY's value: unset or empty is this machine, an existing file (or a value ending
  // in ".xml") is an XML file, anything else a synthetic description.
  static TopologySource fromString(const char* value);
  std::string describe() const;
};

struct TopologyError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct NumaNodeInfo {
  uint32_t osIndex = 0;
  uint32_t logicalIndex = 0;
  uint64_t bytes = 0;  // local memory
};

// One cache level among the caches a set of PUs uses (data or unified caches only).
struct CacheLevelInfo {
  uint32_t level = 0;          // 1 for L1d, 2 for L2, ...
  uint64_t bytesPerCache = 0;  // size of one cache of this level
  uint32_t lineBytes = 0;
  uint32_t instances = 0;      // caches of this level that serve the PUs
  bool unified = true;
};

// What a set of PUs spans.
struct Resources {
  uint32_t pus = 0;
  uint32_t cores = 0;
  uint32_t packages = 0;
  std::vector<NumaNodeInfo> numaNodes;
  std::vector<CacheLevelInfo> caches;  // by increasing level
};

// A part of a set of PUs cut out by one object of a level.
struct Part {
  CpuSet pus;
  uint32_t objectIndex = 0;  // hwloc's logical index of the object among its level
};

class Topology {
 public:
  // Throws TopologyError with hwloc's complaint when the source cannot be loaded.
  static std::unique_ptr<Topology> load(const TopologySource& source);
  ~Topology();
  Topology(const Topology&) = delete;
  Topology& operator=(const Topology&) = delete;

  const TopologySource& source() const { return source_; }
  // The PUs hwloc allows (the cgroup's cpuset).
  CpuSet allowedPus() const;
  // For this machine, the allowed PUs the process was bound to when the topology was loaded
  // (taskset, numactl, an MPI launcher's --bind-to: the union of its threads' affinity masks);
  // empty when that is all of them, when the binding leaves none, and for synthetic and XML
  // topologies (their PUs are not this machine's).
  CpuSet boundPus() const { return bound_; }
  // The non-empty intersections of `pus` with the objects of `level`, in hwloc's logical order.
  std::vector<Part> partsAt(Level level, const CpuSet& pus) const;
  Resources describe(const CpuSet& pus) const;
  // The PUs of `pus` (OS indices) in hwloc's logical order: hardware threads of a core, and cores
  // of a cache, next to each other.
  std::vector<uint32_t> logicalOrder(const CpuSet& pus) const;
  // Taken from the first package's hwloc info attributes; empty when hwloc does not know them
  // (synthetic topologies).
  std::string cpuModel() const;
  std::string cpuVendor() const;
  uint32_t cpuFamily() const;
  uint32_t cpuModelNumber() const;

  // Memory placement. Binds the pages of [addr, addr+bytes) to the NUMA nodes with these OS indices:
  // to the one node when there is one, interleaved across them when there are several. Only a
  // topology of this machine can bind (synthetic and XML nodes do not exist), so for the others this
  // does nothing and returns false. Returns false also when the kernel refuses.
  bool bindArea(void* addr, size_t bytes, const std::vector<uint32_t>& nodeOsIndices) const;
  // The NUMA nodes (OS indices) [addr, addr+bytes) is bound to and whether they are interleaved;
  // empty when the area follows the default policy. For tests and diagnostics.
  std::vector<uint32_t> areaBinding(const void* addr, size_t bytes, bool* interleaved) const;

 private:
  Topology(void* handle, TopologySource source) : topo_(handle), source_(std::move(source)) {}
  std::string packageInfo(const char* name) const;

  void* topo_;  // hwloc_topology_t, kept opaque so hwloc.h stays inside topology.cpp
  TopologySource source_;
  CpuSet bound_;  // boundPus(), read once by load()
};

}  // namespace tessera::core
