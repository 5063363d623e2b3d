// IPC handles passed the way programs written for the reference driver pass them (level-zero-tests'
// IPC tests among them): the handle's first four bytes are taken as a file descriptor, sent to the
// other process (here: inherited across exec), and the number it has there is written over those
// bytes before the handle is opened. The peer has no ptrace rights over the exporter, so only the
// descriptor it was given can open the handle (core/common/remote_fd.h, takeHandleFd).
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include "memory_test_support.h"

using namespace tessera::test;

namespace {

template <typename Handle>
void putFd(Handle& h, int fd) {
  std::memcpy(h.data, &fd, sizeof fd);
}

template <typename Handle>
int fdOf(const Handle& h) {
  int fd = -1;
  std::memcpy(&fd, h.data, sizeof fd);
  return fd;
}

}  // namespace

// The peer: reads the memory handle, the event-pool handle and the descriptor numbers it inherited
// for each, writes them over the handles' first bytes, opens both, writes the memory and signals
// event 1.
TEST_CASE("ipc fd child: open handles with the descriptors given", "[.ipc_fd_child]") {
  if (!childRole()) return;
  MemoryFixture f;
  if (std::string(childRole()) == "nobody") {
    (void)setresgid(65534, 65534, 65534);
    REQUIRE(setresuid(65534, 65534, 65534) == 0);
  }
  std::string mem, pool;
  int memFd = -1, poolFd = -1;
  std::getline(std::cin, mem);
  std::getline(std::cin, pool);
  std::cin >> memFd >> poolFd;
  auto h = fromHex(mem);
  auto ph = fromHex<ze_ipc_event_pool_handle_t>(pool);
  putFd(h, memFd);
  putFd(ph, poolFd);
  void* p = nullptr;
  ze_result_t r = zeMemOpenIpcHandle(f.context, f.device, h, 0, &p);
  ze_event_pool_handle_t opened = nullptr;
  ze_result_t rp = zeEventPoolOpenIpcHandle(f.context, ph, &opened);
  if (r == ZE_RESULT_SUCCESS) std::memset(p, 0x3c, 4096);
  if (rp == ZE_RESULT_SUCCESS) {
    ze_event_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 1, 0, ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t e = nullptr;
    REQUIRE(zeEventCreate(opened, &desc, &e) == ZE_RESULT_SUCCESS);
    REQUIRE(zeEventHostSignal(e) == ZE_RESULT_SUCCESS);
    zeEventDestroy(e);
    zeEventPoolCloseIpcHandle(opened);
  }
  if (r == ZE_RESULT_SUCCESS) zeMemCloseIpcHandle(f.context, p);
  std::cout << "results " << std::hex << unsigned(r) << " " << unsigned(rp) << std::dec
            << std::endl;
}

TEST_CASE(
    "Given memory and event-pool IPC handles whose first bytes are replaced by a descriptor the "
    "peer received, then a peer without ptrace rights opens both",
    "[memory][ipc]") {
  MemoryFixture f;
  void* p = f.allocDevice(4096);
  std::memset(p, 0x11, 4096);
  ze_ipc_mem_handle_t h;
  REQUIRE(zeMemGetIpcHandle(f.context, p, &h) == ZE_RESULT_SUCCESS);
  ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                          ZE_EVENT_POOL_FLAG_IPC | ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 2};
  ze_event_pool_handle_t pool = nullptr;
  REQUIRE(zeEventPoolCreate(f.context, &pd, 0, nullptr, &pool) == ZE_RESULT_SUCCESS);
  ze_ipc_event_pool_handle_t ph;
  REQUIRE(zeEventPoolGetIpcHandle(pool, &ph) == ZE_RESULT_SUCCESS);
  ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 1, 0, ZE_EVENT_SCOPE_FLAG_HOST};
  ze_event_handle_t e1 = nullptr;
  REQUIRE(zeEventCreate(pool, &ed, &e1) == ZE_RESULT_SUCCESS);

  // What the peer gets: descriptors of the files the handles' first bytes name, under other
  // numbers (inherited across exec: not close-on-exec).
  int memFd = dup(fdOf(h)), poolFd = dup(fdOf(ph));
  REQUIRE(memFd >= 0);
  REQUIRE(poolFd >= 0);
  // As root: a peer that becomes nobody. Otherwise: this process made non-dumpable, which takes the
  // same user's ptrace right away. Either way pidfd_getfd fails for the peer.
  bool root = geteuid() == 0;
  if (!root) prctl(PR_SET_DUMPABLE, 0);
  Child c =
      startProgram({"/proc/self/exe", "ipc fd child: open handles with the descriptors given"},
                   {{"TESSERA_TEST_MEMORY_CHILD", root ? "nobody" : "peer"}});
  close(memFd);
  close(poolFd);
  c.writeLine(toHex(h));
  c.writeLine(toHex(ph));
  c.writeLine(std::to_string(memFd) + " " + std::to_string(poolFd));
  std::string line;
  while ((line = c.readLine()).rfind("results ", 0) != 0 && !line.empty()) {
  }
  CHECK(line == "results 0 0");
  c.wait();
  if (!root) prctl(PR_SET_DUMPABLE, 1);
  auto* bytes = static_cast<unsigned char*>(p);
  CHECK(std::all_of(bytes, bytes + 4096, [](unsigned char v) { return v == 0x3c; }));
  CHECK(zeEventQueryStatus(e1) == ZE_RESULT_SUCCESS);
  CHECK(zeEventDestroy(e1) == ZE_RESULT_SUCCESS);
  CHECK(zeEventPoolDestroy(pool) == ZE_RESULT_SUCCESS);
  CHECK(zeMemFree(f.context, p) == ZE_RESULT_SUCCESS);
}

