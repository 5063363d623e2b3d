// Idle costs nothing (docs/reliability.md): after its spin window, an idle queue's executor, the
// device's worker threads and a host thread waiting on an event without a timeout sleep in the
// kernel on a futex with no timeout, so they make no system calls until there is work. Checked by
// state, not by time: each thread's current system call (/proc/self/task/<tid>/syscall) must be
// futex with a null timeout argument. (Before, every idle executor woke every 2 ms: 200 idle
// queues took a third of a core.)
#include <dirent.h>
#include <level_zero/ze_api.h>
#include <pthread.h>
#include <sys/syscall.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "ze_exec_support.h"

using namespace tessera::test;

namespace {

struct ThreadState {
  std::string tid, name, syscall;
};

std::string firstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::vector<ThreadState> threads() {
  std::vector<ThreadState> out;
  DIR* d = opendir("/proc/self/task");
  if (!d) return out;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    std::string base = std::string("/proc/self/task/") + e->d_name;
    out.push_back({e->d_name, firstLine(base + "/comm"), firstLine(base + "/syscall")});
  }
  closedir(d);
  return out;
}

// "<nr> <arg1> ... <arg6> <sp> <pc>": futex with a null 4th argument (the timeout).
bool sleepsWithoutTimeout(const std::string& syscallLine) {
  std::istringstream in(syscallLine);
  long nr = -1;
  std::string arg[4];
  if (!(in >> nr >> arg[0] >> arg[1] >> arg[2] >> arg[3])) return false;
  return nr == SYS_futex && arg[3] == "0x0";
}

// Waits (bounded) until every thread named in `names` sleeps without a timeout; the states seen
// last otherwise.
std::string notAsleep(const std::vector<std::string>& names) {
  std::string last;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    last.clear();
    size_t seen = 0;
    for (const ThreadState& t : threads()) {
      if (std::find(names.begin(), names.end(), t.name) == names.end()) continue;
      ++seen;
      if (!sleepsWithoutTimeout(t.syscall)) last += t.name + " " + t.tid + ": " + t.syscall + "\n";
    }
    if (seen == 0) last = "no such threads";
    if (last.empty()) return last;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return last;
}

bool canReadSyscalls() {
  std::string s = firstLine("/proc/self/task/" + std::to_string(syscall(SYS_gettid)) + "/syscall");
  return !s.empty();
}

}  // namespace

TEST_CASE("Idle: idle queues, workers and event waits sleep on a futex without a timeout",
          "[idle]") {
  if (!canReadSyscalls()) {
    WARN("/proc/self/task/*/syscall is not readable here; skipped");
    return;
  }
  ExecFixture fx;
  std::vector<ze_command_queue_handle_t> queues;
  for (uint32_t i = 0; i < 4; ++i) queues.push_back(fx.queue());
  fx.immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  // Work first, so the workers have run a job and gone back to sleep.
  std::vector<uint8_t> a(16u << 20, 1), b(16u << 20);
  auto imm = fx.immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  REQUIRE(zeCommandListAppendMemoryCopy(imm, b.data(), a.data(), a.size(), nullptr, 0, nullptr) ==
          ZE_RESULT_SUCCESS);

  // A host thread waiting without a timeout on an event nobody signals yet.
  auto e = fx.events(1).at(0);
  ze_result_t waited = ZE_RESULT_ERROR_UNKNOWN;
  std::thread waiter([&] {
    pthread_setname_np(pthread_self(), "test-waiter");
    waited = zeEventHostSynchronize(e, UINT64_MAX);
  });
  // A queue whose executor waits for that event.
  auto q = fx.queue();
  auto l = fx.list();
  REQUIRE(zeCommandListAppendBarrier(l, nullptr, 1, &e) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);

  std::string awake = notAsleep({"tessera-queue", "tessera-worker", "test-waiter"});
  INFO("threads not asleep without a timeout:\n" << awake);
  CHECK(awake.empty());

  REQUIRE(zeEventHostSignal(e) == ZE_RESULT_SUCCESS);
  waiter.join();
  CHECK(waited == ZE_RESULT_SUCCESS);
  CHECK(zeCommandQueueSynchronize(q, UINT64_MAX) == ZE_RESULT_SUCCESS);
}

TEST_CASE("Idle: a queue whose executor sleeps on an event nobody signals is destroyed promptly",
          "[idle]") {
  ExecFixture fx;
  auto e = fx.events(1).at(0);
  ze_command_queue_desc_t qd{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  ze_command_queue_handle_t q = nullptr;
  REQUIRE(zeCommandQueueCreate(fx.context, fx.device, &qd, &q) == ZE_RESULT_SUCCESS);
  auto l = fx.list();
  REQUIRE(zeCommandListAppendBarrier(l, nullptr, 1, &e) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandListClose(l) == ZE_RESULT_SUCCESS);
  REQUIRE(zeCommandQueueExecuteCommandLists(q, 1, &l, nullptr) == ZE_RESULT_SUCCESS);
  // Past the spin window: the executor sleeps on the event's word.
  CHECK(zeCommandQueueSynchronize(q, 50'000'000) == ZE_RESULT_NOT_READY);
  // The destroy wakes it (sync::Cancel) and returns; the context is not lost (no kernel ran).
  REQUIRE(zeCommandQueueDestroy(q) == ZE_RESULT_SUCCESS);
  CHECK(zeContextGetStatus(fx.context) == ZE_RESULT_SUCCESS);
}
