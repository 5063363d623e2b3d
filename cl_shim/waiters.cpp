#include "cl_shim/waiters.h"

#include "support/fork_child.h"

#include <atomic>
#include <cstdio>
#include <exception>
#include <list>
#include <memory>
#include <mutex>
#include <thread>

namespace tessera::cl {

namespace {

// How long one wait lasts before the waiter looks whether the process is exiting: an event that is
// signalled ends the wait at once, so this is only the exit's delay.
constexpr uint64_t kWaitSliceNs = 20'000'000;

class Waiters {
 public:
  ~Waiters() {
    exiting_.store(true, std::memory_order_relaxed);
    std::list<Entry> all;
    {
      std::lock_guard lock(mutex_);
      all.swap(entries_);
    }
    for (Entry& e : all) {
      // A fork() child does not join its parent's threads: they do not exist here
      // (support/fork_child.h), and their events never complete in the child.
      if (e.owner.isForkCopy())
        support::abandonThread(e.thread);
      else
        e.thread.join();
    }
  }

  void start(std::function<void()> work) {
    std::lock_guard lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end();) {
      if (it->done->load(std::memory_order_acquire) && !it->owner.isForkCopy()) {
        it->thread.join();
        it = entries_.erase(it);
      } else {
        ++it;
      }
    }
    auto done = std::make_shared<std::atomic<bool>>(false);
    entries_.push_back({std::thread([work = std::move(work), done] {
                          // No exception may leave the thread (std::terminate would end the
                          // process): the work is dropped with a line on stderr.
                          try {
                            work();
                          } catch (const std::exception& e) {
                            std::fprintf(stderr, "tessera: an OpenCL event callback failed (%s)\n",
                                         e.what());
                          } catch (...) {
                            std::fprintf(stderr, "tessera: an OpenCL event callback failed\n");
                          }
                          done->store(true, std::memory_order_release);
                        }),
                        done});
  }

  bool exiting() const { return exiting_.load(std::memory_order_relaxed); }

 private:
  struct Entry {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
    support::OwnerProcess owner{};  // the process that started the thread
  };
  std::mutex mutex_;
  std::list<Entry> entries_;
  std::atomic<bool> exiting_{false};
};

// Constructed on first use, after the objects the waiters touch (handle registries, pools), so
// destroyed, and its threads joined, before them.
Waiters& waiters() {
  static Waiters w;
  return w;
}

}  // namespace

void startWaiter(std::function<void()> work) { waiters().start(std::move(work)); }

bool waitForEvent(ze_event_handle_t event) {
  Waiters& w = waiters();
  while (!w.exiting()) {
    if (zeEventHostSynchronize(event, kWaitSliceNs) != ZE_RESULT_NOT_READY) return true;
  }
  return false;
}

}  // namespace tessera::cl
