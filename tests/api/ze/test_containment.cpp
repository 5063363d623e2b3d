// Containment beyond kernels (docs/reliability.md, "Faults" and "Exhaustion"): copies, fills and
// the other commands that touch the application's memory run under the fault guard, so a copy from
// a freed or wild pointer, of 2^62 bytes, or from IPC memory whose exporter truncated its memfd
// (SIGBUS) loses the context (DEVICE_LOST) on queues and immediate lists alike instead of killing
// the process; an allocation that fails on a queue's executor thread loses the context instead of
// ending the process in std::terminate.
#include <level_zero/ze_api.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "address_space.h"
#include "kernel_test_support.h"
#include "memory_test_support.h"

using namespace tessera::test;

namespace {

// How a command reaches the device, and how its result reaches the application.
enum class Path { Queue, SyncImmediate, AsyncImmediate };

const char* nameOf(Path p) {
  return p == Path::Queue           ? "queue"
         : p == Path::SyncImmediate ? "synchronous immediate"
                                    : "asynchronous immediate";
}

// Appends one command to `list`, signalling `signal`.
using Append = std::function<ze_result_t(ze_command_list_handle_t list, ze_event_handle_t signal)>;

// Runs what `append` appends in fx's context along `path`; the result the application sees: the
// queue's synchronization, the synchronous append's result, or the event's synchronization.
ze_result_t runOn(ExecFixture& fx, Path path, const Append& append) {
  switch (path) {
    case Path::Queue: {
      auto q = fx.queue();
      auto l = fx.list();
      REQUIRE(append(l, nullptr) == ZE_RESULT_SUCCESS);
      REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
      REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
      return zeCommandQueueSynchronize(q, UINT64_MAX);
    }
    case Path::SyncImmediate:
      return append(fx.immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS), nullptr);
    case Path::AsyncImmediate: {
      auto l = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
      auto e = fx.events(1).at(0);
      ze_result_t r = append(l, e);
      if (r != ZE_RESULT_SUCCESS) return r;
      return zeEventHostSynchronize(e, UINT64_MAX);
    }
  }
  return ZE_RESULT_ERROR_UNKNOWN;
}

// Two pages, the second inaccessible: a write running forward from the first faults after a page
// instead of running over whatever memory follows.
struct GuardedPage {
  uint8_t* page = nullptr;
  GuardedPage() {
    void* p = mmap(nullptr, 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(p != MAP_FAILED);
    page = static_cast<uint8_t*>(p);
    REQUIRE(mprotect(page + 4096, 4096, PROT_NONE) == 0);
  }
  ~GuardedPage() { munmap(page, 2 * 4096); }
};

// AddressSanitizer checks the ranges of memmove/memset itself and reports a size that runs off the
// address space before the copy starts, and it maps its own memory (fake stacks) where a freed
// allocation was, which its interceptor then reports as a use after return; either report ends
// the process. Those cases are left to the other builds.
bool underAddressSanitizer() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return true;
#endif
#endif
  return std::getenv("ASAN_OPTIONS") != nullptr;
}

constexpr size_t kHuge = size_t{1} << 62;
constexpr size_t kBig = 8u << 20;  // over the size that spreads a copy over the workers
const auto kWild = reinterpret_cast<void*>(uintptr_t{0x10});

// The command faults: its context is lost, the process lives, and another context works.
// `make` appends in the fixture's context; `done` runs before the context is destroyed.
void checkContained(
    ze_driver_handle_t driver, Path path, const std::function<Append(ExecFixture&)>& make,
    const std::function<void()>& done = [] {}) {
  INFO("path: " << nameOf(path));
  {
    ExecFixture fx;
    Append append = make(fx);
    CHECK(runOn(fx, path, append) == ZE_RESULT_ERROR_DEVICE_LOST);
    CHECK(zeContextGetStatus(fx.context) == ZE_RESULT_ERROR_DEVICE_LOST);
    done();
  }
  // Another context is unaffected, on the same workers.
  (void)driver;
  ExecFixture other;
  MemoryFixture m;
  void* a = m.allocHost(kBig);
  void* b = m.allocHost(kBig);
  std::memset(a, 0x5a, kBig);
  auto q = other.queue();
  auto l = other.list();
  REQUIRE(zeCommandListAppendMemoryCopy(l, b, a, kBig, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandQueueSynchronize(q, UINT64_MAX) == ZE_RESULT_SUCCESS);
  CHECK(std::memcmp(a, b, kBig) == 0);
  zeMemFree(m.context, a);
  zeMemFree(m.context, b);
}

}  // namespace

