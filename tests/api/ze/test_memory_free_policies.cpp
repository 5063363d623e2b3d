// zeMemFreeExt's policies against real work in flight: a command list that uses an allocation is
// held back by an event, so the free meets a command that has not completed.
#include <atomic>
#include <chrono>
#include <thread>

#include "memory_test_support.h"

using tessera::test::MemoryFixture;

namespace {

struct Blocked {
  MemoryFixture& fx;
  ze_event_pool_handle_t pool = nullptr;
  ze_event_handle_t gate = nullptr;
  ze_command_queue_handle_t queue = nullptr;
  ze_command_list_handle_t list = nullptr;

  // A list that waits for `gate`, then fills `ptr`: executed, it holds `ptr` in use until the gate
  // opens.
  Blocked(MemoryFixture& f, void* ptr, size_t size) : fx(f) {
    ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                            ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
    REQUIRE(zeEventPoolCreate(fx.context, &pd, 0, nullptr, &pool) == ZE_RESULT_SUCCESS);
    ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, 0};
    REQUIRE(zeEventCreate(pool, &ed, &gate) == ZE_RESULT_SUCCESS);
    ze_command_queue_desc_t qd{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    REQUIRE(zeCommandQueueCreate(fx.context, fx.device, &qd, &queue) == ZE_RESULT_SUCCESS);
    ze_command_list_desc_t ld{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, 0, 0};
    REQUIRE(zeCommandListCreate(fx.context, fx.device, &ld, &list) == ZE_RESULT_SUCCESS);
    uint8_t pattern = 0xab;
    REQUIRE(zeCommandListAppendMemoryFill(list, ptr, &pattern, 1, size, nullptr, 1, &gate) ==
            ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListClose(list) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueExecuteCommandLists(queue, 1, &list, nullptr) == ZE_RESULT_SUCCESS);
  }
  void open() { REQUIRE(zeEventHostSignal(gate) == ZE_RESULT_SUCCESS); }
  ~Blocked() {
    zeEventHostSignal(gate);
    if (queue) {
      zeCommandQueueSynchronize(queue, UINT64_MAX);
      zeCommandQueueDestroy(queue);
    }
    zeCommandListDestroy(list);
    zeEventDestroy(gate);
    zeEventPoolDestroy(pool);
  }
};

ze_memory_type_t typeOf(MemoryFixture& fx, const void* p) {
  ze_memory_allocation_properties_t props{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
  ze_device_handle_t dev = nullptr;
  REQUIRE(zeMemGetAllocProperties(fx.context, p, &props, &dev) == ZE_RESULT_SUCCESS);
  return props.type;
}

}  // namespace

TEST_CASE("Given a command in flight that uses an allocation, when it is freed with DEFER_FREE, "
          "then the call returns at once and the memory goes when the command completes",
          "[memory][free_policy]") {
  MemoryFixture fx;
  constexpr size_t kSize = 64 * 1024;
  void* p = fx.allocDevice(kSize);
  Blocked work(fx, p, kSize);
  ze_memory_free_ext_desc_t desc{ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, nullptr,
                                 ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE};
  REQUIRE(fx.freeExt()(fx.context, &desc, p) == ZE_RESULT_SUCCESS);
  // Still there: the fill has not run yet.
  CHECK(typeOf(fx, p) == ZE_MEMORY_TYPE_DEVICE);
  work.open();
  REQUIRE(zeCommandQueueSynchronize(work.queue, UINT64_MAX) == ZE_RESULT_SUCCESS);
  CHECK(typeOf(fx, p) == ZE_MEMORY_TYPE_UNKNOWN);
}

TEST_CASE("Given a command in flight that uses an allocation, when it is freed with BLOCKING_FREE, "
          "then the call returns only after the command completed",
          "[memory][free_policy]") {
  MemoryFixture fx;
  constexpr size_t kSize = 64 * 1024;
  auto* p = static_cast<uint8_t*>(fx.allocDevice(kSize));
  Blocked work(fx, p, kSize);
  std::atomic<bool> returned{false};
  std::thread freer([&] {
    ze_memory_free_ext_desc_t desc{ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, nullptr,
                                   ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE};
    CHECK(fx.freeExt()(fx.context, &desc, p) == ZE_RESULT_SUCCESS);
    returned = true;
  });
  // Proving that something does not happen needs a little time; the gate is still closed, so the
  // free must still be waiting after it.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK_FALSE(returned.load());
  p[kSize - 1] = 0x5a;  // the memory is still ours while the free waits
  CHECK(p[kSize - 1] == 0x5a);
  work.open();
  freer.join();
  CHECK(returned.load());
  CHECK(typeOf(fx, p) == ZE_MEMORY_TYPE_UNKNOWN);
}

TEST_CASE("Given an immediate asynchronous list, when it uses an allocation freed with DEFER_FREE, "
          "then the allocation outlives the command",
          "[memory][free_policy]") {
  MemoryFixture fx;
  void* p = fx.allocHost(4096);
  ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, 0, 2};
  ze_event_pool_handle_t pool;
  REQUIRE(zeEventPoolCreate(fx.context, &pd, 0, nullptr, &pool) == ZE_RESULT_SUCCESS);
  ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, 0};
  ze_event_handle_t gate;
  REQUIRE(zeEventCreate(pool, &ed, &gate) == ZE_RESULT_SUCCESS);
  ze_command_queue_desc_t qd{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  qd.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
  ze_command_list_handle_t list;
  REQUIRE(zeCommandListCreateImmediate(fx.context, fx.device, &qd, &list) == ZE_RESULT_SUCCESS);
  uint32_t pattern = 7;
  REQUIRE(zeCommandListAppendMemoryFill(list, p, &pattern, 4, 4096, nullptr, 1, &gate) ==
          ZE_RESULT_SUCCESS);
  ze_memory_free_ext_desc_t desc{ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, nullptr,
                                 ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE};
  REQUIRE(fx.freeExt()(fx.context, &desc, p) == ZE_RESULT_SUCCESS);
  CHECK(typeOf(fx, p) == ZE_MEMORY_TYPE_HOST);
  REQUIRE(zeEventHostSignal(gate) == ZE_RESULT_SUCCESS);
  // A barrier signalling an event after the fill tells when the fill is done.
  ze_event_handle_t done;
  ed.index = 1;
  REQUIRE(zeEventCreate(pool, &ed, &done) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendBarrier(list, done, 0, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventHostSynchronize(done, UINT64_MAX) == ZE_RESULT_SUCCESS);
  CHECK(typeOf(fx, p) == ZE_MEMORY_TYPE_UNKNOWN);
  zeCommandListDestroy(list);
  zeEventDestroy(done);
  zeEventDestroy(gate);
  zeEventPoolDestroy(pool);
}

TEST_CASE("Given work that never ran because its queue was destroyed, when its allocation is freed "
          "with BLOCKING_FREE, then the free does not wait for it",
          "[memory][free_policy]") {
  MemoryFixture fx;
  constexpr size_t kSize = 4096;
  void* p = fx.allocDevice(kSize);
  {
    Blocked work(fx, p, kSize);
    // A second execution queues up behind the blocked one; destroying the queue abandons both.
    REQUIRE(zeCommandQueueExecuteCommandLists(work.queue, 1, &work.list, nullptr) ==
            ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueDestroy(work.queue) == ZE_RESULT_SUCCESS);
    work.queue = nullptr;
  }
  ze_memory_free_ext_desc_t desc{ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, nullptr,
                                 ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE};
  CHECK(fx.freeExt()(fx.context, &desc, p) == ZE_RESULT_SUCCESS);
  CHECK(typeOf(fx, p) == ZE_MEMORY_TYPE_UNKNOWN);
}
