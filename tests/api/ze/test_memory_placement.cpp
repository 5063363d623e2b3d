// Where allocations' pages go (NUMA binding), and what happens when memory runs out.
#include <linux/mempolicy.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "memory_test_support.h"

using namespace tessera::test;

namespace {

// The policy of the page at p, read from the kernel (get_mempolicy with MPOL_F_ADDR): the mode and
// the nodes as OS indices.
std::pair<int, std::vector<uint32_t>> pagePolicy(const void* p) {
  int mode = -1;
  unsigned long mask[16] = {};
  long rc = syscall(SYS_get_mempolicy, &mode, mask, sizeof mask * 8, p, MPOL_F_ADDR);
  REQUIRE(rc == 0);
  std::vector<uint32_t> nodes;
  for (uint32_t n = 0; n < sizeof mask * 8; ++n)
    if (mask[n / 64] & (1ul << (n % 64))) nodes.push_back(n);
  return {mode, nodes};
}

std::vector<uint32_t> numaNodes(ze_driver_handle_t driver, ze_device_handle_t d) {
  auto get =
      extensionFunction<ze_pfnTesseraDeviceGetNumaNodes_t>(driver, "zeTesseraDeviceGetNumaNodes");
  REQUIRE(get != nullptr);
  uint32_t n = 0;
  REQUIRE(get(d, &n, nullptr) == ZE_RESULT_SUCCESS);
  std::vector<uint32_t> v(n);
  REQUIRE(get(d, &n, v.data()) == ZE_RESULT_SUCCESS);
  return v;
}

void expectBound(const void* p, const std::vector<uint32_t>& nodes) {
  auto [mode, got] = pagePolicy(p);
  CHECK(mode == (nodes.size() == 1 ? MPOL_BIND : MPOL_INTERLEAVE));
  CHECK(got == nodes);
}

// The flags of the mapping holding p ("VmFlags:" of /proc/self/smaps: "hg" for MADV_HUGEPAGE).
std::string mappingFlags(const void* p) {
  std::ifstream in("/proc/self/smaps");
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    unsigned long lo, hi;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2 && line.find(':') > line.find(' ')) {
      inside = a >= lo && a < hi;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line.substr(8) + " ";
    }
  }
  return {};
}

void runChild(const std::string& test, std::map<std::string, std::string> env) {
  env["TESSERA_TEST_MEMORY_CHILD"] = "1";
  auto r = runProgram({"/proc/self/exe", test}, env);
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.exitCode == 0);
  CHECK(r.out.find("All tests passed") != std::string::npos);
}

}  // namespace

TEST_CASE_METHOD(MemoryFixture,
                 "Given this machine's topology, when device memory is allocated on any device or "
                 "sub-device, then its pages are bound to that device's NUMA nodes",
                 "[memory][numa]") {
  std::vector<ze_device_handle_t> all = devs;
  for (size_t i = 0; i < all.size(); ++i)
    for (ze_device_handle_t s : subDevices(all[i])) all.push_back(s);
  for (ze_device_handle_t d : all) {
    auto nodes = numaNodes(driver, d);
    REQUIRE(!nodes.empty());
    for (size_t size : {size_t{64}, size_t{1} << 20}) {
      void* p = allocDevice(size, 0, d);
      std::memset(p, 1, size);
      expectBound(p, nodes);
      CHECK(zeMemFree(context, p) == ZE_RESULT_SUCCESS);
    }
  }
  // Host and shared memory follow first touch (the default policy).
  void* h = allocHost(1 << 20);
  void* s = allocShared(1 << 20, 0, device);
  CHECK(pagePolicy(h).first == MPOL_DEFAULT);
  CHECK(pagePolicy(s).first == MPOL_DEFAULT);
  CHECK(zeMemFree(context, h) == ZE_RESULT_SUCCESS);
  CHECK(zeMemFree(context, s) == ZE_RESULT_SUCCESS);
}

