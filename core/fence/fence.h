// A fence: signalled by its queue after the command lists of one execution completed. It holds its
// queue's context, not the queue: the queue may be destroyed first (docs/api-coverage.md,
// "Leniency"), and the fence then stays a valid handle that nothing signals any more.
#pragma once

#include <level_zero/ze_api.h>

#include <atomic>

#include "core/common/object.h"
#include "core/common/ref_counted.h"
#include "core/context/context.h"
#include "core/sync/wait.h"

namespace tessera::core {

class CommandQueue;

class Fence : public Object<_ze_fence_handle_t, 0x7465737346656e31ull /* "tessFen1" */>,
              public RefCounted<Fence> {
 public:
  static Fence* create(const CommandQueue& queue, Context& context, bool signaled) {
    return new Fence(queue, context, signaled);
  }
  static Fence* fromHandle(ze_fence_handle_t h) { return Object::fromHandle<Fence>(h); }

  // Compared, never followed (the queue may be gone).
  bool madeOn(const CommandQueue& queue) const { return &queue == queue_; }
  Context& context() const { return *context_; }
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
  Fence(const CommandQueue& queue, Context& context, bool signaled)
      : queue_(&queue), context_(&context), word_(signaled ? 1u : 0u) {}
  ~Fence() = default;
  friend class RefCounted<Fence>;

  const CommandQueue* queue_;
  Ref<Context> context_;
  std::atomic<uint32_t> word_;
};

}  // namespace tessera::core
