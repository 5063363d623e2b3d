#include "spirv/opencl_options.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <system_error>

namespace tessera::spirv {

std::vector<std::string> tokenizeOptions(std::string_view options, std::string& error) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  char quote = 0;  // the open quote character, or 0
  for (size_t i = 0; i < options.size(); ++i) {
    char c = options[i];
    if (quote == '\'') {
      if (c == '\'')
        quote = 0;
      else
        word += c;
      continue;
    }
    if (c == '\\') {
      if (i + 1 == options.size()) {
        error = "the build options end with a backslash";
        return {};
      }
      word += options[++i];
      inWord = true;
      continue;
    }
    if (quote == '"') {
      if (c == '"')
        quote = 0;
      else
        word += c;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      inWord = true;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      if (inWord) words.push_back(std::move(word));
      word.clear();
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote != 0) {
    error = std::string("unterminated ") + quote + " quote in the build options";
    return {};
  }
  if (inWord) words.push_back(std::move(word));
  return words;
}

namespace {

// Options clang's cc1 takes under the same spelling.
constexpr std::array kClangSameName = {
    "-w",
    "-Werror",
    "-cl-single-precision-constant",
    "-cl-fp32-correctly-rounded-divide-sqrt",
    "-cl-opt-disable",
    "-cl-mad-enable",
    "-cl-no-signed-zeros",
    "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only",
    "-cl-fast-relaxed-math",
    "-cl-uniform-work-group-size",
};

// Valid OpenCL options with nothing to do at compile time: argument info is always emitted;
// strict aliasing is deprecated since 1.1; a CPU has no sub-groups to make progress guarantees for.
constexpr std::array kAcceptedNoEffect = {"-cl-strict-aliasing", "-cl-no-subgroup-ifp"};

template <size_t N>
bool contains(const std::array<const char*, N>& list, std::string_view word) {
  return std::any_of(list.begin(), list.end(), [&](const char* s) { return word == s; });
}

bool parseVersion(std::string_view value, OpenCLVersion& version) {
  static constexpr std::pair<std::string_view, OpenCLVersion> kVersions[] = {
      {"CL1.0", OpenCLVersion::CL10},
      {"CL1.1", OpenCLVersion::CL11},
      {"CL1.2", OpenCLVersion::CL12},
      {"CL2.0", OpenCLVersion::CL20},
      {"CL3.0", OpenCLVersion::CL30}};
  for (const auto& [name, v] : kVersions) {
    if (value == name) {
      version = v;
      return true;
    }
  }
  return false;
}

// Appends `word` to pBuildFlags-style `flags` unless it is for the OpenCL C front end only; `i` is
// moved past the value of -D and -I given as a separate word.
void appendModuleFlag(const std::vector<std::string>& words, size_t& i, std::string& flags) {
  const std::string& word = words[i];
  if (word == "-D" || word == "-I") {
    ++i;
    return;
  }
  if (word.rfind("-D", 0) == 0 || word.rfind("-I", 0) == 0 || word == "-w" || word == "-Werror")
    return;
  if (!flags.empty()) flags += ' ';
  flags += word == "-cl-opt-disable" ? "-ze-opt-disable" : word;
}

std::string absoluteDir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::path path = std::filesystem::absolute(dir, ec);
  return ec ? dir : path.string();
}

std::vector<std::string> includeFoldersOf(const std::vector<std::string>& clangArgs) {
  std::vector<std::string> folders;
  for (size_t i = 0; i + 1 < clangArgs.size(); ++i) {
    const std::string& value = clangArgs[i + 1];
    if (clangArgs[i] == "-I") {
      folders.push_back(value);
    } else if (clangArgs[i] == "-D") {
      size_t eq = value.find('=');
      std::string path = eq == std::string::npos ? "" : value.substr(eq + 1);
      std::error_code ec;
      if (path.size() > 1 && path[0] == '/' && std::filesystem::is_directory(path, ec))
        folders.push_back(path);
    }
  }
  return folders;
}

}  // namespace

