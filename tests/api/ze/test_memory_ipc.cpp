// Memory IPC (zeMemGetIpcHandle, zeMemOpenIpcHandle, zeMemCloseIpcHandle, zeMemPutIpcHandle) across
// real processes, and external memory export/import as opaque fds.
#include <sys/prctl.h>
#include <unistd.h>

#include <cstring>

#include "memory_test_support.h"
#include "tessera/ze_tessera.h"

using namespace tessera::test;

namespace {

constexpr size_t kBytes = 3 * 4096 + 100;

void fill(void* p, unsigned char seed) {
  auto* c = static_cast<unsigned char*>(p);
  for (size_t i = 0; i < kBytes; ++i) c[i] = static_cast<unsigned char>(seed + i * 7);
}

bool holds(const void* p, unsigned char seed) {
  auto* c = static_cast<const unsigned char*>(p);
  for (size_t i = 0; i < kBytes; ++i)
    if (c[i] != static_cast<unsigned char>(seed + i * 7)) return false;
  return true;
}

Child startChild(const std::string& test, std::map<std::string, std::string> env = {}) {
  env.emplace("TESSERA_TEST_MEMORY_CHILD", "1");
  return startProgram({"/proc/self/exe", test}, env);
}

// The first line of the child's output that starts with `prefix` (Catch prints its own lines
// first); empty when the child ends without one.
std::string lineStarting(Child& c, const std::string& prefix) {
  for (;;) {
    std::string line = c.readLine();
    if (line.empty() || line.rfind(prefix, 0) == 0) return line;
  }
}

// Runs the child to its end and checks that its one test passed.
void finish(Child& c) {
  std::string rest, line;
  while (!(line = c.readLine()).empty()) rest += line + "\n";
  INFO("child output: " << rest);
  CHECK(c.wait() == 0);
  CHECK(rest.find("All tests passed") != std::string::npos);
}

// Another process opens `h`, checks that the allocation holds `seed`'s bytes and writes seed + 1's
// ("child: open an IPC handle"); the caller then sees what it wrote.
void openInChild(const ze_ipc_mem_handle_t& h, int seed) {
  Child c = startChild("child: open an IPC handle");
  c.writeLine(toHex(h));
  c.writeLine(std::to_string(seed));
  CHECK(lineStarting(c, "opened") == "opened");
  finish(c);
}

}  // namespace

