#include "core/command/command.h"

#include <algorithm>
#include <type_traits>

#include "core/context/context.h"

namespace tessera::core {
namespace {

// The memory an operation reads or writes (up to two pointers).
std::array<const void*, 2> pointersOf(const Op& op) {
  return std::visit(
      [](const auto& o) -> std::array<const void*, 2> {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, CopyOp>) return {o.dst, o.src};
        else if constexpr (std::is_same_v<T, RegionCopyOp>) return {o.dst, o.src};
        else if constexpr (std::is_same_v<T, FillOp> || std::is_same_v<T, TimestampOp> ||
                           std::is_same_v<T, QueryTimestampsOp>)
          return {o.dst, nullptr};
        else return {nullptr, nullptr};
      },
      op);
}

}  // namespace

bool usesCounterEvents(const Command& command) {
  if (command.signal && command.signal->counterBased()) return true;
  for (const Ref<Event>& e : command.waits)
    if (e->counterBased()) return true;
  return false;
}

namespace {

uint32_t slotOf(RecordedCommands& r, Event* e) {
  for (size_t i = 0; i < r.counterEvents.size(); ++i)
    if (r.counterEvents[i].get() == e) return static_cast<uint32_t>(i);
  r.counterEvents.emplace_back(e);
  r.counterLast.push_back(SIZE_MAX);
  return static_cast<uint32_t>(r.counterEvents.size() - 1);
}

}  // namespace

void RecordedCommands::issueCounters(uint64_t* values) const {
  // Every wait value first: a wait of this execution never waits for this execution's own signal
  // (in an in-order list, the commands before it have run anyway).
  for (size_t i = 0; i < counterEvents.size(); ++i) values[2 * i] = counterEvents[i]->issued();
  for (size_t i = 0; i < counterEvents.size(); ++i)
    // (A mutable list's update may have taken the signal off its last command.)
    if (counterLast[i] != SIZE_MAX && commands[counterLast[i]].counterSignal == i)
      values[2 * i + 1] = counterEvents[i]->issue();
}

void RecordedCommands::add(Command command) {
  if (usesCounterEvents(command)) {
    auto& w = command.waits;
    for (auto it = w.begin(); it != w.end();) {
      if ((*it)->counterBased()) {
        command.counterWaits.push_back(slotOf(*this, it->get()));
        it = w.erase(it);
      } else {
        ++it;
      }
    }
    if (command.signal && command.signal->counterBased()) {
      uint32_t slot = slotOf(*this, command.signal.get());
      if (counterLast[slot] != SIZE_MAX) commands[counterLast[slot]].counterFinal = false;
      command.counterSignal = slot;
      command.counterFinal = true;
      counterLast[slot] = commands.size();
    }
  }
  if (context) {
    for (const void* p : pointersOf(command.op)) {
      if (!p) continue;
      auto a = context->memory().find(p);
      if (a && std::find(touched.begin(), touched.end(), a->base) == touched.end())
        touched.push_back(a->base);
    }
  }
  commands.push_back(std::move(command));
}

Command RecordedCommands::asAppended(size_t index) const {
  const Command& c = commands[index];
  Command copy{c.op, c.waits, c.signal};
  for (uint32_t slot : c.counterWaits) copy.waits.push_back(counterEvents[slot]);
  return copy;
}

}  // namespace tessera::core
