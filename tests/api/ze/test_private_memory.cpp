// Private memory and recursion (docs/reliability.md, "Kernel stacks"; issue 16 items 1 and 2):
// a kernel's frame is measured when it is compiled and reported as privateMemSize; a kernel with
// MiBs of private memory runs on a stack sized for it, on every thread that runs kernels (the
// queue's executor and helpers, and the application's own thread); one beyond the device's limit
// is refused at append with OUT_OF_DEVICE_MEMORY; a recursive program fails to build with a log
// naming the cycle instead of spinning in the inliner. The cases that hung or killed the process
// before run in a watched child (tests/support/ze_exec_support.h).
#include <level_zero/ze_api.h>

#include <pthread.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kernel_test_support.h"
#include "spirv/opencl_c.h"
#include "tessera/ze_tessera.h"
#include "ze_test_support.h"

using namespace tessera::test;

namespace {

constexpr unsigned kWatchdogSeconds = 120;

// 4 MiB of private ints (a 1 MiB stack per thread was the usual overflow: the default thread
// stacks are 8 MiB and the pool's helpers had no explicit size), read at indices the host gives,
// so the array cannot be optimized away. And one of 512 MiB, beyond the device's limit (256 MiB).
const char* kPrivateSource = R"(
#define BIG (1024 * 1024)
kernel void private_big(global const uint* idx, uint n, global int* out) {
  int a[BIG];
  uint gid = get_global_id(0);
  for (uint i = 0; i < BIG; ++i) a[i] = (int)(i ^ gid);
  int s = 0;
  for (uint k = 0; k < n; ++k) s += a[idx[k] % BIG];
  out[gid] = s;
}
#define HUGE (128 * 1024 * 1024)
kernel void private_huge(global const uint* idx, uint n, global int* out) {
  int a[HUGE];
  uint gid = get_global_id(0);
  for (uint i = 0; i < HUGE; ++i) a[i] = (int)(i ^ gid);
  int s = 0;
  for (uint k = 0; k < n; ++k) s += a[idx[k] % HUGE];
  out[gid] = s;
}
kernel void private_none(global int* out) { out[get_global_id(0)] = 1; }
)";

int expectedBig(const std::vector<uint32_t>& idx, uint32_t gid) {
  int s = 0;
  for (uint32_t k : idx) s += int((k % (1024 * 1024)) ^ gid);
  return s;
}

std::vector<uint32_t> spirvOf(const char* source) {
  tessera::spirv::CompileResult compiled = tessera::spirv::compileOpenCLC(source, "");
  INFO(compiled.log);
  REQUIRE(compiled.ok);
  return compiled.spirv;
}

// zeModuleCreate of `source`'s SPIR-V: the result and the build log.
ze_result_t buildModule(KernelFixture& fx, const char* source, std::string* log,
                        ze_module_handle_t* out) {
  std::vector<uint32_t> spv = spirvOf(source);
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC,
                        nullptr,
                        ZE_MODULE_FORMAT_IL_SPIRV,
                        spv.size() * sizeof(uint32_t),
                        reinterpret_cast<const uint8_t*>(spv.data()),
                        "",
                        nullptr};
  ze_module_build_log_handle_t buildLog = nullptr;
  ze_result_t r = zeModuleCreate(fx.context, fx.device, &desc, out, &buildLog);
  *log = buildLogText(buildLog);
  zeModuleBuildLogDestroy(buildLog);
  return r;
}

// Tessera compiles a kernel when it is first needed: zeKernelCreate of `name` must fail with
// MODULE_BUILD_FAILURE; `log` gets the reason zeTesseraModuleBuildKernels gives.
ze_result_t createKernelFailure(KernelFixture& fx, ze_module_handle_t m, const char* name,
                                std::string* log) {
  ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
  ze_kernel_handle_t k = nullptr;
  ze_result_t r = zeKernelCreate(m, &kd, &k);
  if (r == ZE_RESULT_SUCCESS) {
    zeKernelDestroy(k);
    return r;
  }
  auto build = tessera::test::extensionFunction<ze_pfnTesseraModuleBuildKernels_t>(
      fx.driver, "zeTesseraModuleBuildKernels");
  REQUIRE(build != nullptr);
  const char* names[] = {name};
  ze_module_build_log_handle_t buildLog = nullptr;
  CHECK(build(m, 1, names, &buildLog) == r);
  *log = buildLogText(buildLog);
  zeModuleBuildLogDestroy(buildLog);
  return r;
}

