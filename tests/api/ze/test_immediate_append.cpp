// ZE_experimental_immediate_command_list_append: closed regular (and mutable) lists replayed on an
// immediate list in order, with wait events and a signal event; the lists stay usable (and
// destroyable) while a replay runs; every error the extension answers.
#include <cstring>
#include <vector>

#include "kernel_test_support.h"
#include "tessera/ze_tessera.h"

using tessera::test::extensionFunction;
using tessera::test::KernelFixture;
using tessera::test::setArgs;
using tessera::test::setGroupSize;

namespace {

struct AppendFixture : KernelFixture {
  ze_pfnCommandListImmediateAppendCommandListsExp_t append =
      extensionFunction<ze_pfnCommandListImmediateAppendCommandListsExp_t>(
          driver, "zeCommandListImmediateAppendCommandListsExp");
  std::vector<void*> allocations;
  AppendFixture() { REQUIRE(append); }
  ~AppendFixture() {
    for (void* p : allocations) zeMemFree(context, p);
  }
  // Waits until everything appended to an immediate list has run (a signalled barrier).
  void drain(ze_command_list_handle_t imm) {
    if (!drainEvent) drainEvent = events(1)[0];
    REQUIRE(zeEventHostReset(drainEvent) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListAppendBarrier(imm, drainEvent, 0, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeEventHostSynchronize(drainEvent, UINT64_MAX) == ZE_RESULT_SUCCESS);
  }
  ze_event_handle_t drainEvent = nullptr;
  int* ints(size_t n) {
    ze_host_mem_alloc_desc_t hd{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    void* p = nullptr;
    REQUIRE(zeMemAllocHost(context, &hd, n * sizeof(int), 64, &p) == ZE_RESULT_SUCCESS);
    allocations.push_back(p);
    std::fill(static_cast<int*>(p), static_cast<int*>(p) + n, -1);
    return static_cast<int*>(p);
  }
};

}  // namespace

TEST_CASE("Given the driver, then ZE_experimental_immediate_command_list_append is listed",
          "[immediate_append]") {
  AppendFixture fx;
  uint32_t n = 0;
  REQUIRE(zeDriverGetExtensionProperties(fx.driver, &n, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<ze_driver_extension_properties_t> exts(n);
  REQUIRE(zeDriverGetExtensionProperties(fx.driver, &n, exts.data()) == ZE_RESULT_SUCCESS);
  bool found = false;
  for (const auto& e : exts)
    if (std::strcmp(e.name, ZE_IMMEDIATE_COMMAND_LIST_APPEND_EXP_NAME) == 0)
      found = e.version == ZE_IMMEDIATE_COMMAND_LIST_APPEND_EXP_VERSION_1_0;
  CHECK(found);
}

TEST_CASE("Given two closed lists, when appended to an immediate list with a wait and a signal, "
          "then they run in order after the wait and before the signal, as often as appended",
          "[immediate_append]") {
  AppendFixture fx;
  ze_kernel_handle_t k = fx.kernel("mutable", "tag_items");
  int* out = fx.ints(64);
  ze_command_list_handle_t a = fx.list(), b = fx.list();
  setGroupSize(k, 8);
  setArgs(k, out, 1);
  KernelFixture::launch(a, k, {2, 1, 1});  // items 0..15 = 1008
  setArgs(k, out, 2);
  KernelFixture::launch(b, k, {1, 1, 1});  // items 0..7 = 2008, after a
  REQUIRE(zeCommandListClose(a) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(b) == ZE_RESULT_SUCCESS);

  auto ev = fx.events(2);
  ze_command_list_handle_t imm = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  ze_command_list_handle_t both[2] = {a, b};
  REQUIRE(fx.append(imm, 2, both, ev[1], 1, &ev[0]) == ZE_RESULT_SUCCESS);
  // Held back by the wait.
  CHECK(zeEventQueryStatus(ev[1]) == ZE_RESULT_NOT_READY);
  CHECK(out[0] == -1);
  REQUIRE(zeEventHostSignal(ev[0]) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventHostSynchronize(ev[1], UINT64_MAX) == ZE_RESULT_SUCCESS);
  for (int i = 0; i < 8; ++i) CHECK(out[i] == 2008);
  for (int i = 8; i < 16; ++i) CHECK(out[i] == 1008);
  CHECK(out[16] == -1);

  // Again, the other way round, and with no events at all; then the lists are destroyed while
  // a replay may still run: it keeps what it needs.
  std::fill(out, out + 64, -1);
  ze_command_list_handle_t reversed[2] = {b, a};
  REQUIRE(fx.append(imm, 2, reversed, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  fx.drain(imm);
  for (int i = 0; i < 16; ++i) CHECK(out[i] == 1008);
  REQUIRE(fx.append(imm, 2, both, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  fx.drain(imm);
  for (int i = 0; i < 8; ++i) CHECK(out[i] == 2008);

  // A synchronous immediate list returns once the lists ran.
  std::fill(out, out + 64, -1);
  ze_command_list_handle_t sync = fx.immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  REQUIRE(fx.append(sync, 1, &a, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(out[15] == 1008);
}

TEST_CASE("Given a mutable list, when updated, then it must be closed again before it is "
          "appended, and the appended run keeps the values it was appended with",
          "[immediate_append]") {
  AppendFixture fx;
  auto getId = extensionFunction<ze_pfnCommandListGetNextCommandIdExp_t>(
      fx.driver, "zeCommandListGetNextCommandIdExp");
  auto updateCommands = extensionFunction<ze_pfnCommandListUpdateMutableCommandsExp_t>(
      fx.driver, "zeCommandListUpdateMutableCommandsExp");
  REQUIRE((getId && updateCommands));
  ze_kernel_handle_t k = fx.kernel("mutable", "tag_items");
  int* out = fx.ints(64);
  ze_mutable_command_list_exp_desc_t m{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_DESC, nullptr, 0};
  ze_command_list_desc_t d{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, &m, 0, 0};
  ze_command_list_handle_t l = nullptr;
  REQUIRE(zeCommandListCreate(fx.context, fx.device, &d, &l) == ZE_RESULT_SUCCESS);
  ze_mutable_command_id_exp_desc_t idDesc{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_ID_EXP_DESC, nullptr, 0};
  uint64_t id = 0;
  REQUIRE(getId(l, &idDesc, &id) == ZE_RESULT_SUCCESS);
  setGroupSize(k, 4);
  setArgs(k, out, 3);
  KernelFixture::launch(l, k, {1, 1, 1});
  ze_command_list_handle_t imm = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  // Open: refused.
  CHECK(fx.append(imm, 1, &l, nullptr, 0, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);

  int tag = 4;
  ze_mutable_kernel_argument_exp_desc_t arg{ZE_STRUCTURE_TYPE_MUTABLE_KERNEL_ARGUMENT_EXP_DESC,
                                            nullptr, id, 1, sizeof tag, &tag};
  ze_mutable_commands_exp_desc_t u{ZE_STRUCTURE_TYPE_MUTABLE_COMMANDS_EXP_DESC, &arg, 0};
  REQUIRE(updateCommands(l, &u) == ZE_RESULT_SUCCESS);
  // Updated, not closed again: refused.
  CHECK(fx.append(imm, 1, &l, nullptr, 0, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  REQUIRE(fx.append(imm, 1, &l, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  fx.drain(imm);
  CHECK(out[0] == 4004);
  CHECK(out[4] == -1);
  REQUIRE(zeCommandListDestroy(l) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given bad arguments, when appending lists to an immediate list, then each error is "
          "answered and nothing runs",
          "[immediate_append]") {
  AppendFixture fx;
  ze_command_list_handle_t regular = fx.list();
  REQUIRE(zeCommandListClose(regular) == ZE_RESULT_SUCCESS);
  ze_command_list_handle_t imm = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  ze_command_list_handle_t other = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  CHECK(fx.append(nullptr, 1, &regular, nullptr, 0, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(fx.append(imm, 1, nullptr, nullptr, 0, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  ze_command_list_handle_t null = nullptr;
  CHECK(fx.append(imm, 1, &null, nullptr, 0, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  // The target must be immediate; the lists regular.
  ze_command_list_handle_t regular2 = fx.list();
  REQUIRE(zeCommandListClose(regular2) == ZE_RESULT_SUCCESS);
  CHECK(fx.append(regular2, 1, &regular, nullptr, 0, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(fx.append(imm, 1, &other, nullptr, 0, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  // Wait list shape.
  CHECK(fx.append(imm, 1, &regular, nullptr, 1, nullptr) == ZE_RESULT_ERROR_INVALID_SIZE);
  ze_event_handle_t bogus = reinterpret_cast<ze_event_handle_t>(&fx);
  CHECK(fx.append(imm, 1, &regular, bogus, 0, nullptr) ==
        ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT);
  // An empty closed list and zero lists are fine.
  CHECK(fx.append(imm, 1, &regular, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  auto ev = fx.events(1);
  CHECK(fx.append(imm, 0, &regular, ev[0], 0, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventHostSynchronize(ev[0], UINT64_MAX) == ZE_RESULT_SUCCESS);
}
