// In-order command lists (Level Zero 1.9, tessera/ze_tessera.h quotes the flags): regular lists made
// with ZE_COMMAND_LIST_FLAG_IN_ORDER and immediate lists whose queue descriptor has
// ZE_COMMAND_QUEUE_FLAG_IN_ORDER run their commands in the order appended, each after the previous
// one completed, without events between them; signal and wait events are honoured as on any list.
// The copy-offload hint (a flag of both, and Intel's chained descriptor) is accepted and ignored:
// "This is only a hint. Driver may ignore it".
// [novalidation]: the validation layer of Debian's loader (1.8.12) checks flags against its older
// limits and answers INVALID_ENUMERATION for these before the driver sees them (checked by hand).
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "tessera/ze_tessera.h"
#include "ze_exec_support.h"

using namespace tessera::test;

namespace {

constexpr ze_command_list_flags_t kListInOrder = TESSERA_ZE_COMMAND_LIST_FLAG_IN_ORDER;
constexpr ze_command_queue_flags_t kQueueInOrder = TESSERA_ZE_COMMAND_QUEUE_FLAG_IN_ORDER;

// Intel's chained hint (ze_intel_gpu.h's zex_intel_queue_copy_operations_offload_hint_exp_desc_t).
struct CopyOffloadHint {
  ze_structure_type_t stype = TESSERA_ZEX_STRUCTURE_TYPE_QUEUE_COPY_OFFLOAD_HINT;
  const void* pNext = nullptr;
  ze_bool_t copyOffloadEnabled = 1;
};

ze_command_list_handle_t immediateList(ExecFixture& fx, ze_command_queue_flags_t flags,
                                       ze_command_queue_mode_t mode, const void* pNext = nullptr) {
  auto d = queueDesc(0, 0, mode, flags);
  d.pNext = pNext;
  ze_command_list_handle_t l = nullptr;
  REQUIRE(zeCommandListCreateImmediate(fx.context, fx.device, &d, &l) == ZE_RESULT_SUCCESS);
  return l;
}

// Appends a chain in which each command reads what the one before wrote, with no event between
// them: fill a (big enough to go to the queue's thread), copy a -> b, fill the first half of b,
// copy b -> c. Only the order appended gives `expected`.
void appendChain(ze_command_list_handle_t l, std::vector<uint8_t>& a, std::vector<uint8_t>& b,
                 std::vector<uint8_t>& c, ze_event_handle_t done) {
  const uint8_t one = 1, two = 2;
  const size_t n = a.size();
  REQUIRE(zeCommandListAppendMemoryFill(l, a.data(), &one, 1, n, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendMemoryCopy(l, b.data(), a.data(), n, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendMemoryFill(l, b.data(), &two, 1, n / 2, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendMemoryCopy(l, c.data(), b.data(), n, done, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
}

bool chainDone(const std::vector<uint8_t>& c) {
  for (size_t i = 0; i < c.size(); ++i)
    if (c[i] != (i < c.size() / 2 ? 2 : 1)) return false;
  return true;
}

}  // namespace

TEST_CASE("Given the in-order and copy-offload flags of Level Zero 1.9, then lists and queues are "
          "made with them; flags past them and forbidden mixes are refused",
          "[in_order][cmdlist][queue][novalidation]") {
  ExecFixture fx;
  for (ze_command_list_flags_t flags :
       {kListInOrder, kListInOrder | TESSERA_ZE_COMMAND_LIST_FLAG_COPY_OFFLOAD_HINT,
        TESSERA_ZE_COMMAND_LIST_FLAG_COPY_OFFLOAD_HINT,
        kListInOrder | ZE_COMMAND_LIST_FLAG_EXPLICIT_ONLY | ZE_COMMAND_LIST_FLAG_MAXIMIZE_THROUGHPUT}) {
    INFO("list flags " << flags);
    ze_command_list_desc_t d{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, 0, flags};
    ze_command_list_handle_t l = nullptr;
    CHECK(zeCommandListCreate(fx.context, fx.device, &d, &l) == ZE_RESULT_SUCCESS);
    if (l) CHECK(zeCommandListDestroy(l) == ZE_RESULT_SUCCESS);
  }
  ze_command_list_desc_t d{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, 0, 0};
  ze_command_list_handle_t l = nullptr;
  d.flags = kListInOrder | ZE_COMMAND_LIST_FLAG_RELAXED_ORDERING;  // "Cannot be combined"
  CHECK(zeCommandListCreate(fx.context, fx.device, &d, &l) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  d.flags = TESSERA_ZE_COMMAND_LIST_FLAG_EXP_CLONEABLE;
  CHECK(zeCommandListCreate(fx.context, fx.device, &d, &l) == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  d.flags = 0x40;
  CHECK(zeCommandListCreate(fx.context, fx.device, &d, &l) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  CHECK(l == nullptr);

  CopyOffloadHint hint;
  for (ze_command_queue_flags_t flags :
       {kQueueInOrder, TESSERA_ZE_COMMAND_QUEUE_FLAG_COPY_OFFLOAD_HINT,
        kQueueInOrder | TESSERA_ZE_COMMAND_QUEUE_FLAG_COPY_OFFLOAD_HINT}) {
    INFO("queue flags " << flags);
    for (const void* pNext : {static_cast<const void*>(nullptr), static_cast<const void*>(&hint)}) {
      auto qd = queueDesc(0, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, flags);
      qd.pNext = pNext;
      ze_command_list_handle_t il = nullptr;
      CHECK(zeCommandListCreateImmediate(fx.context, fx.device, &qd, &il) == ZE_RESULT_SUCCESS);
      if (il) CHECK(zeCommandListDestroy(il) == ZE_RESULT_SUCCESS);
      ze_command_queue_handle_t q = nullptr;
      CHECK(zeCommandQueueCreate(fx.context, fx.device, &qd, &q) == ZE_RESULT_SUCCESS);
      if (q) CHECK(zeCommandQueueDestroy(q) == ZE_RESULT_SUCCESS);
    }
  }
  auto bad = queueDesc(0, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, 0x8);
  ze_command_list_handle_t il = nullptr;
  CHECK(zeCommandListCreateImmediate(fx.context, fx.device, &bad, &il) ==
        ZE_RESULT_ERROR_INVALID_ENUMERATION);
}

TEST_CASE("Given an in-order immediate list, then commands without events between them run in "
          "the order appended",
          "[in_order][immediate][novalidation]") {
  ExecFixture fx;
  CopyOffloadHint hint;  // as compute-benchmarks passes it
  for (auto mode : {ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
                    ZE_COMMAND_QUEUE_MODE_DEFAULT}) {
    INFO("mode " << mode);
    auto l = immediateList(fx, kQueueInOrder | TESSERA_ZE_COMMAND_QUEUE_FLAG_COPY_OFFLOAD_HINT,
                           mode, &hint);
    auto done = fx.events(1)[0];
    for (size_t n : {size_t(64), size_t(8) << 20}) {  // inline-sized, and the queue's thread
      INFO("bytes " << n);
      std::vector<uint8_t> a(n, 0), b(n, 0), c(n, 0);
      REQUIRE(zeEventHostReset(done) == ZE_RESULT_SUCCESS);
      appendChain(l, a, b, c, done);
      REQUIRE(zeEventHostSynchronize(done, kPatienceNs) == ZE_RESULT_SUCCESS);
      CHECK(chainDone(c));
    }
    CHECK(zeCommandListDestroy(l) == ZE_RESULT_SUCCESS);
  }
}

TEST_CASE("Given an in-order immediate list, then a command waiting on an event holds back the "
          "commands appended after it, and signals are honoured",
          "[in_order][immediate][event][novalidation]") {
  ExecFixture fx;
  auto l = immediateList(fx, kQueueInOrder, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  auto ev = fx.events(3);
  ze_event_handle_t gate = ev[0], first = ev[1], last = ev[2];
  uint64_t src = 0x1122334455667788ull, mid = 0, dst = 0;
  REQUIRE(zeCommandListAppendMemoryCopy(l, &mid, &src, 8, first, 1, &gate) == ZE_RESULT_SUCCESS);
  // No event: in order, it may only run after the copy above, which waits for the gate.
  REQUIRE(zeCommandListAppendMemoryCopy(l, &dst, &mid, 8, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendSignalEvent(l, last) == ZE_RESULT_SUCCESS);
  CHECK(zeEventQueryStatus(first) == ZE_RESULT_NOT_READY);
  CHECK(zeEventQueryStatus(last) == ZE_RESULT_NOT_READY);
  REQUIRE(zeEventHostSignal(gate) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventHostSynchronize(last, kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(zeEventQueryStatus(first) == ZE_RESULT_SUCCESS);
  CHECK(dst == src);
  CHECK(zeCommandListDestroy(l) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given an in-order regular list, then its commands run in the order appended on every "
          "execution",
          "[in_order][cmdlist][novalidation]") {
  ExecFixture fx;
  auto l = fx.list(0, kListInOrder | TESSERA_ZE_COMMAND_LIST_FLAG_COPY_OFFLOAD_HINT);
  auto done = fx.events(1)[0];
  const size_t n = size_t(8) << 20;
  std::vector<uint8_t> a(n, 0), b(n, 0), c(n, 0);
  appendChain(l, a, b, c, done);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  auto q = fx.queue();
  for (int run = 0; run < 2; ++run) {
    INFO("execution " << run);
    std::fill(c.begin(), c.end(), 0);
    REQUIRE(zeEventHostReset(done) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueSynchronize(q, kPatienceNs) == ZE_RESULT_SUCCESS);
    CHECK(zeEventQueryStatus(done) == ZE_RESULT_SUCCESS);
    CHECK(chainDone(c));
  }
}
