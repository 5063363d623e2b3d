// tessera-info: prints the Level Zero drivers the loader finds and their device trees, like clinfo
// and lstopo together. Usage: tessera-info [--json | --dot | --svg]
#include <cstdio>
#include <cstring>

#include "device_tree.h"
#include "topology_dot.h"

int main(int argc, char** argv) {
  enum { Tree, Json, Dot, Svg } mode = Tree;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0) {
      mode = Json;
    } else if (std::strcmp(argv[i], "--dot") == 0) {
      mode = Dot;
    } else if (std::strcmp(argv[i], "--svg") == 0) {
      mode = Svg;
    } else {
      std::fprintf(stderr,
                   "usage: %s [--json | --dot | --svg]\n"
                   "Prints the Level Zero drivers and their device trees: as text, as JSON, or as\n"
                   "a picture of the machine's topology with the devices drawn over it (--dot:\n"
                   "Graphviz source; --svg: rendered by Graphviz's dot, which must be installed).\n"
                   "Run it with ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1 to see Tessera through the\n"
                   "loader.\n",
                   argv[0]);
      return std::strcmp(argv[i], "--help") == 0 ? 0 : 2;
    }
  }
  std::vector<tessera::info::DriverInfo> drivers;
  std::string error;
  if (!tessera::info::gather(drivers, error)) {
    std::fprintf(stderr, "tessera-info: %s\n", error.c_str());
    return 1;
  }
  switch (mode) {
    case Tree: tessera::info::printTree(drivers); break;
    case Json: tessera::info::printJson(drivers); break;
    case Dot:
      if (!tessera::info::writeDot(drivers, stdout, error)) {
        std::fprintf(stderr, "tessera-info: %s\n", error.c_str());
        return 1;
      }
      break;
    case Svg: {
      std::fflush(stdout);
      std::FILE* dot = popen("dot -Tsvg", "w");
      if (!dot) {
        std::fprintf(stderr, "tessera-info: cannot run Graphviz's dot\n");
        return 1;
      }
      bool ok = tessera::info::writeDot(drivers, dot, error);
      int rc = pclose(dot);
      if (!ok || rc != 0) {
        std::fprintf(stderr, "tessera-info: %s\n",
                     ok ? "Graphviz's dot failed (is the graphviz package installed?)" : error.c_str());
        return 1;
      }
      break;
    }
  }
  return 0;
}
