// The Level Zero extensions Tessera reports, and the functions zeDriverGetExtensionFunctionAddress
// hands out.
#pragma once

#include <cstdint>
#include <vector>

namespace tessera::ze {

struct Extension {
  const char* name;
  uint32_t version;
};

const std::vector<Extension>& extensions();
// The function named `name`, or nullptr when Tessera has none by that name.
void* extensionFunction(const char* name);

}  // namespace tessera::ze
