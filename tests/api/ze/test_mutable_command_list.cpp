// ZE_experimental_mutable_command_list: command ids, updates of kernel arguments, group counts and
// sizes, global offsets and events of a closed list, checked against host references; and every
// error the extension answers.
#include <cstring>
#include <vector>

#include "kernel_test_support.h"

using tessera::test::extensionFunction;
using tessera::test::KernelFixture;
using tessera::test::setArgs;
using tessera::test::setGroupSize;

namespace {

constexpr int kSlot = 64;  // ints of output per command

struct MutableFixture : KernelFixture {
  ze_pfnCommandListGetNextCommandIdExp_t getId =
      extensionFunction<ze_pfnCommandListGetNextCommandIdExp_t>(driver,
                                                                "zeCommandListGetNextCommandIdExp");
  ze_pfnCommandListUpdateMutableCommandsExp_t updateCommands =
      extensionFunction<ze_pfnCommandListUpdateMutableCommandsExp_t>(
          driver, "zeCommandListUpdateMutableCommandsExp");
  ze_pfnCommandListUpdateMutableCommandSignalEventExp_t updateSignal =
      extensionFunction<ze_pfnCommandListUpdateMutableCommandSignalEventExp_t>(
          driver, "zeCommandListUpdateMutableCommandSignalEventExp");
  ze_pfnCommandListUpdateMutableCommandWaitEventsExp_t updateWaits =
      extensionFunction<ze_pfnCommandListUpdateMutableCommandWaitEventsExp_t>(
          driver, "zeCommandListUpdateMutableCommandWaitEventsExp");
  std::vector<void*> allocations;

  MutableFixture() {
    REQUIRE(getId);
    REQUIRE(updateCommands);
    REQUIRE(updateSignal);
    REQUIRE(updateWaits);
  }
  ~MutableFixture() {
    for (auto l : lists) zeCommandListDestroy(l);
    for (void* p : allocations) zeMemFree(context, p);
  }

  ze_command_list_handle_t mutableList(ze_mutable_command_list_exp_flags_t flags = 0) {
    ze_mutable_command_list_exp_desc_t m{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_DESC, nullptr,
                                         flags};
    ze_command_list_desc_t d{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, &m, 0, 0};
    ze_command_list_handle_t l = nullptr;
    REQUIRE(zeCommandListCreate(context, device, &d, &l) == ZE_RESULT_SUCCESS);
    lists.push_back(l);
    return l;
  }

