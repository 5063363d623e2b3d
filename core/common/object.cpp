#include "core/common/object.h"

#include <mutex>
#include <shared_mutex>
#include <unordered_set>

namespace tessera::core::handles {
namespace {

struct Registry {
  std::shared_mutex mutex;
  std::unordered_set<const void*> live;
};

// Never destroyed: handles may be checked while static destructors run at exit.
Registry& registry() {
  static Registry* r = new Registry;
  return *r;
}

}  // namespace

void add(const void* object) {
  Registry& r = registry();
  std::unique_lock lock(r.mutex);
  r.live.insert(object);
}

void remove(const void* object) {
  Registry& r = registry();
  std::unique_lock lock(r.mutex);
  r.live.erase(object);
}

bool isLive(const void* object) {
  Registry& r = registry();
  std::shared_lock lock(r.mutex);
  return r.live.count(object) != 0;
}

}  // namespace tessera::core::handles
