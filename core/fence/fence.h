// A fence: signalled by its queue after the command lists of one execution completed.
#pragma once

#include <level_zero/ze_api.h>

#include <atomic>

#include "core/common/object.h"
#include "core/common/ref_counted.h"
#include "core/sync/wait.h"

namespace tessera::core {

class CommandQueue;

class Fence : public Object<_ze_fence_handle_t, 0x7465737346656e31ull /* "tessFen1" */>,
              public RefCounted<Fence> {
 public:
  static Fence* create(CommandQueue& queue, bool signaled) { return new Fence(queue, signaled); }
  static Fence* fromHandle(ze_fence_handle_t h) { return Object::fromHandle<Fence>(h); }

  CommandQueue& queue() const { return queue_; }
  // "Signaling a signaled fence (or resetting an unsignaled fence) is valid and has no effect."
  void signal() { sync::flagSet(word_, false); }
  void reset() { sync::flagClear(word_); }
  bool isSignaled() const { return sync::flagIsSet(word_); }
  bool wait(uint64_t timeoutNs) { return sync::flagWait(word_, timeoutNs, false); }
  void destroy() {
    retireHandle();
    release();
  }

 private:
  Fence(CommandQueue& queue, bool signaled) : queue_(queue), word_(signaled ? 1u : 0u) {}
  ~Fence() = default;
  friend class RefCounted<Fence>;

  CommandQueue& queue_;
  std::atomic<uint32_t> word_;
};

}  // namespace tessera::core