// The peer of the bare-descriptor case: reads the number of the descriptor it inherited and opens
// a handle holding only that number, as intel/compute-benchmarks' shared-buffer workload does.
TEST_CASE("ipc bare fd child: open a handle made of the descriptor alone", "[.ipc_bare_fd_child]") {
  if (!childRole()) return;
  MemoryFixture f;
  int64_t fd = -1;
  std::cin >> fd;
  ze_ipc_mem_handle_t h{};
  std::memcpy(h.data, &fd, sizeof fd);
  void* p = nullptr;
  ze_result_t r = zeMemOpenIpcHandle(f.context, f.device, h, 0, &p);
  if (r == ZE_RESULT_SUCCESS) {
    std::memset(p, 0x5a, 4096);
    zeMemCloseIpcHandle(f.context, p);
  }
  std::cout << "results " << std::hex << unsigned(r) << std::dec << std::endl;
}

// A handle whose only content is the exporter's descriptor (the rest zero): the memfd's export
// table names the allocation when it holds exactly one (core/memory/ipc.h, decodeBareDescriptor).
TEST_CASE("Given an IPC handle made of its descriptor alone, then it opens the one allocation "
          "exported from that file, in this process and in a peer that inherited the descriptor",
          "[memory][ipc]") {
  MemoryFixture f;
  // 4 MiB: a file of its own (allocations of 2 MiB or more are not carved from an arena).
  constexpr size_t kBytes = 4u << 20;
  void* p = f.allocDevice(kBytes);
  std::memset(p, 0x11, kBytes);
  ze_ipc_mem_handle_t h;
  REQUIRE(zeMemGetIpcHandle(f.context, p, &h) == ZE_RESULT_SUCCESS);
  ze_ipc_mem_handle_t bare{};
  const int fd = fdOf(h);
  std::memcpy(bare.data, &fd, sizeof fd);
  // In this process: a second mapping of the same pages.
  void* again = nullptr;
  REQUIRE(zeMemOpenIpcHandle(f.context, f.device, bare, 0, &again) == ZE_RESULT_SUCCESS);
  REQUIRE(again != nullptr);
  CHECK(again != p);
  static_cast<unsigned char*>(again)[kBytes - 1] = 0x22;
  CHECK(static_cast<unsigned char*>(p)[kBytes - 1] == 0x22);
  CHECK(zeMemCloseIpcHandle(f.context, again) == ZE_RESULT_SUCCESS);
  // Any other byte set: not a bare descriptor, and not a Tessera handle either.
  ze_ipc_mem_handle_t other = bare;
  other.data[40] = 1;
  CHECK(zeMemOpenIpcHandle(f.context, f.device, other, 0, &again) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  // In a peer that inherited the descriptor under another number (as compute-benchmarks' child).
  int inherited = dup(fd);
  REQUIRE(inherited >= 0);
  Child c = startProgram(
      {"/proc/self/exe", "ipc bare fd child: open a handle made of the descriptor alone"},
      {{"TESSERA_TEST_MEMORY_CHILD", "peer"}});
  close(inherited);
  c.writeLine(std::to_string(inherited));
  std::string line;
  while ((line = c.readLine()).rfind("results ", 0) != 0 && !line.empty()) {
  }
  CHECK(line == "results 0");
  c.wait();
  CHECK(static_cast<unsigned char*>(p)[0] == 0x5a);
  CHECK(static_cast<unsigned char*>(p)[4095] == 0x5a);
  CHECK(static_cast<unsigned char*>(p)[4096] == 0x11);
  // Any other file of this process, even one laid out like an export table with a live entry, is
  // not taken for an export.
  {
    FILE* file = tmpfile();
    REQUIRE(file != nullptr);
    const size_t bytes = 4096 + 4096;  // one data page and its table page
    std::vector<unsigned char> fake(bytes, 0);
    fake[4096] = 1;                       // a cookie
    fake[4096 + 8] = 16;                  // a size
    REQUIRE(fwrite(fake.data(), 1, bytes, file) == bytes);
    fflush(file);
    ze_ipc_mem_handle_t forged{};
    const int ffd = fileno(file);
    std::memcpy(forged.data, &ffd, sizeof ffd);
    CHECK(zeMemOpenIpcHandle(f.context, f.device, forged, 0, &again) ==
          ZE_RESULT_ERROR_INVALID_ARGUMENT);
    fclose(file);
  }
  // After zeMemPutIpcHandle nothing of the file is exported: refused.
  REQUIRE(f.putIpcHandle()(f.context, h) == ZE_RESULT_SUCCESS);
  CHECK(zeMemOpenIpcHandle(f.context, f.device, bare, 0, &again) ==
        ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeMemFree(f.context, p) == ZE_RESULT_SUCCESS);
}

// Two allocations exported from one arena file: each export has a descriptor of its own, so a
// handle of that number alone names its allocation; a descriptor of the file under any other
// number cannot tell which is meant.
TEST_CASE("Given two exported allocations of one file, then a handle of either export's "
          "descriptor alone opens that allocation and another descriptor of the file is refused",
          "[memory][ipc]") {
  MemoryFixture f;
  void* a = f.allocDevice(4096);
  void* b = f.allocDevice(4096);
  std::memset(a, 0xaa, 4096);
  std::memset(b, 0xbb, 4096);
  ze_ipc_mem_handle_t ha, hb;
  REQUIRE(zeMemGetIpcHandle(f.context, a, &ha) == ZE_RESULT_SUCCESS);
  REQUIRE(zeMemGetIpcHandle(f.context, b, &hb) == ZE_RESULT_SUCCESS);
  struct stat sa {}, sb {};
  REQUIRE(fstat(fdOf(ha), &sa) == 0);
  REQUIRE(fstat(fdOf(hb), &sb) == 0);
  if (sa.st_ino != sb.st_ino) {
    WARN("the two allocations are in different files");
  } else {
    CHECK(fdOf(ha) != fdOf(hb));
    for (auto [h, expect] : {std::pair{&ha, 0xaa}, std::pair{&hb, 0xbb}}) {
      ze_ipc_mem_handle_t bare{};
      const int fd = fdOf(*h);
      std::memcpy(bare.data, &fd, sizeof fd);
      void* p = nullptr;
      REQUIRE(zeMemOpenIpcHandle(f.context, f.device, bare, 0, &p) == ZE_RESULT_SUCCESS);
      CHECK(static_cast<unsigned char*>(p)[100] == expect);
      CHECK(zeMemCloseIpcHandle(f.context, p) == ZE_RESULT_SUCCESS);
    }
    const int other = dup(fdOf(ha));
    REQUIRE(other >= 0);
    ze_ipc_mem_handle_t bare{};
    std::memcpy(bare.data, &other, sizeof other);
    void* p = nullptr;
    CHECK(zeMemOpenIpcHandle(f.context, f.device, bare, 0, &p) ==
          ZE_RESULT_ERROR_INVALID_ARGUMENT);
    close(other);
  }
  CHECK(f.putIpcHandle()(f.context, ha) == ZE_RESULT_SUCCESS);
  CHECK(f.putIpcHandle()(f.context, hb) == ZE_RESULT_SUCCESS);
  CHECK(zeMemFree(f.context, a) == ZE_RESULT_SUCCESS);
  CHECK(zeMemFree(f.context, b) == ZE_RESULT_SUCCESS);
}
