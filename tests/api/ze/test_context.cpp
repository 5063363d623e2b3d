// Contexts: creation for all devices, for some devices (sub-devices included), destruction, and
// creation in bulk and from several threads at once.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <set>
#include <thread>
#include <vector>

#include "ze_test_support.h"

namespace {

ze_context_desc_t desc(ze_context_flags_t flags = 0) {
  ze_context_desc_t d{};
  d.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC;
  d.flags = flags;
  return d;
}

// Creates, checks and destroys a context for `devices` (zeContextCreateEx) or for all (null).
void createUseDestroy(ze_driver_handle_t driver, std::vector<ze_device_handle_t>* devices) {
  ze_context_desc_t d = desc();
  ze_context_handle_t ctx = nullptr;
  if (devices)
    REQUIRE(zeContextCreateEx(driver, &d, static_cast<uint32_t>(devices->size()),
                              devices->empty() ? nullptr : devices->data(),
                              &ctx) == ZE_RESULT_SUCCESS);
  else
    REQUIRE(zeContextCreate(driver, &d, &ctx) == ZE_RESULT_SUCCESS);
  REQUIRE(ctx != nullptr);
  CHECK(zeContextGetStatus(ctx) == ZE_RESULT_SUCCESS);
  CHECK(zeContextDestroy(ctx) == ZE_RESULT_SUCCESS);
}

}  // namespace

TEST_CASE(
    "Given the driver, when a context is created for all devices, then it is usable and can "
    "be destroyed",
    "[context]") {
  createUseDestroy(tessera::test::initDriver(), nullptr);
}

TEST_CASE("Given the driver, when a context is created with the reserved flag, then it is accepted",
          "[context]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  ze_context_desc_t d = desc(ZE_CONTEXT_FLAG_TBD);
  ze_context_handle_t ctx = nullptr;
  REQUIRE(zeContextCreate(driver, &d, &ctx) == ZE_RESULT_SUCCESS);
  CHECK(zeContextDestroy(ctx) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given the driver, when zeContextCreateEx names every device, then the context is usable",
          "[context]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  auto devices = tessera::test::devices(driver);
  createUseDestroy(driver, &devices);
}

TEST_CASE("Given a sub-device, when zeContextCreateEx names only it, then the context is usable",
          "[context]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  bool any = false;
  for (ze_device_handle_t root : tessera::test::devices(driver))
    for (ze_device_handle_t sub : tessera::test::subDevices(root)) {
      std::vector<ze_device_handle_t> one{sub};
      createUseDestroy(driver, &one);
      any = true;
    }
  if (!any) WARN("this machine's devices have no sub-devices");
}

TEST_CASE(
    "Given a device and its sub-devices, when zeContextCreateEx names them all, then the "
    "context is usable",
    "[context]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  for (ze_device_handle_t root : tessera::test::devices(driver)) {
    auto list = tessera::test::subDevices(root);
    list.push_back(root);
    createUseDestroy(driver, &list);
  }
}

TEST_CASE("Given the driver, when zeContextCreateEx names no device, then it is a context for all",
          "[context]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  std::vector<ze_device_handle_t> none;
  createUseDestroy(driver, &none);
}

TEST_CASE("Given two contexts, when one is destroyed, then the other is still usable",
          "[context]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  ze_context_desc_t d = desc();
  ze_context_handle_t a = nullptr, b = nullptr;
  REQUIRE(zeContextCreate(driver, &d, &a) == ZE_RESULT_SUCCESS);
  REQUIRE(zeContextCreate(driver, &d, &b) == ZE_RESULT_SUCCESS);
  CHECK(a != b);
  CHECK(zeContextDestroy(a) == ZE_RESULT_SUCCESS);
  CHECK(zeContextGetStatus(b) == ZE_RESULT_SUCCESS);
  CHECK(zeContextDestroy(b) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given the driver, when 1000 contexts are created and destroyed one after another, then "
    "each succeeds",
    "[context]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  ze_context_desc_t d = desc();
  int failures = 0;
  for (int i = 0; i < 1000; ++i) {
    ze_context_handle_t ctx = nullptr;
    if (zeContextCreate(driver, &d, &ctx) != ZE_RESULT_SUCCESS || !ctx ||
        zeContextGetStatus(ctx) != ZE_RESULT_SUCCESS || zeContextDestroy(ctx) != ZE_RESULT_SUCCESS)
      ++failures;
  }
  CHECK(failures == 0);
}

TEST_CASE(
    "Given the driver, when 1000 contexts are alive at once, then they are distinct and all "
    "can be destroyed",
    "[context]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  ze_context_desc_t d = desc();
  std::vector<ze_context_handle_t> contexts(1000, nullptr);
  for (auto& ctx : contexts) REQUIRE(zeContextCreate(driver, &d, &ctx) == ZE_RESULT_SUCCESS);
  CHECK(std::set<ze_context_handle_t>(contexts.begin(), contexts.end()).size() == contexts.size());
  int failures = 0;
  for (auto ctx : contexts)
    if (zeContextDestroy(ctx) != ZE_RESULT_SUCCESS) ++failures;
  CHECK(failures == 0);
}

TEST_CASE(
    "Given several threads, when each creates and destroys contexts at once, then every "
    "call succeeds and live contexts are distinct",
    "[context]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  auto devices = tessera::test::devices(driver);
  constexpr int kThreads = 8, kEach = 200;
  std::vector<std::vector<ze_context_handle_t>> made(kThreads);
  std::vector<int> failures(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      ze_context_desc_t d = desc();
      for (int i = 0; i < kEach; ++i) {
        ze_context_handle_t ctx = nullptr;
        ze_result_t r =
            i % 2 ? zeContextCreate(driver, &d, &ctx)
                  : zeContextCreateEx(driver, &d, uint32_t(devices.size()), devices.data(), &ctx);
        if (r != ZE_RESULT_SUCCESS || !ctx) {
          ++failures[t];
          continue;
        }
        // Destroy one in four now and keep the rest alive until all threads are done.
        if (i % 4 == 0) {
          if (zeContextDestroy(ctx) != ZE_RESULT_SUCCESS) ++failures[t];
        } else {
          made[t].push_back(ctx);
        }
      }
    });
  for (auto& th : threads) th.join();
  std::set<ze_context_handle_t> live;
  size_t total = 0;
  for (int t = 0; t < kThreads; ++t) {
    CHECK(failures[t] == 0);
    live.insert(made[t].begin(), made[t].end());
    total += made[t].size();
  }
  CHECK(live.size() == total);
  for (auto ctx : live) {
    CHECK(zeContextGetStatus(ctx) == ZE_RESULT_SUCCESS);
    CHECK(zeContextDestroy(ctx) == ZE_RESULT_SUCCESS);
  }
}
