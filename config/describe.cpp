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
  const char* name;
  const char* when;
};

// The reader sections of settings.def, in order.
std::vector<Reader> readers() {
  std::vector<Reader> all;
#define TESSERA_READER(Struct, when) all.push_back({#Struct, when});
#include "config/settings.def"
  return all;
}

}  // namespace

std::vector<Description> describeAll() {
  std::vector<Description> all;
  const char* reader = "";
#define TESSERA_READER(Struct, when) reader = #Struct;
#define TESSERA_OPTION(field, name, kind, usedBy, effect) \
  all.push_back({name, reader, var::field.rule(), var::field.defaultText(), usedBy, effect});
#define TESSERA_ACCEPTED(name, values, usedBy, effect) \
  all.push_back({name, reader, values, "", usedBy, effect});
#include "config/settings.def"
  return all;
}

std::string usageTable() {
  std::vector<Description> all = describeAll();
  std::string out;
  for (const Reader& r : readers()) {
    out += std::string(out.empty() ? "" : "\n") + r.when + "\n\n";
    out += "| variable | values | default | effect | used by |\n|---|---|---|---|---|\n";
    for (const Description& d : all) {
      if (d.reader != r.name) continue;
      bool levelZero = d.name.rfind("ZE_", 0) == 0;
      out += "| `" + d.name + "`" + (levelZero ? " (Level Zero's)" : "") + " | " + cell(d.rule) +
             " | " + (d.fallback.empty() ? std::string("unset") : "`" + cell(d.fallback) + "`") +
             " | " + cell(d.effect) + " | " + cell(d.usedBy) + " |\n";
    }
  }
  return out + "\n";  // a blank line ends the last table before the end marker
}

}  // namespace tessera::config
