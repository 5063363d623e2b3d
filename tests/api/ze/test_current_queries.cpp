// The queries of Level Zero 1.15 and 1.17 (tessera/ze_tessera_current.h): what a command list or
// queue was created with (zeCommandListGetFlags, zeCommandListImmediateGetFlags / GetMode /
// GetPriority, zeCommandListIsMutableExp, zeCommandQueueGetFlags / GetMode / GetPriority),
// zeDeviceGetCounterBasedEventMaxValue, zeDeviceGetAggregatedCopyOffloadIncrementValue and
// zePhysicalMemGetProperties, with the header's errors.
// Both test builds reach them by name through zeDriverGetExtensionFunctionAddress. [novalidation]:
// the lists and queues made with 1.9's flags, which Debian's validation layer refuses
// (docs/api-coverage.md).
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "tessera/ze_tessera.h"
#include "ze_exec_support.h"

using namespace tessera::test;

namespace {

const auto kNullHandle = ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
const auto kNullPointer = ZE_RESULT_ERROR_INVALID_NULL_POINTER;

struct Queries {
  explicit Queries(ze_driver_handle_t d)
      : listFlags(requiredFunction<ze_pfnCommandListGetFlags_t>(d, "zeCommandListGetFlags")),
        immFlags(requiredFunction<ze_pfnCommandListImmediateGetFlags_t>(
            d, "zeCommandListImmediateGetFlags")),
        immMode(requiredFunction<ze_pfnCommandListImmediateGetMode_t>(
            d, "zeCommandListImmediateGetMode")),
        immPriority(requiredFunction<ze_pfnCommandListImmediateGetPriority_t>(
            d, "zeCommandListImmediateGetPriority")),
        isMutable(
            requiredFunction<ze_pfnCommandListIsMutableExp_t>(d, "zeCommandListIsMutableExp")),
        queueFlags(requiredFunction<ze_pfnCommandQueueGetFlags_t>(d, "zeCommandQueueGetFlags")),
        queueMode(requiredFunction<ze_pfnCommandQueueGetMode_t>(d, "zeCommandQueueGetMode")),
        queuePriority(
            requiredFunction<ze_pfnCommandQueueGetPriority_t>(d, "zeCommandQueueGetPriority")) {}
  ze_pfnCommandListGetFlags_t listFlags;
  ze_pfnCommandListImmediateGetFlags_t immFlags;
  ze_pfnCommandListImmediateGetMode_t immMode;
  ze_pfnCommandListImmediateGetPriority_t immPriority;
  ze_pfnCommandListIsMutableExp_t isMutable;
  ze_pfnCommandQueueGetFlags_t queueFlags;
  ze_pfnCommandQueueGetMode_t queueMode;
  ze_pfnCommandQueueGetPriority_t queuePriority;
};

ze_command_queue_desc_t fullQueueDesc(ze_command_queue_flags_t flags, ze_command_queue_mode_t mode,
                                      ze_command_queue_priority_t priority) {
  return {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0, flags, mode, priority};
}

}  // namespace

