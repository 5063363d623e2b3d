// The table of settings.def as text: each variable's reader, rule, default, effect and the layer
// that uses it, and docs/usage.md's generated table. Only the documentation tool and the tests
// link this (library tessera_config_docs): the driver carries no documentation strings.
#pragma once

#include <string>
#include <vector>

namespace tessera::config {

struct Description {
  std::string name;      // TESSERA_SPIN_US
  std::string reader;    // its section of settings.def: DriverSettings, TraceSettings, ...
  std::string rule;      // what the kind accepts
  std::string fallback;  // the default, as a value of the variable; empty when unset
  std::string usedBy;    // the layer and file that use it
  std::string effect;    // Markdown
};

// Every row of settings.def, in its order.
std::vector<Description> describeAll();

// docs/usage.md's generated part: one Markdown table per reader, each with a line saying when
// that reader reads its variables.
std::string usageTable();

}  // namespace tessera::config
