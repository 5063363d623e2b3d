#include "config/settings.h"

namespace tessera::config {

// Struct::fromEnvironment of each reader section of settings.def.
#define TESSERA_READER(Struct, when)                                   \
  Struct Struct::fromEnvironment(std::vector<std::string>& warnings) { \
    Struct s;
#define TESSERA_OPTION(field, name, kind, usedBy, effect) \
  s.field = var::field.fromEnvironment(warnings);
#define TESSERA_READER_END(Struct) \
  return s;                        \
  }
#include "config/settings.def"

}  // namespace tessera::config