const char* kDirectRecursion = R"(
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
kernel void recursive_direct(global int* out) { out[get_global_id(0)] = fib(get_global_id(0)); }
)";
const char* kMutualRecursion = R"(
int pong(int n);
int ping(int n) { return n <= 0 ? 1 : pong(n - 1) + pong(n - 2); }
int pong(int n) { return n <= 0 ? 0 : ping(n - 1) * 2 + ping(n - 3); }
kernel void recursive_mutual(global int* out) { out[get_global_id(0)] = ping(get_global_id(0)); }
)";

}  // namespace

TEST_CASE("Private memory: a kernel's frame is reported as privateMemSize", "[private_memory]") {
  KernelFixture fx;
  std::string log;
  ze_module_handle_t m = nullptr;
  REQUIRE(buildModule(fx, kPrivateSource, &log, &m) == ZE_RESULT_SUCCESS);
  auto privateOf = [&](const char* name) {
    ze_kernel_handle_t k = fx.kernel(m, name);
    ze_kernel_properties_t p{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    REQUIRE(zeKernelGetProperties(k, &p) == ZE_RESULT_SUCCESS);
    return p.privateMemSize;
  };
  // "private memory size allocated by compiler used by each thread": the array and a little more.
  CHECK(privateOf("private_big") >= 4u * 1024 * 1024);
  CHECK(privateOf("private_big") < 5u * 1024 * 1024);
  CHECK(privateOf("private_huge") >= 512u * 1024 * 1024);
  CHECK(privateOf("private_none") < 4096);
  // A native binary keeps the measure (it is not compiled again when loaded).
  const uint32_t measured = privateOf("private_big");
  size_t size = 0;
  REQUIRE(zeModuleGetNativeBinary(m, &size, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<uint8_t> native(size);
  REQUIRE(zeModuleGetNativeBinary(m, &size, native.data()) == ZE_RESULT_SUCCESS);
  ze_module_desc_t nd{ZE_STRUCTURE_TYPE_MODULE_DESC,
                      nullptr,
                      ZE_MODULE_FORMAT_NATIVE,
                      size,
                      native.data(),
                      "",
                      nullptr};
  ze_module_handle_t loaded = nullptr;
  REQUIRE(zeModuleCreate(fx.context, fx.device, &nd, &loaded, nullptr) == ZE_RESULT_SUCCESS);
  ze_kernel_handle_t k = fx.kernel(loaded, "private_big");
  ze_kernel_properties_t p{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
  REQUIRE(zeKernelGetProperties(k, &p) == ZE_RESULT_SUCCESS);
  CHECK(p.privateMemSize == measured);
  zeKernelDestroy(k);
  fx.dropKernel(k);
  zeModuleDestroy(loaded);
  zeModuleDestroy(m);
}

TEST_CASE("watched child: a kernel with 4 MiB of private memory runs on every kind of thread",
          "[private_memory][.]") {
  if (!inWatchedChild()) return;
  armWatchdog(kWatchdogSeconds);
  KernelFixture fx;
  std::string log;
  ze_module_handle_t m = nullptr;
  REQUIRE(buildModule(fx, kPrivateSource, &log, &m) == ZE_RESULT_SUCCESS);
  ze_kernel_handle_t k = fx.kernel(m, "private_big");
  std::vector<uint32_t> idx = {0, 7, 4095, 1 << 19, (1 << 20) - 1, 123456789};
  uint32_t n = uint32_t(idx.size());
  const uint32_t items = 64;
  std::vector<int> out(items, 0);
  REQUIRE(zeKernelSetGroupSize(k, 4, 1, 1) == ZE_RESULT_SUCCESS);
  setArgs(k, idx.data(), n, out.data());
  auto check = [&] {
    for (uint32_t i = 0; i < items; ++i) {
      INFO("work-item " << i);
      CHECK(out[i] == expectedBig(idx, i));
    }
    std::fill(out.begin(), out.end(), 0);
  };
  SECTION("on a queue (its executor and the device's workers)") {
    fx.runOnce([&](ze_command_list_handle_t l) { fx.launch(l, k, {items / 4, 1, 1}); });
    check();
  }
  SECTION("on the calling thread (synchronous immediate list)") {
    ze_command_queue_desc_t qd{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    qd.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
    ze_command_list_handle_t imm = nullptr;
    REQUIRE(zeCommandListCreateImmediate(fx.context, fx.device, &qd, &imm) == ZE_RESULT_SUCCESS);
    // One group (runs inline on this thread), then many (this thread is worker 0).
    ze_group_count_t one{1, 1, 1};
    REQUIRE(zeCommandListAppendLaunchKernel(imm, k, &one, nullptr, 0, nullptr) ==
            ZE_RESULT_SUCCESS);
    CHECK(out[0] == expectedBig(idx, 0));
    ze_group_count_t all{items / 4, 1, 1};
    REQUIRE(zeCommandListAppendLaunchKernel(imm, k, &all, nullptr, 0, nullptr) ==
            ZE_RESULT_SUCCESS);
    check();
    zeCommandListDestroy(imm);
  }
  SECTION("on an application thread with a 1 MiB stack (synchronous immediate list)") {
    // Applications choose their threads' stacks; 1 MiB is common (and musl's default is 128 KiB).
    ze_result_t single = ZE_RESULT_ERROR_UNKNOWN, parallel = ZE_RESULT_ERROR_UNKNOWN;
    std::vector<int> first(1, 0);
    struct Job {
      std::function<void()> body;
    } job{[&] {
      ze_command_queue_desc_t qd{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
      qd.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
      ze_command_list_handle_t imm = nullptr;
      if (zeCommandListCreateImmediate(fx.context, fx.device, &qd, &imm) != ZE_RESULT_SUCCESS)
        return;
      ze_group_count_t one{1, 1, 1};
      single = zeCommandListAppendLaunchKernel(imm, k, &one, nullptr, 0, nullptr);
      first[0] = out[0];
      ze_group_count_t all{items / 4, 1, 1};
      parallel = zeCommandListAppendLaunchKernel(imm, k, &all, nullptr, 0, nullptr);
      zeCommandListDestroy(imm);
    }};
    pthread_attr_t attr;
    REQUIRE(pthread_attr_init(&attr) == 0);
    REQUIRE(pthread_attr_setstacksize(&attr, 1024 * 1024) == 0);
    pthread_t thread;
    REQUIRE(pthread_create(
                &thread, &attr,
                [](void* p) -> void* {
                  static_cast<Job*>(p)->body();
                  return nullptr;
                },
                &job) == 0);
    pthread_attr_destroy(&attr);
    pthread_join(thread, nullptr);
    CHECK(single == ZE_RESULT_SUCCESS);
    CHECK(first[0] == expectedBig(idx, 0));
    CHECK(parallel == ZE_RESULT_SUCCESS);
    check();
  }
  ze_context_handle_t context = fx.context;
  CHECK(zeContextGetStatus(context) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Private memory: a kernel with 4 MiB of private memory runs and computes",
          "[private_memory]") {
  runWatchedChild(
      "watched child: a kernel with 4 MiB of private memory runs on every kind of thread");
}

TEST_CASE("watched child: a kernel beyond the private memory limit is refused at append",
          "[private_memory][.]") {
  if (!inWatchedChild()) return;
  armWatchdog(kWatchdogSeconds);
  KernelFixture fx;
  std::string log;
  ze_module_handle_t m = nullptr;
  REQUIRE(buildModule(fx, kPrivateSource, &log, &m) == ZE_RESULT_SUCCESS);
  ze_kernel_handle_t k = fx.kernel(m, "private_huge");
  std::vector<uint32_t> idx = {1, 2, 3};
  uint32_t n = 3;
  std::vector<int> out(4, 0);
  REQUIRE(zeKernelSetGroupSize(k, 4, 1, 1) == ZE_RESULT_SUCCESS);
  setArgs(k, idx.data(), n, out.data());
  ze_group_count_t groups{1, 1, 1};
  // ze_api.h: "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY: [Core] insufficient device memory to satisfy
  // call".
  ze_command_list_handle_t list = fx.list();
  CHECK(zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
  ze_command_queue_desc_t qd{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  qd.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
  ze_command_list_handle_t imm = nullptr;
  REQUIRE(zeCommandListCreateImmediate(fx.context, fx.device, &qd, &imm) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandListAppendLaunchKernel(imm, k, &groups, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
  zeCommandListDestroy(imm);
  // Nothing was lost: the context runs other kernels.
  CHECK(zeContextGetStatus(fx.context) == ZE_RESULT_SUCCESS);
  ze_kernel_handle_t ok = fx.kernel(m, "private_none");
  setGroupSize(ok, 4);
  setArgs(ok, out.data());
  fx.runOnce([&](ze_command_list_handle_t l) { fx.launch(l, ok, {1, 1, 1}); });
  CHECK(out[3] == 1);
}

TEST_CASE("Private memory: a kernel beyond the device's limit is refused, the process survives",
          "[private_memory]") {
  runWatchedChild("watched child: a kernel beyond the private memory limit is refused at append");
}

TEST_CASE("watched child: recursive programs fail to build", "[recursion][.]") {
  if (!inWatchedChild()) return;
  armWatchdog(kWatchdogSeconds);
  KernelFixture fx;
  std::string log;
  ze_module_handle_t m = nullptr;
  SECTION("direct") {
    // The module is created; its kernel fails when first needed (docs/conformance.md).
    REQUIRE(buildModule(fx, kDirectRecursion, &log, &m) == ZE_RESULT_SUCCESS);
    CHECK(createKernelFailure(fx, m, "recursive_direct", &log) ==
          ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    zeModuleDestroy(m);
    m = nullptr;
    INFO(log);
    CHECK(log.find("recursion is not supported") != std::string::npos);
    CHECK(log.find("fib -> fib") != std::string::npos);
  }
  SECTION("mutual") {
    REQUIRE(buildModule(fx, kMutualRecursion, &log, &m) == ZE_RESULT_SUCCESS);
    CHECK(createKernelFailure(fx, m, "recursive_mutual", &log) ==
          ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    zeModuleDestroy(m);
    m = nullptr;
    INFO(log);
    CHECK(log.find("recursion is not supported") != std::string::npos);
    bool named = log.find("ping -> pong -> ping") != std::string::npos ||
                 log.find("pong -> ping -> pong") != std::string::npos;
    CHECK(named);
  }
  SECTION("across modules (dynamic linking)") {
    // Each module exports one function and imports the other's: only the linked program has the
    // cycle, so zeModuleDynamicLink is where it is found.
    const char* a =
        "extern int ping2(int n);\n"
        "int pong2(int n) { return n <= 0 ? 0 : ping2(n - 1) + ping2(n - 2); }\n"
        "kernel void linked(global int* out) { out[0] = ping2(3); }\n";
    const char* b =
        "extern int pong2(int n);\n"
        "int ping2(int n) { return n <= 0 ? 1 : pong2(n - 1) * 2 + pong2(n - 3); }\n";
    ze_module_handle_t ma = nullptr, mb = nullptr;
    REQUIRE(buildModule(fx, a, &log, &ma) == ZE_RESULT_SUCCESS);
    REQUIRE(buildModule(fx, b, &log, &mb) == ZE_RESULT_SUCCESS);
    ze_module_handle_t both[] = {ma, mb};
    ze_module_build_log_handle_t linkLog = nullptr;
    CHECK(zeModuleDynamicLink(2, both, &linkLog) == ZE_RESULT_ERROR_MODULE_LINK_FAILURE);
    log = buildLogText(linkLog);
    zeModuleBuildLogDestroy(linkLog);
    INFO(log);
    CHECK(log.find("recursion is not supported") != std::string::npos);
    bool named = log.find("ping2 -> pong2 -> ping2") != std::string::npos ||
                 log.find("pong2 -> ping2 -> pong2") != std::string::npos;
    CHECK(named);
    zeModuleDestroy(ma);
    zeModuleDestroy(mb);
  }
  CHECK(m == nullptr);
}

TEST_CASE("Recursion: a recursive program fails to build with a log naming the cycle",
          "[recursion]") {
  runWatchedChild("watched child: recursive programs fail to build");
}
