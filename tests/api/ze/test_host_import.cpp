// Intel's experimental host-pointer import (compute-runtime's zex_driver.h; tessera/ze_tessera.h),
// which intel/compute-benchmarks' memory_benchmark asks for by name whenever a placement is
// non-USM host memory, and stops when it is missing: an import makes a range imported, the base
// query answers its start for every address inside it and refuses others, a release ends it, and
// the header's argument errors. Memory imported is copied to and from like any host memory.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "tessera/ze_tessera.h"
#include "ze_exec_support.h"

using namespace tessera::test;

TEST_CASE("Given host memory imported by zexDriverImportExternalPointer, then the base query "
          "answers its start inside it, copies reach it, and a release ends it",
          "[memory][host_import]") {
  ExecFixture fx;
  auto import = extensionFunction<zex_pfnDriverImportExternalPointer_t>(
      fx.driver, "zexDriverImportExternalPointer");
  auto release = extensionFunction<zex_pfnDriverReleaseImportedPointer_t>(
      fx.driver, "zexDriverReleaseImportedPointer");
  auto base = extensionFunction<zex_pfnDriverGetHostPointerBaseAddress_t>(
      fx.driver, "zexDriverGetHostPointerBaseAddress");
  REQUIRE(import);
  REQUIRE(release);
  REQUIRE(base);

  std::vector<uint8_t> a(4096, 0), b(4096, 0);
  uint8_t* pa = a.data();
  REQUIRE(import(fx.driver, pa, a.size()) == ZE_RESULT_SUCCESS);
  void* found = nullptr;
  for (size_t offset : {size_t{0}, size_t{1}, a.size() - 1}) {
    INFO("offset " << offset);
    found = nullptr;
    CHECK(base(fx.driver, pa + offset, &found) == ZE_RESULT_SUCCESS);
    CHECK(found == pa);
  }
  CHECK(base(fx.driver, pa + 1, nullptr) == ZE_RESULT_SUCCESS);  // the out pointer is optional
  // Outside every import: refused, and the out value is left alone.
  found = &found;
  CHECK(base(fx.driver, pa + a.size(), &found) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(base(fx.driver, b.data(), &found) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(found == &found);

  // An overlapping import is refused (inside, at the same start, across the end); an adjacent
  // one is not.
  CHECK(import(fx.driver, pa + 100, 8) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(import(fx.driver, pa, 1) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(import(fx.driver, pa + a.size() - 1, 16) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  REQUIRE(import(fx.driver, b.data(), 100) == ZE_RESULT_SUCCESS);
  CHECK(import(fx.driver, b.data() + 100, 100) == ZE_RESULT_SUCCESS);
  CHECK(base(fx.driver, b.data() + 150, &found) == ZE_RESULT_SUCCESS);
  CHECK(found == b.data() + 100);

  // Copied into and out of like any host memory.
  const uint8_t value = 0x3c;
  auto q = fx.queue();
  auto l = fx.list();
  REQUIRE(zeCommandListAppendMemoryFill(l, pa, &value, 1, a.size(), nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendBarrier(l, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListAppendMemoryCopy(l, b.data(), pa, 200, nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);
  fx.run(q, l);
  CHECK(a[0] == value);
  CHECK(a[4095] == value);
  CHECK(b[199] == value);

  // A release must name an import's start; then the range is no import.
  CHECK(release(fx.driver, pa + 1) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(release(fx.driver, pa) == ZE_RESULT_SUCCESS);
  CHECK(release(fx.driver, pa) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(base(fx.driver, pa, &found) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(release(fx.driver, b.data()) == ZE_RESULT_SUCCESS);
  CHECK(release(fx.driver, b.data() + 100) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given bad arguments, then the host-pointer import functions answer the header's errors",
          "[memory][host_import][errors]") {
  ExecFixture fx;
  auto import = extensionFunction<zex_pfnDriverImportExternalPointer_t>(
      fx.driver, "zexDriverImportExternalPointer");
  auto release = extensionFunction<zex_pfnDriverReleaseImportedPointer_t>(
      fx.driver, "zexDriverReleaseImportedPointer");
  auto base = extensionFunction<zex_pfnDriverGetHostPointerBaseAddress_t>(
      fx.driver, "zexDriverGetHostPointerBaseAddress");
  REQUIRE(import);
  REQUIRE(release);
  REQUIRE(base);
  int x = 0;
  void* out = nullptr;
  CHECK(import(nullptr, &x, sizeof x) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(release(nullptr, &x) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(base(nullptr, &x, &out) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(import(fx.driver, nullptr, 16) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(release(fx.driver, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(base(fx.driver, nullptr, &out) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(import(fx.driver, &x, 0) == ZE_RESULT_ERROR_INVALID_SIZE);
  CHECK(import(fx.driver, &x, SIZE_MAX) == ZE_RESULT_ERROR_INVALID_SIZE);  // past the end
  CHECK(base(fx.driver, &x, &out) == ZE_RESULT_ERROR_INVALID_ARGUMENT);   // nothing imported
}
