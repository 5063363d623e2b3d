#include "cl_shim/object.h"

#include <deque>
#include <map>
#include <mutex>
#include <new>
#include <vector>

#include "support/live_set.h"

namespace tessera::cl::registry {
namespace {

// Never destroyed: handles may be checked from other libraries' destructors at exit.
support::LiveSet& live() {
  static support::LiveSet* set = new support::LiveSet;
  return *set;
}

}  // namespace

void add(const void* handle) { live().add(handle); }

void remove(const void* handle) { live().remove(handle); }

bool isLive(const void* handle) { return live().contains(handle); }

}  // namespace tessera::cl::registry

namespace tessera::cl::handle_memory {
namespace {

// Freed blocks by object size, oldest first. A block is reused only when more than its size's
// quarantine (about 256 KiB of blocks, 16 to 1024) were freed after it, so a stale handle does not
// name the next object made: it stays refused until that many objects of its size were released
// after it (the remaining window).
struct Pools {
  std::mutex mutex;
  std::map<size_t, std::deque<void*>> free;
};

Pools& pools() {
  static Pools* p = new Pools;  // never destroyed, like the memory it keeps
  return *p;
}

size_t quarantined(size_t bytes) {
  constexpr size_t kBytes = 256 * 1024, kMost = 1024, kLeast = 16;
  size_t keep = bytes ? kBytes / bytes : kMost;
  return keep < kLeast ? kLeast : keep > kMost ? kMost : keep;
}

}  // namespace

void* allocate(size_t bytes) {
  {
    Pools& p = pools();
    std::lock_guard lock(p.mutex);
    auto it = p.free.find(bytes);
    if (it != p.free.end() && it->second.size() > quarantined(bytes)) {
      void* block = it->second.front();
      it->second.pop_front();
      return block;
    }
  }
  return ::operator new(bytes);
}

void release(void* block, size_t bytes) {
  // The destroyed object's bytes stay as they are, its dispatch pointer among them. (No room to
  // remember the block: it is lost, which keeps the dispatch pointer readable too.)
  Pools& p = pools();
  std::lock_guard lock(p.mutex);
  try {
    p.free[bytes].push_back(block);
  } catch (...) {
  }
}

}  // namespace tessera::cl::handle_memory
