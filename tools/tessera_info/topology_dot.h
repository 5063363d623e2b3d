// tessera-info --dot / --svg: the machine as hwloc sees it (packages, NUMA nodes, caches, cores,
// PUs as nested clusters), with the driver's devices and sub-devices drawn over it.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "device_tree.h"

namespace tessera::info {

// Writes Graphviz DOT. The topology is loaded by hwloc as the driver loads it: the machine, or
// TESSERA_TOPOLOGY's synthetic description or XML file. False with a message on failure.
bool writeDot(const std::vector<DriverInfo>& drivers, std::FILE* out, std::string& error);

}  // namespace tessera::info
