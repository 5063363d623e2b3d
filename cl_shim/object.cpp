#include "cl_shim/object.h"

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

struct Pools {
  std::mutex mutex;
  std::map<size_t, std::vector<void*>> free;  // by object size
};

Pools& pools() {
  static Pools* p = new Pools;  // never destroyed, like the memory it keeps
  return *p;
}

}  // namespace

void* allocate(size_t bytes) {
  {
    Pools& p = pools();
    std::lock_guard lock(p.mutex);
    auto it = p.free.find(bytes);
    if (it != p.free.end() && !it->second.empty()) {
      void* block = it->second.back();
      it->second.pop_back();
      return block;
    }
  }
  return ::operator new(bytes);
}

void release(void* block, size_t bytes) {
  // The destroyed object's bytes stay as they are, its dispatch pointer among them.
  Pools& p = pools();
  std::lock_guard lock(p.mutex);
  p.free[bytes].push_back(block);
}

}  // namespace tessera::cl::handle_memory
