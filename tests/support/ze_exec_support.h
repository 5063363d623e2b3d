// Helpers for the execution-model tests (queues, lists, events, fences): one context on the first
// device, and creators that remember what they made so the fixture destroys it, in a safe order,
// when the test ends. Buffers are ordinary host memory: the device reports shared system
// allocations.
#pragma once

#include <level_zero/ze_api.h>

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "watched_child.h"
#include "ze_test_support.h"

namespace tessera::test {

// Fails when a call does not succeed, naming the call.
#define ZE_CHECK_OK(call) REQUIRE((call) == ZE_RESULT_SUCCESS)

// extensionFunction for a function the test needs: fails the test, naming it, when the driver does
// not give it.
template <typename Fn>
Fn requiredFunction(ze_driver_handle_t driver, const char* name) {
  Fn f = extensionFunction<Fn>(driver, name);
  INFO(name);
  REQUIRE(f);
  return f;
}

// How long a test waits for something that must happen before it calls the driver broken: long
// enough for a loaded two-core machine, short enough that a hang shows up as a failure.
constexpr uint64_t kPatienceNs = 30'000'000'000ull;

inline ze_command_queue_desc_t queueDesc(
    uint32_t ordinal = 0, uint32_t index = 0,
    ze_command_queue_mode_t mode = ZE_COMMAND_QUEUE_MODE_DEFAULT,
    ze_command_queue_flags_t flags = 0) {
  return {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, ordinal, index, flags, mode,
          ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
}

class ExecFixture {
 public:
  ze_driver_handle_t driver = initDriver();
  ze_device_handle_t device = devices(driver).at(0);
  ze_context_handle_t context = nullptr;

  explicit ExecFixture(ze_device_handle_t dev = nullptr) {
    if (dev) device = dev;
    ze_context_desc_t d{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    REQUIRE(zeContextCreate(driver, &d, &context) == ZE_RESULT_SUCCESS);
  }
  ExecFixture(const ExecFixture&) = delete;
  ExecFixture& operator=(const ExecFixture&) = delete;

  // Lists first, then queues (which cancels what still waits), then events, pools, the context.
  ~ExecFixture() {
    for (auto l : lists_) zeCommandListDestroy(l);
    for (auto f : fences_) zeFenceDestroy(f);
    for (auto q : queues_) zeCommandQueueDestroy(q);
    for (auto e : events_) zeEventDestroy(e);
    for (auto p : pools_) zeEventPoolDestroy(p);
    zeContextDestroy(context);
  }

  ze_command_queue_handle_t queue(uint32_t ordinal = 0, uint32_t index = 0,
                                  ze_command_queue_mode_t mode = ZE_COMMAND_QUEUE_MODE_DEFAULT,
                                  ze_command_queue_flags_t flags = 0) {
    auto d = queueDesc(ordinal, index, mode, flags);
    ze_command_queue_handle_t q = nullptr;
    REQUIRE(zeCommandQueueCreate(context, device, &d, &q) == ZE_RESULT_SUCCESS);
    queues_.push_back(q);
    return q;
  }

  ze_command_list_handle_t list(uint32_t ordinal = 0, ze_command_list_flags_t flags = 0) {
    ze_command_list_desc_t d{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, ordinal, flags};
    ze_command_list_handle_t l = nullptr;
    REQUIRE(zeCommandListCreate(context, device, &d, &l) == ZE_RESULT_SUCCESS);
    lists_.push_back(l);
    return l;
  }

  ze_command_list_handle_t immediate(ze_command_queue_mode_t mode, uint32_t ordinal = 0) {
    auto d = queueDesc(ordinal, 0, mode);
    ze_command_list_handle_t l = nullptr;
    REQUIRE(zeCommandListCreateImmediate(context, device, &d, &l) == ZE_RESULT_SUCCESS);
    lists_.push_back(l);
    return l;
  }

  ze_event_pool_handle_t pool(uint32_t count,
                              ze_event_pool_flags_t flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE) {
    ze_event_pool_desc_t d{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, flags, count};
    ze_event_pool_handle_t p = nullptr;
    REQUIRE(zeEventPoolCreate(context, &d, 0, nullptr, &p) == ZE_RESULT_SUCCESS);
    pools_.push_back(p);
    return p;
  }

  ze_event_handle_t event(ze_event_pool_handle_t p, uint32_t index) {
    ze_event_desc_t d{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, index, 0, ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t e = nullptr;
    REQUIRE(zeEventCreate(p, &d, &e) == ZE_RESULT_SUCCESS);
    events_.push_back(e);
    return e;
  }

  // `n` host-visible events in a pool of their own.
  std::vector<ze_event_handle_t> events(
      uint32_t n, ze_event_pool_flags_t flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE) {
    ze_event_pool_handle_t p = pool(n, flags);
    std::vector<ze_event_handle_t> out;
    for (uint32_t i = 0; i < n; ++i) out.push_back(event(p, i));
    return out;
  }

  ze_fence_handle_t fence(ze_command_queue_handle_t q, ze_fence_flags_t flags = 0) {
    ze_fence_desc_t d{ZE_STRUCTURE_TYPE_FENCE_DESC, nullptr, flags};
    ze_fence_handle_t f = nullptr;
    REQUIRE(zeFenceCreate(q, &d, &f) == ZE_RESULT_SUCCESS);
    fences_.push_back(f);
    return f;
  }

  // Forget a handle the test destroyed itself.
  template <typename H>
  void forget(H h) {
    auto drop = [&](auto& v) {
      for (auto it = v.begin(); it != v.end(); ++it)
        if (reinterpret_cast<void*>(*it) == reinterpret_cast<void*>(h)) {
          v.erase(it);
          return;
        }
    };
    drop(lists_), drop(fences_), drop(queues_), drop(events_), drop(pools_);
  }

  // Closes `l`, runs it on `q` and waits for the queue.
  void run(ze_command_queue_handle_t q, ze_command_list_handle_t l) {
    REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(zeCommandQueueSynchronize(q, kPatienceNs) == ZE_RESULT_SUCCESS);
  }

 private:
  std::vector<ze_command_list_handle_t> lists_;
  std::vector<ze_fence_handle_t> fences_;
  std::vector<ze_command_queue_handle_t> queues_;
  std::vector<ze_event_handle_t> events_;
  std::vector<ze_event_pool_handle_t> pools_;
};

// Bytes 0..n-1 of a recognisable pattern that depends on `seed`.
inline std::vector<uint8_t> patternBytes(size_t n, uint32_t seed) {
  std::vector<uint8_t> v(n);
  uint32_t x = seed * 2654435761u + 12345u;
  for (size_t i = 0; i < n; ++i) {
    x = x * 1103515245u + 12345u;
    v[i] = static_cast<uint8_t>(x >> 16);
  }
  return v;
}

}  // namespace tessera::test
