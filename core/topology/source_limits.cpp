#include "core/topology/source_limits.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "support/safe_file.h"

namespace tessera::core {
namespace {

constexpr uint64_t kSaturated = UINT64_MAX;

uint64_t mulSat(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? kSaturated : r;
}
uint64_t addSat(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_add_overflow(a, b, &r) ? kSaturated : r;
}

struct Size {
  uint64_t pus = 1;
  uint64_t objects = 1;  // the machine
};

// hwloc's own walk over the description; false when hwloc would refuse it anyway.
bool sizeAsHwloc(const std::string& text, Size& size) {
  const char* pos = text.c_str();
  if (*pos == '(') {  // attributes of the machine
    pos = std::strchr(pos, ')');
    if (!pos) return false;
    ++pos;
  }
  uint64_t width = 1;
  unsigned levels = 0;
  while (*pos) {
    while (*pos == ' ' || *pos == '\n') ++pos;
    if (!*pos) break;
    if (*pos == '[') {  // a NUMA node attached to each object of the level above
      pos = std::strchr(pos, ']');
      if (!pos) return false;
      ++pos;
      size.objects = addSat(size.objects, width);
      continue;
    }
    if (*pos < '0' || *pos > '9') {  // "type:" (hwloc looks for the next ':' wherever it is)
      pos = std::strchr(pos, ':');
      if (!pos) return false;
      ++pos;
    }
    char* end = nullptr;
    errno = 0;
    unsigned long long count = std::strtoull(pos, &end, 0);
    if (end == pos || count == 0) return false;
    if (errno == ERANGE) count = kSaturated;
    width = mulSat(width, count);
    size.objects = addSat(size.objects, width);
    pos = end;
    if (*pos == '(') {
      pos = std::strchr(pos, ')');
      if (!pos) return false;
      ++pos;
    }
    if (++levels >= 128) return false;
  }
  if (levels == 0) return false;
  size.pus = width;
  return true;
}

// For text hwloc's walk above does not accept: the product of every count-like number (digits not
// part of a type name such as "l3"), an upper bound whatever hwloc makes of it.
Size sizeUpperBound(const std::string& text) {
  Size size;
  uint64_t product = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') continue;
    bool typeDigit = i > 0 && std::isalpha(static_cast<unsigned char>(text[i - 1]));
    uint64_t n = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9')
      n = addSat(mulSat(n, 10), uint64_t(text[i++] - '0'));
    --i;
    if (!typeDigit && n > 1) product = mulSat(product, n);
  }
  size.pus = product;
  size.objects = product;
  return size;
}

std::string overBounds(uint64_t pus, uint64_t objects) {
  auto count = [](uint64_t n) {
    return n == kSaturated ? std::string("more than 2^64") : std::to_string(n);
  };
  if (pus > kMaxTopologyPus)
    return "asks for " + count(pus) + " PUs (at most " + std::to_string(kMaxTopologyPus) + ")";
  if (objects > kMaxTopologyObjects)
    return "asks for " + count(objects) + " objects (at most " +
           std::to_string(kMaxTopologyObjects) + ")";
  return {};
}

bool startsWith(std::string_view text, size_t at, std::string_view prefix) {
  return text.compare(at, prefix.size(), prefix) == 0;
}

}  // namespace

std::string checkSyntheticTopology(std::string_view description) {
  std::string text(description);
  text = text.c_str();  // hwloc reads up to the first NUL
  Size size;
  if (!sizeAsHwloc(text, size)) size = sizeUpperBound(text);
  return overBounds(size.pus, size.objects);
}

std::string checkXmlTopology(std::string_view xml) {
  uint64_t objects = 0, pus = 0;
  uint32_t depth = 0, deepest = 0;
  size_t at = 0;
  auto skipPast = [&](std::string_view end) {
    size_t found = xml.find(end, at);
    at = found == std::string_view::npos ? xml.size() : found + end.size();
  };
  while ((at = xml.find('<', at)) != std::string_view::npos) {
    if (startsWith(xml, at, "<!--")) {
      skipPast("-->");
    } else if (startsWith(xml, at, "<![CDATA[")) {
      skipPast("]]>");
    } else if (startsWith(xml, at, "<?")) {
      skipPast("?>");
    } else if (startsWith(xml, at, "<!")) {
      skipPast(">");
    } else if (startsWith(xml, at, "</")) {
      depth = depth ? depth - 1 : 0;
      skipPast(">");
    } else {
      // An element: its name, then attributes up to '>' (quoted values may hold '>').
      size_t begin = at + 1, end = begin;
      while (end < xml.size() && !std::strchr(" \t\r\n/>", xml[end])) ++end;
      std::string_view name = xml.substr(begin, end - begin);
      char quote = 0;
      size_t close = end;
      for (; close < xml.size(); ++close) {
        char c = xml[close];
        if (quote) {
          if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '>') {
          break;
        }
      }
      std::string_view tag = xml.substr(at, close - at);
      if (name == "object") {
        ++objects;
        if (tag.find("type=\"PU\"") != std::string_view::npos ||
            tag.find("type='PU'") != std::string_view::npos)
          ++pus;
      }
      bool selfClosing = close < xml.size() && close > at && xml[close - 1] == '/';
      if (!selfClosing) {
        ++depth;
        deepest = std::max(deepest, depth);
        if (deepest > kMaxTopologyXmlDepth)
          return "nests elements more than " + std::to_string(kMaxTopologyXmlDepth) + " deep";
      }
      at = close < xml.size() ? close + 1 : xml.size();
    }
  }
  return overBounds(pus, objects);
}

bool readXmlTopology(const std::string& path, std::string& xml, std::string& why) {
  if (!support::readRegularFile(path.c_str(), kMaxTopologyXmlBytes, xml, why)) return false;
  why = checkXmlTopology(xml);
  return why.empty();
}

}  // namespace tessera::core
