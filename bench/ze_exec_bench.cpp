// The execution engine's costs (issue 4): immediate-list round trip, per-command overhead of a
// regular list, large-copy bandwidth against memcpy, and host-signal-to-queue wake-up. Run it through
// the loader; and mutable command lists (ZE_experimental_mutable_command_list): updating one argument
// of each of 100 launches, and executing those 100 launches of an empty kernel. Run it through
// the loader: ZE_ENABLE_ALT_DRIVERS=libze_tessera.so.1 LD_LIBRARY_PATH=build/lib build/bin/ze_exec_bench
#include <cstring>
#include <fstream>
#include <iterator>
#include <thread>

#include "bench_util.h"
#include "host_reference.h"
#include "tessera/ze_tessera.h"

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
    // Every PU, pinned, the better of memcpy and streaming stores (host_reference.h).
    all.push_back(gbps(size, 1e6 * host::copy(dst.data(), src.data(), size)));
    t0 = nowUs();
    BENCH_CHECK(zeCommandQueueExecuteCommandLists(queue, 1, &list, nullptr));
    BENCH_CHECK(zeCommandQueueSynchronize(queue, UINT64_MAX));
    ze.push_back(gbps(size, nowUs() - t0));
  }
  Stats a = stats(one), b = stats(all), c = stats(ze);
  report("memcpy 256 MiB, 1 thread", a, "GB/s");
  report("copy 256 MiB, every PU (best of memcpy/streaming)", b, "GB/s");
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

// The bench corpus's empty kernel (one work-item, its arguments set), destroyed with the object.
struct EmptyKernel {
  explicit EmptyKernel(Setup& s) {
    std::ifstream in(TESSERA_BENCH_EMPTY_SPV, std::ios::binary);
    std::vector<uint8_t> spv{std::istreambuf_iterator<char>(in), {}};
    ze_module_desc_t md{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV,
                        spv.size(), spv.data(), "", nullptr};
    BENCH_CHECK(zeModuleCreate(s.context, s.device, &md, &module, nullptr));
    ze_kernel_desc_t kd{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "empty"};
    BENCH_CHECK(zeKernelCreate(module, &kd, &kernel));
    BENCH_CHECK(zeKernelSetGroupSize(kernel, 1, 1, 1));
    int* p = &sink;
    BENCH_CHECK(zeKernelSetArgumentValue(kernel, 0, sizeof p, &p));
    BENCH_CHECK(zeKernelSetArgumentValue(kernel, 1, sizeof value, &value));
  }
  ~EmptyKernel() {
    zeKernelDestroy(kernel);
    zeModuleDestroy(module);
  }
  ze_module_handle_t module = nullptr;
  ze_kernel_handle_t kernel = nullptr;
  int sink = 0, value = 0;
};

// An empty kernel (one work-item) launched on a SYNCHRONOUS immediate list, and the same appended
// to an ASYNCHRONOUS one followed by zeCommandListHostSynchronize: the round trip of a launch.
void immediateLaunch(Setup& s) {
  EmptyKernel empty(s);
  ze_kernel_handle_t kernel = empty.kernel;
  ze_group_count_t one{1, 1, 1};
  ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                          ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
  ze_event_pool_handle_t pool;
  BENCH_CHECK(zeEventPoolCreate(s.context, &pd, 0, nullptr, &pool));
  ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, ZE_EVENT_SCOPE_FLAG_HOST,
                     ZE_EVENT_SCOPE_FLAG_HOST};
  ze_event_handle_t done;
  BENCH_CHECK(zeEventCreate(pool, &ed, &done));
  for (auto mode : {ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS}) {
    const bool async = mode == ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
    auto d = queueDesc(mode);
    ze_command_list_handle_t list;
    BENCH_CHECK(zeCommandListCreateImmediate(s.context, s.device, &d, &list));
    std::vector<double> t;
    for (int i = 0; i < iterations(20000); ++i) {
      double t0 = nowUs();
      BENCH_CHECK(zeCommandListAppendLaunchKernel(list, kernel, &one, async ? done : nullptr, 0,
                                                  nullptr));
      if (async) BENCH_CHECK(zeEventHostSynchronize(done, UINT64_MAX));
      t.push_back(nowUs() - t0);
      if (async) BENCH_CHECK(zeEventHostReset(done));
    }
    report(async ? "immediate ASYNC list, empty kernel launch + event sync"
                 : "immediate SYNCHRONOUS list, launch of an empty kernel",
           stats(t), "us");
    zeCommandListDestroy(list);
  }
  zeEventDestroy(done);
  zeEventPoolDestroy(pool);
}

