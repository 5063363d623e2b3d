#include "cl_shim/partition_dump.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "cl_shim/device.h"
#include "support/safe_file.h"

namespace tessera::cl {
namespace {

struct Entry {
  int parent;  // index of the parent's entry, -1 for a root device
  std::string name;
  std::string style;  // how it was cut from its parent
  std::string pus;
  std::string level;
};

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

const char* domainText(ze_tessera_affinity_domain_t d) {
  switch (d) {
    case ZE_TESSERA_AFFINITY_DOMAIN_NUMA: return "NUMA";
    case ZE_TESSERA_AFFINITY_DOMAIN_L4_CACHE: return "L4 cache";
    case ZE_TESSERA_AFFINITY_DOMAIN_L3_CACHE: return "L3 cache";
    case ZE_TESSERA_AFFINITY_DOMAIN_L2_CACHE: return "L2 cache";
    case ZE_TESSERA_AFFINITY_DOMAIN_L1_CACHE: return "L1 cache";
    case ZE_TESSERA_AFFINITY_DOMAIN_NEXT_PARTITIONABLE: return "next partitionable";
    default: return "?";
  }
}

std::string styleText(const PartitionStyle& s) {
  switch (s.scheme) {
    case ZE_TESSERA_PARTITION_SCHEME_EQUALLY:
      return "EQUALLY " + std::to_string(s.unitsPerDevice);
    case ZE_TESSERA_PARTITION_SCHEME_BY_COUNTS: return "BY_COUNTS " + listText(s.values);
    case ZE_TESSERA_PARTITION_SCHEME_BY_NAMES:
      return std::string(s.intelNames ? "BY_NAMES_INTEL " : "BY_NAMES ") + listText(s.values);
    case ZE_TESSERA_PARTITION_SCHEME_BY_AFFINITY_DOMAIN:
      return std::string("BY_AFFINITY_DOMAIN ") + domainText(s.domain);
    default: return "";
  }
}

std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    if (c == '\n') {
      q += "\\n";
      continue;
    }
    q += c;
  }
  return q + "\"";
}

struct Dump {
  std::string path;
  std::mutex mutex;
  std::vector<Entry> entries;
  std::map<const Device*, int> index;  // the latest entry of each live address

  ~Dump() {
    if (path.empty()) return;
    // A fresh temporary file renamed into place (support/safe_file.h): a FIFO or a link at the
    // name never blocks the exit or redirects the write.
    support::ReplacingFile out(path);
    std::string why;
    std::FILE* f = out.open(why);
    if (!f) {
      std::fprintf(stderr, "tessera: warning: cannot write %s: %s\n", path.c_str(), why.c_str());
      return;
    }
    std::lock_guard lock(mutex);
    std::fprintf(f, "digraph tessera_opencl_partitions {\n"
                    "  rankdir=TB;\n  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", "
                    "fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9];\n"
                    "  label=\"OpenCL devices of this process (Tessera)\"; labelloc=t;\n");
    for (size_t i = 0; i < entries.size(); ++i) {
      const Entry& e = entries[i];
      std::string label = std::string(e.parent < 0 ? "root device\n" : "sub-device\n") + e.name +
                          "\n" + e.level + "\nPUs " + e.pus;
      std::fprintf(f, "  cl_device_%zu [fillcolor=%s, label=%s];\n", i,
                   e.parent < 0 ? "\"#cfe2f3\"" : "\"#d9ead3\"", quoted(label).c_str());
      if (e.parent >= 0)
        std::fprintf(f, "  cl_device_%d -> cl_device_%zu [label=%s];\n", e.parent, i,
                     quoted(e.style).c_str());
    }
    std::fprintf(f, "}\n");
    if (!out.commit(why))
      std::fprintf(stderr, "tessera: warning: cannot write %s: %s\n", path.c_str(), why.c_str());
  }
};

Dump& dump() {
  static Dump d;
  return d;
}

}  // namespace

void startPartitionDump(const std::string& path) {
  Dump& d = dump();
  std::lock_guard lock(d.mutex);
  d.path = path;
}

void recordDeviceForDump(const Device& device) {
  Dump& d = dump();
  if (d.path.empty()) return;
  Entry e;
  e.name = device.zeProperties().name;
  e.pus = listText(device.pus());
  e.style = styleText(device.style());
  std::lock_guard lock(d.mutex);
  auto p = device.parent() ? d.index.find(device.parent()) : d.index.end();
  e.parent = p == d.index.end() ? -1 : p->second;
  e.level = std::to_string(device.computeUnits()) + " compute unit" + (device.computeUnits() == 1 ? "" : "s");
  d.index[&device] = static_cast<int>(d.entries.size());
  d.entries.push_back(std::move(e));
}

}  // namespace tessera::cl