// The opener: reads a handle and the byte seed it should see, opens it, checks the bytes, writes
// them with seed+1, closes and reports.
TEST_CASE("child: open an IPC handle", "[.memory_child]") {
  if (!childRole()) return;
  MemoryFixture f;
  std::string hex, seed;
  std::getline(std::cin, hex);
  std::getline(std::cin, seed);
  void* p = nullptr;
  REQUIRE(zeMemOpenIpcHandle(f.context, f.device, fromHex(hex), 0, &p) == ZE_RESULT_SUCCESS);
  CHECK(holds(p, static_cast<unsigned char>(std::stoi(seed))));
  fill(p, static_cast<unsigned char>(std::stoi(seed) + 1));
  CHECK(f.props(p).type != ZE_MEMORY_TYPE_UNKNOWN);
  CHECK(zeMemCloseIpcHandle(f.context, p) == ZE_RESULT_SUCCESS);
  CHECK(zeMemCloseIpcHandle(f.context, p) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  std::cout << "opened" << std::endl;
}

// The exporter: allocates, fills, prints the handle, waits until the parent has written, checks.
TEST_CASE("child: export an IPC handle", "[.memory_child]") {
  if (!childRole()) return;
  MemoryFixture f;
  bool host = std::string(childRole()) == "host";
  void* p = host ? f.allocHost(kBytes) : f.allocDevice(kBytes);
  fill(p, 40);
  ze_ipc_mem_handle_t h;
  REQUIRE(zeMemGetIpcHandle(f.context, p, &h) == ZE_RESULT_SUCCESS);
  std::cout << "handle " << toHex(h) << std::endl;
  std::string done;
  std::getline(std::cin, done);
  CHECK(done == "written");
  CHECK(holds(p, 41));
  CHECK(f.putIpcHandle()(f.context, h) == ZE_RESULT_SUCCESS);
  CHECK(zeMemFree(f.context, p) == ZE_RESULT_SUCCESS);
}

// Tries to open a handle and prints the result code (the permission and stale-handle cases).
TEST_CASE("child: try an IPC handle", "[.memory_child]") {
  if (!childRole()) return;
  MemoryFixture f;  // loads the driver while its files are surely readable
  if (std::string(childRole()) == "nobody") {
    // Another user without CAP_SYS_PTRACE: must not be able to ptrace the exporter.
    // The group matters little (ptrace rights follow the user); some systems refuse it.
    (void)setresgid(65534, 65534, 65534);
    REQUIRE(setresuid(65534, 65534, 65534) == 0);
  }
  std::string hex;
  std::getline(std::cin, hex);
  void* p = nullptr;
  ze_result_t r = zeMemOpenIpcHandle(f.context, f.device, fromHex(hex), 0, &p);
  std::cout << "result " << std::hex << unsigned(r) << std::endl;
  if (r == ZE_RESULT_SUCCESS) zeMemCloseIpcHandle(f.context, p);
}

TEST_CASE_METHOD(MemoryFixture,
                 "Given a device or host allocation, when another process opens its IPC handle, "
                 "then both see the same bytes",
                 "[memory][ipc]") {
  for (bool host : {false, true}) {
    void* p = host ? allocHost(kBytes) : allocDevice(kBytes);
    fill(p, 10);
    ze_ipc_mem_handle_t h;
    REQUIRE(zeMemGetIpcHandle(context, p, &h) == ZE_RESULT_SUCCESS);
    openInChild(h, 10);
    CHECK(holds(p, 11));  // what the child wrote
    CHECK(putIpcHandle()(context, h) == ZE_RESULT_SUCCESS);
    CHECK(zeMemFree(context, p) == ZE_RESULT_SUCCESS);
  }
}

// 1.15's zeMemGetIpcHandleWithProperties: the handle zeMemGetIpcHandle makes, with no chain or a
// ze_ipc_mem_handle_type_ext_desc_t asking for the local (DEFAULT) type, which another process
// opens; a fabric handle is UNSUPPORTED_FEATURE and an unknown type bit INVALID_ENUMERATION.
TEST_CASE_METHOD(MemoryFixture,
                 "Given zeMemGetIpcHandleWithProperties, then a local handle opens in another "
                 "process and a fabric handle is not made",
                 "[memory][ipc]") {
  auto withProperties = extensionFunction<ze_pfnMemGetIpcHandleWithProperties_t>(
      driver, "zeMemGetIpcHandleWithProperties");
  REQUIRE(withProperties);
  void* p = allocDevice(kBytes);
  ze_ipc_mem_handle_t h;
  ze_ipc_mem_handle_type_ext_desc_t type{ZE_STRUCTURE_TYPE_IPC_MEM_HANDLE_TYPE_EXT_DESC, nullptr,
                                         ZE_IPC_MEM_HANDLE_TYPE_FLAG_FABRIC_ACCESSIBLE};
  CHECK(withProperties(context, p, &type, &h) == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  type.typeFlags = 1u << 5;
  CHECK(withProperties(context, p, &type, &h) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  CHECK(withProperties(context, nullptr, nullptr, &h) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(withProperties(context, p, nullptr, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  for (void* chain : {static_cast<void*>(nullptr), static_cast<void*>(&type)}) {
    type.typeFlags = ZE_IPC_MEM_HANDLE_TYPE_FLAG_DEFAULT;
    fill(p, 10);
    REQUIRE(withProperties(context, p, chain, &h) == ZE_RESULT_SUCCESS);
    openInChild(h, 10);
    CHECK(holds(p, 11));
    CHECK(putIpcHandle()(context, h) == ZE_RESULT_SUCCESS);
  }
  CHECK(zeMemFree(context, p) == ZE_RESULT_SUCCESS);
}

// ZE_extension_ipc_mem_handle_type at allocation: ze_ipc_mem_handle_type_ext_desc_t chained to
// zeMemAllocDevice, zeMemAllocHost and zePhysicalMemCreate asks for the handle types the
// allocation will be shared with. The local one is every allocation's (its handle opens in another
// process); a fabric one cannot be made (UNSUPPORTED_FEATURE, nothing allocated); an unknown bit
// is INVALID_ENUMERATION. The extension is listed.
TEST_CASE_METHOD(MemoryFixture,
                 "Given IPC handle types chained to allocations, then the local type is made and "
                 "shared, and a fabric type is refused without allocating",
                 "[memory][ipc]") {
  CHECK(extensionVersion(driver, ZE_IPC_MEM_HANDLE_TYPE_EXT_NAME) == ZE_MAKE_VERSION(1, 0));
  ze_ipc_mem_handle_type_ext_desc_t type{ZE_STRUCTURE_TYPE_IPC_MEM_HANDLE_TYPE_EXT_DESC, nullptr,
                                         ZE_IPC_MEM_HANDLE_TYPE_FLAG_FABRIC_ACCESSIBLE};
  ze_device_mem_alloc_desc_t dd{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, &type, 0, 0};
  ze_host_mem_alloc_desc_t hd{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, &type, 0};
  ze_physical_mem_desc_t pd{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, &type, 0, 4096};
  for (uint32_t flags : {uint32_t{ZE_IPC_MEM_HANDLE_TYPE_FLAG_FABRIC_ACCESSIBLE}, 1u << 4}) {
    INFO("typeFlags " << flags);
    type.typeFlags = flags;
    const ze_result_t expected = flags == ZE_IPC_MEM_HANDLE_TYPE_FLAG_FABRIC_ACCESSIBLE
                                     ? ZE_RESULT_ERROR_UNSUPPORTED_FEATURE
                                     : ZE_RESULT_ERROR_INVALID_ENUMERATION;
    void* p = nullptr;
    CHECK(zeMemAllocDevice(context, &dd, kBytes, 0, device, &p) == expected);
    CHECK(zeMemAllocHost(context, &hd, kBytes, 0, &p) == expected);
    CHECK(p == nullptr);
    ze_physical_mem_handle_t phys = nullptr;
    CHECK(zePhysicalMemCreate(context, device, &pd, &phys) == expected);
    CHECK(phys == nullptr);
  }
  type.typeFlags = ZE_IPC_MEM_HANDLE_TYPE_FLAG_DEFAULT;
  ze_physical_mem_handle_t phys = nullptr;
  REQUIRE(zePhysicalMemCreate(context, device, &pd, &phys) == ZE_RESULT_SUCCESS);
  CHECK(zePhysicalMemDestroy(context, phys) == ZE_RESULT_SUCCESS);
  void* host = nullptr;
  REQUIRE(zeMemAllocHost(context, &hd, kBytes, 0, &host) == ZE_RESULT_SUCCESS);
  CHECK(zeMemFree(context, host) == ZE_RESULT_SUCCESS);
  void* p = nullptr;
  REQUIRE(zeMemAllocDevice(context, &dd, kBytes, 0, device, &p) == ZE_RESULT_SUCCESS);
  fill(p, 20);
  ze_ipc_mem_handle_t h;
  REQUIRE(zeMemGetIpcHandle(context, p, &h) == ZE_RESULT_SUCCESS);
  openInChild(h, 20);
  CHECK(holds(p, 21));
  CHECK(putIpcHandle()(context, h) == ZE_RESULT_SUCCESS);
  CHECK(zeMemFree(context, p) == ZE_RESULT_SUCCESS);
}

// level-zero-tests' IpcMemoryAccessTest ...PhysicalMemoryAllocatedAndReserved...: a reserved range
// mapped to a physical memory object is exported like an allocation (the reference driver's
// behaviour; the header only says "pointer to the device memory allocation"). [novalidation]: it
// reserves with a null pStart, which the 1.4 validation layer refuses (test_virtual_memory.cpp).
TEST_CASE_METHOD(MemoryFixture,
                 "Given a reserved range mapped to physical memory, when another process opens "
                 "its IPC handle, then both see the same bytes until the handle is put",
                 "[memory][ipc][virtual][novalidation]") {
  const size_t bytes = 4 * 4096;
  void* p = nullptr;
  REQUIRE(zeVirtualMemReserve(context, nullptr, bytes, &p) == ZE_RESULT_SUCCESS);
  ze_physical_mem_desc_t pd{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, bytes};
  ze_physical_mem_handle_t phys = nullptr;
  REQUIRE(zePhysicalMemCreate(context, device, &pd, &phys) == ZE_RESULT_SUCCESS);
  REQUIRE(zeVirtualMemMap(context, p, bytes, phys, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) ==
          ZE_RESULT_SUCCESS);
  fill(p, 20);
  ze_ipc_mem_handle_t h;
  REQUIRE(zeMemGetIpcHandle(context, p, &h) == ZE_RESULT_SUCCESS);
  openInChild(h, 20);
  CHECK(holds(p, 21));  // what the child wrote
  CHECK(putIpcHandle()(context, h) == ZE_RESULT_SUCCESS);
  // Put: another opener is refused.
  Child late = startChild("child: try an IPC handle");
  late.writeLine(toHex(h));
  CHECK(lineStarting(late, "result ") != "result 0");
  late.wait();
  // Not mapped (an unmapped page of the reservation, an address outside it): no handle.
  CHECK(zeVirtualMemUnmap(context, p, bytes) == ZE_RESULT_SUCCESS);
  CHECK(zeMemGetIpcHandle(context, p, &h) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeVirtualMemFree(context, p, bytes) == ZE_RESULT_SUCCESS);
  CHECK(zePhysicalMemDestroy(context, phys) == ZE_RESULT_SUCCESS);
}

TEST_CASE_METHOD(MemoryFixture,
                 "Given another process exports an allocation, when this process opens it and "
                 "writes, then the exporter sees the writes",
                 "[memory][ipc]") {
  for (const char* role : {"device", "host"}) {
    Child c = startChild("child: export an IPC handle", {{"TESSERA_TEST_MEMORY_CHILD", role}});
    ze_ipc_mem_handle_t h = fromHex(lineStarting(c, "handle ").substr(7));
    void* p = nullptr;
    REQUIRE(zeMemOpenIpcHandle(context, device, h, 0, &p) == ZE_RESULT_SUCCESS);
    CHECK(holds(p, 40));
    fill(p, 41);
    c.writeLine("written");
    finish(c);
    CHECK(zeMemCloseIpcHandle(context, p) == ZE_RESULT_SUCCESS);
  }
}

TEST_CASE_METHOD(MemoryFixture,
                 "Given a handle that was put, freed or forged, or a process without ptrace "
                 "rights over the exporter, then the open is refused",
                 "[memory][ipc]") {
  auto tryIn = [&](const ze_ipc_mem_handle_t& h, const char* role) {
    Child c = startChild("child: try an IPC handle", {{"TESSERA_TEST_MEMORY_CHILD", role}});
    c.writeLine(toHex(h));
    std::string line = lineStarting(c, "result ");
    finish(c);
    return line;
  };
  void* p = allocDevice(kBytes);
  ze_ipc_mem_handle_t h;
  REQUIRE(zeMemGetIpcHandle(context, p, &h) == ZE_RESULT_SUCCESS);
  CHECK(tryIn(h, "same-user") == "result 0");
  // A process that may not ptrace this one: another user when we are root, else we make this
  // process non-dumpable for the duration.
  bool root = geteuid() == 0;
  if (!root) prctl(PR_SET_DUMPABLE, 0);
  char expected[32];
  std::snprintf(expected, sizeof expected, "result %x",
                unsigned(ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS));
  CHECK(tryIn(h, root ? "nobody" : "same-user") == expected);
  if (!root) prctl(PR_SET_DUMPABLE, 1);

  char invalid[32];
  std::snprintf(invalid, sizeof invalid, "result %x", unsigned(ZE_RESULT_ERROR_INVALID_ARGUMENT));
  // A forged cookie.
  ze_ipc_mem_handle_t forged = h;
  forged.data[40] ^= 0x5a;
  CHECK(tryIn(forged, "same-user") == invalid);
  // Put: the handle is dead.
  CHECK(putIpcHandle()(context, h) == ZE_RESULT_SUCCESS);
  CHECK(tryIn(h, "same-user") == invalid);
  CHECK(putIpcHandle()(context, h) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  // Freed without a put: zeMemFree does what the put would have done.
  REQUIRE(zeMemGetIpcHandle(context, p, &h) == ZE_RESULT_SUCCESS);
  CHECK(zeMemFree(context, p) == ZE_RESULT_SUCCESS);
  CHECK(tryIn(h, "same-user") == invalid);
  // Garbage.
  ze_ipc_mem_handle_t garbage{};
  void* q = nullptr;
  CHECK(zeMemOpenIpcHandle(context, device, garbage, 0, &q) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_CASE_METHOD(MemoryFixture,
                 "Given IPC calls with bad arguments, then each gets the error the spec names",
                 "[memory][ipc]") {
  void* p = allocDevice(64);
  ze_ipc_mem_handle_t h;
  CHECK(zeMemGetIpcHandle(nullptr, p, &h) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeMemGetIpcHandle(context, nullptr, &h) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeMemGetIpcHandle(context, p, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  int local = 0;
  CHECK(zeMemGetIpcHandle(context, &local, &h) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  REQUIRE(zeMemGetIpcHandle(context, p, &h) == ZE_RESULT_SUCCESS);
  void* q = nullptr;
  CHECK(zeMemOpenIpcHandle(nullptr, device, h, 0, &q) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeMemOpenIpcHandle(context, nullptr, h, 0, &q) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeMemOpenIpcHandle(context, device, h, 0x4, &q) == ZE_RESULT_ERROR_INVALID_ENUMERATION);
  CHECK(zeMemOpenIpcHandle(context, device, h, 0, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeMemCloseIpcHandle(nullptr, p) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  CHECK(zeMemCloseIpcHandle(context, nullptr) == ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  CHECK(zeMemCloseIpcHandle(context, p) == ZE_RESULT_ERROR_INVALID_ARGUMENT);  // not opened
  CHECK(putIpcHandle()(nullptr, h) == ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  // Opening in this same process (another context) maps the same bytes at another address.
  ze_context_handle_t other = makeContext();
  REQUIRE(zeMemOpenIpcHandle(other, device, h, 0, &q) == ZE_RESULT_SUCCESS);
  static_cast<char*>(p)[5] = 42;
  CHECK(static_cast<char*>(q)[5] == 42);
  CHECK(zeMemCloseIpcHandle(other, q) == ZE_RESULT_SUCCESS);
  CHECK(zeContextDestroy(other) == ZE_RESULT_SUCCESS);
  CHECK(putIpcHandle()(context, h) == ZE_RESULT_SUCCESS);
  CHECK(zeMemFree(context, p) == ZE_RESULT_SUCCESS);

  ze_driver_ipc_properties_t ipc{ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES};
  REQUIRE(zeDriverGetIpcProperties(driver, &ipc) == ZE_RESULT_SUCCESS);
  CHECK((ipc.flags & ZE_IPC_PROPERTY_FLAG_MEMORY) != 0);
}

TEST_CASE_METHOD(MemoryFixture,
                 "Given an exportable allocation, when it is exported as an opaque fd and "
                 "imported, then the import sees the same bytes",
                 "[memory][external]") {
  ze_device_external_memory_properties_t ext{ZE_STRUCTURE_TYPE_DEVICE_EXTERNAL_MEMORY_PROPERTIES};
  REQUIRE(zeDeviceGetExternalMemoryProperties(device, &ext) == ZE_RESULT_SUCCESS);
  CHECK(ext.memoryAllocationExportTypes == ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD);
  CHECK(ext.memoryAllocationImportTypes == ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD);
  CHECK(ext.imageExportTypes == 0);

  for (bool host : {false, true}) {
    ze_external_memory_export_desc_t exportDesc{ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_DESC,
                                                nullptr, ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD};
    auto d = deviceDesc(&exportDesc);
    auto hd = hostDesc(&exportDesc);
    void* p = nullptr;
    REQUIRE((host ? zeMemAllocHost(context, &hd, kBytes, 0, &p)
                  : zeMemAllocDevice(context, &d, kBytes, 0, device, &p)) == ZE_RESULT_SUCCESS);
    fill(p, 77);
    ze_external_memory_export_fd_t exportFd{ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD, nullptr,
                                            ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, -1};
    ze_memory_allocation_properties_t a{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, &exportFd};
    REQUIRE(zeMemGetAllocProperties(context, p, &a, nullptr) == ZE_RESULT_SUCCESS);
    REQUIRE(exportFd.fd >= 0);

    ze_external_memory_import_fd_t importFd{ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD, nullptr,
                                            ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, exportFd.fd};
    ze_context_handle_t other = makeContext();
    auto id = deviceDesc(&importFd);
    void* q = nullptr;
    REQUIRE(zeMemAllocDevice(other, &id, kBytes, 0, device, &q) == ZE_RESULT_SUCCESS);
    close(exportFd.fd);  // the import holds its own reference
    CHECK(holds(q, 77));
    fill(q, 78);
    CHECK(holds(p, 78));
    CHECK(props(q, nullptr, other).type == ZE_MEMORY_TYPE_DEVICE);
    CHECK(zeMemFree(other, q) == ZE_RESULT_SUCCESS);
    CHECK(zeContextDestroy(other) == ZE_RESULT_SUCCESS);
    CHECK(zeMemFree(context, p) == ZE_RESULT_SUCCESS);
  }

  // Not made exportable: nothing to export. DMA_BUF: not offered.
  void* plain = allocDevice(64);
  ze_external_memory_export_fd_t exportFd{ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD, nullptr,
                                          ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, -1};
  ze_memory_allocation_properties_t a{ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, &exportFd};
  CHECK(zeMemGetAllocProperties(context, plain, &a, nullptr) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
  CHECK(zeMemFree(context, plain) == ZE_RESULT_SUCCESS);
  ze_external_memory_export_desc_t dmabuf{ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_DESC, nullptr,
                                          ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF};
  auto d = deviceDesc(&dmabuf);
  void* p = nullptr;
  CHECK(zeMemAllocDevice(context, &d, 64, 0, device, &p) ==
        ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
  ze_external_memory_import_fd_t badFd{ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD, nullptr,
                                       ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, -1};
  d = deviceDesc(&badFd);
  CHECK(zeMemAllocDevice(context, &d, 64, 0, device, &p) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
}
