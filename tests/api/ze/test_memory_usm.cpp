// USM allocations: zeMemAlloc{Host,Device,Shared}, zeMemFree, zeMemFreeExt,
// zeMemGetAllocProperties, zeMemGetAddressRange; their error cases and many threads at once.
#include <atomic>
#include <cstring>
#include <random>
#include <thread>

#include "memory_test_support.h"

using namespace tessera::test;

TEST_CASE_METHOD(MemoryFixture,
                 "Given a context, when host, device and shared memory is allocated, then it is "
                 "usable and its properties say what it is",
                 "[memory]") {
  for (size_t size : {size_t{1}, size_t{64}, size_t{4096}, size_t{5000}, size_t{1} << 20}) {
    void* h = allocHost(size);
    void* d = allocDevice(size);
    void* s = allocShared(size, 0, device);
    void* s0 = allocShared(size);
    for (void* p : {h, d, s, s0}) std::memset(p, 0x5a, size);  // a CPU device: host-accessible
    ze_device_handle_t dev = reinterpret_cast<ze_device_handle_t>(1);
    CHECK(props(h, &dev).type == ZE_MEMORY_TYPE_HOST);
    CHECK(dev == nullptr);
    auto pd = props(d, &dev);
    CHECK(pd.type == ZE_MEMORY_TYPE_DEVICE);
    CHECK(dev == device);
    CHECK(pd.pageSize == 4096);
    CHECK(props(s, &dev).type == ZE_MEMORY_TYPE_SHARED);
    CHECK(dev == device);
    CHECK(props(s0, &dev).type == ZE_MEMORY_TYPE_SHARED);
    CHECK(dev == nullptr);
    // ids are unique
    CHECK(props(h).id != props(d).id);
    CHECK(props(d).id != props(s).id);
    // interior pointers belong to their allocation
    void* base = nullptr;
    size_t got = 0;
    auto* last = static_cast<char*>(d) + size - 1;
    REQUIRE(zeMemGetAddressRange(context, last, &base, &got) == ZE_RESULT_SUCCESS);
    CHECK(base == d);
    CHECK(got == size);
    CHECK(props(last).id == pd.id);
    CHECK(zeMemGetAddressRange(context, d, nullptr, nullptr) == ZE_RESULT_SUCCESS);
    for (void* p : {h, d, s, s0}) CHECK(zeMemFree(context, p) == ZE_RESULT_SUCCESS);
  }
}

TEST_CASE_METHOD(MemoryFixture,
                 "Given an alignment of zero or a power of two, when memory is allocated, then the "
                 "pointer is aligned to it",
                 "[memory]") {
  for (size_t alignment : {size_t{0}, size_t{1}, size_t{8}, size_t{64}, size_t{4096}, size_t{65536},
                           size_t{1} << 21}) {
    for (size_t size : {size_t{24}, size_t{70000}}) {
      void* p = allocDevice(size, alignment);
      void* q = allocHost(size, alignment);
      if (alignment) {
        CHECK(reinterpret_cast<uintptr_t>(p) % alignment == 0);
        CHECK(reinterpret_cast<uintptr_t>(q) % alignment == 0);
      }
      CHECK(zeMemFree(context, p) == ZE_RESULT_SUCCESS);
      CHECK(zeMemFree(context, q) == ZE_RESULT_SUCCESS);
    }
  }
}

TEST_CASE_METHOD(MemoryFixture, "Given small allocations, then each has pages of its own",
                 "[memory]") {
  // "At a minimum, drivers will assign unique physical pages for each device and shared memory
  // allocation."
  std::vector<void*> ptrs;
  for (int i = 0; i < 64; ++i) ptrs.push_back(allocDevice(64));
  std::vector<uintptr_t> pages;
  for (void* p : ptrs) pages.push_back(reinterpret_cast<uintptr_t>(p) / 4096);
  std::sort(pages.begin(), pages.end());
  CHECK(std::adjacent_find(pages.begin(), pages.end()) == pages.end());
  for (void* p : ptrs) CHECK(zeMemFree(context, p) == ZE_RESULT_SUCCESS);
}

