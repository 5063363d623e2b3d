#include "cl_shim/object.h"

#include <map>
#include <mutex>
#include <new>
#include <shared_mutex>
#include <unordered_set>
#include <vector>

namespace tessera::cl::registry {
namespace {

struct Registry {
  std::shared_mutex mutex;
  std::unordered_set<const void*> live;
};

// Never destroyed: handles may be checked from other libraries' destructors at exit.
Registry& registryInstance() {
  static Registry* r = new Registry;
  return *r;
}

}  // namespace

void add(const void* handle) {
  Registry& r = registryInstance();
  std::unique_lock lock(r.mutex);
  r.live.insert(handle);
}

void remove(const void* handle) {
  Registry& r = registryInstance();
  std::unique_lock lock(r.mutex);
  r.live.erase(handle);
}

bool isLive(const void* handle) {
  Registry& r = registryInstance();
  std::shared_lock lock(r.mutex);
  return r.live.count(handle) != 0;
}

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
