// Commands as recorded by a command list (core/cmdlist) and run by a queue
// (core/queue/run_command.h). A command keeps alive the events it uses; memory is the application's
// to keep alive ("the application is responsible for making sure the device is not currently
// executing" before it frees or resets).
#pragma once

#include <level_zero/ze_api.h>

#include <array>
#include <atomic>
#include <memory>
#include <variant>
#include <vector>

#include "core/command/launch_dims.h"
#include "core/common/ref_counted.h"
#include "core/event/event.h"
#include "core/module/kernel.h"

namespace tessera::core {

struct NopOp {};  // barriers, waits, signals, prefetch and advice: only the waits and signal count
struct CopyOp {
  void* dst;
  const void* src;
  size_t size;
};
struct FillOp {
  void* dst;
  size_t size;
  uint32_t patternSize;
  std::array<uint8_t, 128> pattern;  // a pattern of up to 128 bytes, kept in the command
  std::shared_ptr<uint8_t[]> large;  // a longer one (compute lists: limits::kMaxFillPatternSize)
  const uint8_t* bytes() const { return large ? large.get() : pattern.data(); }
};
struct RegionCopyOp {
  uint8_t* dst;
  const uint8_t* src;
  ze_copy_region_t dstRegion, srcRegion;  // width in bytes, height in rows, depth in slices
  size_t dstPitch, dstSlicePitch, srcPitch, srcSlicePitch;
};
struct TimestampOp {
  uint64_t* dst;
};
struct QueryTimestampsOp {
  std::vector<Ref<Event>> events;
  uint8_t* dst;
  std::vector<size_t> offsets;  // empty: packed one after the other
};
struct ResetEventOp {
  Ref<Event> event;
};
// zeCommandListAppendHostFunction: `function(userData)` called on the host when the list reaches
// it ("neither the runtime nor the device will dereference" userData).
struct HostFunctionOp {
  void (*function)(void*);
  void* userData;
};

// A kernel launch with the kernel's state as it was at append time ("arguments are copied").
struct LaunchOp {
  Ref<Kernel> kernel;
  std::vector<uint8_t> args;
  LaunchDims dims;
  const ze_group_count_t* indirect = nullptr;  // group counts read when the command runs
};
// zeCommandListAppendLaunchMultipleKernelsIndirect: the count and the group counts are read when
// the command runs.
struct MultiLaunchOp {
  std::vector<LaunchOp> launches;
  const uint32_t* count;
  const ze_group_count_t* groupCounts;
};

using Op = std::variant<NopOp, CopyOp, FillOp, RegionCopyOp, TimestampOp, QueryTimestampsOp,
                        ResetEventOp, LaunchOp, MultiLaunchOp, HostFunctionOp>;

constexpr uint32_t kNoCounter = UINT32_MAX;

struct Command {
  Op op;
  std::vector<Ref<Event>> waits;  // ordinary events once recorded (RecordedCommands::add)
  Ref<Event> signal;
  // Counter-based events (core/event/event.h), sorted out by RecordedCommands::add: the slots of
  // the buffer's counterEvents this command waits for, the slot it signals (kNoCounter: none, or an
  // ordinary event), and whether it is the buffer's last command that signals that slot (only that
  // one stores the execution's value: the event "represents the completion of the last call to
  // which it was passed as signal event").
  std::vector<uint32_t> counterWaits;
  uint32_t counterSignal = kNoCounter;
  bool counterFinal = false;
};

class Context;

// A closed command list's commands: immutable once closed, shared by every execution in flight.
struct RecordedCommands {
  std::vector<Command> commands;
  // The bases of the context's USM allocations the commands touch: each execution holds a use of
  // them, so zeMemFreeExt's BLOCKING_FREE waits for it and DEFER_FREE frees after it.
  Context* context = nullptr;
  std::vector<const void*> touched;

  // The most work-groups of a cooperative launch recorded (0: none), which a queue of another
  // device than the list's must be able to hold resident (CommandList::runsOn).
  uint64_t cooperativeGroups = 0;

  // The counter-based events the commands wait for or signal, one slot each.
  std::vector<Ref<Event>> counterEvents;
  std::vector<size_t> counterLast;  // per slot: the last command signalling it (SIZE_MAX: none)

  // Records the command and the allocations its operation touches; moves its counter-based waits
  // out of `waits` into slots.
  void add(Command command);
  // Command `index` as it was appended (its counter-based waits back among its waits), for adding
  // to other commands.
  Command asAppended(size_t index) const;
  bool usesCounters() const { return !counterEvents.empty(); }
  // How many values one execution has: two per slot.
  size_t counterValueCount() const { return 2 * counterEvents.size(); }
  // The values of one execution of these commands, made when it is submitted (an immediate list's
  // append, zeCommandQueueExecuteCommandLists), written to values[0, counterValueCount()), which
  // the caller has zeroed: per slot, [2 * slot] the value its waits wait for (the event's last
  // issued value, from before this execution: "synchronizing on a counter-based event waits only
  // for the last saved counter value"), [2 * slot + 1] a new value this execution signals (0 when
  // nothing here signals the slot).
  void issueCounters(uint64_t* values) const;
};

// Whether a command not yet recorded waits for or signals a counter-based event.
bool usesCounterEvents(const Command& command);

}  // namespace tessera::core
