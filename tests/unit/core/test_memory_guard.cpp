// The guard-page mode of core/memory (guard.h, TESSERA_GUARD_PAGES): the alignment rule, every
// allocation's end flush with an inaccessible page and its start after one, lookups, IPC and free
// unchanged, and nothing left mapped or open after alloc/free cycles. Probes memory with
// process_vm_readv, which reports EFAULT for an inaccessible byte instead of faulting.
#include <dirent.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "core/context/context.h"
#include "core/driver/driver.h"
#include "core/memory/guard.h"
#include "core_test_support.h"

using namespace tessera::core;

namespace {

std::unique_ptr<Driver> guardedDriver(bool guard = true) {
  DriverConfig c;
  c.topology = {TopologySource::Kind::Synthetic, "pack:1 numa:1 core:2 pu:1"};
  c.guardPages = guard;
  return Driver::create(std::move(c));
}

// Whether the byte at p can be read, without touching it from this thread.
bool readable(const void* p) {
  char b;
  iovec local{&b, 1}, remote{const_cast<void*>(p), 1};
  ssize_t n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
  if (n == 1) return true;
  REQUIRE(errno == EFAULT);
  return false;
}

size_t openDescriptors() {
  size_t n = 0;
  DIR* d = opendir("/proc/self/fd");
  REQUIRE(d);
  while (dirent* e = readdir(d)) n += e->d_name[0] != '.';
  closedir(d);
  return n;
}

// Whether any mapping of this process overlaps [lo, hi).
bool anyMapping(uintptr_t lo, uintptr_t hi) {
  std::ifstream in("/proc/self/maps");
  for (std::string line; std::getline(in, line);) {
    unsigned long a, b;
    if (std::sscanf(line.c_str(), "%lx-%lx", &a, &b) == 2 && a < hi && b > lo) return true;
  }
  return false;
}

constexpr uintptr_t kPage = 4096;

}  // namespace

TEST_CASE(
    "Given the guard-page alignment rule, then an asked alignment is kept and none means the "
    "size's largest power of two up to a page",
    "[unit][memory][guard]") {
  CHECK(guardAlignment(1, 0) == 1);
  CHECK(guardAlignment(3, 0) == 1);
  CHECK(guardAlignment(100, 0) == 4);
  CHECK(guardAlignment(48, 0) == 16);  // three float4s stay 16-aligned
  CHECK(guardAlignment(4096, 0) == 4096);
  CHECK(guardAlignment(3 << 20, 0) == 4096);
  CHECK(guardAlignment(1000, 128) == 128);  // an OpenCL buffer of 250 floats keeps its 128
  CHECK(guardAlignment(1, 1 << 20) == 1 << 20);
}

TEST_CASE(
    "Given guard-page mode, when memory of each kind is allocated, then its end is flush with an "
    "inaccessible page, its start follows one, and it honours the alignment rule",
    "[unit][memory][guard]") {
  auto driver = guardedDriver();
  auto context = Context::create(*driver, {});
  MemoryManager& m = context->memory();
  Device* dev = driver->devices()[0];
  for (MemoryKind kind : {MemoryKind::Host, MemoryKind::Device, MemoryKind::Shared})
    for (size_t size : {size_t{1}, size_t{3}, size_t{100}, size_t{4095}, size_t{4096}, size_t{4097},
                        size_t{48}, size_t{65536 * 3}, size_t{5 << 20}})
      for (size_t align : {size_t{0}, size_t{16}, size_t{128}, size_t{65536}}) {
        INFO("kind " << int(kind) << " size " << size << " alignment " << align);
        AllocRequest r{kind, size, align, kind == MemoryKind::Host ? nullptr : dev};
        void* p = nullptr;
        REQUIRE(m.allocate(r, &p) == ZE_RESULT_SUCCESS);
        auto* b = static_cast<uint8_t*>(p);
        uintptr_t a = reinterpret_cast<uintptr_t>(p);
        const size_t rule = guardAlignment(size, align);
        const size_t span =
            roundUp(size, rule);  // the allocation and the slack its alignment needs
        CHECK(a % rule == 0);
        CHECK((a + span) % kPage == 0);  // flush with the guard page...
        if (size % rule == 0)
          CHECK(span == size);  // ...exactly when the alignment divides the size
        CHECK(readable(b));
        CHECK(readable(b + size - 1));
        CHECK_FALSE(readable(b + span));  // the upper guard page
        CHECK_FALSE(readable(b + span + kPage - 1));
        CHECK_FALSE(readable(reinterpret_cast<uint8_t*>(a / kPage * kPage - 1)));  // the lower
        std::memset(b, 0x5a, size);
        // Lookups by interior pointer, and nothing found past the end.
        auto found = m.find(b + size - 1);
        REQUIRE(found);
        CHECK(found->base == b);
        CHECK(found->size == size);
        CHECK_FALSE(m.find(b + size));
        CHECK(m.containsRange(b, size));
        CHECK_FALSE(m.containsRange(b, size + 1));
        if (size > 1) CHECK(m.free(b + 1) == ZE_RESULT_ERROR_INVALID_ARGUMENT);  // not a base
        CHECK(m.free(b) == ZE_RESULT_SUCCESS);
      }
  CHECK(m.count() == 0);
}

