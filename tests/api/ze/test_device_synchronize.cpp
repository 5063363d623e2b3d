// zeDeviceSynchronize (Level Zero 1.14): "blocks until all preceding submissions to all queues on
// the device are completed": command queues and immediate lists, of any context; a queue destroyed
// while it waits ends its wait; a device with nothing submitted returns at once.
#include <level_zero/ze_api.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "tessera/ze_tessera.h"
#include "ze_exec_support.h"

using namespace tessera::test;

namespace {

ze_pfnDeviceSynchronize_t deviceSynchronize(ze_driver_handle_t d) {
  return requiredFunction<ze_pfnDeviceSynchronize_t>(d, "zeDeviceSynchronize");
}

// A fill of `bytes` with `value`, appended to `list` after `gate`.
void gatedFill(ze_command_list_handle_t list, std::vector<uint8_t>& bytes, const uint8_t& value,
               ze_event_handle_t gate) {
  REQUIRE(zeCommandListAppendMemoryFill(list, bytes.data(), &value, 1, bytes.size(), nullptr, 1,
                                        &gate) == ZE_RESULT_SUCCESS);
}

}  // namespace

TEST_CASE(
    "Given work held back on a queue and on immediate lists of two contexts, when "
    "zeDeviceSynchronize is called, then it returns only once all of it completed",
    "[current_api][device_synchronize]") {
  ExecFixture fx;
  ExecFixture other;  // a second context on the same device
  auto sync = deviceSynchronize(fx.driver);
  const uint8_t seven = 7;
  std::vector<uint8_t> a(1 << 20, 0), b(1 << 20, 0), c(1 << 20, 0);
  auto gate = fx.events(1)[0];
  auto otherGate = other.events(1)[0];

  // A regular list executed on a queue, an asynchronous immediate list, and an immediate list of
  // the other context: each waits for a gate only the host opens.
  auto queue = fx.queue();
  auto regular = fx.list();
  gatedFill(regular, a, seven, gate);
  REQUIRE(zeCommandListClose(regular) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(queue, 1, &regular, nullptr) == ZE_RESULT_SUCCESS);
  gatedFill(fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS), b, seven, gate);
  gatedFill(other.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS), c, seven, otherGate);

  std::atomic<bool> returned{false};
  ze_result_t result = ZE_RESULT_ERROR_UNKNOWN;
  uint8_t seen[3] = {};
  std::thread waiter([&] {
    result = sync(fx.device);
    // What the host sees right after it returned.
    seen[0] = a.back(), seen[1] = b.back(), seen[2] = c.back();
    returned = true;
  });
  // Give a wrong implementation time to return early; a right one cannot, however long this is.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK_FALSE(returned.load());
  REQUIRE(zeEventHostSignal(gate) == ZE_RESULT_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK_FALSE(returned.load());  // the other context's list still waits
  REQUIRE(zeEventHostSignal(otherGate) == ZE_RESULT_SUCCESS);
  waiter.join();
  CHECK(result == ZE_RESULT_SUCCESS);
  CHECK(seen[0] == 7);
  CHECK(seen[1] == 7);
  CHECK(seen[2] == 7);

  // Nothing pending now: it returns at once, as it does for any device.
  CHECK(sync(fx.device) == ZE_RESULT_SUCCESS);
  for (ze_device_handle_t d : devices(fx.driver)) CHECK(sync(d) == ZE_RESULT_SUCCESS);
  CHECK(sync(nullptr) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(sync(reinterpret_cast<ze_device_handle_t>(fx.context)) ==
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
}

TEST_CASE(
    "Given zeDeviceSynchronize waiting for a queue whose work never becomes ready, when the "
    "queue is destroyed, then the wait ends",
    "[current_api][device_synchronize]") {
  ExecFixture fx;
  auto sync = deviceSynchronize(fx.driver);
  auto gate = fx.events(1)[0];
  std::vector<uint8_t> a(4096, 0);
  const uint8_t seven = 7;
  auto queue = fx.queue();
  auto regular = fx.list();
  gatedFill(regular, a, seven, gate);
  REQUIRE(zeCommandListClose(regular) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(queue, 1, &regular, nullptr) == ZE_RESULT_SUCCESS);

  std::atomic<bool> returned{false};
  std::thread waiter([&] {
    sync(fx.device);
    returned = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK_FALSE(returned.load());
  // The destroy cancels what the queue had not run; the wait on it ends with it.
  REQUIRE(zeCommandQueueDestroy(queue) == ZE_RESULT_SUCCESS);
  fx.forget(queue);
  waiter.join();
  CHECK(returned.load());
  CHECK(a.back() == 0);  // the fill never ran
}

TEST_CASE(
    "Given a device with sub-devices, when work is held back on a sub-device's list, then "
    "zeDeviceSynchronize of the root device waits for it too",
    "[current_api][device_synchronize]") {
  ze_driver_handle_t driver = initDriver();
  ze_device_handle_t root = devices(driver).at(0);
  uint32_t n = 0;
  REQUIRE(zeDeviceGetSubDevices(root, &n, nullptr) == ZE_RESULT_SUCCESS);
  if (n == 0) {
    SUCCEED("this machine's device has no sub-devices");
    return;
  }
  std::vector<ze_device_handle_t> subs(n);
  REQUIRE(zeDeviceGetSubDevices(root, &n, subs.data()) == ZE_RESULT_SUCCESS);
  ExecFixture fx(subs.back());
  auto sync = deviceSynchronize(driver);
  auto gate = fx.events(1)[0];
  std::vector<uint8_t> a(1 << 16, 0);
  const uint8_t seven = 7;
  gatedFill(fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS), a, seven, gate);
  std::atomic<bool> returned{false};
  uint8_t seen = 0;
  ze_result_t result = ZE_RESULT_ERROR_UNKNOWN;
  std::thread waiter([&] {
    result = sync(root);
    seen = a.back();
    returned = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK_FALSE(returned.load());
  REQUIRE(zeEventHostSignal(gate) == ZE_RESULT_SUCCESS);
  waiter.join();
  CHECK(result == ZE_RESULT_SUCCESS);
  CHECK(seen == 7);
}
