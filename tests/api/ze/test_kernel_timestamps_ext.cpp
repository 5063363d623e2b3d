// ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP (Level Zero 1.6) and the extension
// ZE_extension_event_query_kernel_timestamps (zeEventQueryKernelTimestampsExt): pools whose events
// carry kernel timestamps "synchronized to host time domain", read through the extension function.
// Tessera's device timer is the host clock, so the synchronized timestamps are the kernel
// timestamps and lie between two host readings of zeDeviceGetGlobalTimestamps.
// [novalidation]: the validation layer of Debian's loader (1.4 headers) refuses pool flag bit 3.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tessera/ze_tessera.h"
#include "ze_exec_support.h"

using namespace tessera::test;

namespace {

constexpr ze_event_pool_flags_t kMapped = TESSERA_ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP;

struct TimestampsFixture : ExecFixture {
  ze_pfnEventQueryKernelTimestampsExt_t query =
      extensionFunction<ze_pfnEventQueryKernelTimestampsExt_t>(driver,
                                                               "zeEventQueryKernelTimestampsExt");
  TimestampsFixture() { REQUIRE(query); }

  // A fill signalling `e` on a synchronous immediate list; the event is signalled on return.
  void signalByFill(ze_event_handle_t e) {
    ze_command_list_handle_t l = immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
    uint32_t value = 5;
    REQUIRE(zeCommandListAppendMemoryFill(l, &sink, &value, sizeof value, sizeof value, e, 0,
                                          nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeEventHostSynchronize(e, kPatienceNs) == ZE_RESULT_SUCCESS);
  }
  uint64_t hostNow() {
    uint64_t host = 0, dev = 0;
    REQUIRE(zeDeviceGetGlobalTimestamps(device, &host, &dev) == ZE_RESULT_SUCCESS);
    return host;
  }
  uint32_t sink = 0;
};

ze_event_query_kernel_timestamps_results_ext_properties_t results(
    ze_kernel_timestamp_result_t* kernel, ze_synchronized_timestamp_result_ext_t* synced) {
  return {ZE_STRUCTURE_TYPE_EVENT_QUERY_KERNEL_TIMESTAMPS_RESULTS_EXT_PROPERTIES, nullptr, kernel,
          synced};
}

}  // namespace

TEST_CASE("Given a KERNEL_MAPPED_TIMESTAMP pool, when an event of it is signalled by a command, "
          "then its synchronized timestamps are host time and equal its kernel timestamps",
          "[current_api][timestamps][novalidation]") {
  TimestampsFixture fx;
  ze_event_pool_handle_t pool = fx.pool(2, ZE_EVENT_POOL_FLAG_HOST_VISIBLE | kMapped);
  auto getFlags = extensionFunction<ze_pfnEventPoolGetFlags_t>(fx.driver, "zeEventPoolGetFlags");
  REQUIRE(getFlags);
  ze_event_pool_flags_t flags = 0;
  REQUIRE(getFlags(pool, &flags) == ZE_RESULT_SUCCESS);
  CHECK(flags == (ZE_EVENT_POOL_FLAG_HOST_VISIBLE | kMapped));
  ze_event_handle_t e = fx.event(pool, 0);

  // "The destination memory will be unmodified if the event has not been signaled."
  uint32_t count = 1;
  ze_synchronized_timestamp_result_ext_t synced;
  std::memset(&synced, 0xab, sizeof synced);
  auto r = results(nullptr, &synced);
  CHECK(fx.query(e, fx.device, &count, &r) == ZE_RESULT_NOT_READY);
  CHECK(synced.global.kernelStart == 0xababababababababull);

  const uint64_t before = fx.hostNow();
  fx.signalByFill(e);
  const uint64_t after = fx.hostNow();

  // "if *pCount is zero, then the driver shall update the value with the total number of event
  // packets available": one.
  count = 0;
  REQUIRE(fx.query(e, fx.device, &count, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(count == 1);
  count = 4;  // "greater than the number of event packets available": corrected
  ze_kernel_timestamp_result_t kernel{};
  r = results(&kernel, &synced);
  REQUIRE(fx.query(e, fx.device, &count, &r) == ZE_RESULT_SUCCESS);
  CHECK(count == 1);
  CHECK(before <= synced.global.kernelStart);
  CHECK(synced.global.kernelStart <= synced.global.kernelEnd);
  CHECK(synced.global.kernelEnd <= after);
  CHECK(synced.context.kernelStart == synced.global.kernelStart);
  CHECK(synced.context.kernelEnd == synced.global.kernelEnd);
  CHECK(kernel.global.kernelStart == synced.global.kernelStart);
  CHECK(kernel.global.kernelEnd == synced.global.kernelEnd);
  // The 1.0 query reads the same timestamps from a mapped pool.
  ze_kernel_timestamp_result_t classic{};
  REQUIRE(zeEventQueryKernelTimestamp(e, &classic) == ZE_RESULT_SUCCESS);
  CHECK(classic.global.kernelStart == kernel.global.kernelStart);
  CHECK(classic.global.kernelEnd == kernel.global.kernelEnd);
  // An output structure's stype is not read: 0 or another structure's type is taken as the
  // parameter's, and written (docs/api-coverage.md, "Leniency").
  for (auto stype : {ze_structure_type_t(0), ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES}) {
    r.stype = stype;
    CHECK(fx.query(e, fx.device, &count, &r) == ZE_RESULT_SUCCESS);
    CHECK(r.stype == ZE_STRUCTURE_TYPE_EVENT_QUERY_KERNEL_TIMESTAMPS_RESULTS_EXT_PROPERTIES);
  }
}

TEST_CASE("Given event pool flags, when KERNEL_MAPPED_TIMESTAMP is combined with "
          "KERNEL_TIMESTAMP or flags past it are given, then the pool is refused",
          "[current_api][timestamps][novalidation]") {
  TimestampsFixture fx;
  ze_event_pool_handle_t p = nullptr;
  ze_event_pool_desc_t d{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                         ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP | kMapped, 1};
  // "cannot be combined with ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP"
  CHECK(zeEventPoolCreate(fx.context, &d, 0, nullptr, &p) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  d.flags = 0x10;  // "0xf < desc->flags"
  CHECK(zeEventPoolCreate(fx.context, &d, 0, nullptr, &p) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  CHECK(p == nullptr);
}

TEST_CASE("Given zeEventQueryKernelTimestampsExt, when its input is bad or the pool lacks the "
          "timestamps asked for, then it returns the spec's errors",
          "[current_api][timestamps][novalidation]") {
  TimestampsFixture fx;
  ze_event_handle_t plain = fx.events(1)[0];
  ze_event_handle_t kernelOnly = fx.events(1, ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP)[0];
  ze_event_handle_t mapped = fx.events(1, kMapped)[0];
  fx.signalByFill(plain);
  fx.signalByFill(kernelOnly);
  fx.signalByFill(mapped);
  ze_kernel_timestamp_result_t kernel{};
  ze_synchronized_timestamp_result_ext_t synced{};
  auto r = results(&kernel, &synced);
  uint32_t count = 1;
  CHECK(fx.query(nullptr, fx.device, &count, &r) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(fx.query(mapped, nullptr, &count, &r) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(fx.query(mapped, fx.device, nullptr, &r) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  // pResults "may be null when *pCount is zero", not otherwise.
  CHECK(fx.query(mapped, fx.device, &count, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  // No timestamps at all.
  CHECK(fx.query(plain, fx.device, &count, &r) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  // "For collecting synchronized timestamps, the application must ensure the event was created
  // from an event pool that was created using ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP flag."
  CHECK(fx.query(kernelOnly, fx.device, &count, &r) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  // Kernel timestamps alone are what such a pool has.
  r = results(&kernel, nullptr);
  CHECK(fx.query(kernelOnly, fx.device, &count, &r) == ZE_RESULT_SUCCESS);
  CHECK(kernel.global.kernelEnd >= kernel.global.kernelStart);
  CHECK(kernel.global.kernelStart != 0);
  // Neither buffer: only the count.
  r = results(nullptr, nullptr);
  CHECK(fx.query(mapped, fx.device, &count, &r) == ZE_RESULT_SUCCESS);
  CHECK(count == 1);
}

TEST_CASE("Given the driver, then ZE_extension_event_query_kernel_timestamps is listed, its "
          "function is handed out and the device reports both kinds of result",
          "[current_api][timestamps]") {
  TimestampsFixture fx;
  uint32_t n = 0;
  REQUIRE(zeDriverGetExtensionProperties(fx.driver, &n, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<ze_driver_extension_properties_t> ext(n);
  REQUIRE(zeDriverGetExtensionProperties(fx.driver, &n, ext.data()) == ZE_RESULT_SUCCESS);
  bool listed = false;
  for (const auto& e : ext)
    if (std::string(e.name) == ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_NAME) {
      listed = true;
      CHECK(e.version == ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_VERSION_1_0);
    }
  CHECK(listed);
#ifdef TESSERA_LINKED_DIRECTLY
  CHECK(reinterpret_cast<void*>(fx.query) ==
        reinterpret_cast<void*>(&zeEventQueryKernelTimestampsExt));
#endif
  ze_event_query_kernel_timestamps_ext_properties_t tsProps{
      ZE_STRUCTURE_TYPE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_PROPERTIES, nullptr, 0};
  ze_device_properties_t props{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES, &tsProps};
  REQUIRE(zeDeviceGetProperties(fx.device, &props) == ZE_RESULT_SUCCESS);
  CHECK(tsProps.flags == (ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_FLAG_KERNEL |
                          ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_FLAG_SYNCHRONIZED));
}

TEST_CASE("Given counter-based events with HOST_TIMESTAMP and DEVICE_TIMESTAMP, then only the "
          "host-time one gives synchronized timestamps",
          "[current_api][timestamps][counter_based][novalidation]") {
  TimestampsFixture fx;
  auto create =
      extensionFunction<ze_pfnEventCounterBasedCreate_t>(fx.driver, "zeEventCounterBasedCreate");
  REQUIRE(create);
  auto qd = queueDesc(0, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                      TESSERA_ZE_COMMAND_QUEUE_FLAG_IN_ORDER);
  ze_command_list_handle_t l = nullptr;
  REQUIRE(zeCommandListCreateImmediate(fx.context, fx.device, &qd, &l) == ZE_RESULT_SUCCESS);
  ze_event_handle_t events[2] = {};
  const ze_event_counter_based_flags_t kinds[2] = {ZE_EVENT_COUNTER_BASED_FLAG_HOST_TIMESTAMP,
                                                   ZE_EVENT_COUNTER_BASED_FLAG_DEVICE_TIMESTAMP};
  for (int i = 0; i < 2; ++i) {
    ze_event_counter_based_desc_t d{ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC, nullptr,
                                    ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE | kinds[i], 0, 0};
    REQUIRE(create(fx.context, fx.device, &d, &events[i]) == ZE_RESULT_SUCCESS);
    uint32_t value = 3;
    REQUIRE(zeCommandListAppendMemoryFill(l, &fx.sink, &value, sizeof value, sizeof value,
                                          events[i], 0, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeEventHostSynchronize(events[i], kPatienceNs) == ZE_RESULT_SUCCESS);
  }
  ze_kernel_timestamp_result_t kernel{};
  ze_synchronized_timestamp_result_ext_t synced{};
  auto r = results(&kernel, &synced);
  uint32_t count = 1;
  CHECK(fx.query(events[0], fx.device, &count, &r) == ZE_RESULT_SUCCESS);
  CHECK(synced.global.kernelStart == kernel.global.kernelStart);
  CHECK(synced.global.kernelEnd >= synced.global.kernelStart);
  CHECK(fx.query(events[1], fx.device, &count, &r) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  zeCommandListDestroy(l);
  for (auto e : events) zeEventDestroy(e);
}
