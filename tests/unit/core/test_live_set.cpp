// support::LiveSet, the handle registries' set: membership through growth and tombstones, bounded
// tables under churn, and lookups racing additions, removals and moves between tables.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "support/live_set.h"

using tessera::support::LiveSet;

namespace {

const void* address(uintptr_t i) { return reinterpret_cast<const void*>(0x10000 + i * 48); }

}  // namespace

TEST_CASE("Given a live set, when addresses come and go past its first table, then membership "
          "follows",
          "[support][live_set]") {
  LiveSet set;
  CHECK_FALSE(set.contains(nullptr));
  for (uintptr_t i = 0; i < 5000; ++i) set.add(address(i));
  set.add(address(7));  // twice: still one entry
  for (uintptr_t i = 0; i < 5000; ++i) REQUIRE(set.contains(address(i)));
  CHECK_FALSE(set.contains(address(5000)));
  for (uintptr_t i = 0; i < 5000; i += 2) set.remove(address(i));
  set.remove(address(0));  // again: nothing
  for (uintptr_t i = 0; i < 5000; ++i) REQUIRE(set.contains(address(i)) == (i % 2 == 1));
  for (uintptr_t i = 0; i < 5000; i += 2) set.add(address(i));
  for (uintptr_t i = 0; i < 5000; ++i) REQUIRE(set.contains(address(i)));
}

TEST_CASE("Given a live set, when objects are made and destroyed a million times, then it keeps "
          "at most two tables of each size",
          "[support][live_set]") {
  LiveSet set;
  for (uintptr_t i = 0; i < 100; ++i) set.add(address(i));
  for (uintptr_t i = 0; i < 1000000; ++i) {
    set.add(address(1000 + i));  // always a new address: tombstones pile up, then move
    set.remove(address(1000 + i));
  }
  for (uintptr_t i = 0; i < 100; ++i) REQUIRE(set.contains(address(i)));
  CHECK(set.tableCount() <= 2);
}

TEST_CASE("Given lookups on other threads, when the set grows, churns and moves, then a member is "
          "always found and a stranger never",
          "[support][live_set][threads]") {
  LiveSet set;
  constexpr uintptr_t kStable = 300;
  for (uintptr_t i = 0; i < kStable; ++i) set.add(address(i));
  std::atomic<bool> done{false};
  std::atomic<uint64_t> wrong{0}, lookups{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 3; ++r) {
    readers.emplace_back([&] {
      uint64_t n = 0;
      while (!done.load(std::memory_order_relaxed)) {
        for (uintptr_t i = 0; i < kStable; ++i) {
          if (!set.contains(address(i))) wrong.fetch_add(1);
          if (set.contains(address(10'000'000 + i))) wrong.fetch_add(1);  // never added
          n += 2;
        }
      }
      lookups.fetch_add(n);
    });
  }
  // Growth to 16k entries, then churn that forces moves at every size.
  for (uintptr_t i = 0; i < 8000; ++i) set.add(address(kStable + i));
  for (uintptr_t i = 0; i < 8000; ++i) set.remove(address(kStable + i));
  for (uintptr_t i = 0; i < 200000; ++i) {
    set.add(address(100000 + i));
    if (i >= 50) set.remove(address(100000 + i - 50));
  }
  done = true;
  for (std::thread& t : readers) t.join();
  CHECK(wrong.load() == 0);
  CHECK(lookups.load() > 0);
}
