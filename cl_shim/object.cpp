#include "cl_shim/object.h"

#include <mutex>
#include <shared_mutex>
#include <unordered_set>

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
