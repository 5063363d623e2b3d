// What the memory tests share: a context on the driver's devices, allocation shorthands, the
// extension functions newer than the 1.4 headers, and IPC handles as text for a second process.
#pragma once

#include <level_zero/ze_api.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "ze_test_support.h"

namespace tessera::test {

struct MemoryFixture {
  ze_driver_handle_t driver = initDriver();
  std::vector<ze_device_handle_t> devs = devices(driver);
  ze_device_handle_t device = devs.at(0);
  ze_context_handle_t context = makeContext();

  ~MemoryFixture() { zeContextDestroy(context); }

  ze_context_handle_t makeContext() {
    ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    ze_context_handle_t c = nullptr;
    REQUIRE(zeContextCreate(driver, &desc, &c) == ZE_RESULT_SUCCESS);
    return c;
  }
  static ze_device_mem_alloc_desc_t deviceDesc(const void* pNext = nullptr) {
    return {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, pNext, 0, 0};
  }
  static ze_host_mem_alloc_desc_t hostDesc(const void* pNext = nullptr) {
    return {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, pNext, 0};
  }
  void* allocDevice(size_t size, size_t alignment = 0, ze_device_handle_t on = nullptr) {
    auto d = deviceDesc();
    void* p = nullptr;
    REQUIRE(zeMemAllocDevice(context, &d, size, alignment, on ? on : device, &p) ==
            ZE_RESULT_SUCCESS);
    REQUIRE(p != nullptr);
    return p;
  }
  void* allocHost(size_t size, size_t alignment = 0) {
    auto h = hostDesc();
    void* p = nullptr;
    REQUIRE(zeMemAllocHost(context, &h, size, alignment, &p) == ZE_RESULT_SUCCESS);
    REQUIRE(p != nullptr);
    return p;
  }
  void* allocShared(size_t size, size_t alignment = 0, ze_device_handle_t on = nullptr) {
    auto d = deviceDesc();
    auto h = hostDesc();
    void* p = nullptr;
    REQUIRE(zeMemAllocShared(context, &d, &h, size, alignment, on, &p) == ZE_RESULT_SUCCESS);
    REQUIRE(p != nullptr);
    return p;
  }
  ze_memory_allocation_properties_t props(const void* p, ze_device_handle_t* dev = nullptr,
                                          ze_context_handle_t in = nullptr) {
    ze_memory_allocation_properties_t a{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    REQUIRE(zeMemGetAllocProperties(in ? in : context, p, &a, dev) == ZE_RESULT_SUCCESS);
    return a;
  }
  ze_pfnMemPutIpcHandle_t putIpcHandle() {
    auto f = extensionFunction<ze_pfnMemPutIpcHandle_t>(driver, "zeMemPutIpcHandle");
    REQUIRE(f != nullptr);
    return f;
  }
  ze_pfnMemFreeExt_t freeExt() {
    auto f = extensionFunction<ze_pfnMemFreeExt_t>(driver, "zeMemFreeExt");
    REQUIRE(f != nullptr);
    return f;
  }
};

// IPC handles (memory or event pool) as hex text, to hand to a child process.
template <typename Handle>
std::string toHex(const Handle& h) {
  std::string s;
  char b[3];
  for (unsigned char c : h.data) {
    std::snprintf(b, sizeof b, "%02x", c);
    s += b;
  }
  return s;
}

template <typename Handle = ze_ipc_mem_handle_t>
Handle fromHex(const std::string& s) {
  Handle h{};
  for (size_t i = 0; i < sizeof h.data && 2 * i + 1 < s.size(); ++i)
    h.data[i] = static_cast<char>(std::stoi(s.substr(2 * i, 2), nullptr, 16));
  return h;
}

// Tests that run only as a second process (tagged [.]) do nothing unless this variable is set, so a
// filter such as "~[novalidation]" that selects hidden tests does not run them by accident.
inline const char* childRole() {
  return std::getenv("TESSERA_TEST_MEMORY_CHILD");
}

}  // namespace tessera::test
