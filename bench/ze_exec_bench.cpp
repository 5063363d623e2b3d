// The execution engine's costs (issue 4): immediate-list round trip, per-command overhead of a
// regular list, large-copy bandwidth against memcpy, and host-signal-to-queue wake-up. Run it through
// the loader: ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1 LD_LIBRARY_PATH=build/lib build/bin/ze_exec_bench
#include <cstring>
#include <thread>

#include "bench_util.h"

using namespace tessera::bench;

namespace {

ze_command_queue_desc_t queueDesc(ze_command_queue_mode_t mode) {
  ze_command_queue_desc_t d{};
  d.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
  d.mode = mode;
  return d;
}

ze_command_list_handle_t newList(Setup& s) {
  ze_command_list_desc_t d{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, 0, 0};
  ze_command_list_handle_t list;
  BENCH_CHECK(zeCommandListCreate(s.context, s.device, &d, &list));
  return list;
}

void immediateRoundTrip(Setup& s) {
  auto d = queueDesc(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  ze_command_list_handle_t list;
  BENCH_CHECK(zeCommandListCreateImmediate(s.context, s.device, &d, &list));
  uint32_t src = 42, dst = 0;
  std::vector<double> t;
  for (int i = 0; i < iterations(20000); ++i) {
    double t0 = nowUs();
    BENCH_CHECK(zeCommandListAppendMemoryCopy(list, &dst, &src, 4, nullptr, 0, nullptr));
    t.push_back(nowUs() - t0);
  }
  report("immediate SYNCHRONOUS list, append of a 4-byte copy", stats(t), "us");
  zeCommandListDestroy(list);
}

void listOverhead(Setup& s) {
  auto d = queueDesc(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  ze_command_queue_handle_t queue;
  BENCH_CHECK(zeCommandQueueCreate(s.context, s.device, &d, &queue));
  ze_command_list_handle_t list = newList(s);
  std::vector<uint32_t> src(1000, 7), dst(1000);
  for (int i = 0; i < 1000; ++i)
    BENCH_CHECK(zeCommandListAppendMemoryCopy(list, &dst[i], &src[i], 4, nullptr, 0, nullptr));
  BENCH_CHECK(zeCommandListClose(list));
  std::vector<double> t;
  for (int i = 0; i < iterations(300); ++i) {
    double t0 = nowUs();
    BENCH_CHECK(zeCommandQueueExecuteCommandLists(queue, 1, &list, nullptr));
    BENCH_CHECK(zeCommandQueueSynchronize(queue, UINT64_MAX));
    t.push_back((nowUs() - t0) / 1000.0);
  }
  report("regular list of 1,000 4-byte copies, execute + sync, per command", stats(t), "us");
  zeCommandListDestroy(list);
  zeCommandQueueDestroy(queue);
}

double gbps(size_t bytes, double us) { return double(bytes) / (us * 1e3); }

void largeCopy(Setup& s) {
  const size_t size = 256u << 20;
  std::vector<char> src(size, 1), dst(size, 0);
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  auto memcpyThreads = [&](unsigned n) {
    std::vector<std::thread> ts;
    size_t part = size / n;
    for (unsigned i = 0; i < n; ++i)
      ts.emplace_back([&, i] {
        size_t b = i * part, len = i + 1 == n ? size - b : part;
        std::memcpy(dst.data() + b, src.data() + b, len);
      });
    for (auto& t : ts) t.join();
  };
  auto d = queueDesc(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  ze_command_queue_handle_t queue;
  BENCH_CHECK(zeCommandQueueCreate(s.context, s.device, &d, &queue));
  ze_command_list_handle_t list = newList(s);
  BENCH_CHECK(zeCommandListAppendMemoryCopy(list, dst.data(), src.data(), size, nullptr, 0, nullptr));
  BENCH_CHECK(zeCommandListClose(list));
  std::vector<double> one, all, ze;
  // Interleaved, so the three see the same machine state.
  for (int i = 0; i < iterations(15); ++i) {
    double t0 = nowUs();
    std::memcpy(dst.data(), src.data(), size);
    one.push_back(gbps(size, nowUs() - t0));
    t0 = nowUs();
    memcpyThreads(threads);
    all.push_back(gbps(size, nowUs() - t0));
    t0 = nowUs();
    BENCH_CHECK(zeCommandQueueExecuteCommandLists(queue, 1, &list, nullptr));
    BENCH_CHECK(zeCommandQueueSynchronize(queue, UINT64_MAX));
    ze.push_back(gbps(size, nowUs() - t0));
  }
  Stats a = stats(one), b = stats(all), c = stats(ze);
  report("memcpy 256 MiB, 1 thread", a, "GB/s");
  report("memcpy 256 MiB, all threads", b, "GB/s");
  report("zeCommandListAppendMemoryCopy 256 MiB", c, "GB/s");
  std::printf("%-58s %.0f%%\n", "  ratio to the best memcpy (target >= 90%)",
              100.0 * c.median / std::max(a.median, b.median));
  zeCommandListDestroy(list);
  zeCommandQueueDestroy(queue);
}

void signalToWake(Setup& s) {
  ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
  ze_event_pool_handle_t pool;
  BENCH_CHECK(zeEventPoolCreate(s.context, &pd, 0, nullptr, &pool));
  ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, ZE_EVENT_SCOPE_FLAG_HOST};
  ze_event_handle_t event;
  BENCH_CHECK(zeEventCreate(pool, &ed, &event));
  auto d = queueDesc(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  ze_command_queue_handle_t queue;
  BENCH_CHECK(zeCommandQueueCreate(s.context, s.device, &d, &queue));
  uint64_t woke = 0;
  ze_command_list_handle_t list = newList(s);
  BENCH_CHECK(zeCommandListAppendWaitOnEvents(list, 1, &event));
  BENCH_CHECK(zeCommandListAppendWriteGlobalTimestamp(list, &woke, nullptr, 0, nullptr));
  BENCH_CHECK(zeCommandListClose(list));
  std::vector<double> t;
  for (int i = 0; i < iterations(2000); ++i) {
    BENCH_CHECK(zeCommandQueueExecuteCommandLists(queue, 1, &list, nullptr));
    // Give the executor time to reach the wait, then signal and read when it resumed.
    double until = nowUs() + 20;
    while (nowUs() < until) {
    }
    uint64_t host, signalled;
    BENCH_CHECK(zeDeviceGetGlobalTimestamps(s.device, &host, &signalled));
    BENCH_CHECK(zeEventHostSignal(event));
    BENCH_CHECK(zeCommandQueueSynchronize(queue, UINT64_MAX));
    t.push_back(double(woke - signalled) / 1000.0);
    BENCH_CHECK(zeEventHostReset(event));
  }
  report("zeEventHostSignal to the waiting queue resuming", stats(t), "us");
  zeCommandListDestroy(list);
  zeCommandQueueDestroy(queue);
  zeEventDestroy(event);
  zeEventPoolDestroy(pool);
}

}  // namespace

int main() {
  Setup s;
  std::printf("Tessera execution engine (issue 4); BENCH_SCALE=%g\n", scale());
  immediateRoundTrip(s);
  listOverhead(s);
  signalToWake(s);
  largeCopy(s);
  return 0;
}
