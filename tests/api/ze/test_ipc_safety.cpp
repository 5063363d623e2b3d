// IPC safety (docs/reliability.md, "IPC safety"): a peer that dies (SIGKILL) while it holds an
// opened IPC memory handle and an opened IPC event pool leaves the exporter unaffected, and the
// exporter's memory is reclaimable afterwards. (That a process without ptrace rights over the
// exporter cannot open a handle is tested in test_memory_ipc.cpp and below for event pools.)
#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstring>

#include "memory_test_support.h"

using namespace tessera::test;

namespace {

constexpr size_t kSafetyBytes = 2 * 4096 + 10;

size_t openFds() {
  size_t n = 0;
  if (DIR* d = opendir("/proc/self/fd")) {
    while (readdir(d)) ++n;
    closedir(d);
  }
  return n;
}

std::string nextLine(Child& c, const std::string& prefix) {
  for (;;) {
    std::string line = c.readLine();
    if (line.empty() || line.rfind(prefix, 0) == 0) return line;
  }
}

ze_event_handle_t poolEvent(ze_event_pool_handle_t pool, uint32_t index) {
  ze_event_desc_t desc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, index, 0, ZE_EVENT_SCOPE_FLAG_HOST};
  ze_event_handle_t e = nullptr;
  REQUIRE(zeEventCreate(pool, &desc, &e) == ZE_RESULT_SUCCESS);
  return e;
}

}  // namespace

// The peer: opens the memory handle and the event pool, writes into the memory, signals event 2,
// says "holding" and waits to be killed.
TEST_CASE("ipc safety child: hold handles", "[.ipc_safety_child]") {
  if (!childRole()) return;
  MemoryFixture f;
  if (std::string(childRole()) == "nobody") {
    (void)setresgid(65534, 65534, 65534);
    REQUIRE(setresuid(65534, 65534, 65534) == 0);
  }
  std::string mem, pool;
  std::getline(std::cin, mem);
  std::getline(std::cin, pool);
  void* p = nullptr;
  ze_result_t r = zeMemOpenIpcHandle(f.context, f.device, fromHex(mem), 0, &p);
  ze_event_pool_handle_t opened = nullptr;
  ze_result_t rp = zeEventPoolOpenIpcHandle(f.context, fromHex<ze_ipc_event_pool_handle_t>(pool), &opened);
  std::cout << "results " << std::hex << unsigned(r) << " " << unsigned(rp) << std::dec
            << std::endl;
  if (r != ZE_RESULT_SUCCESS || rp != ZE_RESULT_SUCCESS) return;
  std::memset(p, 0x5c, kSafetyBytes);
  ze_event_handle_t e = poolEvent(opened, 2);
  REQUIRE(zeEventHostSignal(e) == ZE_RESULT_SUCCESS);
  std::cout << "holding" << std::endl;
  std::string never;
  std::getline(std::cin, never);  // killed before this returns
}

