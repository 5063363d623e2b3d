// Tessera through a current Level Zero loader: the functions of Level Zero 1.6 to 1.17 that
// Tessera implements, called by their names, so that the loader reaches them through the DDI table
// slots Tessera fills for the version it asks (level_zero/ze_ddi_tables_current.cpp). Debian's
// loader (1.8.12) has no such slots; this needs a current one and its headers
// (scripts/apps/ze_current_loader_probe.sh). Prints each call and its result; exits 1 when one
// differs from what docs/api-coverage.md says.
#include <level_zero/ze_api.h>

#include <cstdio>
#include <vector>

static int failures = 0;

static void expect(const char* what, ze_result_t got, ze_result_t want) {
  std::printf("%-44s 0x%08x%s\n", what, unsigned(got), got == want ? "" : "  UNEXPECTED");
  failures += got != want;
}
static void expectTrue(const char* what, bool ok) {
  std::printf("%-44s %s\n", what, ok ? "yes" : "NO");
  failures += !ok;
}
#define OK(call) expect(#call, (call), ZE_RESULT_SUCCESS)

int main() {
  ze_init_driver_type_desc_t desc{ZE_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC, nullptr,
                                  ZE_INIT_DRIVER_TYPE_FLAG_GPU};
  uint32_t n = 0;
  // No GPU driver here (Tessera's device is a CPU): the loader answers UNINITIALIZED.
  expect("zeInitDrivers(GPU)", zeInitDrivers(&n, nullptr, &desc), ZE_RESULT_ERROR_UNINITIALIZED);
  desc.flags = UINT32_MAX;
  n = 0;
  OK(zeInitDrivers(&n, nullptr, &desc));
  if (n == 0) return 1;
  std::vector<ze_driver_handle_t> drivers(n);
  OK(zeInitDrivers(&n, drivers.data(), &desc));
  ze_driver_handle_t driver = drivers[0];
  uint32_t nd = 1;
  ze_device_handle_t device = nullptr;
  OK(zeDeviceGet(driver, &nd, &device));
  ze_context_desc_t cd{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
  ze_context_handle_t context = nullptr;
  OK(zeContextCreate(driver, &cd, &context));

  ze_command_queue_desc_t qd{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0,
                             ZE_COMMAND_QUEUE_FLAG_IN_ORDER, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS};
  ze_command_list_handle_t list = nullptr;
  OK(zeCommandListCreateImmediate(context, device, &qd, &list));
  std::vector<char> buffer(1 << 20);
  const char pattern = 3;
  OK(zeCommandListAppendMemoryFill(list, buffer.data(), &pattern, 1, buffer.size(), nullptr, 0,
                                   nullptr));
  OK(zeCommandListHostSynchronize(list, UINT64_MAX));
  expectTrue("  the fill ran", buffer.back() == 3);
  ze_device_handle_t d2 = nullptr;
  OK(zeCommandListGetDeviceHandle(list, &d2));
  expectTrue("  its device", d2 == device);
  ze_context_handle_t c2 = nullptr;
  OK(zeCommandListGetContextHandle(list, &c2));
  expectTrue("  its context", c2 == context);
  uint32_t ordinal = 9, index = 9;
  OK(zeCommandListGetOrdinal(list, &ordinal));
  OK(zeCommandListImmediateGetIndex(list, &index));
  expectTrue("  ordinal 0, index 0", ordinal == 0 && index == 0);
  ze_bool_t immediate = 0;
  OK(zeCommandListIsImmediate(list, &immediate));
  expectTrue("  immediate", immediate == 1);

  ze_command_queue_handle_t queue = nullptr;
  qd.flags = 0;
  OK(zeCommandQueueCreate(context, device, &qd, &queue));
  OK(zeCommandQueueGetOrdinal(queue, &ordinal));
  OK(zeCommandQueueGetIndex(queue, &index));

  ze_event_pool_desc_t pd{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                          ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
  ze_event_pool_handle_t pool = nullptr;
  OK(zeEventPoolCreate(context, &pd, 0, nullptr, &pool));
  ze_event_desc_t ed{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, ZE_EVENT_SCOPE_FLAG_HOST, 0};
  ze_event_handle_t event = nullptr;
  OK(zeEventCreate(pool, &ed, &event));
  ze_event_pool_handle_t p2 = nullptr;
  OK(zeEventGetEventPool(event, &p2));
  expectTrue("  its pool", p2 == pool);
  ze_event_scope_flags_t scope = 0;
  OK(zeEventGetSignalScope(event, &scope));
  expectTrue("  signal scope HOST", scope == ZE_EVENT_SCOPE_FLAG_HOST);
  OK(zeEventGetWaitScope(event, &scope));
  ze_event_pool_flags_t flags = 0;
  OK(zeEventPoolGetFlags(pool, &flags));
  expectTrue("  pool flags HOST_VISIBLE", flags == ZE_EVENT_POOL_FLAG_HOST_VISIBLE);
  OK(zeEventPoolGetContextHandle(pool, &c2));
  expectTrue("  its context", c2 == context);
  ze_event_counter_based_desc_t cbd{ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC, nullptr,
                                    ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE};
  ze_event_handle_t cbe = nullptr;
  OK(zeEventCounterBasedCreate(context, device, &cbd, &cbe));
  // Reused without reset on the in-order immediate list: each fill makes it pending again.
  for (uint8_t round = 4; round < 6; ++round) {
    OK(zeCommandListAppendMemoryFill(list, buffer.data(), &round, 1, buffer.size(), cbe, 0,
                                     nullptr));
    OK(zeEventHostSynchronize(cbe, UINT64_MAX));
    expectTrue("  the fill before the counter-based event ran", buffer.back() == round);
  }
  uint64_t completion = 0, address = 0;
  OK(zeEventCounterBasedGetDeviceAddress(cbe, &completion, &address));
  expectTrue("  its counter reached the second append's value",
             completion == 2 && *reinterpret_cast<const uint64_t*>(address) == 2);
  expect("zeEventHostReset(counter-based)", zeEventHostReset(cbe),
         ZE_RESULT_ERROR_INVALID_ARGUMENT);
  OK(zeEventDestroy(cbe));
  const char* why = nullptr;
  OK(zeDriverGetLastErrorDescription(driver, &why));
  std::printf("  last error: %s\n", why ? why : "(null)");
  ze_device_handle_t root = device;
  OK(zeDeviceGetRootDevice(device, &root));

  OK(zeEventDestroy(event));
  OK(zeEventPoolDestroy(pool));
  OK(zeCommandQueueDestroy(queue));
  OK(zeCommandListDestroy(list));
  OK(zeContextDestroy(context));
  std::printf("%s\n", failures ? "FAILED" : "all as expected");
  return failures ? 1 : 0;
}
