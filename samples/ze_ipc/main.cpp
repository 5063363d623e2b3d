// Two processes sharing memory and an event through Level Zero IPC. The parent allocates device
// memory, exports it (zeMemGetIpcHandle) and an IPC event pool (zeEventPoolGetIpcHandle), and starts
// a child (fork + exec of this program) with the two handles as hex on its command line. The child
// opens both, copies a pattern into the parent's memory with a command that signals the shared
// event, and exits; the parent waits on the event and checks the memory.
// Usage: ze_ipc [elements]   (run through the loader: ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1)
// The child opens the parent's memory with pidfd_getfd, which needs ptrace rights over the parent
// (same user; see docs/architecture.md, "Memory").
#include <level_zero/ze_api.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    ze_result_t r_ = (call);                                                                 \
    if (r_ != ZE_RESULT_SUCCESS) {                                                           \
      std::fprintf(stderr, "[%d] %s failed: 0x%x\n", int(getpid()), #call, unsigned(r_));    \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

namespace {

std::string toHex(const char* data, size_t n) {
  std::string s;
  char b[3];
  for (size_t i = 0; i < n; ++i) {
    std::snprintf(b, sizeof b, "%02x", static_cast<unsigned char>(data[i]));
    s += b;
  }
  return s;
}

void fromHex(const char* hex, char* data, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    unsigned v = 0;
    std::sscanf(hex + 2 * i, "%2x", &v);
    data[i] = static_cast<char>(v);
  }
}

struct Setup {
  ze_driver_handle_t driver;
  ze_device_handle_t device;
  ze_context_handle_t context;
};

Setup setup() {
  Setup s;
  CHECK(zeInit(0));
  uint32_t count = 1;
  CHECK(zeDriverGet(&count, &s.driver));
  count = 1;
  CHECK(zeDeviceGet(s.driver, &count, &s.device));
  ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  CHECK(zeContextCreate(s.driver, &desc, &s.context));
  return s;
}

uint32_t pattern(uint32_t i) { return i * 2654435761u; }

int child(const char* memHex, const char* poolHex, uint32_t n) {
  Setup s = setup();
  ze_ipc_mem_handle_t memHandle;
  fromHex(memHex, memHandle.data, sizeof memHandle.data);
  ze_ipc_event_pool_handle_t poolHandle;
  fromHex(poolHex, poolHandle.data, sizeof poolHandle.data);

  void* shared = nullptr;
  CHECK(zeMemOpenIpcHandle(s.context, s.device, memHandle, 0, &shared));
  ze_event_pool_handle_t pool;
  CHECK(zeEventPoolOpenIpcHandle(s.context, poolHandle, &pool));
  ze_event_desc_t eventDesc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, ZE_EVENT_SCOPE_FLAG_HOST,
                            ZE_EVENT_SCOPE_FLAG_HOST};
  ze_event_handle_t event;
  CHECK(zeEventCreate(pool, &eventDesc, &event));

  // The child's data goes into the parent's memory by a copy on the child's device, which signals
  // the shared event when it is done.
  std::vector<uint32_t> data(n);
  for (uint32_t i = 0; i < n; ++i) data[i] = pattern(i);
  ze_command_queue_desc_t queueDesc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0, 0,
                                    ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                    ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
  ze_command_list_handle_t list;
  CHECK(zeCommandListCreateImmediate(s.context, s.device, &queueDesc, &list));
  CHECK(zeCommandListAppendMemoryCopy(list, shared, data.data(), n * sizeof(uint32_t), event, 0,
                                      nullptr));
  CHECK(zeEventHostSynchronize(event, UINT64_MAX));
  std::printf("child %d: wrote %u values into the parent's memory and signalled the event\n",
              int(getpid()), n);
  CHECK(zeCommandListDestroy(list));
  CHECK(zeEventDestroy(event));
  CHECK(zeEventPoolCloseIpcHandle(pool));
  CHECK(zeMemCloseIpcHandle(s.context, shared));
  CHECK(zeContextDestroy(s.context));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 5 && std::strcmp(argv[1], "--child") == 0)
    return child(argv[2], argv[3], static_cast<uint32_t>(std::atoi(argv[4])));
  const uint32_t n = argc > 1 ? static_cast<uint32_t>(std::atoi(argv[1])) : 1u << 16;

  Setup s = setup();
  ze_device_mem_alloc_desc_t deviceDesc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
  uint32_t* memory = nullptr;
  CHECK(zeMemAllocDevice(s.context, &deviceDesc, n * sizeof(uint32_t), 64, s.device,
                         reinterpret_cast<void**>(&memory)));
  std::memset(memory, 0, n * sizeof(uint32_t));  // device memory is host memory on Tessera
  ze_ipc_mem_handle_t memHandle;
  CHECK(zeMemGetIpcHandle(s.context, memory, &memHandle));

  ze_event_pool_desc_t poolDesc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                                ZE_EVENT_POOL_FLAG_IPC | ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
  ze_event_pool_handle_t pool;
  CHECK(zeEventPoolCreate(s.context, &poolDesc, 1, &s.device, &pool));
  ze_event_desc_t eventDesc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, ZE_EVENT_SCOPE_FLAG_HOST,
                            ZE_EVENT_SCOPE_FLAG_HOST};
  ze_event_handle_t event;
  CHECK(zeEventCreate(pool, &eventDesc, &event));
  ze_ipc_event_pool_handle_t poolHandle;
  CHECK(zeEventPoolGetIpcHandle(pool, &poolHandle));

  std::string memHex = toHex(memHandle.data, sizeof memHandle.data);
  std::string poolHex = toHex(poolHandle.data, sizeof poolHandle.data);
  std::string count = std::to_string(n);
  std::fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) {
    std::perror("fork");
    return 1;
  }
  if (pid == 0) {
    execl("/proc/self/exe", argv[0], "--child", memHex.c_str(), poolHex.c_str(), count.c_str(),
          static_cast<char*>(nullptr));
    std::perror("exec");
    _exit(127);
  }
  std::printf("parent %d: exported %u values and an event pool to child %d\n", int(getpid()), n,
              int(pid));
  CHECK(zeEventHostSynchronize(event, UINT64_MAX));
  int status = 0;
  waitpid(pid, &status, 0);
  uint32_t wrong = 0;
  for (uint32_t i = 0; i < n; ++i) wrong += memory[i] != pattern(i);
  std::printf("parent %d: the event is signalled; %s (child exit status %d)\n", int(getpid()),
              wrong ? "the memory is WRONG" : "the child's values are all there",
              WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  CHECK(zeEventDestroy(event));
  CHECK(zeEventPoolDestroy(pool));
  CHECK(zeMemFree(s.context, memory));
  CHECK(zeContextDestroy(s.context));
  return wrong || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}