TEST_CASE_METHOD(MemoryFixture,
                 "Given bad arguments, when memory is allocated, then each gets the error the "
                 "spec names",
                 "[memory]") {
  auto d = deviceDesc();
  auto h = hostDesc();
  void* p = nullptr;
  CHECK(zeMemAllocDevice(nullptr, &d, 64, 0, device, &p) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeMemAllocDevice(context, &d, 64, 0, nullptr, &p) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeMemAllocHost(nullptr, &h, 64, 0, &p) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeMemAllocShared(nullptr, &d, &h, 64, 0, nullptr, &p) ==
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeMemAllocDevice(context, nullptr, 64, 0, device, &p) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeMemAllocDevice(context, &d, 64, 0, device, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeMemAllocHost(context, nullptr, 64, 0, &p) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeMemAllocHost(context, &h, 64, 0, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeMemAllocShared(context, nullptr, &h, 64, 0, nullptr, &p) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeMemAllocShared(context, &d, nullptr, 64, 0, nullptr, &p) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeMemAllocShared(context, &d, &h, 64, 0, nullptr, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  auto badD = d;
  badD.flags = 0x8;
  auto badH = h;
  badH.flags = 0x10;
  CHECK(zeMemAllocDevice(context, &badD, 64, 0, device, &p) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  CHECK(zeMemAllocHost(context, &badH, 64, 0, &p) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  CHECK(zeMemAllocShared(context, &d, &badH, 64, 0, nullptr, &p) ==
        ZE_RESULT_ERROR_INVALID_ENUMERATION);
  CHECK(zeMemAllocDevice(context, &d, 0, 0, device, &p) == ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  CHECK(zeMemAllocHost(context, &h, 0, 0, &p) == ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  CHECK(zeMemAllocShared(context, &d, &h, 0, 0, nullptr, &p) == ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  for (size_t bad : {size_t{3}, size_t{24}, size_t{4097}}) {
    CHECK(zeMemAllocDevice(context, &d, 64, bad, device, &p) ==
          ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
    CHECK(zeMemAllocHost(context, &h, 64, bad, &p) == ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
    CHECK(zeMemAllocShared(context, &d, &h, 64, bad, nullptr, &p) ==
          ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
  }
  // Larger than maxMemAllocSize.
  uint64_t max = properties(device).maxMemAllocSize;
  CHECK(zeMemAllocDevice(context, &d, max + 1, 0, device, &p) == ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  CHECK(zeMemAllocShared(context, &d, &h, max + 1, 0, device, &p) ==
        ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  CHECK(zeMemAllocHost(context, &h, SIZE_MAX, 0, &p) == ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
}

TEST_CASE_METHOD(MemoryFixture, "Given a wrong stype in a descriptor, then INVALID_ARGUMENT",
                 "[memory]") {
  auto d = deviceDesc();
  auto h = hostDesc();
  d.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC;
  h.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
  void* p = nullptr;
  CHECK(zeMemAllocDevice(context, &d, 64, 0, device, &p) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeMemAllocHost(context, &h, 64, 0, &p) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  ze_memory_allocation_properties_t a{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  void* q = allocHost(8);
  // A property structure of another type is filled as the parameter's (an output structure's
  // stype is not read: docs/api-coverage.md, "Leniency").
  CHECK(zeMemGetAllocProperties(context, q, &a, nullptr) == ZE_RESULT_SUCCESS);
  CHECK(a.stype == ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES);
  CHECK(a.type == ZE_MEMORY_TYPE_HOST);
  CHECK(zeMemFree(context, q) == ZE_RESULT_SUCCESS);
}

TEST_CASE_METHOD(MemoryFixture,
                 "Given memory of another context of the driver, then it is queried and freed "
                 "through this one",
                 "[memory]") {
  // The guide calls it illegal ("Context A has no knowledge of ptrB") but names no error; the
  // reference driver finds the allocation through any context of the driver and programs rely on
  // it (level-zero-tests frees through another context in 244 cases): Tessera does the same.
  ze_context_handle_t other = makeContext();
  void* p = allocDevice(256);
  ze_device_handle_t dev = nullptr;
  CHECK(props(p, &dev, other).type == ZE_MEMORY_TYPE_DEVICE);
  CHECK(dev == device);
  void* base = nullptr;
  size_t size = 0;
  CHECK(zeMemGetAddressRange(other, static_cast<char*>(p) + 10, &base, &size) == ZE_RESULT_SUCCESS);
  CHECK(base == p);
  CHECK(size == 256);
  CHECK(zeMemFree(other, p) == ZE_RESULT_SUCCESS);
  CHECK(props(p).type == ZE_MEMORY_TYPE_UNKNOWN);  // gone from the context that made it
  CHECK(zeMemFree(context, p) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  // zeMemFreeExt likewise.
  void* q = allocHost(64);
  ze_memory_free_ext_desc_t desc{ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, nullptr, 0};
  CHECK(MemoryFixture::freeExt()(other, &desc, q) == ZE_RESULT_SUCCESS);
  CHECK(props(q).type == ZE_MEMORY_TYPE_UNKNOWN);
  // A context destroyed takes its memory with it: nothing is found through the other.
  ze_context_handle_t third = makeContext();
  ze_host_mem_alloc_desc_t hd = hostDesc();
  void* r = nullptr;
  REQUIRE(zeMemAllocHost(third, &hd, 64, 0, &r) == ZE_RESULT_SUCCESS);
  CHECK(props(r).type == ZE_MEMORY_TYPE_HOST);
  CHECK(zeContextDestroy(third) == ZE_RESULT_SUCCESS);
  CHECK(props(r).type == ZE_MEMORY_TYPE_UNKNOWN);
  CHECK(zeContextDestroy(other) == ZE_RESULT_SUCCESS);
}

TEST_CASE_METHOD(MemoryFixture,
                 "Given pointers no context allocated, then their type is UNKNOWN and they "
                 "cannot be freed",
                 "[memory]") {
  ze_context_handle_t other = makeContext();
  void* p = allocDevice(256);
  int onStack = 0;
  CHECK(props(&onStack).type == ZE_MEMORY_TYPE_UNKNOWN);
  std::vector<char> heap(100);
  CHECK(props(heap.data()).type == ZE_MEMORY_TYPE_UNKNOWN);
  // One past the end is not in the allocation.
  CHECK(props(static_cast<char*>(p) + 256).type == ZE_MEMORY_TYPE_UNKNOWN);
  void* base = nullptr;
  CHECK(zeMemGetAddressRange(other, &onStack, &base, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeMemFree(other, &onStack) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeMemFree(other, static_cast<char*>(p) + 8) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeMemFree(context, static_cast<char*>(p) + 8) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeMemFree(context, p) == ZE_RESULT_SUCCESS);
  CHECK(zeMemFree(context, p) == ZE_RESULT_ERROR_INVALID_ARGUMENT);  // twice
  CHECK(zeMemFree(context, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeMemFree(nullptr, p) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  ze_memory_allocation_properties_t a{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
  CHECK(zeMemGetAllocProperties(nullptr, &onStack, &a, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeMemGetAllocProperties(context, nullptr, &a, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeMemGetAllocProperties(context, &onStack, nullptr, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeMemGetAddressRange(nullptr, &onStack, &base, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeMemGetAddressRange(context, nullptr, &base, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeContextDestroy(other) == ZE_RESULT_SUCCESS);
}

TEST_CASE_METHOD(MemoryFixture,
                 "Given zeMemFreeExt, when memory is freed with each policy, then it is gone",
                 "[memory]") {
  auto freeExt = MemoryFixture::freeExt();
  for (ze_driver_memory_free_policy_ext_flags_t policy :
       {0u, unsigned(ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE),
        unsigned(ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE)}) {
    void* p = allocDevice(4096);
    ze_memory_free_ext_desc_t desc{ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, nullptr, policy};
    CHECK(freeExt(context, &desc, p) == ZE_RESULT_SUCCESS);
    CHECK(props(p).type == ZE_MEMORY_TYPE_UNKNOWN);
    CHECK(freeExt(context, &desc, p) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  }
  void* p = allocDevice(64);
  ze_memory_free_ext_desc_t desc{ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, nullptr, 0x4};
  CHECK(freeExt(context, &desc, p) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0};
  CHECK(freeExt(context, &desc, p) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  desc = {ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, nullptr, 0};
  CHECK(freeExt(nullptr, &desc, p) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(freeExt(context, nullptr, p) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(freeExt(context, &desc, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(freeExt(context, &desc, p) == ZE_RESULT_SUCCESS);

  // The driver reports both policies.
  ze_driver_memory_free_ext_properties_t fp{ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES};
  ze_driver_properties_t dp{ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES, &fp};
  REQUIRE(zeDriverGetProperties(driver, &dp) == ZE_RESULT_SUCCESS);
  CHECK(fp.freePolicies == (ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE |
                            ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE));
}

TEST_CASE_METHOD(MemoryFixture,
                 "Given many threads, when they allocate, query and free at once, then every "
                 "answer is right",
                 "[memory][concurrency]") {
  constexpr int kThreads = 8, kRounds = 400;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      std::mt19937 rng(t);
      std::vector<std::pair<void*, size_t>> live;
      auto d = deviceDesc();
      auto h = hostDesc();
      for (int i = 0; i < kRounds; ++i) {
        size_t size = 1 + rng() % 300000;
        void* p = nullptr;
        ze_result_t r = (i % 3 == 0)   ? zeMemAllocHost(context, &h, size, 0, &p)
                        : (i % 3 == 1) ? zeMemAllocDevice(context, &d, size, 0, device, &p)
                                       : zeMemAllocShared(context, &d, &h, size, 0, device, &p);
        if (r != ZE_RESULT_SUCCESS) {
          ++failures;
          continue;
        }
        std::memset(p, t, size < 256 ? size : 256);
        live.push_back({p, size});
        // Query a random live allocation through an interior pointer.
        auto [q, qs] = live[rng() % live.size()];
        void* base = nullptr;
        size_t got = 0;
        char* inside = static_cast<char*>(q) + rng() % qs;
        if (zeMemGetAddressRange(context, inside, &base, &got) != ZE_RESULT_SUCCESS || base != q ||
            got != qs)
          ++failures;
        if (static_cast<unsigned char*>(q)[0] != static_cast<unsigned char>(t)) ++failures;
        if (live.size() > 20 || rng() % 2) {
          size_t k = rng() % live.size();
          if (zeMemFree(context, live[k].first) != ZE_RESULT_SUCCESS) ++failures;
          live.erase(live.begin() + static_cast<long>(k));
        }
      }
      for (auto [p, s] : live)
        if (zeMemFree(context, p) != ZE_RESULT_SUCCESS) ++failures;
    });
  for (auto& t : threads) t.join();
  CHECK(failures == 0);
}