TEST_CASE(
    "Given queues and immediate lists made with each flag, mode and priority, then the 1.17 "
    "queries return what they were created with",
    "[current_api][queue][cmdlist][novalidation]") {
  ExecFixture fx;
  Queries api(fx.driver);
  struct Case {
    ze_command_queue_flags_t flags;
    ze_command_queue_mode_t mode;
    ze_command_queue_priority_t priority;
    ze_command_list_flags_t listFlags;  // what zeCommandListGetFlags gives for the immediate list
  };
  const Case cases[] = {
      {0, ZE_COMMAND_QUEUE_MODE_DEFAULT, ZE_COMMAND_QUEUE_PRIORITY_NORMAL, 0},
      {ZE_COMMAND_QUEUE_FLAG_EXPLICIT_ONLY, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
       ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_LOW, ZE_COMMAND_LIST_FLAG_EXPLICIT_ONLY},
      {TESSERA_ZE_COMMAND_QUEUE_FLAG_IN_ORDER, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
       ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH, TESSERA_ZE_COMMAND_LIST_FLAG_IN_ORDER},
      {TESSERA_ZE_COMMAND_QUEUE_FLAG_IN_ORDER | TESSERA_ZE_COMMAND_QUEUE_FLAG_COPY_OFFLOAD_HINT,
       ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, ZE_COMMAND_QUEUE_PRIORITY_NORMAL,
       TESSERA_ZE_COMMAND_LIST_FLAG_IN_ORDER | TESSERA_ZE_COMMAND_LIST_FLAG_COPY_OFFLOAD_HINT},
  };
  for (const Case& c : cases) {
    INFO("flags " << c.flags << ", mode " << c.mode << ", priority " << c.priority);
    auto d = fullQueueDesc(c.flags, c.mode, c.priority);
    ze_command_queue_handle_t queue = nullptr;
    ze_command_list_handle_t list = nullptr;
    REQUIRE(zeCommandQueueCreate(fx.context, fx.device, &d, &queue) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListCreateImmediate(fx.context, fx.device, &d, &list) == ZE_RESULT_SUCCESS);

    ze_command_queue_flags_t flags = 0xff;
    ze_command_queue_mode_t mode = ZE_COMMAND_QUEUE_MODE_FORCE_UINT32;
    ze_command_queue_priority_t priority = ZE_COMMAND_QUEUE_PRIORITY_FORCE_UINT32;
    REQUIRE(api.queueFlags(queue, &flags) == ZE_RESULT_SUCCESS);
    CHECK(flags == c.flags);
    REQUIRE(api.queueMode(queue, &mode) == ZE_RESULT_SUCCESS);
    CHECK(mode == c.mode);
    REQUIRE(api.queuePriority(queue, &priority) == ZE_RESULT_SUCCESS);
    CHECK(priority == c.priority);

    flags = 0xff;
    mode = ZE_COMMAND_QUEUE_MODE_FORCE_UINT32;
    priority = ZE_COMMAND_QUEUE_PRIORITY_FORCE_UINT32;
    REQUIRE(api.immFlags(list, &flags) == ZE_RESULT_SUCCESS);
    CHECK(flags == c.flags);
    REQUIRE(api.immMode(list, &mode) == ZE_RESULT_SUCCESS);
    CHECK(mode == c.mode);
    REQUIRE(api.immPriority(list, &priority) == ZE_RESULT_SUCCESS);
    CHECK(priority == c.priority);
    ze_command_list_flags_t listFlags = 0xff;
    REQUIRE(api.listFlags(list, &listFlags) == ZE_RESULT_SUCCESS);
    CHECK(listFlags == c.listFlags);
    ze_bool_t mut = 2;
    REQUIRE(api.isMutable(list, &mut) == ZE_RESULT_SUCCESS);
    CHECK(mut == 0);

    CHECK(zeCommandListDestroy(list) == ZE_RESULT_SUCCESS);
    CHECK(zeCommandQueueDestroy(queue) == ZE_RESULT_SUCCESS);
  }

  auto queue = fx.queue();
  CHECK(api.queueFlags(nullptr, nullptr) == kNullHandle);
  CHECK(api.queueFlags(queue, nullptr) == kNullPointer);
  CHECK(api.queueMode(nullptr, nullptr) == kNullHandle);
  CHECK(api.queueMode(queue, nullptr) == kNullPointer);
  CHECK(api.queuePriority(nullptr, nullptr) == kNullHandle);
  CHECK(api.queuePriority(queue, nullptr) == kNullPointer);
  // A list is not a queue.
  ze_command_queue_flags_t flags = 0;
  CHECK(api.queueFlags(reinterpret_cast<ze_command_queue_handle_t>(fx.list()), &flags) ==
        kNullHandle);
}

