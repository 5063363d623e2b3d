// Exhaustion (docs/reliability.md, "Exhaustion"): under a lowered address-space limit (RLIMIT_AS,
// set by a child copy of this test binary on itself), allocations and object creation fail with
// the OUT_OF_* codes, and objects made before the failures stay intact (their data is checked).
#include <sys/resource.h>
#include <unistd.h>

#include <cstring>

#include "address_space.h"
#include "kernel_test_support.h"
#include "memory_test_support.h"

using namespace tessera::test;

namespace {

bool isOutOfMemory(ze_result_t r) {
  return r == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY || r == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
}

bool filledWith(const void* p, size_t n, unsigned char v) {
  auto* c = static_cast<const unsigned char*>(p);
  return std::all_of(c, c + n, [v](unsigned char x) { return x == v; });
}

constexpr size_t kKeep = 1 << 20;
constexpr size_t kMiB = 1 << 20;

}  // namespace

TEST_CASE("exhaustion child: run under RLIMIT_AS", "[.exhaustion_child]") {
  if (!childRole()) return;
  MemoryFixture f;
  ExecFixture x;  // a second context for queues and lists
  // What exists before the limit, checked after every failure.
  void* keepHost = f.allocHost(kKeep);
  void* keepDevice = f.allocDevice(kKeep);
  std::memset(keepHost, 0xab, kKeep);
  std::memset(keepDevice, 0xcd, kKeep);
  auto intact = [&] {
    return filledWith(keepHost, kKeep, 0xab) && filledWith(keepDevice, kKeep, 0xcd);
  };
  ze_command_queue_handle_t q = x.queue();
  ze_command_list_handle_t l = x.list();

  limitAddressSpace(96 * kMiB);

  SECTION("memory") {
    void* p = nullptr;
    auto hd = MemoryFixture::hostDesc();
    auto dd = MemoryFixture::deviceDesc();
    CHECK(zeMemAllocHost(f.context, &hd, 512 * kMiB, 0, &p) == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    CHECK(zeMemAllocDevice(f.context, &dd, 512 * kMiB, 0, f.device, &p) ==
          ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    CHECK(intact());
    // Small allocations until the limit: each is usable, the failure is an OUT_OF_* code.
    std::vector<void*> got;
    ze_result_t r = ZE_RESULT_SUCCESS;
    for (int i = 0; i < 1000 && r == ZE_RESULT_SUCCESS; ++i) {
      void* q2 = nullptr;
      r = (i % 2) ? zeMemAllocHost(f.context, &hd, 2 * kMiB, 0, &q2)
                  : zeMemAllocDevice(f.context, &dd, 2 * kMiB, 0, f.device, &q2);
      if (r == ZE_RESULT_SUCCESS) {
        std::memset(q2, i & 0xff, 2 * kMiB);
        got.push_back(q2);
      }
    }
    INFO("allocations before the failure: " << got.size());
    std::cout << "allocations before the failure: " << got.size() << std::endl;
    CHECK(isOutOfMemory(r));
    CHECK(intact());
    for (size_t i = 0; i < got.size(); ++i) {
      CHECK(filledWith(got[i], 2 * kMiB, static_cast<unsigned char>(i & 0xff)));
      CHECK(zeMemFree(f.context, got[i]) == ZE_RESULT_SUCCESS);
    }
    // Freed memory is usable again under the same limit.
    void* again = nullptr;
    CHECK(zeMemAllocHost(f.context, &hd, 2 * kMiB, 0, &again) == ZE_RESULT_SUCCESS);
    if (again) zeMemFree(f.context, again);
  }
  SECTION("event pools") {
    std::vector<ze_event_pool_handle_t> pools;
    ze_result_t r = ZE_RESULT_SUCCESS;
    for (int i = 0; i < 1000 && r == ZE_RESULT_SUCCESS; ++i) {
      ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                              ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1u << 16};
      ze_event_pool_handle_t p = nullptr;
      r = zeEventPoolCreate(f.context, &pd, 0, nullptr, &p);
      if (r == ZE_RESULT_SUCCESS) pools.push_back(p);
    }
    INFO("pools before the failure: " << pools.size());
    CHECK(isOutOfMemory(r));
    CHECK(intact());
    // The pools made before the failure work.
    ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 7, 0, ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t e = nullptr;
    REQUIRE(zeEventCreate(pools.at(0), &ed, &e) == ZE_RESULT_SUCCESS);
    CHECK(zeEventHostSignal(e) == ZE_RESULT_SUCCESS);
    CHECK(zeEventQueryStatus(e) == ZE_RESULT_SUCCESS);
    zeEventDestroy(e);
    for (auto p : pools) CHECK(zeEventPoolDestroy(p) == ZE_RESULT_SUCCESS);
  }
  SECTION("command queues and lists") {
    std::vector<ze_command_queue_handle_t> queues;
    ze_result_t r = ZE_RESULT_SUCCESS;
    for (int i = 0; i < 200 && r == ZE_RESULT_SUCCESS; ++i) {
      ze_command_queue_desc_t qd{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
      ze_command_queue_handle_t qq = nullptr;
      r = zeCommandQueueCreate(x.context, x.device, &qd, &qq);
      if (r == ZE_RESULT_SUCCESS) queues.push_back(qq);
    }
    INFO("queues before the failure: " << queues.size());
    CHECK(isOutOfMemory(r));
    for (auto qq : queues) CHECK(zeCommandQueueDestroy(qq) == ZE_RESULT_SUCCESS);
    // A list that grows until appends fail.
    ze_command_list_handle_t big = x.list();
    r = ZE_RESULT_SUCCESS;
    uint32_t pattern = 0x01020304;
    size_t appended = 0;
    for (; appended < 20'000'000 && r == ZE_RESULT_SUCCESS; ++appended)
      r = zeCommandListAppendMemoryFill(big, keepHost, &pattern, sizeof pattern, 64, nullptr, 0,
                                        nullptr);
    INFO("appends before the failure: " << appended);
    CHECK(isOutOfMemory(r));
    CHECK(zeCommandListReset(big) == ZE_RESULT_SUCCESS);
    CHECK(intact());
    // The queue and list made before the limit still run work.
    REQUIRE(zeCommandListAppendMemoryFill(l, keepDevice, &pattern, sizeof pattern, 64, nullptr, 0,
                                          nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueSynchronize(q, UINT64_MAX) == ZE_RESULT_SUCCESS);
    uint32_t first;
    std::memcpy(&first, keepDevice, sizeof first);
    CHECK(first == pattern);
    CHECK(filledWith(static_cast<char*>(keepDevice) + 64, kKeep - 64, 0xcd));
    std::memset(keepDevice, 0xcd, 64);  // back to what intact() expects
  }
  SECTION("modules: the JIT under memory pressure") {
    auto spv = readCorpusKernel("corpus_math");
    ze_module_desc_t md{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV,
                        spv.size(), spv.data(), "", nullptr};
    // Ballast so that little is left, then a build: it succeeds or reports OUT_OF_HOST_MEMORY.
    std::vector<void*> ballast;
    auto hd = MemoryFixture::hostDesc();
    for (int i = 0; i < 100; ++i) {
      void* b = nullptr;
      if (zeMemAllocHost(f.context, &hd, 4 * kMiB, 0, &b) != ZE_RESULT_SUCCESS) break;
      std::memset(b, 1, 4 * kMiB);
      ballast.push_back(b);
    }
    // Then finer ballast from malloc, leaving next to nothing (TESSERA_TEST_JIT_ROOM gives back
    // that many 256 KiB blocks: with a few, LLVM's own allocation-failure handler may abort the
    // process, see docs/reliability.md).
    std::vector<void*> fine;
    for (int i = 0; i < 4096; ++i) {
      void* b = std::malloc(256 * 1024);
      if (!b) break;
      std::memset(b, 1, 256 * 1024);
      fine.push_back(b);
    }
    const char* room = std::getenv("TESSERA_TEST_JIT_ROOM");
    for (int i = 0; i < (room ? std::atoi(room) : 0) && !fine.empty(); ++i) {
      std::free(fine.back());
      fine.pop_back();
    }
    ze_module_handle_t m = nullptr;
    ze_result_t r = zeModuleCreate(f.context, f.device, &md, &m, nullptr);
    // The JIT compiles the kernel when it is first needed: at zeKernelCreate.
    ze_kernel_handle_t k = nullptr;
    ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "math_sample"};
    if (r == ZE_RESULT_SUCCESS) r = zeKernelCreate(m, &kd, &k);
    if (k) zeKernelDestroy(k);
    INFO("module result " << std::hex << unsigned(r));
    std::cout << "module result " << std::hex << unsigned(r) << std::dec << std::endl;
    CHECK((r == ZE_RESULT_SUCCESS || r == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY ||
           r == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE));
    if (m) zeModuleDestroy(m);
    for (void* b : fine) std::free(b);
    for (void* b : ballast) zeMemFree(f.context, b);
    CHECK(intact());
    // With the memory back, the same build succeeds (a failed JIT start is tried again).
    m = nullptr;
    CHECK(zeModuleCreate(f.context, f.device, &md, &m, nullptr) == ZE_RESULT_SUCCESS);
    k = nullptr;
    if (m) CHECK(zeKernelCreate(m, &kd, &k) == ZE_RESULT_SUCCESS);
    if (k) zeKernelDestroy(k);
    if (m) zeModuleDestroy(m);
  }
  unlimitAddressSpace();
  CHECK(intact());
  // Everything works again once the limit is gone.
  void* p = f.allocDevice(64 * kMiB);
  std::memset(p, 3, 64 * kMiB);
  CHECK(zeMemFree(f.context, p) == ZE_RESULT_SUCCESS);
  CHECK(zeMemFree(f.context, keepHost) == ZE_RESULT_SUCCESS);
  CHECK(zeMemFree(f.context, keepDevice) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Exhaustion: under RLIMIT_AS, allocations and object creation fail with OUT_OF_* and "
          "leave existing objects intact",
          "[exhaustion]") {
  // The address-space limit would also constrain a sanitizer's shadow memory.
  if (std::getenv("ASAN_OPTIONS") || std::getenv("TSAN_OPTIONS")) return;
  for (const char* section :
       {"memory", "event pools", "command queues and lists", "modules: the JIT under memory pressure"}) {
    // One malloc arena: a thread's own arena reserves 64 MiB up front, most of the headroom.
    Child c = startProgram({"/proc/self/exe", "exhaustion child: run under RLIMIT_AS", "-c", section},
                           {{"TESSERA_TEST_MEMORY_CHILD", "limited"},
                            {"GLIBC_TUNABLES", "glibc.malloc.arena_max=1"}});
    c.writeLine("");
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = read(c.fromChild, buf, sizeof buf)) > 0;) out.append(buf, size_t(n));
    INFO("section " << section << ", child output:\n" << out);
    int status = c.wait();
    CHECK(status == 0);
    CHECK(out.find("All tests passed") != std::string::npos);
  }
}
