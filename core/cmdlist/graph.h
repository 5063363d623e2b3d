// Record and replay graphs: Level Zero 1.17's ZE_extension_record_replay_graph (zeGraphCreateExt,
// zeCommandListBeginGraphCaptureExt, ...) and Intel's ZE_experimental_record_replay_graph, the
// same operations under Exp names (level_zero/ze_graph_api.cpp). "After this call succeeds, append
// operations issued to the command list are recorded into a graph and are not submitted to the
// device"; an instantiated graph is replayed on an immediate list with zeCommandListAppendGraphExt.
//
// Tessera records a capture's commands, in the order they are appended, into one regular command
// list on the primary list's device and ordinal (in-order when the primary list is). A replay runs
// them in that order as one submission: every dependency a capture can express is a wait for an
// event that a command appended before it signals, so the order keeps them all; what is given up
// is the concurrency between forks.
//
// Forks: "If an event signaled by a captured command list is used in the wait list of another
// immediate command list, that command list also enters graph capture mode." A command that
// signals an event records that event's capture (Event::capturedBy) until the capture ends; an
// immediate list whose append waits for such an event joins that capture (CommandList::append),
// and "This call ends graph capture mode on all command lists participating in the same graph
// capture". Waiting for an event of another capture on a list already capturing is
// ZE_RESULT_ERROR_GRAPH_CAPTURE_MERGE_ATTEMPT.
#pragma once

#include <level_zero/ze_api.h>

#include <memory>
#include <mutex>
#include <vector>

#include "core/command/command.h"
#include "core/common/object.h"
#include "core/common/ref_counted.h"

namespace tessera::core {

class CommandList;
class Context;
class Device;
class Event;

// ze_result_t values of Level Zero 1.17 that Debian's 1.4 headers lack.
inline constexpr ze_result_t kResultQueryTrue = static_cast<ze_result_t>(0x78000022);
inline constexpr ze_result_t kResultQueryFalse = static_cast<ze_result_t>(0x78000023);
inline constexpr ze_result_t kResultGraphCaptureUnsupported = static_cast<ze_result_t>(0x78000025);
inline constexpr ze_result_t kResultGraphCaptureMergeAttempt = static_cast<ze_result_t>(0x78000027);

class Graph : public Object<_ze_graph_handle_t, 0x7465737347726631ull /* "tessGrf1" */>,
              public RefCounted<Graph> {
 public:
  using DestructionCallback = void (*)(void* userData);

  static Graph* create(Context& context);
  static Graph* fromHandle(_ze_graph_handle_t* h) { return Object::fromHandle<Graph>(h); }

  Context& context() const { return *context_; }
  // Starts capturing appends of the immediate list `primary`: INVALID_ARGUMENT when the graph is
  // not empty ("The graph must be empty when capture begins") or `primary` is of another context.
  ze_result_t begin(CommandList& primary);
  // `child` waited for an event a command of this capture signals: it records into it too.
  void join(CommandList& child);
  // Ends the capture on every list that takes part; INVALID_ARGUMENT unless `primary` started it.
  ze_result_t end(CommandList& primary);
  // A command appended to a capturing list: recorded, not run.
  ze_result_t record(Command&& command);
  // A list that takes part is destroyed: it leaves the capture (the primary's end ends it). A
  // graph the capture owns (ownByCapture) goes with its primary list.
  void leave(CommandList& list);
  // zeCommandListBeginGraphCaptureExt's graph of its own: the capture owns it until its end hands
  // it to the application.
  void ownByCapture();
  bool ownedByCapture() const;

  bool capturing() const;
  bool empty() const;
  CommandList* primary() const;
  // The recorded commands once the capture has ended (null before or while capturing).
  std::shared_ptr<const RecordedCommands> recorded() const;
  Device* device() const;  // the primary list's; null before a capture
  uint32_t ordinal() const;

  void setDestructionCallback(DestructionCallback callback, void* userData);
  // zeGraphDumpContentsExt: the recorded commands as DOT (graph_dot.h) written to `path`;
  // INVALID_ARGUMENT while capturing ("a recorded graph") or when the file cannot be written.
  ze_result_t dumpDot(const char* path) const;
  // zeGraphDestroyExt: HANDLE_OBJECT_IN_USE while capturing; executable graphs made from it keep
  // it until they are destroyed.
  ze_result_t destroy();

 private:
  explicit Graph(Context& context);
  ~Graph();
  friend class RefCounted<Graph>;
  void endLocked();

  Ref<Context> context_;
  mutable std::mutex mutex_;
  bool capturing_ = false;
  bool ownedByCapture_ = false;
  CommandList* primary_ = nullptr;
  std::vector<CommandList*> members_;  // the primary and the forks, while capturing
  std::unique_ptr<CommandList> recording_;
  std::vector<Ref<Event>> signalled_;  // events captured commands signal (Event::capturedBy)
  DestructionCallback callback_ = nullptr;
  void* callbackData_ = nullptr;
};

// zeGraphInstantiateExt's result: the recorded commands, shared by every replay.
class ExecutableGraph
    : public Object<_ze_executable_graph_handle_t, 0x7465737358477231ull /* "tessXGr1" */>,
      public RefCounted<ExecutableGraph> {
 public:
  // INVALID_ARGUMENT while the graph is capturing or before it captured anything.
  static ze_result_t create(Graph& graph, ExecutableGraph*& out);
  static ExecutableGraph* fromHandle(_ze_executable_graph_handle_t* h) {
    return Object::fromHandle<ExecutableGraph>(h);
  }
  Graph& source() const { return *source_; }
  const std::shared_ptr<const RecordedCommands>& commands() const { return commands_; }
  Device& device() const { return device_; }
  uint32_t ordinal() const { return ordinal_; }
  void destroy() {
    retireHandle();
    release();
  }

 private:
  ExecutableGraph(Graph& graph, std::shared_ptr<const RecordedCommands> commands, Device& device,
                  uint32_t ordinal)
      : source_(&graph), commands_(std::move(commands)), device_(device), ordinal_(ordinal) {}
  ~ExecutableGraph() = default;
  friend class RefCounted<ExecutableGraph>;

  Ref<Graph> source_;
  std::shared_ptr<const RecordedCommands> commands_;
  Device& device_;
  uint32_t ordinal_;
};

}  // namespace tessera::core