TEST_CASE(
    "Given regular lists, then zeCommandListGetFlags and zeCommandListIsMutableExp return "
    "what they were created with, and the immediate queries refuse them as the header says",
    "[current_api][cmdlist][novalidation]") {
  ExecFixture fx;
  Queries api(fx.driver);
  for (ze_command_list_flags_t made :
       {ze_command_list_flags_t(0), ze_command_list_flags_t(ZE_COMMAND_LIST_FLAG_RELAXED_ORDERING),
        ze_command_list_flags_t(ZE_COMMAND_LIST_FLAG_MAXIMIZE_THROUGHPUT |
                                ZE_COMMAND_LIST_FLAG_EXPLICIT_ONLY),
        ze_command_list_flags_t(TESSERA_ZE_COMMAND_LIST_FLAG_IN_ORDER)}) {
    INFO("flags " << made);
    auto list = fx.list(0, made);
    ze_command_list_flags_t got = 0xff;
    REQUIRE(api.listFlags(list, &got) == ZE_RESULT_SUCCESS);
    CHECK(got == made);
  }
  auto regular = fx.list();
  ze_bool_t mut = 2;
  REQUIRE(api.isMutable(regular, &mut) == ZE_RESULT_SUCCESS);
  CHECK(mut == 0);

  // A list made with ze_mutable_command_list_exp_desc_t in its descriptor's chain.
  ze_mutable_command_list_exp_desc_t m{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_DESC, nullptr, 0};
  ze_command_list_desc_t d{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, &m, 0, 0};
  ze_command_list_handle_t mutableList = nullptr;
  REQUIRE(zeCommandListCreate(fx.context, fx.device, &d, &mutableList) == ZE_RESULT_SUCCESS);
  mut = 2;
  REQUIRE(api.isMutable(mutableList, &mut) == ZE_RESULT_SUCCESS);
  CHECK(mut == 1);
  CHECK(zeCommandListDestroy(mutableList) == ZE_RESULT_SUCCESS);

  // "handle does not correspond to an immediate command list": INVALID_NULL_POINTER.
  ze_command_queue_flags_t qf = 0;
  ze_command_queue_mode_t mode = ZE_COMMAND_QUEUE_MODE_DEFAULT;
  ze_command_queue_priority_t priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
  CHECK(api.immFlags(regular, &qf) == kNullPointer);
  CHECK(api.immMode(regular, &mode) == kNullPointer);
  CHECK(api.immPriority(regular, &priority) == kNullPointer);

  auto immediate = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  CHECK(api.immFlags(nullptr, &qf) == kNullHandle);
  CHECK(api.immFlags(immediate, nullptr) == kNullPointer);
  CHECK(api.immMode(nullptr, &mode) == kNullHandle);
  CHECK(api.immMode(immediate, nullptr) == kNullPointer);
  CHECK(api.immPriority(nullptr, &priority) == kNullHandle);
  CHECK(api.immPriority(immediate, nullptr) == kNullPointer);
  ze_command_list_flags_t lf = 0;
  CHECK(api.listFlags(nullptr, &lf) == kNullHandle);
  CHECK(api.listFlags(regular, nullptr) == kNullPointer);
  CHECK(api.isMutable(nullptr, &mut) == kNullHandle);
  CHECK(api.isMutable(regular, nullptr) == kNullPointer);
}

TEST_CASE(
    "Given zeDeviceGetCounterBasedEventMaxValue, then every device answers the 64-bit "
    "counters' maximum, and bad arguments get the header's errors",
    "[current_api][device]") {
  ze_driver_handle_t driver = initDriver();
  auto maxValue = requiredFunction<ze_pfnDeviceGetCounterBasedEventMaxValue_t>(
      driver, "zeDeviceGetCounterBasedEventMaxValue");
  for (ze_device_handle_t d : devices(driver)) {
    uint64_t v = 0;
    REQUIRE(maxValue(d, &v) == ZE_RESULT_SUCCESS);
    CHECK(v == UINT64_MAX);
  }
  uint64_t v = 0;
  CHECK(maxValue(nullptr, &v) == kNullHandle);
  CHECK(maxValue(devices(driver).at(0), nullptr) == kNullPointer);
}