// 100 launches of an empty kernel in a mutable list, each with a command id. (a) one
// zeCommandListUpdateMutableCommandsExp of one argument per command, then the close; (b) execute +
// synchronize of the list; (c) both, as a replay that changes one argument per dispatch does. All
// per command, median over runs.
void mutableList(Setup& s) {
  constexpr int kCommands = 100;
  EmptyKernel empty(s);
  ze_kernel_handle_t kernel = empty.kernel;
  int& value = empty.value;

  void* f = nullptr;
  BENCH_CHECK(zeDriverGetExtensionFunctionAddress(s.driver, "zeCommandListGetNextCommandIdExp", &f));
  auto getId = reinterpret_cast<ze_pfnCommandListGetNextCommandIdExp_t>(f);
  BENCH_CHECK(
      zeDriverGetExtensionFunctionAddress(s.driver, "zeCommandListUpdateMutableCommandsExp", &f));
  auto update = reinterpret_cast<ze_pfnCommandListUpdateMutableCommandsExp_t>(f);

  auto d = queueDesc(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  ze_command_queue_handle_t queue;
  BENCH_CHECK(zeCommandQueueCreate(s.context, s.device, &d, &queue));
  ze_mutable_command_list_exp_desc_t mutableDesc{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_DESC,
                                                 nullptr, 0};
  ze_command_list_desc_t ld{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, &mutableDesc, 0, 0};
  ze_command_list_handle_t list;
  BENCH_CHECK(zeCommandListCreate(s.context, s.device, &ld, &list));
  ze_mutable_command_id_exp_desc_t idDesc{ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_ID_EXP_DESC, nullptr,
                                          ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_ARGUMENTS};
  std::vector<uint64_t> ids(kCommands);
  ze_group_count_t one{1, 1, 1};
  for (int i = 0; i < kCommands; ++i) {
    BENCH_CHECK(getId(list, &idDesc, &ids[i]));
    BENCH_CHECK(zeCommandListAppendLaunchKernel(list, kernel, &one, nullptr, 0, nullptr));
  }
  BENCH_CHECK(zeCommandListClose(list));

  ze_mutable_kernel_argument_exp_desc_t arg{ZE_STRUCTURE_TYPE_MUTABLE_KERNEL_ARGUMENT_EXP_DESC,
                                            nullptr, 0, 1, sizeof value, &value};
  ze_mutable_commands_exp_desc_t cmds{ZE_STRUCTURE_TYPE_MUTABLE_COMMANDS_EXP_DESC, &arg, 0};
  auto updateAll = [&] {
    ++value;
    for (int i = 0; i < kCommands; ++i) {
      arg.commandId = ids[i];
      BENCH_CHECK(update(list, &cmds));
    }
    BENCH_CHECK(zeCommandListClose(list));
  };
  auto execute = [&] {
    BENCH_CHECK(zeCommandQueueExecuteCommandLists(queue, 1, &list, nullptr));
    BENCH_CHECK(zeCommandQueueSynchronize(queue, UINT64_MAX));
  };
  std::vector<double> tUpdate, tExecute, tBoth;
  for (int r = 0; r < iterations(2000); ++r) {
    double t0 = nowUs();
    updateAll();
    double t1 = nowUs();
    execute();
    double t2 = nowUs();
    tUpdate.push_back((t1 - t0) / kCommands);
    tExecute.push_back((t2 - t1) / kCommands);
    tBoth.push_back((t2 - t0) / kCommands);
  }
  report("mutable list: update 1 kernel arg of 100 commands, per cmd", stats(tUpdate), "us");
  report("mutable list: execute + sync 100 empty launches, per cmd", stats(tExecute), "us");
  report("mutable list: update + close + execute + sync, per cmd", stats(tBoth), "us");

  zeCommandListDestroy(list);
  zeCommandQueueDestroy(queue);
}

}  // namespace

int main() {
  Setup s;
  std::printf("Tessera execution engine (issue 4); BENCH_SCALE=%g\n", scale());
  immediateRoundTrip(s);
  immediateLaunch(s);
  listOverhead(s);
  signalToWake(s);
  largeCopy(s);
  mutableList(s);
  return 0;
}
