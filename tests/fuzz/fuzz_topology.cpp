// TESSERA_TOPOLOGY's reading (core/topology): TopologySource::fromString, Topology::load of a
// synthetic description (hwloc's parser), then the device tree and the descriptions the driver
// makes from it. Values naming a file are skipped: the fuzzer must not read arbitrary files.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/topology/device_tree.h"
#include "core/topology/source_limits.h"
#include "core/topology/topology.h"

using namespace tessera::core;

namespace {

// Topology::load itself refuses descriptions over the driver's bounds (core/topology/
// source_limits.h: 4,096 PUs, 16,384 objects), which a million PUs once stalled zeInit on; this
// target keeps its own, stricter filter so that every input stays fast under ASan.
// An upper bound of the PUs a synthetic description asks for: the product of the counts outside
// attribute parentheses and brackets. hwloc builds every object of a description it accepts, so
// "12 14 12 14 pu:2" (56448 PUs) takes gigabytes inside hwloc, and
// thousands of PUs take seconds per input under ASan: legal, and not what this target is after.
// Brackets that do not balance ("pa6[u:90552 pu:3") hide nothing: hwloc reads the counts after
// them (that input asks for 271,656 PUs and took over a minute), so then every number counts.
bool tooLarge(const std::string& value) {
  int balance = 0;
  bool balanced = true;
  for (char c : value) {
    if (c == '(' || c == '[') ++balance;
    if (c == ')' || c == ']') balanced = balanced && --balance >= 0;
  }
  balanced = balanced && balance == 0;
  double product = 1;
  int depth = 0;
  for (size_t i = 0; i < value.size(); ++i) {
    char c = value[i];
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if ((balanced && depth > 0) || c < '0' || c > '9') continue;
    double n = 0;
    while (i < value.size() && value[i] >= '0' && value[i] <= '9') n = n * 10 + (value[i++] - '0');
    --i;
    product *= n < 1 ? 1 : n;
  }
  return product > 256;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string value(reinterpret_cast<const char*>(data), size);
  // The driver's own sizing of both kinds of source, on every input.
  (void)checkSyntheticTopology(value);
  (void)checkXmlTopology(value);
  value = value.c_str();
  TopologySource source = TopologySource::fromString(value.c_str());
  (void)source.describe();
  if (source.kind != TopologySource::Kind::Synthetic || tooLarge(value)) return 0;
  std::unique_ptr<Topology> topo;
  try {
    topo = Topology::load(source);
  } catch (const TopologyError&) {
    return 0;
  }
  CpuSet all = topo->allowedPus();
  for (RootMode mode : {RootMode::Machine, RootMode::Package}) {
    auto tree = buildDeviceTree(*topo, mode);
    (void)tree;
  }
  (void)topo->logicalOrder(all);
  return 0;
}
