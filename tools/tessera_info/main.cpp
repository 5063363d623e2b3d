// tessera-info: prints the Level Zero drivers the loader finds and their device trees, like clinfo
// and lstopo together. Usage: tessera-info [--json]
#include <cstdio>
#include <cstring>

#include "device_tree.h"

int main(int argc, char** argv) {
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0) {
      json = true;
    } else {
      std::fprintf(stderr,
                   "usage: %s [--json]\n"
                   "Prints the Level Zero drivers and their device trees. Run it with\n"
                   "ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1 to see Tessera through the loader.\n",
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
  if (json) tessera::info::printJson(drivers);
  else tessera::info::printTree(drivers);
  return 0;
}
