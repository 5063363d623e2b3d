#include "core/common/object.h"

#include <new>

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

void* allocate(size_t bytes) {
  return ::operator new(bytes);
}

void quarantine(Quarantine& q, void* block, size_t bytes) {
  // About 256 KiB per type: 1024 small objects (events), fewer large ones, at least 16.
  constexpr size_t kBytes = 256 * 1024, kMost = 1024, kLeast = 16;
  size_t keep = bytes ? kBytes / bytes : kMost;
  keep = keep < kLeast ? kLeast : keep > kMost ? kMost : keep;
  void* oldest = nullptr;
  {
    std::lock_guard lock(q.mutex);
    try {
      q.blocks.push_back(block);
    } catch (...) {
      oldest = block;  // no room to hold it: freed at once, as without the quarantine
    }
    if (!oldest && q.blocks.size() > keep) {
      oldest = q.blocks.front();
      q.blocks.pop_front();
    }
  }
  ::operator delete(oldest);
}

}  // namespace tessera::core::handles