TEST_CASE(
    "Faults: copies and fills through bad pointers or sizes lose the context, not the process",
    "[faults][containment]") {
  ze_driver_handle_t driver = initDriver();
  for (Path path : {Path::Queue, Path::SyncImmediate, Path::AsyncImmediate}) {
    SECTION(std::string("copy from a wild pointer: ") + nameOf(path)) {
      std::vector<uint8_t> dst(64);
      checkContained(driver, path, [&](ExecFixture&) -> Append {
        return [&](ze_command_list_handle_t l, ze_event_handle_t e) {
          return zeCommandListAppendMemoryCopy(l, dst.data(), kWild, dst.size(), e, 0, nullptr);
        };
      });
    }
    // (Not a freed allocation: one of this size is kept mapped for the next of its size,
    // core/memory/arena.h.)
    SECTION(std::string("large copy from inaccessible memory: ") + nameOf(path)) {
      if (underAddressSanitizer()) return;
      MemoryFixture m;
      void* dst = m.allocHost(kBig);
      void* gone = mmap(nullptr, kBig, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      REQUIRE(gone != MAP_FAILED);
      checkContained(driver, path, [&](ExecFixture&) -> Append {
        return [&](ze_command_list_handle_t l, ze_event_handle_t e) {
          return zeCommandListAppendMemoryCopy(l, dst, gone, kBig, e, 0, nullptr);
        };
      });
      munmap(gone, kBig);
      zeMemFree(m.context, dst);
    }
    SECTION(std::string("copy of 2^62 bytes: ") + nameOf(path)) {
      if (underAddressSanitizer()) return;
      GuardedPage dst;
      std::vector<uint8_t> src(4096, 1);
      checkContained(driver, path, [&](ExecFixture&) -> Append {
        return [&](ze_command_list_handle_t l, ze_event_handle_t e) {
          return zeCommandListAppendMemoryCopy(l, dst.page, src.data(), kHuge, e, 0, nullptr);
        };
      });
    }
    SECTION(std::string("fill of a wild pointer: ") + nameOf(path)) {
      uint32_t pattern = 0x01020304;
      checkContained(driver, path, [&](ExecFixture&) -> Append {
        return [&](ze_command_list_handle_t l, ze_event_handle_t e) {
          return zeCommandListAppendMemoryFill(l, kWild, &pattern, sizeof pattern, 64, e, 0,
                                               nullptr);
        };
      });
    }
    SECTION(std::string("fill of 2^62 bytes: ") + nameOf(path)) {
      if (underAddressSanitizer()) return;
      GuardedPage dst;
      uint8_t pattern = 7;
      checkContained(driver, path, [&](ExecFixture&) -> Append {
        return [&](ze_command_list_handle_t l, ze_event_handle_t e) {
          return zeCommandListAppendMemoryFill(l, dst.page, &pattern, 1, kHuge, e, 0, nullptr);
        };
      });
    }
    SECTION(std::string("region copy from a wild pointer: ") + nameOf(path)) {
      std::vector<uint8_t> dst(64 * 64);
      ze_copy_region_t region{0, 0, 0, 64, 64, 0};
      checkContained(driver, path, [&](ExecFixture&) -> Append {
        return [&](ze_command_list_handle_t l, ze_event_handle_t e) {
          return zeCommandListAppendMemoryCopyRegion(l, dst.data(), &region, 64, 0, kWild, &region,
                                                     64, 0, e, 0, nullptr);
        };
      });
    }
    SECTION(std::string("timestamp written to a wild pointer: ") + nameOf(path)) {
      checkContained(driver, path, [&](ExecFixture&) -> Append {
        return [&](ze_command_list_handle_t l, ze_event_handle_t e) {
          return zeCommandListAppendWriteGlobalTimestamp(l, static_cast<uint64_t*>(kWild), e, 0,
                                                         nullptr);
        };
      });
    }
    SECTION(std::string("indirect launch whose group counts are at a wild pointer: ") +
            nameOf(path)) {
      ze_module_handle_t m = nullptr;
      ze_kernel_handle_t k = nullptr;
      checkContained(
          driver, path,
          [&](ExecFixture& fx) -> Append {
            auto spv = readCorpusKernel("faults");
            m = createSpirvModule(fx.context, fx.device, spv.data(), spv.size());
            ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "fault_store"};
            REQUIRE(zeKernelCreate(m, &kd, &k) == ZE_RESULT_SUCCESS);
            setGroupSize(k, 16);
            uint64_t addr = 0;
            uint32_t bad = UINT32_MAX;
            setArgs(k, nullptr, addr, bad);
            return [&](ze_command_list_handle_t l, ze_event_handle_t e) {
              return zeCommandListAppendLaunchKernelIndirect(
                  l, k, static_cast<const ze_group_count_t*>(kWild), e, 0, nullptr);
            };
          },
          [&] {
            zeKernelDestroy(k);
            zeModuleDestroy(m);
          });
    }
  }
}