TEST_CASE("Given guard-page mode, then exportable allocations keep a page-aligned backing",
          "[unit][memory][guard]") {
  auto driver = guardedDriver();
  auto context = Context::create(*driver, {});
  MemoryManager& m = context->memory();
  AllocRequest r{MemoryKind::Host, 100, 0};
  r.exportable = true;
  void* p = nullptr;
  REQUIRE(m.allocate(r, &p) == ZE_RESULT_SUCCESS);
  CHECK(reinterpret_cast<uintptr_t>(p) % kPage == 0);  // the fd starts with the allocation
  int fd = -1;
  REQUIRE(m.exportFd(p, &fd) == ZE_RESULT_SUCCESS);
  close(fd);
  CHECK(m.free(p) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given guard-page mode, when a guarded allocation is shared by IPC, then the opener sees the "
    "same bytes at its own guarded mapping",
    "[unit][memory][guard]") {
  auto driver = guardedDriver();
  auto context = Context::create(*driver, {});
  MemoryManager& m = context->memory();
  Device* dev = driver->devices()[0];
  for (size_t size : {size_t{100}, size_t{4096}, size_t{10000}}) {
    INFO("size " << size);
    AllocRequest r{MemoryKind::Device, size, 0, dev};
    void* p = nullptr;
    REQUIRE(m.allocate(r, &p) == ZE_RESULT_SUCCESS);
    auto* b = static_cast<uint8_t*>(p);
    for (size_t i = 0; i < size; ++i) b[i] = static_cast<uint8_t>(i * 7);
    ze_ipc_mem_handle_t h;
    REQUIRE(m.getIpcHandle(b, &h) == ZE_RESULT_SUCCESS);
    void* q = nullptr;
    REQUIRE(m.openIpcHandle(dev, h, &q) == ZE_RESULT_SUCCESS);
    auto* o = static_cast<uint8_t*>(q);
    CHECK(o != b);
    CHECK(std::memcmp(o, b, size) == 0);
    o[size - 1] = 0xee;  // the same pages
    CHECK(b[size - 1] == 0xee);
    CHECK_FALSE(readable(o + size));  // the opener is in guard mode too
    CHECK(m.closeIpcHandle(o) == ZE_RESULT_SUCCESS);
    CHECK_FALSE(anyMapping(reinterpret_cast<uintptr_t>(o), reinterpret_cast<uintptr_t>(o) + size));
    CHECK(m.putIpcHandle(h) == ZE_RESULT_SUCCESS);
    CHECK(m.free(b) == ZE_RESULT_SUCCESS);
  }

  // An opener without guard pages maps the same bytes, lead included.
  auto plainDriver = guardedDriver(false);
  auto plain = Context::create(*plainDriver, {});
  AllocRequest r{MemoryKind::Host, 300, 0};
  void* p = nullptr;
  REQUIRE(m.allocate(r, &p) == ZE_RESULT_SUCCESS);
  std::memset(p, 0x33, 300);
  ze_ipc_mem_handle_t h;
  REQUIRE(m.getIpcHandle(p, &h) == ZE_RESULT_SUCCESS);
  void* q = nullptr;
  REQUIRE(plain->memory().openIpcHandle(plainDriver->devices()[0], h, &q) == ZE_RESULT_SUCCESS);
  CHECK(std::memcmp(q, p, 300) == 0);
  CHECK(reinterpret_cast<uintptr_t>(q) % kPage == reinterpret_cast<uintptr_t>(p) % kPage);
  CHECK(plain->memory().closeIpcHandle(q) == ZE_RESULT_SUCCESS);
  CHECK(m.putIpcHandle(h) == ZE_RESULT_SUCCESS);
  CHECK(m.free(p) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given guard-page mode, when memory is allocated and freed in cycles, then every mapping and "
    "descriptor goes with its allocation",
    "[unit][memory][guard]") {
  auto driver = guardedDriver();
  auto context = Context::create(*driver, {});
  MemoryManager& m = context->memory();
  const size_t fds = openDescriptors();
  for (int round = 0; round < 4; ++round) {
    std::vector<std::pair<uint8_t*, size_t>> live;
    for (size_t i = 0; i < 64; ++i) {
      size_t size = 1 + i * 997;
      AllocRequest r{MemoryKind::Host, size, i % 2 ? 128 : 0};
      void* p = nullptr;
      REQUIRE(m.allocate(r, &p) == ZE_RESULT_SUCCESS);
      live.emplace_back(static_cast<uint8_t*>(p), size);
    }
    CHECK(openDescriptors() == fds + 64);  // a memfd each, nothing more
    for (auto [p, size] : live) REQUIRE(m.free(p) == ZE_RESULT_SUCCESS);
    CHECK(openDescriptors() == fds);
    // The data, both guard pages and the export table: all unmapped.
    for (auto [p, size] : live) {
      uintptr_t a = reinterpret_cast<uintptr_t>(p);
      CHECK_FALSE(anyMapping(a / kPage * kPage - kPage, a + size + kPage));
    }
  }
  // A large allocation too: outside guard-page mode a freed one is kept, mapped, for the next of
  // its size (arena.h); here it goes, so that a use after free faults.
  const size_t large = size_t{3} << 20;
  void* p = nullptr;
  REQUIRE(m.allocate(AllocRequest{MemoryKind::Device, large, 0, driver->devices()[0]}, &p) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(m.free(p) == ZE_RESULT_SUCCESS);
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  CHECK_FALSE(anyMapping(a, a + large));
}
