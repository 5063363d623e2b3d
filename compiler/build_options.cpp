#include "compiler/build_options.h"

#include <sstream>
#include <vector>

namespace tessera::compiler {

bool parseBuildOptions(const char* flags, BuildOptions& out, std::string& error) {
  std::istringstream in(flags ? flags : "");
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  auto level = [&](const std::string& text) {
    if (text.size() != 1 || text[0] < '0' || text[0] > '9') return false;
    out.optLevel = std::min(2u, static_cast<unsigned>(text[0] - '0'));
    return true;
  };
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "-ze-opt-disable") {
      out.optLevel = 0;
    } else if (w.rfind("-ze-opt-level=", 0) == 0) {
      if (!level(w.substr(14))) return error = "bad value in build option " + w, false;
    } else if (w == "-ze-opt-level") {
      if (i + 1 >= words.size() || !level(words[i + 1]))
        return error = "-ze-opt-level needs a level 0-9", false;
      ++i;
    } else if (w == "-g") {
      out.debugInfo = true;
    } else if (w == "-ze-opt-greater-than-4GB-buffer-required" ||
               w == "-ze-opt-large-register-file" || w == "-ze-opt-has-buffer-offset-arg" ||
               w == "-ze-take-global-address" || w == "-ze-library-compilation" ||
               w.rfind("-cl-", 0) == 0) {
      // GPU-only or OpenCL options: nothing to do on a CPU.
    } else {
      error = "unknown build option '" + w + "'";
      return false;
    }
  }
  return true;
}

}  // namespace tessera::compiler
