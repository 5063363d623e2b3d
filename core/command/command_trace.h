// The trace's hooks in the command path (trace/trace.h): each is called only when
// trace::enabled(), so the path pays one relaxed load when tracing is off.
#pragma once

#include <cstdint>
#include <string>

#include "trace/trace.h"

namespace tessera::core {

struct Command;
class Device;
class Event;

// A command as the trace names it: "copy", "fill", a kernel's name, ...; and its details as JSON
// members ("bytes":4096,...), also what a graph's DOT dump shows (core/cmdlist/graph_dot.h).
struct CommandDescription {
  std::string name;
  std::string args;
};
CommandDescription describeCommand(const Command& command);

// Called once a command's waits are met: ends the flows of its wait events here and returns the
// span's start.
uint64_t traceCommandBegin(const Command& command);
// Called after its operation and signal: the command's span and the flow of its signal event.
void traceCommandEnd(const Command& command, uint64_t start);
// Names the calling executor thread's track after its queue.
void traceNameQueue(const Device& device, uint32_t ordinal, uint32_t index, bool synchronous);
// A host synchronization that returned at `end` (a span, a marker, and for an event the flow's end).
void traceHostSync(const char* what, uint64_t start, const Event* event, bool ready);
// A host wait (`wait` returns whether it ended ready), timed into the trace as traceHostSync
// when tracing is on: the one shape of every ze*HostSynchronize / zeCommandQueueSynchronize.
template <typename Wait>
bool tracedHostWait(const char* what, const Event* event, Wait&& wait) {
  if (!trace::enabled()) return wait();
  const uint64_t start = trace::nowNs();
  const bool ready = wait();
  traceHostSync(what, start, event, ready);
  return ready;
}
// zeEventHostSignal: a marker that starts the event's flow.
void traceHostSignal(const Event& event);

// The flow id of an event (its address: unique while it lives).
inline uint64_t traceEventId(const Event* e) { return reinterpret_cast<uintptr_t>(e); }

}  // namespace tessera::core
