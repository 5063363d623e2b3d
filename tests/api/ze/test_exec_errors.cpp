// The error codes of the queue, list, append and event functions: null handles and pointers, bad
// enumerations, sizes and structure types, stale event handles, closed lists, image copies.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <vector>

#include "tessera/ze_tessera.h"
#include "ze_exec_support.h"

using tessera::test::ExecFixture;

namespace {
const auto kNullHandle = ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
const auto kNullPointer = ZE_RESULT_ERROR_INVALID_NULL_POINTER;
const auto kEnum = ZE_RESULT_ERROR_INVALID_ENUMERATION;
const auto kSize = ZE_RESULT_ERROR_INVALID_SIZE;
const auto kSync = ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT;
const auto kArg = ZE_RESULT_ERROR_INVALID_ARGUMENT;
}  // namespace

TEST_CASE("Given bad arguments, then queue and list creation refuse them", "[errors][queue]") {
  ExecFixture fx;
  auto d = tessera::test::queueDesc();
  ze_command_queue_handle_t q = nullptr;
  ze_command_list_handle_t l = nullptr;
  CHECK(zeCommandQueueCreate(nullptr, fx.device, &d, &q) == kNullHandle);
  CHECK(zeCommandQueueCreate(fx.context, nullptr, &d, &q) == kNullHandle);
  CHECK(zeCommandQueueCreate(fx.context, fx.device, nullptr, &q) == kNullPointer);
  CHECK(zeCommandQueueCreate(fx.context, fx.device, &d, nullptr) == kNullPointer);
  CHECK(zeCommandListCreateImmediate(fx.context, fx.device, &d, nullptr) == kNullPointer);
  for (int which = 0; which < 3; ++which) {
    auto bad = d;
    if (which == 0) bad.flags = 0x8;  // "0x7 < desc->flags" (1.9: IN_ORDER, COPY_OFFLOAD_HINT)
    if (which == 1) bad.mode = ze_command_queue_mode_t(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS + 1);
    if (which == 2)
      bad.priority = ze_command_queue_priority_t(ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH + 1);
    CHECK(zeCommandQueueCreate(fx.context, fx.device, &bad, &q) == kEnum);
    CHECK(zeCommandListCreateImmediate(fx.context, fx.device, &bad, &l) == kEnum);
  }
  ze_command_list_desc_t ld{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, 0, 0};
  CHECK(zeCommandListCreate(nullptr, fx.device, &ld, &l) == kNullHandle);
  CHECK(zeCommandListCreate(fx.context, nullptr, &ld, &l) == kNullHandle);
  CHECK(zeCommandListCreate(fx.context, fx.device, nullptr, &l) == kNullPointer);
  CHECK(zeCommandListCreate(fx.context, fx.device, &ld, nullptr) == kNullPointer);
  ld.flags = 0x40;  // "0x3f < desc->flags" (1.9)
  CHECK(zeCommandListCreate(fx.context, fx.device, &ld, &l) == kEnum);
  ld.flags = 0;
  ld.commandQueueGroupOrdinal = 2;
  CHECK(zeCommandListCreate(fx.context, fx.device, &ld, &l) == kArg);
  CHECK(zeCommandQueueDestroy(nullptr) == kNullHandle);
  CHECK(zeCommandQueueSynchronize(nullptr, 0) == kNullHandle);
  CHECK(zeCommandListDestroy(nullptr) == kNullHandle);
  CHECK(zeCommandListClose(nullptr) == kNullHandle);
  CHECK(zeCommandListReset(nullptr) == kNullHandle);
}

TEST_CASE("Given descriptors with the wrong stype, then creation is refused",
          "[errors][queue][novalidation]") {
  // [novalidation]: the structure type is the driver's check; the layer may answer first.
  ExecFixture fx;
  auto d = tessera::test::queueDesc();
  d.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC;
  ze_command_queue_handle_t q = nullptr;
  ze_command_list_handle_t l = nullptr;
  CHECK(zeCommandQueueCreate(fx.context, fx.device, &d, &q) == kArg);
  CHECK(zeCommandListCreateImmediate(fx.context, fx.device, &d, &l) == kArg);
  ze_command_list_desc_t ld{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0};
  CHECK(zeCommandListCreate(fx.context, fx.device, &ld, &l) == kArg);
  ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 1};
  ze_event_pool_handle_t p = nullptr;
  CHECK(zeEventPoolCreate(fx.context, &pd, 0, nullptr, &p) == kArg);
  ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, 0, 0, 0};
  ze_event_handle_t e = nullptr;
  CHECK(zeEventCreate(fx.pool(1), &ed, &e) == kArg);
}

