// zeMemSetAtomicAccessAttributeExp / zeMemGetAtomicAccessAttributeExp (Level Zero 1.7): the get
// answers the last set for the range, 0 where none was, and forgets it when the allocation is freed;
// the header's argument errors. Reached through zeDriverGetExtensionFunctionAddress (Debian's loader
// has no slot for them); the direct build also checks the MemExp table a current loader reads.
#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <vector>

#include "tessera/ze_tessera.h"
#include "ze_exec_support.h"

using namespace tessera::test;

#ifdef TESSERA_LINKED_DIRECTLY
extern "C" ze_result_t ZE_APICALL zeGetMemExpProcAddrTable(ze_api_version_t, void*);
#endif

TEST_CASE(
    "Given atomic access attributes set on shared, host and system memory, then each get answers "
    "the last set for the range and 0 where none was",
    "[memory][atomics]") {
  ExecFixture fx;
  auto set = extensionFunction<ze_pfnMemSetAtomicAccessAttributeExp_t>(
      fx.driver, "zeMemSetAtomicAccessAttributeExp");
  auto get = extensionFunction<ze_pfnMemGetAtomicAccessAttributeExp_t>(
      fx.driver, "zeMemGetAtomicAccessAttributeExp");
  REQUIRE(set);
  REQUIRE(get);
  ze_device_mem_alloc_desc_t dd{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
  ze_host_mem_alloc_desc_t hd{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
  void* shared = nullptr;
  REQUIRE(zeMemAllocShared(fx.context, &dd, &hd, 4096, 64, fx.device, &shared) ==
          ZE_RESULT_SUCCESS);
  void* host = nullptr;
  REQUIRE(zeMemAllocHost(fx.context, &hd, 4096, 64, &host) == ZE_RESULT_SUCCESS);
  std::vector<int> system(1024);
  ze_memory_atomic_attr_exp_flags_t attr = 0x55;
  for (void* p : {shared, host, static_cast<void*>(system.data())}) {
    INFO("memory " << p);
    CHECK(get(fx.context, fx.device, p, 4096, &attr) == ZE_RESULT_SUCCESS);
    CHECK(attr == 0);
    for (uint32_t flag = 1; flag <= ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_SYSTEM_ATOMICS; flag <<= 1) {
      CHECK(set(fx.context, fx.device, p, 4096, flag) == ZE_RESULT_SUCCESS);
      CHECK(get(fx.context, fx.device, p, 4096, &attr) == ZE_RESULT_SUCCESS);
      CHECK(attr == flag);
    }
    // A later set of part of the range: that part answers it, the rest the earlier one.
    auto* bytes = static_cast<uint8_t*>(p);
    CHECK(set(fx.context, fx.device, bytes + 1024, 1024,
              ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_ATOMICS) == ZE_RESULT_SUCCESS);
    CHECK(get(fx.context, fx.device, bytes + 1024, 16, &attr) == ZE_RESULT_SUCCESS);
    CHECK(attr == ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_ATOMICS);
    CHECK(get(fx.context, fx.device, bytes + 3000, 16, &attr) == ZE_RESULT_SUCCESS);
    CHECK(attr == ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_SYSTEM_ATOMICS);
    CHECK(get(fx.context, fx.device, bytes, 16, &attr) == ZE_RESULT_SUCCESS);
    CHECK(attr == ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_SYSTEM_ATOMICS);
  }
  // Freed memory forgets its attributes.
  REQUIRE(zeMemFree(fx.context, shared) == ZE_RESULT_SUCCESS);
  void* again = nullptr;
  REQUIRE(zeMemAllocShared(fx.context, &dd, &hd, 4096, 64, fx.device, &again) ==
          ZE_RESULT_SUCCESS);
  CHECK(get(fx.context, fx.device, again, 4096, &attr) == ZE_RESULT_SUCCESS);
  if (again == shared) CHECK(attr == 0);
  // The header's errors.
  CHECK(set(nullptr, fx.device, again, 64, 0) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(set(fx.context, nullptr, again, 64, 0) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(set(fx.context, fx.device, nullptr, 64, 0) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(set(fx.context, fx.device, again, 64, 0x80) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  CHECK(get(fx.context, fx.device, again, 64, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(get(fx.context, nullptr, again, 64, &attr) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  zeMemFree(fx.context, again);
  zeMemFree(fx.context, host);
}

#ifdef TESSERA_LINKED_DIRECTLY
TEST_CASE("Given the MemExp table getter, then it fills the 1.7 slots only for 1.7 and later",
          "[memory][atomics][ddi]") {
  void* sentinel;
  std::memset(&sentinel, 0xa5, sizeof sentinel);
  std::vector<void*> t(5, sentinel);
  REQUIRE(zeGetMemExpProcAddrTable(ZE_API_VERSION_1_4, t.data()) == ZE_RESULT_SUCCESS);
  for (void* slot : t) CHECK(slot == sentinel);
  REQUIRE(zeGetMemExpProcAddrTable(ze_api_version_t(ZE_MAKE_VERSION(1, 7)), t.data()) ==
          ZE_RESULT_SUCCESS);
  CHECK(t[0] == sentinel);
  CHECK(t[1] == sentinel);
  CHECK(t[2] == reinterpret_cast<void*>(&zeMemSetAtomicAccessAttributeExp));
  CHECK(t[3] == reinterpret_cast<void*>(&zeMemGetAtomicAccessAttributeExp));
  CHECK(t[4] == sentinel);
}
#endif
