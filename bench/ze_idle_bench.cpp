// What idle objects cost: the CPU time the process uses while N command queues (default 2000), an
// immediate list and the device's workers sit idle, as a percentage of one core (getrusage over a
// measured window after they settled). Arguments: [queues] [seconds]; BENCH_SCALE scales the
// queue count (the ctest smoke run uses 0.01). docs/performance.md, docs/reliability.md.
#include <level_zero/ze_api.h>
#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

double cpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

#define CHECK_ZE(call)                                               \
  do {                                                               \
    ze_result_t r_ = (call);                                         \
    if (r_ != ZE_RESULT_SUCCESS) {                                   \
      std::fprintf(stderr, "%s failed: %#x\n", #call, unsigned(r_)); \
      std::exit(1);                                                  \
    }                                                                \
  } while (0)

}  // namespace

int main(int argc, char** argv) {
  double scale = std::getenv("BENCH_SCALE") ? std::atof(std::getenv("BENCH_SCALE")) : 1.0;
  unsigned queues = argc > 1 ? unsigned(std::atoi(argv[1])) : unsigned(std::lround(2000 * scale));
  double seconds = argc > 2 ? std::atof(argv[2]) : (scale < 1 ? 0.2 : 2.0);
  if (queues == 0) queues = 1;
  CHECK_ZE(zeInit(0));
  uint32_t n = 1;
  ze_driver_handle_t driver = nullptr;
  CHECK_ZE(zeDriverGet(&n, &driver));
  n = 1;
  ze_device_handle_t device = nullptr;
  CHECK_ZE(zeDeviceGet(driver, &n, &device));
  ze_context_desc_t cd{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_context_handle_t context = nullptr;
  CHECK_ZE(zeContextCreate(driver, &cd, &context));
  std::vector<ze_command_queue_handle_t> qs(queues);
  for (auto& q : qs) {
    ze_command_queue_desc_t qd{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    CHECK_ZE(zeCommandQueueCreate(context, device, &qd, &q));
  }
  ze_command_queue_desc_t qd{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  ze_command_list_handle_t imm = nullptr;
  CHECK_ZE(zeCommandListCreateImmediate(context, device, &qd, &imm));
  // Let every thread pass its spin window.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  double c0 = cpuSeconds();
  auto t0 = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  double cpu = cpuSeconds() - c0;
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%u idle queues + 1 immediate list: %.3f%% of one CPU (%.4f s CPU in %.2f s)\n",
              queues, 100.0 * cpu / wall, cpu, wall);
  zeCommandListDestroy(imm);
  for (auto q : qs) zeCommandQueueDestroy(q);
  zeContextDestroy(context);
  return 0;
}
