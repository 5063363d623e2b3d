// Command lists: regular ones record commands until closed, then any queue of their device and
// ordinal executes them, as often as wanted; immediate ones run each command as it is appended, on
// a queue of their own.
//
// Threading: "the application is responsible for ensuring that multiple Host threads do not access
// the same command list simultaneously"; executions in flight share the closed buffer, which is
// never changed again (reset starts a new one; a mutable list's update copies it first when an
// execution still holds it).
//
// Mutable lists (ZE_experimental_mutable_command_list): a command id names a recorded command by
// its index in the buffer; an update writes into that command's operation in place (a launch's
// argument bytes, group count and size, offset; a command's events), in O(changed fields).
#pragma once

#include <level_zero/ze_api.h>

#include <array>
#include <memory>
#include <mutex>
#include <vector>

#include "core/command/command.h"
#include "core/common/object.h"
#include "core/queue/command_queue.h"

namespace tessera::core {

class Context;
class Device;
class ExecutableGraph;
class Fence;
class Graph;

// The signal event and wait list most appends take, as the application gave them (handles, not
// yet checked).
struct SyncArgs {
  ze_event_handle_t signal = nullptr;
  uint32_t numWaits = 0;
  const ze_event_handle_t* waits = nullptr;
};

// Which launch append: zeCommandListAppendLaunchKernel, ...LaunchCooperativeKernel,
// ...LaunchKernelIndirect.
enum class LaunchKind { Plain, Cooperative, Indirect };

// What a mutable command may be changed in, as recorded by nextCommandId: the values of
// ZE_mutable_command_exp_flag_t (tessera/ze_tessera.h; level_zero checks they agree).
enum MutableFlag : uint32_t {
  kMutableArguments = 1u << 0,
  kMutableGroupCount = 1u << 1,
  kMutableGroupSize = 1u << 2,
  kMutableGlobalOffset = 1u << 3,
  kMutableSignalEvent = 1u << 4,
  kMutableWaitEvents = 1u << 5,
  kMutableKernel = 1u << 6,  // the kernel, among those given with the id (version 1.1)
};

// ZE_RESULT_ERROR_INVALID_KERNEL_HANDLE of Level Zero 1.10, which Debian's headers lack
// (tessera/ze_tessera.h's TESSERA_ZE_RESULT_ERROR_INVALID_KERNEL_HANDLE; level_zero checks).
constexpr auto kInvalidKernelHandle = static_cast<ze_result_t>(0x7800001c);

// One change of zeCommandListUpdateMutableCommandsExp's chain, read from its descriptor by the
// entry point. `kind` is the flag the command must have been given; 0 stands for a descriptor of a
// type the extension does not have (INVALID_ARGUMENT when its turn comes).
struct MutableChange {
  uint32_t kind = 0;
  uint64_t commandId = 0;
  // kMutableArguments: as zeKernelSetArgumentValue's.
  uint32_t argIndex = 0;
  size_t argSize = 0;
  const void* argValue = nullptr;
  // kMutableGroupCount: the new counts (of an indirect launch: the buffer read when it runs).
  const ze_group_count_t* groupCount = nullptr;
  std::array<uint32_t, 3> groupSize{1, 1, 1};  // kMutableGroupSize
  std::array<uint64_t, 3> offset{0, 0, 0};     // kMutableGlobalOffset
};

// Level Zero 1.9's ZE_COMMAND_LIST_FLAG_IN_ORDER, ZE_BIT(3) of ze_command_list_flag_t
// (tessera/ze_tessera.h's TESSERA_ZE_COMMAND_LIST_FLAG_IN_ORDER; a public value).
inline constexpr ze_command_list_flags_t kListInOrder = 1u << 3;

class CommandList
    : public Object<_ze_command_list_handle_t, 0x746573734c737431ull /* "tessLst1" */> {
 public:
  // INVALID_ARGUMENT for an ordinal the device does not have. `isMutable`: its commands may be
  // given ids and updated after close.
  static ze_result_t create(Context& context, Device& device, const ze_command_list_desc_t& desc,
                            bool isMutable, std::unique_ptr<CommandList>& out);
  static ze_result_t createImmediate(Context& context, Device& device,
                                     const ze_command_queue_desc_t& desc,
                                     std::unique_ptr<CommandList>& out);
  static CommandList* fromHandle(ze_command_list_handle_t h) {
    return Object::fromHandle<CommandList>(h);
  }

  Context& context() const { return *context_; }
  Device& device() const { return device_; }
  uint32_t ordinal() const { return ordinal_; }
  ze_command_list_flags_t flags() const { return flags_; }
  bool isImmediate() const { return queue_ != nullptr; }
  // Created in-order (ZE_COMMAND_LIST_FLAG_IN_ORDER, or ZE_COMMAND_QUEUE_FLAG_IN_ORDER for an
  // immediate list): the only lists counter-based events may be used with.
  bool isInOrder() const { return inOrder_; }
  // An immediate list's own queue (its ordinal, index, and what zeCommandListHostSynchronize waits
  // for); nullptr for a regular list.
  CommandQueue* immediateQueue() const { return queue_.get(); }
  bool isClosed() const { return closed_; }
  bool isCopyOnly() const { return ordinal_ != 0; }

  // Records `op` with the events of `sync`, or runs it at once on an immediate list (waiting for it
  // in SYNCHRONOUS mode). INVALID_SIZE for a wait count without a list ("(nullptr ==
  // phWaitEvents) && (0 < numWaitEvents)"), INVALID_SYNCHRONIZATION_OBJECT for an event handle
  // that is not a live event, INVALID_ARGUMENT when a regular list is closed.
  ze_result_t append(Op&& op, const SyncArgs& sync);
  // A launch of the kernel `hKernel` with its arguments, group size, offset and work dimension as
  // they are now ("arguments are copied at append time") and the group counts `counts` (read when
  // the launch runs for LaunchKind::Indirect). In order: INVALID_COMMAND_LIST_TYPE on a copy-only
  // list; INVALID_NULL_HANDLE, INVALID_NULL_POINTER for a null kernel or counts; INVALID_SIZE for
  // a wait count without a list; INVALID_ARGUMENT for more than 2^32 - 1 groups (a cooperative
  // launch: more than the device has workers, every group resident at once) or an argument never
  // set; OUT_OF_DEVICE_MEMORY for private or local memory past the device's; then as append().
  // `shape` (ZE_tessera_launch_shape): the group size, offset and work dimension to use instead
  // of the kernel's (its group counts are ignored): INVALID_GROUP_SIZE_DIMENSION for a group size
  // zeKernelSetGroupSize refuses, INVALID_ARGUMENT for a work dimension above 3.
  ze_result_t appendLaunch(ze_kernel_handle_t hKernel, const ze_group_count_t* counts,
                           LaunchKind kind, const SyncArgs& sync,
                           const LaunchDims* shape = nullptr);
  // zeCommandListAppendLaunchMultipleKernelsIndirect: the launches of `numKernels` kernels, as
  // many as *count says when the command runs, with group counts read from `counts` then.
  ze_result_t appendLaunches(uint32_t numKernels, const ze_kernel_handle_t* phKernels,
                             const uint32_t* count, const ze_group_count_t* counts,
                             const SyncArgs& sync);
  // ZE_experimental_immediate_command_list_append, on an immediate list: runs the commands of the
  // closed regular lists `phLists` in order as one command, after `sync`'s waits and before its
  // signal. The lists' buffers are shared, so the run holds them alive whatever happens to the
  // lists afterwards. INVALID_NULL_HANDLE for a handle that is not a list, then the events' errors
  // as append(), then INVALID_ARGUMENT (nothing appended) when this list is not immediate or a list
  // is immediate, not executable, not runnable on this list's device (runsOn) or of another ordinal.
  ze_result_t appendLists(uint32_t numLists, const ze_command_list_handle_t* phLists,
                          const SyncArgs& sync);
  // zeCommandListAppendGraphExt: replays `graph` as appendLists replays a list (INVALID_ARGUMENT
  // for a regular list, or a graph of a device this list cannot run or of another ordinal). While
  // this list captures, both record the commands into the capture instead (a sub-graph, lists
  // appended to a graph: ZE_RECORD_REPLAY_GRAPH_EXT_FLAG_SUBGRAPHS and _APPEND_COMMANDLIST).
  ze_result_t appendGraph(ExecutableGraph& graph, const SyncArgs& sync);
  // The graph this immediate list records into (core/cmdlist/graph.h), null when not capturing.
  // Set and cleared by the graph.
  Graph* capture() const { return capture_; }
  void setCapture(Graph* graph) { capture_ = graph; }
  ~CommandList();
  ze_result_t close();
  ze_result_t reset();
  std::shared_ptr<const RecordedCommands> buffer() const { return buffer_; }
  // Closed and not updated since: what a queue may execute.
  bool isExecutable() const { return closed_ && !updated_; }
  // Whether a queue (or immediate list) of `device` may run this regular list. "The application
  // must ensure the command lists are accessible by the device on which the command queue was
  // created" (zeCommandQueueExecuteCommandLists) asks for access, not for the same device: a list
  // of the queue's device, or of another device under the same root device (intel/compute-
  // benchmarks' multitile copies record on the root device and execute on each tile's queue), as
  // in Intel's driver. Every device here runs the same code on the same memory; the queue's device
  // runs the commands, so the list's cooperative launches must fit it (every group resident).
  bool runsOn(const Device& device) const {
    return runnableOn(device_, buffer_->cooperativeGroups, device);
  }
  // The rule of runsOn for commands recorded for `recordedFor` whose cooperative launches need
  // `cooperativeGroups` groups resident (an executable graph's too).
  static bool runnableOn(const Device& recordedFor, uint64_t cooperativeGroups,
                         const Device& device);

  // --- mutable commands (mutable_commands.cpp) ---
  bool isMutable() const { return mutable_; }
  // The id of the command the next append records (INVALID_ARGUMENT unless mutable, open). With
  // kMutableKernel, `kernels` are those the command may switch to (INVALID_ARGUMENT for none or a
  // null one); asked again before the append, they are added.
  ze_result_t nextCommandId(uint32_t flags, uint64_t& id, const std::vector<Kernel*>& kernels = {});
  // zeCommandListUpdateMutableCommandKernelsExp, all or nothing: INVALID_ARGUMENT as below for an
  // id, INVALID_KERNEL_HANDLE for a kernel not given with that id, or what an append of the kernel
  // as it now is would answer (its arguments, local memory); each command then launches its new
  // kernel with that kernel's arguments, group size and offset, keeping its group count.
  ze_result_t updateKernels(uint32_t count, const uint64_t* ids, Kernel* const* kernels);
  // zeCommandListUpdateMutableCommandsExp's changes, in the chain's order, all or nothing: every
  // change is checked (and the local memory of the launches whose arguments change, with all
  // changes applied) before any is written. INVALID_ARGUMENT unless closed and mutable, for an
  // unknown id or kind, a change the id did not declare, a command that is not a single launch,
  // more than 2^32 - 1 groups; INVALID_NULL_POINTER for null group counts; a group size or an
  // argument gets the checks and codes of zeKernelSetGroupSize / zeKernelSetArgumentValue.
  ze_result_t updateMutableCommands(const std::vector<MutableChange>& changes);
  // zeCommandListUpdateMutableCommandSignalEventExp: INVALID_SYNCHRONIZATION_OBJECT for a handle
  // that is not an event (null: no signal), then INVALID_ARGUMENT as above.
  ze_result_t updateSignalEvent(uint64_t id, ze_event_handle_t hSignalEvent);
  // zeCommandListUpdateMutableCommandWaitEventsExp: INVALID_ARGUMENT as above, INVALID_SIZE for a
  // count other than the recorded one, INVALID_SYNCHRONIZATION_OBJECT for a handle that is not an
  // event (null ones are dropped; a null list waits on nothing).
  ze_result_t updateWaitEvents(uint64_t id, uint32_t numWaitEvents,
                               const ze_event_handle_t* phWaitEvents);

 private:
  CommandList(Context& context, Device& device, uint32_t ordinal, ze_command_list_flags_t flags,
              bool isMutable = false);
  friend class Graph;  // records a capture's commands with append()
  std::shared_ptr<RecordedCommands> newBuffer();
  // Records the command, or runs it at once on an immediate list (waiting for it in SYNCHRONOUS
  // mode). INVALID_ARGUMENT when a regular list is closed.
  ze_result_t append(Command&& command);
  // Gives `command` the events of `sync` (append()'s event errors; INVALID_ARGUMENT for a
  // counter-based event on a list that is not in-order: "Counter-based events can be used only
  // with in-orders lists, whether those are regular or immediate").
  ze_result_t attachSync(const SyncArgs& sync, Command& command) const;
  // The launch of `kernel` as it stands, for this list's device (appendLaunch's INVALID_ARGUMENT
  // and OUT_OF_DEVICE_MEMORY); group counts from `counts` unless null.
  ze_result_t makeLaunch(Kernel& kernel, const ze_group_count_t* counts, LaunchOp& out,
                         const LaunchDims* shape = nullptr) const;
  // The command `id` names, for a change of kind `flag`, on a closed mutable list: nullptr and
  // `error` set otherwise. Checks without changing anything.
  const Command* findMutable(uint64_t id, uint32_t flag, ze_result_t& error) const;
  // The single kernel launch `id` names, likewise (INVALID_ARGUMENT for another command).
  const LaunchOp* findMutableLaunch(uint64_t id, uint32_t flag, ze_result_t& error) const;
  // Copies the buffer first when an execution still holds it, and marks the list as updated (to be
  // closed again). After it, commandAt() may write.
  void markUpdated();
  // The command `id` names, which findMutable accepted, for writing after markUpdated().
  Command& commandAt(uint64_t id) { return buffer_->commands[records_[id - 1].index]; }
  // One change: checked only, or (after every one was checked and markUpdated()) written.
  ze_result_t checkChange(const MutableChange& c) const;
  ze_result_t applyChange(const MutableChange& c);
  // The local memory of the launches whose arguments `changes` change, with all of them applied.
  ze_result_t checkUpdatedLocalMemory(const std::vector<MutableChange>& changes) const;
  // Whether an asynchronous immediate list may run `c` on the calling thread: its waits are
  // signalled and its work is small (kTinyItems, kTinyBytes).
  static bool isTinyAndReady(const Command& c);

  Ref<Context> context_;  // held: the context may be destroyed first (context.h)
  Device& device_;
  uint32_t ordinal_;
  ze_command_list_flags_t flags_;
  bool closed_ = false;
  bool inOrder_ = false;
  bool mutable_ = false;
  bool updated_ = false;  // updated since the last close
  // One record per command id (ids are 1-based indices into it).
  struct MutableRecord {
    size_t index;   // of the command in the buffer
    uint32_t flags; // what may change
    size_t waits;   // wait events recorded
    std::vector<Ref<Kernel>> kernels;  // kMutableKernel: what it may switch to
  };
  std::vector<MutableRecord> records_;
  // zeCommandListGetNextCommandIdExp "may be called from simultaneous threads with the same command
  // list handle" (appends may not, so they read records_ without it).
  std::mutex idMutex_;
  std::shared_ptr<RecordedCommands> buffer_;
  std::unique_ptr<CommandQueue> queue_;  // immediate lists only
  Graph* capture_ = nullptr;             // immediate lists only: capturing into this graph
  // The buffers run as one submission on this immediate list: `sync`'s waits first, then
  // `recorded`, then its signal (appendLists, appendGraph).
  ze_result_t submitRecorded(std::vector<std::shared_ptr<const RecordedCommands>> recorded,
                             Command& sync);
  // The same appended to this list's capture command by command: the waits, the buffers' commands
  // as they are now, then the signal.
  ze_result_t captureRecorded(const std::vector<std::shared_ptr<const RecordedCommands>>& recorded,
                              Command& sync);
};

// zeCommandQueueExecuteCommandLists after its handles were checked: the lists must be closed,
// regular, runnable on `queue`'s device (CommandList::runsOn) and of its ordinal; the fence must
// be the queue's. Hands their buffers to the queue (waiting for them on a synchronous one).
ze_result_t executeCommandLists(CommandQueue& queue, const std::vector<CommandList*>& lists,
                                Fence* fence);

}  // namespace tessera::core
