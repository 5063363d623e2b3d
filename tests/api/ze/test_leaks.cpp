// Create/destroy cycles of every ze object type (docs/reliability.md). Each case makes and destroys
// its objects kCycles times and checks every call; the leak check itself is LeakSanitizer's, at
// process exit, in the AddressSanitizer build (build-asan), where anything a destroyed object left
// behind is reported as a leak and fails the test. In the other builds these are plain
// create/destroy tests.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "kernel_test_support.h"
#include "memory_test_support.h"

using namespace tessera::test;

namespace {

constexpr int kCycles = 20;

ze_context_handle_t makeContext(ze_driver_handle_t driver) {
  ze_context_desc_t d{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_context_handle_t c = nullptr;
  REQUIRE(zeContextCreate(driver, &d, &c) == ZE_RESULT_SUCCESS);
  return c;
}

}  // namespace

TEST_CASE("Leak cycles: contexts", "[leaks]") {
  ze_driver_handle_t driver = initDriver();
  for (int i = 0; i < kCycles; ++i) {
    ze_context_handle_t c = makeContext(driver);
    CHECK(zeContextDestroy(c) == ZE_RESULT_SUCCESS);
  }
}

TEST_CASE("Leak cycles: queues, lists, immediate lists, fences", "[leaks]") {
  ExecFixture fx;
  for (int i = 0; i < kCycles; ++i) {
    ze_context_handle_t c = makeContext(fx.driver);
    auto qd = queueDesc();
    ze_command_queue_handle_t q = nullptr;
    REQUIRE(zeCommandQueueCreate(c, fx.device, &qd, &q) == ZE_RESULT_SUCCESS);
    ze_command_list_desc_t ld{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, 0, 0};
    ze_command_list_handle_t l = nullptr;
    REQUIRE(zeCommandListCreate(c, fx.device, &ld, &l) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListAppendBarrier(l, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
    ze_fence_desc_t fd{ZE_STRUCTURE_TYPE_FENCE_DESC, nullptr, 0};
    ze_fence_handle_t f = nullptr;
    REQUIRE(zeFenceCreate(q, &fd, &f) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, f) == ZE_RESULT_SUCCESS);
    REQUIRE(zeFenceHostSynchronize(f, kPatienceNs) == ZE_RESULT_SUCCESS);
    // A synchronous immediate list: each append returns once its command has run.
    auto sd = queueDesc(0, 0, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
    ze_command_list_handle_t imm = nullptr;
    REQUIRE(zeCommandListCreateImmediate(c, fx.device, &sd, &imm) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListAppendBarrier(imm, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
    CHECK(zeCommandListDestroy(imm) == ZE_RESULT_SUCCESS);
    CHECK(zeFenceDestroy(f) == ZE_RESULT_SUCCESS);
    CHECK(zeCommandListDestroy(l) == ZE_RESULT_SUCCESS);
    CHECK(zeCommandQueueDestroy(q) == ZE_RESULT_SUCCESS);
    CHECK(zeContextDestroy(c) == ZE_RESULT_SUCCESS);
  }
}

TEST_CASE("Leak cycles: event pools and events, IPC event pool handles", "[leaks]") {
  ExecFixture fx;
  auto put = extensionFunction<ze_pfnEventPoolPutIpcHandle_t>(fx.driver, "zeEventPoolPutIpcHandle");
  for (int i = 0; i < kCycles; ++i) {
    ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                            ZE_EVENT_POOL_FLAG_HOST_VISIBLE | (i % 2 ? ZE_EVENT_POOL_FLAG_IPC : 0u),
                            4};
    ze_event_pool_handle_t pool = nullptr;
    REQUIRE(zeEventPoolCreate(fx.context, &pd, 1, &fx.device, &pool) == ZE_RESULT_SUCCESS);
    ze_ipc_event_pool_handle_t ipc;
    bool gotIpc = i % 2 && zeEventPoolGetIpcHandle(pool, &ipc) == ZE_RESULT_SUCCESS;
    std::vector<ze_event_handle_t> events;
    for (uint32_t e = 0; e < 4; ++e) {
      ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, e, ZE_EVENT_SCOPE_FLAG_HOST,
                         ZE_EVENT_SCOPE_FLAG_HOST};
      ze_event_handle_t ev = nullptr;
      REQUIRE(zeEventCreate(pool, &ed, &ev) == ZE_RESULT_SUCCESS);
      REQUIRE(zeEventHostSignal(ev) == ZE_RESULT_SUCCESS);
      events.push_back(ev);
    }
    for (auto ev : events) CHECK(zeEventDestroy(ev) == ZE_RESULT_SUCCESS);
    if (gotIpc && put) CHECK(put(fx.context, ipc) == ZE_RESULT_SUCCESS);
    CHECK(zeEventPoolDestroy(pool) == ZE_RESULT_SUCCESS);
  }
}

TEST_CASE("Leak cycles: modules, build logs, kernels, launches", "[leaks]") {
  ExecFixture fx;
  auto spv = readCorpusKernel("vector_add");
  ze_command_list_handle_t imm = nullptr;
  auto qd = queueDesc(0, 0, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  REQUIRE(zeCommandListCreateImmediate(fx.context, fx.device, &qd, &imm) == ZE_RESULT_SUCCESS);
  std::vector<float> a(64, 1.0f), b(64, 2.0f), c(64, 0.0f);
  for (int i = 0; i < kCycles; ++i) {
    // A different option each time, so the cycles are not all answered by one cached build.
    std::string options = i % 2 ? "-ze-opt-disable" : "";
    ze_module_desc_t md{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV,
                        spv.size(), spv.data(), options.c_str(), nullptr};
    ze_module_handle_t m = nullptr;
    ze_module_build_log_handle_t log = nullptr;
    REQUIRE(zeModuleCreate(fx.context, fx.device, &md, &m, &log) == ZE_RESULT_SUCCESS);
    (void)buildLogText(log);
    CHECK(zeModuleBuildLogDestroy(log) == ZE_RESULT_SUCCESS);
    ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "vector_add"};
    ze_kernel_handle_t k = nullptr;
    REQUIRE(zeKernelCreate(m, &kd, &k) == ZE_RESULT_SUCCESS);
    setGroupSize(k, 16);
    setArgs(k, a.data(), b.data(), c.data());
    ze_group_count_t groups{4, 1, 1};
    REQUIRE(zeCommandListAppendLaunchKernel(imm, k, &groups, nullptr, 0, nullptr) ==
            ZE_RESULT_SUCCESS);
    CHECK(c[63] == 3.0f);
    CHECK(zeKernelDestroy(k) == ZE_RESULT_SUCCESS);
    CHECK(zeModuleDestroy(m) == ZE_RESULT_SUCCESS);
  }
  // A module that fails to build, with its log.
  for (int i = 0; i < kCycles; ++i) {
    std::vector<uint8_t> bad(spv.begin(), spv.begin() + spv.size() / 2);
    ze_module_desc_t md{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV,
                        bad.size(), bad.data(), "", nullptr};
    ze_module_handle_t m = nullptr;
    ze_module_build_log_handle_t log = nullptr;
    CHECK(zeModuleCreate(fx.context, fx.device, &md, &m, &log) != ZE_RESULT_SUCCESS);
    if (log) CHECK(zeModuleBuildLogDestroy(log) == ZE_RESULT_SUCCESS);
  }
  CHECK(zeCommandListDestroy(imm) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Leak cycles: host, device and shared memory, IPC memory handles", "[leaks]") {
  MemoryFixture fx;
  for (int i = 0; i < kCycles; ++i) {
    void* h = fx.allocHost(4096 << (i % 8));
    void* d = fx.allocDevice(4096 << (i % 8));
    void* s = fx.allocShared(4096 << (i % 8));
    std::memset(h, 1, 4096);
    std::memset(d, 2, 4096);
    std::memset(s, 3, 4096);
    ze_ipc_mem_handle_t ipc;
    REQUIRE(zeMemGetIpcHandle(fx.context, d, &ipc) == ZE_RESULT_SUCCESS);
    CHECK(fx.putIpcHandle()(fx.context, ipc) == ZE_RESULT_SUCCESS);
    CHECK(zeMemFree(fx.context, h) == ZE_RESULT_SUCCESS);
    CHECK(zeMemFree(fx.context, d) == ZE_RESULT_SUCCESS);
    CHECK(zeMemFree(fx.context, s) == ZE_RESULT_SUCCESS);
  }
  // Memory still allocated when its context is destroyed.
  for (int i = 0; i < kCycles; ++i) {
    MemoryFixture inner;
    inner.allocHost(4096);
    inner.allocDevice(4096);
  }
}

TEST_CASE("Leak cycles: virtual memory reservations and physical memory",
          "[leaks][novalidation]") {
  MemoryFixture fx;
  size_t ps = 0;
  REQUIRE(zeVirtualMemQueryPageSize(fx.context, fx.device, 1 << 20, &ps) == ZE_RESULT_SUCCESS);
  size_t size = (size_t(1) << 20) / ps * ps + ps;
  for (int i = 0; i < kCycles; ++i) {
    void* p = nullptr;
    REQUIRE(zeVirtualMemReserve(fx.context, nullptr, size, &p) == ZE_RESULT_SUCCESS);
    ze_physical_mem_desc_t pd{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, size};
    ze_physical_mem_handle_t phys = nullptr;
    REQUIRE(zePhysicalMemCreate(fx.context, fx.device, &pd, &phys) == ZE_RESULT_SUCCESS);
    REQUIRE(zeVirtualMemMap(fx.context, p, size, phys, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) ==
            ZE_RESULT_SUCCESS);
    std::memset(p, 7, size);
    CHECK(zeVirtualMemUnmap(fx.context, p, size) == ZE_RESULT_SUCCESS);
    CHECK(zePhysicalMemDestroy(fx.context, phys) == ZE_RESULT_SUCCESS);
    CHECK(zeVirtualMemFree(fx.context, p, size) == ZE_RESULT_SUCCESS);
  }
}