TEST_CASE("child: shared allocations with ZE_SHARED_FORCE_DEVICE_ALLOC=1", "[.memory_child]") {
  if (!childRole()) return;
  MemoryFixture f;
  void* s = f.allocShared(1 << 16, 0, f.device);
  expectBound(s, numaNodes(f.driver, f.device));
  void* s0 = f.allocShared(1 << 16);  // no device: nowhere to force it to
  CHECK(pagePolicy(s0).first == MPOL_DEFAULT);
  CHECK(zeMemFree(f.context, s) == ZE_RESULT_SUCCESS);
  CHECK(zeMemFree(f.context, s0) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Given ZE_SHARED_FORCE_DEVICE_ALLOC=1, then shared allocations are placed as device ones",
          "[memory][numa]") {
  runChild("child: shared allocations with ZE_SHARED_FORCE_DEVICE_ALLOC=1",
           {{"ZE_SHARED_FORCE_DEVICE_ALLOC", "1"}});
}

TEST_CASE("child: synthetic NUMA nodes are not bound", "[.memory_child]") {
  if (!childRole()) return;
  MemoryFixture f;
  std::vector<ze_device_handle_t> subs = subDevices(f.device);
  REQUIRE(subs.size() == 2);
  for (ze_device_handle_t d : subs) {
    void* p = f.allocDevice(4096, 0, d);
    CHECK(pagePolicy(p).first == MPOL_DEFAULT);
    CHECK(zeMemFree(f.context, p) == ZE_RESULT_SUCCESS);
  }
}

TEST_CASE("Given a synthetic topology, then device memory is not bound to nodes that do not exist",
          "[memory][numa]") {
  runChild("child: synthetic NUMA nodes are not bound",
           {{"TESSERA_TOPOLOGY", "pack:1 numa:2 core:2 pu:1"}});
}

namespace {

size_t addressSpaceInUse() {
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0;
  statm >> pages;
  return pages * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace

TEST_CASE("child: exhaustion under a lowered RLIMIT_AS", "[.memory_child]") {
  if (!childRole()) return;
  MemoryFixture f;
  rlimit lim{};
  lim.rlim_cur = lim.rlim_max = addressSpaceInUse() + (192u << 20);
  REQUIRE(setrlimit(RLIMIT_AS, &lim) == 0);
  struct Block {
    void* p;
    size_t size;
    unsigned char fill;
  };
  std::vector<Block> blocks;
  auto d = MemoryFixture::deviceDesc();
  auto h = MemoryFixture::hostDesc();
  ze_result_t last = ZE_RESULT_SUCCESS;
  for (unsigned i = 0; last == ZE_RESULT_SUCCESS && i < 10000; ++i) {
    size_t size = (i % 2) ? (1u << 20) : 4096;
    void* p = nullptr;
    last = zeMemAllocDevice(f.context, &d, size, 0, f.device, &p);
    if (last == ZE_RESULT_SUCCESS) {
      std::memset(p, static_cast<int>(i), size);
      blocks.push_back({p, size, static_cast<unsigned char>(i)});
    }
  }
  CHECK(last == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
  void* p = nullptr;
  CHECK(zeMemAllocHost(f.context, &h, 64u << 20, 0, &p) == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
  CHECK(zeMemAllocDevice(f.context, &d, 1u << 30, 0, f.device, &p) ==
        ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
  // Every allocation made before is intact and still known.
  size_t bad = 0;
  for (const Block& b : blocks) {
    auto* c = static_cast<unsigned char*>(b.p);
    if (c[0] != b.fill || c[b.size - 1] != b.fill || f.props(b.p).type != ZE_MEMORY_TYPE_DEVICE)
      ++bad;
  }
  CHECK(bad == 0);
  CHECK(blocks.size() > 10);
  for (const Block& b : blocks) CHECK(zeMemFree(f.context, b.p) == ZE_RESULT_SUCCESS);
  // Freed memory can be allocated again.
  CHECK(zeMemAllocDevice(f.context, &d, 1u << 20, 0, f.device, &p) == ZE_RESULT_SUCCESS);
}

TEST_CASE(
    "Given a lowered address-space limit, when memory runs out, then allocation fails with "
    "OUT_OF_*_MEMORY and earlier allocations stay intact",
    "[memory][limits]") {
  runChild("child: exhaustion under a lowered RLIMIT_AS", {});
}

TEST_CASE_METHOD(MemoryFixture,
                 "Given an allocation of 2 MiB or more, then it is mapped at a 2 MiB boundary and "
                 "advised for transparent huge pages; smaller ones are not",
                 "[memory][hugepages]") {
  for (const char* kind : {"device", "host", "shared"}) {
    for (size_t size : {size_t{1} << 20, size_t{2} << 20, (size_t{6} << 20) + 4096}) {
      INFO(kind << ", size " << size);
      void* p = kind[0] == 'd'   ? allocDevice(size)
                : kind[0] == 'h' ? allocHost(size)
                                 : allocShared(size, 0, device);
      const bool large = size >= (size_t{2} << 20);
      if (large) CHECK(reinterpret_cast<uintptr_t>(p) % (size_t{2} << 20) == 0);
      std::string flags = mappingFlags(p);
      REQUIRE_FALSE(flags.empty());
      // (A kernel built without transparent huge pages refuses the advice.)
      if (std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled").good())
        CHECK((flags.find(" hg ") != std::string::npos) == large);
      CHECK(zeMemFree(context, p) == ZE_RESULT_SUCCESS);
    }
  }
}
