// zeInit and zeInitDrivers: idempotent, thread-safe, and a CPU driver offers nothing to GPU-only or
// VPU-only (NPU) callers.
// What happens before the first zeInit needs a process of its own: the tests tagged
// [.fresh_process] run only in a copy of this binary that the parent tests start with
// kFreshProcessVar set.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "ze_test_support.h"

namespace {

constexpr const char* kFreshProcessVar = "TESSERA_TEST_FRESH_PROCESS";

// Hidden tests still run under a filter such as "~[novalidation]": they do nothing unless started
// by runFreshProcess.
bool inFreshProcess() {
  return std::getenv(kFreshProcessVar) != nullptr;
}

// Runs the test case named `name` alone in a new copy of this binary and checks that it passed.
void runFreshProcess(const std::string& name) {
  auto r = tessera::test::runProgram({"/proc/self/exe", name}, {{kFreshProcessVar, "1"}});
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.exitCode == 0);
  CHECK(r.out.find("All tests passed") != std::string::npos);
  CHECK(r.out.find("1 test case") != std::string::npos);
}

ze_driver_handle_t theDriver() {
  uint32_t n = 1;
  ze_driver_handle_t driver = nullptr;
  REQUIRE(zeDriverGet(&n, &driver) == ZE_RESULT_SUCCESS);
  REQUIRE(n == 1);
  return driver;
}

// zeInit(0) then zeDriverGet from several threads at once: all succeed with the same driver.
void initFromThreads() {
  constexpr int kThreads = 8;
  std::vector<ze_result_t> results(kThreads, ZE_RESULT_ERROR_UNKNOWN);
  std::vector<ze_driver_handle_t> drivers(kThreads, nullptr);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] {
      results[i] = zeInit(0);
      uint32_t n = 1;
      if (results[i] == ZE_RESULT_SUCCESS) results[i] = zeDriverGet(&n, &drivers[i]);
    });
  for (auto& t : threads) t.join();
  for (int i = 0; i < kThreads; ++i) {
    CHECK(results[i] == ZE_RESULT_SUCCESS);
    CHECK(drivers[i] != nullptr);
    CHECK(drivers[i] == drivers[0]);
  }
}

}  // namespace

