#include "config/settings.h"

namespace tessera::config {

#define TESSERA_CONFIG_READ(field, name, kind, readBy, effect) \
  s.field = var::field.fromEnvironment(warnings);

DriverSettings DriverSettings::fromEnvironment(std::vector<std::string>& warnings) {
  DriverSettings s;
#define TESSERA_DRIVER TESSERA_CONFIG_READ
#include "config/settings.def"
  return s;
}

TraceSettings TraceSettings::fromEnvironment(std::vector<std::string>& warnings) {
  TraceSettings s;
#define TESSERA_TRACE TESSERA_CONFIG_READ
#include "config/settings.def"
  return s;
}

OpenClSettings OpenClSettings::fromEnvironment(std::vector<std::string>& warnings) {
  OpenClSettings s;
#define TESSERA_OPENCL TESSERA_CONFIG_READ
#include "config/settings.def"
  return s;
}

CompilerSettings CompilerSettings::fromEnvironment(std::vector<std::string>& warnings) {
  CompilerSettings s;
#define TESSERA_COMPILER TESSERA_CONFIG_READ
#include "config/settings.def"
  return s;
}

}  // namespace tessera::config
