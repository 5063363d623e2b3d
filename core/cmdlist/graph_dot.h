// zeGraphDumpContentsExt's format: "a DOT description of a recorded graph ... The generated DOT
// output captures the graph structure and recorded append operations. Kernel node output includes
// kernel names, argument lists, and argument types and values."
#pragma once

#include <string>

namespace tessera::core {

struct RecordedCommands;

// One node per recorded command, in the order a replay runs them (solid edges: the recording
// runs its commands in order), and a dashed edge from the command that signals an event to each
// later command that waits for it. A launch's node lists its arguments: index, name (when the
// module names it), kind, size and value (a pointer's address, a local argument's size, a value's
// bytes).
std::string graphDot(const RecordedCommands& commands);

}  // namespace tessera::core