CompileOptions parseCompileOptions(std::string_view options) {
  CompileOptions out;
  std::vector<std::string> words = tokenizeOptions(options, out.error);
  if (!out.error.empty()) return out;

  auto fail = [&](std::string message) {
    out.error = std::move(message);
    out.clangArgs.clear();
    out.moduleFlags.clear();
    return out;
  };
  for (size_t i = 0; i < words.size(); ++i) {
    size_t next = i;
    appendModuleFlag(words, next, out.moduleFlags);
    const std::string& word = words[i];
    if (word == "-D" || word == "-I") {  // the value is the next word
      if (i + 1 == words.size()) return fail("option '" + word + "' needs a value");
      const std::string& value = words[++i];
      if (value.empty()) return fail("option '" + word + "' has an empty value");
      out.clangArgs.push_back(word);
      out.clangArgs.push_back(word == "-I" ? absoluteDir(value) : value);
    } else if (word.rfind("-D", 0) == 0) {
      out.clangArgs.push_back("-D");
      out.clangArgs.push_back(word.substr(2));
    } else if (word.rfind("-I", 0) == 0) {
      out.clangArgs.push_back("-I");
      out.clangArgs.push_back(absoluteDir(word.substr(2)));
    } else if (word.rfind("-cl-std=", 0) == 0) {
      if (!parseVersion(std::string_view(word).substr(8), out.version)) {
        return fail("invalid build option '" + word + "' (CL1.0, CL1.1, CL1.2, CL2.0 or CL3.0)");
      }
    } else if (word == "-g") {
      // Accepted without effect: the installed translator aborts on debug info at SPIR-V 1.0 and
      // writes OpenCL.DebugInfo.100 that spirv-val rejects at 1.1.
      out.debugInfoRequested = true;
    } else if (word == "-cl-denorms-are-zero") {
      out.denormsAreZero = true;
    } else if (word == "-cl-kernel-arg-info") {
      out.kernelArgInfo = true;
    } else if (contains(kClangSameName, word)) {
      if (word == "-cl-opt-disable") out.optDisable = true;
      if (word == "-cl-uniform-work-group-size") out.uniformWorkGroupSize = true;
      out.clangArgs.push_back(word);
    } else if (!contains(kAcceptedNoEffect, word)) {
      return fail("invalid build option '" + word + "'");
    }
  }
  out.includeFolders = includeFoldersOf(out.clangArgs);
  out.ok = true;
  return out;
}

std::string moduleFlagsOf(std::string_view options) {
  std::string error, flags;
  std::vector<std::string> words = tokenizeOptions(options, error);
  for (size_t i = 0; i < words.size(); ++i) appendModuleFlag(words, i, flags);
  return flags;
}

LinkOptions parseLinkOptions(std::string_view options) {
  LinkOptions out;
  std::vector<std::string> words = tokenizeOptions(options, out.error);
  if (!out.error.empty()) return out;
  static constexpr std::array kMath = {"-cl-denorms-are-zero",          "-cl-no-signed-zeros",
                                       "-cl-unsafe-math-optimizations", "-cl-finite-math-only",
                                       "-cl-fast-relaxed-math",         "-cl-no-subgroup-ifp"};
  for (const std::string& word : words) {
    if (word == "-create-library") {
      out.createLibrary = true;
    } else if (word == "-enable-link-options") {
      out.enableLinkOptions = true;
    } else if (contains(kMath, word)) {
      out.mathOptions.push_back(word);
    } else {
      out.error = "invalid link option '" + word + "'";
      return out;
    }
  }
  if (out.enableLinkOptions && !out.createLibrary) {
    out.error = "-enable-link-options needs -create-library";
    return out;
  }
  out.ok = true;
  return out;
}

}  // namespace tessera::spirv
