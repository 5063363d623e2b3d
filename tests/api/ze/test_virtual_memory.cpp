// Reserved device allocations: zeVirtualMemQueryPageSize, Reserve, Free, zePhysicalMemCreate and
// Destroy, Map, Unmap, Set/GetAccessAttribute; the guide's examples; protection that really holds.
// Tests that reserve with a null pStart, as the guide does, are [novalidation]: the 1.4 validation
// layer rejects a null pStart, which later headers make optional.
#include <csignal>
#include <cstring>

#include "memory_test_support.h"

using namespace tessera::test;

namespace {

size_t alignUp(size_t v, size_t a) {
  return (v + a - 1) / a * a;
}

struct VmFixture : MemoryFixture {
  size_t pageSize(size_t size) {
    size_t p = 0;
    REQUIRE(zeVirtualMemQueryPageSize(context, device, size, &p) == ZE_RESULT_SUCCESS);
    REQUIRE(p > 0);
    return p;
  }
  ze_physical_mem_handle_t physical(size_t size) {
    ze_physical_mem_desc_t desc{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, size};
    ze_physical_mem_handle_t h = nullptr;
    REQUIRE(zePhysicalMemCreate(context, device, &desc, &h) == ZE_RESULT_SUCCESS);
    return h;
  }
  void* reserve(size_t size, const void* hint = nullptr) {
    void* p = nullptr;
    REQUIRE(zeVirtualMemReserve(context, hint, size, &p) == ZE_RESULT_SUCCESS);
    REQUIRE(p != nullptr);
    return p;
  }
  std::pair<ze_memory_access_attribute_t, size_t> access(const void* p, size_t size) {
    ze_memory_access_attribute_t a = ZE_MEMORY_ACCESS_ATTRIBUTE_FORCE_UINT32;
    size_t run = 0;
    REQUIRE(zeVirtualMemGetAccessAttribute(context, p, size, &a, &run) == ZE_RESULT_SUCCESS);
    return {a, run};
  }
};

}  // namespace

