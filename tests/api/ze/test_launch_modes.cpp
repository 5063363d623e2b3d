// The ways to launch a kernel: indirect (one kernel and several), cooperative (with a global
// barrier that only completes when every group is resident), on sub-devices, with kernel
// timestamps, on immediate lists, from several host threads, with an empty grid, and with
// arguments, group size and offset copied at append time.
#include <level_zero/ze_api.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "group_size_cases.h"
#include "kernel_test_support.h"
#include "tessera/ze_tessera.h"

using tessera::test::KernelFixture;
using tessera::test::kPatienceNs;
using tessera::test::setArg;
using tessera::test::setArgs;
using tessera::test::setGroupSize;
using tessera::test::setOffset;

namespace {

constexpr unsigned kWatchdogSeconds = 45;

// Appends a barrier (so later commands see what earlier ones wrote).
void barrier(ze_command_list_handle_t l) {
  REQUIRE(zeCommandListAppendBarrier(l, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
}

uint64_t deviceNow(ze_device_handle_t d) {
  uint64_t host = 0, dev = 0;
  REQUIRE(zeDeviceGetGlobalTimestamps(d, &host, &dev) == ZE_RESULT_SUCCESS);
  return dev;
}

}  // namespace

TEST_CASE(
    "Given an indirect launch whose group count an earlier kernel writes, then the launch "
    "covers that count",
    "[launch][indirect]") {
  KernelFixture fx;
  ze_module_handle_t m = fx.module("corpus_ranges");
  auto writer = fx.kernel(m, "write_group_count");
  auto add = fx.kernel(m, "add_value");
  std::vector<int> data(64, 0);
  int* pd = data.data();
  setArgs(add, pd, 5);
  setGroupSize(add, 8);
  setGroupSize(writer, 1);

  SECTION("a kernel writes the count") {
    ze_group_count_t counts{7, 7, 7};
    ze_group_count_t* pc = &counts;
    setArgs(writer, pc, 3u, 1u, 1u);
    fx.runOnce([&](auto l) {
      KernelFixture::launch(l, writer, {1, 1, 1});
      barrier(l);
      REQUIRE(zeCommandListAppendLaunchKernelIndirect(l, add, &counts, nullptr, 0, nullptr) ==
              ZE_RESULT_SUCCESS);
    });
    for (int i = 0; i < 64; ++i) REQUIRE(data[i] == (i < 24 ? 5 : 0));
  }
  SECTION("a count with a zero runs nothing") {
    ze_group_count_t counts{4, 1, 1};
    ze_group_count_t* pc = &counts;
    setArgs(writer, pc, 8u, 0u, 1u);
    fx.runOnce([&](auto l) {
      KernelFixture::launch(l, writer, {1, 1, 1});
      barrier(l);
      REQUIRE(zeCommandListAppendLaunchKernelIndirect(l, add, &counts, nullptr, 0, nullptr) ==
              ZE_RESULT_SUCCESS);
    });
    for (int v : data) REQUIRE(v == 0);
  }
  SECTION("the same list run twice reads the count each time") {
    ze_group_count_t counts{1, 1, 1};
    auto q = fx.queue();
    auto l = fx.list();
    REQUIRE(zeCommandListAppendLaunchKernelIndirect(l, add, &counts, nullptr, 0, nullptr) ==
            ZE_RESULT_SUCCESS);
    fx.run(q, l);
    counts.groupCountX = 8;
    REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueSynchronize(q, kPatienceNs) == ZE_RESULT_SUCCESS);
    for (int i = 0; i < 64; ++i) REQUIRE(data[i] == (i < 8 ? 10 : 5));
  }
}

TEST_CASE(
    "Given zeCommandListAppendLaunchMultipleKernelsIndirect, then the kernel count and each "
    "group count are read when the command runs",
    "[launch][indirect][multiple]") {
  KernelFixture fx;
  ze_module_handle_t m = fx.module("corpus_ranges");
  auto writer = fx.kernel(m, "write_group_count");
  auto addA = fx.kernel(m, "add_value");
  auto addB = fx.kernel(m, "add_value");
  std::vector<int> a(64, 0), b(64, 0);
  int *pa = a.data(), *pb = b.data();
  setArgs(addA, pa, 1);
  setArgs(addB, pb, 100);
  setGroupSize(addA, 4);
  setGroupSize(addB, 16);
  setGroupSize(writer, 1);
  ze_kernel_handle_t kernels[2] = {addA, addB};
  ze_group_count_t args[2] = {{0, 0, 0}, {0, 0, 0}};

  for (uint32_t count : {2u, 1u, 0u, 5u}) {
    std::fill(a.begin(), a.end(), 0);
    std::fill(b.begin(), b.end(), 0);
    uint32_t storedCount = 99;
    // Source of a copy that runs when the list executes: it must outlive the recording lambda.
    ze_group_count_t first{3, 1, 1};
    fx.runOnce([&](auto l) {
      ze_group_count_t* p1 = &args[1];
      setArgs(writer, p1, 2u, 1u, 1u);
      KernelFixture::launch(l, writer, {1, 1, 1});
      REQUIRE(zeCommandListAppendMemoryCopy(l, &storedCount, &count, sizeof count, nullptr, 0,
                                            nullptr) == ZE_RESULT_SUCCESS);
      REQUIRE(zeCommandListAppendMemoryCopy(l, &args[0], &first, sizeof first, nullptr, 0,
                                            nullptr) == ZE_RESULT_SUCCESS);
      barrier(l);
      REQUIRE(zeCommandListAppendLaunchMultipleKernelsIndirect(
                  l, 2, kernels, &storedCount, args, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
    });
    INFO("count " << count);
    uint32_t ran = std::min(count, 2u);
    for (int i = 0; i < 64; ++i) {
      REQUIRE(a[i] == (ran >= 1 && i < 12 ? 1 : 0));
      REQUIRE(b[i] == (ran >= 2 && i < 32 ? 100 : 0));
    }
  }
}

TEST_CASE(
    "Given a cooperative kernel, then up to zeKernelSuggestMaxCooperativeGroupCount groups "
    "are accepted and more are refused",
    "[launch][cooperative]") {
  KernelFixture fx;
  // The compute group says it runs cooperative kernels.
  uint32_t groups = 0;
  REQUIRE(zeDeviceGetCommandQueueGroupProperties(fx.device, &groups, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<ze_command_queue_group_properties_t> props(
      groups, {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES});
  REQUIRE(zeDeviceGetCommandQueueGroupProperties(fx.device, &groups, props.data()) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(groups >= 1);
  CHECK((props[0].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COOPERATIVE_KERNELS) != 0);

  auto k = fx.kernel("corpus_ranges", "add_value");
  uint32_t maxGroups = 0;
  REQUIRE(zeKernelSuggestMaxCooperativeGroupCount(k, &maxGroups) == ZE_RESULT_SUCCESS);
  REQUIRE(maxGroups >= 1);
  std::vector<int> data(maxGroups * 4 + 8, 0);
  int* p = data.data();
  setArgs(k, p, 1);
  setGroupSize(k, 2);
  auto q = fx.queue();
  auto l = fx.list();
  ze_group_count_t ok{maxGroups, 1, 1};
  REQUIRE(zeCommandListAppendLaunchCooperativeKernel(l, k, &ok, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  ze_group_count_t tooMany{maxGroups + 1, 1, 1};
  ze_result_t r = zeCommandListAppendLaunchCooperativeKernel(l, k, &tooMany, nullptr, 0, nullptr);
  INFO("result for " << maxGroups + 1 << " groups: " << r);
  CHECK(r != ZE_RESULT_SUCCESS);
  ze_group_count_t spread{1, maxGroups + 1, 1};
  CHECK(zeCommandListAppendLaunchCooperativeKernel(l, k, &spread, nullptr, 0, nullptr) !=
        ZE_RESULT_SUCCESS);
  fx.run(q, l);
  for (uint32_t i = 0; i < data.size(); ++i) REQUIRE(data[i] == (i < maxGroups * 2 ? 1 : 0));
}

namespace {

// Runs the global-barrier kernel of `m` on `target` with zeKernelSuggestMaxCooperativeGroupCount
// groups of one work-item, three times. The buffers are never freed: if the launch hangs, the
// kernel still spins on them while the test fails.
void globalBarrier(KernelFixture& fx, ze_module_handle_t m, ze_device_handle_t target,
                   uint64_t patience = kPatienceNs) {
  auto k = fx.kernel(m, "global_barrier");
  uint32_t maxGroups = 0;
  REQUIRE(zeKernelSuggestMaxCooperativeGroupCount(k, &maxGroups) == ZE_RESULT_SUCCESS);
  REQUIRE(maxGroups >= 1);
  UNSCOPED_INFO("cooperative groups: " << maxGroups);
  ze_command_queue_desc_t qd = tessera::test::queueDesc();
  ze_command_queue_handle_t q = nullptr;
  REQUIRE(zeCommandQueueCreate(fx.context, target, &qd, &q) == ZE_RESULT_SUCCESS);
  ze_command_list_desc_t ld{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
  ze_command_list_handle_t l = nullptr;
  REQUIRE(zeCommandListCreate(fx.context, target, &ld, &l) == ZE_RESULT_SUCCESS);
  for (int round = 0; round < 3; ++round) {
    int* arrived = new int(0);
    int* values = new int[maxGroups]();
    int* sums = new int[maxGroups];
    std::fill(sums, sums + maxGroups, -1);
    setArgs(k, arrived, values, sums);
    setGroupSize(k, 1);
    ze_group_count_t all{maxGroups, 1, 1};
    REQUIRE(zeCommandListAppendLaunchCooperativeKernel(l, k, &all, nullptr, 0, nullptr) ==
            ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueSynchronize(q, patience) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandListReset(l) == ZE_RESULT_SUCCESS);
    CHECK(*arrived == int(maxGroups));
    int expect = int(maxGroups * (maxGroups + 1) / 2);
    for (uint32_t g = 0; g < maxGroups; ++g) CHECK(sums[g] == expect);
    delete arrived;
    delete[] values;
    delete[] sums;
  }
  zeCommandListDestroy(l);
  zeCommandQueueDestroy(q);
}

}  // namespace

TEST_CASE("watched child: a cooperative global barrier on the root device", "[.launch_child]") {
  if (!tessera::test::inWatchedChild()) return;
  tessera::test::armWatchdog(kWatchdogSeconds);
  KernelFixture fx;
  globalBarrier(fx, fx.module("corpus_coop"), fx.device);
}

TEST_CASE(
    "watched child: a cooperative global barrier on sub-devices with a module for the sub-device",
    "[.launch_child]") {
  if (!tessera::test::inWatchedChild()) return;
  tessera::test::armWatchdog(kWatchdogSeconds);
  KernelFixture fx;
  for (auto s : tessera::test::subDevices(fx.device))
    globalBarrier(fx, fx.module("corpus_coop", nullptr, s), s);
}

TEST_CASE("watched child: a cooperative global barrier on sub-devices with a module for the root",
          "[.launch_child]") {
  if (!tessera::test::inWatchedChild()) return;
  tessera::test::armWatchdog(kWatchdogSeconds);
  KernelFixture fx;
  auto m = fx.module("corpus_coop");
  for (auto s : tessera::test::subDevices(fx.device)) {
    // The suggestion is for the module's device; a sub-device may hold fewer groups at once, and
    // a count it cannot hold is refused rather than left to hang.
    auto k = fx.kernel(m, "global_barrier");
    uint32_t suggested = 0;
    REQUIRE(zeKernelSuggestMaxCooperativeGroupCount(k, &suggested) == ZE_RESULT_SUCCESS);
    ze_command_list_desc_t ld{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
    ze_command_list_handle_t l = nullptr;
    REQUIRE(zeCommandListCreate(fx.context, s, &ld, &l) == ZE_RESULT_SUCCESS);
    int arrived = 0;
    std::vector<int> values(suggested), sums(suggested);
    int *pa = &arrived, *pv = values.data(), *ps = sums.data();
    setArgs(k, pa, pv, ps);
    setGroupSize(k, 1);
    ze_group_count_t all{suggested, 1, 1};
    uint32_t subPus = tessera::test::properties(s).numThreadsPerEU *
                      tessera::test::properties(s).numEUsPerSubslice *
                      tessera::test::properties(s).numSubslicesPerSlice *
                      tessera::test::properties(s).numSlices;
    ze_result_t expected =
        suggested > subPus ? ZE_RESULT_ERROR_INVALID_ARGUMENT : ZE_RESULT_SUCCESS;
    CHECK(zeCommandListAppendLaunchCooperativeKernel(l, k, &all, nullptr, 0, nullptr) == expected);
    zeCommandListDestroy(l);
    zeKernelDestroy(k);
    // Within the sub-device's capacity the global barrier completes.
    globalBarrier(fx, fx.module("corpus_coop", nullptr, s), s, 5'000'000'000ull);
  }
}

TEST_CASE(
    "Given a cooperative kernel whose groups wait for each other, when it runs with the "
    "maximum group count, then it completes: every group was resident at once",
    "[launch][cooperative]") {
  tessera::test::runWatchedChild("watched child: a cooperative global barrier on the root device");
  tessera::test::runWatchedChild(
      "watched child: a cooperative global barrier on sub-devices with a module for the "
      "sub-device");
}

// The cooperative limit of a launch is the command list's device's: a module built for the root
// device launched on a one-PU sub-device with the root's suggested count is refused (it could not
// have every group resident at once), never left to hang.
TEST_CASE(
    "Given a module built for the root device, when its cooperative kernel goes to a sub-device, "
    "then counts the sub-device cannot hold are refused and the others complete",
    "[launch][cooperative][subdevice]") {
  tessera::test::runWatchedChild(
      "watched child: a cooperative global barrier on sub-devices with a module for the root");
}

TEST_CASE("watched child: a small kernel known to run long is not run inline",
          "[.launch_child]") {
  if (!tessera::test::inWatchedChild()) return;
  tessera::test::armWatchdog(kWatchdogSeconds);
  KernelFixture fx;
  auto k = fx.kernel("faults", "read_then_spin");
  auto l = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  volatile int flag = 1;
  std::vector<int> out(4, 0);
  int* po = out.data();
  setGroupSize(k, 1);
  // First: 4 work-items reading the flag 10^7 times each, milliseconds of work: small enough to
  // run inline on this thread, and measured as long.
  volatile int* pf = &flag;
  auto done = fx.events(2);
  setArgs(k, pf, po, 10'000'000u);
  KernelFixture::launch(l, k, {4, 1, 1}, done[0]);
  REQUIRE(zeEventHostSynchronize(done[0], kPatienceNs) == ZE_RESULT_SUCCESS);
  for (int v : out) REQUIRE(v == 7);
  // Then the same kernel waiting for the host: the append must return before the kernel ends
  // (a launch run inline would wait forever for the flag this thread sets below).
  flag = 0;
  setArgs(k, pf, po, 0u);
  KernelFixture::launch(l, k, {4, 1, 1}, done[1]);
  flag = 1;
  REQUIRE(zeEventHostSynchronize(done[1], kPatienceNs) == ZE_RESULT_SUCCESS);
  for (int v : out) CHECK(v == 5);
}

// A launch small enough to run inline on the appending thread, whose kernel an earlier launch
// showed to be long, goes to the queue's executor (command_list.cpp): the append stays
// asynchronous and the work-groups use every PU (hashcat's 2,048-work-item launches of
// milliseconds each ran on one thread).
TEST_CASE(
    "Given a small launch of a kernel measured as long, when it is appended to an asynchronous "
    "immediate list, then the append returns before the kernel ends",
    "[launch][immediate]") {
  tessera::test::runWatchedChild("watched child: a small kernel known to run long is not run inline");
}

TEST_CASE("watched child: a kernel measured long once runs inline again when short",
          "[.launch_child]") {
  if (!tessera::test::inWatchedChild()) return;
  tessera::test::armWatchdog(kWatchdogSeconds);
  KernelFixture fx;
  auto k = fx.kernel("faults", "read_then_spin");
  auto l = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  volatile int flag = 1;
  volatile int* pf = &flag;
  std::vector<int> out(4, 0);
  int* po = out.data();
  setGroupSize(k, 1);
  auto ev = fx.events(1);
  // Measured as long (milliseconds), as a launch preempted by another process would be.
  setArgs(k, pf, po, 10'000'000u);
  KernelFixture::launch(l, k, {4, 1, 1}, ev[0]);
  REQUIRE(zeEventHostSynchronize(ev[0], kPatienceNs) == ZE_RESULT_SUCCESS);
  // Then short launches: one run inline is done when its append returns; one handed to the
  // executor is not (the executor wakes from its sleep in microseconds, the append returns in
  // well under one). Without a second look at the kernel every one of them went to the executor.
  // With it, every kLongRetryInterval-th (64, core/command/launch_policy.h) is tried inline
  // whatever the kernel's record says, and once one such try measures the kernel short the rest
  // run inline too; how many do depends on the machine's speed (under ASan an inline try of
  // this kernel may itself exceed the budget), so only the tries are counted on.
  setArgs(k, pf, po, 0u);
  const int launches = 256;
  int doneAtReturn = 0;
  for (int i = 0; i < launches; ++i) {
    REQUIRE(zeEventHostReset(ev[0]) == ZE_RESULT_SUCCESS);
    KernelFixture::launch(l, k, {4, 1, 1}, ev[0]);
    if (zeEventQueryStatus(ev[0]) == ZE_RESULT_SUCCESS) ++doneAtReturn;
    REQUIRE(zeEventHostSynchronize(ev[0], kPatienceNs) == ZE_RESULT_SUCCESS);
  }
  INFO(doneAtReturn << " of " << launches << " short launches were done when appended");
  CHECK(doneAtReturn >= launches / 64);
}

// One launch measured long by accident (its thread preempted) must not keep a kernel's later
// short launches off the appending thread for good: they cost an executor wake-up each (6 us
// against 0.33 for an empty kernel, every launch of a process that once was unlucky).
TEST_CASE(
    "Given a kernel measured as long once, when its later small launches are short, then they "
    "run inline again",
    "[launch][immediate]") {
  tessera::test::runWatchedChild(
      "watched child: a kernel measured long once runs inline again when short");
}

TEST_CASE(
    "Given a launch that signals a kernel-timestamp event, then start <= end within the "
    "host's span",
    "[launch][timestamp]") {
  KernelFixture fx;
  auto dp = tessera::test::properties(fx.device);
  const uint64_t mask =
      dp.kernelTimestampValidBits >= 64 ? UINT64_MAX : ~(~0ull << dp.kernelTimestampValidBits);
  auto ev = fx.events(2, ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP | ZE_EVENT_POOL_FLAG_HOST_VISIBLE);
  auto k = fx.kernel("corpus_matmul", "matmul_tiled");
  const uint32_t N = 64;
  std::vector<float> A(N * N, 1.0f), B(N * N, 2.0f), C(N * N, 0.0f);
  float *pa = A.data(), *pb = B.data(), *pc = C.data();
  setArgs(k, pa, pb, pc, N);
  setGroupSize(k, 16, 16);
  uint64_t before = deviceNow(fx.device) & mask;
  fx.runOnce([&](auto l) {
    KernelFixture::launch(l, k, {N / 16, N / 16, 1}, ev[0]);
    KernelFixture::launch(l, k, {N / 16, N / 16, 1}, ev[1]);
  });
  uint64_t after = deviceNow(fx.device) & mask;
  for (float c : C) REQUIRE(c == 2.0f * N);
  ze_kernel_timestamp_result_t ts[2];
  for (int i = 0; i < 2; ++i) {
    REQUIRE(zeEventQueryStatus(ev[i]) == ZE_RESULT_SUCCESS);
    REQUIRE(zeEventQueryKernelTimestamp(ev[i], &ts[i]) == ZE_RESULT_SUCCESS);
    INFO("launch " << i << ": host span [" << before << ", " << after << "], global ["
                   << ts[i].global.kernelStart << ", " << ts[i].global.kernelEnd << "]");
    CHECK(before <= ts[i].global.kernelStart);
    CHECK(ts[i].global.kernelStart <= ts[i].global.kernelEnd);
    CHECK(ts[i].global.kernelEnd <= after);
    CHECK(ts[i].context.kernelStart <= ts[i].context.kernelEnd);
  }
  // In order on one queue: the second launch starts after the first ended.
  CHECK(ts[0].global.kernelEnd <= ts[1].global.kernelStart);
}

TEST_CASE(
    "Given immediate command lists, when they launch kernels, then SYNCHRONOUS returns "
    "done and ASYNCHRONOUS signals its event",
    "[launch][immediate]") {
  KernelFixture fx;
  ze_module_handle_t m = fx.module("corpus_ranges");
  std::vector<int> data(256, 0);
  int* pd = data.data();

  SECTION("synchronous") {
    auto l = fx.immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
    auto k = fx.kernel(m, "add_value");
    setGroupSize(k, 32);
    for (int v = 1; v <= 3; ++v) {
      setArgs(k, pd, v);
      KernelFixture::launch(l, k, {8, 1, 1});
      // Done when the append returns.
      for (int x : data) REQUIRE(x == v * (v + 1) / 2);
    }
  }
  SECTION("asynchronous") {
    auto l = fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
    auto ev = fx.events(2);
    auto k = fx.kernel(m, "add_value");
    setGroupSize(k, 32);
    setArgs(k, pd, 4);
    KernelFixture::launch(l, k, {8, 1, 1}, ev[0]);
    setArg(k, 1, 10);  // the first launch keeps 4
    ze_group_count_t half{4, 1, 1};
    REQUIRE(zeCommandListAppendLaunchKernel(l, k, &half, ev[1], 1, &ev[0]) == ZE_RESULT_SUCCESS);
    REQUIRE(zeEventHostSynchronize(ev[1], kPatienceNs) == ZE_RESULT_SUCCESS);
    CHECK(zeEventQueryStatus(ev[0]) == ZE_RESULT_SUCCESS);
    for (int i = 0; i < 256; ++i) REQUIRE(data[i] == (i < 128 ? 14 : 4));
  }
}

TEST_CASE(
    "Given several host threads, each launching on its own queue, then every launch runs "
    "once",
    "[launch][threads]") {
  KernelFixture fx;
  ze_module_handle_t m = fx.module("corpus_ranges");
  constexpr int kThreads = 4, kLaunches = 25, kItems = 128;
  std::vector<std::vector<int>> data(kThreads, std::vector<int>(kItems, 0));
  std::vector<ze_kernel_handle_t> kernels;
  std::vector<ze_command_queue_handle_t> queues;
  std::vector<ze_command_list_handle_t> lists;
  for (int t = 0; t < kThreads; ++t) {
    kernels.push_back(fx.kernel(m, "add_value"));
    queues.push_back(fx.queue());
    lists.push_back(fx.list());
  }
  // Catch2's assertions are not thread-safe: the threads count failures, the test checks them.
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      auto k = kernels[t];
      auto l = lists[t];
      auto q = queues[t];
      int* p = data[t].data();
      auto ok = [&](ze_result_t r) {
        if (r != ZE_RESULT_SUCCESS) ++failures;
      };
      ok(zeKernelSetGroupSize(k, 16, 1, 1));
      for (int i = 0; i < kLaunches; ++i) {
        int v = t + 1;
        ok(zeKernelSetArgumentValue(k, 0, sizeof p, &p));
        ok(zeKernelSetArgumentValue(k, 1, sizeof v, &v));
        ze_group_count_t g{kItems / 16, 1, 1};
        ok(zeCommandListAppendLaunchKernel(l, k, &g, nullptr, 0, nullptr));
        ok(zeCommandListClose(l));
        ok(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr));
        ok(zeCommandQueueSynchronize(q, kPatienceNs));
        ok(zeCommandListReset(l));
      }
    });
  for (auto& th : threads) th.join();
  CHECK(failures == 0);
  for (int t = 0; t < kThreads; ++t)
    for (int x : data[t]) REQUIRE(x == (t + 1) * kLaunches);
}

TEST_CASE(
    "Given a launch with a group count of zero in one dimension, then it is accepted and "
    "nothing runs",
    "[launch][empty]") {
  // The spec names no error for an empty grid; Tessera accepts it and runs nothing
  // (core/queue/kernel_launch.cpp, launchKernel()).
  KernelFixture fx;
  auto k = fx.kernel("corpus_ranges", "add_value");
  std::vector<int> data(64, 0);
  int* p = data.data();
  setArgs(k, p, 3);
  setGroupSize(k, 8);
  fx.runOnce([&](auto l) {
    for (ze_group_count_t g : {ze_group_count_t{0, 1, 1}, ze_group_count_t{4, 0, 1},
                               ze_group_count_t{4, 1, 0}, ze_group_count_t{0, 0, 0}})
      REQUIRE(zeCommandListAppendLaunchKernel(l, k, &g, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
    KernelFixture::launch(l, k, {2, 1, 1});  // the list goes on after them
  });
  for (int i = 0; i < 64; ++i) REQUIRE(data[i] == (i < 16 ? 3 : 0));
}

TEST_CASE(
    "Given a launch appended, when pointers, group size and offset change before the next "
    "append, then each launch keeps what it was appended with",
    "[launch][args]") {
  KernelFixture fx;
  auto k = fx.kernel("corpus_ranges", "range1d");
  std::vector<int> a(256, -1), b(256, -1);
  int *pa = a.data(), *pb = b.data();
  const uint32_t n = 256;
  fx.runOnce([&](auto l) {
    setArgs(k, pa, n);
    setGroupSize(k, 8);
    setOffset(k, 0);
    KernelFixture::launch(l, k, {2, 1, 1});  // a[0, 16)
    setArg(k, 0, pb);
    setGroupSize(k, 4);
    setOffset(k, 100);
    KernelFixture::launch(l, k, {2, 1, 1});  // b[100, 108)
    setArg(k, 0, pa);                        // changes after the last append: no effect
    setOffset(k, 200);
  });
  for (uint32_t i = 0; i < n; ++i) {
    INFO("index " << i);
    REQUIRE(a[i] == (i < 16 ? int(i) * 2 + 1 : -1));
    REQUIRE(b[i] == (i >= 100 && i < 108 ? int(i) * 2 + 1 : -1));
  }
}

TEST_CASE(
    "Given kernels on two queues joined by an event, then the second sees what the first "
    "wrote",
    "[launch][event]") {
  KernelFixture fx;
  ze_module_handle_t m = fx.module("corpus_reduce");
  auto scan = fx.kernel(m, "scan_local");
  auto scan2 = fx.kernel(m, "scan_local");
  auto ev = fx.events(1);
  std::vector<int> in(64, 1), mid(64, 0), out(64, 0);
  int *pin = in.data(), *pmid = mid.data(), *pout = out.data();
  setArgs(scan, pin, pmid);
  setArgs(scan2, pmid, pout);
  setGroupSize(scan, 64);
  setGroupSize(scan2, 64);
  auto q1 = fx.queue(0, 0), q2 = fx.queue(0, 1);
  auto l1 = fx.list(), l2 = fx.list();
  ze_group_count_t one{1, 1, 1};
  REQUIRE(zeCommandListAppendLaunchKernel(l2, scan2, &one, nullptr, 1, &ev[0]) ==
          ZE_RESULT_SUCCESS);
  KernelFixture::launch(l1, scan, one, ev[0]);
  REQUIRE(zeCommandListClose(l2) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l1) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(q2, 1, &l2, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(q1, 1, &l1, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueSynchronize(q2, kPatienceNs) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueSynchronize(q1, kPatienceNs) == ZE_RESULT_SUCCESS);
  for (int i = 0; i < 64; ++i) REQUIRE(out[i] == (i + 1) * (i + 2) / 2);
}

TEST_CASE(
    "Given a kernel whose group size was never set, then a launch uses a default size that "
    "the work-item functions report",
    "[launch][groupsize]") {
  // "If a group size is not set prior to appending a kernel into a command list then a default
  // will be chosen."
  KernelFixture fx;
  ze_module_handle_t m = fx.module("corpus_ranges");
  auto info = fx.kernel(m, "range_info");
  std::vector<uint32_t> out(13, 0);
  uint32_t* po = out.data();
  setArg(info, 0, po);
  auto k = fx.kernel(m, "range1d");
  std::vector<int> data(4096 * 3 + 1, -1);
  int* pd = data.data();
  const uint32_t n = uint32_t(data.size());
  setArgs(k, pd, n);
  fx.runOnce([&](auto l) {
    KernelFixture::launch(l, info, {3, 1, 1});
    KernelFixture::launch(l, k, {3, 1, 1});
  });
  uint32_t local = out[2];
  INFO("default group size " << local << " x " << out[6] << " x " << out[10]);
  REQUIRE(local >= 1);
  REQUIRE(local <= 4096);
  CHECK(out[3] == 3);
  CHECK(out[1] == 3 * local);
  for (uint32_t i = 0; i < n; ++i) REQUIRE(data[i] == (i < 3 * local ? int(i) * 2 + 1 : -1));
}

TEST_CASE(
    "Given global sizes, then zeKernelSuggestGroupSize returns divisors that "
    "zeKernelSetGroupSize accepts",
    "[launch][groupsize]") {
  KernelFixture fx;
  auto k = fx.kernel("corpus_ranges", "range3d");
  struct Global {
    uint32_t x, y, z;
  };
  for (Global g :
       {Global{1, 1, 1}, Global{97, 1, 1}, Global{1024, 1, 1}, Global{1000, 30, 1},
        Global{64, 64, 64}, Global{7, 11, 13}, Global{4096, 4096, 1}, Global{1u << 20, 3, 5}}) {
    uint32_t x = 0, y = 0, z = 0;
    REQUIRE(zeKernelSuggestGroupSize(k, g.x, g.y, g.z, &x, &y, &z) == ZE_RESULT_SUCCESS);
    INFO("global " << g.x << " x " << g.y << " x " << g.z << ": suggested " << x << " x " << y
                   << " x " << z);
    REQUIRE((x >= 1 && y >= 1 && z >= 1));
    CHECK(g.x % x == 0);
    CHECK(g.y % y == 0);
    CHECK(g.z % z == 0);
    CHECK(uint64_t(x) * y * z <= 4096);
    CHECK(zeKernelSetGroupSize(k, x, y, z) == ZE_RESULT_SUCCESS);
  }
}

TEST_CASE(
    "Given a large range, when zeKernelSuggestGroupSize is asked, then a kernel without barriers "
    "gets groups of 1,024 and one with barriers groups of at most 256",
    "[launch][groupsize]") {
  KernelFixture fx;
  uint32_t x = 0, y = 0, z = 0;
  // Without barriers a longer x loop costs less per work-item, up to about 1,024
  // (core/command/launch_policy.cpp).
  auto plain = fx.kernel("corpus_ranges", "range1d");
  REQUIRE(zeKernelSuggestGroupSize(plain, 16u << 20, 1, 1, &x, &y, &z) == ZE_RESULT_SUCCESS);
  CHECK(x == 1024);
  CHECK(y * z == 1);
  // With barriers the group's scratch and __local data should stay near the core.
  auto barriers = fx.kernel("local_reduce", "local_reduce");
  REQUIRE(zeKernelSuggestGroupSize(barriers, 16u << 20, 1, 1, &x, &y, &z) == ZE_RESULT_SUCCESS);
  CHECK(x == 256);
}

// A group runs on one thread: a small range gets groups small enough that each PU of the device has
// four, down to 64 work-items a group. Checked against the device's PU count (ze_device_properties_t:
// threads per EU x EUs per subslice x subslices x slices), on this machine and, through
// api.ze.direct.topology, on a simulated 16-PU one.
TEST_CASE("Given a small range, when zeKernelSuggestGroupSize is asked, then every PU of the device "
          "gets four groups or the groups are 64 work-items or fewer",
          "[launch][groupsize][balance]") {
  KernelFixture fx;
  ze_device_properties_t p{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  REQUIRE(zeDeviceGetProperties(fx.device, &p) == ZE_RESULT_SUCCESS);
  const uint64_t pus =
      uint64_t(p.numThreadsPerEU) * p.numEUsPerSubslice * p.numSubslicesPerSlice * p.numSlices;
  REQUIRE(pus >= 1);
  auto plain = fx.kernel("corpus_ranges", "range1d");
  auto barriers = fx.kernel("local_reduce", "local_reduce");
  for (ze_kernel_handle_t k : {plain, barriers})
    for (uint32_t items : {3000u, 4096u, 65536u, 1000u * 30u, 64u * 1024u * 3u}) {
      INFO((k == plain ? "plain" : "barriers") << ", " << items << " work-items, " << pus
                                               << " PUs");
      uint32_t x = 0, y = 0, z = 0;
      REQUIRE(zeKernelSuggestGroupSize(k, items, 1, 1, &x, &y, &z) == ZE_RESULT_SUCCESS);
      REQUIRE(x >= 1);
      CHECK(items % x == 0);
      CHECK(x <= (k == plain ? 1024u : 256u));
      CHECK(items / x >= std::min<uint64_t>(4 * pus, items / 64));
    }
  // 65,536 work-items in groups of the suggested size: at least 64 groups, as compute-benchmarks'
  // SinKernelGraph assumes (64 groups of the suggested size over 65,536 items).
  uint32_t x = 0, y = 0, z = 0;
  REQUIRE(zeKernelSuggestGroupSize(plain, 65536, 1, 1, &x, &y, &z) == ZE_RESULT_SUCCESS);
  CHECK(65536 / x >= 64);
}

TEST_CASE(
    "Given the launch policy's cases, then zeKernelSuggestGroupSize, "
    "zeTesseraKernelSuggestGroupSize and a launch in the suggested size agree",
    "[launch][groupsize]") {
  KernelFixture fx;
  CHECK(tessera::test::extensionVersion(fx.driver, ZE_TESSERA_KERNEL_GROUP_SIZE_EXT_NAME) ==
        ZE_TESSERA_KERNEL_GROUP_SIZE_EXT_VERSION);
  auto suggest64 = tessera::test::extensionFunction<ze_pfnTesseraKernelSuggestGroupSize_t>(
      fx.driver, "zeTesseraKernelSuggestGroupSize");
  REQUIRE(suggest64);
  ze_module_handle_t m = fx.module("group_size_probe");
  auto plain = fx.kernel(m, "local_size_plain"), barriers = fx.kernel(m, "local_size_barrier");
  std::vector<uint32_t> out(3, 0);
  uint32_t* po = out.data();
  setArg(plain, 0, po);
  setArg(barriers, 0, po);
  for (const tessera::test::GroupSizeCase& c : tessera::test::kGroupSizeCases) {
    const uint32_t* g = c.global;
    INFO((c.barriers ? "barriers, " : "no barriers, ")
         << "global " << g[0] << " x " << g[1] << " x " << g[2]);
    ze_kernel_handle_t k = c.barriers ? barriers : plain;
    uint32_t x = 0, y = 0, z = 0;
    REQUIRE(zeKernelSuggestGroupSize(k, g[0], g[1], g[2], &x, &y, &z) == ZE_RESULT_SUCCESS);
    CHECK(x == c.local[0]);
    CHECK(y == c.local[1]);
    CHECK(z == c.local[2]);
    uint32_t x64 = 0, y64 = 0, z64 = 0;
    REQUIRE(suggest64(k, g[0], g[1], g[2], &x64, &y64, &z64) == ZE_RESULT_SUCCESS);
    CHECK(x64 == x);
    CHECK(y64 == y);
    CHECK(z64 == z);
    // The kernel sees the size it is launched with.
    setGroupSize(k, x, y, z);
    std::fill(out.begin(), out.end(), 0u);
    fx.runOnce([&](auto l) { KernelFixture::launch(l, k, {g[0] / x, g[1] / y, g[2] / z}); });
    CHECK(out == std::vector<uint32_t>{x, y, z});
  }
  // Global sizes past 32 bits, which only the extension takes (OpenCL's size_t ranges).
  uint32_t x = 0, y = 0, z = 0;
  REQUIRE(suggest64(plain, uint64_t(1) << 33, 1, 1, &x, &y, &z) == ZE_RESULT_SUCCESS);
  CHECK((x == 1024 && y == 1 && z == 1));
  REQUIRE(suggest64(barriers, 3 * (uint64_t(1) << 32), 1, 1, &x, &y, &z) == ZE_RESULT_SUCCESS);
  CHECK((x == 256 && y == 1 && z == 1));
  REQUIRE(suggest64(plain, 4097 * (uint64_t(1) << 32), 3, 1, &x, &y, &z) == ZE_RESULT_SUCCESS);
  CHECK((x == 1024 && y == 1 && z == 1));
  // A global size of 0 counts as 1; the errors are zeKernelSuggestGroupSize's.
  REQUIRE(suggest64(plain, 0, 0, 0, &x, &y, &z) == ZE_RESULT_SUCCESS);
  CHECK((x == 1 && y == 1 && z == 1));
  CHECK(suggest64(nullptr, 64, 1, 1, &x, &y, &z) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(suggest64(plain, 64, 1, 1, &x, nullptr, &z) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
}

TEST_CASE("Given a global offset, when the launch is indirect, then the offset still applies",
          "[launch][indirect][offset]") {
  KernelFixture fx;
  ze_module_handle_t m = fx.module("corpus_ranges");
  auto k = fx.kernel(m, "range1d");
  auto k2 = fx.kernel(m, "range1d");
  std::vector<int> a(128, -1), b(128, -1);
  int *pa = a.data(), *pb = b.data();
  const uint32_t n = 128;
  setArgs(k, pa, n);
  setArgs(k2, pb, n);
  setGroupSize(k, 4);
  setGroupSize(k2, 8);
  setOffset(k, 10);
  setOffset(k2, 50);
  ze_group_count_t counts[2] = {{3, 1, 1}, {2, 1, 1}};
  uint32_t two = 2;
  ze_kernel_handle_t both[2] = {k, k2};
  fx.runOnce([&](auto l) {
    REQUIRE(zeCommandListAppendLaunchKernelIndirect(l, k, &counts[0], nullptr, 0, nullptr) ==
            ZE_RESULT_SUCCESS);
    barrier(l);
    REQUIRE(zeCommandListAppendLaunchMultipleKernelsIndirect(l, 2, both, &two, counts, nullptr, 0,
                                                             nullptr) == ZE_RESULT_SUCCESS);
  });
  for (uint32_t i = 0; i < n; ++i) {
    INFO("index " << i);
    REQUIRE(a[i] == (i >= 10 && i < 22 ? int(i) * 2 + 1 : -1));
    REQUIRE(b[i] == (i >= 50 && i < 66 ? int(i) * 2 + 1 : -1));
  }
}

// zeKernelSetGlobalOffsetExp is an experimental extension: applications check that the driver lists
// it before they use it.
TEST_CASE("Given the driver's extensions, then ZE_experimental_global_offset is listed",
          "[launch][offset][extension]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  uint32_t count = 0;
  REQUIRE(zeDriverGetExtensionProperties(driver, &count, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<ze_driver_extension_properties_t> exts(count);
  REQUIRE(zeDriverGetExtensionProperties(driver, &count, exts.data()) == ZE_RESULT_SUCCESS);
  bool listed = false;
  for (const auto& e : exts) listed |= std::string(e.name) == ZE_GLOBAL_OFFSET_EXP_NAME;
  CHECK(listed);
}
