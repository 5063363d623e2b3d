// Which devices an application sees: the Core Programming Guide's "Device Hierarchy" and "Affinity
// Mask" sections applied to the fixed device tree.
//
//   COMPOSITE: "zeDeviceGet returns all the devices that do not have a root-device."
//   FLAT:      "zeDeviceGet returns all the devices that do not have sub-devices. Traversing the
//               device hierarchy is not possible."
//   COMBINED:  "zeDeviceGet returns all the devices that do not have sub-devices. Traversing the
//               device hierarchy is possible."
//   "a Level Zero driver shall read first ZE_FLAT_DEVICE_HIERARCHY to determine the device handles to
//   be used by the application and then interpret the values passed in ZE_AFFINITY_MASK based on the
//   device model selected."
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/topology/device_tree.h"

namespace tessera::core {

// ZE_FLAT_DEVICE_HIERARCHY's models, declared with the variable (config/settings.def).
using HierarchyMode = config::HierarchyMode;
const char* hierarchyModeName(HierarchyMode mode);

// A parsed ZE_AFFINITY_MASK: each entry is a path of ordinals ("1.2" is {1, 2}).
using AffinityMask = config::AffinityMask;

// The variables' values read by their rules in config/settings.def (the driver reads them all at
// once, config::DriverSettings). A value a rule cannot read adds a line to `warnings` and gives the
// default: an unknown ZE_FLAT_DEVICE_HIERARCHY is COMPOSITE, an unknown TESSERA_ROOT_DEVICE is
// machine, and a ZE_AFFINITY_MASK that is not a comma-separated list of dotted ordinals is ignored as
// a whole (every device is reported), so a typo never hides all devices. An unset or blank mask is
// no mask.
HierarchyMode parseHierarchyMode(const char* value, std::vector<std::string>& warnings);
RootMode parseRootMode(const char* value, std::vector<std::string>& warnings);
std::optional<AffinityMask> parseAffinityMask(const char* value, std::vector<std::string>& warnings);

// A device as the application sees it: a part of the fixed tree, trimmed to what the mask selects.
struct ExposedNode {
  Level level = Level::Machine;  // of the partition node it stands for
  uint32_t objectIndex = 0;
  CpuSet pus;                    // the union of its exposed children's PUs when the mask trims it
  std::vector<ExposedNode> children;
};

struct DeviceView {
  // The exposed tree. In FLAT mode it is only used for its leaves.
  std::vector<ExposedNode> roots;
  // What zeDeviceGet returns, as paths into `roots` (index of the root, then of each child).
  std::vector<std::vector<uint32_t>> listed;
  HierarchyMode mode = HierarchyMode::Composite;
};

// Applies the mode and the mask to the fixed tree. Well-formed entries that name no device (an
// ordinal out of range, or a dotted entry in FLAT/COMBINED, which the guide calls "not valid") are
// dropped with a warning. A device left with a single exposed sub-device is replaced by that
// sub-device ("A root-device may not contain a single sub-device"), which is how the guide's
// ZE_AFFINITY_MASK=0.0 reports tile 0 as device handle 0.
DeviceView exposeDevices(const std::vector<DeviceTreeNode>& tree, HierarchyMode mode,
                         const std::optional<AffinityMask>& mask,
                         std::vector<std::string>& warnings);

}  // namespace tessera::core
