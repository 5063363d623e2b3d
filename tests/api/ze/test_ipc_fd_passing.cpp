// IPC handles passed the way programs written for the reference driver pass them (level-zero-tests'
// IPC tests among them): the handle's first four bytes are taken as a file descriptor, sent to the
// other process (here: inherited across exec), and the number it has there is written over those
// bytes before the handle is opened. The peer has no ptrace rights over the exporter, so only the
// descriptor it was given can open the handle (core/common/remote_fd.h, takeHandleFd).
#include <sys/prctl.h>
#include <unistd.h>

#include <cstring>

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