TEST_CASE_METHOD(VmFixture, "The guide's 1 MB reservation: reserve, create, map, access",
                 "[memory][vm][novalidation]") {
  size_t allocationSize = 1048576;
  size_t ps = pageSize(allocationSize);
  size_t reserveSize = alignUp(allocationSize, ps);
  void* ptr = reserve(reserveSize);
  ze_physical_mem_handle_t phys = physical(alignUp(allocationSize, ps));
  REQUIRE(zeVirtualMemMap(context, ptr, reserveSize, phys, 0,
                          ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) == ZE_RESULT_SUCCESS);
  auto [a, run] = access(ptr, reserveSize);
  CHECK(run == reserveSize);
  CHECK(a == ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE);
  std::memset(ptr, 0x33, reserveSize);
  CHECK(static_cast<unsigned char*>(ptr)[reserveSize - 1] == 0x33);
  CHECK(zeContextMakeMemoryResident(context, device, ptr, reserveSize) == ZE_RESULT_SUCCESS);
  CHECK(zePhysicalMemDestroy(context, phys) == ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
  CHECK(zeVirtualMemUnmap(context, ptr, reserveSize) == ZE_RESULT_SUCCESS);
  CHECK(access(ptr, reserveSize) == std::make_pair(ZE_MEMORY_ACCESS_ATTRIBUTE_NONE, reserveSize));
  CHECK(zeContextMakeMemoryResident(context, device, ptr, reserveSize) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zePhysicalMemDestroy(context, phys) == ZE_RESULT_SUCCESS);
  CHECK(zeVirtualMemFree(context, ptr, reserveSize) == ZE_RESULT_SUCCESS);
}

TEST_CASE_METHOD(VmFixture,
                 "The guide's growing reservation: the hint is honoured when free, else another "
                 "range comes back, and physical pages move to a larger reservation",
                 "[memory][vm][novalidation]") {
  size_t reserveSize = alignUp(1048576, pageSize(1048576));
  void* ptr = reserve(reserveSize);
  ze_physical_mem_handle_t phys = physical(reserveSize);
  REQUIRE(zeVirtualMemMap(context, ptr, reserveSize, phys, 0,
                          ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) == ZE_RESULT_SUCCESS);
  std::memset(ptr, 0x44, reserveSize);
  // Where the range is taken (by ptr's own reservation), another range comes back.
  void* clash = reserve(reserveSize, ptr);
  CHECK(clash != ptr);
  CHECK(zeVirtualMemFree(context, clash, reserveSize) == ZE_RESULT_SUCCESS);
  // Contiguous growth: after freeing a range we know is free, the hint is honoured.
  void* probe = reserve(2 * reserveSize);
  CHECK(zeVirtualMemFree(context, probe, 2 * reserveSize) == ZE_RESULT_SUCCESS);
  void* at = reserve(reserveSize, probe);
  CHECK(at == probe);
  CHECK(zeVirtualMemFree(context, at, reserveSize) == ZE_RESULT_SUCCESS);

  void* newptr = static_cast<uint8_t*>(ptr) + reserveSize;
  void* retptr = reserve(reserveSize, newptr);
  if (retptr != newptr) {
    // As the guide: free it, reserve 2 MB and remap the physical pages there.
    CHECK(zeVirtualMemFree(context, retptr, reserveSize) == ZE_RESULT_SUCCESS);
    size_t larger = alignUp(2097152, pageSize(2097152));
    void* big = reserve(larger);
    REQUIRE(zeVirtualMemMap(context, big, reserveSize, phys, 0,
                            ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) == ZE_RESULT_SUCCESS);
    CHECK(static_cast<unsigned char*>(big)[reserveSize - 1] == 0x44);
    CHECK(zeVirtualMemUnmap(context, big, reserveSize) == ZE_RESULT_SUCCESS);
    CHECK(zeVirtualMemFree(context, big, larger) == ZE_RESULT_SUCCESS);
  } else {
    ze_physical_mem_handle_t more = physical(reserveSize);
    REQUIRE(zeVirtualMemMap(context, retptr, reserveSize, more, 0,
                            ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) == ZE_RESULT_SUCCESS);
    std::memset(ptr, 0x55, 2 * reserveSize);  // one contiguous 2 MB range now
    CHECK(zeVirtualMemUnmap(context, retptr, reserveSize) == ZE_RESULT_SUCCESS);
    CHECK(zeVirtualMemFree(context, retptr, reserveSize) == ZE_RESULT_SUCCESS);
    CHECK(zePhysicalMemDestroy(context, more) == ZE_RESULT_SUCCESS);
  }
  CHECK(zeVirtualMemUnmap(context, ptr, reserveSize) == ZE_RESULT_SUCCESS);
  CHECK(zeVirtualMemFree(context, ptr, reserveSize) == ZE_RESULT_SUCCESS);
  CHECK(zePhysicalMemDestroy(context, phys) == ZE_RESULT_SUCCESS);
}

TEST_CASE_METHOD(VmFixture,
                 "The guide's 1 GB sparse reservation with 128 KB and 8 MB sub-allocations",
                 "[memory][vm][novalidation]") {
  size_t reserveSize = alignUp(1048576000, pageSize(1048576000));
  auto* ptr = static_cast<uint8_t*>(reserve(reserveSize));
  size_t small = alignUp(131072, pageSize(131072));
  size_t large = alignUp(8388608, pageSize(8388608));
  ze_physical_mem_handle_t p1 = physical(small), p2 = physical(large);
  uint8_t* sub1 = ptr + 4 * large;
  uint8_t* sub2 = ptr + 64 * large;
  REQUIRE(zeVirtualMemMap(context, sub1, small, p1, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeVirtualMemMap(context, sub2, large, p2, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) ==
          ZE_RESULT_SUCCESS);
  std::memset(sub1, 1, small);
  std::memset(sub2, 2, large);
  CHECK(access(sub1, small) == std::make_pair(ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE, small));
  CHECK(access(sub2, large) == std::make_pair(ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE, large));
  // From the start: unmapped (NONE) up to the first sub-allocation.
  CHECK(access(ptr, reserveSize) ==
        std::make_pair(ZE_MEMORY_ACCESS_ATTRIBUTE_NONE, size_t(sub1 - ptr)));
  CHECK(access(sub1, reserveSize - (sub1 - ptr)) ==
        std::make_pair(ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE, small));
  // Mapping over a mapped page is refused; so is mapping past the physical object.
  CHECK(zeVirtualMemMap(context, sub1, small, p1, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeVirtualMemMap(context, ptr, 2 * small, p1, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeVirtualMemFree(context, ptr, reserveSize) == ZE_RESULT_SUCCESS);
  CHECK(zePhysicalMemDestroy(context, p1) == ZE_RESULT_SUCCESS);
  CHECK(zePhysicalMemDestroy(context, p2) == ZE_RESULT_SUCCESS);
}

TEST_CASE_METHOD(VmFixture,
                 "Given one physical object mapped at two ranges, then both show the same bytes; "
                 "access attributes split into runs",
                 "[memory][vm]") {
  size_t ps = pageSize(4096);
  int anchor = 0;
  auto* base = static_cast<uint8_t*>(reserve(16 * ps, &anchor));  // any hint: not a free range
  ze_physical_mem_handle_t phys = physical(4 * ps);
  REQUIRE(zeVirtualMemMap(context, base, 4 * ps, phys, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) ==
          ZE_RESULT_SUCCESS);
  REQUIRE(zeVirtualMemMap(context, base + 8 * ps, 2 * ps, phys, 2 * ps,
                          ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY) == ZE_RESULT_SUCCESS);
  base[2 * ps + 5] = 99;
  CHECK(base[8 * ps + 5] == 99);
  CHECK(access(base + 8 * ps, 2 * ps) ==
        std::make_pair(ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY, 2 * ps));
  REQUIRE(zeVirtualMemSetAccessAttribute(context, base + ps, ps,
                                         ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY) == ZE_RESULT_SUCCESS);
  CHECK(access(base, 16 * ps) == std::make_pair(ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE, ps));
  CHECK(access(base + ps, 15 * ps) == std::make_pair(ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY, ps));
  CHECK(access(base + 2 * ps, 14 * ps) ==
        std::make_pair(ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE, 2 * ps));
  CHECK(access(base + 4 * ps, 12 * ps) == std::make_pair(ZE_MEMORY_ACCESS_ATTRIBUTE_NONE, 4 * ps));
  // Set over a mapped and an unmapped page: both keep the attribute.
  CHECK(zeVirtualMemSetAccessAttribute(context, base + 3 * ps, 2 * ps,
                                       ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) == ZE_RESULT_SUCCESS);
  CHECK(access(base + 3 * ps, 13 * ps) ==
        std::make_pair(ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE, 2 * ps));
  // Partial unmap of the middle.
  CHECK(zeVirtualMemUnmap(context, base + ps, 2 * ps) == ZE_RESULT_SUCCESS);
  CHECK(access(base + ps, 15 * ps) == std::make_pair(ZE_MEMORY_ACCESS_ATTRIBUTE_NONE, 2 * ps));
  CHECK(base[3 * ps] == 0);  // the last mapped page of the first range is still there
  // Residency over a mapped range; not over a hole.
  CHECK(zeContextMakeMemoryResident(context, device, base + 3 * ps, ps) == ZE_RESULT_SUCCESS);
  CHECK(zeContextEvictMemory(context, device, base, 4 * ps) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeVirtualMemFree(context, base, 16 * ps) == ZE_RESULT_SUCCESS);
  CHECK(zePhysicalMemDestroy(context, phys) == ZE_RESULT_SUCCESS);
}

TEST_CASE_METHOD(VmFixture,
                 "Given a reservation with nothing mapped, when access attributes are set, then "
                 "each is kept and reported, and mapping sets its own",
                 "[memory][vm]") {
  // zeVirtualMemSetAccessAttribute takes "a reserved virtual address region" and lists no error
  // for pages not mapped yet (level-zero-tests sets each attribute on a bare reservation).
  size_t ps = pageSize(4096);
  int anchor = 0;
  auto* base = static_cast<uint8_t*>(reserve(8 * ps, &anchor));
  CHECK(access(base, 8 * ps) == std::make_pair(ZE_MEMORY_ACCESS_ATTRIBUTE_NONE, 8 * ps));
  for (ze_memory_access_attribute_t a :
       {ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY,
        ZE_MEMORY_ACCESS_ATTRIBUTE_NONE, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY}) {
    REQUIRE(zeVirtualMemSetAccessAttribute(context, base, 8 * ps, a) == ZE_RESULT_SUCCESS);
    CHECK(access(base, 8 * ps) == std::make_pair(a, 8 * ps));
  }
  // Part of the range: three runs.
  REQUIRE(zeVirtualMemSetAccessAttribute(context, base + 2 * ps, 3 * ps,
                                         ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) ==
          ZE_RESULT_SUCCESS);
  CHECK(access(base, 8 * ps) == std::make_pair(ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY, 2 * ps));
  CHECK(access(base + 2 * ps, 6 * ps) ==
        std::make_pair(ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE, 3 * ps));
  CHECK(access(base + 5 * ps, 3 * ps) ==
        std::make_pair(ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY, 3 * ps));
  // Mapping gives its pages the attribute it is given; they work as such.
  ze_physical_mem_handle_t phys = physical(ps);
  REQUIRE(zeVirtualMemMap(context, base + 3 * ps, ps, phys, 0,
                          ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) == ZE_RESULT_SUCCESS);
  base[3 * ps + 1] = 7;
  CHECK(base[3 * ps + 1] == 7);
  CHECK(access(base + 2 * ps, 6 * ps) ==
        std::make_pair(ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE, 3 * ps));
  // Unmapped again, the page is NONE.
  REQUIRE(zeVirtualMemUnmap(context, base + 3 * ps, ps) == ZE_RESULT_SUCCESS);
  CHECK(access(base + 3 * ps, ps) == std::make_pair(ZE_MEMORY_ACCESS_ATTRIBUTE_NONE, ps));
  // Outside every reservation: still refused.
  CHECK(zeVirtualMemSetAccessAttribute(context, base + 8 * ps, ps,
                                       ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeVirtualMemFree(context, base, 8 * ps) == ZE_RESULT_SUCCESS);
  CHECK(zePhysicalMemDestroy(context, phys) == ZE_RESULT_SUCCESS);
}

TEST_CASE("child: write to a read-only page", "[.memory_child]") {
  if (!childRole()) return;
  VmFixture f;
  size_t ps = f.pageSize(4096);
  int anchor = 0;
  auto* p = static_cast<volatile uint8_t*>(f.reserve(ps, &anchor));
  ze_physical_mem_handle_t phys = f.physical(ps);
  REQUIRE(zeVirtualMemMap(f.context, const_cast<uint8_t*>(p), ps, phys, 0,
                          ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) == ZE_RESULT_SUCCESS);
  p[0] = 1;
  ze_memory_access_attribute_t attr = std::string(childRole()) == "none"
                                          ? ZE_MEMORY_ACCESS_ATTRIBUTE_NONE
                                          : ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY;
  REQUIRE(zeVirtualMemSetAccessAttribute(f.context, const_cast<uint8_t*>(p), ps, attr) ==
          ZE_RESULT_SUCCESS);
  if (attr == ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY) CHECK(p[0] == 1);  // reading is allowed
  std::cout << "about to write" << std::endl;
  p[0] = 2;  // must fault
  std::cout << "wrote" << std::endl;
}

TEST_CASE("Given a read-only or no-access page, when a process writes to it, then it faults",
          "[memory][vm]") {
  for (const char* role : {"readonly", "none"}) {
    auto r = runProgram({"/proc/self/exe", "child: write to a read-only page"},
                        {{"TESSERA_TEST_MEMORY_CHILD", role}});
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.out.find("about to write") != std::string::npos);
    CHECK(r.out.find("wrote") == std::string::npos);
    CHECK(r.exitCode == 128 + SIGSEGV);
  }
}

TEST_CASE_METHOD(VmFixture, "Given bad virtual memory arguments, then the spec's errors",
                 "[memory][vm]") {
  size_t ps = pageSize(1);
  int anchor = 0;
  void* p = nullptr;
  size_t sz = 0;
  CHECK(zeVirtualMemQueryPageSize(nullptr, device, 1, &sz) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeVirtualMemQueryPageSize(context, nullptr, 1, &sz) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeVirtualMemQueryPageSize(context, device, 1, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeVirtualMemQueryPageSize(context, device, 0, &sz) == ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  CHECK(zeVirtualMemReserve(nullptr, &anchor, ps, &p) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeVirtualMemReserve(context, &anchor, ps, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeVirtualMemReserve(context, &anchor, 0, &p) == ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  CHECK(zeVirtualMemReserve(context, &anchor, ps + 1, &p) == ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  auto* r = static_cast<uint8_t*>(reserve(4 * ps, &anchor));
  CHECK(zeVirtualMemFree(nullptr, r, 4 * ps) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeVirtualMemFree(context, nullptr, 4 * ps) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeVirtualMemFree(context, r, 0) == ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  CHECK(zeVirtualMemFree(context, r + 1, 4 * ps) == ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
  CHECK(zeVirtualMemFree(context, r, 2 * ps) == ZE_RESULT_ERROR_INVALID_ARGUMENT);

  ze_physical_mem_desc_t desc{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, ps};
  ze_physical_mem_handle_t h = nullptr;
  CHECK(zePhysicalMemCreate(nullptr, device, &desc, &h) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zePhysicalMemCreate(context, nullptr, &desc, &h) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zePhysicalMemCreate(context, device, nullptr, &h) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zePhysicalMemCreate(context, device, &desc, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  desc.flags = 4;  // past ALLOCATE_ON_DEVICE | ALLOCATE_ON_HOST ("0x3 < desc->flags")
  CHECK(zePhysicalMemCreate(context, device, &desc, &h) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  desc.flags = 0;
  desc.size = 0;
  CHECK(zePhysicalMemCreate(context, device, &desc, &h) == ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  desc.size = ps + 1;
  CHECK(zePhysicalMemCreate(context, device, &desc, &h) == ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
  ze_physical_mem_handle_t phys = physical(2 * ps);
  CHECK(zePhysicalMemDestroy(nullptr, phys) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zePhysicalMemDestroy(context, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);

  auto rw = ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE;
  auto badAccess = static_cast<ze_memory_access_attribute_t>(3);
  CHECK(zeVirtualMemMap(nullptr, r, ps, phys, 0, rw) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeVirtualMemMap(context, r, ps, nullptr, 0, rw) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeVirtualMemMap(context, nullptr, ps, phys, 0, rw) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeVirtualMemMap(context, r, ps, phys, 0, badAccess) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  CHECK(zeVirtualMemMap(context, r, 0, phys, 0, rw) == ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  CHECK(zeVirtualMemMap(context, r, ps + 1, phys, 0, rw) == ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  CHECK(zeVirtualMemMap(context, r + 1, ps, phys, 0, rw) == ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
  CHECK(zeVirtualMemMap(context, r, ps, phys, 1, rw) == ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
  CHECK(zeVirtualMemMap(context, r, 3 * ps, phys, 0, rw) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeVirtualMemMap(context, r + 3 * ps, 2 * ps, phys, 0, rw) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);  // past the reservation's end
  CHECK(zeVirtualMemMap(context, &anchor, ps, phys, 0, rw) ==
        ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);

  CHECK(zeVirtualMemUnmap(nullptr, r, ps) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeVirtualMemUnmap(context, nullptr, ps) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeVirtualMemUnmap(context, r + 1, ps) == ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
  CHECK(zeVirtualMemUnmap(context, r, ps - 1) == ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  CHECK(zeVirtualMemUnmap(context, r, 0) == ZE_RESULT_ERROR_UNSUPPORTED_SIZE);

  ze_memory_access_attribute_t a;
  size_t run;
  CHECK(zeVirtualMemSetAccessAttribute(nullptr, r, ps, rw) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeVirtualMemSetAccessAttribute(context, nullptr, ps, rw) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeVirtualMemSetAccessAttribute(context, r, ps, badAccess) ==
        ZE_RESULT_ERROR_INVALID_ENUMERATION);
  CHECK(zeVirtualMemSetAccessAttribute(context, r + 1, ps, rw) ==
        ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
  CHECK(zeVirtualMemSetAccessAttribute(context, r, 0, rw) == ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  CHECK(zeVirtualMemGetAccessAttribute(nullptr, r, ps, &a, &run) ==
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeVirtualMemGetAccessAttribute(context, nullptr, ps, &a, &run) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeVirtualMemGetAccessAttribute(context, r, ps, nullptr, &run) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeVirtualMemGetAccessAttribute(context, r, ps, &a, nullptr) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeVirtualMemGetAccessAttribute(context, r + 1, ps, &a, &run) ==
        ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
  CHECK(zeVirtualMemGetAccessAttribute(context, r, ps + 1, &a, &run) ==
        ZE_RESULT_ERROR_UNSUPPORTED_SIZE);

  CHECK(zeVirtualMemFree(context, r, 4 * ps) == ZE_RESULT_SUCCESS);
  CHECK(zePhysicalMemDestroy(context, phys) == ZE_RESULT_SUCCESS);
  CHECK(zePhysicalMemDestroy(context, phys) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
}

TEST_CASE_METHOD(MemoryFixture,
                 "Given residency calls, then ranges inside one allocation of the context succeed "
                 "and others are refused",
                 "[memory][residency]") {
  auto* p = static_cast<char*>(allocDevice(1000));
  CHECK(zeContextMakeMemoryResident(context, device, p, 1000) == ZE_RESULT_SUCCESS);
  CHECK(zeContextMakeMemoryResident(context, device, p + 10, 990) == ZE_RESULT_SUCCESS);
  CHECK(zeContextEvictMemory(context, device, p, 1000) == ZE_RESULT_SUCCESS);
  CHECK(zeContextMakeMemoryResident(context, device, p, 1001) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeContextEvictMemory(context, device, p + 1000, 1) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  int local = 0;
  CHECK(zeContextMakeMemoryResident(context, device, &local, 4) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeContextMakeMemoryResident(nullptr, device, p, 4) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeContextMakeMemoryResident(context, nullptr, p, 4) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeContextMakeMemoryResident(context, device, nullptr, 4) ==
        ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeContextEvictMemory(nullptr, device, p, 4) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeContextEvictMemory(context, nullptr, p, 4) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeContextEvictMemory(context, device, nullptr, 4) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeMemFree(context, p) == ZE_RESULT_SUCCESS);
}

// 1.11's ZE_PHYSICAL_MEM_FLAG_ALLOCATE_ON_HOST: "Allocate physical host memory instead"; hDevice
// "can be nullptr if creating physical host memory"; "For host memory, the operating system page
// size should be used"; the flags' limit became "0x3 < desc->flags". (The 1.4 validation layer
// refuses the null device and the flag.)
TEST_CASE_METHOD(VmFixture,
                 "Given physical host memory, with or without a device, then it maps at an offset "
                 "and holds what is written through either mapping",
                 "[memory][vm][novalidation]") {
  constexpr ze_physical_mem_flags_t kOnHost = 1u << 1;
  const size_t page = 4096;
  ze_physical_mem_desc_t desc{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, kOnHost, 4 * page};
  ze_physical_mem_handle_t host = nullptr, withDevice = nullptr, refused = nullptr;
  REQUIRE(zePhysicalMemCreate(context, nullptr, &desc, &host) == ZE_RESULT_SUCCESS);
  REQUIRE(zePhysicalMemCreate(context, device, &desc, &withDevice) == ZE_RESULT_SUCCESS);
  desc.size = page + 1;
  CHECK(zePhysicalMemCreate(context, nullptr, &desc, &refused) ==
        ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
  desc.size = page;
  desc.flags = 0x4 | kOnHost;
  CHECK(zePhysicalMemCreate(context, nullptr, &desc, &refused) ==
        ZE_RESULT_ERROR_INVALID_ENUMERATION);
  desc.flags = 0;  // device memory needs its device
  CHECK(zePhysicalMemCreate(context, nullptr, &desc, &refused) ==
        ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(refused == nullptr);

  // Two ranges over the same host pages: the whole object, and its last two pages.
  auto* whole = static_cast<uint8_t*>(reserve(4 * page));
  auto* tail = static_cast<uint8_t*>(reserve(2 * page));
  REQUIRE(zeVirtualMemMap(context, whole, 4 * page, host, 0,
                          ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) == ZE_RESULT_SUCCESS);
  REQUIRE(zeVirtualMemMap(context, tail, 2 * page, host, 2 * page,
                          ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) == ZE_RESULT_SUCCESS);
  std::memset(whole, 0x5a, 4 * page);
  tail[page] = 0x11;
  CHECK(whole[3 * page] == 0x11);
  CHECK(tail[0] == 0x5a);
  CHECK(zeVirtualMemUnmap(context, whole, 4 * page) == ZE_RESULT_SUCCESS);
  CHECK(zeVirtualMemUnmap(context, tail, 2 * page) == ZE_RESULT_SUCCESS);
  CHECK(zeVirtualMemFree(context, whole, 4 * page) == ZE_RESULT_SUCCESS);
  CHECK(zeVirtualMemFree(context, tail, 2 * page) == ZE_RESULT_SUCCESS);
  CHECK(zePhysicalMemDestroy(context, host) == ZE_RESULT_SUCCESS);
  CHECK(zePhysicalMemDestroy(context, withDevice) == ZE_RESULT_SUCCESS);
}