TEST_CASE("IPC safety: a peer killed while holding memory and event-pool handles leaves the "
          "exporter working and its memory reclaimable",
          "[memory][ipc][ipc_safety]") {
  MemoryFixture f;
  size_t fdsBefore = openFds();
  for (bool host : {false, true}) {
    void* p = host ? f.allocHost(kSafetyBytes) : f.allocDevice(kSafetyBytes);
    std::memset(p, 0x11, kSafetyBytes);
    ze_ipc_mem_handle_t h;
    REQUIRE(zeMemGetIpcHandle(f.context, p, &h) == ZE_RESULT_SUCCESS);
    ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                            ZE_EVENT_POOL_FLAG_IPC | ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 4};
    ze_event_pool_handle_t pool = nullptr;
    REQUIRE(zeEventPoolCreate(f.context, &pd, 0, nullptr, &pool) == ZE_RESULT_SUCCESS);
    ze_ipc_event_pool_handle_t ph;
    REQUIRE(zeEventPoolGetIpcHandle(pool, &ph) == ZE_RESULT_SUCCESS);
    ze_event_handle_t e2 = poolEvent(pool, 2);

    Child c = startProgram({"/proc/self/exe", "ipc safety child: hold handles"},
                           {{"TESSERA_TEST_MEMORY_CHILD", "peer"}});
    c.writeLine(toHex(h));
    c.writeLine(toHex(ph));
    REQUIRE(nextLine(c, "results ") == "results 0 0");
    REQUIRE(nextLine(c, "holding") == "holding");
    REQUIRE(kill(c.pid, SIGKILL) == 0);
    CHECK(c.wait() == 128 + SIGKILL);

    // The exporter sees what the peer wrote and signalled, and goes on using both.
    auto* bytes = static_cast<unsigned char*>(p);
    CHECK(std::all_of(bytes, bytes + kSafetyBytes, [](unsigned char v) { return v == 0x5c; }));
    CHECK(zeEventQueryStatus(e2) == ZE_RESULT_SUCCESS);
    REQUIRE(zeEventHostReset(e2) == ZE_RESULT_SUCCESS);
    CHECK(zeEventQueryStatus(e2) == ZE_RESULT_NOT_READY);
    std::memset(p, 0x22, kSafetyBytes);
    CHECK(f.putIpcHandle()(f.context, h) == ZE_RESULT_SUCCESS);
    CHECK(zeMemFree(f.context, p) == ZE_RESULT_SUCCESS);
    CHECK(zeEventDestroy(e2) == ZE_RESULT_SUCCESS);
    CHECK(zeEventPoolDestroy(pool) == ZE_RESULT_SUCCESS);
  }
  // Reclaimable: allocations of the same size come and go without leaking descriptors.
  for (int i = 0; i < 64; ++i) {
    void* q = (i % 2) ? f.allocHost(kSafetyBytes) : f.allocDevice(kSafetyBytes);
    std::memset(q, i, kSafetyBytes);
    CHECK(static_cast<unsigned char*>(q)[kSafetyBytes - 1] == static_cast<unsigned char>(i));
    REQUIRE(zeMemFree(f.context, q) == ZE_RESULT_SUCCESS);
  }
  CHECK(openFds() <= fdsBefore + 2);  // the arenas' backings may have grown by a file each
}

TEST_CASE("IPC safety: a process without ptrace rights over the exporter cannot open its event "
          "pool or memory",
          "[memory][ipc][ipc_safety]") {
  MemoryFixture f;
  void* p = f.allocDevice(kSafetyBytes);
  ze_ipc_mem_handle_t h;
  REQUIRE(zeMemGetIpcHandle(f.context, p, &h) == ZE_RESULT_SUCCESS);
  ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                          ZE_EVENT_POOL_FLAG_IPC | ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 4};
  ze_event_pool_handle_t pool = nullptr;
  REQUIRE(zeEventPoolCreate(f.context, &pd, 0, nullptr, &pool) == ZE_RESULT_SUCCESS);
  ze_ipc_event_pool_handle_t ph;
  REQUIRE(zeEventPoolGetIpcHandle(pool, &ph) == ZE_RESULT_SUCCESS);
  // As root: a child that becomes nobody. Otherwise: this process made non-dumpable, which takes
  // the same user's ptrace right away.
  bool root = geteuid() == 0;
  if (!root) prctl(PR_SET_DUMPABLE, 0);
  Child c = startProgram({"/proc/self/exe", "ipc safety child: hold handles"},
                         {{"TESSERA_TEST_MEMORY_CHILD", root ? "nobody" : "peer"}});
  c.writeLine(toHex(h));
  c.writeLine(toHex(ph));
  char expected[64];
  std::snprintf(expected, sizeof expected, "results %x %x",
                unsigned(ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS),
                unsigned(ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS));
  CHECK(nextLine(c, "results ") == expected);
  c.wait();
  if (!root) prctl(PR_SET_DUMPABLE, 1);
  CHECK(zeEventPoolDestroy(pool) == ZE_RESULT_SUCCESS);
  CHECK(zeMemFree(f.context, p) == ZE_RESULT_SUCCESS);
}
