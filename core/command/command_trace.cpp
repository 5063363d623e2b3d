#include "core/command/command_trace.h"

#include <cstdio>
#include <string>
#include <type_traits>

#include "core/command/command.h"
#include "core/device/device.h"

namespace tessera::core {
namespace {

void appendArg(std::string& args, const char* fmt, auto... values) {
  char buf[128];
  std::snprintf(buf, sizeof buf, fmt, values...);
  if (!args.empty()) args += ',';
  args += buf;
}

void describeLaunch(const LaunchOp& l, const ze_group_count_t* counts, CommandDescription& d) {
  d.name = l.kernel->name();
  uint32_t gx = counts ? counts->groupCountX : l.dims.groupCount[0];
  uint32_t gy = counts ? counts->groupCountY : l.dims.groupCount[1];
  uint32_t gz = counts ? counts->groupCountZ : l.dims.groupCount[2];
  appendArg(d.args, "\"groups\":[%u,%u,%u],\"group_size\":[%u,%u,%u]", gx, gy, gz,
            l.dims.groupSize[0], l.dims.groupSize[1], l.dims.groupSize[2]);
  if (l.indirect) appendArg(d.args, "\"indirect\":true");
}

}  // namespace

CommandDescription describeCommand(const Command& c) {
  CommandDescription d;
  std::visit(
      [&](const auto& o) {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, NopOp>) {
          d.name = c.waits.empty() ? (c.signal ? "signal" : "barrier") : "wait";
        } else if constexpr (std::is_same_v<T, CopyOp>) {
          d.name = "copy";
          appendArg(d.args, "\"bytes\":%zu", o.size);
        } else if constexpr (std::is_same_v<T, FillOp>) {
          d.name = "fill";
          appendArg(d.args, "\"bytes\":%zu,\"pattern_bytes\":%u", o.size, o.patternSize);
        } else if constexpr (std::is_same_v<T, RegionCopyOp>) {
          d.name = "region copy";
          appendArg(d.args, "\"width\":%u,\"height\":%u,\"depth\":%u", o.dstRegion.width,
                    o.dstRegion.height, o.dstRegion.depth);
        } else if constexpr (std::is_same_v<T, TimestampOp>) {
          d.name = "timestamp";
        } else if constexpr (std::is_same_v<T, QueryTimestampsOp>) {
          d.name = "query timestamps";
          appendArg(d.args, "\"events\":%zu", o.events.size());
        } else if constexpr (std::is_same_v<T, ResetEventOp>) {
          d.name = "reset event";
        } else if constexpr (std::is_same_v<T, HostFunctionOp>) {
          d.name = "host function";
        } else if constexpr (std::is_same_v<T, LaunchOp>) {
          describeLaunch(o, o.indirect, d);
        } else if constexpr (std::is_same_v<T, MultiLaunchOp>) {
          d.name = "multiple kernels";
          appendArg(d.args, "\"launches\":%u", *o.count);
        }
      },
      c.op);
  if (!c.waits.empty()) appendArg(d.args, "\"waits\":%zu", c.waits.size());
  if (c.signal) appendArg(d.args, "\"signal\":%llu",
                          static_cast<unsigned long long>(traceEventId(c.signal.get())));
  return d;
}

uint64_t traceCommandBegin(const Command& command) {
  uint64_t start = trace::nowNs();
  // Flows end 1 ns into the span, so viewers bind them to it.
  for (const Ref<Event>& e : command.waits) trace::flowEnd(traceEventId(e.get()), start + 1);
  if (const auto* l = std::get_if<LaunchOp>(&command.op)) trace::setCurrentLabel(l->kernel->name());
  else trace::setCurrentLabel("copy chunks");
  return start;
}

void traceCommandEnd(const Command& command, uint64_t start) {
  uint64_t end = trace::nowNs();
  if (end < start + 2) end = start + 2;
  CommandDescription d = describeCommand(command);
  trace::complete("command", d.name, start, end, d.args);
  if (command.signal) trace::flowStart(traceEventId(command.signal.get()), end - 1);
}

void traceNameQueue(const Device& device, uint32_t ordinal, uint32_t index, bool synchronous) {
  uint32_t n = trace::nextQueueNumber();
  std::string name = "queue " + std::to_string(n) + " (" + (ordinal == 0 ? "compute" : "copy") +
                     " " + std::to_string(ordinal) + "." + std::to_string(index) + ", PUs " +
                     device.pus().toString() + (synchronous ? ", synchronous" : "") + ")";
  trace::nameThread(name, static_cast<int>(n));
}

void traceHostSync(const char* what, uint64_t start, const Event* event, bool ready) {
  static thread_local bool named = false;
  if (!named) {
    named = true;
    trace::nameThread("host thread", -1);
  }
  uint64_t end = trace::nowNs();
  if (end < start + 2) end = start + 2;
  trace::complete("host", what, start, end, ready ? "\"ready\":true" : "\"ready\":false");
  if (event && ready) trace::flowEnd(traceEventId(event), end - 1);
  trace::instant("marker", what, end, ready ? "\"ready\":true" : "\"ready\":false");
}

void traceHostSignal(const Event& event) {
  uint64_t t = trace::nowNs();
  trace::complete("host", "zeEventHostSignal", t, t + 2);
  trace::flowStart(traceEventId(&event), t + 1);
  trace::instant("marker", "zeEventHostSignal", t);
}

}  // namespace tessera::core
