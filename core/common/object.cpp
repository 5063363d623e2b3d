#include "core/common/object.h"

#include "support/live_set.h"

namespace tessera::core::handles {
namespace {

// Never destroyed: handles may be checked while static destructors run at exit.
support::LiveSet& live() {
  static support::LiveSet* set = new support::LiveSet;
  return *set;
}

}  // namespace

void add(const void* handle) { live().add(handle); }

void remove(const void* handle) { live().remove(handle); }

bool isLive(const void* handle) { return live().contains(handle); }

}  // namespace tessera::core::handles
