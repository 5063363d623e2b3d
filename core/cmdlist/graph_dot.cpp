#include "core/cmdlist/graph_dot.h"

#include <cstdio>
#include <map>

#include "core/command/command.h"
#include "core/command/command_trace.h"
#include "core/event/event.h"
#include "core/module/kernel.h"

namespace tessera::core {
namespace {

// Text inside a DOT label: quotes and backslashes escaped, line breaks as DOT's "\n".
std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string hexBytes(const uint8_t* bytes, uint32_t size) {
  constexpr uint32_t kShown = 32;
  std::string out = "0x";
  char digits[3];
  // Little-endian: the most significant byte first, as a number reads.
  for (uint32_t i = std::min(size, kShown); i-- > 0;) {
    std::snprintf(digits, sizeof digits, "%02x", bytes[i]);
    out += digits;
  }
  if (size > kShown)
    out += " (first " + std::to_string(kShown) + " of " + std::to_string(size) + " bytes)";
  return out;
}

// One line per argument of the launch: "arg 1 n: by value, 4 bytes = 0x00000010".
std::string argumentLines(const LaunchOp& launch) {
  const Kernel& kernel = *launch.kernel;
  const auto& slots = kernel.argumentTable();
  const auto& reflected = kernel.info().args;
  std::string lines;
  for (size_t i = 0; i < slots.size(); ++i) {
    const backends::KernelArgInfo& slot = slots[i];
    std::string line = "arg " + std::to_string(i);
    if (i < reflected.size() && !reflected[i].name.empty()) line += " " + reflected[i].name;
    line += ": ";
    line += i < reflected.size() ? spirv::argKindName(reflected[i].kind) : "argument";
    line += ", " + std::to_string(slot.size) + " bytes = ";
    if (slot.offset + slot.size <= launch.args.size())
      line += hexBytes(launch.args.data() + slot.offset, slot.size);
    else
      line += "(not set)";
    lines += "\n" + line;
  }
  return lines;
}

std::string label(const Command& command) {
  CommandDescription d = describeCommand(command);
  const auto* launch = std::get_if<LaunchOp>(&command.op);
  std::string text = launch ? "kernel " + d.name : d.name;
  if (!d.args.empty()) {
    // The trace's JSON members, without their quotes: bytes:4096,waits:1
    std::string details;
    for (char c : d.args)
      if (c != '"') details += c;
    text += "\n" + details;
  }
  if (launch) text += argumentLines(*launch);
  return escaped(text);
}

}  // namespace

std::string graphDot(const RecordedCommands& commands) {
  std::string dot = "digraph tessera_graph {\n  node [shape=box, fontname=monospace];\n";
  std::map<const Event*, size_t> signalledBy;  // the last command so far that signals the event
  for (size_t i = 0; i < commands.commands.size(); ++i) {
    const Command& c = commands.commands[i];
    dot += "  n" + std::to_string(i) + " [label=\"" + label(c) + "\"];\n";
    if (i > 0) dot += "  n" + std::to_string(i - 1) + " -> n" + std::to_string(i) + ";\n";
    auto waitEdge = [&](const Event* e) {
      auto it = signalledBy.find(e);
      if (it != signalledBy.end())
        dot += "  n" + std::to_string(it->second) + " -> n" + std::to_string(i) +
               " [style=dashed, label=\"event\"];\n";
    };
    for (const Ref<Event>& e : c.waits) waitEdge(e.get());
    for (uint32_t slot : c.counterWaits) waitEdge(commands.counterEvents[slot].get());
    if (c.signal) signalledBy[c.signal.get()] = i;
  }
  return dot + "}\n";
}

}  // namespace tessera::core
