#include "core/device/hierarchy.h"

#include <algorithm>
#include <cctype>
#include <strings.h>

namespace tessera::core {
namespace {

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

// "12" or "1.2.3"; nullopt when the text is not that.
std::optional<std::vector<uint32_t>> parsePath(const std::string& text) {
  constexpr uint32_t kMaxOrdinal = 1u << 20;
  std::vector<uint32_t> path;
  size_t i = 0;
  while (true) {
    size_t start = i;
    uint64_t v = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      v = v * 10 + static_cast<uint64_t>(text[i] - '0');
      if (v > kMaxOrdinal) return std::nullopt;
      ++i;
    }
    if (i == start) return std::nullopt;
    path.push_back(static_cast<uint32_t>(v));
    if (i == text.size()) return path;
    if (text[i] != '.') return std::nullopt;
    ++i;
  }
}

struct Marked {
  const PartitionNode* node;
  bool selected = false;
  std::vector<Marked> children;
};

Marked mark(const PartitionNode& n) {
  Marked m{&n, false, {}};
  for (const PartitionNode& c : n.children) m.children.push_back(mark(c));
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

ExposedNode whole(const PartitionNode& n) {
  ExposedNode e{n.level, n.objectIndex, n.pus, {}};
  for (const PartitionNode& c : n.children) e.children.push_back(whole(c));
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
  std::string v = trim(value ? value : "");
  if (v.empty() || strcasecmp(v.c_str(), "COMPOSITE") == 0) return HierarchyMode::Composite;
  if (strcasecmp(v.c_str(), "FLAT") == 0) return HierarchyMode::Flat;
  if (strcasecmp(v.c_str(), "COMBINED") == 0) return HierarchyMode::Combined;
  warnings.push_back("ZE_FLAT_DEVICE_HIERARCHY=\"" + v +
                     "\" is not COMPOSITE, FLAT or COMBINED; using COMPOSITE");
  return HierarchyMode::Composite;
}

RootMode parseRootMode(const char* value, std::vector<std::string>& warnings) {
  std::string v = trim(value ? value : "");
  if (v.empty() || strcasecmp(v.c_str(), "machine") == 0) return RootMode::Machine;
  if (strcasecmp(v.c_str(), "package") == 0) return RootMode::Package;
  warnings.push_back("TESSERA_ROOT_DEVICE=\"" + v + "\" is not machine or package; using machine");
  return RootMode::Machine;
}

std::optional<AffinityMask> parseAffinityMask(const char* value, std::vector<std::string>& warnings) {
  std::string v = trim(value ? value : "");
  if (v.empty()) return std::nullopt;
  AffinityMask mask;
  size_t start = 0;
  while (start <= v.size()) {
    size_t comma = v.find(',', start);
    if (comma == std::string::npos) comma = v.size();
    std::string entry = trim(std::string_view(v).substr(start, comma - start));
    auto path = parsePath(entry);
    if (!path) {
      warnings.push_back("ZE_AFFINITY_MASK=\"" + v + "\" is malformed at \"" + entry +
                         "\" (expected a comma-separated list such as 0,1.2); ignoring it and "
                         "reporting every device");
      return std::nullopt;
    }
    mask.entries.push_back(std::move(*path));
    start = comma + 1;
  }
  return mask;
}

DeviceView exposeDevices(const std::vector<PartitionNode>& tree, HierarchyMode mode,
                         const std::optional<AffinityMask>& mask,
                         std::vector<std::string>& warnings) {
  std::vector<Marked> marked;
  for (const PartitionNode& r : tree) marked.push_back(mark(r));

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