TEST_CASE(
    "Given zeDeviceGetAggregatedCopyOffloadIncrementValue, then every device answers 1, the "
    "step an append raises a counter by, and bad arguments get the header's errors",
    "[current_api][device]") {
  ze_driver_handle_t driver = initDriver();
  auto increment = requiredFunction<ze_pfnDeviceGetAggregatedCopyOffloadIncrementValue_t>(
      driver, "zeDeviceGetAggregatedCopyOffloadIncrementValue");
  for (ze_device_handle_t d : devices(driver)) {
    uint32_t v = 0;
    REQUIRE(increment(d, &v) == ZE_RESULT_SUCCESS);
    CHECK(v == 1);
    for (ze_device_handle_t s : subDevices(d)) {
      v = 0;
      REQUIRE(increment(s, &v) == ZE_RESULT_SUCCESS);
      CHECK(v == 1);
    }
  }
  uint32_t v = 0;
  CHECK(increment(nullptr, &v) == kNullHandle);
  CHECK(increment(devices(driver).at(0), nullptr) == kNullPointer);
}

TEST_CASE(
    "Given physical memory objects, then zePhysicalMemGetProperties gives each its size and "
    "an id no other has, and refuses another context's object",
    "[current_api][virtual_memory]") {
  ExecFixture fx;
  ExecFixture other;
  auto props =
      requiredFunction<ze_pfnPhysicalMemGetProperties_t>(fx.driver, "zePhysicalMemGetProperties");
  size_t page = 0;
  REQUIRE(zeVirtualMemQueryPageSize(fx.context, fx.device, 1, &page) == ZE_RESULT_SUCCESS);
  std::vector<ze_physical_mem_handle_t> mems;
  for (size_t pages : {1, 3, 2}) {
    ze_physical_mem_desc_t d{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, pages * page};
    ze_physical_mem_handle_t h = nullptr;
    REQUIRE(zePhysicalMemCreate(fx.context, fx.device, &d, &h) == ZE_RESULT_SUCCESS);
    mems.push_back(h);
  }
  std::vector<uint64_t> ids;
  const size_t pages[] = {1, 3, 2};
  for (size_t i = 0; i < mems.size(); ++i) {
    ze_physical_mem_properties_t p{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES, nullptr, 0, 0};
    REQUIRE(props(fx.context, mems[i], &p) == ZE_RESULT_SUCCESS);
    CHECK(p.size == pages[i] * page);
    CHECK(p.id != 0);
    for (uint64_t id : ids) CHECK(id != p.id);
    ids.push_back(p.id);
    // The same object answers the same id.
    ze_physical_mem_properties_t again{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES, nullptr, 0, 0};
    REQUIRE(props(fx.context, mems[i], &again) == ZE_RESULT_SUCCESS);
    CHECK(again.id == p.id);
  }
  // An object made after one was destroyed does not take its id.
  REQUIRE(zePhysicalMemDestroy(fx.context, mems[0]) == ZE_RESULT_SUCCESS);
  ze_physical_mem_desc_t d{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, page};
  REQUIRE(zePhysicalMemCreate(fx.context, fx.device, &d, &mems[0]) == ZE_RESULT_SUCCESS);
  ze_physical_mem_properties_t p{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES, nullptr, 0, 0};
  REQUIRE(props(fx.context, mems[0], &p) == ZE_RESULT_SUCCESS);
  for (uint64_t id : ids) CHECK(id != p.id);

  CHECK(props(nullptr, mems[0], &p) == kNullHandle);
  CHECK(props(fx.context, nullptr, &p) == kNullHandle);
  CHECK(props(other.context, mems[0], &p) == kNullHandle);  // not made in that context
  CHECK(props(fx.context, mems[0], nullptr) == kNullPointer);
  for (auto h : mems) CHECK(zePhysicalMemDestroy(fx.context, h) == ZE_RESULT_SUCCESS);
}
