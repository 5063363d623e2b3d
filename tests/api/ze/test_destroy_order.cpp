// Objects destroyed before what was made from them, in the order real programs destroy them
// (docs/api-coverage.md, "Leniency"): an event pool before its events, a module before its kernels,
// a context before its lists, queues, modules and pools, a queue before its fences. Each destroy
// succeeds, as in Intel's driver; what was made from the destroyed object stays usable until it is
// destroyed itself, and the destroyed handle is refused. The ASan build runs these (api.ze.direct)
// and would report a use of the freed parent.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <vector>

#include "kernel_test_support.h"
#include "ze_exec_support.h"
#include "ze_test_support.h"

using namespace tessera::test;

namespace {

ze_context_handle_t makeContext(ze_driver_handle_t driver) {
  ze_context_desc_t d{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_context_handle_t c = nullptr;
  REQUIRE(zeContextCreate(driver, &d, &c) == ZE_RESULT_SUCCESS);
  return c;
}

ze_event_pool_handle_t makePool(ze_context_handle_t c, uint32_t n, ze_event_pool_flags_t flags) {
  ze_event_pool_desc_t d{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, flags, n};
  ze_event_pool_handle_t p = nullptr;
  REQUIRE(zeEventPoolCreate(c, &d, 0, nullptr, &p) == ZE_RESULT_SUCCESS);
  return p;
}

ze_event_handle_t makeEvent(ze_event_pool_handle_t p, uint32_t index) {
  ze_event_desc_t d{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, index, 0, ZE_EVENT_SCOPE_FLAG_HOST};
  ze_event_handle_t e = nullptr;
  REQUIRE(zeEventCreate(p, &d, &e) == ZE_RESULT_SUCCESS);
  return e;
}

ze_kernel_handle_t makeKernel(ze_module_handle_t m, const char* name) {
  ze_kernel_desc_t d{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
  ze_kernel_handle_t k = nullptr;
  REQUIRE(zeKernelCreate(m, &d, &k) == ZE_RESULT_SUCCESS);
  return k;
}

}  // namespace

TEST_CASE("Given an event pool destroyed before its events, then the destroy succeeds and the "
          "events keep working until they are destroyed",
          "[leniency][lifetime][event]") {
  ExecFixture fx;
  ze_event_pool_handle_t pool =
      makePool(fx.context, 2, ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP);
  ze_event_handle_t a = makeEvent(pool, 0);
  ze_event_handle_t b = makeEvent(pool, 1);
  CHECK(zeEventPoolDestroy(pool) == ZE_RESULT_SUCCESS);

  // The pool's handle is gone: no new event from it, no second destroy.
  ze_event_desc_t d{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, 0};
  ze_event_handle_t e = nullptr;
  CHECK(zeEventCreate(pool, &d, &e) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeEventPoolDestroy(pool) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);

  // Its events still signal, wait and reset, from the host and from commands.
  CHECK(zeEventQueryStatus(a) == ZE_RESULT_NOT_READY);
  CHECK(zeEventHostSignal(a) == ZE_RESULT_SUCCESS);
  CHECK(zeEventHostSynchronize(a, kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(zeEventHostReset(a) == ZE_RESULT_SUCCESS);
  CHECK(zeEventQueryStatus(a) == ZE_RESULT_NOT_READY);
  auto l = fx.list();
  REQUIRE(zeCommandListAppendSignalEvent(l, a) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendBarrier(l, b, 1, &a) == ZE_RESULT_SUCCESS);
  fx.run(fx.queue(), l);
  CHECK(zeEventQueryStatus(b) == ZE_RESULT_SUCCESS);
  ze_kernel_timestamp_result_t ts{};
  CHECK(zeEventQueryKernelTimestamp(b, &ts) == ZE_RESULT_SUCCESS);
  CHECK(ts.global.kernelEnd >= ts.global.kernelStart);

  CHECK(zeEventDestroy(a) == ZE_RESULT_SUCCESS);
  // The list still names b (and a) in its commands; it runs again after the events are gone from
  // the application's view only once b is destroyed, which the spec leaves to the application.
  CHECK(zeEventDestroy(b) == ZE_RESULT_SUCCESS);
  CHECK(zeEventQueryStatus(b) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
}

TEST_CASE("Given a module destroyed before its kernels, then the destroy succeeds and the kernels "
          "still launch until they are destroyed",
          "[leniency][lifetime][module]") {
  KernelFixture fx;
  auto spv = readCorpusKernel("vector_add");
  ze_module_handle_t m = createSpirvModule(fx.context, fx.device, spv.data(), spv.size());
  ze_kernel_handle_t k = makeKernel(m, "vector_add");
  CHECK(zeModuleDestroy(m) == ZE_RESULT_SUCCESS);
  CHECK(zeModuleDestroy(m) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  ze_kernel_handle_t again = nullptr;
  ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "vector_add"};
  CHECK(zeKernelCreate(m, &kd, &again) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);

  std::vector<float> a(8, 1.0f), b(8, 2.0f), c(8, 0.0f);
  float *pa = a.data(), *pb = b.data(), *pc = c.data();
  setArgs(k, pa, pb, pc);
  setGroupSize(k, 8);
  fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {1, 1, 1}); });
  CHECK(c == std::vector<float>(8, 3.0f));
  ze_kernel_properties_t props{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
  CHECK(zeKernelGetProperties(k, &props) == ZE_RESULT_SUCCESS);
  CHECK(props.numKernelArgs == 3);
  CHECK(zeKernelDestroy(k) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given a context destroyed before its lists, queues, modules, pools and fences, then "
          "they still work and are destroyed afterwards",
          "[leniency][lifetime][context]") {
  ze_driver_handle_t driver = initDriver();
  ze_device_handle_t device = devices(driver).at(0);
  ze_context_handle_t context = makeContext(driver);

  auto qd = queueDesc();
  ze_command_queue_handle_t queue = nullptr;
  REQUIRE(zeCommandQueueCreate(context, device, &qd, &queue) == ZE_RESULT_SUCCESS);
  ze_command_list_desc_t ld{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, 0, 0};
  ze_command_list_handle_t list = nullptr;
  REQUIRE(zeCommandListCreate(context, device, &ld, &list) == ZE_RESULT_SUCCESS);
  ze_command_list_handle_t immediate = nullptr;
  auto id = queueDesc(0, 0, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  REQUIRE(zeCommandListCreateImmediate(context, device, &id, &immediate) == ZE_RESULT_SUCCESS);
  ze_fence_desc_t fd{ZE_STRUCTURE_TYPE_FENCE_DESC, nullptr, 0};
  ze_fence_handle_t fence = nullptr;
  REQUIRE(zeFenceCreate(queue, &fd, &fence) == ZE_RESULT_SUCCESS);
  ze_event_pool_handle_t pool = makePool(context, 1, ZE_EVENT_POOL_FLAG_HOST_VISIBLE);
  ze_event_handle_t event = makeEvent(pool, 0);
  auto spv = readCorpusKernel("vector_add");
  ze_module_handle_t module = createSpirvModule(context, device, spv.data(), spv.size());
  ze_kernel_handle_t kernel = makeKernel(module, "vector_add");
  ze_device_mem_alloc_desc_t md{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
  float* out = nullptr;
  REQUIRE(zeMemAllocDevice(context, &md, 8 * sizeof(float), 64, device,
                           reinterpret_cast<void**>(&out)) == ZE_RESULT_SUCCESS);

  // "The application must ensure the device is not currently referencing the context before it is
  // deleted": nothing runs now.
  CHECK(zeContextDestroy(context) == ZE_RESULT_SUCCESS);
  CHECK(zeContextGetStatus(context) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeContextDestroy(context) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);

  // What was made in it still works: a kernel writes the allocation, an event and a fence signal.
  std::vector<float> a(8, 1.0f), b(8, 4.0f), host(8, 0.0f);
  float *pa = a.data(), *pb = b.data();
  setArgs(kernel, pa, pb, out);
  setGroupSize(kernel, 8);
  ze_group_count_t groups{1, 1, 1};
  REQUIRE(zeCommandListAppendLaunchKernel(list, kernel, &groups, event, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(list) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(queue, 1, &list, fence) == ZE_RESULT_SUCCESS);
  CHECK(zeFenceHostSynchronize(fence, kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(zeEventHostSynchronize(event, kPatienceNs) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendMemoryCopy(immediate, host.data(), out, 8 * sizeof(float), nullptr, 0,
                                        nullptr) == ZE_RESULT_SUCCESS);
  CHECK(host == std::vector<float>(8, 5.0f));

  // Then each is destroyed, in the order compute-benchmarks' early returns leave them.
  CHECK(zeModuleDestroy(module) == ZE_RESULT_SUCCESS);
  CHECK(zeEventPoolDestroy(pool) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandQueueDestroy(queue) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandListDestroy(list) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandListDestroy(immediate) == ZE_RESULT_SUCCESS);
  CHECK(zeKernelDestroy(kernel) == ZE_RESULT_SUCCESS);
  CHECK(zeFenceQueryStatus(fence) == ZE_RESULT_SUCCESS);  // its queue and context are gone
  CHECK(zeFenceDestroy(fence) == ZE_RESULT_SUCCESS);
  CHECK(zeEventQueryStatus(event) == ZE_RESULT_SUCCESS);
  CHECK(zeEventDestroy(event) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given a queue destroyed before its fences, then the fences stay valid handles that "
          "keep their state",
          "[leniency][lifetime][fence]") {
  ExecFixture fx;
  auto qd = queueDesc();
  ze_command_queue_handle_t queue = nullptr;
  REQUIRE(zeCommandQueueCreate(fx.context, fx.device, &qd, &queue) == ZE_RESULT_SUCCESS);
  ze_fence_desc_t fd{ZE_STRUCTURE_TYPE_FENCE_DESC, nullptr, 0};
  ze_fence_handle_t fence = nullptr;
  REQUIRE(zeFenceCreate(queue, &fd, &fence) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandQueueDestroy(queue) == ZE_RESULT_SUCCESS);
  CHECK(zeFenceQueryStatus(fence) == ZE_RESULT_NOT_READY);
  CHECK(zeFenceHostSynchronize(fence, 0) == ZE_RESULT_NOT_READY);
  CHECK(zeFenceReset(fence) == ZE_RESULT_SUCCESS);
  // A fence of a destroyed queue is not one of another queue made later (possibly at its address).
  auto l = fx.list();
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  auto other = fx.queue();
  CHECK(zeCommandQueueExecuteCommandLists(other, 1, &l, fence) ==
        ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT);
  CHECK(zeFenceDestroy(fence) == ZE_RESULT_SUCCESS);
}
