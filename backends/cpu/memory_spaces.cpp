#include "backends/cpu/memory_spaces.h"

#include <algorithm>
#include <mutex>
#include <shared_mutex>
#include <vector>

namespace tessera::backends::cpu {
namespace {

struct Range {
  const uint8_t* base;
  uint64_t bytes;
  MemorySpace space;
};

struct Registry {
  std::shared_mutex mutex;
  std::vector<Range> ranges;  // a few per thread that ran kernels
};

// Never destroyed: threads may remove their ranges while the process exits.
Registry& registry() {
  static Registry* r = new Registry;
  return *r;
}

}  // namespace

void addSpaceRange(const void* base, uint64_t bytes, MemorySpace space) {
  Registry& r = registry();
  std::unique_lock lock(r.mutex);
  r.ranges.push_back({static_cast<const uint8_t*>(base), bytes, space});
}

void removeSpaceRange(const void* base) {
  Registry& r = registry();
  std::unique_lock lock(r.mutex);
  auto it = std::find_if(r.ranges.begin(), r.ranges.end(),
                         [&](const Range& x) { return x.base == base; });
  if (it != r.ranges.end()) r.ranges.erase(it);
}

MemorySpace spaceOf(const void* p) {
  const auto* q = static_cast<const uint8_t*>(p);
  Registry& r = registry();
  std::shared_lock lock(r.mutex);
  for (const Range& x : r.ranges)
    if (q >= x.base && q - x.base < static_cast<std::ptrdiff_t>(x.bytes)) return x.space;
  return MemorySpace::Global;
}

}  // namespace tessera::backends::cpu
