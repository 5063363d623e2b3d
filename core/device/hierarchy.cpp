#include "core/device/hierarchy.h"

#include <algorithm>

namespace tessera::core {
namespace {

struct Marked {
  const DeviceTreeNode* node;
  bool selected = false;
  std::vector<Marked> children;
};

Marked mark(const DeviceTreeNode& n) {
  Marked m{&n, false, {}};
  for (const DeviceTreeNode& c : n.children) m.children.push_back(mark(c));
  return m;
}

void collectLeaves(std::vector<Marked>& nodes, std::vector<Marked*>& out) {
  for (Marked& m : nodes) {
    if (m.children.empty()) out.push_back(&m);
    else collectLeaves(m.children, out);
  }
}

std::string pathText(const std::vector<uint32_t>& path) {
  std::string s;
  for (uint32_t v : path) s += (s.empty() ? "" : ".") + std::to_string(v);
  return s;
}

ExposedNode whole(const DeviceTreeNode& n) {
  ExposedNode e{n.level, n.objectIndex, n.pus, {}};
  for (const DeviceTreeNode& c : n.children) e.children.push_back(whole(c));
  return e;
}

// The exposed form of a marked subtree, or nullopt when nothing below it is selected.
std::optional<ExposedNode> prune(const Marked& m) {
  if (m.selected) return whole(*m.node);
  std::vector<ExposedNode> kept;
  for (const Marked& c : m.children)
    if (auto e = prune(c)) kept.push_back(std::move(*e));
  if (kept.empty()) return std::nullopt;
  if (kept.size() == 1) return std::move(kept.front());
  ExposedNode e{m.node->level, m.node->objectIndex, {}, std::move(kept)};
  for (const ExposedNode& c : e.children) e.pus = e.pus | c.pus;
  return e;
}

void listLeaves(const std::vector<ExposedNode>& nodes, std::vector<uint32_t>& path,
                std::vector<std::vector<uint32_t>>& out) {
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    path.push_back(i);
    if (nodes[i].children.empty()) out.push_back(path);
    else listLeaves(nodes[i].children, path, out);
    path.pop_back();
  }
}

}  // namespace

const char* hierarchyModeName(HierarchyMode mode) {
  switch (mode) {
    case HierarchyMode::Composite: return "COMPOSITE";
    case HierarchyMode::Flat: return "FLAT";
    case HierarchyMode::Combined: return "COMBINED";
  }
  return "?";
}

HierarchyMode parseHierarchyMode(const char* value, std::vector<std::string>& warnings) {
  return config::var::hierarchy.read(value, warnings);
}

RootMode parseRootMode(const char* value, std::vector<std::string>& warnings) {
  return config::var::rootMode.read(value, warnings);
}

std::optional<AffinityMask> parseAffinityMask(const char* value, std::vector<std::string>& warnings) {
  return config::var::affinityMask.read(value, warnings);
}

DeviceView exposeDevices(const std::vector<DeviceTreeNode>& tree, HierarchyMode mode,
                         const std::optional<AffinityMask>& mask,
                         std::vector<std::string>& warnings) {
  std::vector<Marked> marked;
  for (const DeviceTreeNode& r : tree) marked.push_back(mark(r));

  if (!mask) {
    for (Marked& m : marked) m.selected = true;
  } else if (mode == HierarchyMode::Composite) {
    // Entries are ordinals of root devices, then of sub-devices within them, and so on.
    for (const auto& path : mask->entries) {
      std::vector<Marked>* level = &marked;
      Marked* node = nullptr;
      for (uint32_t ordinal : path) {
        if (!level || ordinal >= level->size()) { node = nullptr; break; }
        node = &(*level)[ordinal];
        level = &node->children;
      }
      if (node) node->selected = true;
      else warnings.push_back("ZE_AFFINITY_MASK entry " + pathText(path) + " names no device; ignored");
    }
  } else {
    // FLAT and COMBINED: entries are ordinals among the devices zeDeviceGet reports, the leaves.
    std::vector<Marked*> leaves;
    collectLeaves(marked, leaves);
    for (const auto& path : mask->entries) {
      if (path.size() == 1 && path[0] < leaves.size()) {
        leaves[path[0]]->selected = true;
        continue;
      }
      warnings.push_back("ZE_AFFINITY_MASK entry " + pathText(path) +
                         (path.size() > 1 ? " is not valid with ZE_FLAT_DEVICE_HIERARCHY="
                                          + std::string(hierarchyModeName(mode))
                                          : " names no device") + "; ignored");
    }
  }

  DeviceView view;
  view.mode = mode;
  for (const Marked& m : marked)
    if (auto e = prune(m)) view.roots.push_back(std::move(*e));
  if (mode == HierarchyMode::Composite) {
    for (uint32_t i = 0; i < view.roots.size(); ++i) view.listed.push_back({i});
  } else {
    std::vector<uint32_t> path;
    listLeaves(view.roots, path, view.listed);
  }
  if (view.listed.empty()) warnings.push_back("ZE_AFFINITY_MASK selects no device");
  return view;
}

}  // namespace tessera::core