TEST_CASE("Given bad arguments, then executing and synchronizing refuse them", "[errors][queue]") {
  ExecFixture fx;
  auto q = fx.queue();
  auto l = fx.list();
  CHECK(zeCommandQueueExecuteCommandLists(nullptr, 1, &l, nullptr) == kNullHandle);
  CHECK(zeCommandQueueExecuteCommandLists(q, 1, nullptr, nullptr) == kNullPointer);
  CHECK(zeCommandQueueExecuteCommandLists(q, 0, &l, nullptr) == kSize);
  CHECK(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == kArg);  // not closed
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  // Appending to a closed list is accepted and the command is not recorded (test_leniency.cpp).
  uint8_t a = 1, b = 0;
  CHECK(zeCommandListAppendMemoryCopy(l, &b, &a, 1, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandQueueSynchronize(q, tessera::test::kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(b == 0);
}

TEST_CASE("Given bad arguments, then the appends refuse them with the spec's codes",
          "[errors][cmdlist]") {
  ExecFixture fx;
  auto l = fx.list();
  auto ev = fx.events(2);
  ze_event_handle_t e = ev[0];
  std::vector<uint8_t> buf(256), other(256);
  void* p = buf.data();
  void* o = other.data();
  // Null list.
  CHECK(zeCommandListAppendBarrier(nullptr, nullptr, 0, nullptr) == kNullHandle);
  CHECK(zeCommandListAppendMemoryCopy(nullptr, p, o, 1, nullptr, 0, nullptr) == kNullHandle);
  CHECK(zeCommandListAppendSignalEvent(nullptr, e) == kNullHandle);
  CHECK(zeCommandListAppendWaitOnEvents(nullptr, 1, &e) == kNullHandle);
  CHECK(zeCommandListAppendEventReset(nullptr, e) == kNullHandle);
  // Null pointers.
  CHECK(zeCommandListAppendMemoryCopy(l, nullptr, o, 1, nullptr, 0, nullptr) == kNullPointer);
  CHECK(zeCommandListAppendMemoryCopy(l, p, nullptr, 1, nullptr, 0, nullptr) == kNullPointer);
  uint8_t pat = 1;
  CHECK(zeCommandListAppendMemoryFill(l, nullptr, &pat, 1, 1, nullptr, 0, nullptr) == kNullPointer);
  CHECK(zeCommandListAppendMemoryFill(l, p, nullptr, 1, 1, nullptr, 0, nullptr) == kNullPointer);
  ze_copy_region_t r{0, 0, 0, 8, 2, 1};
  CHECK(zeCommandListAppendMemoryCopyRegion(l, nullptr, &r, 16, 0, o, &r, 16, 0, nullptr, 0,
                                            nullptr) == kNullPointer);
  CHECK(zeCommandListAppendMemoryCopyRegion(l, p, nullptr, 16, 0, o, &r, 16, 0, nullptr, 0,
                                            nullptr) == kNullPointer);
  CHECK(zeCommandListAppendMemoryCopyRegion(l, p, &r, 16, 0, nullptr, &r, 16, 0, nullptr, 0,
                                            nullptr) == kNullPointer);
  CHECK(zeCommandListAppendMemoryCopyRegion(l, p, &r, 16, 0, o, nullptr, 16, 0, nullptr, 0,
                                            nullptr) == kNullPointer);
  CHECK(zeCommandListAppendMemoryCopyFromContext(l, p, nullptr, o, 1, nullptr, 0, nullptr) ==
        kNullHandle);
  CHECK(zeCommandListAppendMemoryCopyFromContext(l, nullptr, fx.context, o, 1, nullptr, 0,
                                                 nullptr) == kNullPointer);
  CHECK(zeCommandListAppendMemoryPrefetch(l, nullptr, 1) == kNullPointer);
  CHECK(zeCommandListAppendMemAdvise(l, nullptr, p, 1, ZE_MEMORY_ADVICE_SET_READ_MOSTLY) ==
        kNullHandle);
  CHECK(zeCommandListAppendMemAdvise(l, fx.device, nullptr, 1, ZE_MEMORY_ADVICE_SET_READ_MOSTLY) ==
        kNullPointer);
  CHECK(zeCommandListAppendMemAdvise(
            l, fx.device, p, 1,
            ze_memory_advice_t(TESSERA_ZE_MEMORY_ADVICE_CLEAR_SYSTEM_MEMORY_PREFERRED_LOCATION + 1)) ==
        kEnum);  // past the current headers' last advice (the validation layer refuses it too)
  size_t sz = 1;
  const void* rp = p;
  CHECK(zeCommandListAppendMemoryRangesBarrier(l, 1, nullptr, &rp, nullptr, 0, nullptr) ==
        kNullPointer);
  CHECK(zeCommandListAppendMemoryRangesBarrier(l, 1, &sz, nullptr, nullptr, 0, nullptr) ==
        kNullPointer);
  CHECK(zeCommandListAppendWriteGlobalTimestamp(l, nullptr, nullptr, 0, nullptr) == kNullPointer);
  CHECK(zeCommandListAppendSignalEvent(l, nullptr) == kNullHandle);
  CHECK(zeCommandListAppendWaitOnEvents(l, 1, nullptr) == kNullPointer);
  CHECK(zeCommandListAppendEventReset(l, nullptr) == kNullHandle);
  CHECK(zeCommandListAppendQueryKernelTimestamps(l, 1, nullptr, p, nullptr, nullptr, 0, nullptr) ==
        kNullPointer);
  CHECK(zeCommandListAppendQueryKernelTimestamps(l, 1, &e, nullptr, nullptr, nullptr, 0, nullptr) ==
        kNullPointer);
  // A wait count without a list.
  CHECK(zeCommandListAppendBarrier(l, nullptr, 1, nullptr) == kSize);
  CHECK(zeCommandListAppendMemoryCopy(l, p, o, 1, nullptr, 1, nullptr) == kSize);
  CHECK(zeCommandListAppendMemoryFill(l, p, &pat, 1, 1, nullptr, 1, nullptr) == kSize);
  CHECK(zeCommandListAppendWriteGlobalTimestamp(l, reinterpret_cast<uint64_t*>(p), nullptr, 1,
                                                nullptr) == kSize);
  // Fill pattern sizes: powers of two up to the compute group's 1 MiB only (test_cmdlist checks
  // the limits themselves).
  std::vector<uint8_t> big(256, 1);
  for (size_t ps : {size_t(0), size_t(3), size_t(6), size_t(96), size_t(160)})
    CHECK(zeCommandListAppendMemoryFill(l, p, big.data(), ps, 64, nullptr, 0, nullptr) == kSize);
  // Copy regions: different boxes, pitches too small, overlap.
  ze_copy_region_t r2{0, 0, 0, 8, 3, 1};
  CHECK(zeCommandListAppendMemoryCopyRegion(l, p, &r, 16, 0, o, &r2, 16, 0, nullptr, 0, nullptr) ==
        kSize);
  CHECK(zeCommandListAppendMemoryCopyRegion(l, p, &r, 4, 0, o, &r, 16, 0, nullptr, 0, nullptr) ==
        kSize);
  ze_copy_region_t r3{0, 0, 0, 8, 2, 2};
  CHECK(zeCommandListAppendMemoryCopyRegion(l, p, &r3, 16, 16, o, &r3, 16, 32, nullptr, 0,
                                            nullptr) == kSize);
  ze_copy_region_t lo{0, 0, 0, 8, 2, 1}, hi{4, 0, 0, 8, 2, 1};
  CHECK(zeCommandListAppendMemoryCopyRegion(l, p, &hi, 16, 0, p, &lo, 16, 0, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_OVERLAPPING_REGIONS);
}

TEST_CASE("Given a list, when image copies name null images, then they are INVALID_NULL_HANDLE",
          "[errors][cmdlist][novalidation]") {
  // [novalidation]: the validation layer refuses the null handles itself first.
  ExecFixture fx;
  auto l = fx.list();
  uint8_t buf[16];
  CHECK(zeCommandListAppendImageCopy(l, nullptr, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeCommandListAppendImageCopyRegion(l, nullptr, nullptr, nullptr, nullptr, nullptr, 0,
                                           nullptr) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeCommandListAppendImageCopyToMemory(l, buf, nullptr, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeCommandListAppendImageCopyFromMemory(l, nullptr, buf, nullptr, nullptr, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
}

TEST_CASE(
    "Given stale or foreign event handles, then appends refuse them as synchronization "
    "objects",
    "[errors][event][novalidation]") {
  // [novalidation]: handles the layer may track itself (a destroyed event) are the driver's check.
  ExecFixture fx;
  auto q = fx.queue();
  auto l = fx.list();
  auto p = fx.pool(1);
  ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, 0};
  ze_event_handle_t gone = nullptr;
  REQUIRE(zeEventCreate(p, &ed, &gone) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventDestroy(gone) == ZE_RESULT_SUCCESS);
  auto foreign = reinterpret_cast<ze_event_handle_t>(q);
  uint8_t a = 0, b = 0;
  for (ze_event_handle_t bad : {gone, foreign}) {
    CHECK(zeCommandListAppendMemoryCopy(l, &b, &a, 1, bad, 0, nullptr) == kSync);
    CHECK(zeCommandListAppendMemoryCopy(l, &b, &a, 1, nullptr, 1, &bad) == kSync);
    CHECK(zeCommandListAppendBarrier(l, bad, 0, nullptr) == kSync);
    CHECK(zeCommandListAppendWaitOnEvents(l, 1, &bad) == kSync);
    CHECK(zeCommandListAppendSignalEvent(l, bad) == kSync);
    uint8_t out[64];
    CHECK(zeCommandListAppendQueryKernelTimestamps(l, 1, &bad, out, nullptr, nullptr, 0, nullptr) ==
          kSync);
    CHECK(zeEventHostSignal(bad) == kNullHandle);
    CHECK(zeEventQueryStatus(bad) == kNullHandle);
  }
  // Nothing was recorded by the refused appends: the list runs empty.
  fx.run(q, l);
}

TEST_CASE("Given bad arguments, then the event functions refuse them", "[errors][event]") {
  ExecFixture fx;
  ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, 0, 1};
  ze_event_pool_handle_t p = nullptr;
  CHECK(zeEventPoolCreate(nullptr, &pd, 0, nullptr, &p) == kNullHandle);
  CHECK(zeEventPoolCreate(fx.context, nullptr, 0, nullptr, &p) == kNullPointer);
  CHECK(zeEventPoolCreate(fx.context, &pd, 0, nullptr, nullptr) == kNullPointer);
  pd.flags = 0x10;  // 1.6's "0xf < desc->flags" (bit 3 is KERNEL_MAPPED_TIMESTAMP)
  CHECK(zeEventPoolCreate(fx.context, &pd, 0, nullptr, &p) == kEnum);
  pd.flags = 0;
  pd.count = 0;
  CHECK(zeEventPoolCreate(fx.context, &pd, 0, nullptr, &p) == kSize);
  pd.count = 1;
  CHECK(zeEventPoolCreate(fx.context, &pd, 1, nullptr, &p) == kSize);
  CHECK(zeEventPoolDestroy(nullptr) == kNullHandle);
  auto pool = fx.pool(1);
  ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, 0};
  ze_event_handle_t e = nullptr;
  CHECK(zeEventCreate(nullptr, &ed, &e) == kNullHandle);
  CHECK(zeEventCreate(pool, nullptr, &e) == kNullPointer);
  CHECK(zeEventCreate(pool, &ed, nullptr) == kNullPointer);
  ed.signal = 0x8;
  CHECK(zeEventCreate(pool, &ed, &e) == kEnum);
  ed.signal = 0;
  ed.wait = 0x8;
  CHECK(zeEventCreate(pool, &ed, &e) == kEnum);
  CHECK(zeEventDestroy(nullptr) == kNullHandle);
  CHECK(zeEventHostSignal(nullptr) == kNullHandle);
  CHECK(zeEventHostSynchronize(nullptr, 0) == kNullHandle);
  CHECK(zeEventQueryStatus(nullptr) == kNullHandle);
  CHECK(zeEventHostReset(nullptr) == kNullHandle);
  ze_kernel_timestamp_result_t ts{};
  CHECK(zeEventQueryKernelTimestamp(nullptr, &ts) == kNullHandle);
  auto tsEvent = fx.events(1, ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP)[0];
  CHECK(zeEventQueryKernelTimestamp(tsEvent, nullptr) == kNullPointer);
  uint32_t n = 0;
  CHECK(zeEventQueryTimestampsExp(nullptr, fx.device, &n, nullptr) == kNullHandle);
  CHECK(zeEventQueryTimestampsExp(tsEvent, nullptr, &n, nullptr) == kNullHandle);
  CHECK(zeEventQueryTimestampsExp(tsEvent, fx.device, nullptr, nullptr) == kNullPointer);
}