  int* ints(size_t n) {
    ze_host_mem_alloc_desc_t hd{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    ze_device_mem_alloc_desc_t dd{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    void* p = nullptr;
    REQUIRE(zeMemAllocShared(context, &dd, &hd, n * sizeof(int), 64, device, &p) ==
            ZE_RESULT_SUCCESS);
    allocations.push_back(p);
    return static_cast<int*>(p);
  }

  uint64_t nextId(ze_command_list_handle_t l, ze_mutable_command_exp_flags_t flags = 0) {
    ze_mutable_command_id_exp_desc_t d{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_ID_EXP_DESC, nullptr,
                                       flags};
    uint64_t id = 0;
    REQUIRE(getId(l, &d, &id) == ZE_RESULT_SUCCESS);
    return id;
  }

  // Runs the (closed) list and waits.
  void execute(ze_command_queue_handle_t q, ze_command_list_handle_t l) {
    REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueSynchronize(q, UINT64_MAX) == ZE_RESULT_SUCCESS);
  }

  ze_result_t update(ze_command_list_handle_t l, const void* chain) {
    ze_mutable_commands_exp_desc_t d{ZE_STRUCTURE_TYPE_MUTABLE_COMMANDS_EXP_DESC, chain, 0};
    return updateCommands(l, &d);
  }

  std::vector<ze_command_list_handle_t> lists;
};

ze_mutable_kernel_argument_exp_desc_t argDesc(uint64_t id, uint32_t index, size_t size,
                                              const void* value, const void* next = nullptr) {
  return {ZE_STRUCTURE_TYPE_MUTABLE_KERNEL_ARGUMENT_EXP_DESC, next, id, index, size, value};
}

// What tag_items writes into a slot of kSlot ints (initially -1).
void tagReference(int* slot, int tag, uint32_t groupSize, uint32_t groups, uint32_t offset) {
  for (uint32_t i = offset; i < offset + groupSize * groups && i < kSlot; ++i)
    slot[i] = tag * 1000 + int(groupSize);
}

}  // namespace

TEST_CASE("Given a device, when its properties are asked with the mutable command list properties "
          "chained, then every mutation is reported and the extension is listed",
          "[mutable]") {
  MutableFixture fx;
  ze_mutable_command_list_exp_properties_t m{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_PROPERTIES};
  ze_device_properties_t p{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES, &m};
  REQUIRE(zeDeviceGetProperties(fx.device, &p) == ZE_RESULT_SUCCESS);
  CHECK(m.mutableCommandListFlags == 0);
  CHECK(m.mutableCommandFlags == 0x7f);  // with the kernel instruction (version 1.1)
  CHECK(p.type == ZE_DEVICE_TYPE_CPU);

  uint32_t n = 0;
  REQUIRE(zeDriverGetExtensionProperties(fx.driver, &n, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<ze_driver_extension_properties_t> exts(n);
  REQUIRE(zeDriverGetExtensionProperties(fx.driver, &n, exts.data()) == ZE_RESULT_SUCCESS);
  bool found = false;
  for (const auto& e : exts)
    if (std::strcmp(e.name, ZE_MUTABLE_COMMAND_LIST_EXP_NAME) == 0) {
      found = true;
      CHECK(e.version == ZE_MUTABLE_COMMAND_LIST_EXP_VERSION_1_1);
    }
  CHECK(found);
}

TEST_CASE("Given 100 recorded launches with ids, when arguments, group counts, group sizes and "
          "offsets of some are updated, then executions match the host reference and the updates "
          "persist",
          "[mutable]") {
  MutableFixture fx;
  ze_kernel_handle_t k = fx.kernel("mutable", "tag_items");
  constexpr int kCommands = 100;
  int* out = fx.ints(kCommands * kSlot);
  int* other = fx.ints(kCommands * kSlot);
  ze_command_list_handle_t l = fx.mutableList();
  ze_command_queue_handle_t q = fx.queue();

  std::vector<uint64_t> ids;
  setGroupSize(k, 8);
  for (int i = 0; i < kCommands; ++i) {
    ids.push_back(fx.nextId(l));
    setArgs(k, out + i * kSlot, i);
    KernelFixture::launch(l, k, {4, 1, 1});
  }
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  for (int i = 1; i < kCommands; ++i) CHECK(ids[i] != ids[i - 1]);

  // The reference: what each command writes, with its parameters.
  struct Params {
    int* base;
    int tag;
    uint32_t groupSize = 8, groups = 4, offset = 0;
  };
  std::vector<Params> params;
  for (int i = 0; i < kCommands; ++i) params.push_back({out + i * kSlot, i});
  auto check = [&] {
    std::fill(out, out + kCommands * kSlot, -1);
    std::fill(other, other + kCommands * kSlot, -1);
    fx.execute(q, l);
    std::vector<int> refOut(kCommands * kSlot, -1), refOther(kCommands * kSlot, -1);
    for (const Params& p : params) {
      bool inOut = p.base >= out && p.base < out + kCommands * kSlot;
      int* ref = inOut ? refOut.data() + (p.base - out) : refOther.data() + (p.base - other);
      tagReference(ref, p.tag, p.groupSize, p.groups, p.offset);
    }
    CHECK(std::equal(refOut.begin(), refOut.end(), out));
    CHECK(std::equal(refOther.begin(), refOther.end(), other));
  };
  check();

  // One chain with every kind of change over the commands.
  std::vector<ze_mutable_kernel_argument_exp_desc_t> args;
  std::vector<ze_mutable_group_count_exp_desc_t> counts;
  std::vector<ze_mutable_group_size_exp_desc_t> sizes;
  std::vector<ze_mutable_global_offset_exp_desc_t> offsets;
  args.reserve(kCommands), counts.reserve(kCommands), sizes.reserve(kCommands);
  offsets.reserve(kCommands);
  std::vector<int> newTags(kCommands);
  std::vector<int*> newBases(kCommands);
  ze_group_count_t eight{8, 1, 1}, two{2, 1, 1};
  const void* chain = nullptr;
  for (int i = 0; i < kCommands; ++i) {
    switch (i % 5) {
      case 0:
        newTags[i] = i + 500;
        args.push_back(argDesc(ids[i], 1, sizeof(int), &newTags[i], chain));
        chain = &args.back();
        params[i].tag = newTags[i];
        break;
      case 1:
        counts.push_back({ZE_STRUCTURE_TYPE_MUTABLE_GROUP_COUNT_EXP_DESC, chain, ids[i], &eight});
        chain = &counts.back();
        params[i].groups = 8;
        break;
      case 2:
        sizes.push_back({ZE_STRUCTURE_TYPE_MUTABLE_GROUP_SIZE_EXP_DESC, chain, ids[i], 16, 1, 1});
        chain = &sizes.back();
        counts.push_back({ZE_STRUCTURE_TYPE_MUTABLE_GROUP_COUNT_EXP_DESC, chain, ids[i], &two});
        chain = &counts.back();
        params[i].groupSize = 16, params[i].groups = 2;
        break;
      case 3:
        offsets.push_back(
            {ZE_STRUCTURE_TYPE_MUTABLE_GLOBAL_OFFSET_EXP_DESC, chain, ids[i], 32, 0, 0});
        chain = &offsets.back();
        params[i].offset = 32;
        break;
      case 4:
        newBases[i] = other + i * kSlot;
        args.push_back(argDesc(ids[i], 0, sizeof(void*), &newBases[i], chain));
        chain = &args.back();
        params[i].base = newBases[i];
        break;
    }
  }
  REQUIRE(fx.update(l, chain) == ZE_RESULT_SUCCESS);
  // "The application must close a mutable command list after completing all updates."
  CHECK(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  check();
  // The updates persist across executions.
  check();

  // A later update of one command changes only that one.
  int tag = 77;
  auto one = argDesc(ids[50], 1, sizeof tag, &tag);
  REQUIRE(fx.update(l, &one) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  params[50].tag = 77;
  check();
}

// Version 1.1: the kernels a command may switch to are given with its id; a switch takes the new
// kernel's arguments and group size as they are then, keeps the group count, and later updates
// change the new kernel's arguments.
TEST_CASE("Given a command recorded with two kernels, when its kernel is switched and its "
          "arguments updated, then executions run the new kernel; kernels not given are refused",
          "[mutable][kernels]") {
  MutableFixture fx;
  auto getIdWithKernels = extensionFunction<ze_pfnCommandListGetNextCommandIdWithKernelsExp_t>(
      fx.driver, "zeCommandListGetNextCommandIdWithKernelsExp");
  auto updateKernels = extensionFunction<ze_pfnCommandListUpdateMutableCommandKernelsExp_t>(
      fx.driver, "zeCommandListUpdateMutableCommandKernelsExp");
  REQUIRE(getIdWithKernels);
  REQUIRE(updateKernels);
  ze_kernel_handle_t tag = fx.kernel("mutable", "tag_items");
  ze_kernel_handle_t negate = fx.kernel("mutable", "negate_items");
  ze_kernel_handle_t stranger = fx.kernel("mutable", "tag_items");
  int* out = fx.ints(kSlot);
  ze_command_list_handle_t l = fx.mutableList();
  ze_command_queue_handle_t q = fx.queue();

  ze_mutable_command_id_exp_desc_t d{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_ID_EXP_DESC, nullptr,
                                     ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_INSTRUCTION |
                                         ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_ARGUMENTS};
  // The kernel instruction needs kernels; zeCommandListGetNextCommandIdExp takes no such flag.
  uint64_t id = 0;
  CHECK(getIdWithKernels(l, &d, 0, nullptr, &id) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(fx.getId(l, &d, &id) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  ze_kernel_handle_t both[2] = {tag, negate};
  REQUIRE(getIdWithKernels(l, &d, 2, both, &id) == ZE_RESULT_SUCCESS);
  setGroupSize(tag, 8);
  setArgs(tag, out, 7);
  KernelFixture::launch(l, tag, {2, 1, 1});  // 16 items
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  std::fill(out, out + kSlot, -1);
  fx.execute(q, l);
  CHECK(out[0] == 7008);
  CHECK(out[15] == 7008);
  CHECK(out[16] == -1);

  // A kernel not given with the id, a null one, an unknown id: refused, nothing changed.
  CHECK(updateKernels(l, 1, &id, &stranger) == TESSERA_ZE_RESULT_ERROR_INVALID_KERNEL_HANDLE);
  ze_kernel_handle_t none = nullptr;
  CHECK(updateKernels(l, 1, &id, &none) == TESSERA_ZE_RESULT_ERROR_INVALID_KERNEL_HANDLE);
  uint64_t unknown = id + 5;
  CHECK(updateKernels(l, 1, &unknown, &negate) == ZE_RESULT_ERROR_INVALID_ARGUMENT);

  // The switch: negate_items with its arguments as set now, group size 4, the command's 2 groups.
  setGroupSize(negate, 4);
  setArgs(negate, 5, out);
  REQUIRE(updateKernels(l, 1, &id, &negate) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  std::fill(out, out + kSlot, -1);
  fx.execute(q, l);
  CHECK(out[0] == -5);
  CHECK(out[7] == -5);
  CHECK(out[8] == -1);

  // An argument update after the switch is the new kernel's (its argument 0, the int).
  int nine = 9;
  auto arg = argDesc(id, 0, sizeof nine, &nine);
  REQUIRE(fx.update(l, &arg) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  std::fill(out, out + kSlot, -1);
  fx.execute(q, l);
  CHECK(out[0] == -9);
  CHECK(out[7] == -9);

  // And back to the first kernel, which kept its own arguments.
  REQUIRE(updateKernels(l, 1, &id, &tag) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  std::fill(out, out + kSlot, -1);
  fx.execute(q, l);
  CHECK(out[0] == 7008);
  CHECK(out[15] == 7008);
}

TEST_CASE("Given one kernel recorded twice, when one launch is updated, then the other keeps its "
          "values and later zeKernelSetArgumentValue calls change neither",
          "[mutable]") {
  MutableFixture fx;
  ze_kernel_handle_t k = fx.kernel("mutable", "tag_items");
  int* out = fx.ints(2 * kSlot);
  ze_command_list_handle_t l = fx.mutableList();
  ze_command_queue_handle_t q = fx.queue();
  setGroupSize(k, 4);
  setArgs(k, out, 1);
  uint64_t a = fx.nextId(l, ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_ARGUMENTS);
  KernelFixture::launch(l, k, {1, 1, 1});
  setArgs(k, out + kSlot, 2);
  uint64_t b = fx.nextId(l, ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_ARGUMENTS);
  KernelFixture::launch(l, k, {1, 1, 1});
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  CHECK(a != b);

  int tag = 9;
  auto d = argDesc(a, 1, sizeof tag, &tag);
  REQUIRE(fx.update(l, &d) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  setArgs(k, out, 5);  // the kernel's state, not the recorded launches'
  std::fill(out, out + 2 * kSlot, -1);
  fx.execute(q, l);
  for (int i = 0; i < 4; ++i) {
    CHECK(out[i] == 9004);
    CHECK(out[kSlot + i] == 2004);
  }
}

TEST_CASE("Given a mutable list, when a __local argument and the group size are updated together, "
          "then the work-group sums follow",
          "[mutable]") {
  MutableFixture fx;
  ze_kernel_handle_t k = fx.kernel("local_reduce", "local_reduce");
  int* in = fx.ints(64);
  int* sums = fx.ints(16);
  for (int i = 0; i < 64; ++i) in[i] = i;
  ze_command_list_handle_t l = fx.mutableList();
  ze_command_queue_handle_t q = fx.queue();
  setGroupSize(k, 8);
  REQUIRE(zeKernelSetArgumentValue(k, 0, sizeof in, &in) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(k, 1, sizeof sums, &sums) == ZE_RESULT_SUCCESS);
  REQUIRE(zeKernelSetArgumentValue(k, 2, 8 * sizeof(int), nullptr) == ZE_RESULT_SUCCESS);
  uint64_t id = fx.nextId(l);
  KernelFixture::launch(l, k, {8, 1, 1});
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  fx.execute(q, l);
  for (int g = 0; g < 8; ++g) CHECK(sums[g] == 8 * 8 * g + 28);

  // The __local argument: a null value, a non-null value refused, a zero size refused.
  int dummy = 0;
  auto bad = argDesc(id, 2, 64, &dummy);
  CHECK(fx.update(l, &bad) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  auto zero = argDesc(id, 2, 0, nullptr);
  CHECK(fx.update(l, &zero) == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);

  auto local = argDesc(id, 2, 16 * sizeof(int), nullptr);
  ze_mutable_group_size_exp_desc_t size{ZE_STRUCTURE_TYPE_MUTABLE_GROUP_SIZE_EXP_DESC, &local, id,
                                        16, 1, 1};
  ze_group_count_t four{4, 1, 1};
  ze_mutable_group_count_exp_desc_t count{ZE_STRUCTURE_TYPE_MUTABLE_GROUP_COUNT_EXP_DESC, &size,
                                          id, &four};
  REQUIRE(fx.update(l, &count) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  std::fill(sums, sums + 16, -1);
  fx.execute(q, l);
  for (int g = 0; g < 4; ++g) CHECK(sums[g] == 16 * 16 * g + 120);
  CHECK(sums[4] == -1);
}

TEST_CASE("Given mutable commands, when their signal and wait events are updated, then executions "
          "signal and wait on the new ones",
          "[mutable]") {
  MutableFixture fx;
  ze_kernel_handle_t k = fx.kernel("mutable", "tag_items");
  int* out = fx.ints(kSlot);
  auto ev = fx.events(3);  // 0: first signal, 1: new signal, 2: a gate never signalled
  ze_command_list_handle_t l = fx.mutableList();
  ze_command_queue_handle_t q = fx.queue();
  setGroupSize(k, 1);
  setArgs(k, out, 3);
  uint64_t id = fx.nextId(l, ZE_MUTABLE_COMMAND_EXP_FLAG_SIGNAL_EVENT |
                                 ZE_MUTABLE_COMMAND_EXP_FLAG_WAIT_EVENTS);
  ze_group_count_t one{1, 1, 1};
  REQUIRE(zeCommandListAppendLaunchKernel(l, k, &one, ev[0], 1, &ev[2]) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);

  // The wait count must match; the gate's slot emptied, the command no longer waits.
  CHECK(fx.updateWaits(l, id, 2, &ev[0]) == ZE_RESULT_ERROR_INVALID_SIZE);
  ze_event_handle_t none = nullptr;
  REQUIRE(fx.updateWaits(l, id, 1, &none) == ZE_RESULT_SUCCESS);
  REQUIRE(fx.updateSignal(l, id, ev[1]) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  out[0] = -1;
  fx.execute(q, l);
  CHECK(out[0] == 3001);
  CHECK(zeEventQueryStatus(ev[1]) == ZE_RESULT_SUCCESS);
  CHECK(zeEventQueryStatus(ev[0]) == ZE_RESULT_NOT_READY);

  // No signal at all, and a wait on an event that is signalled.
  REQUIRE(zeEventHostReset(ev[1]) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventHostSignal(ev[0]) == ZE_RESULT_SUCCESS);
  REQUIRE(fx.updateSignal(l, id, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(fx.updateWaits(l, id, 1, &ev[0]) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  fx.execute(q, l);
  CHECK(zeEventQueryStatus(ev[1]) == ZE_RESULT_NOT_READY);
}

TEST_CASE("Given an execution still in flight, when the list is updated anyway, then that "
          "execution keeps the old values and the next one sees the new",
          "[mutable]") {
  MutableFixture fx;
  ze_kernel_handle_t k = fx.kernel("mutable", "tag_items");
  int* out = fx.ints(kSlot);
  auto gate = fx.events(1);
  ze_command_list_handle_t l = fx.mutableList();
  ze_command_queue_handle_t q = fx.queue();
  REQUIRE(zeCommandListAppendBarrier(l, nullptr, 1, &gate[0]) == ZE_RESULT_SUCCESS);
  setGroupSize(k, 2);
  setArgs(k, out, 1);
  uint64_t id = fx.nextId(l);
  KernelFixture::launch(l, k, {1, 1, 1});
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  out[0] = -1;
  REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
  int tag = 2;
  auto d = argDesc(id, 1, sizeof tag, &tag);
  REQUIRE(fx.update(l, &d) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  REQUIRE(zeEventHostSignal(gate[0]) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueSynchronize(q, UINT64_MAX) == ZE_RESULT_SUCCESS);
  CHECK(out[0] == 1002);
  fx.execute(q, l);
  CHECK(out[0] == 2002);
}

TEST_CASE(
    "Given a recorded launch, when updates would give it more local memory than the device "
    "has or group counts that wrap, then the update is refused and changes nothing",
    "[mutable][local]") {
  MutableFixture fx;
  ze_device_compute_properties_t cp{ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
  REQUIRE(zeDeviceGetComputeProperties(fx.device, &cp) == ZE_RESULT_SUCCESS);
  const size_t max = cp.maxSharedLocalMemory;
  // three_locals(__global int* out, __local int* a, __local short* b), 64 static bytes.
  ze_kernel_handle_t k = fx.kernel("corpus_locals", "three_locals");
  int* out = fx.ints(kSlot);
  REQUIRE(zeKernelSetArgumentValue(k, 0, sizeof out, &out) == ZE_RESULT_SUCCESS);
  tessera::test::setLocalArg(k, 1, 16 * sizeof(int));
  tessera::test::setLocalArg(k, 2, 16 * sizeof(short));
  setGroupSize(k, 16);
  ze_command_list_handle_t l = fx.mutableList();
  uint64_t id = fx.nextId(l);
  KernelFixture::launch(l, k, {1, 1, 1});
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);

  // Each size alone is refused past the device; two that fit alone are refused together.
  auto huge = argDesc(id, 1, size_t{1} << 40, nullptr);
  CHECK(fx.update(l, &huge) == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
  auto a = argDesc(id, 1, max / 2 + 128, nullptr);
  auto b = argDesc(id, 2, max / 2 + 128, nullptr, &a);
  CHECK(fx.update(l, &b) == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
  // 2^22 * 2^21 * 2^21 groups wraps to 0.
  ze_group_count_t wrap{1u << 22, 1u << 21, 1u << 21};
  ze_mutable_group_count_exp_desc_t counts{ZE_STRUCTURE_TYPE_MUTABLE_GROUP_COUNT_EXP_DESC, nullptr,
                                           id, &wrap};
  CHECK(fx.update(l, &counts) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  ze_mutable_group_size_exp_desc_t sizes{
      ZE_STRUCTURE_TYPE_MUTABLE_GROUP_SIZE_EXP_DESC, nullptr, id, 1u << 31, 1u << 31, 4};
  CHECK(fx.update(l, &sizes) == ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);

  // The launch runs as recorded.
  ze_command_queue_handle_t q = fx.queue();
  fx.execute(q, l);
  for (int lid = 0; lid < 16; ++lid) {
    INFO("work-item " << lid);
    CHECK(out[lid] == 3 * (15 - lid) + 1000 + lid);
  }
}

TEST_CASE("Given the mutable command list functions, when they are misused, then each answers "
          "its error and changes nothing",
          "[mutable]") {
  MutableFixture fx;
  ze_kernel_handle_t k = fx.kernel("mutable", "tag_items");
  ze_kernel_handle_t reqd = fx.kernel("reqd_size", "reqd_size");
  int* out = fx.ints(kSlot * 2);
  ze_command_queue_handle_t q = fx.queue();
  ze_mutable_command_id_exp_desc_t idDesc{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_ID_EXP_DESC, nullptr,
                                          0};
  uint64_t id = 0;
  int tag = 5;

  SECTION("a list created without the mutable descriptor") {
    ze_command_list_handle_t plain = fx.list();
    CHECK(fx.getId(plain, &idDesc, &id) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
    REQUIRE(zeCommandListClose(plain) == ZE_RESULT_SUCCESS);
    auto d = argDesc(1, 1, sizeof tag, &tag);
    CHECK(fx.update(plain, &d) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
    CHECK(fx.updateSignal(plain, 1, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
    CHECK(fx.updateWaits(plain, 1, 0, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ze_command_list_handle_t imm = fx.immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
    CHECK(fx.getId(imm, &idDesc, &id) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  }

  SECTION("bad descriptors and flags") {
    ze_mutable_command_list_exp_desc_t m{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_DESC, nullptr,
                                         0x2};
    ze_command_list_desc_t ld{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, &m, 0, 0};
    ze_command_list_handle_t l = nullptr;
    CHECK(zeCommandListCreate(fx.context, fx.device, &ld, &l) ==
          ZE_RESULT_ERROR_INVALID_ENUMERATION);
    l = fx.mutableList(ZE_MUTABLE_COMMAND_LIST_EXP_FLAG_RESERVED);
    ze_mutable_command_id_exp_desc_t tooMany{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_ID_EXP_DESC,
                                             nullptr, 0x40};
    CHECK(fx.getId(l, &tooMany, &id) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
    CHECK(fx.getId(l, nullptr, &id) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    CHECK(fx.getId(l, &idDesc, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    CHECK(fx.getId(nullptr, &idDesc, &id) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    CHECK(fx.updateCommands(l, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  }

  SECTION("ids, closing and kinds of change") {
    ze_command_list_handle_t l = fx.mutableList();
    setGroupSize(k, 4);
    setArgs(k, out, 1);
    uint64_t argsOnly = fx.nextId(l, ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_ARGUMENTS);
    // Asked twice before the append: the same command.
    CHECK(fx.nextId(l, ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_ARGUMENTS) == argsOnly);
    KernelFixture::launch(l, k, {1, 1, 1});
    uint64_t barrier = fx.nextId(l);
    REQUIRE(zeCommandListAppendBarrier(l, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
    setArgs(k, out + kSlot, 2);
    uint64_t all = fx.nextId(l);
    KernelFixture::launch(l, k, {1, 1, 1});
    uint64_t fixed = fx.nextId(l);
    setArgs(reqd, out);
    KernelFixture::launch(l, reqd, {1, 1, 1});

    // Before close.
    auto d = argDesc(all, 1, sizeof tag, &tag);
    CHECK(fx.update(l, &d) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
    CHECK(fx.updateSignal(l, all, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
    REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
    CHECK(fx.getId(l, &idDesc, &id) == ZE_RESULT_ERROR_INVALID_ARGUMENT);

    // Unknown ids; a barrier is no kernel launch; a change the id did not declare.
    for (uint64_t bad : {uint64_t(0), uint64_t(999)}) {
      auto b = argDesc(bad, 1, sizeof tag, &tag);
      CHECK(fx.update(l, &b) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
      CHECK(fx.updateSignal(l, bad, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    auto onBarrier = argDesc(barrier, 1, sizeof tag, &tag);
    CHECK(fx.update(l, &onBarrier) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ze_mutable_global_offset_exp_desc_t off{ZE_STRUCTURE_TYPE_MUTABLE_GLOBAL_OFFSET_EXP_DESC,
                                            nullptr, argsOnly, 1, 0, 0};
    CHECK(fx.update(l, &off) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
    CHECK(fx.updateSignal(l, argsOnly, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);

    // Arguments checked as zeKernelSetArgumentValue checks them.
    auto index = argDesc(all, 2, sizeof tag, &tag);
    CHECK(fx.update(l, &index) == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
    int64_t wideTag = int64_t(tag) | (int64_t(1) << 40);  // more than the int holds
    auto size = argDesc(all, 1, sizeof wideTag, &wideTag);
    CHECK(fx.update(l, &size) == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
    auto ptrSize = argDesc(all, 0, 4, &out);
    CHECK(fx.update(l, &ptrSize) == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
    // A null value is a zero value, as zeKernelSetArgumentValue takes it ("[in][optional] ... If
    // null then argument value is considered null"): the tag of `all` becomes 0.
    auto null = argDesc(all, 1, sizeof tag, nullptr);
    CHECK(fx.update(l, &null) == ZE_RESULT_SUCCESS);

    // Group sizes checked as zeKernelSetGroupSize checks them.
    ze_mutable_group_size_exp_desc_t gs{ZE_STRUCTURE_TYPE_MUTABLE_GROUP_SIZE_EXP_DESC, nullptr,
                                        all, 0, 1, 1};
    CHECK(fx.update(l, &gs) == ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
    gs.groupSizeX = 1u << 20;
    CHECK(fx.update(l, &gs) == ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
    ze_mutable_group_size_exp_desc_t req{ZE_STRUCTURE_TYPE_MUTABLE_GROUP_SIZE_EXP_DESC, nullptr,
                                         fixed, 4, 4, 2};
    CHECK(fx.update(l, &req) == ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
    req.groupSizeX = 8;
    CHECK(fx.update(l, &req) == ZE_RESULT_SUCCESS);  // the required size itself
    ze_mutable_group_count_exp_desc_t gc{ZE_STRUCTURE_TYPE_MUTABLE_GROUP_COUNT_EXP_DESC, nullptr,
                                         all, nullptr};
    CHECK(fx.update(l, &gc) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    ze_base_desc_t unknown{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr};
    CHECK(fx.update(l, &unknown) == ZE_RESULT_ERROR_INVALID_ARGUMENT);

    // All or nothing: a valid change followed by an invalid one changes nothing.
    int newTag = 42;
    auto bad = argDesc(all, 9, sizeof tag, &tag);
    auto good = argDesc(all, 1, sizeof newTag, &newTag, &bad);
    CHECK(fx.update(l, &good) == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
    REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
    std::fill(out, out + 2 * kSlot, -1);
    fx.execute(q, l);
    CHECK(out[kSlot] == 4);  // tag 0 from the null update, not 42 from the refused chain
  }
}

TEST_CASE("Given an indirect launch with an id, when its group count is updated, then it reads the "
          "new group count buffer; and a reset forgets the ids",
          "[mutable]") {
  MutableFixture fx;
  ze_kernel_handle_t k = fx.kernel("mutable", "tag_items");
  int* out = fx.ints(kSlot);
  auto* counts = reinterpret_cast<ze_group_count_t*>(fx.ints(6));
  counts[0] = {2, 1, 1};
  counts[1] = {5, 1, 1};
  ze_command_list_handle_t l = fx.mutableList();
  ze_command_queue_handle_t q = fx.queue();
  setGroupSize(k, 4);
  setArgs(k, out, 1);
  uint64_t id = fx.nextId(l, ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_COUNT);
  REQUIRE(zeCommandListAppendLaunchKernelIndirect(l, k, &counts[0], nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  std::fill(out, out + kSlot, -1);
  fx.execute(q, l);
  CHECK(out[7] == 1004);
  CHECK(out[8] == -1);

  ze_mutable_group_count_exp_desc_t gc{ZE_STRUCTURE_TYPE_MUTABLE_GROUP_COUNT_EXP_DESC, nullptr, id,
                                       &counts[1]};
  REQUIRE(fx.update(l, &gc) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  std::fill(out, out + kSlot, -1);
  fx.execute(q, l);
  CHECK(out[19] == 1004);
  CHECK(out[20] == -1);

  REQUIRE(zeCommandListReset(l) == ZE_RESULT_SUCCESS);
  KernelFixture::launch(l, k, {1, 1, 1});
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  CHECK(fx.update(l, &gc) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
}
