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

void RecordedCommands::add(Command command) {
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

}  // namespace tessera::core
