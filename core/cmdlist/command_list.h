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

#include <memory>
#include <mutex>

#include "core/cmdlist/command.h"
#include "core/common/object.h"
#include "core/queue/command_queue.h"

namespace tessera::core {

class Context;
class Device;

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

  Context& context() const { return context_; }
  Device& device() const { return device_; }
  uint32_t ordinal() const { return ordinal_; }
  ze_command_list_flags_t flags() const { return flags_; }
  bool isImmediate() const { return queue_ != nullptr; }
  bool isClosed() const { return closed_; }
  bool isCopyOnly() const { return ordinal_ != 0; }

  // Records the command, or runs it at once on an immediate list (waiting for it in SYNCHRONOUS
  // mode). INVALID_ARGUMENT when a regular list is closed.
  ze_result_t append(Command command);
  // ZE_experimental_immediate_command_list_append, on an immediate list: runs the commands of the
  // closed regular `lists` in order as one command, after `sync`'s waits and before its signal (its
  // op is ignored). The lists' buffers are shared, so the run holds them alive whatever happens to
  // the lists afterwards. INVALID_ARGUMENT (nothing appended) when this list is not immediate or a
  // list is immediate, not executable, or of another device or ordinal.
  ze_result_t appendLists(const std::vector<CommandList*>& lists, Command sync);
  ze_result_t close();
  ze_result_t reset();
  std::shared_ptr<const CommandBuffer> buffer() const { return buffer_; }
  // Closed and not updated since: what a queue may execute.
  bool isExecutable() const { return closed_ && !updated_; }

  // --- mutable commands ---
  bool isMutable() const { return mutable_; }
  // The id of the command the next append records (INVALID_ARGUMENT unless mutable, open).
  ze_result_t nextCommandId(uint32_t flags, uint64_t& id);
  // The command `id` names, for a change of kind `flag`, on a closed mutable list: nullptr and
  // `error` set otherwise. Copies the buffer first when an execution still holds it, and marks the
  // list as updated (to be closed again).
  Command* mutableCommand(uint64_t id, uint32_t flag, ze_result_t& error);
  // Checks without changing anything (for the all-or-nothing pass over an update chain).
  const Command* findMutable(uint64_t id, uint32_t flag, ze_result_t& error) const;
  // The wait count the command was recorded with.
  size_t recordedWaits(uint64_t id) const { return records_[id - 1].waits; }
  void markUpdated();

 private:
  CommandList(Context& context, Device& device, uint32_t ordinal, ze_command_list_flags_t flags,
              bool isMutable = false);
  std::shared_ptr<CommandBuffer> newBuffer();
  // Whether an asynchronous immediate list may run `c` on the calling thread: its waits are
  // signalled and its work is small (kTinyItems, kTinyBytes).
  static bool isTinyAndReady(const Command& c);

  Context& context_;
  Device& device_;
  uint32_t ordinal_;
  ze_command_list_flags_t flags_;
  bool closed_ = false;
  bool mutable_ = false;
  bool updated_ = false;  // updated since the last close
  // One record per command id (ids are 1-based indices into it).
  struct MutableRecord {
    size_t index;   // of the command in the buffer
    uint32_t flags; // what may change
    size_t waits;   // wait events recorded
  };
  std::vector<MutableRecord> records_;
  // zeCommandListGetNextCommandIdExp "may be called from simultaneous threads with the same command
  // list handle" (appends may not, so they read records_ without it).
  std::mutex idMutex_;
  std::shared_ptr<CommandBuffer> buffer_;
  std::unique_ptr<CommandQueue> queue_;  // immediate lists only
};

}  // namespace tessera::core
