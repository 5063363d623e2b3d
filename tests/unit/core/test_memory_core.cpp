// core/memory without the API: the allocation map, the arena allocator, zeMemFreeExt's policies
// (uses held by work in flight), and the topology's area binding.
#include <sys/stat.h>

#include <atomic>
#include <cstring>
#include <thread>

#include "core/context/context.h"
#include "core/driver/driver.h"
#include "core/memory/allocation_map.h"
#include "core/memory/arena.h"
#include "core_test_support.h"

using namespace tessera::core;

namespace {

Allocation fake(uintptr_t base, size_t size, uint64_t id) {
  Allocation a;
  a.base = reinterpret_cast<uint8_t*>(base);
  a.size = size;
  a.id = id;
  return a;
}

std::unique_ptr<Driver> syntheticDriver() {
  DriverConfig c;
  c.topology = {TopologySource::Kind::Synthetic, "pack:1 numa:2 core:2 pu:1"};
  return Driver::create(std::move(c));
}

}  // namespace

TEST_CASE("Given allocations in the map, then interior pointers find them and gaps find nothing",
          "[unit][memory]") {
  AllocationMap m;
  m.insert(fake(0x1000, 0x100, 1));
  m.insert(fake(0x2000, 0x1000, 2));
  CHECK(m.find(reinterpret_cast<void*>(0x1000))->id == 1);
  CHECK(m.find(reinterpret_cast<void*>(0x10ff))->id == 1);
  CHECK_FALSE(m.find(reinterpret_cast<void*>(0x1100)));
  CHECK_FALSE(m.find(reinterpret_cast<void*>(0xfff)));
  CHECK(m.find(reinterpret_cast<void*>(0x2fff))->id == 2);
  CHECK(m.containsRange(reinterpret_cast<void*>(0x2800), 0x800));
  CHECK_FALSE(m.containsRange(reinterpret_cast<void*>(0x2800), 0x801));
  CHECK_FALSE(m.erase(reinterpret_cast<void*>(0x2001)));
  CHECK(m.erase(reinterpret_cast<void*>(0x2000))->id == 2);
  CHECK(m.size() == 1);
}

TEST_CASE("Given many threads, when they insert, find and erase, then the map stays consistent",
          "[unit][memory]") {
  AllocationMap m;
  std::atomic<int> bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 2000; ++i) {
        uintptr_t base = (uintptr_t(t + 1) << 32) + uintptr_t(i) * 0x1000;
        m.insert(fake(base, 0x800, uint64_t(t) * 10000 + i));
        auto a = m.find(reinterpret_cast<void*>(base + 0x7ff));
        if (!a || a->id != uint64_t(t) * 10000 + i) ++bad;
        if (i % 2 && !m.erase(reinterpret_cast<void*>(base))) ++bad;
      }
    });
  for (auto& t : threads) t.join();
  CHECK(bad == 0);
  CHECK(m.size() == 8 * 1000);
}

TEST_CASE(
    "Given the arena allocator, then slots are page-aligned, distinct, honour alignment and "
    "are reused after release",
    "[unit][memory]") {
  ArenaAllocator& a = ArenaAllocator::global();
  Placement none;
  std::vector<Slot> slots;
  for (int i = 0; i < 300; ++i) slots.push_back(a.allocate(64, 0, none, false));
  for (Slot& s : slots) {
    REQUIRE(s.ptr);
    CHECK(reinterpret_cast<uintptr_t>(s.ptr) % kPageSize == 0);
    CHECK(s.backing->data() + s.offset == s.ptr);
    std::memset(s.ptr, 1, s.bytes);
  }
  std::vector<uint8_t*> ptrs;
  for (Slot& s : slots) ptrs.push_back(s.ptr);
  std::sort(ptrs.begin(), ptrs.end());
  CHECK(std::adjacent_find(ptrs.begin(), ptrs.end()) == ptrs.end());
  uint8_t* last = slots.back().ptr;
  a.release(slots.back());
  Slot again = a.allocate(100, 0, none, false);
  CHECK(again.ptr == last);  // the free list hands back the page just freed
  a.release(again);
  for (size_t align : {size_t{65536}, size_t{262144}, size_t{1} << 22}) {
    Slot s = a.allocate(10, align, none, false);
    CHECK(reinterpret_cast<uintptr_t>(s.ptr) % align == 0);
    a.release(s);
  }
  Slot big = a.allocate(3 << 20, 0, none, false);
  CHECK(big.owned != nullptr);  // past the largest class: a backing of its own
  CHECK(big.offset == 0);
  Slot exported = a.allocate(64, 0, none, true);
  CHECK(exported.owned != nullptr);
  a.release(big);
  a.release(exported);
  for (Slot& s : slots) a.release(s);
}

namespace {

// The memfd behind an allocation, by its inode: unique among live files, so a kept backing
// shows up as the same inode in the next allocation.
ino_t backingInode(MemoryManager& m, void* p) {
  struct stat st {};
  auto a = m.find(p);
  REQUIRE(a);
  REQUIRE(fstat(a->slot.backing->fd(), &st) == 0);
  return st.st_ino;
}

}  // namespace

