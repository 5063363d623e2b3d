#include "config/kinds.h"

#include <strings.h>

#include <cctype>
#include <cmath>
#include <cstdio>

namespace tessera::config {
namespace {

std::string_view trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

// `="value" ` : how a warning names the value it could not read.
std::string quoted(std::string_view text) {
  return "=\"" + std::string(text) + "\" ";
}

// Decimal digits only, at most `max`; nullopt for anything else (a sign, spaces, an overflow).
std::optional<uint64_t> digits(std::string_view text, uint64_t max) {
  if (text.empty()) return std::nullopt;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (max - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

// "12" or "1.2.3"; nullopt when the text is not that.
std::optional<std::vector<uint32_t>> parsePath(std::string_view text) {
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

// "a", "a or b", "a, b or c".
std::string alternatives(std::span<const char* const> words) {
  std::string s;
  for (size_t i = 0; i < words.size(); ++i)
    s += std::string(i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
  return s;
}

}  // namespace

bool Switch::parse(std::string_view text, Value& out, std::string& why) const {
  out = text == "1" || (text != "0" && other);
  if (text != "0" && text != "1")
    why = quoted(text) + "is neither 0 nor 1; taken as " + (other ? "1 (on)" : "0 (off)");
  return true;
}

std::string Switch::rule() const {
  return other ? "`0` off; any other value on" : "`1` on; any other value off";
}

bool Count::parse(std::string_view text, Value& out, std::string& why) const {
  std::optional<uint64_t> v = digits(text, max);
  if (!v || *v < min) {
    why = quoted(text) + "is not a whole number from " + std::to_string(min) + " to " +
          std::to_string(max) + "; using " + show(fallback);
    return false;
  }
  out = *v;
  return true;
}

std::string Count::rule() const {
  return "whole number, " + std::to_string(min) + " to " + std::to_string(max);
}

bool Real::parse(std::string_view text, Value& out, std::string& why) const {
  std::string s(text);
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0' || !std::isfinite(v) || v < min || v > max) {
    why = quoted(text) + "is not a number from " + show(min) + " to " + show(max) + "; using " +
          show(fallback);
    return false;
  }
  out = v;
  return true;
}

std::string Real::show(Value v) const {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string Real::rule() const {
  return "number (fractions allowed), " + show(min) + " to " + show(max);
}

bool Text::parse(std::string_view text, Value& out, std::string&) const {
  out = std::string(text);
  return true;
}

bool parseChoice(std::string_view text, std::span<const char* const> words, size_t& index,
                 std::string& why) {
  std::string_view v = trim(text);
  if (v.empty()) return true;  // blank: unset, `index` keeps the default
  std::string word(v);
  for (size_t i = 0; i < words.size(); ++i)
    if (strcasecmp(word.c_str(), words[i]) == 0) {
      index = i;
      return true;
    }
  why = quoted(v) + "is not " + alternatives(words) + "; using " + words[index];
  return false;
}

std::string choiceRule(std::span<const char* const> words) {
  std::string s;
  for (const char* w : words) s += (s.empty() ? "`" : ", `") + std::string(w) + "`";
  return s + " (any case)";
}

bool Mask::parse(std::string_view text, Value& out, std::string& why) const {
  std::string_view v = trim(text);
  if (v.empty()) return true;  // blank: no mask
  AffinityMask mask;
  size_t start = 0;
  while (start <= v.size()) {
    size_t comma = v.find(',', start);
    if (comma == std::string_view::npos) comma = v.size();
    std::string_view entry = trim(v.substr(start, comma - start));
    auto path = parsePath(entry);
    if (!path) {
      why = quoted(v) + "is malformed at \"" + std::string(entry) +
            "\" (expected a comma-separated list such as 0,1.2); ignoring it and reporting every "
            "device";
      return false;
    }
    mask.entries.push_back(std::move(*path));
    start = comma + 1;
  }
  out = std::move(mask);
  return true;
}

bool Width::parse(std::string_view text, Value& out, std::string& why) const {
  std::optional<uint64_t> v = digits(text, 64);
  if (!v || (*v & (*v - 1)) != 0) {  // 0 and the powers of two pass
    why = quoted(text) + "is not 0, 1 or a power of two up to 64; using " + show(fallback);
    return false;
  }
  out = static_cast<Value>(*v);
  return true;
}

}  // namespace tessera::config
