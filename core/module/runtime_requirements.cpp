#include "core/module/runtime_requirements.h"

#include <map>

#include "compiler/compiler.h"
#include "core/driver/driver.h"

namespace tessera::core {
namespace {

std::string textOf(const backends::CodeTarget& t) {
  return std::string(kRuntimeRequirementsKey) + "\ncpu=" + t.cpu + "\nfeatures=" + t.features +
         "\ntoolchain=" + t.toolchain + "\n";
}

}  // namespace

ze_result_t runtimeRequirements(Driver& driver, std::string& text) {
  backends::CodeTarget target;
  std::string error;
  if (!driver.compiler().codeTarget(target, error)) {
    text = error;
    return ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE;
  }
  text = textOf(target);
  return ZE_RESULT_SUCCESS;
}

RequirementsCheck checkRuntimeRequirements(Driver& driver, std::string_view text) {
  // The key line, then name=value lines; a trailing newline or none.
  std::map<std::string, std::string, std::less<>> fields;
  bool first = true;
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    if (first) {
      if (line != kRuntimeRequirementsKey) return RequirementsCheck::NotApplicable;
      first = false;
      continue;
    }
    size_t eq = line.find('=');
    if (eq == std::string_view::npos) return RequirementsCheck::NotApplicable;
    fields[std::string(line.substr(0, eq))] = std::string(line.substr(eq + 1));
  }
  if (first || !fields.count("cpu") || !fields.count("features") || !fields.count("toolchain"))
    return RequirementsCheck::NotApplicable;
  backends::CodeTarget here;
  std::string error;
  if (!driver.compiler().codeTarget(here, error)) return RequirementsCheck::NotMet;
  bool equal = fields["cpu"] == here.cpu && fields["features"] == here.features &&
               fields["toolchain"] == here.toolchain;
  return equal ? RequirementsCheck::Met : RequirementsCheck::NotMet;
}

}  // namespace tessera::core
