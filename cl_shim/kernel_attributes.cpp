#include "cl_shim/kernel_attributes.h"

#include <cctype>
#include <string_view>

namespace tessera::cl {
namespace {

bool identChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The source with comments and string and character literals blanked out (same length, so
// positions stay), and preprocessor directive lines blanked as well.
std::string code(const std::string& s) {
  std::string out = s;
  size_t i = 0;
  bool lineStart = true;
  while (i < out.size()) {
    char c = out[i];
    if (lineStart && (c == ' ' || c == '\t')) {
      ++i;
      continue;
    }
    if (lineStart && c == '#') {  // a directive, with its continuation lines
      while (i < out.size() && out[i] != '\n') {
        if (out[i] == '\\' && i + 1 < out.size() && out[i + 1] == '\n') out[i++] = ' ';
        out[i++] = ' ';
      }
      continue;
    }
    lineStart = c == '\n';
    if (c == '/' && i + 1 < out.size() && out[i + 1] == '/') {
      while (i < out.size() && out[i] != '\n') out[i++] = ' ';
    } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '*') {
      size_t end = out.find("*/", i + 2);
      end = end == std::string::npos ? out.size() : end + 2;
      for (; i < end; ++i)
        if (out[i] != '\n') out[i] = ' ';
    } else if (c == '"' || c == '\'') {
      out[i++] = ' ';
      while (i < out.size() && out[i] != c && out[i] != '\n') {
        if (out[i] == '\\' && i + 1 < out.size()) out[i++] = ' ';
        out[i++] = ' ';
      }
      if (i < out.size() && out[i] == c) out[i++] = ' ';
    } else {
      ++i;
    }
  }
  return out;
}

size_t skipSpace(std::string_view s, size_t i) {
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return i;
}

bool hasWord(std::string_view s, std::string_view word) {
  for (size_t at = s.find(word); at != std::string_view::npos; at = s.find(word, at + 1)) {
    bool before = at == 0 || !identChar(s[at - 1]);
    bool after = at + word.size() >= s.size() || !identChar(s[at + word.size()]);
    if (before && after) return true;
  }
  return false;
}

// The identifier after `name` `(` ... (the `argument`-th argument, 0-based) in `s`, if any.
std::string argumentOf(std::string_view s, std::string_view name, int argument) {
  for (size_t at = s.find(name); at != std::string_view::npos; at = s.find(name, at + 1)) {
    if ((at > 0 && identChar(s[at - 1])) ||
        (at + name.size() < s.size() && identChar(s[at + name.size()])))
      continue;
    size_t i = skipSpace(s, at + name.size());
    if (i >= s.size() || s[i] != '(') continue;
    ++i;
    for (int skipped = 0; skipped < argument; ++skipped) {
      size_t comma = s.find(',', i);
      if (comma == std::string_view::npos) return {};
      i = comma + 1;
    }
    i = skipSpace(s, i);
    size_t start = i;
    while (i < s.size() && identChar(s[i])) ++i;
    if (i > start) return std::string(s.substr(start, i - start));
  }
  return {};
}

// A vector or scalar type name without the 'u' of unsigned integer types: "uchar2" -> "char2".
std::string withoutSign(const std::string& type) {
  for (const char* base : {"uchar", "ushort", "uint", "ulong"}) {
    std::string_view b(base);
    if (type.compare(0, b.size(), b) == 0 &&
        (type.size() == b.size() || std::isdigit(static_cast<unsigned char>(type[b.size()]))))
      return type.substr(1);
  }
  return type;
}

}  // namespace

std::string sourceVecTypeHint(const std::vector<std::string>& sources, const std::string& kernel) {
  if (kernel.empty()) return {};
  for (const std::string& source : sources) {
    const std::string text = code(source);
    std::string_view s(text);
    for (size_t at = s.find(kernel); at != std::string_view::npos; at = s.find(kernel, at + 1)) {
      if ((at > 0 && identChar(s[at - 1])) ||
          (at + kernel.size() < s.size() && identChar(s[at + kernel.size()])))
        continue;
      size_t paren = skipSpace(s, at + kernel.size());
      if (paren >= s.size() || s[paren] != '(') continue;
      // The declaration: back to the end of the previous declaration or block.
      size_t start = s.find_last_of(";{}", at);
      start = start == std::string_view::npos ? 0 : start + 1;
      std::string_view declaration = s.substr(start, at - start);
      bool isKernel = hasWord(declaration, "__kernel") || hasWord(declaration, "kernel") ||
                      hasWord(declaration, "__kernel_exec") || hasWord(declaration, "kernel_exec");
      if (!isKernel) continue;
      std::string type = argumentOf(declaration, "vec_type_hint", 0);
      if (type.empty()) type = argumentOf(declaration, "__vec_type_hint__", 0);
      if (type.empty()) type = argumentOf(declaration, "__kernel_exec", 1);
      if (type.empty()) type = argumentOf(declaration, "kernel_exec", 1);
      if (!type.empty()) return type;
    }
  }
  return {};
}

std::string withSourceSpelling(const std::string& attributes,
                               const std::vector<std::string>& sources, const std::string& kernel) {
  const std::string key = "vec_type_hint(";
  size_t at = attributes.find(key);
  if (at == std::string::npos) return attributes;
  size_t start = at + key.size();
  size_t end = attributes.find(')', start);
  if (end == std::string::npos) return attributes;
  std::string reflected = attributes.substr(start, end - start);
  std::string declared = sourceVecTypeHint(sources, kernel);
  if (declared.empty() || declared == reflected || withoutSign(declared) != reflected)
    return attributes;
  return attributes.substr(0, start) + declared + attributes.substr(end);
}

}  // namespace tessera::cl