TEST_CASE("Faults: a copy from IPC memory whose exporter truncated its memfd (SIGBUS) is contained",
          "[faults][containment]") {
  ExecFixture exporter, importer;
  constexpr size_t kSize = 4u << 20;  // an allocation with a memfd of its own
  ze_device_mem_alloc_desc_t dd{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
  void* p = nullptr;
  REQUIRE(zeMemAllocDevice(exporter.context, &dd, kSize, 0, exporter.device, &p) ==
          ZE_RESULT_SUCCESS);
  std::memset(p, 3, kSize);
  ze_ipc_mem_handle_t h{};
  REQUIRE(zeMemGetIpcHandle(exporter.context, p, &h) == ZE_RESULT_SUCCESS);
  void* opened = nullptr;
  REQUIRE(zeMemOpenIpcHandle(importer.context, importer.device, h, 0, &opened) ==
          ZE_RESULT_SUCCESS);
  // The handle's first bytes are the exporter's descriptor (this process's).
  int fd = -1;
  std::memcpy(&fd, h.data, sizeof fd);
  struct stat st {};
  REQUIRE(fstat(fd, &st) == 0);
  REQUIRE(ftruncate(fd, 0) == 0);

  std::vector<uint8_t> dst(kSize);
  SECTION("on a queue") {
    auto q = importer.queue();
    auto l = importer.list();
    REQUIRE(zeCommandListAppendMemoryCopy(l, dst.data(), opened, kSize, nullptr, 0, nullptr) ==
            ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
    CHECK(zeCommandQueueSynchronize(q, UINT64_MAX) == ZE_RESULT_ERROR_DEVICE_LOST);
  }
  SECTION("on a synchronous immediate list") {
    auto l = importer.immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
    CHECK(zeCommandListAppendMemoryCopy(l, dst.data(), opened, 4096, nullptr, 0, nullptr) ==
          ZE_RESULT_ERROR_DEVICE_LOST);
  }
  CHECK(zeContextGetStatus(importer.context) == ZE_RESULT_ERROR_DEVICE_LOST);
  CHECK(zeContextGetStatus(exporter.context) == ZE_RESULT_SUCCESS);
  // Give the memfd its length back (zero pages) so the exporter's own bookkeeping in it works.
  REQUIRE(ftruncate(fd, st.st_size) == 0);
  CHECK(zeMemCloseIpcHandle(importer.context, opened) == ZE_RESULT_SUCCESS);
  CHECK(zeMemFree(exporter.context, p) == ZE_RESULT_SUCCESS);
}

// Item: "no exception or allocation failure ends the process". A launch whose per-thread local
// memory cannot be allocated on a queue's executor (or on a worker helping it) threw
// std::bad_alloc out of the thread: std::terminate, SIGABRT. Now the context is lost.
TEST_CASE("containment child: a launch's allocation fails on the executor",
          "[.containment_child]") {
  if (!childRole()) return;
  KernelFixture fx;
  ze_kernel_handle_t k = fx.kernel("local_reduce", "local_reduce");
  ze_device_compute_properties_t cp{ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
  REQUIRE(zeDeviceGetComputeProperties(fx.device, &cp) == ZE_RESULT_SUCCESS);
  constexpr uint32_t kItems = 1024, kGroup = 16;
  ze_host_mem_alloc_desc_t hd{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
  void *in = nullptr, *out = nullptr;
  REQUIRE(zeMemAllocHost(fx.context, &hd, kItems * 4, 64, &in) == ZE_RESULT_SUCCESS);
  REQUIRE(zeMemAllocHost(fx.context, &hd, kItems * 4, 64, &out) == ZE_RESULT_SUCCESS);
  setGroupSize(k, kGroup);
  setArgs(k, in, out);
  auto q = fx.queue();
  // A warm-up with little local memory (every thread's buffers exist), then one asking for the
  // device's whole local memory per work-group, recorded before the address space runs out.
  setLocalArg(k, 2, kGroup * 4);
  auto warm = fx.list();
  KernelFixture::launch(warm, k, {kItems / kGroup, 1, 1});
  REQUIRE(zeCommandListClose(warm) == ZE_RESULT_SUCCESS);
  setLocalArg(k, 2, cp.maxSharedLocalMemory);
  auto big = fx.list();
  KernelFixture::launch(big, k, {kItems / kGroup, 1, 1});
  REQUIRE(zeCommandListClose(big) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &warm, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueSynchronize(q, UINT64_MAX) == ZE_RESULT_SUCCESS);

  // Take the whole address space, and the malloc heap's free blocks large enough to serve the
  // launch (what the module build left), then give back a little for small allocations.
  std::vector<std::pair<void*, size_t>> ballast;
  ballast.reserve(4096);
  std::vector<void*> heap;
  heap.reserve(1u << 16);
  limitAddressSpace(64u << 20);
  for (size_t size = 64u << 20; size >= 4096; size /= 2)
    for (void* b;
         ballast.size() < ballast.capacity() &&
         (b = mmap(nullptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) != MAP_FAILED;)
      ballast.emplace_back(b, size);
  for (void* b; heap.size() < heap.capacity() && (b = std::malloc(60u << 10)) != nullptr;)
    heap.push_back(b);
  size_t given = 0;
  while (!ballast.empty() && given + ballast.back().second <= (128u << 10)) {
    given += ballast.back().second;
    munmap(ballast.back().first, ballast.back().second);
    ballast.pop_back();
  }
  ze_result_t submitted = zeCommandQueueExecuteCommandLists(q, 1, &big, nullptr);
  ze_result_t synced =
      submitted == ZE_RESULT_SUCCESS ? zeCommandQueueSynchronize(q, UINT64_MAX) : submitted;
  for (auto& b : ballast) munmap(b.first, b.second);
  for (void* b : heap) std::free(b);
  unlimitAddressSpace();
  INFO("heap blocks taken " << heap.size());
  INFO("maxSharedLocalMemory " << cp.maxSharedLocalMemory);
  CHECK(submitted == ZE_RESULT_SUCCESS);
  CHECK(synced == ZE_RESULT_ERROR_DEVICE_LOST);
  CHECK(zeContextGetStatus(fx.context) == ZE_RESULT_ERROR_DEVICE_LOST);
  // The process and its other contexts go on: the same kernel in a new context runs.
  KernelFixture other;
  ze_kernel_handle_t k2 = other.kernel("local_reduce", "local_reduce");
  void *in2 = nullptr, *out2 = nullptr;
  REQUIRE(zeMemAllocHost(other.context, &hd, kItems * 4, 64, &in2) == ZE_RESULT_SUCCESS);
  REQUIRE(zeMemAllocHost(other.context, &hd, kItems * 4, 64, &out2) == ZE_RESULT_SUCCESS);
  for (uint32_t i = 0; i < kItems; ++i) static_cast<int*>(in2)[i] = 1;
  setGroupSize(k2, kGroup);
  setArgs(k2, in2, out2);
  setLocalArg(k2, 2, kGroup * 4);
  other.runOnce([&](ze_command_list_handle_t l) {
    KernelFixture::launch(l, k2, {kItems / kGroup, 1, 1});
  });
  CHECK(static_cast<int*>(out2)[0] == int(kGroup));
  zeMemFree(other.context, in2);
  zeMemFree(other.context, out2);
  zeMemFree(fx.context, in);
  zeMemFree(fx.context, out);
}

TEST_CASE(
    "Exhaustion: an allocation failing on a queue's executor loses the context, not the "
    "process",
    "[exhaustion][containment]") {
  // The address-space limit would also constrain a sanitizer's shadow memory.
  if (std::getenv("ASAN_OPTIONS") || std::getenv("TSAN_OPTIONS")) return;
  // One malloc arena, whose growth counts against the limit (a thread's own arena reserves 64 MiB
  // up front), and no dynamic mmap threshold (a large block must come from the system).
  Child c = startProgram(
      {"/proc/self/exe", "containment child: a launch's allocation fails on the executor"},
      {{"TESSERA_TEST_MEMORY_CHILD", "limited"},
       {"GLIBC_TUNABLES",
        "glibc.malloc.arena_max=1:glibc.malloc.mmap_threshold=65536:glibc.malloc.trim_threshold="
        "65536"}});
  c.writeLine("");
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = read(c.fromChild, buf, sizeof buf)) > 0;) out.append(buf, size_t(n));
  INFO("child output:\n" << out);
  int status = c.wait();
  CHECK(status == 0);
  CHECK(out.find("All tests passed") != std::string::npos);
}
