#include "config/describe.h"

#include "config/settings.h"

namespace tessera::config {
namespace {

// Markdown table cells hold no line breaks and no unescaped bars.
std::string cell(const std::string& text) {
  std::string s;
  for (char c : text)
    s += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return s;
}

struct Reader {
  const char* id;
  const char* when;
};

constexpr Reader kReaders[] = {
    {"DRIVER", "Read once by the Level Zero driver when it is created (the first `zeInit`):"},
    {"TRACE",
     "Read once by the timeline trace when the driver library is loaded, so that it records from "
     "the start:"},
    {"OPENCL",
     "Read once by the OpenCL library when its platform is made (the first "
     "`clGetPlatformIDs`):"},
    {"COMPILER",
     "Read by the compiler (the OpenCL C compiler process, the SPIR-V translation, the JIT and the "
     "module cache) where it uses them; a value outside the rule is not warned about yet:"},
};

}  // namespace

std::vector<Description> describeAll() {
  std::vector<Description> all;
#define TESSERA_CONFIG_DESCRIBE(reader, field, name, kind, readBy, effect) \
  all.push_back({name, reader, var::field.rule(), var::field.defaultText(), readBy, effect});
#define TESSERA_DRIVER(...) TESSERA_CONFIG_DESCRIBE("DRIVER", __VA_ARGS__)
#define TESSERA_TRACE(...) TESSERA_CONFIG_DESCRIBE("TRACE", __VA_ARGS__)
#define TESSERA_OPENCL(...) TESSERA_CONFIG_DESCRIBE("OPENCL", __VA_ARGS__)
#define TESSERA_COMPILER(...) TESSERA_CONFIG_DESCRIBE("COMPILER", __VA_ARGS__)
#define TESSERA_ACCEPTED(name, values, readBy, effect) \
  all.push_back({name, "DRIVER", values, "", readBy, effect});
#include "config/settings.def"
#undef TESSERA_CONFIG_DESCRIBE
  return all;
}

std::string usageTable() {
  std::vector<Description> all = describeAll();
  std::string out;
  for (const Reader& r : kReaders) {
    out += std::string(out.empty() ? "" : "\n") + r.when + "\n\n";
    out += "| variable | values | default | effect | used by |\n|---|---|---|---|---|\n";
    for (const Description& d : all) {
      if (d.reader != r.id) continue;
      bool levelZero = d.name.rfind("ZE_", 0) == 0;
      out += "| `" + d.name + "`" + (levelZero ? " (Level Zero's)" : "") + " | " + cell(d.rule) +
             " | " + (d.fallback.empty() ? std::string("unset") : "`" + cell(d.fallback) + "`") +
             " | " + cell(d.effect) + " | " + cell(d.readBy) + " |\n";
    }
  }
  return out + "\n";  // a blank line ends the last table before the end marker
}

}  // namespace tessera::config
