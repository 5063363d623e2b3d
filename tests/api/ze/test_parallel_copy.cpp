// Copies and fills of 4 MiB and more on compute queues, which the driver splits over the device's
// worker threads. They run in a watched child process (ze_exec_support.h): a broken worker pool
// hangs the executor, and a hang must fail one test rather than stall the whole binary. (These
// tests caught a pool whose helpers could miss the first job.)
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "ze_exec_support.h"

using tessera::test::ExecFixture;
using tessera::test::patternBytes;

namespace {

// A hang detector, not a time limit: under ThreadSanitizer on a loaded 2-core machine the large
// copies take 9 s alone and more beside other tests.
constexpr unsigned kWatchdogSeconds = 90;

void checkCopy(ExecFixture& fx, ze_command_queue_handle_t q, size_t n) {
  INFO("copy of " << n << " bytes");
  auto src = patternBytes(n + 1, static_cast<uint32_t>(n));
  std::vector<uint8_t> dst(n + 1, 0xEE);
  auto l = fx.list();
  REQUIRE(zeCommandListAppendMemoryCopy(l, dst.data(), src.data(), n, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  fx.run(q, l);
  CHECK(std::memcmp(dst.data(), src.data(), n) == 0);
  CHECK(dst[n] == 0xEE);
}

void checkFill(ExecFixture& fx, ze_command_queue_handle_t q, size_t ps, size_t n) {
  INFO("fill of " << n << " bytes with a pattern of " << ps);
  auto pattern = patternBytes(128, 11);
  std::vector<uint8_t> buf(n + 1, 0xEE);
  auto l = fx.list();
  REQUIRE(zeCommandListAppendMemoryFill(l, buf.data(), pattern.data(), ps, n, nullptr, 0,
                                        nullptr) == ZE_RESULT_SUCCESS);
  fx.run(q, l);
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i)
    if (buf[i] != pattern[i % ps]) ++bad;
  CHECK(bad == 0);
  CHECK(buf[n] == 0xEE);
}

}  // namespace

TEST_CASE("watched child: large copies and fills on compute queues", "[.parallel_child]") {
  if (!tessera::test::inWatchedChild()) return;
  tessera::test::armWatchdog(kWatchdogSeconds);
  ExecFixture fx;
  auto q = fx.queue();
  for (size_t n :
       {size_t(4u << 20), size_t(4u << 20) + 1, size_t(64u << 20), size_t(64u << 20) + 13})
    checkCopy(fx, q, n);
  for (size_t ps = 1; ps <= 128; ps *= 2) checkFill(fx, q, ps, (5u << 20) + 7);

  // A SYNCHRONOUS queue returns after the large copy completed.
  auto sq = fx.queue(0, 1, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  constexpr size_t n = 32u << 20;
  auto src = patternBytes(n, 3);
  std::vector<uint8_t> dst(n, 0);
  auto l = fx.list();
  REQUIRE(zeCommandListAppendMemoryCopy(l, dst.data(), src.data(), n, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(sq, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(std::memcmp(dst.data(), src.data(), n) == 0);

  // An immediate SYNCHRONOUS list returns after the large copy completed.
  auto il = fx.immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  std::vector<uint8_t> dst2(n, 0);
  REQUIRE(zeCommandListAppendMemoryCopy(il, dst2.data(), src.data(), n, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  CHECK(std::memcmp(dst2.data(), src.data(), n) == 0);

  // Two compute queues share the device's workers: both large copies complete.
  auto q2 = fx.queue(0, 2);
  std::vector<uint8_t> a(n, 0), b(n, 0);
  auto la = fx.list(), lb = fx.list();
  REQUIRE(zeCommandListAppendMemoryCopy(la, a.data(), src.data(), n, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendMemoryCopy(lb, b.data(), src.data(), n, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(la) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(lb) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &la, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(q2, 1, &lb, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueSynchronize(q, tessera::test::kPatienceNs) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueSynchronize(q2, tessera::test::kPatienceNs) == ZE_RESULT_SUCCESS);
  CHECK(a == src);
  CHECK(b == src);
}

TEST_CASE("watched child: large copies on sub-device compute queues", "[.parallel_child]") {
  if (!tessera::test::inWatchedChild()) return;
  tessera::test::armWatchdog(kWatchdogSeconds);
  auto driver = tessera::test::initDriver();
  for (auto root : tessera::test::devices(driver))
    for (auto sub : tessera::test::subDevices(root)) {
      ExecFixture fx(sub);
      checkCopy(fx, fx.queue(), 8u << 20);
    }
}

TEST_CASE(
    "Given compute queues, when copies and fills of 4 MiB and more run on the device's workers, "
    "then the bytes are right and nothing hangs",
    "[cmdlist][memory][parallel]") {
  tessera::test::runWatchedChild("watched child: large copies and fills on compute queues");
}

TEST_CASE(
    "Given sub-devices, when their compute queues run a large copy, then it completes on their "
    "workers",
    "[queue][sub][parallel]") {
  auto driver = tessera::test::initDriver();
  size_t subs = 0;
  for (auto root : tessera::test::devices(driver)) subs += tessera::test::subDevices(root).size();
  if (subs == 0) {
    WARN("this machine's devices have no sub-devices");
    return;
  }
  tessera::test::runWatchedChild("watched child: large copies on sub-device compute queues");
}
