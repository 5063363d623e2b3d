// tessera-config-doc: docs/usage.md's table of environment variables, generated from
// config/settings.def. The table sits between two marker lines of usage.md; the rest of the file
// is written by hand.
//
//   tessera-config-doc                 prints the table
//   tessera-config-doc --check FILE    fails (exit 1) when FILE's table is not the generated one
//   tessera-config-doc --write FILE    replaces FILE's table with the generated one
//   tessera-config-doc --names         the declared variables' names, one a line
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "config/describe.h"

namespace {

constexpr const char* kBegin =
    "<!-- BEGIN generated from config/settings.def by tessera-config-doc --write docs/usage.md: "
    "edit the table there -->\n";
constexpr const char* kEnd = "<!-- END generated -->\n";

bool readFile(const char* path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  text = s.str();
  return true;
}

int usage() {
  std::fprintf(stderr, "usage: tessera-config-doc [--check FILE | --write FILE | --names]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string table = tessera::config::usageTable();
  if (argc == 1) {
    std::fputs(table.c_str(), stdout);
    return 0;
  }
  if (argc == 2 && std::strcmp(argv[1], "--names") == 0) {
    for (const tessera::config::Description& d : tessera::config::describeAll())
      std::printf("%s\n", d.name.c_str());
    return 0;
  }
  if (argc != 3) return usage();
  bool write = std::strcmp(argv[1], "--write") == 0;
  if (!write && std::strcmp(argv[1], "--check") != 0) return usage();
  const char* path = argv[2];
  std::string text;
  if (!readFile(path, text)) {
    std::fprintf(stderr, "tessera-config-doc: cannot read %s\n", path);
    return 2;
  }
  size_t begin = text.find(kBegin);
  size_t end = begin == std::string::npos ? begin : text.find(kEnd, begin);
  if (end == std::string::npos) {
    std::fprintf(stderr, "tessera-config-doc: %s has no generated table (the lines\n%s...\n%s)\n",
                 path, kBegin, kEnd);
    return 2;
  }
  size_t from = begin + std::strlen(kBegin);
  if (text.compare(from, end - from, table) == 0) return 0;
  if (!write) {
    std::fprintf(stderr,
                 "tessera-config-doc: the table of environment variables in %s is not the one "
                 "config/settings.def gives; run: tessera-config-doc --write %s\n",
                 path, path);
    return 1;
  }
  text.replace(from, end - from, table);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  return out ? 0 : 2;
}
