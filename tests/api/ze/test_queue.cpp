// Command queues and queue groups: the guide's creation sequence, the two groups (compute and
// copy-only) and their limits, modes, priorities, EXPLICIT_ONLY, several lists per submission,
// synchronize timeouts, destruction while blocked, and a sub-device's queue.
#include <level_zero/ze_api.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <utility>
#include <vector>

#include "kernel_test_support.h"
#include "ze_exec_support.h"

using tessera::test::ExecFixture;
using tessera::test::kPatienceNs;
using tessera::test::patternBytes;

namespace {

std::vector<ze_command_queue_group_properties_t> groups(ze_device_handle_t device) {
  uint32_t n = 0;
  REQUIRE(zeDeviceGetCommandQueueGroupProperties(device, &n, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<ze_command_queue_group_properties_t> g(n);
  for (auto& p : g) {
    p = {};
    p.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
  }
  REQUIRE(zeDeviceGetCommandQueueGroupProperties(device, &n, g.data()) == ZE_RESULT_SUCCESS);
  return g;
}

// Runs one copy of `n` bytes on `q` through a list of `ordinal` and checks the result.
void copyWorks(ExecFixture& fx, ze_command_queue_handle_t q, uint32_t ordinal, size_t n = 4096) {
  auto src = patternBytes(n, 7);
  std::vector<uint8_t> dst(n, 0);
  auto l = fx.list(ordinal);
  REQUIRE(zeCommandListAppendMemoryCopy(l, dst.data(), src.data(), n, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  fx.run(q, l);
  CHECK(dst == src);
}

}  // namespace

TEST_CASE("Given the guide's sequence, when a compute queue is found and created, then it works",
          "[queue][guide]") {
  ExecFixture fx;
  ze_device_handle_t hDevice = fx.device;
  ze_context_handle_t hContext = fx.context;
  // Discover all command queue groups
  uint32_t cmdqueueGroupCount = 0;
  zeDeviceGetCommandQueueGroupProperties(hDevice, &cmdqueueGroupCount, nullptr);
  std::vector<ze_command_queue_group_properties_t> cmdqueueGroupProperties(cmdqueueGroupCount);
  for (auto& p : cmdqueueGroupProperties) {
    p.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
    p.pNext = nullptr;
  }
  zeDeviceGetCommandQueueGroupProperties(hDevice, &cmdqueueGroupCount,
                                         cmdqueueGroupProperties.data());
  // Find a command queue type that support compute
  uint32_t computeQueueGroupOrdinal = cmdqueueGroupCount;
  for (uint32_t i = 0; i < cmdqueueGroupCount; ++i) {
    if (cmdqueueGroupProperties[i].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) {
      computeQueueGroupOrdinal = i;
      break;
    }
  }
  REQUIRE(computeQueueGroupOrdinal != cmdqueueGroupCount);
  // Create a command queue
  ze_command_queue_desc_t commandQueueDesc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                              nullptr,
                                              computeQueueGroupOrdinal,
                                              0,  // index
                                              0,  // flags
                                              ZE_COMMAND_QUEUE_MODE_DEFAULT,
                                              ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
  ze_command_queue_handle_t hCommandQueue = nullptr;
  REQUIRE(zeCommandQueueCreate(hContext, hDevice, &commandQueueDesc, &hCommandQueue) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(hCommandQueue != nullptr);
  CHECK(zeCommandQueueSynchronize(hCommandQueue, 0) == ZE_RESULT_SUCCESS);  // nothing to wait for
  copyWorks(fx, hCommandQueue, computeQueueGroupOrdinal);
  CHECK(zeCommandQueueDestroy(hCommandQueue) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given a device, then it has a compute group and a copy-only group with usable limits",
          "[queue]") {
  ExecFixture fx;
  auto g = groups(fx.device);
  REQUIRE(g.size() == 2);
  CHECK(g[0].flags ==
        (ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE | ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY |
         ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COOPERATIVE_KERNELS));
  CHECK(g[1].flags == ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY);
  // The compute group fills with patterns of up to 1 MiB, the copy group with up to 128 bytes.
  CHECK(g[0].maxMemoryFillPatternSize == size_t{1} << 20);
  CHECK(g[1].maxMemoryFillPatternSize == 128);
  for (const auto& p : g) CHECK(p.numQueues >= 1);
}

TEST_CASE("Given each group, when a queue is made at every index, then each one runs a copy",
          "[queue]") {
  ExecFixture fx;
  auto g = groups(fx.device);
  for (uint32_t ordinal = 0; ordinal < g.size(); ++ordinal)
    for (uint32_t index = 0; index < g[ordinal].numQueues; ++index) {
      INFO("ordinal " << ordinal << " index " << index);
      copyWorks(fx, fx.queue(ordinal, index), ordinal);
    }
}

TEST_CASE("Given a queue descriptor out of the device's groups, then creation is refused",
          "[queue][errors]") {
  ExecFixture fx;
  auto g = groups(fx.device);
  ze_command_queue_handle_t q = nullptr;
  for (uint32_t ordinal = 0; ordinal < g.size(); ++ordinal) {
    auto d = tessera::test::queueDesc(ordinal, g[ordinal].numQueues);
    CHECK(zeCommandQueueCreate(fx.context, fx.device, &d, &q) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  }
  auto d = tessera::test::queueDesc(static_cast<uint32_t>(g.size()), 0);
  CHECK(zeCommandQueueCreate(fx.context, fx.device, &d, &q) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  ze_command_list_handle_t l = nullptr;
  CHECK(zeCommandListCreateImmediate(fx.context, fx.device, &d, &l) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_CASE("Given every mode and priority, when a queue is created, then it runs a copy",
          "[queue]") {
  ExecFixture fx;
  for (auto mode : {ZE_COMMAND_QUEUE_MODE_DEFAULT, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
                    ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS})
    for (auto priority : {ZE_COMMAND_QUEUE_PRIORITY_NORMAL, ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_LOW,
                          ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH}) {
      INFO("mode " << mode << " priority " << priority);
      auto d = tessera::test::queueDesc(0, 0, mode);
      d.priority = priority;
      ze_command_queue_handle_t q = nullptr;
      REQUIRE(zeCommandQueueCreate(fx.context, fx.device, &d, &q) == ZE_RESULT_SUCCESS);
      copyWorks(fx, q, 0);
      CHECK(zeCommandQueueDestroy(q) == ZE_RESULT_SUCCESS);
    }
}

TEST_CASE(
    "Given a SYNCHRONOUS queue, when a large copy is executed, then the call returns after it "
    "completed",
    "[queue][sync]") {
  ExecFixture fx;
  auto q = fx.queue(0, 0, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  constexpr size_t n = 3u << 20;  // below the parallel path (see test_parallel_copy.cpp)
  auto src = patternBytes(n, 3);
  std::vector<uint8_t> dst(n, 0);
  auto done = fx.events(1)[0];
  auto l = fx.list();
  REQUIRE(zeCommandListAppendMemoryCopy(l, dst.data(), src.data(), n, done, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
  // No wait of any kind: the execution itself must have waited.
  CHECK(zeEventQueryStatus(done) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandQueueSynchronize(q, 0) == ZE_RESULT_SUCCESS);
  CHECK(std::memcmp(dst.data(), src.data(), n) == 0);
}

TEST_CASE("Given the copy-only group, when its queue runs copy lists, then they work",
          "[queue][copy]") {
  ExecFixture fx;
  auto q = fx.queue(1);
  copyWorks(fx, q, 1);
  copyWorks(fx, q, 1, 64u << 20);  // large copies stay on the copy engine's thread
  // A fill and a signal also run on the copy engine.
  std::vector<uint32_t> buf(1000, 0);
  uint32_t pattern = 0xA5A5F00Du;
  auto e = fx.events(1)[0];
  auto l = fx.list(1);
  REQUIRE(zeCommandListAppendMemoryFill(l, buf.data(), &pattern, 4, buf.size() * 4, e, 0,
                                        nullptr) == ZE_RESULT_SUCCESS);
  fx.run(q, l);
  CHECK(zeEventQueryStatus(e) == ZE_RESULT_SUCCESS);
  CHECK(std::count(buf.begin(), buf.end(), pattern) == 1000);
}

TEST_CASE("Given lists and queues of different ordinals, when executed, then they are refused",
          "[queue][copy][errors]") {
  ExecFixture fx;
  auto computeQueue = fx.queue(0), copyQueue = fx.queue(1);
  auto computeList = fx.list(0), copyList = fx.list(1);
  REQUIRE(zeCommandListClose(computeList) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(copyList) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandQueueExecuteCommandLists(copyQueue, 1, &computeList, nullptr) ==
        ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE);
  CHECK(zeCommandQueueExecuteCommandLists(computeQueue, 1, &copyList, nullptr) ==
        ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE);
  // One bad list refuses the whole submission.
  ze_command_list_handle_t mixed[] = {computeList, copyList};
  CHECK(zeCommandQueueExecuteCommandLists(computeQueue, 2, mixed, nullptr) ==
        ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE);
  CHECK(zeCommandQueueExecuteCommandLists(computeQueue, 1, &computeList, nullptr) ==
        ZE_RESULT_SUCCESS);
  CHECK(zeCommandQueueExecuteCommandLists(copyQueue, 1, &copyList, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandQueueSynchronize(computeQueue, kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandQueueSynchronize(copyQueue, kPatienceNs) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given an EXPLICIT_ONLY queue, then it runs EXPLICIT_ONLY lists and the others (leniency)",
          "[queue][leniency]") {
  ExecFixture fx;
  auto q = fx.queue(0, 0, ZE_COMMAND_QUEUE_MODE_DEFAULT, ZE_COMMAND_QUEUE_FLAG_EXPLICIT_ONLY);
  for (ze_command_list_flags_t flags :
       {ze_command_list_flags_t{0}, ze_command_list_flags_t{ZE_COMMAND_LIST_FLAG_RELAXED_ORDERING},
        ze_command_list_flags_t{ZE_COMMAND_LIST_FLAG_MAXIMIZE_THROUGHPUT}}) {
    auto src = patternBytes(64, 2);
    std::vector<uint8_t> dst(64, 0);
    auto plain = fx.list(0, flags);
    REQUIRE(zeCommandListAppendMemoryCopy(plain, dst.data(), src.data(), 64, nullptr, 0, nullptr) ==
            ZE_RESULT_SUCCESS);
    fx.run(q, plain);
    CHECK(dst == src);
  }
  auto src = patternBytes(256, 1);
  std::vector<uint8_t> dst(256, 0);
  auto l =
      fx.list(0, ZE_COMMAND_LIST_FLAG_EXPLICIT_ONLY | ZE_COMMAND_LIST_FLAG_MAXIMIZE_THROUGHPUT);
  REQUIRE(zeCommandListAppendMemoryCopy(l, dst.data(), src.data(), 256, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  fx.run(q, l);
  CHECK(dst == src);
  // An ordinary queue takes EXPLICIT_ONLY lists too.
  auto ordinary = fx.queue(0, 1);
  CHECK(zeCommandQueueExecuteCommandLists(ordinary, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandQueueSynchronize(ordinary, kPatienceNs) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given several lists in one submission, when each depends on the one before, then they run "
    "in the given order",
    "[queue][ordering]") {
  ExecFixture fx;
  auto q = fx.queue();
  constexpr int kLists = 8;
  constexpr size_t n = 1024;
  std::vector<std::vector<uint8_t>> bufs(kLists + 1, std::vector<uint8_t>(n, 0));
  bufs[0] = patternBytes(n, 99);
  auto ev = fx.events(kLists);
  std::vector<ze_command_list_handle_t> lists;
  for (int i = 0; i < kLists; ++i) {
    auto l = fx.list();
    // List i copies buffer i to i+1; it waits for list i-1's event.
    REQUIRE(zeCommandListAppendMemoryCopy(l, bufs[i + 1].data(), bufs[i].data(), n, ev[i],
                                          i ? 1 : 0,
                                          i ? &ev[i - 1] : nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
    lists.push_back(l);
  }
  REQUIRE(zeCommandQueueExecuteCommandLists(q, kLists, lists.data(), nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueSynchronize(q, UINT64_MAX) == ZE_RESULT_SUCCESS);
  for (int i = 0; i < kLists; ++i) CHECK(zeEventQueryStatus(ev[i]) == ZE_RESULT_SUCCESS);
  CHECK(bufs[kLists] == bufs[0]);
}

TEST_CASE(
    "Given a queue blocked on an unsignalled event, when it is synchronized with 0, a short "
    "timeout and forever, then it is NOT_READY until the host signals",
    "[queue][timeout]") {
  ExecFixture fx;
  auto q = fx.queue();
  auto gate = fx.events(1)[0];
  uint32_t src = 42, dst = 0;
  auto l = fx.list();
  REQUIRE(zeCommandListAppendMemoryCopy(l, &dst, &src, 4, nullptr, 1, &gate) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandQueueSynchronize(q, 0) == ZE_RESULT_NOT_READY);
  auto t0 = std::chrono::steady_clock::now();
  CHECK(zeCommandQueueSynchronize(q, 5'000'000) == ZE_RESULT_NOT_READY);
  CHECK(std::chrono::steady_clock::now() - t0 >= std::chrono::milliseconds(5));
  CHECK(dst == 0);
  REQUIRE(zeEventHostSignal(gate) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandQueueSynchronize(q, UINT64_MAX) == ZE_RESULT_SUCCESS);
  CHECK(dst == 42);
  CHECK(zeCommandQueueSynchronize(q, 0) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given a queue whose executor waits on an event nobody will signal, when it is destroyed, "
    "then destruction returns",
    "[queue][timeout]") {
  ExecFixture fx;
  auto never = fx.events(1)[0];
  ze_command_queue_handle_t q = nullptr;
  auto d = tessera::test::queueDesc();
  REQUIRE(zeCommandQueueCreate(fx.context, fx.device, &d, &q) == ZE_RESULT_SUCCESS);
  uint32_t src = 1, dst = 0;
  auto l = fx.list();
  REQUIRE(zeCommandListAppendWaitOnEvents(l, 1, &never) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendMemoryCopy(l, &dst, &src, 4, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  // Two submissions: one blocked, one behind it.
  REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandQueueSynchronize(q, 1'000'000) == ZE_RESULT_NOT_READY);
  CHECK(zeCommandQueueDestroy(q) == ZE_RESULT_SUCCESS);
  CHECK(dst == 0);
  // The event and the list are still usable afterwards.
  CHECK(zeEventHostSignal(never) == ZE_RESULT_SUCCESS);
  auto q2 = fx.queue();
  CHECK(zeCommandQueueExecuteCommandLists(q2, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(zeCommandQueueSynchronize(q2, kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(dst == 1);
}

TEST_CASE("Given sub-devices, when a queue of each runs copies, then they work", "[queue][sub]") {
  auto driver = tessera::test::initDriver();
  bool any = false;
  for (auto root : tessera::test::devices(driver))
    for (auto sub : tessera::test::subDevices(root)) {
      any = true;
      ExecFixture fx(root);  // one context; fx.device switches between sub-device and root
      fx.device = sub;
      copyWorks(fx, fx.queue(0), 0);
      copyWorks(fx, fx.queue(1), 1);
      // An event signalled on the sub-device releases a queue of the root device.
      auto e = fx.events(1)[0];
      auto subQueue = fx.queue();
      auto subList = fx.list();
      fx.device = root;
      uint32_t a = 5, b = 0, c = 0;
      auto rootList = fx.list();
      REQUIRE(zeCommandListAppendMemoryCopy(rootList, &c, &b, 4, nullptr, 1, &e) ==
              ZE_RESULT_SUCCESS);
      REQUIRE(zeCommandListClose(rootList) == ZE_RESULT_SUCCESS);
      auto rootQueue = fx.queue();
      REQUIRE(zeCommandQueueExecuteCommandLists(rootQueue, 1, &rootList, nullptr) ==
              ZE_RESULT_SUCCESS);
      CHECK(zeCommandQueueSynchronize(rootQueue, 0) == ZE_RESULT_NOT_READY);
      REQUIRE(zeCommandListAppendMemoryCopy(subList, &b, &a, 4, e, 0, nullptr) ==
              ZE_RESULT_SUCCESS);
      fx.run(subQueue, subList);
      REQUIRE(zeCommandQueueSynchronize(rootQueue, kPatienceNs) == ZE_RESULT_SUCCESS);
      CHECK(c == 5);
    }
  if (!any) WARN("this machine's devices have no sub-devices");
}

// "The application must ensure the command lists are accessible by the device on which the command
// queue was created": a list of a device under the same root device as the queue's runs on the
// queue's device (intel/compute-benchmarks' multitile copies record on the root device and execute
// on each tile's queue), as long as its cooperative launches fit there; a list of another root
// device is refused.
TEST_CASE("Given a list of a device, when executed on a queue of another device under the same "
          "root device, then it runs there, unless a cooperative launch does not fit",
          "[queue][sub]") {
  auto driver = tessera::test::initDriver();
  auto roots = tessera::test::devices(driver);
  bool any = false;
  for (auto root : roots)
    for (auto sub : tessera::test::subDevices(root)) {
      any = true;
      tessera::test::KernelFixture fx(root);  // one context; fx.device: root or sub-device
      for (auto [listDevice, queueDevice] : {std::pair{root, sub}, std::pair{sub, root}}) {
        fx.device = listDevice;
        uint32_t a = 5, b = 0;
        auto l = fx.list();
        REQUIRE(zeCommandListAppendMemoryCopy(l, &b, &a, 4, nullptr, 0, nullptr) ==
                ZE_RESULT_SUCCESS);
        REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
        fx.device = queueDevice;
        auto q = fx.queue();
        REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
        REQUIRE(zeCommandQueueSynchronize(q, kPatienceNs) == ZE_RESULT_SUCCESS);
        CHECK(b == 5);
      }
      // A cooperative launch of as many groups as the root device holds at once.
      fx.device = root;
      auto k = fx.kernel("corpus_ranges", "range1d");
      uint32_t rootMost = 0, subMost = 0;
      REQUIRE(zeKernelSuggestMaxCooperativeGroupCount(k, &rootMost) == ZE_RESULT_SUCCESS);
      auto subKernel = fx.kernel(fx.module("corpus_ranges", nullptr, sub), "range1d");
      REQUIRE(zeKernelSuggestMaxCooperativeGroupCount(subKernel, &subMost) == ZE_RESULT_SUCCESS);
      if (rootMost <= subMost) continue;
      std::vector<int> out(rootMost, 0);
      int* p = out.data();
      tessera::test::setArgs(k, p, rootMost);
      REQUIRE(zeKernelSetGroupSize(k, 1, 1, 1) == ZE_RESULT_SUCCESS);
      auto l = fx.list();
      ze_group_count_t g{rootMost, 1, 1};
      REQUIRE(zeCommandListAppendLaunchCooperativeKernel(l, k, &g, nullptr, 0, nullptr) ==
              ZE_RESULT_SUCCESS);
      REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
      fx.device = sub;
      CHECK(zeCommandQueueExecuteCommandLists(fx.queue(), 1, &l, nullptr) ==
            ZE_RESULT_ERROR_INVALID_ARGUMENT);
      fx.device = root;
      auto rootQueue = fx.queue();
      REQUIRE(zeCommandQueueExecuteCommandLists(rootQueue, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
      REQUIRE(zeCommandQueueSynchronize(rootQueue, kPatienceNs) == ZE_RESULT_SUCCESS);
      CHECK(out.back() == int(rootMost) * 2 - 1);
    }
  if (!any) WARN("this machine's devices have no sub-devices");
  if (roots.size() > 1) {
    ExecFixture a(roots[0]);
    ExecFixture b(roots[1]);
    auto l = b.list();
    REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
    CHECK(zeCommandQueueExecuteCommandLists(a.queue(), 1, &l, nullptr) ==
          ZE_RESULT_ERROR_INVALID_ARGUMENT);
  }
}