TEST_CASE("fresh process: zeDriverGet before zeInit is UNINITIALIZED", "[.fresh_process]") {
  if (!inFreshProcess()) return;
  uint32_t n = 0;
  CHECK(zeDriverGet(&n, nullptr) == ZE_RESULT_ERROR_UNINITIALIZED);
  // and zeInit still works afterwards
  REQUIRE(zeInit(0) == ZE_RESULT_SUCCESS);
  n = 0;
  REQUIRE(zeDriverGet(&n, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(n == 1);
}

TEST_CASE(
    "Given a fresh process, when zeDriverGet is called before zeInit, then it is UNINITIALIZED",
    "[init]") {
  runFreshProcess("fresh process: zeDriverGet before zeInit is UNINITIALIZED");
}

TEST_CASE("fresh process: zeInit GPU_ONLY first", "[.fresh_process]") {
  if (!inFreshProcess()) return;
  ze_result_t r = zeInit(ZE_INIT_FLAG_GPU_ONLY);
#ifdef TESSERA_LINKED_DIRECTLY
  CHECK(r == ZE_RESULT_ERROR_UNINITIALIZED);
  uint32_t n = 0;
  CHECK(zeDriverGet(&n, nullptr) == ZE_RESULT_ERROR_UNINITIALIZED);
  // A refused zeInit does not stop a later zeInit(0).
  CHECK(zeInit(0) == ZE_RESULT_SUCCESS);
  n = 0;
  CHECK(zeDriverGet(&n, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(n == 1);
#else
  // Tessera refuses, so the loader has no driver to offer. Nothing more is called: Debian's loader
  // (libze1 1.8.12) unloads a driver whose zeInit fails but keeps calling into it, so a zeDriverGet
  // here dies of SIGSEGV inside the loader (zeInit(0) afterwards only returns UNINITIALIZED).
  CHECK(r != ZE_RESULT_SUCCESS);
#endif
}

TEST_CASE("Given a fresh process, when zeInit(GPU_ONLY) comes first, then Tessera offers no driver",
          "[init]") {
  runFreshProcess("fresh process: zeInit GPU_ONLY first");
}

#ifndef TESSERA_LINKED_DIRECTLY
TEST_CASE("fresh process: zeInit GPU_ONLY after zeInit 0", "[.fresh_process]") {
  if (!inFreshProcess()) return;
  ze_driver_handle_t driver = tessera::test::initDriver();
  // What the loader answers is its own business; it must answer, and leave a driver that is either
  // Tessera's, unchanged, or none.
  zeInit(ZE_INIT_FLAG_GPU_ONLY);
  zeInit(ZE_INIT_FLAG_VPU_ONLY);
  uint32_t n = 1;
  ze_driver_handle_t again = nullptr;
  if (zeDriverGet(&n, &again) == ZE_RESULT_SUCCESS && n == 1) CHECK(again == driver);
  SUCCEED("the loader survived zeInit(GPU_ONLY) and zeInit(VPU_ONLY) after zeInit(0)");
}

// In a process of its own, so that a crash, or a loader that drops the driver, fails only this
// test.
TEST_CASE(
    "Given the loader and an initialized driver, when zeInit asks for GPU or VPU drivers "
    "only, then nothing crashes",
    "[init]") {
  runFreshProcess("fresh process: zeInit GPU_ONLY after zeInit 0");
}
#endif

TEST_CASE(
    "Given an initialized driver, when zeInit(0) is called again, then it succeeds and the "
    "driver handle is unchanged",
    "[init]") {
  ze_driver_handle_t first = tessera::test::initDriver();
  REQUIRE(zeInit(0) == ZE_RESULT_SUCCESS);
  REQUIRE(zeInit(0) == ZE_RESULT_SUCCESS);
  CHECK(theDriver() == first);
}

TEST_CASE(
    "Given an initialized driver, when several threads call zeInit(0) at once, then all "
    "succeed and see the same driver",
    "[init]") {
  tessera::test::initDriver();
  initFromThreads();
}

TEST_CASE("fresh process: concurrent first zeInit", "[.fresh_process]") {
  if (!inFreshProcess()) return;
  initFromThreads();
}

TEST_CASE(
    "Given a fresh process, when several threads make the first zeInit(0) calls at once, "
    "then all succeed and see the same driver",
    "[init]") {
  runFreshProcess("fresh process: concurrent first zeInit");
}

#ifdef TESSERA_LINKED_DIRECTLY
// Through the loader these flags reach Tessera only on the loader's terms (it initializes drivers
// once and may drop one that refuses), so they are checked on the library itself.
TEST_CASE(
    "Given the driver library, when zeInit asks for GPU or VPU drivers only, then it is "
    "UNINITIALIZED and the driver stays usable",
    "[init]") {
  ze_driver_handle_t driver = tessera::test::initDriver();
  CHECK(zeInit(ZE_INIT_FLAG_GPU_ONLY) == ZE_RESULT_ERROR_UNINITIALIZED);
  CHECK(zeInit(ZE_INIT_FLAG_VPU_ONLY) == ZE_RESULT_ERROR_UNINITIALIZED);
  CHECK(zeInit(ZE_INIT_FLAG_GPU_ONLY | ZE_INIT_FLAG_VPU_ONLY) == ZE_RESULT_ERROR_UNINITIALIZED);
  CHECK(theDriver() == driver);
}

TEST_CASE(
    "Given the driver library, when zeInit gets an unknown flag bit, then it is "
    "INVALID_ENUMERATION",
    "[init]") {
  CHECK(zeInit(ze_init_flags_t(1u << 2)) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  CHECK(zeInit(ze_init_flags_t(0x80000000u)) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  CHECK(zeInit(ZE_INIT_FLAG_GPU_ONLY | ze_init_flags_t(1u << 5)) ==
        ZE_RESULT_ERROR_INVALID_ENUMERATION);
}
#endif

#ifdef TESSERA_LINKED_DIRECTLY
// zeInitDrivers (Level Zero 1.10) as the first call of a process: the GPU and NPU types do not name
// a CPU driver, so they initialize nothing; UINT32_MAX (every type) initializes Tessera and returns
// the driver zeDriverGet returns. (Through Debian's loader, which predates zeInitDrivers, the
// function is reached only after zeInit: test_current_api.cpp.)
TEST_CASE("fresh process: zeInitDrivers first", "[.fresh_process]") {
  if (!inFreshProcess()) return;
  ze_init_driver_type_desc_t desc{ZE_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC, nullptr,
                                  ZE_INIT_DRIVER_TYPE_FLAG_GPU | ZE_INIT_DRIVER_TYPE_FLAG_NPU};
  uint32_t n = 3;
  CHECK(zeInitDrivers(&n, nullptr, &desc) == ZE_RESULT_ERROR_UNINITIALIZED);
  CHECK(n == 0);
  n = 0;
  CHECK(zeDriverGet(&n, nullptr) == ZE_RESULT_ERROR_UNINITIALIZED);
  desc.flags = UINT32_MAX;
  n = 0;
  REQUIRE(zeInitDrivers(&n, nullptr, &desc) == ZE_RESULT_SUCCESS);
  REQUIRE(n == 1);
  ze_driver_handle_t fromInit = nullptr;
  REQUIRE(zeInitDrivers(&n, &fromInit, &desc) == ZE_RESULT_SUCCESS);
  CHECK(fromInit != nullptr);
  CHECK(theDriver() == fromInit);
  // The GPU type still returns nothing, and leaves the driver initialized.
  desc.flags = ZE_INIT_DRIVER_TYPE_FLAG_GPU;
  n = 0;
  CHECK(zeInitDrivers(&n, nullptr, &desc) == ZE_RESULT_ERROR_UNINITIALIZED);
  CHECK(n == 0);
  CHECK(theDriver() == fromInit);
}

TEST_CASE("Given a fresh process, when zeInitDrivers comes first, then only UINT32_MAX (every "
          "driver type) initializes Tessera and returns its driver",
          "[init][current_api]") {
  runFreshProcess("fresh process: zeInitDrivers first");
}
#endif