TEST_CASE(
    "Given a freed large allocation, when one of its size is made again, then it gets the same "
    "pages, unless another process may have mapped them (IPC), and one of another size does not",
    "[unit][memory]") {
  auto driver = syntheticDriver();
  auto context = Context::create(*driver, {});
  MemoryManager& m = context->memory();
  ArenaAllocator::global().dropCached();  // what earlier tests left
  const size_t bytes = 3 << 20;
  AllocRequest r{MemoryKind::Device, bytes, 0, driver->devices()[0]};
  void* p = nullptr;
  REQUIRE(m.allocate(r, &p) == ZE_RESULT_SUCCESS);
  std::memset(p, 0x5a, bytes);
  const ino_t first = backingInode(m, p);
  REQUIRE(m.free(p) == ZE_RESULT_SUCCESS);

  // Same size and placement: the kept backing, its pages still there.
  REQUIRE(m.allocate(r, &p) == ZE_RESULT_SUCCESS);
  CHECK(backingInode(m, p) == first);
  CHECK(static_cast<uint8_t*>(p)[bytes - 1] == 0x5a);
  // Another size: a backing of its own.
  void* other = nullptr;
  AllocRequest larger = r;
  larger.size = bytes + kPageSize;
  REQUIRE(m.allocate(larger, &other) == ZE_RESULT_SUCCESS);
  CHECK(backingInode(m, other) != first);
  REQUIRE(m.free(other) == ZE_RESULT_SUCCESS);

  // An IPC handle was made: its file may be mapped elsewhere, so it is not kept.
  ze_ipc_mem_handle_t handle{};
  REQUIRE(m.getIpcHandle(p, &handle) == ZE_RESULT_SUCCESS);
  REQUIRE(m.putIpcHandle(handle) == ZE_RESULT_SUCCESS);
  REQUIRE(m.free(p) == ZE_RESULT_SUCCESS);
  REQUIRE(m.allocate(r, &p) == ZE_RESULT_SUCCESS);
  CHECK(backingInode(m, p) != first);
  REQUIRE(m.free(p) == ZE_RESULT_SUCCESS);

  // A library's larger temporaries (CLBlast's 32 MiB at n = 2048) are kept as well: the budget
  // follows the machine, at least 64 MiB, and one backing may take half of it.
  const size_t budget = ArenaAllocator::cacheBudget();
  CHECK(budget >= (size_t{64} << 20));
  CHECK(budget <= (size_t{1} << 30));
  AllocRequest big{MemoryKind::Device, budget / 2, 0, driver->devices()[0]};
  REQUIRE(m.allocate(big, &p) == ZE_RESULT_SUCCESS);
  const ino_t bigFirst = backingInode(m, p);
  REQUIRE(m.free(p) == ZE_RESULT_SUCCESS);
  REQUIRE(m.allocate(big, &p) == ZE_RESULT_SUCCESS);
  CHECK(backingInode(m, p) == bigFirst);
  REQUIRE(m.free(p) == ZE_RESULT_SUCCESS);
  // Beyond half of the budget: not kept.
  AllocRequest huge = big;
  huge.size = budget / 2 + kPageSize;
  REQUIRE(m.allocate(huge, &p) == ZE_RESULT_SUCCESS);
  static_cast<uint8_t*>(p)[0] = 0x5a;
  REQUIRE(m.free(p) == ZE_RESULT_SUCCESS);
  REQUIRE(m.allocate(huge, &p) == ZE_RESULT_SUCCESS);
  CHECK(static_cast<uint8_t*>(p)[0] == 0);  // new pages
  REQUIRE(m.free(p) == ZE_RESULT_SUCCESS);
  ArenaAllocator::global().dropCached();
}

TEST_CASE(
    "Given an allocation in use, when it is freed with each policy, then DEFER waits for "
    "the last use and BLOCKING returns only after it",
    "[unit][memory]") {
  auto driver = syntheticDriver();
  auto context = Context::create(*driver, {});
  MemoryManager& m = context->memory();
  AllocRequest r{MemoryKind::Device, 4096, 0, driver->devices()[0]};
  void* p = nullptr;
  REQUIRE(m.allocate(r, &p) == ZE_RESULT_SUCCESS);
  REQUIRE(m.acquireUse(p));
  CHECK(m.free(p, FreePolicy::Defer) == ZE_RESULT_SUCCESS);
  CHECK(m.find(p).has_value());  // still there: in use
  m.releaseUse(p);
  CHECK_FALSE(m.find(p).has_value());

  REQUIRE(m.allocate(r, &p) == ZE_RESULT_SUCCESS);
  REQUIRE(m.acquireUse(p));
  std::atomic<bool> freed{false};
  std::thread t([&] {
    CHECK(m.free(p, FreePolicy::Blocking) == ZE_RESULT_SUCCESS);
    freed = true;
  });
  // The free cannot complete while the use is held; once released it must.
  CHECK_FALSE(freed.load());
  m.releaseUse(p);
  t.join();
  CHECK(freed.load());
  CHECK_FALSE(m.find(p).has_value());
  CHECK(m.count() == 0);
}

TEST_CASE("Given a synthetic topology, then areas are never bound", "[unit][memory]") {
  auto driver = syntheticDriver();
  std::vector<uint8_t> buf(1 << 16);
  CHECK_FALSE(driver->topology().bindArea(buf.data(), buf.size(), {0}));
}

TEST_CASE(
    "Given this machine's topology, when an area is bound to its first node, then the "
    "kernel reports that binding",
    "[unit][memory]") {
  auto topo = Topology::load(TopologySource{});
  Resources r = topo->describe(topo->allowedPus());
  REQUIRE(!r.numaNodes.empty());
  Placement p{topo.get(), {r.numaNodes[0].osIndex}};
  auto b = Backing::create(1 << 20, kPageSize, p);
  REQUIRE(b);
  CHECK(b->bound());
  bool interleaved = true;
  CHECK(topo->areaBinding(b->data(), b->dataBytes(), &interleaved) ==
        std::vector<uint32_t>{r.numaNodes[0].osIndex});
  CHECK_FALSE(interleaved);
}
