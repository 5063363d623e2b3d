// Bounds on what a TESSERA_TOPOLOGY value may ask hwloc (and then the device tree) to build. hwloc
// builds every object a synthetic description or an XML file names, each with bitmaps as wide as
// the machine, and its XML reader recurses once per nesting level: "pack:1000 core:1000 pu:1" (a
// million PUs) takes minutes and gigabytes inside zeInit, and an XML nested 5,000 deep exhausts
// the stack. A value over these bounds is refused before hwloc sees it; the driver then warns and
// uses this machine (core/driver/driver.cpp). The machine's own topology is never bounded.
//
// No hwloc here: tessera-info (tools/) compiles this file too, so that its picture follows the
// driver's rule.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tessera::core {

// Measured on this project's 2-core CI machine: 4,096 PUs over six levels take about 9 s from zeInit
// to the device tree; 8,192 take a minute (the device tree's cost grows with objects x PUs).
constexpr uint64_t kMaxTopologyPus = 4096;
constexpr uint64_t kMaxTopologyObjects = 16384;  // every object hwloc would create, PUs included
constexpr uint32_t kMaxTopologyXmlDepth = 128;   // element nesting (hwloc's synthetic levels: 128)
constexpr uint64_t kMaxTopologyXmlBytes = uint64_t(64) << 20;

// Empty when a synthetic description is within the bounds (or is not one hwloc would accept, so
// hwloc may say why); otherwise why it is refused. Follows hwloc's reading of the description
// (hwloc 2's topology-synthetic.c: each level is "[type:]count[(attributes)]", "[numa...]" an
// attached memory object, counts read by strtoul in any base), with saturating arithmetic.
std::string checkSyntheticTopology(std::string_view description);

// Empty when hwloc XML text is within the bounds; otherwise why it is refused. Counts <object>
// elements (and those of type "PU") and the deepest element nesting, without parsing attributes
// beyond that.
std::string checkXmlTopology(std::string_view xml);

// The XML file's text, read only if it is a regular file (a FIFO or a device never blocks: see
// support/safe_file.h) of at most kMaxTopologyXmlBytes and within the bounds above; false with the
// reason in `why` otherwise.
bool readXmlTopology(const std::string& path, std::string& xml, std::string& why);

}  // namespace tessera::core
