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
  std::array<uint8_t, 128> pattern;
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
                        ResetEventOp, LaunchOp, MultiLaunchOp>;

struct Command {
  Op op;
  std::vector<Ref<Event>> waits;
  Ref<Event> signal;
};

class Context;

// A closed command list's commands: immutable once closed, shared by every execution in flight.
struct RecordedCommands {
  std::vector<Command> commands;
  // The bases of the context's USM allocations the commands touch: each execution holds a use of
  // them, so zeMemFreeExt's BLOCKING_FREE waits for it and DEFER_FREE frees after it.
  Context* context = nullptr;
  std::vector<const void*> touched;

  // Records the command and the allocations its operation touches.
  void add(Command command);
};

}  // namespace tessera::core
