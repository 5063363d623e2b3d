// What creating the objects a Level Zero program makes per test or per frame costs (issue 30 item
// 3): an immediate command list (intel/compute-benchmarks' CreateCommandListImmediate reported
// 73 us a list), a regular list, an event pool and its events, and a module from a binary the
// driver has seen before (SPIR-V already in the module cache, and a native binary). Each create and
// each destroy is timed on its own; medians with p10/p90. docs/performance.md has the figures.
#include <level_zero/ze_api.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include "bench_util.h"
#include "tessera/ze_tessera.h"

using namespace tessera::bench;

namespace {

// Times `create` and `destroy` `n` times each (every create followed by its destroy).
template <typename Create, typename Destroy>
void timePair(const char* what, int n, Create&& create, Destroy&& destroy) {
  std::vector<double> made, gone;
  for (int i = 0; i < n; ++i) {
    double t0 = nowUs();
    auto h = create();
    double t1 = nowUs();
    destroy(h);
    double t2 = nowUs();
    made.push_back(t1 - t0);
    gone.push_back(t2 - t1);
  }
  char line[160];
  std::snprintf(line, sizeof line, "%s: create", what);
  report(line, stats(made), "us");
  std::snprintf(line, sizeof line, "%s: destroy", what);
  report(line, stats(gone), "us");
}

}  // namespace

int main(int argc, char** argv) {
  Setup s;
  const int n = iterations(400);

  for (auto mode : {ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS}) {
    ze_command_queue_desc_t qd{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0, 0, mode,
                               ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    timePair(mode == ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS ? "zeCommandListCreateImmediate (async)"
                                                        : "zeCommandListCreateImmediate (sync)",
             n,
             [&] {
               ze_command_list_handle_t l = nullptr;
               BENCH_CHECK(zeCommandListCreateImmediate(s.context, s.device, &qd, &l));
               return l;
             },
             [](ze_command_list_handle_t l) { BENCH_CHECK(zeCommandListDestroy(l)); });
  }
  ze_command_queue_desc_t qd{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0, 0,
                             ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
  timePair("zeCommandQueueCreate", n,
           [&] {
             ze_command_queue_handle_t q = nullptr;
             BENCH_CHECK(zeCommandQueueCreate(s.context, s.device, &qd, &q));
             return q;
           },
           [](ze_command_queue_handle_t q) { BENCH_CHECK(zeCommandQueueDestroy(q)); });
  ze_command_list_desc_t ld{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, 0, 0};
  timePair("zeCommandListCreate", n,
           [&] {
             ze_command_list_handle_t l = nullptr;
             BENCH_CHECK(zeCommandListCreate(s.context, s.device, &ld, &l));
             return l;
           },
           [](ze_command_list_handle_t l) { BENCH_CHECK(zeCommandListDestroy(l)); });

  for (uint32_t count : {1u, 64u}) {
    ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                            ZE_EVENT_POOL_FLAG_HOST_VISIBLE, count};
    char what[64];
    std::snprintf(what, sizeof what, "zeEventPoolCreate (%u events)", count);
    timePair(what, n,
             [&] {
               ze_event_pool_handle_t p = nullptr;
               BENCH_CHECK(zeEventPoolCreate(s.context, &pd, 0, nullptr, &p));
               return p;
             },
             [](ze_event_pool_handle_t p) { BENCH_CHECK(zeEventPoolDestroy(p)); });
  }
  ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                          ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
  ze_event_pool_handle_t pool = nullptr;
  BENCH_CHECK(zeEventPoolCreate(s.context, &pd, 0, nullptr, &pool));
  ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, 0, ZE_EVENT_SCOPE_FLAG_HOST};
  timePair("zeEventCreate", n,
           [&] {
             ze_event_handle_t e = nullptr;
             BENCH_CHECK(zeEventCreate(pool, &ed, &e));
             return e;
           },
           [](ze_event_handle_t e) { BENCH_CHECK(zeEventDestroy(e)); });
  BENCH_CHECK(zeEventPoolDestroy(pool));
  // A counter-based event (Level Zero 1.15), which has no pool of the application's; reached
  // through zeDriverGetExtensionFunctionAddress (Debian's loader has no slot for it).
  ze_pfnEventCounterBasedCreate_t counterCreate = nullptr;
  BENCH_CHECK(zeDriverGetExtensionFunctionAddress(
      s.driver, "zeEventCounterBasedCreate", reinterpret_cast<void**>(&counterCreate)));
  ze_event_counter_based_desc_t cd{ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC, nullptr,
                                   ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE, 0, 0};
  timePair("zeEventCounterBasedCreate", n,
           [&] {
             ze_event_handle_t e = nullptr;
             BENCH_CHECK(counterCreate(s.context, s.device, &cd, &e));
             return e;
           },
           [](ze_event_handle_t e) { BENCH_CHECK(zeEventDestroy(e)); });

  // A module from SPIR-V the driver built before (the first build fills the module cache) and
  // from the native binary of that module.
  auto spv = readFile(argc > 1 ? argv[1] : TESSERA_BENCH_SUITE_SPV);
  auto moduleFrom = [&](ze_module_format_t format, const std::vector<uint8_t>& bytes) {
    ze_module_desc_t md{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, format, bytes.size(),
                        bytes.data(), "", nullptr};
    ze_module_handle_t m = nullptr;
    BENCH_CHECK(zeModuleCreate(s.context, s.device, &md, &m, nullptr));
    return m;
  };
  ze_module_handle_t first = moduleFrom(ZE_MODULE_FORMAT_IL_SPIRV, spv);
  size_t size = 0;
  BENCH_CHECK(zeModuleGetNativeBinary(first, &size, nullptr));
  std::vector<uint8_t> native(size);
  BENCH_CHECK(zeModuleGetNativeBinary(first, &size, native.data()));
  BENCH_CHECK(zeModuleDestroy(first));
  const int m = iterations(100);
  auto destroyModule = [](ze_module_handle_t h) { BENCH_CHECK(zeModuleDestroy(h)); };
  timePair("zeModuleCreate (SPIR-V seen before)", m,
           [&] { return moduleFrom(ZE_MODULE_FORMAT_IL_SPIRV, spv); }, destroyModule);
  timePair("zeModuleCreate (native binary)", m,
           [&] { return moduleFrom(ZE_MODULE_FORMAT_NATIVE, native); }, destroyModule);
  return 0;
}
